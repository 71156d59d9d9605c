//! The value target of a replay sample: the game's result, the search's root value, or a mix
//! of the two as `[replay] value_q_weight` says.

#[path = "../../selfplay/tests/common/short_games.rs"]
mod short_games;
use crumble_core::games::crumble::Crumble;
use crumble_selfplay::{GameRecord, Lookahead, SearchConfig};
use crumble_train::config::ReplayConfig;
use crumble_train::replay::{AuxTargets, HostBatch, ReplayWindow, SampleRef};
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
            Default::default(),
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

/// Short-term value targets come one a sample, in `[-1, 1]`: with a horizon of one turn the
/// sample's own search value, with a long one close to the game's result (the games here last
/// a few turns).
#[test]
fn short_term_values_run_from_the_search_now_to_the_result() {
    let games = rollout_games(4, 9, false);
    let mut refs = Vec::new();
    let mut want_now = Vec::new();
    let mut results = Vec::new();
    for (gi, g) in games.iter().enumerate() {
        let mut state: Crumble = g.start_state().unwrap();
        let mut at = 0;
        for s in crumble_train::replay::sample_steps(g) {
            while at < s {
                crumble_core::GameState::apply(&mut state, g.steps[at].decision).unwrap();
                at += 1;
            }
            let me = crumble_core::GameState::decider(&state).unwrap();
            refs.push(SampleRef {
                generation: 1,
                game: gi as u32,
                step: s as u32,
            });
            want_now.push(g.steps[s].search.as_ref().unwrap().value);
            results.push(crumble_train::replay::value_target(g.winner(), me));
        }
    }
    let mut window = ReplayWindow::new(crumble_model::CrumbleEncoder, 8);
    window.insert::<Crumble>(1, games).unwrap();
    let short = |horizon: f64| {
        let cfg = ReplayConfig {
            augment: false,
            ..ReplayConfig::default()
        };
        let aux = AuxTargets {
            ownership: false,
            short_value_horizon: Some(horizon),
        };
        let mut batch = HostBatch::default();
        window
            .build::<Crumble>(
                &refs,
                &cfg,
                aux,
                &mut ChaCha8Rng::seed_from_u64(2),
                &mut batch,
            )
            .unwrap();
        assert_eq!(batch.short_value.len(), refs.len());
        batch.short_value
    };
    assert_eq!(short(1.0), want_now);
    let long = short(1000.0);
    for (i, (l, z)) in long.iter().zip(&results).enumerate() {
        assert!((l - z).abs() < 0.1, "sample {i}: {l} vs result {z}");
    }
}
