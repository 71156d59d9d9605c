//! Small games solved exactly, for tests of the generic pipeline (behind the `testgames`
//! feature: later crates enable it in their dev-dependencies and run self-play, training and
//! matches on a game whose exact values are known).
//!
//! * [`tictactoe`]: one decision a turn, a draw under best play.
//! * [`nim`]: turns of two decisions (a heap, then a count), like Crumble's multi-decision turns.
//! * [`negamax`]: the exact solver of any small [`GameState`](crate::GameState).

pub mod negamax;
pub mod nim;
pub mod tictactoe;

pub use negamax::Negamax;
pub use nim::{Nim, NimStart, NimStartError};
pub use tictactoe::{TicTacToe, TicTacToeStart, TicTacToeStartError};
