//! One test per numbered rule of `games/splinter/RULES.md`, rules 10–12: the position JSON,
//! the symmetries, the action space (rules 1–6 in `splinter_rules.rs`).

mod splinter_common;

use crumble_core::game::CompleteMoves;
use splinter_common::*;

// ------------------------------------------------------------------ 10. position JSON

#[test]
fn rule_10_1_the_position_after_h9_h10() {
    let mut g = Splinter::standard(15, 18).unwrap();
    play(&mut g, &["h9-h10"]);
    let v = position::to_value(&g);
    assert_eq!(v["to_move"], "white");
    assert_eq!(
        v["last_move"],
        json!({"direction": "n", "moved": ["h10", "h11", "h12", "h13"]})
    );
    assert_eq!(v["result"], Value::Null);
    assert!(
        v["pieces"]
            .as_array()
            .unwrap()
            .contains(&json!({"square": "h10", "color": "black", "type": "king"}))
    );
}

#[test]
fn rule_10_2_output_key_order_and_canonical_lists() {
    let mut g = Splinter::standard(15, 18).unwrap();
    play(&mut g, &["h9-h10"]);
    let text = position::to_json(&g);
    // Read back in the text's order (serde_json preserves it here).
    let v: Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let schema = [
        "width",
        "height",
        "to_move",
        "pieces",
        "last_move",
        "result",
    ];
    assert_eq!(keys, schema, "{text}");
    assert!(text.starts_with("{\"width\":15,\"height\":18,"));
    assert!(text.contains("{\"square\":\"f7\",\"color\":\"black\",\"type\":\"pawn\"}"));
    assert!(text.contains("{\"direction\":\"n\",\"moved\":"));
}

#[test]
fn rule_10_3_input_is_validated_and_errors_name_what_is_wrong() {
    let base = position::to_json(&Splinter::standard(5, 6).unwrap());
    let refuse = |text: &str, needle: &str| {
        let e = position::from_json(text).expect_err(text).to_string();
        assert!(e.contains(needle), "{needle:?} not in {e:?} for {text}");
    };
    // Repeated keys, at every level.
    refuse(
        &base.replacen("\"width\":5,", "\"width\":5,\"width\":5,", 1),
        "duplicate key \"width\"",
    );
    refuse(
        &base.replacen(
            "\"color\":\"black\",",
            "\"color\":\"black\",\"color\":\"white\",",
            1,
        ),
        "duplicate key \"color\"",
    );
    let with = |key: &str, value: Value| {
        let mut v: Value = serde_json::from_str(&base).unwrap();
        v[key] = value;
        v.to_string()
    };
    refuse(
        &base.replacen(
            "\"last_move\":null",
            "\"last_move\":{\"direction\":\"n\",\"direction\":\"s\",\"moved\":[\"c3\"]}",
            1,
        ),
        "duplicate key \"direction\"",
    );
    refuse(
        &base.replacen(
            "\"result\":null",
            "\"result\":{\"winner\":null,\"reason\":\"tie\",\"reason\":\"tie\"}",
            1,
        ),
        "duplicate key \"reason\"",
    );
    refuse(
        &base.replacen("\"result\":null", "\"last_move\":null,\"result\":null", 1),
        "duplicate key \"last_move\"",
    );
    // Keys and values.
    refuse(&with("extra", json!(1)), "extra: unknown key");
    refuse(
        &base.replacen("\"to_move\":\"black\",", "", 1),
        "to_move: missing",
    );
    refuse(&with("width", json!(15.0)), "width: expected an integer");
    refuse(&with("width", json!(4)), "width: 4 is outside");
    refuse(&with("height", json!(27)), "height: 27 is outside");
    refuse(&with("width", json!(-5)), "width");
    refuse(&with("to_move", json!("Black")), "to_move: \"Black\"");
    refuse(&with("pieces", json!({})), "pieces: expected an array");
    refuse(&with("pieces", json!([])), "at least one piece");
    // A board of one piece, refused for what is wrong with it.
    for (piece, says) in [
        (
            json!({"square": "a1", "color": "black"}),
            "pieces[0].type: missing",
        ),
        (
            json!({"square": "a1", "color": "black", "type": "pawn", "x": 1}),
            "pieces[0].x: unknown key",
        ),
        (
            json!({"square": "f1", "color": "black", "type": "pawn"}),
            "pieces[0].square: square f1 is off",
        ),
        (
            json!({"square": "a01", "color": "black", "type": "pawn"}),
            "pieces[0].square",
        ),
        (
            json!({"square": "a99999999999999999999", "color": "black", "type": "pawn"}),
            "off the 5x6 board",
        ),
        (
            json!({"square": "a1", "color": "red", "type": "pawn"}),
            "pieces[0].color: \"red\"",
        ),
        (
            json!({"square": "a1", "color": "black", "type": "Pawn"}),
            "pieces[0].type: \"Pawn\"",
        ),
    ] {
        refuse(&with("pieces", json!([piece])), says);
    }
    refuse(
        &with(
            "pieces",
            json!([{"square": "a1", "color": "black", "type": "pawn"}, {"square": "a1", "color": "white", "type": "pawn"}]),
        ),
        "two pieces on a1",
    );
    refuse(
        &with("last_move", json!({"direction": "N", "moved": ["c3"]})),
        "last_move.direction: \"N\"",
    );
    refuse(
        &with("last_move", json!({"direction": "n", "moved": []})),
        "last_move.moved: must not be empty",
    );
    refuse(
        &with(
            "last_move",
            json!({"direction": "n", "moved": ["c3", "c3"]}),
        ),
        "last_move.moved[1]: c3 is listed twice",
    );
    refuse(
        // The 5 x 6 start fills its board: take the 9 x 10 one, whose a1 is empty.
        &position::to_json(&Splinter::standard(9, 10).unwrap()).replacen(
            "\"last_move\":null",
            "\"last_move\":{\"direction\":\"n\",\"moved\":[\"a1\"]}",
            1,
        ),
        "last_move.moved[0]: a1 holds no piece",
    );
    refuse(
        &with("last_move", json!({"direction": "n"})),
        "last_move.moved: missing",
    );
    refuse(
        &with("result", json!({"winner": "black", "reason": "tie"})),
        "result.winner",
    );
    refuse(
        &with("result", json!({"winner": null, "reason": "knockouts"})),
        "result.winner",
    );
    refuse(
        &with("result", json!({"winner": null, "reason": "stalemate"})),
        "result.reason: \"stalemate\"",
    );
    refuse("[1]", "position: expected an object");
    refuse("{", "malformed JSON");
    // Optional keys: missing means null; a given result is kept as it is.
    let short = base.replacen(",\"last_move\":null,\"result\":null", "", 1);
    assert_eq!(
        position::to_json(&position::from_json(&short).unwrap()),
        base
    );
    let kept = with("result", json!({"winner": "white", "reason": "knockouts"}));
    assert_eq!(
        position::from_json(&kept)
            .unwrap()
            .outcome()
            .unwrap()
            .winner,
        Some(Color::White)
    );
    // A null result is recomputed: a finished example start (example 20's end) loads as over.
    let end = final_of("20-two-knockouts-in-one-move.json");
    let mut v = position::to_value(&end);
    v["result"] = Value::Null;
    assert_eq!(position::from_value(&v).unwrap().outcome(), end.outcome());
}

// ------------------------------------------------------------------ 11. symmetries

#[test]
fn rule_11_1_four_maps_or_eight_on_a_square_board() {
    assert_eq!(Symmetry::of_board(15, 18).len(), 4);
    assert_eq!(Symmetry::of_board(8, 8).len(), 8);
    // Each map is a bijection of squares and of directions.
    for (w, h) in [(15, 18), (8, 8)] {
        let b = Board::empty(w, h);
        for s in Symmetry::of_board(w, h) {
            let mut seen: Vec<u16> = (0..b.square_count() as u16)
                .map(|q| s.square(&b, q))
                .collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), b.square_count());
            let mut dirs: Vec<Dir> = Dir::ALL.iter().map(|&d| s.dir(d)).collect();
            dirs.sort();
            assert_eq!(dirs, Dir::ALL);
        }
    }
    // Games mapped move by move: splinter_random.rs.
}

#[test]
fn rule_11_2_a_choice_maps_to_the_image_groups_anchor() {
    let g = example_start("15-tie-mover-keeps-first.json");
    let mv = notation::parse_move(g.board(), "e4-d3/d3").unwrap();
    let image = Symmetry::FlipLeftRight.position(&g);
    let mapped = Symmetry::FlipLeftRight.complete_move(&g, &mv);
    // d3's group (d3 c4 d4 c5 d5 c6 d6) maps to f3 g4 f4 g5 f5 g6 f6: anchor f3.
    assert_eq!(notation::move_text(image.board(), &mapped), "e4-f3/f3");
    assert!(image.clone().play(&mapped).is_ok());
}

#[test]
fn rule_11_3_exchanging_colours_is_exact() {
    let g = example_start("21-both-reach-two-more-knockouts.json");
    let mut swapped = crumble_core::games::splinter::symmetry::swap_colors(&g);
    assert_eq!(swapped.to_move(), g.to_move().opposite());
    let mut orig = g.clone();
    play(&mut orig, &["e5-e6"]);
    play(&mut swapped, &["e5-e6"]);
    let w = orig.outcome().unwrap().winner.unwrap();
    assert_eq!(swapped.outcome().unwrap().winner, Some(w.opposite()));
}

#[test]
fn rule_11_4_maps_that_keep_the_start() {
    use crumble_core::games::splinter::symmetry::swap_colors;
    for (w, h) in [
        (15, 18),
        (9, 10),
        (6, 6),
        (8, 8),
        (7, 7),
        (6, 7),
        (5, 6),
        (10, 11),
    ] {
        let start = Splinter::standard(w, h).unwrap();
        for &s in Symmetry::of_board(w, h) {
            let image = s.position(&start);
            let colour_swapped = swap_colors(&image);
            let keeps_pieces = image.board() == start.board();
            let keeps_swapped = colour_swapped.board() == start.board();
            let (lr, ud) = (w % 2 == 1, h % 2 == 0);
            match s {
                Symmetry::Identity => assert!(keeps_pieces),
                Symmetry::FlipLeftRight => assert_eq!(keeps_pieces, lr, "{w}x{h}"),
                Symmetry::FlipUpDown => assert_eq!(keeps_swapped, ud, "{w}x{h}"),
                Symmetry::Rotate180 => assert_eq!(keeps_swapped, lr && ud, "{w}x{h}"),
                _ => assert!(!keeps_pieces && !keeps_swapped, "{s:?} {w}x{h}"),
            }
            // As a position (Black to move) only the identity and, for odd W, the
            // left-right reflection keep the start.
            let keeps_position = image == start || colour_swapped == start;
            let expected = s == Symmetry::Identity || (s == Symmetry::FlipLeftRight && lr);
            assert_eq!(keeps_position, expected, "{s:?} {w}x{h}");
        }
    }
}

// ------------------------------------------------------------------ 12. implementer notes

#[test]
fn rule_12_2_action_space_is_eight_move_planes_and_a_keep_plane() {
    let g = Splinter::standard(15, 18).unwrap();
    assert_eq!(GameState::action_count(&g), 9 * 270);
    let mut legal = Vec::new();
    g.clone().legal_decisions_into(&mut legal);
    assert!(legal.iter().all(|d| d.0 < 8 * 270));
    // A pending choice hashes differently from the board it came from.
    let mut p = example_start("15-tie-mover-keeps-first.json");
    let mv = notation::parse_move(p.board(), "e4-d3/d3").unwrap();
    let (first, _) = p.resolve(&mv).unwrap();
    let before = p.state_hash();
    p.apply(first).unwrap();
    assert!(p.is_pending());
    assert_ne!(p.state_hash(), before);
}
