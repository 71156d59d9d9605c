//! Crumo, the third game of the project, exactly as `games/crumo/RULES.md` describes it: stacks
//! of one colour on the points of a hexagonal board guard the points at a distance equal to
//! their height along 12 lines; a stack guarded by more enemy stacks than friendly ones is
//! dead and removed; two passes end the game, scored by controlled points, captures and a
//! half point for the first passer.
//!
//! ```
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
//! rule 13; this file the [`GameState`] glue.

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
pub use moves::{MoveError, Refusal};
pub use notation::{CrumoMove, NotationError};
pub use position::PositionError;
pub use symmetry::Symmetry;

use crate::game::Color;
use crate::game::Decision;
use crate::game::state::{GameResult, GameState, Player};
use rand::Rng;
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
    #[error("start position has size {found}, but the start names size {size}")]
    SizeMismatch { size: u8, found: u8 },
}

impl Crumo {
    /// The game at a start specification.
    pub fn from_spec(start: &CrumoStart) -> Result<Crumo, CrumoStartError> {
        let Some(json) = &start.position else {
            return Crumo::standard(start.size).ok_or(CrumoStartError::Size(start.size));
        };
        let game = position::from_value(json)?;
        if game.size() != start.size {
            return Err(CrumoStartError::SizeMismatch {
                size: start.size,
                found: game.size(),
            });
        }
        Ok(game)
    }

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

// Inherent methods with the trait's names are called as `Crumo::name(self)`: inherent
// methods take precedence, so these calls reach the engine, not the trait.
impl GameState for Crumo {
    const NAME: &'static str = "crumo";
    type Start = CrumoStart;
    type StartError = CrumoStartError;

    fn from_start(start: &CrumoStart) -> Result<Crumo, CrumoStartError> {
        Crumo::from_spec(start)
    }

    fn to_start(&self) -> CrumoStart {
        // The turn count and limit belong to the match, not to the position (rule 10.1).
        let standard = Crumo::standard(self.size())
            .is_some_and(|s| position::to_value(&s) == position::to_value(self));
        if standard {
            CrumoStart::standard(self.size())
        } else {
            CrumoStart {
                size: self.size(),
                position: Some(position::to_value(self)),
            }
        }
    }

    type WinCheck = ();
    type ForcingCheck = ();

    #[inline]
    fn action_count(&self) -> u32 {
        Crumo::action_count(self)
    }

    #[inline]
    fn decider(&self) -> Option<Player> {
        (!self.is_over()).then(|| self.seat_of(self.to_move()))
    }

    #[inline]
    fn is_over(&self) -> bool {
        Crumo::is_over(self)
    }

    #[inline]
    fn game_result(&self) -> Option<GameResult> {
        self.outcome().map(|o| match o.winner {
            Some(c) => GameResult::Win(self.seat_of(c)),
            None => GameResult::Draw,
        })
    }

    /// Crumo scores the position at the turn limit (rule 10.1), without the half point.
    fn turn_limit_result(&self) -> GameResult {
        match Outcome::scored(Reason::TurnLimit, self.score_halves(None)).winner {
            Some(c) => GameResult::Win(self.seat_of(c)),
            None => GameResult::Draw,
        }
    }

    #[inline]
    fn legal_decisions_into(&mut self, out: &mut Vec<Decision>) {
        Crumo::legal_decisions_into(self, out);
    }

    fn refusal(&mut self, decision: Decision) -> Option<String> {
        (!self.is_legal(decision)).then(|| format!("{:?}", self.decode(decision)))
    }

    #[inline]
    fn apply_unchecked(&mut self, decision: Decision) {
        Crumo::apply_unchecked(self, decision);
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
        Crumo::turns_played(self)
    }

    #[inline]
    fn turn_limit(&self) -> u32 {
        Crumo::turn_limit(self)
    }

    #[inline]
    fn set_turn_limit(&mut self, limit: u32) {
        Crumo::set_turn_limit(self, limit);
    }

    /// The hexagon's 12 maps (rule 13), numbered as rule 13.2 fixes, between turns.
    fn symmetries(&self) -> Vec<usize> {
        if self.is_pending() {
            return vec![0];
        }
        (0..Symmetry::ALL.len()).collect()
    }

    fn symmetry_image(&self, sym: usize) -> Option<Crumo> {
        if sym == 0 {
            return Some(self.clone());
        }
        let t = Symmetry::new(u8::try_from(sym).ok()?)?;
        (!self.is_pending()).then(|| t.apply(self))
    }

    fn symmetry_turn(&self, sym: usize, turn: &[Decision]) -> Option<Vec<Decision>> {
        let t = Symmetry::new(u8::try_from(sym).ok()?)?;
        crate::game::symmetry::map_turn_by_decisions(self, turn, |s, d| Some(t.map_decision(s, d)))
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
