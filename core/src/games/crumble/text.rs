//! Crumble's text layer ([`GameText`]): moves in the notation of rule 6 in either frame,
//! positions as position JSON (`position.md`), results as the schema's result object.

use super::notation::{self, Formatter, Frame};
use super::{Crumble, position};
use crate::game::{Decision, GameText, TextError};

impl GameText for Crumble {
    type Notation = Frame;

    /// Random games end by the draw rule long before this; the limit only bounds a run.
    const RANDOM_GAME_TURNS: u32 = 200;

    fn parse_move(&self, text: &str, frame: Frame) -> Result<Vec<Decision>, TextError> {
        if let Some(o) = self.outcome() {
            return Err(TextError::GameOver {
                result: position::outcome_text(Some(o)),
            });
        }
        let mv = notation::parse_move(self, text, frame).map_err(TextError::of_move)?;
        self.move_decisions(&mv).map_err(TextError::of_move)
    }

    fn move_text(&self, turn: &[Decision], frame: Frame) -> Result<String, TextError> {
        let mv = self.move_from_decisions(turn).map_err(TextError::of_move)?;
        notation::format_move(self, &mv, frame)
            .ok_or_else(|| TextError::Internal(format!("the move {mv:?} cannot be printed")))
    }

    /// The splits and joins of the player to move without their swap paths, in byte order.
    fn legal_move_texts(&self, frame: Frame) -> Result<Vec<String>, TextError> {
        if self.is_over() {
            return Ok(Vec::new());
        }
        let mut game = self.clone();
        // One formatter for all moves: it builds the writer's view of the position once.
        let mut formatter = Formatter::new(&game, frame);
        let mut lines = Vec::new();
        for mv in game.base_moves() {
            let text = formatter.format(&game, &mv).ok_or_else(|| {
                TextError::Internal(format!("the listed move {mv:?} cannot be printed"))
            })?;
            lines.push(text);
        }
        lines.sort_unstable();
        Ok(lines)
    }

    fn position_json(&self) -> String {
        let mut json = position::to_json(self);
        json.truncate(json.trim_end().len());
        json
    }

    fn from_position_json(text: &str) -> Result<Crumble, TextError> {
        position::from_json(text).map_err(TextError::of_position)
    }

    fn result_json(&self) -> serde_json::Value {
        position::outcome_json(self.outcome())
    }

    fn result_text(&self) -> String {
        position::outcome_text(self.outcome())
    }
}
