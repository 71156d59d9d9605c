//! The result of a finished game that is a winner (or a draw) and the reason the game ended,
//! as Crumble and Splinter keep it; each game names its own reasons.

use super::Color;
use serde_json::{Value, json};

/// A finished game's result: the winning colour (`None` for a draw) and why the game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome<R> {
    pub winner: Option<Color>,
    pub reason: R,
}

impl<R: Copy + Into<&'static str>> Outcome<R> {
    /// A draw for `reason`.
    pub fn draw(reason: R) -> Outcome<R> {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// A result as position JSON writes it: `null` while the game goes on, else
    /// `{"winner": ..., "reason": ...}` (the reason by its word).
    pub fn value(outcome: Option<Outcome<R>>) -> Value {
        outcome.map_or(Value::Null, |o| {
            let reason: &'static str = o.reason.into();
            json!({
                "winner": o.winner.map(Color::name),
                "reason": reason,
            })
        })
    }
}
