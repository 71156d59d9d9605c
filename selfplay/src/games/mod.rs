//! Each game's own views of the generic records (notation of its moves), and Crumble's own
//! tools: the tactics suite and the opening statistics.

pub mod crumble;
pub mod crumo;
pub mod splinter;
