//! The generic conformance test of the game interface (`crumble_core::game::conformance`) on
//! Crumo: standard starts of several sizes, and constructed positions from the worked
//! examples (a pending complete-stack rule, removals close, a loaded choice turn).

mod crumo_common;
use crumble_core::game::conformance::{ConformanceConfig, check_game};
use crumo_common::*;

fn start_from(file: &str) -> CrumoStart {
    let pos = example(file)["start"].clone();
    CrumoStart {
        size: pos["size"].as_u64().unwrap() as u8,
        position: Some(pos),
    }
}

#[test]
fn crumo_passes_the_conformance_test() {
    let choice = json!({
        "size": 4, "to_move": "white", "pie": "choice", "swapped": false, "previous": "other",
        "captures": {"black": 0, "white": 0},
        "stacks": [{"point": "d4", "color": "black", "height": 2}], "result": null
    });
    let starts = vec![
        CrumoStart::standard(3),
        CrumoStart::standard(4),
        CrumoStart::standard(5),
        start_from("06-3-enemy-cascade.json"),
        start_from("06-5-complete-capture-allowed.json"),
        start_from("06-3-own-cascade.json"),
        start_from("09-territory.json"),
        CrumoStart {
            size: 4,
            position: Some(choice),
        },
        CrumoStart::standard(2),
        CrumoStart::standard(7),
    ];
    let config = ConformanceConfig {
        games: 200,
        seed: 23,
        max_turn_limit: 40,
        illegal_samples: 8,
        ..ConformanceConfig::default()
    };
    let r = check_game::<Crumo>(&starts, &config).unwrap_or_else(|v| panic!("{v}"));
    eprintln!("{r:?}");
    assert_eq!(r.games, 200);
    assert!(
        r.wins[0] > 0 && r.wins[1] > 0,
        "both seats won some games: {r:?}"
    );
    assert!(r.limit_draws > 0, "the turn limit ended some games: {r:?}");
    // Moves take two decisions (source, then target).
    assert!(r.decisions > r.turns, "{r:?}");
    assert!(r.random_turns > 0 && r.illegal_tried > r.decisions, "{r:?}");
}
