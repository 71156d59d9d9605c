//! What the games' pictures share: the page around a game's frames ([`page`]), the colours,
//! numbers and escapes of SVG pictures ([`svg`]) and terminal pictures ([`term`]), and the
//! search values that records carry in their comments. Each game draws its own board in its
//! own folder (`games/<name>/render`).

pub mod page;
pub mod picture;
pub mod record_page;
pub mod svg;
pub mod term;

pub use picture::{PictureStyle, Pictures};
pub use record_page::record_page;

use crate::game::record::Record;
use crate::game::{Color, GameText, TextError};

/// Chart values (Black's view, per position) from the value comments of `rec`: the comment
/// after move `i` is its mover's value of the position before it. Empty when no comment
/// carries a value.
pub fn record_values<G: GameText>(rec: &Record<G>) -> Result<Vec<Option<f32>>, TextError> {
    let positions = rec.positions()?;
    let mut out = vec![None; positions.len()];
    let mut any = false;
    for (i, before) in positions.iter().take(rec.moves.len()).enumerate() {
        let mover = before.decider().map(|p| before.colour_of(p));
        if let (Some(v), Some(c)) = (rec.comment(i).and_then(parse_value_comment), mover) {
            out[i] = Some(if c == Color::Black { v } else { -v });
            any = true;
        }
    }
    Ok(if any { out } else { Vec::new() })
}

/// The colour's name as a sentence starts it (`Black`).
pub fn capital(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The comment `crumble play` writes after an agent's move: its value estimate, mover's view.
pub fn value_comment(value: f32) -> String {
    format!("value {value:+.2}")
}

/// The value of a comment written by [`value_comment`] (`value -0.31`), if it is one.
pub fn parse_value_comment(comment: &str) -> Option<f32> {
    let v: f32 = comment.trim().strip_prefix("value ")?.trim().parse().ok()?;
    (v.is_finite() && (-1.0..=1.0).contains(&v)).then_some(v)
}

/// Chart values (Black's view, per position) from the value comments of a game whose moves
/// are whole turns (the movers alternate from `first`): `comments` holds the comment after
/// each move.
pub fn values_from_moves_comments<'a>(
    first: Color,
    comments: impl ExactSizeIterator<Item = Option<&'a str>>,
) -> Vec<Option<f32>> {
    let mut out = vec![None; comments.len() + 1];
    let mut any = false;
    for (i, c) in comments.enumerate() {
        if let Some(v) = c.and_then(parse_value_comment) {
            let mover = if i.is_multiple_of(2) {
                first
            } else {
                first.opposite()
            };
            out[i] = Some(if mover == Color::Black { v } else { -v });
            any = true;
        }
    }
    if any { out } else { Vec::new() }
}
