//! The built-in tactics suite: it loads, its answers are exactly what the solver says, an
//! agent that plays the answers scores 100% and random play far less.

use crumble_core::games::crumble::perft;
use crumble_core::games::crumble::solve::{ForcedWin, Solver};
use crumble_selfplay::games::crumble::tactics::{Attempt, Kind, Score, Suite, TacticsError};

fn builtin() -> Suite {
    Suite::builtin().expect("the built-in suite loads")
}

#[test]
fn the_builtin_suite_loads_with_unique_ids_and_legal_answers() {
    let s = builtin();
    let n = |k: Kind| s.tactics.iter().filter(|t| t.kind == k).count();
    assert!(n(Kind::Win1) >= 30, "win1: {}", n(Kind::Win1));
    assert!(n(Kind::Defend) >= 30, "defend: {}", n(Kind::Defend));
    assert!(n(Kind::Win2) >= 40, "win2: {}", n(Kind::Win2));
    for t in &s.tactics {
        assert!(
            !t.position.is_over() && t.position.at_turn_start(),
            "{}",
            t.id
        );
        assert_eq!(t.answers.len(), t.answer_moves.len(), "{}", t.id);
        assert!(
            t.answers.len() * 2 <= t.moves,
            "{}: answers are at most half the moves",
            t.id
        );
        for mv in &t.answer_moves {
            let mut g = t.position.clone();
            g.play_move(mv).unwrap_or_else(|e| panic!("{}: {e}", t.id));
        }
    }
}

/// Every stored answer set is the solver's, exactly; the move counts are the position's.
#[test]
fn answers_are_exactly_the_solvers() {
    let mut solver = Solver::new();
    for t in &builtin().tactics {
        let all = perft::all_moves(&t.position);
        assert_eq!(all.len(), t.moves, "{}: move count", t.id);
        let mut want = match t.kind {
            // Complete: every move that wins at once, no other.
            Kind::Win1 => solver.winning_moves(&t.position),
            Kind::Win2 => {
                assert!(solver.find_win(&t.position).is_none(), "{}", t.id);
                solver
                    .forced_wins(&t.position)
                    .into_iter()
                    .filter(|(_, how)| *how == ForcedWin::NextTurn)
                    .map(|(m, _)| m)
                    .collect()
            }
            Kind::Defend => {
                assert!(solver.find_win(&t.position).is_none(), "{}", t.id);
                let mover = t.position.to_move();
                all.into_iter()
                    .filter(|mv| {
                        let mut g = t.position.clone();
                        g.play_move(mv).unwrap();
                        match g.outcome() {
                            Some(o) => o.winner != Some(mover.opposite()),
                            None => solver.find_win(&g).is_none(),
                        }
                    })
                    .collect()
            }
        };
        let mut have = t.answer_moves.clone();
        let key = |m: &crumble_core::games::crumble::Move| format!("{m:?}");
        want.sort_by_key(key);
        have.sort_by_key(key);
        assert_eq!(have, want, "{}", t.id);
        assert!(!have.is_empty());
    }
}

/// A defence is needed: with the turn passed, the opponent would win at once.
#[test]
fn defend_positions_hold_a_threat() {
    let mut solver = Solver::new();
    for t in builtin().tactics.iter().filter(|t| t.kind == Kind::Defend) {
        let p = &t.position;
        let passed = crumble_core::games::crumble::Crumble::from_board(
            p.board().clone(),
            p.to_move().opposite(),
            None,
        );
        assert!(solver.find_win(&passed).is_some(), "{}", t.id);
    }
}

#[test]
fn playing_a_stored_answer_scores_everything_and_random_far_less() {
    let s = builtin();
    let perfect: Vec<Attempt> = s
        .tactics
        .iter()
        .map(|t| Attempt {
            id: t.id.clone(),
            kind: t.kind,
            played: t.answers[0].clone(),
            solved: t.is_answer(&t.answer_moves[0]),
        })
        .collect();
    let score = Score::of(&perfect);
    assert_eq!(score.total(), (s.tactics.len(), s.tactics.len()));

    // Random play through the arena, as `crumble tactics --agent random` runs it.
    let pool = crumble_selfplay::arena::Pool::new(
        &[crumble_selfplay::AgentSpec::Random],
        &crumble_selfplay::SearchConfig::default().for_play(),
        &crumble_selfplay::NoCheckpoints,
    )
    .unwrap();
    let win1 = s.filter(&[Kind::Win1]);
    let attempts =
        crumble_selfplay::games::crumble::tactics::run(&pool, 0, &win1, 200, 4, 7).unwrap();
    assert_eq!(attempts.len(), win1.tactics.len());
    for (a, t) in attempts.iter().zip(&win1.tactics) {
        assert_eq!(a.id, t.id);
        // The reported move is the tactic's own judgement of it.
        assert_eq!(a.solved, t.answers.contains(&a.played), "{}", a.id);
    }
    let (solved, total) = Score::of(&attempts).total();
    assert!(solved * 2 < total, "random solved {solved}/{total}");
}

/// The two-turn lookahead's losses make every defence exact: a search that knows nothing
/// (uniform priors, 8 simulations a decision) holds every threat of the suite, since each
/// decision of its turn that leaves the opponent a win is proven lost before it is tried.
/// Without the check (the rest of the lookahead on) the same search misses some.
#[test]
fn the_lookahead_defends_every_threat_with_a_uniform_search() {
    let defend = builtin().filter(&[Kind::Defend]);
    let solved = |play_loss_check: bool| {
        let config = crumble_selfplay::SearchConfig {
            play_loss_check,
            ..crumble_selfplay::SearchConfig::default()
        };
        let pool = crumble_selfplay::arena::Pool::new(
            &[crumble_selfplay::AgentSpec::Mcts {
                evaluator: crumble_selfplay::EvaluatorSpec::Uniform,
                simulations: Some(8),
            }],
            &config.for_play(),
            &crumble_selfplay::NoCheckpoints,
        )
        .unwrap();
        let attempts =
            crumble_selfplay::games::crumble::tactics::run(&pool, 0, &defend, 200, 4, 3).unwrap();
        Score::of(&attempts).total()
    };
    let (with, total) = solved(true);
    assert_eq!(with, total, "defended {with} of {total}");
    let (without, _) = solved(false);
    assert!(without < total, "without the check: {without} of {total}");
}

#[test]
fn bad_lines_are_refused_with_file_and_line() {
    let err = |text: &str| Suite::parse("x.jsonl", text).unwrap_err().to_string();
    assert!(err("\n{").starts_with("x.jsonl line 2: not JSON"));
    assert!(err("[1]").contains("expected a JSON object"));
    let t = builtin().tactics[0].to_json();
    let mut v = t.clone();
    v["kind"] = "win9".into();
    assert!(err(&v.to_string()).contains("unknown kind `win9`"));
    let mut v = t.clone();
    v["answers"] = serde_json::json!([]);
    assert!(err(&v.to_string()).contains("no answers"));
    let mut v = t.clone();
    let a = v["answers"][0].clone();
    v["answers"] = serde_json::json!([a, a]);
    assert!(err(&v.to_string()).contains("listed twice"));
    let line = t.to_string();
    assert!(matches!(
        Suite::parse("x.jsonl", &format!("{line}\n{line}\n")),
        Err(TacticsError::DuplicateId { .. })
    ));
    let e = Suite::parse("x.jsonl", &format!("{line}\n\n{line}\n"))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("x.jsonl line 3:") && e.contains("first at x.jsonl line 1"),
        "{e}"
    );
    // A duplicate across the files of a directory names both files.
    let dir = std::env::temp_dir().join(format!("crumble-tactics-dup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.jsonl"), format!("{line}\n")).unwrap();
    std::fs::write(dir.join("b.jsonl"), format!("\n{line}\n")).unwrap();
    let e = Suite::load_dir(&dir).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        e.contains("b.jsonl line 2:") && e.contains("a.jsonl line 1"),
        "{e}"
    );
    // A line written by `to_json` reads back as the same tactic.
    let back = Suite::parse("x.jsonl", &line).unwrap();
    assert_eq!(back.tactics[0].answers, builtin().tactics[0].answers);
}

/// The harness plays each position inside the real game: the game keeps the given turn limit
/// (the searches see it) and is stopped after the agent's first turn, recorded as an agreed
/// draw that replays; a first turn that wins ends the game as a win instead.
#[test]
fn games_stop_after_the_first_turn_under_the_real_turn_limit() {
    use crumble_selfplay::driver::{EngineOptions, Flow, GameJob, Seats, play_games, with_threads};
    let s = builtin();
    let mut players = [crumble_selfplay::Agent {
        name: "u".into(),
        kind: crumble_selfplay::AgentKind::Mcts {
            evaluator: Box::new(crumble_selfplay::UniformEvaluator),
            simulations: 16,
            config: crumble_selfplay::SearchConfig {
                lookahead: crumble_selfplay::Lookahead::AtVisit(1),
                ..crumble_selfplay::SearchConfig::default()
            }
            .for_play(),
        },
        book: None,
    }];
    let tactics: Vec<_> = s
        .tactics
        .iter()
        .take(6)
        .chain(s.tactics.iter().rev().take(6))
        .collect();
    let jobs = tactics.iter().enumerate().map(|(i, t)| GameJob {
        start: t.position.clone(),
        seats: Seats::SelfPlay(0),
        index: i as u64,
        max_turns: 200,
        seed: 1,
        stop_after_turns: 1,
    });
    let opts = EngineOptions {
        parallel_games: 4,
        record_targets: false,
        adjudication: Default::default(),
    };
    let mut recs = Vec::new();
    with_threads(1, || {
        play_games(
            &mut players,
            jobs,
            &opts,
            &mut |k, r| {
                recs.push((k, r));
                Ok(Flow::Continue)
            },
            &mut |_| {},
        )
    })
    .unwrap();
    assert_eq!(recs.len(), tactics.len());
    for (k, r) in &recs {
        assert_eq!(r.max_turns, 200);
        let end: crumble_core::games::crumble::Crumble = r.replay().unwrap();
        assert_eq!(end.turns_played(), 1, "{}", tactics[*k].id);
        let o = crumble_selfplay::games::crumble::outcome(r, &end);
        if o.reason == crumble_core::games::crumble::Reason::FourSides {
            assert_eq!(tactics[*k].kind, Kind::Win1);
        } else {
            assert_eq!(o.reason, crumble_core::games::crumble::Reason::Agreement);
            assert_eq!(o.winner, None);
        }
    }
}

/// A suite fits only a start on its own board: the built-in one (6x6 at resolution 8) fits
/// the standard start and is refused for a 4x4 board or another resolution, naming the tactic.
#[test]
fn a_suite_fits_only_its_own_board() {
    use crumble_core::games::crumble::Crumble;
    let s = builtin();
    s.check_fits(&Crumble::new(6, 8).unwrap())
        .expect("the built-in suite fits the standard board");
    for (n, r) in [(4, 8), (6, 4)] {
        match s.check_fits(&Crumble::new(n, r).unwrap()) {
            Err(e @ TacticsError::OtherBoard { .. }) => {
                let text = e.to_string();
                assert!(
                    text.contains(&s.tactics[0].id) && text.contains(&format!("{n}x{n}")),
                    "{text}"
                );
            }
            other => panic!("{n}x{n} at resolution {r}: {other:?}"),
        }
    }
}
