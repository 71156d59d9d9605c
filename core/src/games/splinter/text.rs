//! Splinter's text layer ([`GameText`]): moves in the notation of rule 9, positions as the
//! position JSON of rule 10, results as its result value.

use super::{Action, Splinter, SplinterMove, notation, position};
use crate::game::{Decision, GameText, TextError};

impl Splinter {
    /// The complete move a turn's decisions make from this state (a turn start): the slide,
    /// and the group that stays when the slide leaves equal largest groups.
    pub fn move_of_turn(&self, turn: &[Decision]) -> Option<SplinterMove> {
        let (Some(Action::Move { from, dir }), rest) = (self.decode(*turn.first()?), &turn[1..])
        else {
            return None;
        };
        let keep = match rest {
            [] => None,
            [k] => {
                let mut after = self.clone();
                after.apply(turn[0]).ok()?;
                match after.decode(*k)? {
                    Action::Keep { square } => Some(square),
                    _ => return None,
                }
            }
            _ => return None,
        };
        Some(SplinterMove { from, dir, keep })
    }
}

impl GameText for Splinter {
    type Notation = ();

    /// Rule 8.8 leaves the limit of random games to the project (the reference engine's).
    const RANDOM_GAME_TURNS: u32 = 300;

    fn parse_move(&self, text: &str, (): ()) -> Result<Vec<Decision>, TextError> {
        if let Some(o) = self.outcome() {
            return Err(TextError::GameOver {
                result: position::outcome_value(Some(o)).to_string(),
            });
        }
        let mv = notation::parse_move(self.board(), text).map_err(TextError::of_move)?;
        let (first, keep) = self.resolve(&mv).map_err(TextError::of_move)?;
        Ok(std::iter::once(first).chain(keep).collect())
    }

    fn move_text(&self, turn: &[Decision], (): ()) -> Result<String, TextError> {
        let mv = self.move_of_turn(turn).ok_or_else(|| {
            TextError::Internal(format!("{turn:?} is not a whole turn of this position"))
        })?;
        Ok(notation::move_text(self.board(), &mv))
    }

    fn legal_move_texts(&self, (): ()) -> Result<Vec<String>, TextError> {
        Ok(Splinter::legal_move_texts(self))
    }

    fn position_json(&self) -> String {
        position::to_json(self)
    }

    fn from_position_json(text: &str) -> Result<Splinter, TextError> {
        position::from_json(text).map_err(TextError::of_position)
    }

    fn board_text(&self) -> String {
        let b = self.board();
        format!("{}x{} board", b.width(), b.height())
    }

    fn result_json(&self) -> serde_json::Value {
        position::outcome_value(self.outcome())
    }

    fn result_text(&self) -> String {
        position::outcome_value(self.outcome()).to_string()
    }
}
