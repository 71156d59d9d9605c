//! A self-play record as the game's text record ([`Record`]): the decisions grouped into
//! complete moves and written in the game's notation, for every game.

use crate::record::{Ending, GameRecord, RecordError};
use crumble_core::game::record::{self, Record};
use crumble_core::{Color, GameText, Player};

/// The game as its text record: tag `Index` (its number in the run), the players' names when
/// given (`agents` by seat, first seat first) as `Black` and `White` by the colours they end
/// with, the turn limit of the match as `TurnLimit`, the moves in notation and the result.
/// Decisions that are refused, or that stop in the middle of a turn, are an error.
pub fn to_text_record<G: GameText>(
    rec: &GameRecord,
    agents: Option<[&str; 2]>,
) -> Result<Record<G>, RecordError> {
    let end = rec.replay::<G>()?;
    let bad = |what: String| RecordError::Replay {
        index: rec.index,
        what,
    };
    let mut game: G = rec.start_state()?;
    game.set_turn_limit(0);
    let mut out = Record::new(game.clone());
    out.set_tag("Index", &rec.index.to_string());
    if let Some(names) = agents {
        let name_of = |c: Color| {
            let seat = Player::BOTH
                .into_iter()
                .find(|&p| end.colour_of(p) == c)
                .unwrap_or(Player::First);
            names[seat.index()]
        };
        out.set_tag("Black", name_of(Color::Black));
        out.set_tag("White", name_of(Color::White));
    }
    if rec.max_turns > 0 {
        // The limit is the match's setting, not the position's: a tag says it.
        out.set_tag("TurnLimit", &rec.max_turns.to_string());
    }
    let mut turn = Vec::new();
    for (i, s) in rec.steps.iter().enumerate() {
        game.apply(s.decision)
            .map_err(|e| bad(format!("decision {i} ({}) refused: {e}", s.decision.0)))?;
        turn.push(s.decision);
        if game.at_turn_start() || game.is_over() {
            out.push_move(std::mem::take(&mut turn), None);
        }
    }
    if !turn.is_empty() {
        return Err(bad(
            "the decisions end in the middle of a turn (a move not complete)".into(),
        ));
    }
    out.end = Some(match rec.ending {
        // Without the match's limit the game goes on exactly when the limit ended it.
        Ending::Rules if game.is_over() => record::Ending::Rules,
        Ending::Rules => record::Ending::TurnLimit,
        Ending::Resignation => record::Ending::Resignation {
            winner: end.colour_of(rec.winner().unwrap_or(Player::First)),
        },
        Ending::Stopped => record::Ending::Agreement,
    });
    Ok(out)
}

/// The text of [`to_text_record`].
pub fn text_record<G: GameText>(
    rec: &GameRecord,
    agents: Option<[&str; 2]>,
) -> Result<String, RecordError> {
    Ok(to_text_record::<G>(rec, agents)?.write())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{StepKind, StepRecord, start_json};
    use crumble_core::games::splinter::Splinter;
    use crumble_core::games::tictactoe::TicTacToe;
    use crumble_core::{Decision, GameResult, GameState};
    use rand::SeedableRng;

    /// A random game as a self-play record, with the decisions of every turn.
    fn random_record<G: GameState>(start: G, seed: u64, max_turns: u32) -> GameRecord {
        let mut g = start;
        g.set_turn_limit(max_turns);
        let spec = g.to_start();
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
            game: G::NAME.into(),
            start: start_json::<G>(&spec),
            max_turns,
            steps,
            result: g.game_result().unwrap(),
            ending: Ending::Rules,
            would_resign: None,
            agents: None,
        }
    }

    #[test]
    fn a_recorded_game_becomes_a_text_record_that_reads_back() {
        // A game with a splinter choice, so that two-decision turns are covered.
        let rec = (0..40)
            .map(|seed| random_record(Splinter::standard(7, 8).unwrap(), seed, 200))
            .find(|r| r.steps.len() > r.replay::<Splinter>().unwrap().turns_played() as usize)
            .expect("a random game with a splinter choice");
        let text = text_record::<Splinter>(&rec, Some(["ada", "bo"])).unwrap();
        assert!(
            text.contains("[Index \"7\"]\n[Black \"ada\"]\n[White \"bo\"]\n[TurnLimit \"200\"]\n"),
            "{text}"
        );
        assert!(text.starts_with("[Game \"splinter\"]\n[Board \"7x8\"]\n"));
        assert!(text.contains("\n1. ") && text.contains('/'), "{text}");
        let parsed = Record::<Splinter>::parse(&text).unwrap();
        assert_eq!(
            parsed.moves.concat(),
            rec.steps.iter().map(|s| s.decision).collect::<Vec<_>>()
        );
        assert_eq!(
            parsed.final_position().unwrap().game_result(),
            Some(rec.result)
        );
        assert_eq!(
            crate::text_record::text_record::<Splinter>(&rec, Some(["ada", "bo"])).unwrap(),
            text
        );
    }

    #[test]
    fn a_resignation_and_a_turn_limit_are_told_apart() {
        let mut rec = random_record(Splinter::standard(7, 8).unwrap(), 1, 6);
        assert_eq!(rec.result, GameResult::Draw);
        let text = text_record::<Splinter>(&rec, None).unwrap();
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
        rec.result = GameResult::Win(Player::Second);
        let text = text_record::<Splinter>(&rec, None).unwrap();
        assert!(
            text.contains("[Result \"0-1\"]\n[Termination \"resignation\"]"),
            "{text}"
        );
        // A move cut in the middle (a slide without its splinter choice) is an error, not a
        // panic.
        let cut = (0..40)
            .find_map(|seed| {
                let rec = random_record(Splinter::standard(7, 8).unwrap(), seed, 200);
                let mut g: Splinter = rec.start_state().unwrap();
                for (i, s) in rec.steps.iter().enumerate() {
                    g.apply(s.decision).unwrap();
                    if !g.at_turn_start() && !g.is_over() {
                        return Some((rec.clone(), i + 1));
                    }
                }
                None
            })
            .expect("a random game with a splinter choice");
        let (full, n) = cut;
        let half = GameRecord {
            steps: full.steps[..n].to_vec(),
            ending: Ending::Stopped,
            result: GameResult::Draw,
            ..full
        };
        let e = text_record::<Splinter>(&half, None).unwrap_err();
        assert!(e.to_string().contains("middle of a turn"), "{e}");
    }

    #[test]
    fn test_games_get_text_records_in_their_notation() {
        let rec = random_record(TicTacToe::from_start(&Default::default()).unwrap(), 3, 0);
        let text = text_record::<TicTacToe>(&rec, Some(["x", "o"])).unwrap();
        assert!(text.starts_with("[Game \"tictactoe\"]\n"), "{text}");
        let back = Record::<TicTacToe>::parse(&text).unwrap();
        assert_eq!(back.moves.len(), rec.steps.len());
        assert_eq!(back.write(), text);
    }
}
