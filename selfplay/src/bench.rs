//! Search throughput measurement (behind `crumble bench mcts`): many independent searches
//! from one position, their leaves evaluated in one batch per round, exactly as self-play
//! batches them. Also the speed of a game's random play (behind `crumble bench rules --game
//! splinter`).

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

/// The exact two-turn lookahead ([`GameState::forcing_turn`]) with `budget` on each of
/// `positions` (warm buffers, each once): mean and largest microseconds per check, and in how
/// many it found a forcing rest of the turn.
pub fn forcing_micros<G: GameState>(positions: &[G], budget: u64) -> ForcingCost {
    let mut check = G::ForcingCheck::default();
    let mut cost = ForcingCost::default();
    for g in positions {
        let t0 = Instant::now();
        let found = std::hint::black_box(g).forcing_turn(&mut check, budget);
        let us = t0.elapsed().as_secs_f64() * 1e6;
        cost.checks += 1;
        cost.found += u64::from(found.is_some());
        cost.mean_us += us;
        cost.max_us = cost.max_us.max(us);
    }
    if cost.checks > 0 {
        cost.mean_us /= cost.checks as f64;
    }
    cost
}

/// What [`forcing_micros`] measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct ForcingCost {
    pub checks: u64,
    pub found: u64,
    pub mean_us: f64,
    pub max_us: f64,
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
        book: None,
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

/// What [`random_games`] measured: games, turns (complete moves) and decisions played on one
/// thread in `seconds`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomGames {
    pub games: u64,
    pub turns: u64,
    pub decisions: u64,
    pub seconds: f64,
}

impl RandomGames {
    pub fn games_per_sec(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }
    /// Complete moves (turns) per second.
    pub fn moves_per_sec(&self) -> f64 {
        self.turns as f64 / self.seconds.max(1e-9)
    }
    pub fn decisions_per_sec(&self) -> f64 {
        self.decisions as f64 / self.seconds.max(1e-9)
    }
    pub fn mean_turns(&self) -> f64 {
        self.turns as f64 / self.games.max(1) as f64
    }
}

/// Plays random games (the game's own random play, [`GameState::play_random_game`]) from
/// `start` with the turn limit `turn_limit` (games ending at the limit count) on the calling
/// thread, one after the other, until `budget` has passed; at least one game. The RNG is
/// ChaCha8 seeded with `seed`.
pub fn random_games<G: GameState>(
    start: &G,
    turn_limit: u32,
    budget: Duration,
    seed: u64,
) -> RandomGames {
    use rand::SeedableRng;
    let mut proto = start.clone();
    proto.set_turn_limit(turn_limit);
    let first_turn = proto.turns_played();
    let mut game = proto.clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut m = RandomGames {
        games: 0,
        turns: 0,
        decisions: 0,
        seconds: 0.0,
    };
    let t0 = Instant::now();
    while m.games == 0 || t0.elapsed() < budget {
        game.clone_from(&proto);
        m.decisions += game.play_random_game(&mut rng);
        m.turns += u64::from(game.turns_played() - first_turn);
        m.games += 1;
    }
    m.seconds = t0.elapsed().as_secs_f64();
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crumble_core::games::splinter::Splinter;

    #[test]
    fn random_games_count_games_turns_and_decisions() {
        let start = Splinter::standard(9, 10).unwrap();
        let m = random_games(&start, 40, Duration::ZERO, 3);
        assert_eq!(m.games, 1);
        assert!(m.turns >= 1 && m.turns <= 40, "{m:?}");
        assert!(
            m.decisions >= m.turns,
            "a turn is one or two decisions: {m:?}"
        );
        // The same game as the engine's own random play with the same seed.
        let mut game = start.clone();
        game.set_turn_limit(40);
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
        assert_eq!(game.play_random_game(&mut rng), m.decisions);
        assert_eq!(u64::from(game.turns_played()), m.turns);
        let timed = random_games(&start, 40, Duration::from_millis(50), 3);
        assert!(timed.games >= 1 && timed.seconds >= 0.05, "{timed:?}");
        assert!((timed.mean_turns() - timed.turns as f64 / timed.games as f64).abs() < 1e-9);
    }
}
