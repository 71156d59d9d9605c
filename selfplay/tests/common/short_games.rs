//! Short self-play games on Crumble's smallest board, for the tests of records and of the
//! replay window (selfplay's tests and train's include this file by path).

#![allow(dead_code)] // each test binary uses its own subset

use crumble_core::games::crumble::Crumble;
use crumble_selfplay::driver::{Agent, AgentKind, RunOptions, Seating, run_games, with_threads};
use crumble_selfplay::{
    Evaluator, GameRecord, RolloutConfig, RolloutEvaluator, SearchConfig, UniformEvaluator,
};

/// The default search settings but for rollouts of one playout of at most 30 turns.
pub fn quick_rollouts() -> SearchConfig {
    SearchConfig {
        rollout: RolloutConfig {
            playouts: 1,
            max_turns: 30,
        },
        ..SearchConfig::default()
    }
}

/// How many short games to play, and how.
#[derive(Clone, Copy, Debug)]
pub struct ShortGames {
    pub games: u64,
    pub seed: u64,
    pub parallel_games: usize,
    pub threads: usize,
    /// Rollouts evaluate the leaves (else the uniform evaluator does).
    pub rollout: bool,
}

/// Self-play games of one MCTS agent (16 simulations with `cfg`) from `Crumble::new(4, 2)`,
/// 40 turns at most, with the search targets recorded, in the order they end.
pub fn short_games(cfg: &SearchConfig, how: ShortGames) -> Vec<GameRecord> {
    let evaluator: Box<dyn Evaluator<Crumble>> = if how.rollout {
        Box::new(RolloutEvaluator::new(cfg.rollout.clone(), 7))
    } else {
        Box::new(UniformEvaluator)
    };
    let mut players = [Agent {
        name: "test".into(),
        kind: AgentKind::Mcts {
            evaluator,
            simulations: 16,
            config: cfg.clone(),
        },
        book: None,
    }];
    let opts = RunOptions {
        start: Crumble::new(4, 2).unwrap(),
        max_turns: 40,
        parallel_games: how.parallel_games,
        seed: how.seed,
        record_targets: true,
        stop_after_turns: 0,
    };
    let mut out = Vec::new();
    with_threads(how.threads, || {
        run_games(
            &mut players,
            Seating::SelfPlay,
            &opts,
            0..how.games,
            &mut |g| {
                out.push(g);
                Ok(())
            },
            &mut |_| {},
        )
    })
    .unwrap();
    out
}
