//! Crumo's own views of the generic records: game records in Crumo's notation
//! (`crumble_core::games::crumo::record`).

use crate::record::{Ending, GameRecord, RecordError};
use crumble_core::games::crumo::record::CrumoRecord;
use crumble_core::games::crumo::{Action, Crumo, CrumoMove, Outcome, Reason};
use crumble_core::{Color, Player};

/// The complete moves of a recorded Crumo game, from its start: a placement, a pass or a
/// swap is one decision, a move its `From` and `To`. Returns the moves and the game after
/// them. Decisions that are refused, or that stop in the middle of a move, are an error.
pub fn moves(rec: &GameRecord) -> Result<(Vec<CrumoMove>, Crumo), RecordError> {
    let mut game: Crumo = rec.start_state()?;
    let bad = |what: String| RecordError::Replay {
        index: rec.index,
        what,
    };
    let mut out = Vec::new();
    let mut from = None;
    for (i, s) in rec.steps.iter().enumerate() {
        let action = game.decode(s.decision);
        game.apply(s.decision)
            .map_err(|e| bad(format!("decision {i} ({}) refused: {e}", s.decision.0)))?;
        let mv = match (action, from.take()) {
            (Some(Action::From { point }), None) => {
                from = Some(point);
                continue;
            }
            (Some(Action::To { point }), Some(source)) => CrumoMove::Move {
                from: source,
                to: point,
            },
            (Some(Action::Place { point, height }), None) => CrumoMove::Place { point, height },
            (Some(Action::Pass), None) => CrumoMove::Pass,
            (Some(Action::Swap), None) => CrumoMove::Swap,
            // `apply` accepted it, so the engine's own turn structure was kept.
            _ => return Err(bad(format!("decision {i} breaks the turn structure"))),
        };
        out.push(mv);
    }
    if from.is_some() {
        return Err(bad(
            "the decisions end in the middle of a move (a source without its target)".into(),
        ));
    }
    Ok((out, game))
}

/// The colour a seat plays in `game` (after any swap).
fn colour_of(game: &Crumo, seat: Player) -> Color {
    if (seat == Player::First) == game.first_seat_plays(Color::Black) {
        Color::Black
    } else {
        Color::White
    }
}

/// How a recorded Crumo game ended: the rules' result (two passes or the turn limit, both
/// scored), a resignation, or an agreement for a stopped game. `game` is the replayed game.
pub fn outcome(rec: &GameRecord, game: &Crumo) -> Option<Outcome> {
    match rec.ending {
        Ending::Rules => game.outcome(),
        Ending::Resignation => Some(Outcome {
            winner: rec.winner().map(|seat| colour_of(game, seat)),
            reason: Reason::Resignation,
            score_halves: None,
        }),
        Ending::Stopped => Some(Outcome {
            winner: None,
            reason: Reason::Agreement,
            score_halves: None,
        }),
    }
}

/// The game as a Crumo game record: tag `Index` (its number in the run), the players' names
/// when given (`agents` by seat, first seat first) as `Black` and `White` after any swap,
/// the turn limit of the match, the moves in canonical notation and the result.
pub fn to_record(rec: &GameRecord, agents: Option<[&str; 2]>) -> Result<CrumoRecord, RecordError> {
    rec.replay::<Crumo>()?;
    let (moves, end) = moves(rec)?;
    let mut tags = vec![("Index".to_string(), rec.index.to_string())];
    if let Some(names) = agents {
        let by_colour = |c: Color| {
            let seat = end.seat_of(c);
            names[usize::from(seat == Player::Second)].to_string()
        };
        tags.push(("Black".into(), by_colour(Color::Black)));
        tags.push(("White".into(), by_colour(Color::White)));
    }
    if rec.max_turns > 0 {
        // The limit is the match's setting (rule 10.1), not the position's: a tag says it.
        tags.push(("TurnLimit".into(), rec.max_turns.to_string()));
    }
    let mut start: Crumo = rec.start_state()?;
    start.set_turn_limit(0);
    Ok(CrumoRecord {
        start,
        tags,
        moves,
        result: outcome(rec, &end),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{StepKind, StepRecord, start_json};
    use crumble_core::{Decision, GameResult, GameState};
    use rand::SeedableRng;

    /// A random game of size 4 as a record, with the decisions of every turn.
    fn random_record(seed: u64, max_turns: u32) -> GameRecord {
        let mut g = Crumo::standard(4).unwrap();
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
            index: 3,
            game: "crumo".into(),
            start: start_json::<Crumo>(&start),
            max_turns,
            steps,
            result: g.game_result().unwrap(),
            ending: Ending::Rules,
            would_resign: None,
        }
    }

    #[test]
    fn a_recorded_game_becomes_a_text_record_that_reads_back() {
        let (mut swapped, mut with_moves) = (0, 0);
        for seed in 0..30 {
            let rec = random_record(seed, 60);
            let record = to_record(&rec, Some(["ada", "bo"])).unwrap();
            let text = record.write();
            let parsed = crumble_core::games::crumo::record::parse(&text)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            let (moves, end) = moves(&rec).unwrap();
            assert_eq!(parsed.moves, moves);
            assert_eq!(parsed.result, end.outcome());
            // Names follow the colours: after a swap the second seat plays Black.
            let black = if end.swapped() { "bo" } else { "ada" };
            assert!(text.contains(&format!("[Black \"{black}\"]")), "{text}");
            with_moves += usize::from(moves.iter().any(|m| matches!(m, CrumoMove::Move { .. })));
            assert_eq!(
                <Crumo as crate::GameHooks>::record_text(&rec, Some(["ada", "bo"])).unwrap(),
                text
            );
            swapped += usize::from(end.swapped());
        }
        assert!(swapped > 3, "{swapped} games with a swap");
        assert!(with_moves > 10, "{with_moves} games with a stack move");
    }

    #[test]
    fn a_resignation_and_a_move_cut_in_half_are_told_apart() {
        let mut rec = random_record(1, 80);
        let mut g: Crumo = rec.start_state().unwrap();
        let mut kept = Vec::new();
        for s in &rec.steps {
            if g.turns_played() == 6 {
                break;
            }
            g.apply(s.decision).unwrap();
            kept.push(s.clone());
        }
        rec.steps = kept.clone();
        rec.ending = Ending::Resignation;
        rec.result = GameResult::Win(Player::Second);
        let text = to_record(&rec, None).unwrap().write();
        assert!(text.contains("[Termination \"resignation\"]"), "{text}");
        // A source without its target is an error, not a panic.
        let mut g: Crumo = rec.start_state().unwrap();
        for s in &kept {
            g.apply(s.decision).unwrap();
        }
        let mut legal = Vec::new();
        g.legal_decisions_into(&mut legal);
        let from = legal
            .iter()
            .copied()
            .find(|&d| matches!(g.decode(d), Some(Action::From { .. })))
            .expect("a move is legal after six turns");
        rec.steps.push(StepRecord {
            decision: from,
            kind: StepKind::Random,
            search: None,
        });
        rec.ending = Ending::Stopped;
        rec.result = GameResult::Draw;
        let e = to_record(&rec, None).unwrap_err();
        assert!(e.to_string().contains("middle of a move"), "{e}");
    }
}
