//! The value target of a replay sample: the game's result, the search's root value, or a mix
//! of the two as `[replay] value_q_weight` says.

#[path = "../../selfplay/tests/common/short_games.rs"]
mod short_games;
use crumble_core::games::crumble::Crumble;
use crumble_selfplay::{GameRecord, Lookahead, SearchConfig};
use crumble_train::config::ReplayConfig;
use crumble_train::replay::{HostBatch, ReplayWindow, SampleRef};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use short_games::{ShortGames, quick_rollouts, short_games};

/// `n` short rollout self-play games on a 4x4 board with search targets recorded; the
/// lookahead proves positions when `lookahead` is on.
fn rollout_games(n: u64, seed: u64, lookahead: bool) -> Vec<GameRecord> {
    let how = ShortGames {
        games: n,
        seed,
        parallel_games: 4,
        threads: 1,
        rollout: true,
    };
    let cfg = SearchConfig {
        lookahead: if lookahead {
            Lookahead::AtVisit(1)
        } else {
            Lookahead::Off
        },
        ..quick_rollouts()
    };
    short_games(&cfg, how)
}

/// The value targets of the Crumble samples `refs` of `window`, with `cfg`'s weights and no
/// augmentation.
fn value_targets(window: &ReplayWindow, refs: &[SampleRef], cfg: ReplayConfig) -> Vec<f32> {
    let cfg = ReplayConfig {
        augment: false,
        ..cfg
    };
    let mut batch = HostBatch::default();
    window
        .build::<Crumble>(
            refs,
            &cfg,
            false,
            &mut ChaCha8Rng::seed_from_u64(2),
            &mut batch,
        )
        .unwrap();
    batch.value
}

fn games() -> Vec<GameRecord> {
    rollout_games(4, 42, false)
}

#[test]
fn value_targets_mix_the_result_and_the_root_value_by_weight() {
    let mut window = ReplayWindow::new(crumble_model::CrumbleEncoder, 8);
    window.insert::<Crumble>(1, games()).unwrap();
    let refs = window.draw(64, &mut ChaCha8Rng::seed_from_u64(1));
    let values = |q: f64| {
        let cfg = ReplayConfig {
            value_q_weight: q,
            ..ReplayConfig::default()
        };
        value_targets(&window, &refs, cfg)
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

/// A position whose value the search proved gets that exact value as its target (weight 1),
/// or the proof mixed into the usual target (weight between); other positions are untouched.
#[test]
fn proven_positions_get_the_exact_value_target() {
    let games = rollout_games(6, 5, true);
    // Every training sample, in order, with its search record.
    let mut refs = Vec::new();
    let mut searches = Vec::new();
    for (gi, g) in games.iter().enumerate() {
        for s in crumble_train::replay::sample_steps(g) {
            refs.push(SampleRef {
                generation: 1,
                game: gi as u32,
                step: s as u32,
            });
            searches.push(g.steps[s].search.clone().unwrap());
        }
    }
    let mut window = ReplayWindow::new(crumble_model::CrumbleEncoder, 8);
    window.insert::<Crumble>(1, games).unwrap();
    let values = |q: f64, p: f64| {
        let cfg = ReplayConfig {
            value_q_weight: q,
            proven_value_weight: p,
            ..ReplayConfig::default()
        };
        value_targets(&window, &refs, cfg)
    };
    let (off, on, half) = (values(0.5, 0.0), values(0.5, 1.0), values(0.5, 0.5));
    let proven: Vec<usize> = (0..refs.len())
        .filter(|&i| searches[i].proven.is_some())
        .collect();
    assert!(
        !proven.is_empty(),
        "the test games should have proven samples"
    );
    for i in 0..refs.len() {
        match searches[i].proven {
            Some(p) => {
                assert_eq!(on[i], p, "sample {i}: the exact proven value");
                assert!((half[i] - 0.5 * (off[i] + p)).abs() < 1e-6);
            }
            None => assert_eq!((on[i], half[i]), (off[i], off[i]), "sample {i}"),
        }
    }
    // The proofs change some targets (a proven position whose mix already said the same
    // would not show the key working).
    assert!(proven.iter().any(|&i| on[i] != off[i]));
}
