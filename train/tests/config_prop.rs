//! Training configs: printing then parsing gives back the same config, and no mutation of
//! a shipped config (truncation, bit flip, splice with another) makes the parser panic.

use crumble_train::config::TrainConfig;
use proptest::prelude::*;

#[path = "../../core/tests/common/prop_support.rs"]
mod prop_support;
use prop_support::{config_with_cases, mutate};

const CONFIGS: [&str; 3] = [
    include_str!("../../configs/tiny.toml"),
    include_str!("../../configs/default.toml"),
    include_str!("../../configs/large.toml"),
];

#[test]
fn shipped_configs_round_trip() {
    for text in CONFIGS {
        let c = TrainConfig::from_toml_str(text, "x.toml").unwrap();
        let back = TrainConfig::from_toml_str(&c.to_toml_string(), "y.toml").unwrap();
        assert_eq!(back, c);
    }
}

proptest! {
    #![proptest_config(config_with_cases(128))]

    #[test]
    fn mutated_configs_never_panic(
        i in 0usize..3, j in 0usize..3, how in any::<u8>(), at in any::<usize>(), bit in any::<u8>(),
    ) {
        let (a, b) = (CONFIGS[i].as_bytes(), CONFIGS[j].as_bytes());
        let m = mutate(a, b, how, at, bit);
        if let Ok(c) = TrainConfig::from_toml_str(&String::from_utf8_lossy(&m), "x.toml") {
            let back = TrainConfig::from_toml_str(&c.to_toml_string(), "y.toml").unwrap();
            prop_assert_eq!(back, c);
        }
    }
}
