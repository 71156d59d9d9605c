//! # crumble-core
//!
//! The rules engine of Crumble, exactly as `RULES.md` describes it, in integer geometry on the
//! `1/R` grid. It knows nothing of threads, files or tensors.
//!
//! ```
//! use crumble_core::{Game, Frame, notation, random};
//! use rand::SeedableRng;
//!
//! let mut game = Game::new(6, 8).unwrap();
//! // A complete move from notation, in the per-player frame.
//! let mv = notation::parse_move(&game, "1HN", Frame::PerPlayer).unwrap();
//! game.play_move(&mv).unwrap();
//! // The same turn as atomic decisions: choose, extent, steps, stop.
//! let legal = game.legal_decisions();
//! assert!(!legal.is_empty() && legal.windows(2).all(|w| w[0] < w[1]));
//! // Random play to the end, with a turn limit.
//! game.set_max_turns(200);
//! let mut rng = rand::rngs::StdRng::seed_from_u64(7);
//! random::play_random_game(&mut game, &mut rng);
//! assert!(game.outcome().is_some());
//! ```

pub mod board;
pub mod conformance;
pub mod crumble;
pub mod crumo;
pub mod decision;
pub mod ends;
pub mod error;
pub mod game;
pub mod geom;
pub mod hash;
pub mod lookahead;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod random;
pub mod record;
pub mod render;
pub mod solve;
pub mod splinter;
pub mod state;
#[cfg(feature = "testgames")]
pub mod testgames;

pub use board::Board;
pub use crumble::{CrumbleStart, CrumbleStartError};
pub use decision::{Decision, DecisionKind, action_count};
pub use error::{DecisionError, MoveError, SizeError};
pub use game::{ChoiceKind, Game, Outcome, Phase, Reason};
pub use geom::{Color, Cut, Dir, Piece, Rect};
pub use moves::{Base, Move, Swap};
pub use notation::Frame;
pub use state::{GameResult, GameState, Player};
