//! Typed errors of Crumble's rules engine.

use thiserror::Error;

/// A board size outside rule 1.1.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SizeError {
    #[error("board size {0} is out of range (2 to 32 cells)")]
    Board(u32),
    #[error("resolution {0} is not a power of two from 1 to 64")]
    Resolution(u32),
    #[error("board {board} x resolution {resolution} = {} units exceeds 1024", board * resolution)]
    Grid { board: u32, resolution: u32 },
}

/// A complete move that cannot be played in the current state.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("the game is over")]
    GameOver,
    #[error("the game is in the middle of a turn; complete moves start at a turn's beginning")]
    MidTurn,
    #[error("no piece has its lower-left corner at {0}")]
    NoPieceAt(String),
    #[error("{0}")]
    IllegalSplit(String),
    #[error("{0}")]
    IllegalJoin(String),
    #[error("{0}")]
    IllegalSwap(String),
}
