//! Move notation (RULES.md section 6). WORK IN PROGRESS
use crate::{Game, Move};

#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Frame {
    #[default]
    PerPlayer,
    Absolute,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct NotationError {
    pub message: String,
    pub span: Option<(usize, usize)>,
}

pub fn parse_move(_game: &Game, _text: &str, _frame: Frame) -> Result<Move, NotationError> {
    unimplemented!()
}
pub fn format_move(_game: &Game, _mv: &Move, _frame: Frame) -> String {
    unimplemented!()
}
