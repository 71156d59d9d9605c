//! What the property tests of all the workspace's crates share (they include this file by
//! path): their settings, and mutations of valid files for the never-panic tests of every
//! reader (positions, notation, records, checkpoints, configs).

#![allow(dead_code)] // each test binary uses its own subset

use proptest::test_runner::Config;

/// `cases` cases; failures are reported with their input, no regression files in the source
/// tree.
pub fn config_with_cases(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// Truncation, a bit flip or a splice of `other` into `bytes`, chosen by `how` and `at`.
pub fn mutate(bytes: &[u8], other: &[u8], how: u8, at: usize, bit: u8) -> Vec<u8> {
    let k = at % (bytes.len() + 1);
    match how % 3 {
        0 => bytes[..k].to_vec(),
        1 if !bytes.is_empty() => {
            let mut v = bytes.to_vec();
            v[k % bytes.len()] ^= 1 << (bit % 8);
            v
        }
        _ => {
            let j = (at / 7) % (other.len() + 1);
            let mut v = bytes[..k].to_vec();
            v.extend_from_slice(&other[j..]);
            v
        }
    }
}

/// Makes the 8-byte FNV-1a checksum that ends `bytes` (the record and checkpoint formats')
/// right again, so that a mutation reaches the readers behind the checksum.
pub fn fix_checksum(bytes: &mut [u8]) {
    let body = bytes.len() - 8;
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in &bytes[..body] {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    bytes[body..].copy_from_slice(&h.to_le_bytes());
}
