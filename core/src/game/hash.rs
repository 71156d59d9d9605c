//! The hash functions of the project, one copy each: the 64-bit mixer behind the engine's
//! state hashes and every seed derived from counters, and the checksum of the binary files.

/// SplitMix64's finaliser: mixes seeds, counters and keys into independent-looking 64-bit
/// values (the engine's state hash, per-game and per-leaf seeds).
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a, 64 bit: the checksum of the record and checkpoint files.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // FNV-1a test vectors (Fowler, Noll, Vo).
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        // SplitMix64 from seed 0: its first output is mix64(0).
        assert_eq!(mix64(0), 0xe220_a839_7b1d_cdaf);
    }
}
