//! The position JSON of rule 10: writing in canonical order, and strict reading whose
//! errors name the key, piece or square and say what is wrong.

use super::board::{Board, Dir, Piece, PieceType, SquareSet, size_ok};
use super::game::{LastMove, Outcome, Reason, Splinter};
use super::notation::{self, NotationError};
use crate::game::strict_json::{self, key_err, named, object, only_keys, string};
use serde_json::{Map, Value, json};
use thiserror::Error;

/// Why a position was refused: its JSON, a key, a square name, two pieces on one square, or
/// one of the rules below.
pub type PositionError = strict_json::PositionError<NotationError, PositionRuleError>;

/// A position that breaks the rules of rule 10.3.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionRuleError {
    /// More pieces of a type than a player starts with (rule 1.3).
    #[error("pieces: {color} has {count} {kind}s, more than the {max} of the start")]
    TooMany {
        color: &'static str,
        kind: &'static str,
        count: u8,
        max: u8,
    },
    /// The pieces do not form exactly one group (rule 6.6).
    #[error("pieces: {0}")]
    NotOneGroup(String),
}

/// The position as the JSON value of rule 10.2 (keys in its order, lists in canonical order).
/// Between turns only: the middle of a turn has no position (rule 12.2).
pub fn to_value(game: &Splinter) -> Value {
    let b = game.board();
    let pieces: Vec<Value> = b
        .pieces()
        .map(|(s, p)| {
            json!({
                "square": notation::square_name(b, s),
                "color": p.color.name(),
                "type": p.kind.name(),
            })
        })
        .collect();
    let last_move = game.last_move().map_or(Value::Null, |l| {
        json!({
            "direction": l.dir.name(),
            "moved": l.moved.iter().map(|s| notation::square_name(b, s)).collect::<Vec<_>>(),
        })
    });
    let result = outcome_value(game.outcome());
    json!({
        "width": b.width(),
        "height": b.height(),
        "to_move": game.to_move().name(),
        "pieces": pieces,
        "last_move": last_move,
        "result": result,
    })
}

/// A result as the position JSON writes it (rule 10.1's `result`): `null` while the game goes
/// on, else `{"winner": ..., "reason": ...}`.
pub fn outcome_value(outcome: Option<Outcome>) -> Value {
    Outcome::value(outcome)
}

/// The position as one line of JSON.
pub fn to_json(game: &Splinter) -> String {
    to_value(game).to_string()
}

/// Reads a size; the range of rule 2.1 is checked before anything is built.
fn size(obj: &Map<String, Value>, key: &str, min: u8, max: u8) -> Result<u8, PositionError> {
    let v = &obj[key];
    let n = v
        .as_u64()
        .filter(|_| v.is_u64())
        .ok_or_else(|| key_err::<PositionError>(key, format!("expected an integer, found {v}")))?;
    if n < u64::from(min) || n > u64::from(max) {
        return Err(key_err(
            key,
            format!("{n} is outside {min}..={max} (rule 2.1)"),
        ));
    }
    Ok(n as u8)
}

/// Reads and validates a position (rule 10.3). A `null` result is recomputed by rule 8.1; a
/// given one is kept.
pub fn from_json(text: &str) -> Result<Splinter, PositionError> {
    from_value(&strict_json::parse_position(text)?)
}

/// [`from_json`] of a value already parsed. (A repeated key can only be caught in the text.)
pub fn from_value(root: &Value) -> Result<Splinter, PositionError> {
    let obj = strict_json::position_object(
        root,
        &["width", "height", "to_move", "pieces"],
        &["last_move", "result"],
    )?;
    let width = size(
        obj,
        "width",
        super::board::MIN_WIDTH,
        super::board::MAX_WIDTH,
    )?;
    let height = size(
        obj,
        "height",
        super::board::MIN_HEIGHT,
        super::board::MAX_HEIGHT,
    )?;
    debug_assert!(size_ok(width, height));
    let to_move = strict_json::color(&obj["to_move"], "to_move")?;
    let mut board = Board::empty(width, height);
    let Value::Array(pieces) = &obj["pieces"] else {
        return Err(key_err("pieces", "expected an array"));
    };
    for (i, p) in pieces.iter().enumerate() {
        let key = format!("pieces[{i}]");
        let po = object(p, &key)?;
        only_keys(po, &["square", "color", "type"], &[], &key)?;
        let sq_key = format!("{key}.square");
        let s =
            notation::parse_square(&board, string(&po["square"], &sq_key)?).map_err(|source| {
                PositionError::Place {
                    key: sq_key.clone(),
                    source,
                }
            })?;
        let color = strict_json::color(&po["color"], &format!("{key}.color"))?;
        let kind = named(
            &po["type"],
            &format!("{key}.type"),
            PieceType::from_name,
            "\"king\", \"rook\", \"bishop\" or \"pawn\"",
        )?;
        if board.is_occupied(s) {
            return Err(PositionError::Occupied {
                list: "pieces",
                place: notation::square_name(&board, s),
            });
        }
        board.put(s, Some(Piece { color, kind }));
        // Checked as pieces arrive, so a long list is refused before it is all read.
        let count = board.type_counts()[color as usize][kind as usize];
        if count > kind.start_count() {
            return Err(PositionError::Rules(PositionRuleError::TooMany {
                color: color.name(),
                kind: kind.name(),
                count,
                max: kind.start_count(),
            }));
        }
    }
    let groups = board.groups();
    if groups.count != 1 {
        let why = if groups.count == 0 {
            "there must be at least one piece".into()
        } else {
            format!(
                "the pieces form {} groups (anchors {}), not one (rule 6.6)",
                groups.count,
                (1..=usize::from(groups.count))
                    .map(|g| notation::square_name(&board, groups.anchor[g]))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        return Err(PositionError::Rules(PositionRuleError::NotOneGroup(why)));
    }
    let last_move = match obj.get("last_move") {
        None | Some(Value::Null) => None,
        Some(v) => Some(read_last_move(&board, v)?),
    };
    let result = match obj.get("result") {
        None | Some(Value::Null) => None,
        Some(v) => Some(read_result(v)?),
    };
    Ok(Splinter::from_parts(board, to_move, last_move, result))
}

fn read_last_move(board: &Board, v: &Value) -> Result<LastMove, PositionError> {
    let o = object(v, "last_move")?;
    only_keys(o, &["direction", "moved"], &[], "last_move")?;
    let dir = named(
        &o["direction"],
        "last_move.direction",
        Dir::from_name,
        "a direction (n, ne, e, se, s, sw, w, nw)",
    )?;
    let Value::Array(list) = &o["moved"] else {
        return Err(key_err("last_move.moved", "expected an array of squares"));
    };
    if list.is_empty() {
        return Err(key_err(
            "last_move.moved",
            "must not be empty (use \"last_move\": null)",
        ));
    }
    let mut moved = SquareSet::default();
    for (i, s) in list.iter().enumerate() {
        let key = format!("last_move.moved[{i}]");
        let sq = notation::parse_square(board, string(s, &key)?).map_err(|source| {
            PositionError::Place {
                key: key.clone(),
                source,
            }
        })?;
        let name = notation::square_name(board, sq);
        if moved.contains(sq) {
            return Err(key_err(key, format!("{name} is listed twice")));
        }
        if !board.is_occupied(sq) {
            return Err(key_err(key, format!("{name} holds no piece")));
        }
        moved.insert(sq);
    }
    Ok(LastMove { dir, moved })
}

fn read_result(v: &Value) -> Result<Outcome, PositionError> {
    let o = object(v, "result")?;
    only_keys(o, &["winner", "reason"], &[], "result")?;
    let reason = named(
        &o["reason"],
        "result.reason",
        Reason::from_name,
        "a reason of rule 10.1",
    )?;
    let winner = strict_json::winner(&o["winner"], "result.winner")?;
    if winner.is_some() != reason.has_winner() {
        return Err(key_err(
            "result.winner",
            format!(
                "reason {:?} {}",
                reason.name(),
                if reason.has_winner() {
                    "names a winner"
                } else {
                    "has winner null"
                }
            ),
        ));
    }
    Ok(Outcome { winner, reason })
}
