//! The error every game's checked apply returns.

use thiserror::Error;

/// A decision that is not legal in the current state; the state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecisionError {
    #[error("the game is over")]
    GameOver,
    #[error("decision {index} is outside the action space (size {size})")]
    OutOfRange { index: u32, size: u32 },
    #[error("decision {0} is not legal here")]
    Illegal(String),
}
