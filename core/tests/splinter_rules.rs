//! One test (at least) per numbered rule of `games/splinter/RULES.md`, named after the rule. Rules
//! the worked examples show are also checked here on the example's final position, so each
//! rule's test says what it looks at.
//! This file: rules 1–6 (pieces, board and start, the turn, pushes, no-return, splinters);
//! `splinter_rules_end.rs` rules 7–9, `splinter_rules_formats.rs` rules 10–12.

mod splinter_common;

use crumble_core::game::CompleteMoves;
use splinter_common::*;

// ------------------------------------------------------------------ 1. players and pieces

#[test]
fn rule_1_1_black_moves_first_and_players_alternate() {
    let mut g = Splinter::standard(15, 18).unwrap();
    assert_eq!(g.to_move(), Color::Black);
    assert_eq!(GameState::decider(&g), Some(Player::First));
    play(&mut g, &["h9-h10"]);
    assert_eq!(g.to_move(), Color::White);
    play(&mut g, &["g11-g10"]);
    assert_eq!(g.to_move(), Color::Black);
    // No pie rule: White cannot take over Black's first move.
    assert!(
        Splinter::standard(15, 18)
            .unwrap()
            .play_text("h10-h11")
            .is_err()
    );
}

#[test]
fn rule_1_2_each_player_has_fifteen_pieces_of_four_types() {
    let g = Splinter::standard(15, 18).unwrap();
    let counts = g.board().type_counts();
    for side in counts {
        assert_eq!(side, [1, 2, 3, 9]);
    }
    assert_eq!(PieceType::ALL.map(PieceType::start_count), [1, 2, 3, 9]);
}

#[test]
fn rule_1_3_eliminated_pieces_stay_gone_and_counts_are_capped() {
    // Example 04: a White pawn pushed off the 5 x 6 board is gone for good.
    let mut g = example_start("04-push-off-board.json");
    play(&mut g, &["c3-c4"]);
    assert_eq!(g.board().type_counts()[1][3], 8);
    // A position with a tenth pawn is refused.
    let mut v = position::to_value(&Splinter::standard(9, 10).unwrap());
    v["pieces"]
        .as_array_mut()
        .unwrap()
        .push(json!({"square": "a3", "color": "black", "type": "pawn"}));
    v["pieces"]
        .as_array_mut()
        .unwrap()
        .push(json!({"square": "b3", "color": "black", "type": "pawn"}));
    let e = position::from_value(&v).unwrap_err();
    assert!(
        matches!(
            e,
            PositionError::Rules(PositionRuleError::TooMany { count: 10, .. })
        ),
        "{e}"
    );
}

// ------------------------------------------------------------------ 2. board and start

#[test]
fn rule_2_1_sizes_five_to_twenty_six_by_six_to_twenty_six_default_fifteen_by_eighteen() {
    assert_eq!(SplinterStart::default(), SplinterStart::standard(15, 18));
    for (w, h, ok) in [
        (5, 6, true),
        (26, 26, true),
        (4, 6, false),
        (5, 5, false),
        (27, 10, false),
        (10, 27, false),
        (0, 0, false),
    ] {
        assert_eq!(size_ok(w, h), ok);
        assert_eq!(Splinter::standard(w, h).is_some(), ok, "{w}x{h}");
        assert_eq!(
            Splinter::from_start(&SplinterStart::standard(w, h)).is_ok(),
            ok
        );
    }
}

#[test]
fn rule_2_2_files_are_letters_from_the_left_and_ranks_numbers_from_the_bottom() {
    let b = Board::empty(15, 18);
    assert_eq!(notation::square_name(&b, b.square(0, 0)), "a1");
    assert_eq!(notation::square_name(&b, b.square(14, 17)), "o18");
    assert_eq!(notation::parse_square(&b, "h10").unwrap(), b.square(7, 9));
}

#[test]
fn rule_2_3_eight_directions_their_opposites_and_neighbours() {
    let deltas: Vec<_> = Dir::ALL.iter().map(|d| (d.name(), d.delta())).collect();
    assert_eq!(
        deltas,
        [
            ("n", (0, 1)),
            ("ne", (1, 1)),
            ("e", (1, 0)),
            ("se", (1, -1)),
            ("s", (0, -1)),
            ("sw", (-1, -1)),
            ("w", (-1, 0)),
            ("nw", (-1, 1))
        ]
    );
    for d in Dir::ALL {
        let (dx, dy) = d.delta();
        assert_eq!(d.opposite().delta(), (-dx, -dy));
    }
    // A corner square has 3 neighbours on the board, an edge square 5, an inner one 8.
    let b = Board::empty(5, 6);
    let on_board = |s| Dir::ALL.iter().filter(|&&d| b.step(s, d).is_some()).count();
    assert_eq!(on_board(b.square(0, 0)), 3);
    assert_eq!(on_board(b.square(2, 0)), 5);
    assert_eq!(on_board(b.square(2, 2)), 8);
}

#[test]
fn rule_2_4_lists_and_anchors_follow_rank_then_file() {
    let b = board_with(9, 10, &["c2", "b3", "a2", "b1"]);
    assert_eq!(names(&b), ["b1", "a2", "c2", "b3"]);
    let groups = b.groups();
    assert_eq!(groups.count, 1);
    assert_eq!(notation::square_name(&b, groups.anchor[1]), "b1");
    // Output: pieces in canonical order in the position JSON.
    let v = position::to_value(&Splinter::standard(9, 10).unwrap());
    let squares: Vec<&str> = v["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["square"].as_str().unwrap())
        .collect();
    assert_eq!(&squares[..6], ["c3", "d3", "e3", "f3", "g3", "c4"]);
}

#[test]
fn rule_2_5_the_block_is_a_checkerboard_with_black_on_its_lower_left() {
    for (w, h) in [(5, 6), (6, 7), (9, 10), (15, 18), (26, 26)] {
        let g = Splinter::standard(w, h).unwrap();
        let b = g.board();
        let (x0, y0) = ((w - 5) / 2, (h - 6) / 2);
        assert_eq!(b.piece_count(), 30);
        for (s, p) in b.pieces() {
            let (x, y) = b.xy(s);
            assert!(
                (x0..x0 + 5).contains(&x) && (y0..y0 + 6).contains(&y),
                "{w}x{h}"
            );
            let black = (x - x0 + y - y0) % 2 == 0;
            assert_eq!(p.color == Color::Black, black);
        }
    }
}

#[test]
fn rule_2_6_types_in_the_block() {
    let b = Board::standard(5, 6);
    let at = |name: &str| b.get(notation::parse_square(&b, name).unwrap()).unwrap();
    use Color::{Black as B, White as W};
    use PieceType::{Bishop, King, Rook};
    for (name, color, kind) in [
        ("c3", B, King),
        ("b2", B, Rook),
        ("d2", B, Rook),
        ("b4", B, Bishop),
        ("d4", B, Bishop),
        ("c5", B, Bishop),
        ("c4", W, King),
        ("b5", W, Rook),
        ("d5", W, Rook),
        ("b3", W, Bishop),
        ("d3", W, Bishop),
        ("c2", W, Bishop),
    ] {
        assert_eq!(at(name), Piece { color, kind }, "{name}");
    }
    let rim: Vec<_> = b
        .pieces()
        .filter(|&(s, _)| {
            let (x, y) = b.xy(s);
            x == 0 || x == 4 || y == 0 || y == 5
        })
        .collect();
    assert!(rim.iter().all(|(_, p)| p.kind == PieceType::Pawn));
    assert_eq!(rim.len(), 18);
}

#[test]
fn rule_2_7_the_default_start() {
    let g = Splinter::standard(15, 18).unwrap();
    let case = example("01-start-15x18.json");
    assert_eq!(position::to_value(&g), case["expected"]);
    let b = g.board();
    assert_eq!(b.get(sq(&g, "h9")), piece(Color::Black, PieceType::King));
    assert_eq!(b.get(sq(&g, "h10")), piece(Color::White, PieceType::King));
    assert!(g.last_move().is_none());
}

// ------------------------------------------------------------------ 3. a turn

#[test]
fn rule_3_1_a_turn_is_exactly_one_move_and_there_is_no_pass() {
    let mut g = Splinter::standard(15, 18).unwrap();
    let mut legal = Vec::new();
    g.legal_decisions_into(&mut legal);
    // Every decision at a turn start slides one of the mover's pieces; none passes.
    for &d in &legal {
        let mut after = g.clone();
        after.apply(d).unwrap();
        assert_eq!(after.to_move(), Color::White);
        assert_ne!(after.board(), g.board());
        assert_eq!(after.turns_played(), 1);
    }
    assert!(g.play_text("").is_err());
}

#[test]
fn rule_3_2_equal_largest_groups_ask_the_mover_a_second_decision() {
    let mut g = example_start("15-tie-mover-keeps-first.json");
    let mv = notation::parse_move(g.board(), "e4-d3").unwrap();
    let (first, _) = {
        let with = notation::parse_move(g.board(), "e4-d3/d3").unwrap();
        g.resolve(&with).unwrap()
    };
    assert_eq!(
        g.play(&mv),
        Err(MoveError::Rules(MoveRuleError::ChoiceMissing))
    );
    g.apply(first).unwrap();
    assert!(g.is_pending() && !g.at_turn_start());
    assert_eq!(g.to_move(), Color::Black);
    assert_eq!(GameState::decider(&g), Some(Player::First));
    assert_eq!(g.turns_played(), 0);
    let mut keeps = Vec::new();
    g.legal_decisions_into(&mut keeps);
    assert_eq!(keeps.len(), 2);
    g.apply(keeps[1]).unwrap();
    assert_eq!(g.turns_played(), 1);
    assert_eq!(g.to_move(), Color::White);
}

#[test]
fn rule_3_3_after_the_splinter_the_other_player_moves_with_a_new_no_return_state() {
    let mut g = Splinter::standard(15, 18).unwrap();
    play(&mut g, &["h9-h10"]);
    let last = g.last_move().unwrap();
    assert_eq!(last.dir, Dir::N);
    assert_eq!(g.to_move(), Color::White);
}

// ------------------------------------------------------------------ 4. moving and pushing

#[test]
fn rule_4_1_no_direction_that_leaves_the_board_is_legal() {
    // Example 06's notation refusal, and the move generator itself.
    let g = example_start("06-slide-off-board-refused.json");
    assert!(matches!(
        notation::parse_move(g.board(), "e1-f1"),
        Err(NotationError::OffBoard { .. })
    ));
    let mut edge_pieces = 0;
    for_each_random_position(1, 30, (5, 6), 30, |g| {
        for m in g.legal_moves() {
            assert!(g.board().step(m.from, m.dir).is_some());
        }
        for (s, p) in g.board().pieces() {
            if p.color != g.to_move() {
                continue;
            }
            for d in Dir::ALL {
                if g.board().step(s, d).is_none() {
                    edge_pieces += 1;
                    assert!(!g.is_legal_move(s, d));
                    let dec =
                        g.encode(crumble_core::games::splinter::Action::Move { from: s, dir: d });
                    assert!(matches!(
                        g.clone().apply(dec),
                        Err(DecisionError::Illegal(_))
                    ));
                }
            }
        }
    });
    assert!(edge_pieces > 100);
}

#[test]
fn rule_4_2_the_run_is_every_occupied_square_in_line_of_both_colours() {
    let b = board_with(9, 10, &["a1", "b2", "c3", "d4", "b1", "e5"]);
    let mut run = Vec::new();
    let k = b.run_len(b.square(0, 0), Dir::Ne, |s| {
        run.push(notation::square_name(&b, s))
    });
    assert_eq!(k, Some(4));
    assert_eq!(run, ["b2", "c3", "d4", "e5"]);
    // A diagonal move pushes along its diagonal only: b1 beside the line stays.
    let mut pushed = b.clone();
    assert!(pushed.push(b.square(0, 0), Dir::Ne).is_some());
    assert_eq!(names(&pushed), ["b1", "b2", "c3", "d4", "e5", "f6"]);
    // Run of length 0: a plain slide.
    assert_eq!(b.run_len(b.square(1, 0), Dir::E, |_| {}), Some(0));
}

#[test]
fn rule_4_3_the_run_shifts_and_its_last_piece_may_leave_the_board() {
    let mut b = board_with(5, 6, &["a3", "b3", "c3", "d3", "e3"]);
    let push = b.push(b.square(0, 2), Dir::E).unwrap();
    // Nothing to push, or a slide off the board (rule 4.1): refused, the board unchanged.
    let mut same = b.clone();
    assert!(same.push(b.square(0, 0), Dir::E).is_none());
    assert!(same.push(b.square(4, 2), Dir::E).is_none());
    assert_eq!(same, b);
    // e3, the fifth pawn, is Black's.
    assert_eq!(push.off_board, BP);
    assert_eq!(names(&b), ["b3", "c3", "d3", "e3"]);
    // Colours travel with their pieces.
    assert_eq!(b.get(b.square(1, 2)), BP);
    assert_eq!(b.get(b.square(2, 2)), WP);
    // Examples 04 and 05: an opponent's and the mover's own pawn pushed off.
    for (file, mv, lost) in [
        ("04-push-off-board.json", "c3-c4", 1),
        ("05-push-own-piece-off.json", "b2-b3", 0),
    ] {
        let mut g = example_start(file);
        let before = g.board().type_counts();
        play(&mut g, &[mv]);
        assert_eq!(
            g.board().type_counts()[lost][3] + 1,
            before[lost][3],
            "{file}"
        );
    }
}

#[test]
fn rule_4_4_moved_pieces_are_the_mover_and_its_run_still_on_the_board() {
    let mut g = Splinter::standard(15, 18).unwrap();
    play(&mut g, &["h9-h10"]);
    let moved: Vec<String> = g
        .last_move()
        .unwrap()
        .moved
        .iter()
        .map(|s| notation::square_name(g.board(), s))
        .collect();
    assert_eq!(moved, ["h10", "h11", "h12", "h13"]);
    // Example 04: the pawn pushed off is not among them.
    let mut g = example_start("04-push-off-board.json");
    play(&mut g, &["c3-c4"]);
    let last = g.last_move().unwrap();
    assert!(last.moved.iter().all(|s| g.board().is_occupied(s)));
    assert_eq!(
        last.moved.len(),
        3,
        "c4, c5, c6; the pawn from c6 left the board"
    );
}

// ------------------------------------------------------------------ 5. no return

#[test]
fn rule_5_1_no_piece_goes_back_where_it_stood_before_the_opponents_move() {
    assert_eq!(
        refused("08-no-return-pushed-piece-refused.json"),
        MoveError::Rules(MoveRuleError::NoReturn)
    );
    assert_eq!(
        refused("09-no-return-undo-chain-refused.json"),
        MoveError::Rules(MoveRuleError::NoReturn)
    );
}

#[test]
fn rule_5_2_the_test_is_the_opposite_direction_and_a_square_of_m_on_the_path() {
    assert_eq!(
        refused("12-no-return-from-position-refused.json"),
        MoveError::Rules(MoveRuleError::NoReturn)
    );
    assert_eq!(
        refused("29-no-return-loaded-state-refused.json"),
        MoveError::Rules(MoveRuleError::NoReturn)
    );
    // The same move in another direction, or with no last move, is free.
    let mut g = Splinter::standard(15, 18).unwrap();
    play(&mut g, &["h9-h10"]);
    assert!(g.no_return_forbids(sq(&g, "h11"), Dir::S));
    assert!(g.no_return_forbids(sq(&g, "h13"), Dir::S)); // h13 itself is in M
    assert!(!g.no_return_forbids(sq(&g, "h11"), Dir::Sw));
    assert!(!g.no_return_forbids(sq(&g, "g11"), Dir::S)); // its run g10, g9, g8, g7 misses M
}

#[test]
fn rule_5_3_other_pieces_may_use_the_opposite_direction() {
    let mut g = example_start("10-no-return-other-pieces-legal.json");
    play(&mut g, &["h9-h10", "g11-g10"]);
    assert_eq!(g.turns_played(), 2);
}

#[test]
fn rule_5_4_it_is_judged_on_the_push_even_if_the_splinter_would_remove_the_piece() {
    // f7-e6 cuts the pawn off alone (example 14) and is legal from the start ...
    let mut g = Splinter::standard(15, 18).unwrap();
    assert!(g.clone().play_text("f7-e6").is_ok());
    // ... but not when the last move moved f7 north-east.
    let mut v = position::to_value(&g);
    v["last_move"] = json!({"direction": "ne", "moved": ["f7"]});
    g = position::from_value(&v).unwrap();
    assert_eq!(
        g.play_text("f7-e6"),
        Err(MoveError::Rules(MoveRuleError::NoReturn))
    );
}

#[test]
fn rule_5_5_only_the_opponents_last_turn_counts() {
    let mut g = example_start("11-no-return-one-turn-only.json");
    play(&mut g, &["h9-h10", "g11-g10", "f9-e9", "h11-h10"]);
    // Before the first turn nothing is forbidden; a move whose moved pieces are all gone
    // leaves last_move null (example 14).
    let mut g = Splinter::standard(15, 18).unwrap();
    assert!(g.last_move().is_none());
    play(&mut g, &["f7-e6"]);
    assert!(g.last_move().is_none());
}

#[test]
fn rule_5_6_at_most_one_direction_is_forbidden_for_any_piece() {
    let mut forbidden_seen = 0;
    for_each_random_position(2, 40, (7, 8), 60, |g| {
        let mut dirs = std::collections::BTreeSet::new();
        for (s, p) in g.board().pieces().filter(|(_, p)| p.color == g.to_move()) {
            let _ = p;
            let f: Vec<Dir> = Dir::ALL
                .into_iter()
                .filter(|&d| g.board().step(s, d).is_some() && g.no_return_forbids(s, d))
                .collect();
            assert!(f.len() <= 1);
            dirs.extend(f);
        }
        assert!(
            dirs.len() <= 1,
            "every forbidden move has the same direction"
        );
        forbidden_seen += dirs.len();
    });
    assert!(forbidden_seen > 100);
}

// ------------------------------------------------------------------ 6. splinters

#[test]
fn rule_6_1_pieces_touching_at_a_corner_are_one_group() {
    assert_eq!(board_with(5, 6, &["a1", "b2", "c3"]).groups().count, 1);
    assert_eq!(board_with(5, 6, &["a1", "c1", "e1"]).groups().count, 3);
    // Example 02: a piece touching the group only at a corner stays.
    let mut g = example_start("02-slide-corner-contact.json");
    play(&mut g, &["f7-e7"]);
    assert_eq!(g.board().piece_count(), 30);
}

#[test]
fn rule_6_2_a_single_group_loses_nothing() {
    let mut g = Splinter::standard(15, 18).unwrap();
    play(&mut g, &["h9-h10"]);
    assert_eq!(g.board().piece_count(), 30);
}

#[test]
fn rule_6_3_the_largest_group_stays() {
    let mut g = example_start("13-splinter-seed-figure.json");
    let before = g.board().piece_count();
    play(&mut g, &["e4-e5"]);
    assert_eq!(g.board().piece_count(), before - 4);
    assert_eq!(g.board().groups().count, 1);
}

#[test]
fn rule_6_4_the_mover_chooses_among_equal_largest_groups_even_single_pieces() {
    let b = board_with(5, 6, &["a1", "c1", "e1"]);
    assert_eq!(b.groups().largest(), (1, 3));
    // Example 18: groups of 3, 6 and 6; any square of a largest group names it; the group
    // of 3 cannot be kept.
    let g = example_start("18-three-groups-two-tied.json");
    let names: Vec<String> = g
        .legal_move_texts()
        .into_iter()
        .filter(|t| t.starts_with("e5-e6"))
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let any = notation::parse_move(g.board(), "e5-e6/g4").unwrap();
    let canonical = g.canonical(&any).unwrap();
    assert_eq!(notation::move_text(g.board(), &canonical), "e5-e6/f2");
    // Both choices of example 15 are legal and give different positions.
    let mut a = example_start("15-tie-mover-keeps-first.json");
    let mut b = a.clone();
    play(&mut a, &["e4-d3/d3"]);
    play(&mut b, &["e4-d3/f4"]);
    assert_ne!(a, b);
}

#[test]
fn rule_6_5_the_mover_may_cut_off_its_own_pieces() {
    let mut g = Splinter::standard(15, 18).unwrap();
    play(&mut g, &["f7-e6"]);
    assert_eq!(g.board().type_counts()[0][3], 8);
}

#[test]
fn rule_6_6_a_loaded_position_must_be_one_group() {
    let mut v = position::to_value(&Splinter::standard(9, 10).unwrap());
    v["pieces"]
        .as_array_mut()
        .unwrap()
        .retain(|p| p["square"] != "c3");
    v["pieces"]
        .as_array_mut()
        .unwrap()
        .push(json!({"square": "a10", "color": "black", "type": "pawn"}));
    let e = position::from_value(&v).unwrap_err();
    assert!(
        matches!(e, PositionError::Rules(PositionRuleError::NotOneGroup(_))),
        "{e}"
    );
    assert!(e.to_string().contains("a10"), "{e}");
}
