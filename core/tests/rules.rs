//! One or more tests per numbered rule of games/crumble/RULES.md that the worked examples
//! (`tests/examples.rs`) do not already pin down.

use crumble_core::GameState as _;
use crumble_core::games::crumble::notation::{self, Frame};
use crumble_core::games::crumble::position;
use crumble_core::games::crumble::{Crumble, Cut, DecisionKind, Outcome, Phase, Reason, Rect};
use crumble_core::{Color, Decision};

fn play(game: &mut Crumble, moves: &[&str]) {
    for m in moves {
        let mv =
            notation::parse_move(game, m, Frame::PerPlayer).unwrap_or_else(|e| panic!("{m}: {e}"));
        game.play_move(&mv).unwrap();
    }
}

fn json_game(
    n: u16,
    r: u16,
    to_move: &str,
    pieces: &[(u16, u16, u16, u16, &str)],
) -> Result<Crumble, position::PositionError> {
    let ps: Vec<String> = pieces
        .iter()
        .map(|(x, y, w, h, c)| {
            format!(r#"{{"x": {x}, "y": {y}, "w": {w}, "h": {h}, "color": "{c}"}}"#)
        })
        .collect();
    position::from_json(&format!(
        r#"{{"board": {n}, "resolution": {r}, "to_move": "{to_move}", "pieces": [{}], "result": null}}"#,
        ps.join(", ")
    ))
}

/// A board of unit-cell squares coloured by `rows` (top row first, 'b'/'w').
fn cells(rows: &[&str], to_move: &str) -> Crumble {
    let n = rows.len() as u16;
    let mut pieces = Vec::new();
    for (j, row) in rows.iter().rev().enumerate() {
        for (i, ch) in row.chars().enumerate() {
            pieces.push((
                i as u16 * 2,
                j as u16 * 2,
                2,
                2,
                if ch == 'b' { "black" } else { "white" },
            ));
        }
    }
    json_game(n, 2, to_move, &pieces).unwrap()
}

#[test]
fn rule_1_1_sizes_out_of_range_are_refused() {
    for (n, r) in [(1, 8), (33, 1), (6, 3), (6, 128), (32, 64), (0, 8), (6, 0)] {
        assert!(Crumble::new(n, r).is_err(), "{n}x{n} R={r} accepted");
    }
    for (n, r) in [(2, 1), (6, 8), (8, 8), (32, 32), (16, 64)] {
        assert!(Crumble::new(n, r).is_ok(), "{n}x{n} R={r} refused");
    }
}

#[test]
fn rule_1_4_start_position() {
    let g = Crumble::new(6, 8).unwrap();
    let b = g.board();
    assert_eq!(b.piece_count(), 36);
    for p in b.sorted_pieces() {
        let (i, j) = (p.rect.x / 8, p.rect.y / 8);
        assert_eq!(p.rect, Rect::new(i * 8, j * 8, 8, 8));
        assert_eq!(p.color == Color::Black, (i + j) % 2 == 1);
    }
    // Black holds the upper-left and lower-right corners; odd N: all corners white.
    assert_eq!(b.piece_at(0, 47).color, Color::Black);
    assert_eq!(b.piece_at(47, 0).color, Color::Black);
    let odd = Crumble::new(5, 4).unwrap();
    for (x, y) in [(0, 0), (19, 0), (0, 19), (19, 19)] {
        assert_eq!(odd.board().piece_at(x, y).color, Color::White);
    }
}

#[test]
fn rule_1_5_black_moves_first_and_players_alternate() {
    let mut g = Crumble::new(6, 8).unwrap();
    assert_eq!(g.to_move(), Color::Black);
    play(&mut g, &["1H"]);
    assert_eq!(g.to_move(), Color::White);
    play(&mut g, &["0H"]);
    assert_eq!(g.to_move(), Color::Black);
}

#[test]
fn rule_4_1_1_squares_split_both_ways_rectangles_across_the_long_side() {
    let mut g = Crumble::new(6, 8).unwrap();
    let gs = g.grid_size();
    let legal = g.legal_decisions();
    // 18 black squares, each with an H and a V split; no joins at the start.
    assert_eq!(legal.len(), 36);
    assert!(legal.contains(&Decision::encode(
        DecisionKind::Split {
            cut: Cut::H,
            x: 8,
            y: 0
        },
        gs
    )));
    assert!(legal.contains(&Decision::encode(
        DecisionKind::Split {
            cut: Cut::V,
            x: 8,
            y: 0
        },
        gs
    )));
    play(&mut g, &["1H", "0H"]);
    // Black's 8x4 rectangle at (8, 0) splits only vertically, into two squares.
    let legal = g.legal_decisions();
    assert!(legal.contains(&Decision::encode(
        DecisionKind::Split {
            cut: Cut::V,
            x: 8,
            y: 0
        },
        gs
    )));
    assert!(!legal.contains(&Decision::encode(
        DecisionKind::Split {
            cut: Cut::H,
            x: 8,
            y: 0
        },
        gs
    )));
}

#[test]
fn rule_4_1_5_and_5_3_nothing_splits_below_the_grid() {
    // R = 1: unit squares cannot split; on 2x2 there is no join either: drawn at once.
    let mut g = Crumble::new(2, 1).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::NoSplitOrJoin)));
    assert!(g.legal_decisions().is_empty());
    // On 3x3 R=1 Black can still join nothing and split nothing: also drawn.
    let g = Crumble::new(3, 1).unwrap();
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::NoSplitOrJoin));
    // A 2x1 rectangle at R = 1 splits into two unit squares.
    let mut g = json_game(
        2,
        1,
        "black",
        &[
            (0, 0, 2, 1, "black"),
            (0, 1, 1, 1, "white"),
            (1, 1, 1, 1, "white"),
        ],
    )
    .unwrap();
    assert!(!g.is_over());
    play(&mut g, &["0V"]);
    assert_eq!(g.board().piece_count(), 4);
}

#[test]
fn rule_4_1_2_any_contiguous_run_of_a_cut() {
    let mut g = cells(&["bbbb", "wwww", "bbbb", "wwww"], "black");
    // Bottom black row y = 2..4 (units), cut line y = 3: runs of 1..4 squares, from any start.
    let moves: Vec<String> = g
        .base_moves()
        .iter()
        .map(|m| notation::format_move(&g, m, Frame::PerPlayer).unwrap())
        .collect();
    for m in [
        "0,1H", "0,1H2", "0,1H3", "0,1H4", "1,1H", "1,1H2", "1,1H3", "2,1H2", "3,1H",
    ] {
        assert!(moves.iter().any(|x| x == m), "{m} missing from {moves:?}");
    }
    assert!(!moves.iter().any(|x| x == "0,1H5" || x == "3,1H2"));
    play(&mut g, &["1,1H2"]);
    assert_eq!(g.board().piece_count(), 18);
}

#[test]
fn rule_4_2_join_outlines_and_fresh_piece() {
    let mut g = cells(&["bbw", "bbw", "wbw"], "black");
    assert!(g.outcome().is_none());
    // A 2x2 block of black unit squares and one more below: four 1:2 pairs in the block, the
    // square, and the pair below; nothing holding a white piece.
    let mut joins: Vec<String> = g
        .base_moves()
        .iter()
        .filter(|m| matches!(m.base, crumble_core::games::crumble::Base::Join { .. }))
        .map(|m| notation::format_move(&g, m, Frame::PerPlayer).unwrap())
        .collect();
    joins.sort();
    assert_eq!(
        joins,
        [
            "0,1J1,2", "0,1J2,1", "0,1J2,2", "0,2J2,1", "1,1J1,2", "1J1,2"
        ]
    );
    play(&mut g, &["0,1J2,2"]);
    assert!(
        g.board()
            .sorted_pieces()
            .iter()
            .any(|p| p.rect == Rect::new(0, 2, 4, 4) && p.color == Color::Black)
    );
}

#[test]
fn rule_4_3_swap_continues_stops_and_ends() {
    let mut g = Crumble::new(6, 8).unwrap();
    let mv = notation::parse_move(&g, "1H", Frame::PerPlayer).unwrap();
    let path = g.play_move(&mv).unwrap();
    // The north half could step north, so the turn ends with an explicit stop.
    assert_eq!(path.len(), 3);
    assert_eq!(path[2], Decision::stop(g.grid_size()));
    // A step into the mover's own piece is refused: east of (1,1) is black.
    let g = Crumble::new(6, 8).unwrap();
    assert!(notation::parse_move(&g, "1HNE", Frame::PerPlayer).is_err());
    // Several steps in one swap (White's S, W, S after 1HN), each one a decision.
    let mut g = Crumble::new(6, 8).unwrap();
    play(&mut g, &["1HN"]);
    let mv = notation::parse_move(&g, "5,5HSWS", Frame::PerPlayer).unwrap();
    assert_eq!(mv.swap.as_ref().unwrap().steps.len(), 3);
    // Choose, extent, three steps; no stop: after the third step no target is left.
    assert_eq!(g.play_move(&mv).unwrap().len(), 2 + 3);
    assert_eq!(g.to_move(), Color::Black);
}

#[test]
fn rule_3_6_loading_resolves_captures_wins_and_keeps_results() {
    // A black ring away from the edge around a white centre: the ring is surrounded by the
    // white border and flips, then the centre does; an all-white board is White's win.
    let g = cells(&["wwwww", "wbbbw", "wbwbw", "wbbbw", "wwwww"], "black");
    assert!(
        g.board()
            .sorted_pieces()
            .iter()
            .all(|p| p.color == Color::White)
    );
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: Reason::FourSides
        })
    );
    // A loaded result is kept and no move is legal after it.
    let text = position::to_json(&Crumble::new(6, 8).unwrap()).replace(
        r#""result": null"#,
        r#""result": {"winner": "white", "reason": "resignation"}"#,
    );
    let mut g = position::from_json(&text).unwrap();
    assert!(g.is_over());
    assert!(g.legal_decisions().is_empty());
    assert!(g.apply(Decision(0)).is_err());
    // Inconsistent results are refused.
    for bad in [
        r#"{"winner": null, "reason": "four-sides"}"#,
        r#"{"winner": "black", "reason": "agreement"}"#,
        r#"{"winner": "black", "reason": "checkmate"}"#,
    ] {
        let t = position::to_json(&Crumble::new(6, 8).unwrap())
            .replace(r#""result": null"#, &format!(r#""result": {bad}"#));
        assert!(position::from_json(&t).is_err(), "{bad} accepted");
    }
}

#[test]
fn rule_5_4_turn_limit_and_5_6_to_move_after_the_end() {
    let mut g = Crumble::new(6, 8).unwrap();
    g.set_max_turns(2);
    play(&mut g, &["1H", "0H"]);
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::TurnLimit)));
    assert_eq!(g.to_move(), Color::Black);
    assert_eq!(g.phase(), Phase::Over);
    assert!(g.decider().is_none());
}

#[test]
fn rule_5_5_resignation_and_agreement_are_results() {
    for (o, want) in [
        (
            Outcome {
                winner: Some(Color::White),
                reason: Reason::Resignation,
            },
            r#"{"winner":"white","reason":"resignation"}"#,
        ),
        (
            Outcome::draw(Reason::Agreement),
            r#"{"winner":null,"reason":"agreement"}"#,
        ),
    ] {
        let mut g = Crumble::new(6, 8).unwrap();
        play(&mut g, &["1HN"]);
        g.finish(o);
        assert!(g.is_over());
        let json = position::to_json(&g);
        let back = position::from_json(&json).unwrap();
        assert_eq!(back.outcome(), Some(o));
        assert_eq!(position::outcome_json(Some(o)).to_string(), want);
    }
}

/// Rule 6.8 and the parser's acceptances and refusals of rule 6.5, as (input, expected) pairs.
#[test]
fn rule_6_lexical_rules_and_forms() {
    let g = Crumble::new(6, 8).unwrap();
    let ok = |s: &str| {
        notation::parse_move(&g, s, Frame::PerPlayer)
            .map(|m| notation::format_move(&g, &m, Frame::PerPlayer).unwrap())
    };
    for (input, canonical) in [
        ("1HN", "1HN"),
        ("1 H N", "1HN"),
        (" 1HN+", "1HN"),
        ("1HN++", "1HN"),
        ("1HN-N", "1HN"), // a half written but not needed
        ("1/6H", "1H"),
        ("1/6, 0H", "1H"),
        ("2/12H", "1H"),
    ] {
        assert_eq!(
            ok(input).unwrap_or_else(|e| panic!("{input}: {e}")),
            canonical,
            "{input}"
        );
    }
    assert!(
        ok("0,0,1H")
            .unwrap_err()
            .to_string()
            .contains("only the first number may be 0")
    );
    // `0,0` is accepted as the origin: White's own origin piece after Black's first move.
    let mut w = Crumble::new(6, 8).unwrap();
    play(&mut w, &["1H"]);
    let a = notation::parse_move(&w, "0,0H", Frame::PerPlayer).unwrap();
    assert_eq!(
        notation::format_move(&w, &a, Frame::PerPlayer).unwrap(),
        "0H"
    );
    for bad in [
        "1h", "１H", "1HN+++", "1HN-", "1H1", "1HE-N", "1H-1N-N", "", "H", "1X", "1HN+N", "1HQ",
        "99H", "1/7H", "1,0H",
    ] {
        assert!(ok(bad).is_err(), "'{bad}' accepted");
    }
    // Errors say where.
    let e = notation::parse_move(&g, "1Hx", Frame::PerPlayer).unwrap_err();
    assert_eq!(e.span, Some((2, 3)));
    // In characters, not bytes: the full-width digit is one character of three bytes, and
    // so is the 'é' before it.
    let e = notation::parse_move(&g, "é1H１", Frame::PerPlayer).unwrap_err();
    assert!(e.span.is_some_and(|(a, _)| a <= 1), "{e:?}");
    let e = notation::parse_move(&g, "1H１", Frame::PerPlayer).unwrap_err();
    assert_eq!(e.span, Some((2, 3)), "{e}");
    assert!(e.to_string().ends_with("(at character 3)"), "{e}");
}

#[test]
fn rule_6_5_long_split_swaps_name_their_piece() {
    let mut g = cells(&["bwbw", "wbwb", "bbbb", "wbwb"], "black");
    let parse = |g: &Crumble, s: &str| notation::parse_move(g, s, Frame::PerPlayer);
    assert!(
        parse(&g, "0,1H3N").is_err(),
        "a long split's swap needs -number half-"
    );
    assert!(
        parse(&g, "0,1H3-2N-N").is_err(),
        "north of piece 2 is Black's own"
    );
    let mv = parse(&g, "0,1H3-3N-N").unwrap();
    assert_eq!(
        notation::format_move(&g, &mv, Frame::PerPlayer).unwrap(),
        "0,1H3-3N-N"
    );
    play(&mut g, &["0,1H3-3N-N"]);
    assert_eq!(g.board().piece_at(4, 4).color, Color::Black);
}

#[test]
fn rule_6_1_canonical_staircase_prefers_fewest_numbers_then_smallest_sum() {
    let mut g = Crumble::new(6, 8).unwrap();
    play(&mut g, &["1HN", "5,5HSWS"]);
    // Every printed move parses back to itself, and no printed position starts with a
    // longer staircase than needed: spot-check all base moves of this position.
    let moves = g.base_moves();
    let mut f = notation::Formatter::new(&g, Frame::PerPlayer);
    for m in &moves {
        let s = f.format(&g, m).unwrap();
        assert_eq!(
            notation::parse_move(&g, &s, Frame::PerPlayer).unwrap(),
            *m,
            "{s}"
        );
        let pos: String = s
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .collect();
        assert!(
            pos.split(',').count() <= 3,
            "{s}: staircase longer than needed on a near-grid board"
        );
    }
}
