//! No mutation of a valid checkpoint (truncation, bit flip, splice with another checkpoint;
//! with the checksum made right again, so the config and weights readers are reached)
//! makes the loader panic.

use crumble_model::{NetConfig, checkpoint, default_device};
use proptest::prelude::*;

fn net_bytes(channels: usize, blocks: usize) -> Vec<u8> {
    let cfg = NetConfig::new()
        .with_resolution(2)
        .with_channels(channels)
        .with_blocks(blocks)
        .with_gpool_every(1)
        .with_value_hidden(2);
    checkpoint::encode(&cfg, &cfg.init(&default_device()).unwrap()).unwrap()
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        // Failures are reported with their input; no regression files in the source tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_checkpoints_never_panic(
        how in any::<u8>(), at in any::<usize>(), bit in any::<u8>(), fix in any::<bool>(),
    ) {
        let a = net_bytes(2, 1);
        let b = net_bytes(3, 0);
        let k = at % (a.len() + 1);
        let mut m = match how % 3 {
            0 => a[..k].to_vec(),
            1 => {
                let mut v = a.clone();
                v[k % a.len()] ^= 1 << (bit % 8);
                v
            }
            _ => {
                let mut v = a[..k].to_vec();
                v.extend_from_slice(&b[(at / 7) % b.len()..]);
                v
            }
        };
        if fix && m.len() >= 8 {
            let body = m.len() - 8;
            let sum = fnv1a(&m[..body]);
            m[body..].copy_from_slice(&sum.to_le_bytes());
        }
        let _ = checkpoint::decode(&m, "x.crnet", &default_device());
    }
}
