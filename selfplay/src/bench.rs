//! Search throughput measurement (behind `crumble bench mcts`): many independent searches
//! from one position, their leaves evaluated in one batch per round, exactly as self-play
//! batches them.

use crate::config::SearchConfig;
use crate::evaluator::{EvalError, Evaluation, Evaluator, Leaf};
use crate::mcts::{Search, Step};
use crumble_core::GameState;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// Runs searches of `simulations` simulations (each from a fresh tree) from `start` in
/// `searches` parallel searches on the current rayon pool until `duration` has passed.
/// Returns (simulations done, seconds).
pub fn search_throughput<G: GameState>(
    start: &G,
    cfg: &SearchConfig,
    evaluator: &mut dyn Evaluator<G>,
    searches: usize,
    simulations: u32,
    duration: Duration,
) -> Result<(u64, f64), EvalError> {
    let mut trees: Vec<(Search<G>, Option<usize>, bool)> = (0..searches.max(1))
        .map(|i| (Search::new(cfg.clone(), i as u64), None, false))
        .collect();
    for (t, _, _) in &mut trees {
        t.begin(start, simulations, true);
    }
    let mut outs: Vec<Evaluation> = Vec::new();
    let t0 = Instant::now();
    loop {
        {
            let outs = &outs;
            let work = |(t, pending, needs): &mut (Search<G>, Option<usize>, bool)| {
                if let Some(j) = pending.take() {
                    t.provide(&outs[j]);
                }
                loop {
                    if t.run() == Step::NeedsEval {
                        *needs = true;
                        return;
                    }
                    t.finish();
                    t.clear();
                    t.begin(start, simulations, true);
                }
            };
            if trees.len() == 1 {
                trees.iter_mut().for_each(work);
            } else {
                // One contiguous chunk per thread: a search's games stay on one thread's allocator.
                let chunk = trees.len().div_ceil(rayon::current_num_threads().max(1));
                trees
                    .par_chunks_mut(chunk)
                    .for_each(|c| c.iter_mut().for_each(work));
            }
        }
        if t0.elapsed() >= duration {
            break;
        }
        let idx: Vec<usize> = (0..trees.len()).filter(|&i| trees[i].2).collect();
        while outs.len() < idx.len() {
            outs.push(Evaluation::default());
        }
        {
            let leaves: Vec<Leaf<'_, G>> = idx
                .iter()
                .map(|&i| trees[i].0.leaf().expect("pending leaf"))
                .collect();
            evaluator.evaluate(&leaves, &mut outs[..idx.len()])?;
        }
        for (j, &i) in idx.iter().enumerate() {
            trees[i].1 = Some(j);
            trees[i].2 = false;
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    Ok((trees.iter().map(|t| t.0.total_simulations).sum(), secs))
}

/// Microseconds per exact one-turn win check ([`GameState::win_this_turn`]) of `game` (at a
/// turn start), over repeated checks for about `duration` (warm buffers), and the answer.
pub fn lookahead_micros<G: GameState>(game: &G, duration: Duration) -> (f64, bool) {
    let mut check = G::WinCheck::default();
    let win = game.win_this_turn(&mut check).is_some();
    let t0 = Instant::now();
    let mut n = 0u64;
    while n < 3 || t0.elapsed() < duration {
        std::hint::black_box(
            std::hint::black_box(game)
                .win_this_turn(&mut check)
                .is_some(),
        );
        n += 1;
    }
    (t0.elapsed().as_secs_f64() * 1e6 / n as f64, win)
}

/// Games per hour of rollout self-play: `games` games from `start`, all at once, with
/// searches of `simulations` under `config` (on the current rayon pool).
pub fn rollout_selfplay_games_per_hour<G: GameState>(
    start: &G,
    config: &crate::SearchConfig,
    simulations: u32,
    games: u64,
) -> Result<f64, crate::RunError> {
    use crate::driver::{Agent, AgentKind, RunOptions, Seating, run_games};
    let mut agents = [Agent {
        name: "rollout".into(),
        kind: AgentKind::Mcts {
            evaluator: Box::new(crate::RolloutEvaluator::new(config.rollout.clone(), 2)),
            simulations,
            config: config.clone(),
        },
    }];
    let opts = RunOptions {
        start: start.clone(),
        max_turns: 200,
        parallel_games: games as usize,
        seed: 0,
        record_targets: true,
        stop_after_turns: 0,
    };
    let t0 = std::time::Instant::now();
    let p = run_games(
        &mut agents,
        Seating::SelfPlay,
        &opts,
        0..games,
        &mut |_| Ok(()),
        &mut |_| {},
    )?;
    Ok(p.games_done as f64 / t0.elapsed().as_secs_f64().max(1e-9) * 3600.0)
}
