//! The value target of a replay sample: the game's result, the search's root value, or a mix
//! of the two as `[replay] value_q_weight` says.

use crumble_selfplay::driver::{Player, PlayerKind, RunOptions, Seating, run_games, with_threads};
use crumble_selfplay::{GameRecord, RolloutConfig, RolloutEvaluator, SearchConfig};
use crumble_train::config::ReplayConfig;
use crumble_train::replay::{HostBatch, ReplayWindow};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A few short rollout self-play games on a 4x4 board with search targets recorded.
fn games() -> Vec<GameRecord> {
    let cfg = SearchConfig {
        rollout: RolloutConfig {
            playouts: 1,
            max_turns: 30,
        },
        ..SearchConfig::default()
    };
    let mut players = [Player {
        name: "test".into(),
        kind: PlayerKind::Mcts {
            evaluator: Box::new(RolloutEvaluator::new(cfg.rollout.clone(), 7)),
            simulations: 16,
            config: cfg,
        },
    }];
    let opts = RunOptions {
        start: crumble_core::Game::new(4, 2).unwrap(),
        max_turns: 40,
        parallel_games: 4,
        seed: 42,
        record_targets: true,
    };
    let mut out = Vec::new();
    with_threads(1, || {
        run_games(
            &mut players,
            Seating::SelfPlay,
            &opts,
            0..4,
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

#[test]
fn value_targets_mix_the_result_and_the_root_value_by_weight() {
    let mut window = ReplayWindow::new();
    window.insert(1, games(), 4, 2).unwrap();
    let refs = window.draw(64, &mut ChaCha8Rng::seed_from_u64(1));
    let values = |q: f64| {
        let cfg = ReplayConfig {
            augment: false,
            value_q_weight: q,
            ..ReplayConfig::default()
        };
        let mut batch = HostBatch::default();
        window
            .build(&refs, &cfg, &mut ChaCha8Rng::seed_from_u64(2), &mut batch)
            .unwrap();
        batch.value
    };
    let (result, root, half) = (values(0.0), values(1.0), values(0.5));
    assert_eq!(result.len(), refs.len());
    // Weight 0: the game's result, win 1, draw 0, loss -1.
    assert!(
        result.iter().all(|v| [-1.0, 0.0, 1.0].contains(v)),
        "{result:?}"
    );
    // Weight 1: the searches' root values, in [-1, 1] and not just results.
    assert!(root.iter().all(|v| (-1.0..=1.0).contains(v)), "{root:?}");
    assert!(
        root.iter().any(|v| ![-1.0, 0.0, 1.0].contains(v)),
        "{root:?}"
    );
    assert_ne!(result, root);
    // Between: the straight line.
    for ((h, r), s) in half.iter().zip(&result).zip(&root) {
        assert!((h - 0.5 * (r + s)).abs() < 1e-6, "{h} vs {r} and {s}");
    }
}
