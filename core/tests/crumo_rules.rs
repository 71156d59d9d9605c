//! One test (at least) per numbered rule of `games/crumo/RULES.md` sections 1–6: the board, stacks,
//! guarding, death, placing and moving. Sections 7–10 are in `crumo_rules_end.rs`, 11–13 in
//! `crumo_rules_formats.rs`.

mod crumo_common;
use Color::{Black, White};
use crumble_core::game::CompleteMoves;
use crumo_common::*;

fn names(g: &Crumo, points: impl IntoIterator<Item = u16>) -> Vec<String> {
    points.into_iter().map(|p| g.geometry().name(p)).collect()
}

#[test]
fn rule_1_1_sizes_count_points_per_side_and_others_are_refused() {
    for (n, points) in [
        (3u8, 19usize),
        (4, 37),
        (5, 61),
        (6, 91),
        (7, 127),
        (2, 7),
        (13, 469),
    ] {
        assert_eq!(Crumo::standard(n).unwrap().points(), points, "size {n}");
    }
    for n in [0u8, 1, 14, 255] {
        assert!(Crumo::standard(n).is_none(), "size {n}");
        assert!(matches!(
            Crumo::from_start(&CrumoStart::standard(n)),
            Err(crumble_core::games::crumo::CrumoStartError::Size(_))
        ));
    }
    assert_eq!(CrumoStart::default(), CrumoStart::standard(5));
}

#[test]
fn rule_1_2_axial_coordinates_span_the_hexagon() {
    let g = Crumo::standard(5).unwrap();
    let geo = g.geometry();
    assert_eq!(geo.coords(pt(&g, "e5")), (4, 4));
    assert_eq!(geo.point_at(0, 0), None, "q + r < n - 1");
    assert_eq!(geo.point_at(8, 8), None, "q + r > 3n - 3");
    assert_eq!(geo.point_at(9, 0), None);
    assert!(geo.point_at(4, 0).is_some() && geo.point_at(0, 8).is_some());
}

#[test]
fn rule_1_3_point_names_corners_and_centres() {
    let g5 = Crumo::standard(5).unwrap();
    let g7 = Crumo::standard(7).unwrap();
    for (g, corners, centre) in [
        (&g5, ["e1", "i1", "i5", "e9", "a9", "a5"], "e5"),
        (&g7, ["g1", "m1", "m7", "g13", "a13", "a7"], "g7"),
    ] {
        let geo = g.geometry();
        let d = g.max_height();
        for c in corners {
            // A corner has the longest line of the board, corner to corner.
            assert_eq!(geo.longest_line(pt(g, c)), d, "{c}");
        }
        assert_eq!(geo.coords(pt(g, centre)), (g.size() - 1, g.size() - 1));
    }
    assert_eq!(g5.geometry().name(0), "e1");
    assert_eq!(g5.geometry().name(60), "e9");
    assert!(notation::parse_point(g5.geometry(), "a1").is_err());
}

/// The points `steps` steps from e5 of the size-5 board in directions `dirs` (rule 1.4's
/// numbering).
fn from_e5(steps: u32, dirs: std::ops::Range<usize>) -> Vec<String> {
    let g = Crumo::standard(5).unwrap();
    let e5 = pt(&g, "e5");
    names(&g, dirs.map(|d| g.geometry().step(e5, d, steps).unwrap()))
}

#[test]
fn rule_1_4_the_twelve_directions_around_e5() {
    assert_eq!(from_e5(1, 0..6), ["f5", "e6", "d6", "d5", "e4", "f4"]);
    assert_eq!(from_e5(1, 6..12), ["f6", "d7", "c6", "d4", "f3", "g4"]);
}

#[test]
fn rule_1_5_distance_counts_steps_along_a_line() {
    let g = Crumo::standard(5).unwrap();
    let e5 = pt(&g, "e5");
    let geo = g.geometry();
    assert_eq!(from_e5(2, 0..6), ["g5", "e7", "c7", "c5", "e3", "g3"]);
    assert_eq!(from_e5(2, 6..12), ["g7", "c9", "a7", "c3", "g1", "i3"]);
    // D = 8 orthogonally on size 5, n - 1 = 4 diagonally.
    let e1 = pt(&g, "e1");
    assert_eq!(geo.line_between(e1, pt(&g, "e9")), Some((1, 8)));
    assert_eq!(geo.line_between(e5, pt(&g, "g7")), Some((6, 2)));
    assert_eq!(geo.step(e5, 6, 3), None);
    assert_eq!(geo.line_between(e5, pt(&g, "f7")), None);
}

#[test]
fn rule_2_1_supplies_are_unlimited() {
    // Heights up to 2^31 - 1 load, and placing never runs out.
    let mut g = position_with(Black, Previous::Other, &[("e5", Black, 2_147_483_647)]);
    g.play_text("e5-e6").unwrap();
    assert_eq!(at(&g, "e5"), Some((Black, 2_147_483_646)));
    let mut g = Crumo::standard(5).unwrap();
    g.set_turn_limit(0);
    for m in ["1e1", "1a9", "1i1", "1e9", "1a5", "1i5"] {
        g.play_text(m).unwrap();
    }
    assert_eq!(g.stacks().count(), 6);
}

#[test]
fn rule_2_2_stacks_have_one_colour_and_no_height_limit() {
    let mut g = position_with(
        Black,
        Previous::Other,
        &[("e5", Black, 9), ("g5", Black, 9)],
    );
    g.play_text("e5-g5").unwrap();
    assert_eq!(at(&g, "g5"), Some((Black, 11)), "merging exceeds D = 8");
    assert_eq!(at(&g, "e5"), Some((Black, 7)));
    // Never a mixed stack: a move may not end on an enemy.
    let mut g = after(5, &["2e5", "1g5"]);
    assert!(matches!(
        g.play_text("e5-g5"),
        Err(MoveError::Rules(MoveRuleError::LandsOnEnemy { .. }))
    ));
}

#[test]
fn rule_3_1_a_stack_guards_its_point_and_distance_h_unblocked() {
    let g = position_with(
        Black,
        Previous::Other,
        &[("e5", Black, 2), ("e6", White, 1)],
    );
    assert_eq!(g.guards(pt(&g, "e7"))[0], 1, "e6 between does not block");
    assert_eq!(g.guards(pt(&g, "e5"))[0], 1, "its own point");
    assert_eq!(g.guards(pt(&g, "e6"))[0], 0, "distance 1 is not 2");
    // A stack taller than every line from its point guards only its point.
    let g = position_with(Black, Previous::Other, &[("e5", Black, 9)]);
    let total: u32 = (0..g.points() as u16).map(|p| g.guards(p)[0]).sum();
    assert_eq!(total, 1);
    let g = position_with(Black, Previous::Other, &[("e5", Black, 2)]);
    let total: u32 = (0..g.points() as u16).map(|p| g.guards(p)[0]).sum();
    assert_eq!(total, 13);
}

#[test]
fn rule_3_2_guard_counts_are_stacks_not_pieces() {
    let g = position_with(
        Black,
        Previous::Other,
        &[("e5", Black, 3), ("b8", Black, 1), ("e2", White, 3)],
    );
    // e8 is 3 steps from e5 (not from e2, 6 steps away); b8 is 3 west of e8, not 1.
    assert_eq!(g.guards(pt(&g, "e8")), [1, 0]);
    // h5: 3 east of the B3 and 3 diagonal steps (1, 1) from the W3: one stack each.
    assert_eq!(g.guards(pt(&g, "h5")), [1, 1]);
    // b8: itself and the B3 (3 steps north-west), and the W3 three steps along (−1, 2).
    assert_eq!(g.guards(pt(&g, "b8")), [2, 1]);
}

#[test]
fn rule_4_1_a_lone_stack_needs_two_attackers_to_die() {
    let g = position_with(
        White,
        Previous::Other,
        &[("e5", White, 1), ("f5", Black, 1)],
    );
    assert_eq!(g.guards(pt(&g, "e5")), [1, 1]);
    let two = json!({"size": 5, "to_move": "white", "pie": "over", "swapped": false,
        "previous": "other", "captures": {"black": 0, "white": 0},
        "stacks": [{"point": "d5", "color": "black", "height": 1},
                   {"point": "e5", "color": "white", "height": 1},
                   {"point": "f5", "color": "black", "height": 1}], "result": null});
    assert!(matches!(
        position::from_value(&two),
        Err(PositionError::Rules(PositionRuleError::Dead {
            attack: 2,
            defence: 1,
            ..
        }))
    ));
}

#[test]
fn rule_4_2_equal_attack_and_defence_is_alive() {
    // 05-2-defended-placement: attack 2, defence 2, nothing removed.
    let g = after(5, &["1a5", "1f5", "2e3", "1e6", "3e5"]);
    assert_eq!(g.guards(pt(&g, "e5")), [2, 2]);
    assert_eq!(at(&g, "e5"), Some((Black, 3)));
}

#[test]
fn rule_4_3_no_dead_stack_between_turns() {
    // The moved stack dies in phase 2 rather than stay on the board dead.
    let mut g = example_start("06-3-moved-stack-dies.json");
    g.play_text("f3-f5").unwrap();
    for (p, s) in g.stacks() {
        let gp = g.guards(p);
        assert!(gp[s.color.opposite() as usize] <= gp[s.color as usize]);
    }
    assert_eq!(at(&g, "f5"), None);
}

#[test]
fn rule_5_1_placing_puts_a_new_stack_of_the_chosen_height() {
    let g = after(5, &["3e5", "2e2"]);
    assert_eq!(at(&g, "e5"), Some((Black, 3)));
    assert_eq!(at(&g, "e2"), Some((White, 2)));
    let mut g = after(5, &["3e5"]);
    assert!(matches!(
        g.play_text("1e5"),
        Err(MoveError::Rules(MoveRuleError::Occupied { .. }))
    ));
}

#[test]
fn rule_5_2_a_some_point_at_distance_h_exists() {
    let mut g = Crumo::standard(5).unwrap();
    assert!(matches!(
        g.play_text("5e5"),
        Err(MoveError::Rules(MoveRuleError::NoPointAtDistance {
            longest: 4,
            ..
        }))
    ));
    assert!(matches!(
        g.play_text("9e1"),
        Err(MoveError::Rules(MoveRuleError::NoPointAtDistance {
            longest: 8,
            ..
        }))
    ));
    g.play_text("8e1").unwrap();
    let mut g = Crumo::standard(5).unwrap();
    assert!(g.play_text("4e5").is_ok());
}

#[test]
fn rule_5_2_b_no_enemy_stack_at_distance_h() {
    let mut g = after(5, &["3e5"]);
    assert!(matches!(
        g.play_text("3e2"),
        Err(MoveError::Rules(MoveRuleError::GuardsEnemy { enemy, .. })) if enemy == "e5"
    ));
    // Only the distance counts: e5 is 3 steps from e2, not 2 or 4.
    g.play_text("4e2").unwrap();
    let g = after(5, &["3e5"]);
    assert!(g.legal_move_texts().contains(&"2e2".to_string()));
}

#[test]
fn rule_5_2_c_the_new_stack_is_not_dead() {
    let mut g = after(5, &["1a5", "1f5", "1i1", "1e6"]);
    assert!(matches!(
        g.play_text("3e5"),
        Err(MoveError::Rules(MoveRuleError::DeadOnArrival {
            attack: 2,
            defence: 1,
            ..
        }))
    ));
    // Every height is refused there, not just 3.
    assert_eq!(g.placement_heights(Black, pt(&g, "e5")), 0);
    assert!(g.placement_heights(White, pt(&g, "e5")) != 0);
}

#[test]
fn rule_5_3_a_placement_changes_nothing_but_its_point() {
    let before = after(5, &["1a5", "1f5", "2e3", "1e6"]);
    let mut g = before.clone();
    g.play_text("3e5").unwrap();
    let changed: Vec<u16> = (0..g.points() as u16)
        .filter(|&p| g.stack(p) != before.stack(p))
        .collect();
    assert_eq!(names(&g, changed), ["e5"]);
    assert_eq!((g.captures(Black), g.captures(White)), (0, 0));
    assert_eq!(g.previous(), Previous::Other);
}

#[test]
fn rule_6_1_moves_take_k_pieces_k_steps_and_jump() {
    // Partial: 2 of 3 pieces, 2 steps.
    let g = after(5, &["3e5", "1a9", "e5-e7"]);
    assert_eq!(
        (at(&g, "e5"), at(&g, "e7")),
        (Some((Black, 1)), Some((Black, 2)))
    );
    assert_eq!(g.previous(), Previous::Other);
    // Complete, two diagonal steps over an enemy stack.
    let g = after(5, &["2e5", "2f6", "e5-g7"]);
    assert_eq!((at(&g, "e5"), at(&g, "g7")), (None, Some((Black, 2))));
    assert_eq!(g.previous(), Previous::CompleteMove);
    let mut g = after(5, &["2e5", "1a9"]);
    assert!(matches!(
        g.play_text("e5-e8"),
        Err(MoveError::Rules(MoveRuleError::TooFewPieces {
            pieces: 3,
            height: 2,
            ..
        }))
    ));
    assert!(matches!(g.play_text("e5-f7"), Err(MoveError::Notation(_))));
    assert!(matches!(
        g.play_text("a9-a8"),
        Err(MoveError::Rules(MoveRuleError::NotOwnStack { .. }))
    ));
}

#[test]
fn rule_6_2_a_move_onto_a_friendly_stack_merges() {
    let g = after(5, &["3e5", "1a9", "1g5", "1i1", "e5-g5"]);
    assert_eq!(
        (at(&g, "e5"), at(&g, "g5")),
        (Some((Black, 1)), Some((Black, 3)))
    );
}

#[test]
fn rule_6_3_enemies_are_removed_first_each_phase_to_a_fixpoint() {
    // Phase 1 first: removing W1 g3 saves the mover's new B1 g4.
    let mut g = example_start("06-3-enemy-removed-first.json");
    g.play_text("g5-g4").unwrap();
    assert_eq!((at(&g, "g3"), at(&g, "g4")), (None, Some((Black, 1))));
    // Phase 1 repeats: d6 dies, then e4.
    let mut g = example_start("06-3-enemy-cascade.json");
    g.play_text("d5-e5").unwrap();
    assert_eq!((at(&g, "d6"), at(&g, "e4")), (None, None));
    // Phase 2 repeats: e4, then f4.
    let mut g = example_start("06-3-own-cascade.json");
    g.play_text("d5-c6").unwrap();
    assert_eq!((at(&g, "e4"), at(&g, "f4")), (None, None));
    assert_eq!(g.captures(White), 4);
}

#[test]
fn rule_6_4_captures_count_pieces_for_the_other_colour() {
    let mut g = example_start("06-3-capture-counts-pieces.json");
    g.play_text("f8-f7").unwrap();
    assert_eq!((g.captures(Black), g.captures(White)), (3, 0));
    let mut g = example_start("06-3-moved-stack-dies.json");
    g.play_text("f3-f5").unwrap();
    assert_eq!((g.captures(Black), g.captures(White)), (0, 2));
}

#[test]
fn rule_6_5_a_complete_move_after_one_must_capture() {
    let mut g = after(5, &["1e5", "1a9", "e5-f5"]);
    assert_eq!(g.previous(), Previous::CompleteMove);
    assert!(matches!(
        g.play_text("a9-a8"),
        Err(MoveError::Rules(MoveRuleError::CompleteAfterComplete))
    ));
    assert!(!g.legal_move_texts().contains(&"a9-a8".to_string()));
    // Placements and passes stay legal.
    assert!(g.clone().play_text("pass").is_ok() && g.play_text("1a1").is_err());
    // A partial move is allowed.
    let g = after(5, &["1e5", "2a9", "e5-f5", "a9-a8"]);
    assert_eq!(g.previous(), Previous::Other);
    // A capturing one is allowed; losing one's own stack is not capturing.
    let mut g = example_start("06-5-complete-capture-allowed.json");
    g.play_text("g7-f7").unwrap();
    assert_eq!(g.captures(Black), 1);
    let mut g = example_start("06-5-own-loss-is-not-capturing.json");
    assert!(matches!(
        g.play_text("f3-f5"),
        Err(MoveError::Rules(MoveRuleError::CompleteAfterComplete))
    ));
}
