//! The games, each whole in its own folder: rules, notation, position JSON, records,
//! symmetries and pictures. Nothing in [`crate::game`] imports a game.
//!
//! * [`crumble`]: Crumble (`crumble/RULES.md`).
//! * [`splinter`]: Splinter (`splinter/RULES.md`).
//! * [`crumo`]: Crumo (`crumo/RULES.md`).
//! * [`tictactoe`] and [`nim`]: small games solved exactly, for tests of the generic pipeline
//!   (one decision a turn; two decisions a turn, like Crumble's multi-decision turns).

pub mod crumble;
pub mod crumo;
pub mod nim;
pub mod splinter;
pub mod tictactoe;
