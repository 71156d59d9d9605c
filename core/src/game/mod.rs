//! The game-independent contract: the state interface every game implements ([`GameState`]),
//! decisions and their errors, players, colours and results, a plain game's progress,
//! hashing, symmetries and canonical keys, play in complete moves for games with a notation of them, the conformance
//! test every game must pass, and an exact solver of small games for tests.

pub mod color;
pub mod conformance;
pub mod decision;
pub mod error;
pub mod hash;
pub mod moves;
pub(crate) mod named;
pub mod negamax;
pub mod outcome;
pub mod perft;
pub mod progress;
pub mod record;
pub mod shortwin;
pub mod state;
pub mod strict_json;
pub mod symmetry;
pub mod text;

pub use color::Color;
pub use decision::Decision;
pub use error::{DecisionError, StartMismatch, TurnError};
pub use moves::{CompleteMoves, MoveDecisions, Refusal};
pub use negamax::Negamax;
pub use progress::Progress;
pub use record::Record;
pub use state::{DecisionLog, GameResult, GameState, Player, TurnCount};
pub use text::{GameText, StartOption, TextError};
