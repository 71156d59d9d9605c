//! The errors every game shares: a refused decision, and a complete move asked for when no
//! turn is starting.

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

/// A start whose position is on another board than the one it names, each in the game's
/// words for its boards (`6x6 at resolution 8`, `15x18`, `size 7`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("start position is {found}, but the start names {named}")]
pub struct StartMismatch {
    pub named: String,
    pub found: String,
}

impl StartMismatch {
    /// `Ok` when the board a start names (`named`) is its position's (`found`).
    pub fn check(named: String, found: String) -> Result<(), StartMismatch> {
        if named == found {
            Ok(())
        } else {
            Err(StartMismatch { named, found })
        }
    }

    /// The game a start gives when it names a board (`named`, in the game's words) and may
    /// hold a position: without one, the board's `standard` start; with one, the position as
    /// `read` reads it, refused when `words` puts it on another board.
    pub fn start_on_board<G, E: From<StartMismatch>>(
        position: Option<&serde_json::Value>,
        named: String,
        standard: impl FnOnce() -> Result<G, E>,
        read: impl FnOnce(&serde_json::Value) -> Result<G, E>,
        words: impl FnOnce(&G) -> String,
    ) -> Result<G, E> {
        let Some(json) = position else {
            return standard();
        };
        let game = read(json)?;
        StartMismatch::check(named, words(&game))?;
        Ok(game)
    }
}

/// Why no complete move can be played now, whatever the move: every game's move errors wrap it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum TurnError {
    #[error("the game is over; no move is legal")]
    GameOver,
    #[error("the game is in the middle of a turn; complete moves start at a turn's beginning")]
    MidTurn,
}
