//! Property tests of the self-play record file and config parsers: encoding then decoding
//! gives back the same games, and no mutation of a valid file (truncation, bit flip,
//! splice; with the checksum made right again, so the decoder proper is reached) panics.

use crumble_core::GameState;
use crumble_core::games::crumble::Crumble;
use crumble_selfplay::config::ConfigFile;
use crumble_selfplay::record::{
    Ending, GameRecord, SearchRecord, StepKind, StepRecord, VERSION, decode_file, encode_file,
    start_json,
};
use proptest::prelude::*;

#[path = "../../core/tests/common/prop_support.rs"]
mod prop_support;
use prop_support::{config_with_cases, fix_checksum, mutate};
use rand::{Rng, SeedableRng};

/// A random game as a self-play record, some steps searched.
fn random_record(index: u64, seed: u64) -> GameRecord {
    let (n, r) = [(4, 4), (3, 2), (6, 8)][(seed % 3) as usize];
    let mut g = Crumble::new(n, r).unwrap();
    g.set_max_turns(8);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut steps = Vec::new();
    let mut path = Vec::new();
    while !g.is_over() {
        g.play_random_turn_recorded(&mut rng, &mut path);
        for &d in &path {
            let search = rng.random_bool(0.3).then(|| SearchRecord {
                value: rng.random_range(-1.0..=1.0),
                full: rng.random_bool(0.5),
                proven: rng.random_bool(0.2).then(|| rng.random_range(-1.0..=1.0)),
                policy: vec![(d, 0.75), (crumble_core::Decision(d.0 ^ 1), 0.25)],
                prior: if rng.random_bool(0.5) {
                    vec![rng.random_range(0.0..=1.0), rng.random_range(0.0..=1.0)]
                } else {
                    Vec::new()
                },
                joint: vec![(d, d, 0.5)],
            });
            steps.push(StepRecord {
                decision: d,
                kind: if search.is_some() {
                    StepKind::Searched
                } else {
                    StepKind::Random
                },
                search,
            });
        }
    }
    GameRecord {
        index,
        game: "crumble".into(),
        start: start_json::<Crumble>(&Crumble::new(n, r).unwrap().to_start()),
        max_turns: 8,
        steps,
        result: g.game_result().unwrap(),
        ending: Ending::Rules,
        would_resign: None,
        // Every other game a match's, with agent strings up to the format's 255 bytes.
        agents: index.is_multiple_of(2).then(|| {
            [
                format!("mcts:rollout:{index}"),
                "ckpt:".to_string() + &"d/".repeat(usize::try_from(index % 127).unwrap()),
            ]
        }),
    }
}

proptest! {
    #![proptest_config(config_with_cases(64))]

    #[test]
    fn record_files_round_trip(seed in any::<u64>(), n in 1usize..4) {
        let games: Vec<GameRecord> = (0..n as u64).map(|i| random_record(i, seed ^ i)).collect();
        let bytes = encode_file(&games);
        let back = decode_file(&bytes).unwrap();
        prop_assert_eq!(&back, &games);
        for g in &back {
            g.replay::<Crumble>().unwrap();
        }
    }

    #[test]
    fn mutated_record_files_never_panic(
        seed in any::<u64>(), how in any::<u8>(), at in any::<usize>(), bit in any::<u8>(),
        fix in any::<bool>(),
    ) {
        let a = encode_file(&[random_record(0, seed)]);
        let b = encode_file(&[random_record(1, !seed), random_record(2, seed / 3)]);
        let mut m = mutate(&a, &b, how, at, bit);
        if fix && m.len() >= 8 {
            fix_checksum(&mut m);
        }
        if let Ok(games) = decode_file(&m) {
            // An accepted file of the current version is read exactly: writing it again
            // gives the same bytes (an older version is written as the current one).
            if m[8..12] == VERSION.to_le_bytes() {
                prop_assert_eq!(encode_file(&games), m);
            }
            for g in &games {
                if g.replay::<Crumble>().is_ok() {
                    let _ = crumble_selfplay::text_record::text_record::<Crumble>(g, None);
                }
            }
        }
    }

    #[test]
    fn mutated_configs_never_panic(how in any::<u8>(), at in any::<usize>(), bit in any::<u8>()) {
        let text = include_str!("../../configs/tiny.toml");
        let other = include_str!("../../configs/default.toml");
        let m = mutate(text.as_bytes(), other.as_bytes(), how, at, bit);
        let _ = ConfigFile::from_toml_str(&String::from_utf8_lossy(&m), "x.toml");
    }
}

/// A full-search flag byte other than 0 or 1 is refused: it was read as `true` and written
/// back as 1, so the file did not round-trip (found by the `crsp` fuzz target).
#[test]
fn a_flag_byte_other_than_0_or_1_is_refused() {
    let mut rec = random_record(0, 5);
    rec.steps.truncate(1);
    rec.steps[0] = StepRecord {
        decision: rec.steps[0].decision,
        kind: StepKind::Searched,
        search: Some(SearchRecord {
            value: 0.5,
            full: true,
            proven: None,
            policy: Vec::new(),
            prior: Vec::new(),
            joint: Vec::new(),
        }),
    };
    let bytes = encode_file(std::slice::from_ref(&rec));
    // The flag follows the value 0.5f32 (the only one in the file).
    let at = bytes
        .windows(4)
        .position(|w| w == 0.5f32.to_le_bytes())
        .unwrap()
        + 4;
    assert_eq!(bytes[at], 1);
    let mut bad = bytes.clone();
    bad[at] = 2;
    fix_checksum(&mut bad);
    let e = decode_file(&bad).unwrap_err().to_string();
    assert!(e.contains("full-search flag 2"), "{e}");
}
