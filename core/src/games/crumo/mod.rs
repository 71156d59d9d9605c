//! Crumo, the third game of the project, exactly as `games/crumo/RULES.md` describes it: stacks
//! of one colour on the points of a hexagonal board guard the points at a distance equal to
//! their height along 12 lines; a stack guarded by more enemy stacks than friendly ones is
//! dead and removed; two passes end the game, scored by controlled points, captures and a
//! half point for the first passer.
//!
//! ```
//! use crumble_core::game::CompleteMoves;
//! use crumble_core::games::crumo::{Crumo, position};
//!
//! let mut game = Crumo::standard(5).unwrap();
//! game.play_text("3e5").unwrap(); // Black's first stack: the pie rule's offer
//! assert!(game.legal_move_texts().contains(&"swap".to_string()));
//! assert!(game.play_text("3e2").is_err()); // it would guard the enemy stack on e5 (5.2 b)
//! game.play_text("2e2").unwrap();
//! // The position JSON of rule 12 round-trips.
//! let json = position::to_json(&game);
//! assert_eq!(position::to_json(&position::from_json(&json).unwrap()), json);
//! ```
//!
//! Files: `board` points, directions and guarding; `game` the state, its decisions (the
//! action space is documented there), removal and the end; `score` rule 9; `status` the pie state, the previous turn and the result; `moves` complete
//! moves, checked play and random play; `notation` and `position` the text forms (`text` their
//! [`GameText`](crate::GameText), which also gives the game its records); `symmetry` the maps of
//! rule 13; `game/interface.rs` the [`GameState`](crate::GameState) implementation; this file
//! the start specification and the seats.

pub mod board;
pub mod game;
pub mod moves;
pub mod notation;
pub mod position;
pub mod render;
pub mod score;
pub mod status;
pub mod symmetry;
pub mod text;

pub use board::{DIRECTIONS, Geometry, MAX_POINTS, MAX_SIZE, MIN_SIZE, Point, Stack, geometry};
pub use game::{Action, Crumo, Outcome, Pie, Previous, Reason};
pub use moves::{MoveError, MoveRuleError};

/// A move of a list refused by [`CompleteMoves::play_texts`](crate::game::CompleteMoves::play_texts) (rule 11.8).
pub type Refusal = crate::game::Refusal<MoveError>;
pub use notation::{CrumoMove, NotationError};
pub use position::{PositionError, PositionRuleError};
pub use symmetry::Symmetry;

use crate::game::state::Player;
use crate::game::{Color, StartMismatch};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The default size: 5, the standard short game (rule 1.1).
pub const DEFAULT_SIZE: u8 = 5;

/// Where a Crumo game starts, as records and configs store it: `{"size": 5}` for the
/// standard start, or with `"position": {...}` (rule 12's JSON, whose size must agree) for
/// any other.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrumoStart {
    pub size: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<serde_json::Value>,
}

impl CrumoStart {
    pub fn standard(size: u8) -> CrumoStart {
        CrumoStart {
            size,
            position: None,
        }
    }
}

impl Default for CrumoStart {
    /// The standard start of size 5.
    fn default() -> CrumoStart {
        CrumoStart::standard(DEFAULT_SIZE)
    }
}

/// Why a [`CrumoStart`] cannot be played.
#[derive(Debug, Error)]
pub enum CrumoStartError {
    #[error("size {0}: a Crumo board has {MIN_SIZE} to {MAX_SIZE} points per side (rule 1.1)")]
    Size(u8),
    #[error("start position: {0}")]
    Position(#[from] PositionError),
    #[error(transparent)]
    Mismatch(#[from] StartMismatch),
}

impl Crumo {
    /// The seat that plays colour `c` (rule 8.3): the first seat plays Black unless the
    /// second seat swapped.
    #[inline]
    pub fn seat_of(&self, c: Color) -> Player {
        if self.first_seat_plays(c) {
            Player::First
        } else {
            Player::Second
        }
    }
}
