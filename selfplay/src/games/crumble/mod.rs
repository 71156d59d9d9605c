//! Crumble's own views of the generic records (game records in Crumble's notation), and its
//! own tools: the tactics suite ([`tactics`]) and the opening statistics ([`openings`]).

pub mod openings;
pub mod tactics;

use crate::record::{Ending, GameRecord, RecordError};
use crumble_core::Decision;
use crumble_core::GameState as _;
use crumble_core::games::crumble::{Crumble, Move, Outcome, Reason};

/// How a recorded Crumble game ended, with Crumble's reason: the rules' own for a game that
/// ended by them, resignation or agreement for an adjudicated one. `game` is the replayed game.
pub fn outcome(rec: &GameRecord, game: &Crumble) -> Outcome {
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

/// Replays a Crumble record from its start and hands each completed turn to `on_turn` as a
/// move with the position it was played in, while `on_turn` asks for more (`true`); returns
/// the final state of the whole replay. A decision that does not apply is an error.
pub fn replay_moves(
    rec: &GameRecord,
    mut on_turn: impl FnMut(&Crumble, Move) -> bool,
) -> Result<Crumble, RecordError> {
    let mut g: Crumble = rec.start_state()?;
    let mut before = g.clone();
    let mut path: Vec<Decision> = Vec::new();
    let mut turn = g.turns_played();
    let mut more = true;
    for s in &rec.steps {
        g.apply(s.decision).map_err(|e| RecordError::Replay {
            index: rec.index,
            what: format!("decision refused: {e}"),
        })?;
        if !more {
            continue;
        }
        path.push(s.decision);
        if g.turns_played() != turn || g.is_over() {
            let mv = before
                .move_from_decisions(&path)
                .map_err(|e| RecordError::Replay {
                    index: rec.index,
                    what: format!("turn {}: {e}", turn + 1),
                })?;
            more = on_turn(&before, mv);
            path.clear();
            before.clone_from(&g);
            turn = g.turns_played();
        }
    }
    Ok(g)
}
