//! What the pipeline asks of a game beyond its rules ([`GameState`]): per-game hooks with
//! generic defaults, so a new game plugs in with an empty `impl` and Crumble keeps its own
//! notation.

use crate::record::{GameRecord, RecordError, result_text};
use crumble_core::GameState;
use crumble_core::games::nim::Nim;
use crumble_core::games::tictactoe::TicTacToe;
use std::fmt::Write as _;

/// Per-game hooks of the pipeline; every method has a default that works for any game.
pub trait GameHooks: GameState {
    /// Small enough for the `solver` agent's exhaustive search (the test games).
    const SOLVABLE: bool = false;

    /// A finished game as readable text, with the names of the first and second player's
    /// agents when given: by default tags (game, index, players, start, result, ending) and
    /// the decisions as integers; Crumble and Splinter write game records in their notation.
    fn record_text(rec: &GameRecord, agents: Option<[&str; 2]>) -> Result<String, RecordError> {
        rec.replay::<Self>()?;
        let mut s = String::new();
        let _ = writeln!(s, "[Game \"{}\"]", rec.game);
        let _ = writeln!(s, "[Index \"{}\"]", rec.index);
        if let Some([first, second]) = agents {
            let _ = writeln!(s, "[First \"{}\"]", first.escape_default());
            let _ = writeln!(s, "[Second \"{}\"]", second.escape_default());
        }
        let _ = writeln!(s, "[Start {}]", rec.start);
        let _ = writeln!(s, "[Result \"{}\"]", result_text(rec.result));
        let _ = writeln!(s, "[Ending \"{}\"]", rec.ending.name());
        s.push('\n');
        for step in &rec.steps {
            let _ = write!(s, "{} ", step.decision.0);
        }
        let _ = writeln!(s, "{}", result_text(rec.result));
        Ok(s)
    }
}

impl GameHooks for crumble_core::games::crumble::Crumble {
    fn record_text(rec: &GameRecord, agents: Option<[&str; 2]>) -> Result<String, RecordError> {
        let mut text = crate::games::crumble::to_game_record(rec)?;
        if let Some([black, white]) = agents {
            text.set_tag("Black", black);
            text.set_tag("White", white);
        }
        Ok(text.write())
    }
}

impl GameHooks for crumble_core::games::splinter::Splinter {
    /// A Splinter game record (`crumble_core::games::splinter::record`): moves in canonical
    /// notation numbered by turn, the agents as `Black` and `White`.
    fn record_text(rec: &GameRecord, agents: Option<[&str; 2]>) -> Result<String, RecordError> {
        Ok(crate::games::splinter::to_record(rec, agents)?.write())
    }
}

impl GameHooks for crumble_core::games::crumo::Crumo {
    /// A Crumo game record (`crumble_core::games::crumo::record`): moves in canonical notation
    /// numbered by turn, the agents as `Black` and `White` after any swap.
    fn record_text(rec: &GameRecord, agents: Option<[&str; 2]>) -> Result<String, RecordError> {
        Ok(crate::games::crumo::to_record(rec, agents)?.write())
    }
}

impl GameHooks for TicTacToe {
    const SOLVABLE: bool = true;
}
impl GameHooks for Nim {
    const SOLVABLE: bool = true;
}
