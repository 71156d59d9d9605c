//! Splinter's own views of the generic records: game records in Splinter's notation
//! (`crumble_core::games::splinter::record`).

use crate::record::{Ending, GameRecord, RecordError};
use crumble_core::games::splinter::{
    Action, Outcome, Reason, Splinter, SplinterMove, SplinterRecord,
};

/// The complete moves of a recorded Splinter game, from its start: each turn's `Move`
/// decision with its `Keep` when the move left equal largest groups. Returns the moves and
/// the game after them. Decisions that are refused, or that stop in the middle of a turn,
/// are an error.
pub fn moves(rec: &GameRecord) -> Result<(Vec<SplinterMove>, Splinter), RecordError> {
    let mut game: Splinter = rec.start_state()?;
    let bad = |what: String| RecordError::Replay {
        index: rec.index,
        what,
    };
    let mut out = Vec::new();
    let mut pending: Option<SplinterMove> = None;
    for (i, s) in rec.steps.iter().enumerate() {
        let action = game.decode(s.decision);
        game.apply(s.decision)
            .map_err(|e| bad(format!("decision {i} ({}) refused: {e}", s.decision.0)))?;
        match (action, pending.take()) {
            (Some(Action::Move { from, dir }), None) => {
                let mv = SplinterMove {
                    from,
                    dir,
                    keep: None,
                };
                if game.is_pending() {
                    pending = Some(mv);
                } else {
                    out.push(mv);
                }
            }
            (Some(Action::Keep { square }), Some(mv)) => out.push(SplinterMove {
                keep: Some(square),
                ..mv
            }),
            // `apply` accepted it, so the engine's own turn structure was kept.
            _ => return Err(bad(format!("decision {i} breaks the turn structure"))),
        }
    }
    if pending.is_some() {
        return Err(bad(
            "the decisions end in the middle of a turn (a move without its splinter choice)".into(),
        ));
    }
    Ok((out, game))
}

/// How a recorded Splinter game ended: the rules' result, a resignation, or an agreed draw
/// for a stopped game. `game` is the replayed game.
pub fn outcome(rec: &GameRecord, game: &Splinter) -> Option<Outcome> {
    match rec.ending {
        Ending::Rules => game.outcome(),
        Ending::Resignation => Some(Outcome {
            winner: rec.winner().map(Into::into),
            reason: Reason::Resignation,
        }),
        Ending::Stopped => Some(Outcome {
            winner: None,
            reason: Reason::Agreement,
        }),
    }
}

/// The game as a Splinter game record: tag `Index` (its number in the run), the players'
/// names when given (first = Black), the moves in canonical notation and the result.
pub fn to_record(
    rec: &GameRecord,
    agents: Option<[&str; 2]>,
) -> Result<SplinterRecord, RecordError> {
    rec.replay::<Splinter>()?;
    let (moves, end) = moves(rec)?;
    let mut out = SplinterRecord::new(rec.start_state()?);
    out.set_tag("Index", &rec.index.to_string());
    if let Some([black, white]) = agents {
        out.set_tag("Black", black);
        out.set_tag("White", white);
    }
    if rec.max_turns > 0 {
        // The limit is the match's setting (rule 8.4), not the position's: a tag says it.
        out.set_tag("TurnLimit", &rec.max_turns.to_string());
    }
    for mv in moves {
        out.push_move(mv, None);
    }
    out.result = outcome(rec, &end);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{StepKind, StepRecord, start_json};
    use crumble_core::{Decision, GameResult, GameState};
    use rand::SeedableRng;

    /// A random game on 7 × 8 as a record, with the decisions of every turn.
    fn random_record(seed: u64, max_turns: u32) -> GameRecord {
        let mut g = Splinter::standard(7, 8).unwrap();
        g.set_turn_limit(max_turns);
        let start = g.to_start();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut steps = Vec::new();
        let mut path: Vec<Decision> = Vec::new();
        while !g.is_over() {
            g.play_random_turn_recorded(&mut rng, &mut path);
            steps.extend(path.iter().map(|&decision| StepRecord {
                decision,
                kind: StepKind::Random,
                search: None,
            }));
        }
        GameRecord {
            index: 7,
            game: "splinter".into(),
            start: start_json::<Splinter>(&start),
            max_turns,
            steps,
            result: g.game_result().unwrap(),
            ending: Ending::Rules,
            would_resign: None,
        }
    }

    #[test]
    fn a_recorded_game_becomes_a_text_record_that_reads_back() {
        // Find a game with a splinter choice, so that two-decision turns are covered.
        let rec = (0..40)
            .map(|seed| random_record(seed, 200))
            .find(|r| {
                let (moves, _) = moves(r).unwrap();
                moves.iter().any(|m| m.keep.is_some())
            })
            .expect("a random game with a splinter choice");
        let text = to_record(&rec, Some(["ada", "bo"])).unwrap().write();
        assert!(
            text.contains("[Index \"7\"]\n[Black \"ada\"]\n[White \"bo\"]\n"),
            "{text}"
        );
        assert!(text.contains("[TurnLimit \"200\"]\n[Board \"7x8\"]\n[Start \"standard\"]"));
        assert!(text.contains("\n1. ") && text.contains('/'), "{text}");
        let parsed = crumble_core::games::splinter::record::parse(&text).unwrap();
        let (moves, end) = moves(&rec).unwrap();
        assert_eq!(parsed.moves, moves);
        assert_eq!(parsed.result, end.outcome());
        assert_eq!(
            <Splinter as crate::GameHooks>::record_text(&rec, Some(["ada", "bo"])).unwrap(),
            text
        );
    }

    #[test]
    fn a_resignation_and_a_turn_cut_in_half_are_told_apart() {
        let mut rec = random_record(1, 6);
        assert_eq!(rec.result, GameResult::Draw);
        let text = to_record(&rec, None).unwrap().write();
        assert!(text.contains("[Termination \"turn-limit\"]"), "{text}");
        // Resigned by Black before the last turn: White wins by resignation.
        let mut g: Splinter = rec.start_state().unwrap();
        let mut kept = Vec::new();
        for s in &rec.steps {
            if g.turns_played() == 5 {
                break;
            }
            g.apply(s.decision).unwrap();
            kept.push(s.clone());
        }
        rec.steps = kept;
        rec.ending = Ending::Resignation;
        rec.result = GameResult::Win(crumble_core::Player::Second);
        let text = to_record(&rec, None).unwrap().write();
        assert!(
            text.contains("[Result \"0-1\"]\n[Termination \"resignation\"]"),
            "{text}"
        );
        // A move without its splinter choice is an error, not a panic (worked example 15).
        let example: serde_json::Value = serde_json::from_str(include_str!(
            "../../../core/tests/data/splinter-examples/15-tie-mover-keeps-first.json"
        ))
        .unwrap();
        let g = crumble_core::games::splinter::position::from_value(&example["start"]).unwrap();
        let mv =
            crumble_core::games::splinter::notation::parse_move(g.board(), "e4-d3/d3").unwrap();
        let (first, keep) = g.resolve(&mv).unwrap();
        assert!(keep.is_some());
        let step = |decision| StepRecord {
            decision,
            kind: StepKind::Random,
            search: None,
        };
        let mut half = GameRecord {
            start: start_json::<Splinter>(&g.to_start()),
            max_turns: 0,
            steps: vec![step(first)],
            ending: Ending::Stopped,
            result: GameResult::Draw,
            ..random_record(2, 0)
        };
        let e = to_record(&half, None).unwrap_err();
        assert!(e.to_string().contains("middle of a turn"), "{e}");
        half.steps.push(step(keep.unwrap()));
        assert_eq!(moves(&half).unwrap().0, vec![g.canonical(&mv).unwrap()]);
    }
}
