//! End-to-end tests of the `crumble` binary: output formats, exit statuses, determinism.

mod common;
use common::{crumble, json, refused, stderr, stdout, temp_file_of};

use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

#[test]
fn replay_prints_the_expected_position() {
    let want = std::fs::read_to_string(data("after-1HN.json")).unwrap();
    let o = crumble(&["replay", "1HN"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&stdout(&o)), json(&want));
    // Also byte for byte: the output format is fixed.
    assert_eq!(stdout(&o), want);
}

#[test]
fn replay_in_both_frames() {
    let want = json(&std::fs::read_to_string(data("after-1HN-5,5HSWS.json")).unwrap());
    let o = crumble(&["replay", "1HN", "5,5HSWS"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&stdout(&o)), want);
    let o = crumble(&["replay", "--frame", "absolute", "1HN", "0HNEN"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&stdout(&o)), want);
}

#[test]
fn replay_from_a_position_file_round_trips() {
    let o = crumble(&[
        "replay",
        "--position",
        data("after-1HN.json").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        std::fs::read_to_string(data("after-1HN.json")).unwrap()
    );
    let o = crumble(&[
        "replay",
        "--position",
        data("after-1HN.json").to_str().unwrap(),
        "5,5HSWS",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        json(&stdout(&o)),
        json(&std::fs::read_to_string(data("after-1HN-5,5HSWS.json")).unwrap())
    );
}

#[test]
fn replay_refuses_bad_moves_naming_index_and_text() {
    // Unparsable.
    refused(&["replay", "1HN", "5,5HSWX"], &["move 2", "5,5HSWX"]);
    // Parsable but illegal: the step straight back south breaks the loop guard (RULES 4.3.4);
    // a split of the opponent's piece.
    refused(&["replay", "1HNS"], &["move 1", "1HNS"]);
    refused(&["replay", "0H"], &["move 1", "0H"]);
    refused(&["replay", "1HN", "1hn"], &["move 2", "1hn"]);
}

#[test]
fn bad_position_files_are_refused() {
    // A position file, the command given it and what its refusal says.
    let cases = [
        (
            "malformed.json",
            "{\"board\": 6,",
            "replay",
            "malformed JSON",
        ),
        (
            "gap.json",
            r#"{"board": 2, "resolution": 1, "to_move": "black", "pieces": [{"x": 0, "y": 0, "w": 1, "h": 1, "color": "white"}]}"#,
            "moves",
            "unit cell (1, 0) is not covered",
        ),
        (
            "overlap.json",
            r#"{"board": 2, "resolution": 1, "to_move": "black", "pieces": [{"x": 0, "y": 0, "w": 2, "h": 2, "color": "white"}, {"x": 1, "y": 1, "w": 1, "h": 1, "color": "black"}]}"#,
            "replay",
            "overlap at unit cell (1, 1)",
        ),
        (
            "shape.json",
            r#"{"board": 2, "resolution": 1, "to_move": "black", "pieces": [{"x": 0, "y": 0, "w": 2, "h": 2, "color": "white"}, {"x": 0, "y": 0, "w": 3, "h": 1, "color": "white"}]}"#,
            "random-game",
            "pieces[1]",
        ),
        (
            "size.json",
            r#"{"board": 99, "resolution": 8, "to_move": "black", "pieces": []}"#,
            "replay",
            "board size 99",
        ),
    ];
    for (name, text, command, says) in cases {
        let file = temp_file_of("cli-test", name, text);
        refused(&[command, "--position", file.to_str().unwrap()], &[says]);
    }
    refused(
        &["replay", "--position", "/nonexistent/crumble.json"],
        &["cannot read position file"],
    );
}

#[test]
fn bad_flags_are_refused() {
    refused(&["replay", "--board", "99"], &["board size 99"]);
    refused(&["moves", "--resolution", "3"], &["resolution 3"]);
    refused(
        &["moves", "--board", "32", "--resolution", "64"],
        &["exceeds 1024"],
    );
    refused(&["replay", "--frame", "sideways"], &["sideways"]);
    refused(&["replay", "--board", "-1"], &[]);
    refused(&["random-game", "--seed", "x"], &[]);
    refused(
        &["replay", "--position", "x.json", "--board", "8"],
        &[
            "--board 8 names a standard start",
            "a --position file has its own size",
        ],
    );
    refused(&["frobnicate"], &[]);
    refused(&["bench", "rules", "--seconds", "0"], &["--seconds"]);
    refused(&["bench", "rules", "--seconds=-1"], &["--seconds"]);
}

#[test]
fn moves_are_sorted_bytewise_and_complete() {
    let o = crumble(&["moves"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    // The start: 18 black squares, each with an H and a V split, no joins.
    assert_eq!(lines.len(), 36);
    assert!(
        lines.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes()),
        "not sorted: {lines:?}"
    );
    assert!(lines.contains(&"1H"), "{lines:?}");
    // Every listed move replays.
    for m in &lines {
        let o = crumble(&["replay", m]);
        assert!(o.status.success(), "move {m}: {}", stderr(&o));
    }
    // After moves, and in the mid-game position, still sorted and unique.
    for args in [
        &["moves", "1HN"][..],
        &["moves", "--frame", "absolute", "1HN"][..],
    ] {
        let o = crumble(args);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert!(!lines.is_empty());
        assert!(
            lines.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes()),
            "not sorted: {lines:?}"
        );
    }
}

#[test]
fn random_game_is_deterministic_and_ends_with_the_result() {
    let a = crumble(&["random-game", "--seed", "5"]);
    assert!(a.status.success(), "{}", stderr(&a));
    let b = crumble(&["random-game", "--seed", "5"]);
    assert_eq!(a.stdout, b.stdout);
    let out = stdout(&a);
    let last = out.lines().last().unwrap();
    let result = json(
        last.strip_prefix("# result: ")
            .unwrap_or_else(|| panic!("last line {last:?}")),
    );
    assert!(
        ["four-sides", "draw-rule", "no-split-or-join", "turn-limit"]
            .contains(&result["reason"].as_str().unwrap()),
        "{result}"
    );
    // The printed moves replay to a finished game with the same result.
    let moves: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!moves.is_empty() && moves.len() <= 200);
    let mut args = vec!["replay"];
    args.extend(&moves);
    let o = crumble(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let pos = json(&stdout(&o));
    if result["reason"] == "turn-limit" {
        assert!(pos["result"].is_null()); // replay sets no turn limit
    } else {
        assert_eq!(pos["result"], result);
    }
    // A different seed gives a different game; a turn limit is obeyed.
    assert_ne!(crumble(&["random-game", "--seed", "6"]).stdout, a.stdout);
    let o = crumble(&[
        "random-game",
        "--seed",
        "5",
        "--max-turns",
        "3",
        "--frame",
        "absolute",
    ]);
    let out = stdout(&o);
    assert!(out.lines().filter(|l| !l.starts_with('#')).count() <= 3);
    assert!(out.ends_with("\n") && out.lines().last().unwrap().starts_with("# result: "));
}

#[test]
fn bench_json_has_exactly_the_documented_keys() {
    let o = crumble(&["bench", "rules", "--json", "--seconds", "0.2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&stdout(&o));
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "cores",
            "games_per_sec_per_core",
            "mean_turns",
            "decisions_per_sec",
            "legal_start_us",
            "legal_mid_us",
            "capture_us"
        ]
    );
    assert!(v["cores"].as_u64().unwrap() >= 1);
    for k in [
        "games_per_sec_per_core",
        "mean_turns",
        "decisions_per_sec",
        "legal_start_us",
        "legal_mid_us",
        "capture_us",
    ] {
        assert!(v[k].as_f64().unwrap() > 0.0, "{k}: {}", v[k]);
    }
    let o = crumble(&["bench", "rules", "--seconds", "0.1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("cores"));
}
