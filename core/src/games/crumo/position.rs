//! The position JSON of rule 12: writing in canonical order, and strict reading (rule 12.3)
//! whose errors name the key, stack or point and say what is wrong.

use super::board::{Point, Stack, cell_of, geometry, size_ok};
use super::game::{Crumo, Outcome, Pie, Previous, Reason};
use super::notation::{self, NotationError};
use crate::game::Color;
use crate::game::strict_json::{self, key_err, named, object, only_keys};
use serde_json::{Value, json};
use thiserror::Error;

/// The largest height or capture count a position may state (rule 12.3).
pub const MAX_COUNT: u64 = (1 << 31) - 1;

/// Why a position was refused: its JSON, a key, a point name, two stacks on one point, or
/// one of the rules below.
pub type PositionError = strict_json::PositionError<NotationError, PositionRuleError>;

/// A position that breaks the rules of rule 12.3.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionRuleError {
    /// The pie state disagrees with the rest (rule 12.3).
    #[error("pie {pie:?}: {problem} (rule 12.3)")]
    Pie { pie: &'static str, problem: String },
    /// A stack is dead (rule 4.3).
    #[error(
        "stacks: the stack on {point} is dead (attack {attack} > defence {defence}); no stack is dead between turns (rule 4.3)"
    )]
    Dead {
        point: String,
        attack: u32,
        defence: u32,
    },
    /// The result disagrees with the position (rule 12.3).
    #[error("result: {0}")]
    Result(String),
}

/// A result as the position JSON writes it (rule 12.2).
pub fn outcome_value(outcome: Option<Outcome>) -> Value {
    outcome.map_or(Value::Null, |o| {
        let score = match (o.score(Color::Black), o.score(Color::White)) {
            (Some(b), Some(w)) => json!({"black": b, "white": w}),
            _ => Value::Null,
        };
        json!({
            "winner": o.winner.map(Color::name),
            "reason": o.reason.name(),
            "score": score,
        })
    })
}

/// The position as the JSON value of rule 12.1 (keys and stacks in its order). Between turns
/// only: the middle of a turn has no position.
pub fn to_value(game: &Crumo) -> Value {
    let geo = game.geometry();
    let stacks: Vec<Value> = game
        .stacks()
        .map(|(p, s)| {
            json!({
                "point": geo.name(p),
                "color": s.color.name(),
                "height": s.height,
            })
        })
        .collect();
    json!({
        "size": game.size(),
        "to_move": game.to_move().name(),
        "pie": game.pie().name(),
        "swapped": game.swapped(),
        "previous": game.previous().name(),
        "captures": {
            "black": game.captures(Color::Black),
            "white": game.captures(Color::White),
        },
        "stacks": stacks,
        "result": outcome_value(game.outcome()),
    })
}

/// The position as one line of JSON.
pub fn to_json(game: &Crumo) -> String {
    to_value(game).to_string()
}

/// An integer in `min..=MAX_COUNT` (`1.0`, `-1` and `true` are refused).
fn count(v: &Value, key: &str, min: u64) -> Result<u64, PositionError> {
    match v.as_u64().filter(|_| v.is_u64()) {
        Some(n) if (min..=MAX_COUNT).contains(&n) => Ok(n),
        _ => Err(key_err(
            key,
            format!("expected an integer in {min}..={MAX_COUNT}, found {v}"),
        )),
    }
}

/// Reads and validates a position (rule 12.3).
pub fn from_json(text: &str) -> Result<Crumo, PositionError> {
    from_value(&strict_json::parse_position(text)?)
}

/// [`from_json`] of a value already parsed. (A repeated key can only be caught in the text.)
pub fn from_value(root: &Value) -> Result<Crumo, PositionError> {
    let obj = strict_json::position_object(
        root,
        &[
            "size", "to_move", "pie", "swapped", "previous", "captures", "stacks",
        ],
        &["result"],
    )?;
    // The size first: nothing is built for a size the engine does not support.
    let size_v = &obj["size"];
    let size = size_v
        .as_u64()
        .filter(|&n| size_v.is_u64() && n <= u64::from(u8::MAX) && size_ok(n as u8))
        .ok_or_else(|| {
            key_err::<PositionError>(
                "size",
                format!(
                    "expected an integer in {}..={} (rule 1.1), found {size_v}",
                    super::board::MIN_SIZE,
                    super::board::MAX_SIZE
                ),
            )
        })? as u8;
    let geo = geometry(size).expect("size checked");
    let to_move = strict_json::color(&obj["to_move"], "to_move")?;
    let pie = named(
        &obj["pie"],
        "pie",
        Pie::from_name,
        "\"first\", \"choice\" or \"over\"",
    )?;
    let swapped = obj["swapped"].as_bool().ok_or_else(|| {
        key_err::<PositionError>(
            "swapped",
            format!("expected a boolean, found {}", obj["swapped"]),
        )
    })?;
    let previous = named(
        &obj["previous"],
        "previous",
        Previous::from_name,
        "\"complete-move\", \"pass\" or \"other\"",
    )?;
    let cap = object(&obj["captures"], "captures")?;
    only_keys(cap, &["black", "white"], &[], "captures")?;
    let captures = [
        count(&cap["black"], "captures.black", 0)?,
        count(&cap["white"], "captures.white", 0)?,
    ];
    let Value::Array(list) = &obj["stacks"] else {
        return Err(key_err("stacks", "expected an array"));
    };
    let mut game = Crumo::standard(size).expect("size checked");
    for (i, s) in list.iter().enumerate() {
        let key = format!("stacks[{i}]");
        let so = object(s, &key)?;
        only_keys(so, &["point", "color", "height"], &[], &key)?;
        let point_key = format!("{key}.point");
        let name = so["point"].as_str().ok_or_else(|| {
            key_err::<PositionError>(
                &point_key,
                format!("expected a string, found {}", so["point"]),
            )
        })?;
        let p: Point = notation::parse_point(geo, name).map_err(|source| PositionError::Place {
            key: point_key.clone(),
            source,
        })?;
        let color = strict_json::color(&so["color"], &format!("{key}.color"))?;
        let height = count(&so["height"], &format!("{key}.height"), 1)?;
        if game.cells[usize::from(p)] != 0 {
            let place = geo.name(p);
            return Err(PositionError::Occupied {
                list: "stacks",
                place,
            });
        }
        game.cells[usize::from(p)] = cell_of(Some(Stack { color, height }));
    }
    let pie_err = |problem: &str| {
        PositionError::Rules(PositionRuleError::Pie {
            pie: pie.name(),
            problem: problem.into(),
        })
    };
    match pie {
        Pie::First if game.stacks().next().is_some() => {
            return Err(pie_err("the board must be empty"));
        }
        Pie::First if captures != [0, 0] => return Err(pie_err("captures must be 0")),
        Pie::First if to_move != Color::Black => return Err(pie_err("Black must be to move")),
        Pie::Choice if to_move != Color::White => return Err(pie_err("White must be to move")),
        Pie::First | Pie::Choice if swapped => return Err(pie_err("swapped must be false")),
        Pie::First | Pie::Choice if previous != Previous::Other => {
            return Err(pie_err("previous must be \"other\""));
        }
        _ => {}
    }
    game.to_move = to_move;
    game.pie = pie;
    game.swapped = swapped;
    game.previous = previous;
    game.captures = captures;
    for (p, s) in game.stacks() {
        let g = game.guards(p);
        let (defence, attack) = (g[s.color as usize], g[s.color.opposite() as usize]);
        if attack > defence {
            return Err(PositionError::Rules(PositionRuleError::Dead {
                point: geo.name(p),
                attack,
                defence,
            }));
        }
    }
    game.result = match obj.get("result") {
        None | Some(Value::Null) => None,
        Some(v) => Some(read_result(&game, v)?),
    };
    Ok(game)
}

/// A score value: a finite number `≥ 0`, whole or whole plus ½, in half points.
fn score_halves(v: &Value, key: &str) -> Result<u64, PositionError> {
    let bad = || {
        PositionError::Rules(PositionRuleError::Result(format!(
            "{key}: expected a number >= 0, whole or whole plus 1/2, found {v}"
        )))
    };
    let x = v.as_f64().filter(|_| v.is_number()).ok_or_else(bad)?;
    let halves = x * 2.0;
    if !x.is_finite() || x < 0.0 || halves.fract() != 0.0 || halves > 2.0 * MAX_COUNT as f64 * 1e3 {
        return Err(bad());
    }
    Ok(halves as u64)
}

/// Reads a result and checks it against the position (rule 12.3).
fn read_result(game: &Crumo, v: &Value) -> Result<Outcome, PositionError> {
    let o = object(v, "result")?;
    only_keys(o, &["winner", "reason", "score"], &[], "result")?;
    let reason = named(
        &o["reason"],
        "result.reason",
        Reason::from_name,
        "a reason of rule 12.2",
    )?;
    let winner = strict_json::winner(&o["winner"], "result.winner")?;
    let err = |s: String| Err(PositionError::Rules(PositionRuleError::Result(s)));
    if !reason.is_scored() {
        if !o["score"].is_null() {
            return err(format!("a {} result has score null", reason.name()));
        }
        if (reason == Reason::Resignation) != winner.is_some() {
            return err(format!(
                "a {} result {}",
                reason.name(),
                if reason == Reason::Resignation {
                    "names a winner"
                } else {
                    "has winner null"
                }
            ));
        }
        return Ok(Outcome {
            winner,
            reason,
            score_halves: None,
        });
    }
    let so = object(&o["score"], "result.score")?;
    only_keys(so, &["black", "white"], &[], "result.score")?;
    let stated = [
        score_halves(&so["black"], "score.black")?,
        score_halves(&so["white"], "score.white")?,
    ];
    if reason == Reason::TwoPasses && game.previous != Previous::Pass {
        return err("a two-passes result needs previous \"pass\"".into());
    }
    let half_for = (reason == Reason::TwoPasses).then_some(game.to_move);
    let expected = Outcome::scored(reason, game.score_halves(half_for));
    if Some(stated) != expected.score_halves {
        return err(format!(
            "the scores are {} to {}, but the position scores {} to {} (rule 9.2)",
            stated[0] as f64 / 2.0,
            stated[1] as f64 / 2.0,
            expected.score(Color::Black).unwrap_or(0.0),
            expected.score(Color::White).unwrap_or(0.0),
        ));
    }
    if winner != expected.winner {
        return err(format!(
            "the winner is {}, not {} (rule 9.3)",
            expected.winner.map_or("null", Color::name),
            winner.map_or("null", Color::name)
        ));
    }
    Ok(expected)
}
