//! Splinter, the second game of the project, exactly as `games/splinter/RULES.md` describes it:
//! pieces on a `W × H` board slide one square and push whole rows; pieces pushed off the
//! board or cut off from the largest group are eliminated; running out of a type gives the
//! opponent a knockout, and two knockouts win.
//!
//! ```
//! use crumble_core::game::CompleteMoves;
//! use crumble_core::games::splinter::{Splinter, position};
//!
//! let mut game = Splinter::standard(15, 18).unwrap();
//! game.play_text("h9-h10").unwrap(); // pushes the White king and the pieces above it
//! assert!(game.play_text("h11-h10").is_err()); // the no-return rule (rule 5)
//! assert!(game.legal_move_texts().contains(&"g11-g10".to_string()));
//! // The position JSON of rule 10 round-trips (the turn count belongs to the match).
//! let json = position::to_json(&game);
//! assert_eq!(position::to_json(&position::from_json(&json).unwrap()), json);
//! ```
//!
//! Files: `board` squares, directions, pushes and groups; `game` the state, its decisions
//! and the end of the game (`game/interface.rs` the [`GameState`](crate::GameState)
//! implementation); `moves` complete moves, checked play and random play; `notation` and
//! `position` the text forms (`text` their [`GameText`](crate::GameText), which also gives
//! the game its records); `symmetry` the maps of rule 11; this file the start
//! specification.

pub mod board;
pub mod game;
pub mod lookahead;
pub mod moves;
pub mod notation;
pub mod position;
pub mod render;
pub mod symmetry;
pub mod text;

pub use board::{Board, Dir, Piece, PieceType, Square, SquareSet};
pub use game::{Action, LastMove, Outcome, Reason, Splinter};
pub use lookahead::SplinterWinCheck;
pub use moves::{MoveError, MoveRuleError, SplinterMove};
pub use notation::NotationError;
pub use position::{PositionError, PositionRuleError};
pub use symmetry::Symmetry;

use crate::game::StartMismatch;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Where a Splinter game starts, as records and configs store it: `{"width": 15,
/// "height": 18}` for the standard start, or with `"position": {...}` (rule 10's JSON,
/// whose size must agree) for any other.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SplinterStart {
    pub width: u8,
    pub height: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<serde_json::Value>,
}

impl SplinterStart {
    pub fn standard(width: u8, height: u8) -> SplinterStart {
        SplinterStart {
            width,
            height,
            position: None,
        }
    }
}

impl Default for SplinterStart {
    /// The default board of rule 2.1: 15 × 18.
    fn default() -> SplinterStart {
        SplinterStart::standard(15, 18)
    }
}

/// Why a [`SplinterStart`] cannot be played.
#[derive(Debug, Error)]
pub enum SplinterStartError {
    #[error(
        "board {width}x{height}: a Splinter board has 5 to 26 files and 6 to 26 ranks (rule 2.1)"
    )]
    Size { width: u8, height: u8 },
    #[error("start position: {0}")]
    Position(#[from] PositionError),
    #[error(transparent)]
    Mismatch(#[from] StartMismatch),
}
