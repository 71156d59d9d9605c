//! What the pipeline asks of a game beyond its rules
//! ([`GameState`](crumble_core::GameState)) and text ([`GameText`]): per-game hooks with
//! generic defaults, so a new game plugs in with an empty `impl` and Crumble keeps its own
//! notation.

use crate::record::{GameRecord, RecordError};
use crumble_core::GameText;
use crumble_core::games::nim::Nim;
use crumble_core::games::tictactoe::TicTacToe;

/// Per-game hooks of the pipeline; every method has a default that works for any game.
pub trait GameHooks: GameText {
    /// Small enough for the `solver` agent's exhaustive search (the test games).
    const SOLVABLE: bool = false;

    /// A finished game as the game's text record
    /// ([`Record`](crumble_core::game::record::Record)), with the names of the first and
    /// second player's agents when given.
    fn record_text(rec: &GameRecord, agents: Option<[&str; 2]>) -> Result<String, RecordError> {
        crate::text_record::text_record::<Self>(rec, agents)
    }
}

impl GameHooks for crumble_core::games::crumble::Crumble {}
impl GameHooks for crumble_core::games::splinter::Splinter {}
impl GameHooks for crumble_core::games::crumo::Crumo {}
impl GameHooks for TicTacToe {
    const SOLVABLE: bool = true;
}
impl GameHooks for Nim {
    const SOLVABLE: bool = true;
}
