//! # crumble-core
//!
//! The rules engines of the project's games behind one game interface: [`game`] holds the
//! game-independent contract, [`games`] each game whole in its own folder (Crumble, Splinter,
//! Crumo, and tic-tac-toe and Nim as test games), [`render`] what their pictures share. It
//! knows nothing of threads, files or tensors.
//!
//! ```
//! use crumble_core::game::GameState;
//! use crumble_core::games::crumble::{Frame, Crumble, notation};
//! use rand::SeedableRng;
//!
//! let mut game = Crumble::new(6, 8).unwrap();
//! // A complete move from notation, in the per-player frame.
//! let mv = notation::parse_move(&game, "1HN", Frame::PerPlayer).unwrap();
//! game.play_move(&mv).unwrap();
//! // The same turn as atomic decisions: choose, extent, steps, stop.
//! let legal = game.legal_decisions();
//! assert!(!legal.is_empty() && legal.windows(2).all(|w| w[0] < w[1]));
//! // Random play to the end, with a turn limit.
//! game.set_max_turns(200);
//! let mut rng = rand::rngs::StdRng::seed_from_u64(7);
//! game.play_random_game(&mut rng);
//! assert!(game.outcome().is_some());
//! ```

pub mod game;
pub mod games;
pub mod render;

pub use game::{
    Color, Decision, DecisionError, DecisionLog, GameResult, GameState, GameText, Player,
    TextError, TurnCount,
};
