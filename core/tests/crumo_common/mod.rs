//! Helpers shared by the Crumo tests: the worked examples (copied from the project's shared
//! `examples-crumo/`, format in its README.md), positions built from a few stacks, and the
//! imports every rule test uses.

#![allow(dead_code, unused_imports)]

pub use crumble_core::Color;
use crumble_core::game::CompleteMoves;
pub use crumble_core::games::crumo::{
    Action, Crumo, CrumoMove, CrumoStart, MoveError, MoveRuleError, NotationError, Outcome, Pie,
    PositionError, PositionRuleError, Previous, Reason, Refusal, Stack, Symmetry, notation,
    position,
};
pub use crumble_core::{Decision, DecisionError, GameState, Player};
pub use rand::SeedableRng;
pub use rand_chacha::ChaCha8Rng;
pub use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/crumo-examples")
}

pub fn example(file: &str) -> Value {
    let path = examples_dir().join(file);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The start of an example, with its `max_turns` set.
pub fn start_of(case: &Value) -> Result<Crumo, String> {
    let mut game = match &case["start"] {
        Value::String(s) if s == "standard" => {
            let n = case["size"].as_u64().ok_or("size missing")?;
            Crumo::standard(n as u8).ok_or(format!("size {n}"))?
        }
        pos @ Value::Object(_) => {
            position::from_json(&pos.to_string()).map_err(|e| format!("start: {e}"))?
        }
        other => return Err(format!("bad start {other}")),
    };
    if let Some(t) = case.get("max_turns").and_then(Value::as_u64) {
        game.set_turn_limit(t as u32);
    }
    Ok(game)
}

pub fn example_start(file: &str) -> Crumo {
    start_of(&example(file)).unwrap()
}

/// The moves of an example.
pub fn example_moves(case: &Value) -> Vec<String> {
    case["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// A game from the standard start of `size` after `moves` (each must be legal).
pub fn after(size: u8, moves: &[&str]) -> Crumo {
    let mut g = Crumo::standard(size).unwrap();
    g.play_texts(moves).unwrap_or_else(|e| panic!("{e}"));
    g
}

/// A size-5 position between turns with these stacks (`("e5", Color::Black, 3)`), pie over,
/// `previous` as given, no captures: `to_move` moves next.
pub fn position_with(to_move: Color, previous: Previous, stacks: &[(&str, Color, u64)]) -> Crumo {
    let list: Vec<Value> = stacks
        .iter()
        .map(|(p, c, h)| json!({"point": p, "color": c.name(), "height": h}))
        .collect();
    let v = json!({
        "size": 5, "to_move": to_move.name(), "pie": "over", "swapped": false,
        "previous": previous.name(), "captures": {"black": 0, "white": 0},
        "stacks": list, "result": null
    });
    position::from_value(&v).unwrap_or_else(|e| panic!("{e}"))
}

pub fn pt(g: &Crumo, name: &str) -> u16 {
    notation::parse_point(g.geometry(), name).unwrap()
}

/// The stack on a named point, as `(colour, height)`.
pub fn at(g: &Crumo, name: &str) -> Option<(Color, u64)> {
    g.stack(pt(g, name)).map(|s| (s.color, s.height))
}

/// Compares two positions as rule 12 says: as JSON values, stacks as a set, numbers as
/// numbers (`6.0` equals `6`). Returns the first difference.
pub fn same_position(got: &Value, want: &Value) -> Result<(), String> {
    fn norm(v: &Value) -> Value {
        match v {
            Value::Number(n) => json!(n.as_f64().unwrap()),
            Value::Array(a) => {
                let mut items: Vec<Value> = a.iter().map(norm).collect();
                items.sort_by_key(|x| x.to_string());
                Value::Array(items)
            }
            Value::Object(o) => {
                Value::Object(o.iter().map(|(k, v)| (k.clone(), norm(v))).collect())
            }
            other => other.clone(),
        }
    }
    let (g, w) = (norm(got), norm(want));
    let (Some(go), Some(wo)) = (g.as_object(), w.as_object()) else {
        return Err("not objects".into());
    };
    for key in wo.keys().chain(go.keys()) {
        if go.get(key) != wo.get(key) {
            return Err(format!(
                "{key}: got {}, want {}",
                go.get(key).map_or("nothing".into(), Value::to_string),
                wo.get(key).map_or("nothing".into(), Value::to_string)
            ));
        }
    }
    Ok(())
}
