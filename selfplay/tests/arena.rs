//! Evaluation games: game pairs from shared openings, results in order and independent of the
//! concurrency, checkpoint evaluations batched across lanes, early stop, openings, saving.

mod common;
use common::uniform_then;
use crumble_core::games::crumble::Crumble;
use crumble_core::{GameState, Player};
use crumble_selfplay::adjudication::{self, Adjudication, AdjudicationTally};
use crumble_selfplay::arena::{
    self, Flow, Openings, PairOutcome, PairSettings, Pairing, Pool, RecordWriter, Tally,
};
use crumble_selfplay::evaluator::Evaluator;
use crumble_selfplay::record::{self, read_file};
use crumble_selfplay::{AgentError, AgentSpec, CheckpointLoader, NoCheckpoints, SearchConfig};
use std::path::Path;
use std::sync::{Arc, Mutex};

fn specs(list: &[&str]) -> Vec<AgentSpec> {
    list.iter().map(|s| AgentSpec::parse(s).unwrap()).collect()
}

fn settings(pairs: u64, concurrency: usize) -> PairSettings {
    PairSettings {
        pairs,
        max_turns: 30,
        concurrency,
        seed: 5,
        adjudication: Default::default(),
    }
}

/// A pool of `agents` with the search settings of play, without checkpoints.
fn play_pool(agents: &[&str]) -> Pool<Crumble> {
    Pool::new(
        &specs(agents),
        &SearchConfig::default().for_play(),
        &NoCheckpoints,
    )
    .unwrap()
}

/// `count` openings of two random turns on the small board `Crumble::new(4, 2)`, from `seed`.
fn small_openings(count: u64, seed: u64) -> Vec<Crumble> {
    arena::opening_positions(
        &Crumble::new(4, 2).unwrap(),
        &Openings::RandomTurns(2),
        count,
        seed,
    )
    .unwrap()
}

/// Plays agent 0 of `pool` (A) against agent 1 from `openings`, as `arena::play_pairings`.
fn play_a_against_b(
    pool: &Pool<Crumble>,
    openings: &[Crumble],
    s: &PairSettings,
    on_pair: &mut dyn FnMut(&PairOutcome) -> Result<Flow, arena::ArenaError>,
) -> Result<arena::RunTotals, arena::ArenaError> {
    arena::play_pairings(
        pool,
        &[Pairing { a: 0, b: 1 }],
        &[],
        openings,
        s,
        on_pair,
        &mut |_| {},
    )
}

/// Every pair's outcome, in delivery order.
fn play(
    pool: &Pool<Crumble>,
    pairings: &[Pairing],
    openings: &[Crumble],
    s: &PairSettings,
) -> Vec<(usize, u64, [f64; 2], Vec<String>)> {
    let mut out = Vec::new();
    // The rounds' progress: games finished so far (out of order too) and the total.
    let mut rounds: Vec<(u64, u64)> = Vec::new();
    arena::play_pairings(
        pool,
        pairings,
        &[],
        openings,
        s,
        &mut |p: &PairOutcome| {
            let moves = p
                .games
                .iter()
                .map(|g| crumble_selfplay::text_record::text_record::<Crumble>(g, None).unwrap())
                .collect::<Vec<_>>();
            out.push((p.pairing, p.pair, p.a_points, moves));
            Ok(Flow::Continue)
        },
        &mut |r| rounds.push((r.games_done, r.games_total)),
    )
    .unwrap();
    let games = 2 * s.pairs * pairings.len() as u64;
    assert!(rounds.len() > 1, "progress after every round");
    assert!(rounds.windows(2).all(|w| w[0].0 <= w[1].0));
    assert!(rounds.iter().all(|&(_, total)| total == games));
    assert_eq!(rounds.last().map(|r| r.0), Some(games));
    out
}

#[test]
fn pairs_share_openings_and_do_not_depend_on_concurrency() {
    let pool = play_pool(&["random", "mcts:uniform:8"]);
    let openings = small_openings(6, 9);
    let pairings = [Pairing { a: 0, b: 1 }, Pairing { a: 1, b: 0 }];
    let mut one = play(&pool, &pairings, &openings, &settings(6, 1));
    let mut many = play(&pool, &pairings, &openings, &settings(6, 8));
    // Each pairing's pairs in order; the pairings' pairs interleave as they finish.
    for out in [&one, &many] {
        for k in 0..2 {
            let pairs: Vec<u64> = out.iter().filter(|x| x.0 == k).map(|x| x.1).collect();
            assert_eq!(pairs, (0..6).collect::<Vec<u64>>());
        }
    }
    one.sort_by_key(|x| (x.0, x.1));
    many.sort_by_key(|x| (x.0, x.1));
    assert_eq!(one, many);
    // Both games of a pair start from the pair's opening, with A Black first.
    arena::play_pairings(
        &pool,
        &pairings[..1],
        &[],
        &openings,
        &settings(3, 4),
        &mut |p| {
            let start = record::start_json::<Crumble>(&openings[p.pair as usize].to_start());
            for g in &p.games {
                assert_eq!(g.start, start);
            }
            assert_eq!(p.a_first, [true, false]);
            assert_eq!(p.games[0].index + 1, p.games[1].index);
            Ok(Flow::Continue)
        },
        &mut |_| {},
    )
    .unwrap();
}

#[test]
fn tally_counts_from_a_side() {
    let pool = play_pool(&["mcts:uniform:16", "random"]);
    let openings = small_openings(8, 1);
    let mut tally = Tally::default();
    let mut by_hand = [0u64; 3];
    play_a_against_b(&pool, &openings, &settings(8, 4), &mut |p| {
        tally.add(p);
        for (i, g) in p.games.iter().enumerate() {
            let a = if p.a_first[i] {
                Player::First
            } else {
                Player::Second
            };
            match g.winner() {
                Some(w) if w == a => by_hand[0] += 1,
                None => by_hand[1] += 1,
                Some(_) => by_hand[2] += 1,
            }
        }
        Ok(Flow::Continue)
    })
    .unwrap();
    assert_eq!([tally.wdl.wins, tally.wdl.draws, tally.wdl.losses], by_hand);
    assert_eq!(tally.penta.pairs(), 8);
    assert_eq!(tally.wdl.games(), 16);
    assert_eq!(tally.a_wins_first + tally.a_wins_second, tally.wdl.wins);
    assert!(tally.mean_turns() > 0.0);
    // Search beats random play on a small board.
    assert!(tally.wdl.score() > 0.6, "{:?}", tally.wdl);
}

struct FakeLoader(Arc<Mutex<Vec<usize>>>, Arc<Mutex<usize>>);

impl CheckpointLoader<Crumble> for FakeLoader {
    fn load(
        &self,
        path: &Path,
    ) -> Result<Box<dyn Evaluator<Crumble>>, Box<dyn std::error::Error + Send + Sync>> {
        if path.to_str() == Some("missing.crnet") {
            return Err("no such file".into());
        }
        *self.1.lock().unwrap() += 1;
        // A "checkpoint" that is the uniform evaluator, counting the batch sizes it sees.
        let sizes = self.0.clone();
        Ok(Box::new(uniform_then("counting", move |leaves, _| {
            sizes.lock().unwrap().push(leaves.len());
        })))
    }
}

#[test]
fn checkpoint_evaluations_are_batched_across_lanes() {
    let sizes = Arc::new(Mutex::new(Vec::new()));
    let loads = Arc::new(Mutex::new(0));
    let loader = FakeLoader(sizes.clone(), loads.clone());
    let cfg = SearchConfig::default().for_play();
    // The same "network" twice (two agent strings, one file): loaded once.
    let pool = Pool::new(
        &specs(&["ckpt:net.crnet:8", "ckpt:net.crnet:16", "random"]),
        &cfg,
        &loader,
    )
    .unwrap();
    assert_eq!(*loads.lock().unwrap(), 1);
    let openings = small_openings(6, 3);
    let pairings = [Pairing { a: 0, b: 2 }, Pairing { a: 1, b: 0 }];
    let through_hub = play(&pool, &pairings, &openings, &settings(6, 12));
    let (batches, positions) = pool.batch_stats();
    assert!(batches > 0 && positions > batches, "{batches} {positions}");
    let biggest = sizes.lock().unwrap().iter().copied().max().unwrap();
    // A lane plays one pair (at most two leaves per round): more in one batch means lanes
    // were batched together.
    assert!(biggest > 2, "largest batch {biggest}");
    // The hub changes nothing but batching: the same games as the uniform evaluator.
    let direct = play_pool(&["mcts:uniform:8", "mcts:uniform:16", "random"]);
    let plain = play(&direct, &pairings, &openings, &settings(6, 1));
    assert_eq!(through_hub, plain);
}

#[test]
fn stopping_and_bad_agents() {
    let pool = Pool::new(
        &specs(&["random", "random"]),
        &SearchConfig::default(),
        &NoCheckpoints,
    )
    .unwrap();
    let openings =
        arena::opening_positions(&Crumble::new(4, 2).unwrap(), &Openings::Standard, 10, 0).unwrap();
    let mut seen = Vec::new();
    play_a_against_b(&pool, &openings, &settings(10, 6), &mut |p| {
        seen.push(p.pair);
        Ok(if seen.len() == 3 {
            Flow::Stop
        } else {
            Flow::Continue
        })
    })
    .unwrap();
    assert_eq!(seen, vec![0, 1, 2]);
    // An error from the callback stops the run and comes back.
    let err = play_a_against_b(&pool, &openings, &settings(10, 6), &mut |_| {
        Err(arena::ArenaError::Openings("stop here".into()))
    })
    .unwrap_err();
    assert!(err.to_string().contains("stop here"), "{err}");
    // Checkpoints are loaded up front: a missing one fails before any game.
    let sizes = Arc::new(Mutex::new(Vec::new()));
    let err = Pool::new(
        &specs(&["random", "ckpt:missing.crnet"]),
        &SearchConfig::default(),
        &FakeLoader(sizes, Arc::new(Mutex::new(0))),
    )
    .unwrap_err();
    assert!(matches!(err, AgentError::Checkpoint { .. }), "{err}");
    assert!(err.to_string().contains("missing.crnet"), "{err}");
    let err = Pool::<Crumble>::new(
        &specs(&["ckpt:x.crnet"]),
        &SearchConfig::default(),
        &NoCheckpoints,
    )
    .unwrap_err();
    assert!(err.to_string().contains("x.crnet"), "{err}");
}

#[test]
fn openings_are_playable_and_reproducible() {
    let random_openings = || {
        arena::opening_positions(
            &Crumble::new(6, 8).unwrap(),
            &Openings::RandomTurns(4),
            5,
            7,
        )
        .unwrap()
    };
    let a = random_openings();
    assert_eq!(a, random_openings());
    let mut solver = crumble_core::games::crumble::solve::Solver::new();
    for g in &a {
        assert!(!g.is_over());
        assert!(solver.find_win(g).is_none());
        assert_ne!(g, &Crumble::new(6, 8).unwrap());
    }
    let distinct: std::collections::HashSet<String> = a
        .iter()
        .map(crumble_core::games::crumble::position::to_json)
        .collect();
    assert!(distinct.len() >= 4);
    let list = vec![a[0].clone(), a[1].clone()];
    let c = arena::opening_positions(&Crumble::new(6, 8).unwrap(), &Openings::List(list), 5, 0)
        .unwrap();
    assert_eq!(c[2], a[0]);
    assert_eq!(c[3], a[1]);
    assert!(
        arena::opening_positions(&Crumble::new(6, 8).unwrap(), &Openings::List(vec![]), 2, 0)
            .is_err()
    );
}

#[test]
fn records_are_saved_with_names() {
    let dir = std::env::temp_dir().join(format!("crumble-arena-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let pool = play_pool(&["random", "mcts:uniform:4"]);
    let openings = small_openings(3, 2);
    let mut w = RecordWriter::<Crumble>::new(&dir, "match", 4).unwrap();
    play_a_against_b(&pool, &openings, &settings(3, 2), &mut |p| {
        w.push(p.games[0].clone(), "random", "mcts:uniform:4")?;
        w.push(p.games[1].clone(), "mcts:uniform:4", "random")?;
        Ok(Flow::Continue)
    })
    .unwrap();
    w.flush().unwrap();
    let first = read_file(&dir.join("match-000000.crsp")).unwrap();
    let second = read_file(&dir.join("match-000001.crsp")).unwrap();
    assert_eq!(first.len() + second.len(), 6);
    for g in first.iter().chain(&second) {
        g.replay::<Crumble>().unwrap();
    }
    let text = std::fs::read_to_string(dir.join("match-000000.txt")).unwrap();
    assert!(text.contains("[Black \"random\"]"), "{text}");
    assert!(text.contains("[White \"mcts:uniform:4\"]"), "{text}");
    assert!(text.contains("[Start {"), "{text}");
    // A second run into the same directory is refused.
    assert!(RecordWriter::<Crumble>::new(&dir, "match", 4).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every game of a match, by game number, with `rules` as the pool's adjudication.
fn match_games(rules: Adjudication) -> Vec<record::GameRecord> {
    let pool = play_pool(&["mcts:rollout:48", "mcts:uniform:8"]);
    let s = PairSettings {
        adjudication: rules,
        ..settings(8, 4)
    };
    let mut games = Vec::new();
    play_a_against_b(&pool, &small_openings(8, 3), &s, &mut |p| {
        games.extend(p.games.iter().cloned());
        Ok(Flow::Continue)
    })
    .unwrap();
    games
}

/// Adjudication ends a game exactly where its scan of the game played out says, with that
/// result, and changes nothing else: games it does not end, and games it plays out to check
/// it, are the games of a match without it.
#[test]
fn adjudication_ends_games_where_the_played_out_game_says_and_changes_no_other() {
    let rules = Adjudication {
        resign_turns: 2,
        resign_value: 0.5,
        draw_turns: 4,
        draw_value: 0.1,
        draw_from_turn: 6,
        playout_fraction: 0.0,
    };
    let off = match_games(Adjudication::default());
    let checked = match_games(Adjudication {
        playout_fraction: 1.0,
        ..rules
    });
    assert_eq!(
        checked, off,
        "games played out to check it are the games without it"
    );
    let on = match_games(rules);
    let (mut ended, mut tally) = (0, AdjudicationTally::default());
    for (a, full) in on.iter().zip(&off) {
        tally.add::<Crumble>(rules, full).unwrap();
        let verdict = adjudication::scan::<Crumble>(rules, full).unwrap();
        let Some(v) = verdict else {
            assert_eq!(a, full, "game {}", a.index);
            continue;
        };
        ended += 1;
        assert_eq!(a.result, v.result, "game {}", a.index);
        let want = match v.result {
            crumble_core::GameResult::Win(_) => record::Ending::Resignation,
            crumble_core::GameResult::Draw => record::Ending::Stopped,
        };
        assert_eq!(a.ending, want);
        assert_eq!(a.replay::<Crumble>().unwrap().turns_played(), v.turn);
        assert_eq!(
            a.steps[..],
            full.steps[..a.steps.len()],
            "a prefix of the game"
        );
        assert!(a.steps.len() < full.steps.len());
    }
    assert!(ended > 0, "the rules should end some of these games");
    assert_eq!(tally.checked, ended);
    // The tally of the adjudicated match: its early ends.
    let mut early = AdjudicationTally::default();
    for g in &on {
        early.add::<Crumble>(rules, g).unwrap();
    }
    assert_eq!(early.resigned + early.drawn, ended);
}
