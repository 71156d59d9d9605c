//! Splinter, the second game of the project, exactly as `games/splinter/RULES.md` describes it:
//! pieces on a `W × H` board slide one square and push whole rows; pieces pushed off the
//! board or cut off from the largest group are eliminated; running out of a type gives the
//! opponent a knockout, and two knockouts win.
//!
//! ```
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
//! and the end of the game; `moves` complete moves, checked play and random play;
//! `notation` and `position` the text forms (`text` their [`GameText`](crate::GameText), which also
//! gives the game its records); `symmetry` the maps of rule 11; this file the
//! [`GameState`] glue.

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
pub use moves::{MoveError, SplinterMove};
pub use notation::NotationError;
pub use position::PositionError;
pub use symmetry::Symmetry;

use crate::game::Decision;
use crate::game::state::{GameResult, GameState, Player};
use rand::Rng;
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
    #[error("start position is {found_width}x{found_height}, but the start names {width}x{height}")]
    SizeMismatch {
        width: u8,
        height: u8,
        found_width: u8,
        found_height: u8,
    },
}

impl Splinter {
    /// The game at a start specification.
    pub fn from_spec(start: &SplinterStart) -> Result<Splinter, SplinterStartError> {
        let Some(json) = &start.position else {
            return Splinter::standard(start.width, start.height).ok_or(SplinterStartError::Size {
                width: start.width,
                height: start.height,
            });
        };
        let game = position::from_value(json)?;
        let b = game.board();
        if (b.width(), b.height()) != (start.width, start.height) {
            return Err(SplinterStartError::SizeMismatch {
                width: start.width,
                height: start.height,
                found_width: b.width(),
                found_height: b.height(),
            });
        }
        Ok(game)
    }
}

fn player(c: crate::game::Color) -> Player {
    match c {
        crate::game::Color::Black => Player::First,
        crate::game::Color::White => Player::Second,
    }
}

// Inherent methods with the trait's names are called as `Splinter::name(self)`: inherent
// methods take precedence, so these calls reach the engine, not the trait.
impl GameState for Splinter {
    const NAME: &'static str = "splinter";
    type Start = SplinterStart;
    type StartError = SplinterStartError;

    fn from_start(start: &SplinterStart) -> Result<Splinter, SplinterStartError> {
        Splinter::from_spec(start)
    }

    fn to_start(&self) -> SplinterStart {
        let b = self.board();
        let (w, h) = (b.width(), b.height());
        // The turn count and limit belong to the match, not to the position (rule 10.1).
        let standard = Splinter::standard(w, h).is_some_and(|s| {
            s.board() == b
                && s.to_move() == self.to_move()
                && self.last_move().is_none()
                && self.outcome().is_none()
        });
        if standard {
            SplinterStart::standard(w, h)
        } else {
            SplinterStart {
                width: w,
                height: h,
                position: Some(position::to_value(self)),
            }
        }
    }

    type WinCheck = SplinterWinCheck;
    type ForcingCheck = ();

    fn win_this_turn<'c>(&self, check: &'c mut SplinterWinCheck) -> Option<&'c [Decision]> {
        lookahead::win_this_turn(self, check)
    }

    #[inline]
    fn action_count(&self) -> u32 {
        Splinter::action_count(self)
    }

    #[inline]
    fn decider(&self) -> Option<Player> {
        (!self.is_over()).then(|| player(self.to_move()))
    }

    #[inline]
    fn is_over(&self) -> bool {
        Splinter::is_over(self)
    }

    #[inline]
    fn game_result(&self) -> Option<GameResult> {
        self.outcome().map(|o| match o.winner {
            Some(c) => GameResult::Win(player(c)),
            None => GameResult::Draw,
        })
    }

    #[inline]
    fn legal_decisions_into(&mut self, out: &mut Vec<Decision>) {
        Splinter::legal_decisions_into(self, out);
    }

    fn refusal(&mut self, decision: Decision) -> Option<String> {
        (!self.is_legal(decision)).then(|| format!("{:?}", self.decode(decision)))
    }

    #[inline]
    fn apply_unchecked(&mut self, decision: Decision) {
        Splinter::apply_unchecked(self, decision);
    }

    #[inline]
    fn state_hash(&self) -> u64 {
        self.hash()
    }

    #[inline]
    fn at_turn_start(&self) -> bool {
        !self.is_over() && !self.is_pending()
    }

    #[inline]
    fn turns_played(&self) -> u32 {
        Splinter::turns_played(self)
    }

    #[inline]
    fn turn_limit(&self) -> u32 {
        Splinter::turn_limit(self)
    }

    #[inline]
    fn set_turn_limit(&mut self, limit: u32) {
        Splinter::set_turn_limit(self, limit);
    }

    /// The board's maps of rule 11.1 (4, or 8 on a square board), numbered as
    /// [`Symmetry::ALL`] lists them, between turns.
    fn symmetries(&self) -> Vec<usize> {
        if self.is_pending() {
            return vec![0];
        }
        let b = self.board();
        (0..Symmetry::of_board(b.width(), b.height()).len()).collect()
    }

    fn symmetry_image(&self, sym: usize) -> Option<Splinter> {
        if sym == 0 {
            return Some(self.clone());
        }
        let b = self.board();
        let t = *Symmetry::of_board(b.width(), b.height()).get(sym)?;
        (!self.is_pending()).then(|| t.position(self))
    }

    fn symmetry_turn(&self, sym: usize, turn: &[Decision]) -> Option<Vec<Decision>> {
        let b = self.board();
        let t = *Symmetry::of_board(b.width(), b.height()).get(sym)?;
        crate::game::symmetry::map_turn_by_decisions(self, turn, |s, d| Some(t.decision(s, d)))
    }

    #[inline]
    fn play_random_turn<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        self.random_turn(rng, None)
    }

    #[inline]
    fn play_random_turn_recorded<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        path: &mut Vec<Decision>,
    ) -> u32 {
        self.random_turn(rng, Some(path))
    }
}
