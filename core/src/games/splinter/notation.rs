//! Splinter notation (rule 9): squares `h10`, moves `h9-h10` and `e5-e6/f2`. Parsing is
//! exact: nothing is trimmed, and an over-long rank is refused as off the board, never
//! overflowed.

use super::board::{Board, Dir, Square};
use super::moves::SplinterMove;
use crate::game::text::check_move_alphabet;
use thiserror::Error;

/// Why a text is not a move (or a square) on this board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    #[error("{text:?} is not a move: {why} (expected FROM-TO or FROM-TO/SQUARE, e.g. h9-h10)")]
    Syntax { text: String, why: &'static str },
    #[error(
        "{text:?} is not a square name (a lower-case file letter, then a rank from 1 without leading zeros)"
    )]
    BadSquare { text: String },
    #[error("square {square} is off the {width}x{height} board")]
    OffBoard {
        square: String,
        width: u8,
        height: u8,
    },
    #[error("{from} and {to} are not neighbours: a move is one square (rule 9.2)")]
    NotOneStep { from: String, to: String },
}

/// The name of a square (rule 9.1).
pub fn square_name(board: &Board, s: Square) -> String {
    let (x, y) = board.xy(s);
    format!("{}{}", char::from(b'a' + x), u32::from(y) + 1)
}

/// Reads a square name (rule 9.1) on `board`: a file letter `a`–`z`, a rank of ASCII
/// digits with no leading zero and not `0`; a square off the board is refused whatever the
/// rank's length.
pub fn parse_square(board: &Board, text: &str) -> Result<Square, NotationError> {
    let bad = || NotationError::BadSquare { text: text.into() };
    let bytes = text.as_bytes();
    let (&file, rank) = bytes.split_first().ok_or_else(bad)?;
    if !file.is_ascii_lowercase()
        || rank.is_empty()
        || !rank.iter().all(u8::is_ascii_digit)
        || rank[0] == b'0'
    {
        return Err(bad());
    }
    // Ranks run to 26 at most: anything longer than two digits is off the board.
    let rank_value = if rank.len() > 2 {
        None
    } else {
        Some(rank.iter().fold(0u32, |v, &d| 10 * v + u32::from(d - b'0')))
    };
    let x = u32::from(file - b'a');
    match rank_value {
        Some(r) if x < u32::from(board.width()) && r <= u32::from(board.height()) => {
            Ok(board.square(x as u8, (r - 1) as u8))
        }
        _ => Err(NotationError::OffBoard {
            square: text.into(),
            width: board.width(),
            height: board.height(),
        }),
    }
}

/// Reads a move (rule 9.2–9.4). The squares must be on the board and neighbours; the move's
/// legality and its `/SQUARE` are judged when it is played ([`CompleteMoves::play`](crate::game::CompleteMoves::play)).
pub fn parse_move(board: &Board, text: &str) -> Result<SplinterMove, NotationError> {
    let syntax = |why| NotationError::Syntax {
        text: text.into(),
        why,
    };
    check_move_alphabet(text, b"-/", "only a-z, 0-9, '-' and '/' are allowed").map_err(syntax)?;
    let (squares, keep) = match text.split_once('/') {
        Some((s, k)) => (s, Some(k)),
        None => (text, None),
    };
    let (from, to) = squares
        .split_once('-')
        .ok_or_else(|| syntax("missing hyphen"))?;
    if to.contains('-') || keep.is_some_and(|k| k.contains('/') || k.contains('-')) {
        return Err(syntax("too many parts"));
    }
    let from_sq = parse_square(board, from)?;
    let to_sq = parse_square(board, to)?;
    let keep = keep.map(|k| parse_square(board, k)).transpose()?;
    let (fx, fy) = board.xy(from_sq);
    let (tx, ty) = board.xy(to_sq);
    let dir = Dir::from_delta(i32::from(tx) - i32::from(fx), i32::from(ty) - i32::from(fy))
        .ok_or_else(|| NotationError::NotOneStep {
            from: from.into(),
            to: to.into(),
        })?;
    Ok(SplinterMove {
        from: from_sq,
        dir,
        keep,
    })
}

/// A move as text: `FROM-TO`, with `/SQUARE` when it names a group. The destination must be
/// on the board (true of every legal move).
pub fn move_text(board: &Board, mv: &SplinterMove) -> String {
    let to = board
        .step(mv.from, mv.dir)
        .expect("destination on the board");
    let mut s = format!("{}-{}", square_name(board, mv.from), square_name(board, to));
    if let Some(k) = mv.keep {
        s.push('/');
        s.push_str(&square_name(board, k));
    }
    s
}
