//! Crumble's own tools: the tactics suite and the opening statistics. (Every game's text
//! records are generic: `crate::text_record`.)

pub mod crumble;
