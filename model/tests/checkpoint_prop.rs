//! No mutation of a valid checkpoint (truncation, bit flip, splice with another checkpoint;
//! with the checksum made right again, so the config and weights readers are reached)
//! makes the loader panic.

use crumble_model::{NetConfig, checkpoint, default_device};
use proptest::prelude::*;

#[path = "../../core/tests/common/prop_support.rs"]
mod prop_support;
use prop_support::{config_with_cases, fix_checksum, mutate};

fn net_bytes(channels: usize, blocks: usize) -> Vec<u8> {
    let cfg = NetConfig::new()
        .with_resolution(2)
        .with_channels(channels)
        .with_blocks(blocks)
        .with_gpool_every(1)
        .with_value_hidden(2);
    checkpoint::encode(&cfg, &cfg.init(&default_device()).unwrap()).unwrap()
}

proptest! {
    #![proptest_config(config_with_cases(48))]

    #[test]
    fn mutated_checkpoints_never_panic(
        how in any::<u8>(), at in any::<usize>(), bit in any::<u8>(), fix in any::<bool>(),
    ) {
        let a = net_bytes(2, 1);
        let b = net_bytes(3, 0);
        let mut m = mutate(&a, &b, how, at, bit);
        if fix && m.len() >= 8 {
            fix_checksum(&mut m);
        }
        let _ = checkpoint::decode(&m, "x.crnet", &default_device());
    }
}
