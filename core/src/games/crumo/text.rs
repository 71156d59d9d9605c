//! Crumo's text layer ([`GameText`]): moves in the notation of rule 11, positions as the
//! position JSON of rule 12, results as its result value with both scores.

use super::{Crumo, notation, position};
use crate::game::{Decision, GameText, TextError};

impl GameText for Crumo {
    type Notation = ();

    /// The limit of random games of rule 10.4.
    const RANDOM_GAME_TURNS: u32 = 200;

    /// A move after the end is refused by the rules' own error (rule 11.8).
    fn parse_move(&self, text: &str, (): ()) -> Result<Vec<Decision>, TextError> {
        let mv = notation::parse_move(self.geometry(), text)
            .map_err(|e| TextError::of_move(super::MoveError::from(e)))?;
        let (first, second) = self.resolve(&mv).map_err(TextError::of_move)?;
        Ok(std::iter::once(first).chain(second).collect())
    }

    fn move_text(&self, turn: &[Decision], (): ()) -> Result<String, TextError> {
        let mv = self.move_of_turn(turn).ok_or_else(|| {
            TextError::Internal(format!("{turn:?} is not a whole turn of this position"))
        })?;
        Ok(notation::move_text(self.geometry(), &mv))
    }

    fn legal_move_texts(&self, (): ()) -> Result<Vec<String>, TextError> {
        Ok(Crumo::legal_move_texts(self))
    }

    fn position_json(&self) -> String {
        position::to_json(self)
    }

    fn from_position_json(text: &str) -> Result<Crumo, TextError> {
        position::from_json(text).map_err(TextError::of_position)
    }

    fn board_text(&self) -> String {
        format!("size {} ({} points)", self.geometry().size(), self.points())
    }

    fn result_json(&self) -> serde_json::Value {
        position::outcome_value(self.outcome())
    }

    fn result_text(&self) -> String {
        position::outcome_value(self.outcome()).to_string()
    }
}
