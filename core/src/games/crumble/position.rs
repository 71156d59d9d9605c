//! Position JSON: the one file format for a position (RULES.md 3.6).
//!
//! ```json
//! {
//!   "board": 6,
//!   "resolution": 8,
//!   "to_move": "black",
//!   "pieces": [
//!     {"x": 0, "y": 0, "w": 8, "h": 8, "color": "white"},
//!     ...
//!   ],
//!   "result": null
//! }
//! ```
//!
//! Coordinates are integers in grid units (`1/R` cell) in the absolute frame (origin at
//! Black's lower-left corner, `y` up). Pieces are written sorted by `(y, x)`; on input any
//! order is accepted. `result` is `null` while the game goes on, otherwise
//! `{"winner": "black" | "white" | null, "reason": "four-sides" | "draw-rule" |
//! "no-split-or-join" | "turn-limit" | "resignation" | "agreement"}`; a missing `result` means
//! `null`.
//!
//! [`from_json`] is the only way from text to a [`Crumble`]: it checks everything rule 3.6 asks
//! for (sizes before anything is allocated, no unknown keys, integer coordinates inside the
//! board, legal shapes, exact tiling, a consistent result) and refuses anything else with a
//! [`PositionError`] naming the key, piece or cell. Then [`Crumble::from_board`] resolves
//! surrounded groups, a four-side chain, and rule 5.3.

use crate::game::Color;
use crate::game::strict_json;
use crate::games::crumble::board::{Board, check_size};
use crate::games::crumble::error::SizeError;
use crate::games::crumble::game::{Crumble, Outcome, Reason};
use crate::games::crumble::geom::{Piece, Rect};
use serde_json::{Map, Value};
use std::fmt::Write as _;
use thiserror::Error;

/// A fixed mid-game position (6×6, R = 8, 40 random turns from the start with ChaCha8 seed 0,
/// game still live; see `core/data/README.md`), used by `crumble bench rules` and tests.
pub const MIDGAME_6X6_JSON: &str = include_str!("../../../data/midgame-6x6.json");

/// Why a position file was refused. Each message says what is wrong and where.
#[derive(Debug, Error)]
pub enum PositionError {
    /// The text is not JSON at all.
    /// (Not a `#[source]`: the message already includes it, and error chains would repeat it.)
    #[error("malformed JSON: {0}")]
    Json(serde_json::Error),
    /// `board` or `resolution` is outside rule 1.1 (checked before anything is allocated).
    #[error(transparent)]
    Size(#[from] SizeError),
    /// A key is missing, unknown, or holds a value of the wrong type.
    #[error("{0}")]
    Schema(String),
    /// One piece is wrong on its own (outside the board, zero size, illegal shape). `index`
    /// counts from 0 in the file's `pieces` array.
    #[error("pieces[{index}] ({piece}): {problem}")]
    Piece {
        index: usize,
        piece: String,
        problem: String,
    },
    /// Two pieces cover the same unit cell (grid units).
    #[error(
        "pieces[{first}] ({first_piece}) and pieces[{second}] ({second_piece}) overlap at unit cell ({x}, {y})"
    )]
    Overlap {
        first: usize,
        first_piece: String,
        second: usize,
        second_piece: String,
        x: u16,
        y: u16,
    },
    /// A unit cell (grid units) that no piece covers.
    #[error(
        "unit cell ({x}, {y}) is not covered by any piece (the pieces must tile the board exactly)"
    )]
    Gap { x: u16, y: u16 },
    /// The `result` object contradicts itself.
    #[error("result: {0}")]
    Result(String),
}

impl From<serde_json::Error> for PositionError {
    fn from(e: serde_json::Error) -> PositionError {
        PositionError::Json(e)
    }
}

// ------------------------------------------------------------------------------- writing

fn piece_text(r: Rect, color: Color) -> String {
    format!(
        r#"{{"x": {}, "y": {}, "w": {}, "h": {}, "color": "{}"}}"#,
        r.x,
        r.y,
        r.w,
        r.h,
        color.name()
    )
}

/// The result object of the schema (`null` while the game goes on), keys `winner`, `reason`.
pub fn outcome_json(outcome: Option<Outcome>) -> Value {
    Outcome::value(outcome)
}

/// The result object as one line, spaced like the position files:
/// `null` or `{"winner": "black", "reason": "four-sides"}`.
pub fn outcome_text(outcome: Option<Outcome>) -> String {
    match outcome {
        None => "null".into(),
        Some(o) => format!(
            r#"{{"winner": {}, "reason": "{}"}}"#,
            o.winner
                .map_or_else(|| "null".to_string(), |c| format!("\"{}\"", c.name())),
            o.reason.name()
        ),
    }
}

/// The position of `game` as JSON: the schema above, pieces sorted by `(y, x)`, one piece per
/// line, two-space indentation, a final newline. Deterministic: equal positions give equal
/// text. (In the middle of a turn this is the board as it stands, with the player to move.)
pub fn to_json(game: &Crumble) -> String {
    let b = game.board();
    let mut s = String::with_capacity(64 + 64 * b.piece_count());
    let _ = write!(
        s,
        "{{\n  \"board\": {},\n  \"resolution\": {},\n  \"to_move\": \"{}\",\n  \"pieces\": [\n",
        b.board_size(),
        b.resolution(),
        game.to_move().name()
    );
    let pieces = b.sorted_pieces();
    for (i, p) in pieces.iter().enumerate() {
        s.push_str("    ");
        s.push_str(&piece_text(p.rect, p.color));
        s.push_str(if i + 1 < pieces.len() { ",\n" } else { "\n" });
    }
    let _ = writeln!(
        s,
        "  ],\n  \"result\": {}\n}}",
        outcome_text(game.outcome())
    );
    s
}

// ------------------------------------------------------------------------------- reading

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn schema(msg: impl Into<String>) -> PositionError {
    PositionError::Schema(msg.into())
}

/// Refuses keys of `obj` outside `allowed`; `what` names the object in the message.
fn no_unknown_keys(
    obj: &Map<String, Value>,
    allowed: &[&str],
    what: &str,
) -> Result<(), PositionError> {
    match obj.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(schema(format!(
            "{what}: unknown key {k:?} (allowed: {})",
            allowed.join(", ")
        ))),
        None => Ok(()),
    }
}

fn required<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    what: &str,
) -> Result<&'a Value, PositionError> {
    obj.get(key)
        .ok_or_else(|| schema(format!("{what}: missing key \"{key}\"")))
}

/// A non-negative integer (as written: `8`, not `8.0` or `"8"`).
fn integer(v: &Value, what: &str) -> Result<u64, String> {
    v.as_u64().ok_or_else(|| match v {
        Value::Number(n) if n.is_i64() => format!("{what} is {n}, a negative number"),
        // serde_json reads `6.0`, `6e0` and integers beyond u64 as floats alike: tell the
        // first kind (a whole number written as a float) from the second by magnitude.
        Value::Number(n)
            if n.as_f64()
                .is_some_and(|f| f.fract() == 0.0 && f.abs() < 1.8e19) =>
        {
            format!(
                "{what} is {n}: it must be an integer, written without a decimal point or exponent"
            )
        }
        Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => {
            format!("{what} is {n}, far out of range")
        }
        Value::Number(n) => format!("{what} is {n}, not an integer"),
        other => format!("{what} is {}, not an integer", type_name(other)),
    })
}

fn color(v: &Value, what: &str) -> Result<Color, String> {
    match v {
        Value::String(s) => Color::from_name(s)
            .ok_or_else(|| format!("{what} is {s:?}; expected \"black\" or \"white\"")),
        other => Err(format!(
            "{what} is {}; expected \"black\" or \"white\"",
            type_name(other)
        )),
    }
}

/// A piece as written in the file, for messages: the value itself, compact.
fn raw_piece_text(v: &Value) -> String {
    let mut s = v.to_string();
    if s.len() > 120 {
        s.truncate(
            s.char_indices()
                .take_while(|(i, _)| *i < 117)
                .last()
                .map_or(0, |(i, c)| i + c.len_utf8()),
        );
        s.push_str("...");
    }
    s
}

fn parse_result(v: Option<&Value>) -> Result<Option<Outcome>, PositionError> {
    let obj = match v {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Object(o)) => o,
        Some(other) => {
            return Err(schema(format!(
                "\"result\" is {}; expected null or an object",
                type_name(other)
            )));
        }
    };
    no_unknown_keys(obj, &["winner", "reason"], "result")?;
    let reason = match required(obj, "reason", "result")? {
        Value::String(s) => Reason::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = Reason::ALL.iter().map(|r| r.name()).collect();
            PositionError::Result(format!(
                "unknown reason {s:?} (one of: {})",
                names.join(", ")
            ))
        })?,
        other => {
            return Err(PositionError::Result(format!(
                "\"reason\" is {}; expected a string",
                type_name(other)
            )));
        }
    };
    let winner = match required(obj, "winner", "result")? {
        Value::Null => None,
        w => Some(color(w, "\"winner\"").map_err(PositionError::Result)?),
    };
    match (reason.has_winner(), winner) {
        (true, None) => Err(PositionError::Result(format!(
            "reason \"{}\" needs a winner, but \"winner\" is null",
            reason.name()
        ))),
        (false, Some(c)) => Err(PositionError::Result(format!(
            "reason \"{}\" is a draw, so \"winner\" must be null, not \"{}\"",
            reason.name(),
            c.name()
        ))),
        _ => Ok(Some(Outcome { winner, reason })),
    }
}

/// Reads one piece (keys, types, ranges, shape); `g` is the board side in grid units.
fn parse_piece(index: usize, v: &Value, g: u16) -> Result<Piece, PositionError> {
    let err = |problem: String| PositionError::Piece {
        index,
        piece: raw_piece_text(v),
        problem,
    };
    let Value::Object(obj) = v else {
        return Err(err(format!(
            "is {}; expected an object with keys x, y, w, h, color",
            type_name(v)
        )));
    };
    if let Some(k) = obj
        .keys()
        .find(|k| !["x", "y", "w", "h", "color"].contains(&k.as_str()))
    {
        return Err(err(format!(
            "unknown key {k:?} (allowed: x, y, w, h, color)"
        )));
    }
    let mut n = [0u64; 4];
    for (slot, key) in n.iter_mut().zip(["x", "y", "w", "h"]) {
        let v = obj
            .get(key)
            .ok_or_else(|| err(format!("missing key \"{key}\"")))?;
        *slot = integer(v, &format!("\"{key}\"")).map_err(err)?;
    }
    let [x, y, w, h] = n;
    let c = color(
        obj.get("color")
            .ok_or_else(|| err("missing key \"color\"".into()))?,
        "\"color\"",
    )
    .map_err(err)?;
    if w == 0 || h == 0 {
        return Err(err("a piece needs w >= 1 and h >= 1".into()));
    }
    let gu = u64::from(g);
    if x >= gu || y >= gu || x + w > gu || y + h > gu {
        return Err(err(format!(
            "leaves the board, which is {g} units wide (x + w and y + h must be at most {g})"
        )));
    }
    // Everything is now below g <= 1024, so it fits u16.
    let rect = Rect::new(x as u16, y as u16, w as u16, h as u16);
    if !rect.has_legal_shape() {
        return Err(err(format!(
            "a {w}x{h} piece is neither a square nor a 1:2 rectangle"
        )));
    }
    Ok(Piece { rect, color: c })
}

/// Reads a position file (see the module docs) and builds the game: captures resolved, a
/// four-side chain turned into a result, rule 5.3 checked; a result in the file is kept.
pub fn from_json(text: &str) -> Result<Crumble, PositionError> {
    let root = strict_json::parse(text)?;
    let Value::Object(obj) = &root else {
        return Err(schema(format!(
            "the position is {}; expected an object",
            type_name(&root)
        )));
    };
    no_unknown_keys(
        obj,
        &["board", "resolution", "to_move", "pieces", "result"],
        "position",
    )?;
    let board =
        integer(required(obj, "board", "position")?, "\"board\"").map_err(PositionError::Schema)?;
    let resolution = integer(required(obj, "resolution", "position")?, "\"resolution\"")
        .map_err(PositionError::Schema)?;
    // Rule 1.1 before anything is allocated (a value beyond u32 is out of range all the same).
    let clamp = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
    check_size(clamp(board), clamp(resolution))?;
    let (n, r) = (board as u16, resolution as u16);
    let g = n * r;
    let to_move = color(required(obj, "to_move", "position")?, "\"to_move\"")
        .map_err(PositionError::Schema)?;
    let list = match required(obj, "pieces", "position")? {
        Value::Array(a) => a,
        other => {
            return Err(schema(format!(
                "\"pieces\" is {}; expected an array",
                type_name(other)
            )));
        }
    };
    let result = parse_result(obj.get("result"))?;

    let mut pieces = Vec::with_capacity(list.len().min(usize::from(g) * usize::from(g)));
    for (i, v) in list.iter().enumerate() {
        pieces.push(parse_piece(i, v, g)?);
    }

    // Exact tiling on a bitmap of unit cells: the first overlap, then the first gap.
    const FREE: u32 = u32::MAX;
    let gu = usize::from(g);
    let mut owner = vec![FREE; gu * gu];
    for (i, p) in pieces.iter().enumerate() {
        let r = p.rect;
        for y in r.y..r.top() {
            let row = usize::from(y) * gu;
            for x in r.x..r.right() {
                let cell = &mut owner[row + usize::from(x)];
                if *cell != FREE {
                    let j = *cell as usize;
                    return Err(PositionError::Overlap {
                        first: j,
                        first_piece: raw_piece_text(&list[j]),
                        second: i,
                        second_piece: raw_piece_text(&list[i]),
                        x,
                        y,
                    });
                }
                *cell = i as u32;
            }
        }
    }
    if let Some(k) = owner.iter().position(|&c| c == FREE) {
        return Err(PositionError::Gap {
            x: (k % gu) as u16,
            y: (k / gu) as u16,
        });
    }
    drop(owner);

    let board = Board::from_valid_pieces(n, r, &pieces);
    Ok(Crumble::from_board(board, to_move, result))
}

#[cfg(test)]
mod tests;
