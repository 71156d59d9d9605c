//! Move notation (RULES.md section 6): parse and print complete moves in the per-player frame
//! (each player's own view: White's board is rotated by 180°) or the absolute frame.
//!
//! Parsing and printing work in the *writer's view*: the position rotated into the writer's
//! frame. The rules are symmetric under that rotation, so a move is resolved and checked in the
//! view and then rotated back into the absolute frame in which the engine stores moves.

use crate::game::Color;
use crate::game::named::named_enum;
use crate::games::crumble::board::Board;
use crate::games::crumble::game::Crumble;
use crate::games::crumble::geom::{Cut, Dir, Piece, Rect};
use crate::games::crumble::moves::{Base, Move, Swap};
use std::fmt;

named_enum! {
    /// The frame a move is written in (RULES.md section 6).
    #[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
    pub enum Frame {
        /// Each player in their own frame: Black absolute, White rotated by 180° (the default).
        #[default]
        PerPlayer,
        /// Both players in Black's frame.
        Absolute,
    }
}

impl Frame {
    /// Does `writer` see the board rotated in this frame?
    pub fn rotates_for(self, writer: Color) -> bool {
        self == Frame::PerPlayer && writer == Color::White
    }
}

/// How positions are written on output.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PositionStyle {
    /// Canonical staircase (rule 6.1), the default.
    #[default]
    Staircase,
    /// Reduced fractions of the board side (rule 6.2).
    Fraction,
}

/// A move that could not be read: what is wrong, and where: the span is in characters
/// (0-based, end exclusive) of the input, as a person counts them; the parser works in byte
/// offsets and converts them once, where the error leaves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotationError {
    pub message: String,
    pub span: Option<(usize, usize)>,
}

impl NotationError {
    /// The error with its span turned from byte offsets into character offsets of `text`.
    fn in_chars(mut self, text: &str) -> NotationError {
        let chars = |b: usize| text.get(..b).map_or(b, |t| t.chars().count());
        self.span = self.span.map(|(a, b)| (chars(a), chars(b)));
        self
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.span {
            Some((a, b)) if b > a + 1 => {
                write!(f, "{} (at characters {}-{})", self.message, a + 1, b)
            }
            Some((a, _)) => write!(f, "{} (at character {})", self.message, a + 1),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for NotationError {}

fn err<T>(message: impl Into<String>, span: Option<(usize, usize)>) -> Result<T, NotationError> {
    Err(NotationError {
        message: message.into(),
        span,
    })
}

mod format;
mod parse;
mod view;

pub use format::{Formatter, format_move};
pub use parse::{Parser, parse_move};
pub use view::{View, to_view_move};

use format::split_halves;
use view::{fraction_of, view_to_abs};
