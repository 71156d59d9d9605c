//! Crumo notation (rule 11): points `e5`, placements `3e5`, moves `e5-e7`, `pass` and
//! `swap`. Parsing is exact: nothing is trimmed, nothing is case-folded, and numbers too
//! long for any board are refused or kept saturated, never wrapped around.

use super::board::{Geometry, Point};
use crate::game::text::check_move_alphabet;
use thiserror::Error;

/// One complete turn in notation's terms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CrumoMove {
    /// A new stack of `height` pieces on `point` (rule 5). A height too large for any number
    /// type is kept as `u32::MAX`, which no board allows.
    Place {
        point: Point,
        height: u32,
    },
    /// `k = dist(from, to)` pieces from `from` to `to` (rule 6).
    Move {
        from: Point,
        to: Point,
    },
    Pass,
    Swap,
}

/// Why a text is not a move (or a point) on this board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    #[error(
        "{text:?} is not a move: {why} (expected HEIGHT POINT like 3e5, FROM-TO like e5-e7, pass or swap)"
    )]
    Syntax { text: String, why: &'static str },
    #[error(
        "{text:?} is not a point name (a lower-case file letter, then a rank from 1 without leading zeros)"
    )]
    BadPoint { text: String },
    #[error("point {point} is not on the size-{size} board")]
    OffBoard { point: String, size: u8 },
    #[error("{from} and {to} are not on one of the 12 lines: not a move (rule 11.3)")]
    NotALine { from: String, to: String },
}

/// A run of ASCII digits without a leading zero, not empty.
fn is_number(s: &[u8]) -> bool {
    !s.is_empty() && s[0] != b'0' && s.iter().all(u8::is_ascii_digit)
}

/// The value of [`is_number`] digits, saturated at `u32::MAX`.
fn number(s: &[u8]) -> u32 {
    s.iter().fold(0u32, |v, &d| {
        v.saturating_mul(10).saturating_add(u32::from(d - b'0'))
    })
}

/// Reads a point name (rule 11.1) on this board.
pub fn parse_point(geo: &Geometry, text: &str) -> Result<Point, NotationError> {
    let bytes = text.as_bytes();
    let Some((&file, rank)) = bytes.split_first() else {
        return Err(NotationError::BadPoint { text: text.into() });
    };
    if !file.is_ascii_lowercase() || !is_number(rank) {
        return Err(NotationError::BadPoint { text: text.into() });
    }
    let (q, r) = (i64::from(file - b'a'), i64::from(number(rank)) - 1);
    let off = || NotationError::OffBoard {
        point: text.into(),
        size: geo.size(),
    };
    if r > i64::from(i32::MAX) {
        return Err(off());
    }
    geo.point_at(q as i32, r as i32).ok_or_else(off)
}

/// Reads a move (rule 11.2–11.5). The points must be on the board and, for a move, on one
/// line; whether the move is legal is judged when it is played.
pub fn parse_move(geo: &Geometry, text: &str) -> Result<CrumoMove, NotationError> {
    let syntax = |why| NotationError::Syntax {
        text: text.into(),
        why,
    };
    match text {
        "pass" => return Ok(CrumoMove::Pass),
        "swap" => return Ok(CrumoMove::Swap),
        "" => return Err(syntax("it is empty")),
        _ => {}
    }
    check_move_alphabet(text, b"-", "only a-z, 0-9 and '-' are allowed").map_err(syntax)?;
    if let Some((from, to)) = text.split_once('-') {
        if to.contains('-') {
            return Err(syntax("more than one '-'"));
        }
        let from_p = parse_point(geo, from)?;
        let to_p = parse_point(geo, to)?;
        if geo.line_between(from_p, to_p).is_none() {
            return Err(NotationError::NotALine {
                from: from.into(),
                to: to.into(),
            });
        }
        return Ok(CrumoMove::Move {
            from: from_p,
            to: to_p,
        });
    }
    let bytes = text.as_bytes();
    let digits = bytes.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return Err(syntax("a placement starts with its height"));
    }
    if !is_number(&bytes[..digits]) {
        return Err(syntax("the height has a leading zero"));
    }
    let point = parse_point(geo, &text[digits..])?;
    Ok(CrumoMove::Place {
        point,
        height: number(&bytes[..digits]),
    })
}

/// A move as text (rule 11.2–11.4).
pub fn move_text(geo: &Geometry, mv: &CrumoMove) -> String {
    match *mv {
        CrumoMove::Place { point, height } => format!("{height}{}", geo.name(point)),
        CrumoMove::Move { from, to } => format!("{}-{}", geo.name(from), geo.name(to)),
        CrumoMove::Pass => "pass".into(),
        CrumoMove::Swap => "swap".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::geometry;
    use super::*;

    #[test]
    fn the_four_forms_parse_and_print_back() {
        let g = geometry(5).unwrap();
        for text in ["3e5", "1a9", "e5-e7", "e5-c9", "e5-f6", "pass", "swap"] {
            let mv = parse_move(g, text).unwrap();
            assert_eq!(move_text(g, &mv), text);
        }
    }

    #[test]
    fn anything_else_is_refused_without_overflow() {
        let g = geometry(5).unwrap();
        for text in [
            "3E5", "3e5\n", " 3e5", "03e5", "3e05", "e5-e7+", "Pass", "", "3", "e5-", "e5-e6-e7",
            "e5e7", "3e0",
        ] {
            assert!(parse_move(g, text).is_err(), "{text:?}");
        }
        assert!(matches!(
            parse_move(g, "e5-f7"),
            Err(NotationError::NotALine { .. })
        ));
        assert!(matches!(
            parse_move(g, "1a99999999999999999999"),
            Err(NotationError::OffBoard { .. })
        ));
        assert_eq!(
            parse_move(g, "99999999999999999999999e5"),
            Ok(CrumoMove::Place {
                point: 30,
                height: u32::MAX
            })
        );
    }
}
