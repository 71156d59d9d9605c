//! Tests of `position`.

use super::*;

/// A position text from a list of pieces `(x, y, w, h, black?)`.
fn position(
    n: u32,
    r: u32,
    to_move: &str,
    pieces: &[(u32, u32, u32, u32, bool)],
    result: &str,
) -> String {
    let list: Vec<String> = pieces
        .iter()
        .map(|&(x, y, w, h, b)| {
            format!(
                r#"{{"x": {x}, "y": {y}, "w": {w}, "h": {h}, "color": "{}"}}"#,
                if b { "black" } else { "white" }
            )
        })
        .collect();
    format!(
        r#"{{"board": {n}, "resolution": {r}, "to_move": "{to_move}", "pieces": [{}], "result": {result}}}"#,
        list.join(", ")
    )
}

/// The standard start of an `n`×`n` board at `r` as piece tuples.
fn start(n: u32, r: u32) -> Vec<(u32, u32, u32, u32, bool)> {
    let mut v = Vec::new();
    for j in 0..n {
        for i in 0..n {
            v.push((i * r, j * r, r, r, (i + j) % 2 == 1));
        }
    }
    v
}

/// Loading `text` fails with a message containing every one of `parts`.
fn refused(text: &str, parts: &[&str]) {
    match from_json(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => {
            let msg = e.to_string();
            for p in parts {
                assert!(msg.contains(p), "message {msg:?} lacks {p:?}");
            }
        }
    }
}

#[test]
fn standard_start_round_trips() {
    for (n, r) in [(6, 8), (8, 8), (2, 1), (3, 4)] {
        let game = Crumble::new(n, r).unwrap();
        let text = to_json(&game);
        let back = from_json(&text).unwrap();
        assert_eq!(back, game);
        assert_eq!(to_json(&back), text, "output is stable");
    }
}

#[test]
fn layout_is_one_piece_per_line() {
    let text = to_json(&Crumble::new(2, 1).unwrap());
    let want = r#"{
  "board": 2,
  "resolution": 1,
  "to_move": "black",
  "pieces": [
    {"x": 0, "y": 0, "w": 1, "h": 1, "color": "white"},
    {"x": 1, "y": 0, "w": 1, "h": 1, "color": "black"},
    {"x": 0, "y": 1, "w": 1, "h": 1, "color": "black"},
    {"x": 1, "y": 1, "w": 1, "h": 1, "color": "white"}
  ],
  "result": {"winner": null, "reason": "no-split-or-join"}
}
"#;
    assert_eq!(text, want);
}

#[test]
fn fig2_position_reads_and_writes_back() {
    // The position after 1HN (RULES.md 7.1), written in file order as the examples do.
    let mut p = start(6, 8);
    p[1] = (8, 0, 8, 4, true);
    p.insert(6, (8, 4, 8, 4, false));
    p[8].4 = true; // cell (1, 1) is black now
    let text = position(6, 8, "white", &p, "null");
    let game = from_json(&text).unwrap();
    let out = to_json(&game);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap(),
        serde_json::from_str::<Value>(&text).unwrap()
    );
    let keys: Vec<String> = serde_json::from_str::<Value>(&out)
        .unwrap()
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["board", "resolution", "to_move", "pieces", "result"]);
    assert!(out.contains("    {\"x\": 8, \"y\": 0, \"w\": 8, \"h\": 4, \"color\": \"black\"},\n"));
}

#[test]
fn midgame_file_is_live_and_canonical() {
    let game = from_json(MIDGAME_6X6_JSON).unwrap();
    assert!(!game.is_over());
    assert_eq!(
        (game.board().board_size(), game.board().resolution()),
        (6, 8)
    );
    assert_eq!(to_json(&game), MIDGAME_6X6_JSON);
}

#[test]
fn pieces_in_any_order_and_missing_result() {
    let mut p = start(3, 2);
    p.reverse();
    let text = position(3, 2, "black", &p, "null").replace(r#", "result": null"#, "");
    let game = from_json(&text).unwrap();
    assert_eq!(game, Crumble::new(3, 2).unwrap());
}

#[test]
fn results_are_read_and_kept() {
    let text = position(
        6,
        8,
        "white",
        &start(6, 8),
        r#"{"winner": "black", "reason": "resignation"}"#,
    );
    let game = from_json(&text).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::Resignation
        })
    );
    assert!(game.is_over());
    assert!(to_json(&game).contains(r#""result": {"winner": "black", "reason": "resignation"}"#));
    let text = position(
        6,
        8,
        "black",
        &start(6, 8),
        r#"{"winner": null, "reason": "agreement"}"#,
    );
    assert_eq!(
        from_json(&text).unwrap().outcome(),
        Some(Outcome::draw(Reason::Agreement))
    );
}

#[test]
fn refuses_malformed_json() {
    refused("{\"board\": 6,", &["malformed JSON", "line 1"]);
    refused("[1, 2]", &["expected an object"]);
    let ok = position(2, 2, "black", &start(2, 2), "null");
    refused(
        &ok.replace(r#""board": 2,"#, r#""board": 2, "board": 3,"#),
        &["malformed JSON", "duplicate key \"board\"", "column"],
    );
    refused(
        &ok.replacen(r#""x": 0,"#, r#""x": 0, "x": 2,"#, 1),
        &["duplicate key \"x\""],
    );
}

#[test]
fn refuses_sizes_out_of_range() {
    refused(&position(99, 8, "black", &[], "null"), &["board size 99"]);
    refused(&position(1, 8, "black", &[], "null"), &["board size 1"]);
    refused(&position(6, 3, "black", &[], "null"), &["resolution 3"]);
    refused(&position(32, 64, "black", &[], "null"), &["exceeds 1024"]);
    refused(
        r#"{"board": 99999999999, "resolution": 8, "to_move": "black", "pieces": []}"#,
        &["out of range"],
    );
    refused(
        r#"{"board": 6.5, "resolution": 8, "to_move": "black", "pieces": []}"#,
        &["\"board\" is 6.5, not an integer"],
    );
    // A whole number written as a float is not "out of range": it must be an integer.
    for six in ["6.0", "6e0"] {
        refused(
            &format!(r#"{{"board": {six}, "resolution": 8, "to_move": "black", "pieces": []}}"#),
            &["\"board\" is 6", "must be an integer"],
        );
    }
    refused(
        r#"{"board": 1e30, "resolution": 8, "to_move": "black", "pieces": []}"#,
        &["far out of range"],
    );
}

#[test]
fn refuses_unknown_and_missing_keys() {
    let ok = position(2, 2, "black", &start(2, 2), "null");
    refused(
        &ok.replace(r#""board""#, r#""colour": 1, "board""#),
        &["position: unknown key \"colour\""],
    );
    refused(
        &ok.replace(r#""to_move": "black", "#, ""),
        &["missing key \"to_move\""],
    );
    refused(
        &ok.replacen(r#""color": "white""#, r#""color": "white", "z": 0"#, 1),
        &["pieces[0]", "unknown key \"z\""],
    );
    refused(
        &ok.replacen(r#", "color": "white""#, "", 1),
        &["pieces[0]", "missing key \"color\""],
    );
    refused(
        &ok.replace(
            "\"result\": null",
            r#""result": {"winner": null, "reason": "agreement", "when": 3}"#,
        ),
        &["result: unknown key \"when\""],
    );
    refused(
        &ok.replace(r#""to_move": "black""#, r#""to_move": "red""#),
        &["\"to_move\" is \"red\""],
    );
}

#[test]
fn refuses_bad_coordinates() {
    let mut p = start(2, 2);
    p[1].0 = 5; // x = 5 on a 4-unit board
    refused(
        &position(2, 2, "black", &p, "null"),
        &["pieces[1]", "leaves the board", "4 units"],
    );
    let text = position(2, 2, "black", &start(2, 2), "null").replacen(r#""x": 0"#, r#""x": -2"#, 1);
    refused(&text, &["pieces[0]", "\"x\" is -2, a negative number"]);
    let text =
        position(2, 2, "black", &start(2, 2), "null").replacen(r#""y": 0"#, r#""y": 0.5"#, 1);
    refused(&text, &["pieces[0]", "\"y\" is 0.5, not an integer"]);
    let text =
        position(2, 2, "black", &start(2, 2), "null").replacen(r#""w": 2"#, r#""w": "2""#, 1);
    refused(&text, &["pieces[0]", "\"w\" is a string"]);
}

#[test]
fn refuses_bad_shapes_and_sizes() {
    // 3x1 piece plus the rest of a 4x4 board.
    let p = [
        (0, 0, 3, 1, true),
        (3, 0, 1, 1, false),
        (0, 1, 2, 2, true),
        (2, 1, 2, 2, false),
        (0, 3, 1, 1, true),
    ];
    refused(
        &position(2, 2, "black", &p, "null"),
        &["pieces[0]", "3x1", "neither a square nor a 1:2 rectangle"],
    );
    let p = [(0, 0, 0, 2, true)];
    refused(
        &position(2, 2, "black", &p, "null"),
        &["pieces[0]", "w >= 1 and h >= 1"],
    );
}

#[test]
fn refuses_overlaps_naming_both_pieces_and_the_cell() {
    let mut p = start(2, 2);
    p.push((1, 1, 2, 2, true));
    refused(
        &position(2, 2, "black", &p, "null"),
        &[
            "pieces[0]",
            "pieces[4]",
            "overlap at unit cell (1, 1)",
            r#""w":2"#,
        ],
    );
}

#[test]
fn refuses_gaps_naming_the_cell() {
    let mut p = start(2, 2);
    p.remove(3); // the piece at (2, 2)
    refused(
        &position(2, 2, "black", &p, "null"),
        &["unit cell (2, 2) is not covered"],
    );
    refused(
        &position(2, 2, "black", &[], "null"),
        &["unit cell (0, 0) is not covered"],
    );
}

#[test]
fn refuses_inconsistent_results() {
    let s = start(2, 2);
    refused(
        &position(
            2,
            2,
            "black",
            &s,
            r#"{"winner": null, "reason": "four-sides"}"#,
        ),
        &["result:", "\"four-sides\" needs a winner"],
    );
    refused(
        &position(
            2,
            2,
            "black",
            &s,
            r#"{"winner": null, "reason": "resignation"}"#,
        ),
        &["\"resignation\" needs a winner"],
    );
    refused(
        &position(
            2,
            2,
            "black",
            &s,
            r#"{"winner": "white", "reason": "turn-limit"}"#,
        ),
        &["\"turn-limit\" is a draw", "not \"white\""],
    );
    refused(
        &position(
            2,
            2,
            "black",
            &s,
            r#"{"winner": "white", "reason": "checkmate"}"#,
        ),
        &["unknown reason \"checkmate\""],
    );
    refused(
        &position(2, 2, "black", &s, r#"{"reason": "agreement"}"#),
        &["result: missing key \"winner\""],
    );
    refused(
        &position(2, 2, "black", &s, r#""draw""#),
        &["\"result\" is a string"],
    );
}

#[test]
fn loading_resolves_captures_and_wins() {
    // 3x3 board, R = 1: a white centre inside a black ring is captured on load, and then
    // black's ring touches all four sides: a win.
    let mut p = Vec::new();
    for y in 0..3 {
        for x in 0..3 {
            p.push((x, y, 1, 1, (x, y) != (1, 1)));
        }
    }
    let game = from_json(&position(3, 1, "white", &p, "null")).unwrap();
    assert_eq!(game.board().piece_at(1, 1).color, Color::Black);
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::FourSides
        })
    );
}

#[test]
fn outcome_helpers() {
    assert_eq!(outcome_json(None), Value::Null);
    let o = Some(Outcome {
        winner: Some(Color::White),
        reason: Reason::FourSides,
    });
    assert_eq!(
        outcome_json(o).to_string(),
        r#"{"winner":"white","reason":"four-sides"}"#
    );
    assert_eq!(
        outcome_text(o),
        r#"{"winner": "white", "reason": "four-sides"}"#
    );
    assert_eq!(
        outcome_text(Some(Outcome::draw(Reason::TurnLimit))),
        r#"{"winner": null, "reason": "turn-limit"}"#
    );
}
