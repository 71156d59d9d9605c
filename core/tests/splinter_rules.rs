//! One test (at least) per numbered rule of `RULES-splinter.md`, named after the rule. Rules
//! the worked examples show are also checked here on the example's final position, so each
//! rule's test says what it looks at.

use crumble_core::geom::Color;
use crumble_core::splinter::board::{Board, size_ok};
use crumble_core::splinter::{
    Dir, MoveError, NotationError, Piece, PieceType, PositionError, Reason, Splinter,
    SplinterStart, Symmetry, notation, position,
};
use crumble_core::{Decision, DecisionError, GameState, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use std::path::Path;

fn example(file: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/splinter-examples")
        .join(file);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The start of an example file.
fn example_start(file: &str) -> Splinter {
    let case = example(file);
    match &case["start"] {
        Value::String(_) => Splinter::standard(
            case["width"].as_u64().unwrap() as u8,
            case["height"].as_u64().unwrap() as u8,
        )
        .unwrap(),
        pos => position::from_value(pos).unwrap(),
    }
}

fn play(g: &mut Splinter, moves: &[&str]) {
    for m in moves {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn sq(g: &Splinter, name: &str) -> u16 {
    notation::parse_square(g.board(), name).unwrap()
}

fn piece(color: Color, kind: PieceType) -> Option<Piece> {
    Some(Piece { color, kind })
}

const BP: Option<Piece> = Some(Piece {
    color: Color::Black,
    kind: PieceType::Pawn,
});
const WP: Option<Piece> = Some(Piece {
    color: Color::White,
    kind: PieceType::Pawn,
});

/// A board with pawns on the named squares, Black's first, alternating colours.
fn board_with(w: u8, h: u8, squares: &[&str]) -> Board {
    let mut b = Board::empty(w, h);
    for (i, s) in squares.iter().enumerate() {
        let at = notation::parse_square(&b, s).unwrap();
        b.put(at, if i % 2 == 0 { BP } else { WP });
    }
    b
}

fn names(b: &Board) -> Vec<String> {
    b.pieces()
        .map(|(s, _)| notation::square_name(b, s))
        .collect()
}

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
    assert!(matches!(e, PositionError::TooMany { count: 10, .. }), "{e}");
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
    assert_eq!(g.play(&mv), Err(MoveError::ChoiceMissing));
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
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut edge_pieces = 0;
    for _ in 0..30 {
        let mut g = Splinter::standard(5, 6).unwrap();
        g.set_turn_limit(30);
        while !g.is_over() {
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
                            g.encode(crumble_core::splinter::Action::Move { from: s, dir: d });
                        assert!(matches!(
                            g.clone().apply(dec),
                            Err(DecisionError::Illegal(_))
                        ));
                    }
                }
            }
            g.play_random_turn(&mut rng);
        }
    }
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
    pushed.push(b.square(0, 0), Dir::Ne);
    assert_eq!(names(&pushed), ["b1", "b2", "c3", "d4", "e5", "f6"]);
    // Run of length 0: a plain slide.
    assert_eq!(b.run_len(b.square(1, 0), Dir::E, |_| {}), Some(0));
}

#[test]
fn rule_4_3_the_run_shifts_and_its_last_piece_may_leave_the_board() {
    let mut b = board_with(5, 6, &["a3", "b3", "c3", "d3", "e3"]);
    let push = b.push(b.square(0, 2), Dir::E);
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

fn refused(file: &str) -> MoveError {
    let case = example(file);
    let mut g = example_start(file);
    if let Some(t) = case.get("max_turns") {
        g.set_turn_limit(t.as_u64().unwrap() as u32);
    }
    let moves: Vec<&str> = case["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let k = case["error_move_index"].as_u64().unwrap() as usize;
    play(&mut g, &moves[..k - 1]);
    let before = g.clone();
    let e = g.play_text(moves[k - 1]).unwrap_err();
    assert_eq!(g, before, "a refused move changes nothing");
    e
}

#[test]
fn rule_5_1_no_piece_goes_back_where_it_stood_before_the_opponents_move() {
    assert_eq!(
        refused("08-no-return-pushed-piece-refused.json"),
        MoveError::NoReturn
    );
    assert_eq!(
        refused("09-no-return-undo-chain-refused.json"),
        MoveError::NoReturn
    );
}

#[test]
fn rule_5_2_the_test_is_the_opposite_direction_and_a_square_of_m_on_the_path() {
    assert_eq!(
        refused("12-no-return-from-position-refused.json"),
        MoveError::NoReturn
    );
    assert_eq!(
        refused("29-no-return-loaded-state-refused.json"),
        MoveError::NoReturn
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
    assert_eq!(g.play_text("f7-e6"), Err(MoveError::NoReturn));
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
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut forbidden_seen = 0;
    for _ in 0..40 {
        let mut g = Splinter::standard(7, 8).unwrap();
        g.set_turn_limit(60);
        while !g.is_over() {
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
            g.play_random_turn(&mut rng);
        }
    }
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
    assert!(matches!(e, PositionError::NotOneGroup(_)), "{e}");
    assert!(e.to_string().contains("a10"), "{e}");
}

// ------------------------------------------------------------------ 7. knockouts

#[test]
fn rule_7_1_knockouts_are_the_opponents_exhausted_types_after_the_whole_turn() {
    let mut g = example_start("20-two-knockouts-in-one-move.json");
    assert_eq!(g.knockouts(Color::Black), 0);
    play(&mut g, &["e4-e5"]);
    assert_eq!(g.knockouts(Color::Black), 2);
    assert_eq!(g.outcome().unwrap().reason, Reason::Knockouts);
}

#[test]
fn rule_7_2_one_move_can_knock_out_for_both_and_by_losing_ones_own() {
    let mut g = example_start("21-both-reach-two-more-knockouts.json");
    play(&mut g, &["e5-e6"]);
    assert!(g.knockouts(Color::Black) >= 2 && g.knockouts(Color::White) >= 2);
    // Example 24: the mover gives the opponent the knockout by pushing off its own rook.
    let mut g = example_start("24-mover-gives-opponent-the-win.json");
    let before = g.knockouts(Color::White);
    play(&mut g, &["f5-g5"]);
    assert!(g.knockouts(Color::White) > before);
    assert_eq!(g.outcome().unwrap().winner, Some(Color::White));
}

// ------------------------------------------------------------------ 8. the end

fn final_of(file: &str) -> Splinter {
    let case = example(file);
    let mut g = example_start(file);
    if let Some(t) = case.get("max_turns") {
        g.set_turn_limit(t.as_u64().unwrap() as u32);
    }
    for m in case["moves"].as_array().unwrap() {
        if g.play_text(m.as_str().unwrap()).is_err() {
            break;
        }
    }
    g
}

#[test]
fn rule_8_1_two_knockouts_win_then_more_knockouts_then_more_pieces_then_a_tie() {
    let reason = |file| final_of(file).outcome().map(|o| (o.winner, o.reason));
    assert_eq!(
        reason("19-knockouts-one-then-two.json").unwrap().1,
        Reason::Knockouts
    );
    assert_eq!(
        reason("21-both-reach-two-more-knockouts.json").unwrap().1,
        Reason::MoreKnockouts
    );
    assert_eq!(
        reason("22-both-reach-two-more-pieces.json").unwrap().1,
        Reason::MorePieces
    );
    assert_eq!(
        reason("23-both-reach-two-tie.json"),
        Some((None, Reason::Tie))
    );
    // One knockout goes on (example 19 after its first move).
    let mut g = example_start("19-knockouts-one-then-two.json");
    play(&mut g, &["f5-g5"]);
    assert!(!g.is_over());
}

#[test]
fn rule_8_2_a_live_position_always_has_a_legal_move() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..50 {
        let mut g = Splinter::standard(5, 6).unwrap();
        g.set_turn_limit(80);
        while !g.is_over() {
            assert!(!g.legal_moves().is_empty());
            g.play_random_turn(&mut rng);
        }
    }
}

#[test]
fn rule_8_3_no_repetition_rule_a_four_turn_cycle_is_legal() {
    let mut g = Splinter::standard(15, 18).unwrap();
    let start = position::to_json(&g);
    play(&mut g, &["f9-e9", "f10-e10", "e9-f9", "e10-f10"]);
    assert_eq!(
        position::to_json(&g).replace(
            "\"last_move\":{\"direction\":\"e\",\"moved\":[\"f10\"]}",
            "\"last_move\":null"
        ),
        start
    );
    play(&mut g, &["f9-e9"]);
    assert!(!g.is_over());
}

#[test]
fn rule_8_4_the_turn_limit_draws_and_a_choice_is_part_of_one_turn() {
    let g = final_of("25-turn-limit.json");
    assert_eq!(g.outcome().unwrap().reason, Reason::TurnLimit);
    let g = final_of("28-turn-limit-counts-turns.json");
    assert_eq!(g.turns_played(), 2);
    assert_eq!(g.outcome().unwrap().reason, Reason::TurnLimit);
    // The limit is an unsigned setting (a negative value cannot be given); 0 means none.
    let mut g = Splinter::standard(9, 10).unwrap();
    g.set_turn_limit(0);
    play(&mut g, &["d4-c3"]);
    assert!(!g.is_over());
    // A turn that ends the game keeps its own result at the limit.
    let mut g = example_start("20-two-knockouts-in-one-move.json");
    g.set_turn_limit(1);
    play(&mut g, &["e4-e5"]);
    assert_eq!(g.outcome().unwrap().reason, Reason::Knockouts);
}

#[test]
fn rule_8_5_resignation_and_agreement_load_with_their_winners() {
    let mut v = position::to_value(&Splinter::standard(9, 10).unwrap());
    v["result"] = json!({"winner": "white", "reason": "resignation"});
    let g = position::from_value(&v).unwrap();
    assert_eq!(
        g.game_result(),
        Some(crumble_core::GameResult::Win(Player::Second))
    );
    v["result"] = json!({"winner": null, "reason": "agreement"});
    assert_eq!(
        position::from_value(&v).unwrap().game_result(),
        Some(crumble_core::GameResult::Draw)
    );
}

#[test]
fn rule_8_6_to_move_names_the_next_player_also_after_the_end() {
    let g = final_of("25-turn-limit.json");
    assert_eq!(g.to_move(), Color::Black);
    assert!(g.last_move().is_some(), "last_move describes the last turn");
}

#[test]
fn rule_8_7_no_move_is_legal_after_the_end() {
    assert_eq!(
        refused("26-move-after-the-end-refused.json"),
        MoveError::GameOver
    );
    assert_eq!(
        refused("27-move-after-turn-limit-refused.json"),
        MoveError::GameOver
    );
    let mut v = position::to_value(&Splinter::standard(9, 10).unwrap());
    v["result"] = json!({"winner": "white", "reason": "knockouts"});
    let mut g = position::from_value(&v).unwrap();
    assert!(g.legal_move_texts().is_empty());
    let mut legal = vec![Decision(0)];
    g.legal_decisions_into(&mut legal);
    assert!(legal.is_empty());
    assert_eq!(g.apply(Decision(0)), Err(DecisionError::GameOver));
    assert_eq!(g.play_random_turn(&mut ChaCha8Rng::seed_from_u64(0)), 0);
}

#[test]
fn rule_8_8_random_play_draws_from_the_projects_seeded_generator() {
    // Uniformity over complete moves is tested in splinter_random.rs; here: one seed, one game.
    let game = |seed| {
        let mut g = Splinter::standard(5, 6).unwrap();
        g.set_turn_limit(50);
        g.play_random_game(&mut ChaCha8Rng::seed_from_u64(seed));
        position::to_json(&g)
    };
    assert_eq!(game(11), game(11));
}

// ------------------------------------------------------------------ 9. notation

#[test]
fn rule_9_1_squares_are_a_letter_and_a_rank_without_leading_zeros() {
    let b = Board::empty(15, 18);
    for bad in ["h09", "h0", "H9", "h", "9", "h9 ", "hh9", "h-9", ""] {
        assert!(notation::parse_square(&b, bad).is_err(), "{bad:?}");
    }
    assert_eq!(
        notation::square_name(&b, notation::parse_square(&b, "o18").unwrap()),
        "o18"
    );
}

#[test]
fn rule_9_2_a_move_is_from_dash_to_between_neighbours() {
    let g = Splinter::standard(15, 18).unwrap();
    let mv = notation::parse_move(g.board(), "f7-e6").unwrap();
    assert_eq!((mv.from, mv.dir), (sq(&g, "f7"), Dir::Sw));
    assert!(matches!(
        notation::parse_move(g.board(), "h9-h11"),
        Err(NotationError::NotOneStep { .. })
    ));
    assert!(matches!(
        notation::parse_move(g.board(), "h9-h9"),
        Err(NotationError::NotOneStep { .. })
    ));
}

#[test]
fn rule_9_3_the_suffix_is_required_exactly_when_groups_are_equal() {
    let g = example_start("15-tie-mover-keeps-first.json");
    assert_eq!(g.clone().play_text("e4-d3"), Err(MoveError::ChoiceMissing));
    assert_eq!(
        g.clone().play_text("e4-d3/e9"),
        Err(MoveError::ChoiceNotLargest {
            square: "e9".into()
        })
    );
    let plain = Splinter::standard(15, 18).unwrap();
    assert_eq!(
        plain.clone().play_text("h9-h10/h10"),
        Err(MoveError::ChoiceNotAllowed)
    );
    // Example 18: a smaller group's square is refused.
    let g = example_start("18-three-groups-two-tied.json");
    let small = g.legal_move_texts();
    assert!(small.iter().any(|t| t == "e5-e6/f2"));
}

#[test]
fn rule_9_4_lexical_refusals_and_huge_ranks() {
    let b = Board::empty(15, 18);
    for bad in [
        "H9-H10",
        "h09-h10",
        "h0-h1",
        "h9h10",
        "h9-h10+",
        "h9-h10 ",
        " h9-h10",
        "h9-h10\n",
        "h9 -h10",
        "h9-h10/",
        "h9-h10/f2/g3",
        "h9--h10",
        "h9-h10-h11",
        "é9-h10",
    ] {
        assert!(
            matches!(
                notation::parse_move(&b, bad),
                Err(NotationError::Syntax { .. } | NotationError::BadSquare { .. })
            ),
            "{bad:?}"
        );
    }
    for off in [
        "p5-o5",
        "h19-h18",
        "h99999999999999999999-h10",
        "h9-h10/z99999999999999999999999",
    ] {
        assert!(
            matches!(
                notation::parse_move(&b, off),
                Err(NotationError::OffBoard { .. })
            ),
            "{off:?}"
        );
    }
}

#[test]
fn rule_9_5_the_list_is_every_legal_move_once_sorted_bytewise() {
    let g = example_start("15-tie-mover-keeps-first.json");
    let list = g.legal_move_texts();
    assert!(list.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes()));
    assert!(list.contains(&"e4-d3/d3".into()) && list.contains(&"e4-d3/f4".into()));
    assert!(!list.contains(&"e4-d3".into()));
    // From the default start: 15 pieces, every direction on the board, none forbidden.
    let start = Splinter::standard(15, 18).unwrap();
    assert_eq!(start.legal_move_texts().len(), 120);
}

#[test]
fn rule_9_6_every_legal_move_prints_and_parses_back() {
    let g = example_start("18-three-groups-two-tied.json");
    for t in g.legal_move_texts() {
        let mv = notation::parse_move(g.board(), &t).unwrap();
        assert_eq!(
            notation::move_text(g.board(), &g.canonical(&mv).unwrap()),
            t
        );
    }
}

#[test]
fn rule_9_7_records_write_the_anchor() {
    let g = example_start("18-three-groups-two-tied.json");
    let mv = notation::parse_move(g.board(), "e5-e6/g4").unwrap();
    assert_eq!(
        notation::move_text(g.board(), &g.canonical(&mv).unwrap()),
        "e5-e6/f2"
    );
}

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
    let order = [
        "\"width\"",
        "\"height\"",
        "\"to_move\"",
        "\"pieces\"",
        "\"last_move\"",
        "\"result\"",
    ];
    let at: Vec<usize> = order.iter().map(|k| text.find(k).unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
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
    let one = |p: Value| with("pieces", json!([p]));
    refuse(
        &one(json!({"square": "a1", "color": "black"})),
        "pieces[0].type: missing",
    );
    refuse(
        &one(json!({"square": "a1", "color": "black", "type": "pawn", "x": 1})),
        "pieces[0].x: unknown key",
    );
    refuse(
        &one(json!({"square": "f1", "color": "black", "type": "pawn"})),
        "pieces[0].square: square f1 is off",
    );
    refuse(
        &one(json!({"square": "a01", "color": "black", "type": "pawn"})),
        "pieces[0].square",
    );
    refuse(
        &one(json!({"square": "a99999999999999999999", "color": "black", "type": "pawn"})),
        "off the 5x6 board",
    );
    refuse(
        &one(json!({"square": "a1", "color": "red", "type": "pawn"})),
        "pieces[0].color: \"red\"",
    );
    refuse(
        &one(json!({"square": "a1", "color": "black", "type": "Pawn"})),
        "pieces[0].type: \"Pawn\"",
    );
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
    let mut swapped = crumble_core::splinter::symmetry::swap_colors(&g);
    assert_eq!(swapped.to_move(), g.to_move().opposite());
    let mut orig = g.clone();
    play(&mut orig, &["e5-e6"]);
    play(&mut swapped, &["e5-e6"]);
    let w = orig.outcome().unwrap().winner.unwrap();
    assert_eq!(swapped.outcome().unwrap().winner, Some(w.opposite()));
}

#[test]
fn rule_11_4_maps_that_keep_the_start() {
    use crumble_core::splinter::symmetry::swap_colors;
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
