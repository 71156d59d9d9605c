//! The generic conformance test of the game interface (`crumble_core::game::conformance`) on
//! Splinter: standard starts of several sizes (also a square board, whose 8 symmetries the
//! property tests use) and constructed positions near the end of a game, with equal largest
//! groups (a `Keep` decision) and knockouts close.

use crumble_core::game::conformance::{ConformanceConfig, check_game};
use crumble_core::games::splinter::{Splinter, SplinterStart};
use serde_json::Value;
use std::path::Path;

/// The start position of a worked example (rule 13), as a start specification.
fn example_start(file: &str) -> SplinterStart {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/splinter-examples")
        .join(file);
    let case: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let pos = case["start"].clone();
    SplinterStart {
        width: pos["width"].as_u64().unwrap() as u8,
        height: pos["height"].as_u64().unwrap() as u8,
        position: Some(pos),
    }
}

#[test]
fn splinter_passes_the_conformance_test() {
    let starts = vec![
        SplinterStart::standard(5, 6),
        SplinterStart::standard(7, 8),
        SplinterStart::standard(6, 6),
        example_start("15-tie-mover-keeps-first.json"),
        example_start("18-three-groups-two-tied.json"),
        example_start("19-knockouts-one-then-two.json"),
        example_start("21-both-reach-two-more-knockouts.json"),
        SplinterStart::standard(15, 18),
    ];
    let config = ConformanceConfig {
        games: 1_000,
        seed: 17,
        max_turn_limit: 60,
        illegal_samples: 16,
        ..ConformanceConfig::default()
    };
    let r = check_game::<Splinter>(&starts, &config).unwrap_or_else(|v| panic!("{v}"));
    eprintln!("{r:?}");
    assert_eq!(r.games, 1_000);
    assert!(
        r.wins[0] > 0 && r.wins[1] > 0,
        "both players won some games: {r:?}"
    );
    assert!(r.limit_draws > 0, "the turn limit ended some games: {r:?}");
    // Some turns took two decisions (a move, then the group that stays).
    assert!(r.decisions > r.turns, "{r:?}");
    assert!(r.random_turns > 0 && r.illegal_tried > r.decisions, "{r:?}");
}
