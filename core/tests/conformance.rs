//! The generic conformance test (`crumble_core::conformance`) on every game core holds:
//! Crumble on small boards and from a mid-game position, and the test games.

use crumble_core::conformance::{ConformanceConfig, ConformanceReport, check_game};
use crumble_core::position::{self, MIDGAME_6X6_JSON};
use crumble_core::{CrumbleStart, Game};

fn crumble_starts() -> Vec<CrumbleStart> {
    let midgame = position::from_json(MIDGAME_6X6_JSON).unwrap();
    vec![
        CrumbleStart::standard(3, 2),
        CrumbleStart::standard(4, 2),
        CrumbleStart::standard(2, 4),
        CrumbleStart::standard(3, 4),
        CrumbleStart::from_position(&midgame),
    ]
}

/// A run that explored: games ended every way, and random play and single decisions both ran.
fn assert_explored(r: &ConformanceReport, games: u32) {
    assert_eq!(r.games, games);
    assert!(
        r.wins[0] > 0 && r.wins[1] > 0,
        "both players won some games: {r:?}"
    );
    assert!(r.limit_draws > 0, "the turn limit ended some games: {r:?}");
    assert!(r.random_turns > 0 && r.decisions > r.random_turns, "{r:?}");
    assert!(r.illegal_tried > r.decisions, "{r:?}");
}

#[test]
fn crumble_passes_the_conformance_test() {
    let config = ConformanceConfig {
        games: 1_000,
        seed: 15,
        max_turn_limit: 40,
        ..ConformanceConfig::default()
    };
    let report = check_game::<Game>(&crumble_starts(), &config).unwrap_or_else(|v| panic!("{v}"));
    eprintln!("{report:?}");
    assert_explored(&report, 1_000);
}
