//! Crumble as a [`GameState`]: the glue between the generic game interface and the rules
//! engine ([`Crumble`]), which it uses as it is.
//!
//! Black is the [`Player::First`], White the second. A start is a board size and resolution
//! (the standard start of rule 1.4) or a position in position JSON ([`crate::games::crumble::position`]).
//!
//! The engine's modules: [`board`] (the tiling), [`geom`] (integer geometry), [`game`] (the
//! turn's state machine), [`decision`] (the action space), [`moves`] and [`notation`]
//! (complete moves and their text), [`position`] (position JSON),
//! `random` (random play), [`lookahead`], [`losses`], [`ends`], [`perft`] and [`solve`] (exact play), [`symmetry`]
//! (the square's 8 maps), [`render`] (pictures).

pub mod board;
mod chains;
pub mod decision;
pub mod ends;
pub mod error;
pub mod game;
pub mod geom;
pub mod lookahead;
pub mod losses;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
mod random;
mod reach;
pub mod render;
pub mod solve;
pub mod symmetry;
pub mod text;

pub use board::Board;
pub use decision::{DecisionKind, action_count};
pub use error::{MoveError, SizeError};
pub use game::{ChoiceKind, Crumble, Outcome, Phase, Reason};
pub use geom::{Cut, Dir, Piece, Rect};
pub use moves::{Base, Move, Swap};
pub use notation::Frame;
pub use symmetry::Sym;

use crate::game::state::{DecisionLog, GameResult, GameState, Player, TurnCount};
use crate::game::{Decision, StartMismatch};
use lookahead::WinCheck;
use position::PositionError;
use rand::Rng;
use serde::{Deserialize, Serialize};
use solve::Solver;
use thiserror::Error;

/// Where a Crumble game starts, as records and configs store it:
/// `{"board": 6, "resolution": 8}` for the standard start, or with
/// `"position": {...position JSON...}` for any other (its board and resolution must agree).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrumbleStart {
    /// Board size `N` in cells (rule 1.1).
    pub board: u16,
    /// Resolution `R`: grid units per cell (rule 1.1).
    pub resolution: u16,
    /// A start position instead of the standard start, as a position JSON object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<serde_json::Value>,
}

impl CrumbleStart {
    /// The standard start on an `n × n` board at resolution `r`.
    pub fn standard(board: u16, resolution: u16) -> CrumbleStart {
        CrumbleStart {
            board,
            resolution,
            position: None,
        }
    }

    /// A start at `game`'s position (its board as it stands, the player to move, its result).
    pub fn from_position(game: &Crumble) -> CrumbleStart {
        let b = game.board();
        let json = position::to_json(game);
        CrumbleStart {
            board: b.board_size(),
            resolution: b.resolution(),
            // `to_json` writes valid JSON; a failure here is a bug in the writer.
            position: Some(serde_json::from_str(&json).expect("position JSON parses")),
        }
    }
}

impl Default for CrumbleStart {
    /// The default board of the configs: 6 × 6 at resolution 8.
    fn default() -> CrumbleStart {
        CrumbleStart::standard(6, 8)
    }
}

/// Why a [`CrumbleStart`] cannot be played.
#[derive(Debug, Error)]
pub enum CrumbleStartError {
    #[error(transparent)]
    Size(#[from] SizeError),
    #[error("start position: {0}")]
    Position(#[from] PositionError),
    #[error(transparent)]
    Mismatch(#[from] StartMismatch),
}

// Methods of `Crumble` with the trait's names are called as `Crumble::name(self)`: inherent methods
// take precedence over trait methods, so these calls reach the rules engine, not themselves.
impl GameState for Crumble {
    const NAME: &'static str = "crumble";
    type Start = CrumbleStart;
    type StartError = CrumbleStartError;

    fn from_start(start: &CrumbleStart) -> Result<Crumble, CrumbleStartError> {
        let words = |n, r| format!("{n}x{n} at resolution {r}");
        StartMismatch::start_on_board(
            start.position.as_ref(),
            words(start.board, start.resolution),
            || Ok(Crumble::new(start.board, start.resolution)?),
            |json| Ok(position::from_json(&json.to_string())?),
            |game| words(game.board().board_size(), game.board().resolution()),
        )
    }

    fn to_start(&self) -> CrumbleStart {
        let b = self.board();
        let (n, r) = (b.board_size(), b.resolution());
        // The turn limit is a setting of the run, not of the position.
        let standard = Crumble::new(n, r).is_ok_and(|s| {
            let mut plain = self.clone();
            plain.set_max_turns(0);
            s == plain
        });
        if standard {
            CrumbleStart::standard(n, r)
        } else {
            CrumbleStart::from_position(self)
        }
    }

    type WinCheck = WinCheck;

    #[inline]
    fn win_this_turn<'c>(&self, check: &'c mut WinCheck) -> Option<&'c [Decision]> {
        check.win_path(self)
    }

    /// [`Solver::forcing_rest`]; the budget counts the states its walks visit.
    type ForcingCheck = Solver;

    fn forcing_turn(&self, check: &mut Solver, budget: u64) -> Option<Vec<Decision>> {
        check.forcing_rest(self, budget)
    }

    fn losing_decisions(
        &self,
        check: &mut Solver,
        budget: u64,
        legal: &[Decision],
    ) -> Option<Vec<bool>> {
        check.losses.losing(self, legal, budget)
    }

    #[inline]
    fn action_count(&self) -> u32 {
        Crumble::action_count(self)
    }

    #[inline]
    fn decider(&self) -> Option<Player> {
        Crumble::decider(self).map(Player::from)
    }

    #[inline]
    fn is_over(&self) -> bool {
        Crumble::is_over(self)
    }

    #[inline]
    fn game_result(&self) -> Option<GameResult> {
        self.outcome()
            .map(|o| GameResult::of_winner(o.winner.map(Player::from)))
    }

    #[inline]
    fn legal_decisions_into(&mut self, out: &mut Vec<Decision>) {
        Crumble::legal_decisions_into(self, out);
    }

    fn refusal(&mut self, d: Decision) -> Option<String> {
        (!self.is_legal(d)).then(|| {
            d.decode(self.grid_size())
                .map_or_else(|| d.0.to_string(), |k| k.to_string())
        })
    }

    #[inline]
    fn apply_unchecked(&mut self, decision: Decision) {
        Crumble::apply_unchecked(self, decision);
    }

    #[inline]
    fn state_hash(&self) -> u64 {
        self.hash()
    }

    #[inline]
    fn position_hash(&self) -> u64 {
        Crumble::position_hash(self)
    }

    #[inline]
    fn at_turn_start(&self) -> bool {
        Crumble::at_turn_start(self)
    }

    #[inline]
    fn turn_count(&self) -> TurnCount {
        TurnCount {
            played: Crumble::turns_played(self),
            limit: self.max_turns(),
        }
    }

    #[inline]
    fn set_turn_limit(&mut self, limit: u32) {
        self.set_max_turns(limit);
    }

    /// The square's 8 maps ([`symmetry`]) between turns: Crumble's rules know no direction.
    fn symmetries(&self) -> Vec<usize> {
        crate::game::symmetry::between_turns(self, Sym::ALL.len())
    }

    fn symmetry_image(&self, sym: usize) -> Option<Crumble> {
        if sym == 0 {
            return Some(self.clone());
        }
        symmetry::image(self, Sym::from_index(sym)?)
    }

    fn symmetry_turn(&self, sym: usize, turn: &[Decision]) -> Option<Vec<Decision>> {
        symmetry::image_turn(self, Sym::from_index(sym)?, turn)
    }

    /// Crumble's own counter: decision paths walked with their swap states shared.
    fn perft(&self, turns: u32) -> u64 {
        perft::perft(self, turns)
    }

    #[inline]
    fn random_turn<R: Rng + ?Sized>(&mut self, rng: &mut R, log: DecisionLog) -> u32 {
        random::random_turn(self, rng, log)
    }
}

/// For the exact checks' tests: every state of one random game per seed (a game of
/// `sizes[seed % len]`, board and resolution, under `max_turns`), each passed to `visit`
/// before the game goes on by a random turn, or by one random decision with `by_decision`.
#[cfg(test)]
pub(crate) fn for_random_states(
    seeds: std::ops::Range<u64>,
    sizes: &[(u16, u16)],
    max_turns: u32,
    by_decision: bool,
    mut visit: impl FnMut(u64, &mut Crumble),
) {
    use rand::SeedableRng;
    for seed in seeds {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (n, r) = sizes[seed as usize % sizes.len()];
        let mut g = Crumble::new(n, r).unwrap();
        g.set_max_turns(max_turns);
        while !g.is_over() {
            visit(seed, &mut g);
            if by_decision {
                let legal = g.legal_decisions();
                g.apply(legal[rng.random_range(0..legal.len())]).unwrap();
            } else {
                g.play_random_turn(&mut rng);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Color;

    #[test]
    fn start_json_names_board_resolution_and_an_optional_position() {
        let standard = CrumbleStart::standard(4, 2);
        let text = serde_json::to_string(&standard).unwrap();
        assert_eq!(text, r#"{"board":4,"resolution":2}"#);
        let game = <Crumble as GameState>::from_start(&standard).unwrap();
        assert_eq!(game, Crumble::new(4, 2).unwrap());

        let mut moved = Crumble::new(4, 2).unwrap();
        moved.play_random_turn(&mut <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(3));
        let at = CrumbleStart::from_position(&moved);
        let back: CrumbleStart =
            serde_json::from_str(&serde_json::to_string(&at).unwrap()).unwrap();
        let loaded = <Crumble as GameState>::from_start(&back).unwrap();
        assert_eq!(loaded.board(), moved.board());
        assert_eq!(loaded.to_move(), Color::White);
    }

    #[test]
    fn bad_starts_are_refused_with_the_reason() {
        let too_big = CrumbleStart::standard(40, 8);
        assert!(matches!(
            Crumble::from_start(&too_big),
            Err(CrumbleStartError::Size(SizeError::Board(40)))
        ));
        let mut mismatch = CrumbleStart::from_position(&Crumble::new(4, 2).unwrap());
        mismatch.board = 5;
        assert!(matches!(
            Crumble::from_start(&mismatch),
            Err(CrumbleStartError::Mismatch(m))
                if (m.named.as_str(), m.found.as_str()) == ("5x5 at resolution 2", "4x4 at resolution 2")
        ));
        let broken = CrumbleStart {
            position: Some(serde_json::json!({"board": 4})),
            ..CrumbleStart::standard(4, 2)
        };
        assert!(matches!(
            Crumble::from_start(&broken),
            Err(CrumbleStartError::Position(_))
        ));
        let unknown =
            serde_json::from_str::<CrumbleStart>(r#"{"board":4,"resolution":2,"size":3}"#);
        assert!(unknown.is_err(), "an unknown key is refused");
    }

    #[test]
    fn black_decides_first() {
        let g = Crumble::new(6, 8).unwrap();
        assert_eq!(GameState::decider(&g), Some(Player::First));
        assert_eq!(<Crumble as GameState>::NAME, "crumble");
    }
}
