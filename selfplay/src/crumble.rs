//! Crumble's own views of the generic records: game records in Crumble's notation.

use crate::record::{Ending, GameRecord, RecordError};
use crumble_core::{Decision, Frame, Game, Outcome, Reason};

/// How a recorded Crumble game ended, with Crumble's reason: the rules' own for a game that
/// ended by them, resignation or agreement for an adjudicated one. `game` is the replayed game.
pub fn outcome(rec: &GameRecord, game: &Game) -> Outcome {
    match rec.ending {
        Ending::Rules => game
            .outcome()
            .expect("a replayed game that ended by the rules"),
        Ending::Resignation => Outcome {
            winner: rec.winner().map(Into::into),
            reason: Reason::Resignation,
        },
        Ending::Stopped => Outcome {
            winner: None,
            reason: Reason::Agreement,
        },
    }
}

/// The game as a human-readable game record (`crumble_core::record`, per-player frame):
/// tags `Game` (its number in the run) and the result, the moves in notation.
pub fn to_game_record(rec: &GameRecord) -> Result<crumble_core::record::GameRecord, RecordError> {
    let end = rec.replay::<Game>()?;
    let start: Game = rec.start_state()?;
    // The record's start is the position alone: the turn limit is a setting of the run (the
    // result says when it ended a game), and would make a standard start look custom.
    let mut plain = start.clone();
    plain.set_max_turns(0);
    let mut out = crumble_core::record::GameRecord::new(plain, Frame::PerPlayer);
    out.set_tag("Game", &rec.index.to_string());
    let mut g = start;
    let mut before = g.clone();
    let mut path: Vec<Decision> = Vec::new();
    let mut turn = g.turns_played();
    for s in &rec.steps {
        path.push(s.decision);
        g.apply(s.decision).map_err(|e| RecordError::Replay {
            index: rec.index,
            what: format!("decision refused: {e}"),
        })?;
        if g.turns_played() != turn || g.is_over() {
            let mv = before
                .move_from_decisions(&path)
                .map_err(|e| RecordError::Replay {
                    index: rec.index,
                    what: format!("turn {}: {e}", turn + 1),
                })?;
            out.push_move(mv, None);
            path.clear();
            before.clone_from(&g);
            turn = g.turns_played();
        }
    }
    out.result = Some(outcome(rec, &end));
    Ok(out)
}

/// The game as the text of a game record (see [`to_game_record`]).
pub fn to_text(rec: &GameRecord) -> Result<String, RecordError> {
    Ok(to_game_record(rec)?.write())
}
