//! Tests of `config`.

use super::*;

#[test]
fn defaults_round_trip_through_toml() {
    let c = TrainConfig::default();
    let text = c.to_toml_string();
    let back = TrainConfig::from_toml_str(&text, "t").unwrap();
    assert_eq!(back, c);
    assert!(c.differing_keys(&back).is_empty());
}

#[test]
fn shipped_configs_load() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
    for name in ["default.toml", "tiny.toml", "large.toml"] {
        let c = TrainConfig::load(&dir.join(name)).unwrap();
        assert!(c.generation.games > 0, "{name}");
    }
}

#[test]
fn unknown_keys_and_bad_values_name_the_key() {
    let e = TrainConfig::from_toml_str("[optim]\nlearning_rate = 1.0\n", "x.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("learning_rate") && e.contains("x.toml"), "{e}");
    let e = TrainConfig::from_toml_str("[optim]\nbatch_size = 0\n", "x.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("optim.batch_size"), "{e}");
    let e = TrainConfig::from_toml_str("[net]\ncell_pixels = 3\n", "x.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("cell_pixels"), "{e}");
}

#[test]
fn differing_keys_are_named() {
    let a = TrainConfig::default();
    let mut b = a.clone();
    b.optim.lr = 0.5;
    b.generation.games = 3;
    assert_eq!(
        a.differing_keys(&b),
        vec!["generation.games".to_string(), "optim.lr".to_string()]
    );
}

#[test]
fn window_grows_sublinearly_and_is_clamped() {
    let r = ReplayConfig {
        window_min: 1000,
        window_max: 5000,
        ..ReplayConfig::default()
    };
    assert_eq!(r.window(500), 500);
    assert_eq!(r.window(1000), 1000);
    // c·(1 + 0.4·((10)^0.75 − 1)/0.75) = 1000·(1 + 0.4·4.6234/0.75) ≈ 3465.8
    assert_eq!(r.window(10_000), 3465);
    assert_eq!(r.window(1_000_000), 5000);
}

#[test]
fn learning_rate_warms_up_then_follows_the_schedule() {
    let o = OptimConfig {
        lr: 1e-2,
        warmup_steps: 10,
        lr_schedule: vec![(5, 0.5), (10, 0.1)],
        ..OptimConfig::default()
    };
    assert!((o.lr_at(1, 0) - 1e-3).abs() < 1e-12);
    assert!((o.lr_at(1, 100) - 1e-2).abs() < 1e-12);
    assert!((o.lr_at(7, 100) - 5e-3).abs() < 1e-12);
    assert!((o.lr_at(12, 100) - 1e-3).abs() < 1e-12);
}

#[test]
fn rollout_mix_follows_its_schedule_and_is_range_checked() {
    let g = GenerationConfig {
        rollout_mix: vec![(2, 0.5), (5, 0.25), (9, 0.0)],
        ..GenerationConfig::default()
    };
    let at: Vec<f64> = [1, 2, 4, 5, 8, 9, 30]
        .iter()
        .map(|&n| g.rollout_mix_at(n))
        .collect();
    assert_eq!(at, [0.0, 0.5, 0.5, 0.25, 0.25, 0.0, 0.0]);
    assert_eq!(GenerationConfig::default().rollout_mix_at(1), 0.0);
    let e = TrainConfig::from_toml_str("[generation]\nrollout_mix = [[1, 1.5]]\n", "x.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("generation.rollout_mix"), "{e}");
    let e = TrainConfig::from_toml_str("[replay]\nvalue_q_weight = -0.1\n", "x.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("replay.value_q_weight"), "{e}");
    let e = TrainConfig::from_toml_str("[replay]\nproven_value_weight = 1.5\n", "x.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("replay.proven_value_weight"), "{e}");
}
