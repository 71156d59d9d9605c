//! End-to-end tests of the `crumble` binary with `--game splinter`: `replay` on every worked
//! example of games/splinter/RULES.md, `moves`, `random-game`, `show` (terminal and SVG), `bench
//! rules`, and the refusals of bad moves, sizes and flags.

mod common;
use common::examples::{Examples, run, strings};
use common::{
    TempFile, crumble, json, moves_refused, ok, refused, replay_refused, stderr, stdout,
    temp_file_of,
};
use crumble_core::GameState;
use crumble_core::game::CompleteMoves;

use crumble_core::games::splinter::{Splinter, position};
use serde_json::Value;

const EXAMPLES: Examples = Examples {
    game: <Splinter as GameState>::NAME,
    size_keys: &["width", "height"],
};

fn example(name: &str) -> Value {
    EXAMPLES.get(name)
}

fn start_args(name: &str, case: &Value) -> (Vec<String>, Option<TempFile>) {
    EXAMPLES.start_args(name, case)
}

fn temp_file(name: &str, text: &str) -> TempFile {
    temp_file_of("splinter-test", name, text)
}

#[test]
fn replay_plays_every_worked_example() {
    EXAMPLES.replay_all(29, Value::clone);
}

#[test]
fn bad_moves_exit_2_naming_index_text_and_why() {
    let bad_moves = |moves: &[&str], parts: &[&str]| moves_refused("splinter", moves, parts);
    bad_moves(&["h9-h11"], &["move 1 (\"h9-h11\")", "not neighbours"]);
    bad_moves(
        &["h9-h10", "h11-h10"],
        &["move 2 (\"h11-h10\")", "no-return rule"],
    );
    bad_moves(&["h9-h10", "H11-H10"], &["move 2", "upper case"]);
    bad_moves(&["h9-h10 "], &["move 1", "white space"]);
    bad_moves(
        &["h99999999999999999999-h10"],
        &["move 1", "off the 15x18 board"],
    );
    bad_moves(&["h10-h11"], &["move 1", "no piece of the player to move"]);
    bad_moves(&["h9-h10/h11"], &["move 1", "no /SQUARE may be given"]);
    let case = example("17-tie-choice-missing-refused.json");
    let (args, _file) = start_args("17.json", &case);
    let mut all: Vec<&str> = vec!["replay"];
    all.extend(args.iter().map(String::as_str));
    all.push("e4-d3");
    refused(&all, &["move 1 (\"e4-d3\")", "equal largest groups"]);
    all.pop();
    all.push("e4-d3/e5");
    refused(&all, &["move 1", "e5"]);
    // A move after the end names the result.
    let case = example("26-move-after-the-end-refused.json");
    let (args, _file) = start_args("26.json", &case);
    let o = run("replay", &args, &strings(&case["moves"]));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(r#"move 4 ("d7-d6") refused: the game is over (result {"winner":"black","reason":"knockouts"})"#),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_sizes_and_flags_are_refused() {
    replay_refused(
        &["--game", "splinter", "--width", "4"],
        &["--width 4", "5 to 26 files"],
    );
    replay_refused(
        &["--game", "splinter", "--width", "27"],
        &["--width 27", "rule 2.1"],
    );
    replay_refused(
        &["--game", "splinter", "--height", "5"],
        &["--height 5", "6 to 26 ranks"],
    );
    replay_refused(
        &["--game", "splinter", "--height", "300"],
        &["--height 300"],
    );
    replay_refused(&["--game", "splinter", "--width=-1"], &["--width"]);
    // Crumble's own flags: every_game_cli.rs.
    replay_refused(&["--game", "splinter", "--max-turns=-1"], &["--max-turns"]);
    replay_refused(&["--game", "chess"], &["chess"]);
    replay_refused(&["--width", "9"], &["--width is a Splinter flag"]);
    replay_refused(&["--height", "10", "1HN"], &["--height is a Splinter flag"]);
    replay_refused(
        &["--max-turns", "4", "1HN"],
        &["--max-turns is not a Crumble flag"],
    );
    refused(&["moves", "--width", "9"], &["--width is a Splinter flag"]);
    refused(
        &["random-game", "--height", "9"],
        &["--height is a Splinter flag"],
    );
    refused(&["show", "--width", "9"], &["--width is a Splinter flag"]);
    refused(
        &["show", "--game", "splinter", "--view", "white"],
        &["--view turns the board, and Splinter draws its board one way"],
    );
    refused(
        &["random-game", "--game", "splinter", "--frame", "absolute"],
        &["--frame is a Crumble flag"],
    );
    // Position files: strict, the error names the key or square.
    let start = position::to_value(&Splinter::standard(9, 10).unwrap());
    let mut extra = start.clone();
    extra["colour"] = Value::from("black");
    let mut off = start.clone();
    off["pieces"][0]["square"] = Value::from("j1");
    let mut float = start.clone();
    float["width"] = serde_json::json!(9.0);
    for (name, v, part) in [
        ("extra.json", extra, "colour: unknown key"),
        ("off.json", off, "j1"),
        ("float.json", float, "width"),
    ] {
        let path = temp_file(name, &v.to_string());
        let p = path.to_str().unwrap();
        replay_refused(&["--game", "splinter", "--position", p], &["refused", part]);
        replay_refused(
            &["--game", "splinter", "--position", p, "--width", "9"],
            &["--position file has its own size"],
        );
    }
    replay_refused(
        &["--game", "splinter", "--position", "/nonexistent.json"],
        &["cannot read position file"],
    );
}

#[test]
fn moves_lists_every_legal_complete_move_sorted() {
    let out = ok(&["moves", "--game", "splinter"]);
    let lines: Vec<&str> = out.lines().collect();
    let start = Splinter::standard(15, 18).unwrap();
    assert_eq!(lines.len(), start.legal_moves().len());
    assert_eq!(lines, start.legal_move_texts());
    assert!(lines.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
    assert!(lines.contains(&"h9-h10") && !lines.contains(&"h10-h11"));
    // Equal largest groups: one line per group that may stay.
    let case = example("15-tie-mover-keeps-first.json");
    let (args, _file) = start_args("15m.json", &case);
    let o = run("moves", &args, &[]);
    let out = stdout(&o);
    let game = position::from_value(&case["start"]).unwrap();
    assert_eq!(out.lines().collect::<Vec<_>>(), game.legal_move_texts());
    assert!(out.lines().any(|l| l == "e4-d3/d3") && out.lines().any(|l| l == "e4-d3/f4"));
    assert!(!out.lines().any(|l| l == "e4-d3"));
    // After moves, and from the no-return state: h11-h10 is gone after h9-h10.
    let out = ok(&["moves", "--game", "splinter", "h9-h10"]);
    assert!(!out.lines().any(|l| l == "h11-h10") && out.lines().any(|l| l == "g11-g10"));
    // Nothing once the game is over (a win, or the turn limit), with a note on stderr.
    for name in ["19-knockouts-one-then-two.json", "25-turn-limit.json"] {
        let case = example(name);
        let (args, _file) = start_args(name, &case);
        let o = run("moves", &args, &strings(&case["moves"]));
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{name}: {}", stdout(&o));
        assert!(stderr(&o).contains("the game is over"), "{name}");
    }
}

/// The moves of a `random-game` output and its result line.
fn random_game(args: &[&str]) -> (Vec<String>, Value) {
    let mut all = vec!["random-game", "--game", "splinter"];
    all.extend(args);
    let out = ok(&all);
    let (body, result) = out
        .trim_end()
        .rsplit_once('\n')
        .map_or(("", out.trim_end()), |(b, r)| (b, r));
    let result = result.strip_prefix("# result: ").expect("a result line");
    (body.lines().map(str::to_string).collect(), json(result))
}

#[test]
fn random_game_is_deterministic_and_replays_to_its_result() {
    let small = ["--width", "9", "--height", "10", "--max-turns", "60"];
    let with = |seed: &'static str| -> Vec<&'static str> {
        small.iter().copied().chain(["--seed", seed]).collect()
    };
    let (a, ra) = random_game(&with("1"));
    assert_eq!(random_game(&with("1")), (a.clone(), ra.clone()));
    let (b, _) = random_game(&with("2"));
    assert_ne!(a, b, "another seed, another game");
    assert!(!a.is_empty() && a.len() <= 60);
    if a.len() < 60 {
        assert_ne!(ra["reason"], "turn-limit", "{ra}");
    }
    // The moves replay (each canonical) to a position whose result is the one printed.
    for (moves, result) in [(&a, &ra)] {
        let mut args = vec!["replay", "--game", "splinter"];
        args.extend(small);
        args.extend(moves.iter().map(String::as_str));
        let pos = json(&ok(&args));
        assert_eq!(&pos["result"], result);
        assert_ne!(pos["result"], Value::Null);
        let mut game = Splinter::standard(9, 10).unwrap();
        for m in moves.iter() {
            assert!(game.legal_move_texts().contains(m), "{m} is listed");
            game.play_text(m).unwrap();
        }
    }
    // The default board and turn limit (300); moves given first are played before.
    let (c, rc) = random_game(&["--seed", "5", "h9-h10"]);
    assert!(c.len() < 300 || rc["reason"] == "turn-limit", "{rc}");
    assert!(!c.is_empty() && c.len() <= 299, "{}", c.len());
    // A game already over prints only its result.
    let (none, r) = random_game(&["--max-turns", "1", "h9-h10"]);
    assert!(none.is_empty());
    assert_eq!(
        r,
        serde_json::json!({"winner": null, "reason": "turn-limit"})
    );
}

#[test]
fn show_draws_the_four_piece_kinds_and_the_last_move() {
    let out = ok(&["show", "--game", "splinter", "h9-h10"]);
    assert!(out.is_ascii() && !out.contains('\x1b'), "{out}");
    for kind in ["bK", "bR", "bB", "bP", "wK", "wR", "wB", "wP"] {
        assert!(out.contains(kind), "{kind}: {out}");
    }
    assert!(out.starts_with("18 "), "{out}");
    assert!(out.contains("\n     a   b   c "), "{out}");
    assert!(out.contains("[bK]") && out.contains("( n)"), "{out}");
    assert!(
        out.contains("White to move (turn 2); last move h9-h10 (black)"),
        "{out}"
    );
    // The kept group is written canonically.
    let case = example("18-three-groups-two-tied.json");
    let (args, _file) = start_args("18s.json", &case);
    let out = stdout(&run("show", &args, &strings(&case["moves"])));
    assert!(out.contains("last move e5-e6/f2 (black)"), "{out}");
    // A position file's own last move is highlighted without a move.
    let path = temp_file(
        "after-h9-h10.json",
        &ok(&["replay", "--game", "splinter", "h9-h10"]),
    );
    let out = ok(&[
        "show",
        "--game",
        "splinter",
        "--position",
        path.to_str().unwrap(),
    ]);
    assert!(out.contains("[wK]") && !out.contains("( n)"), "{out}");
    assert!(out.contains("last move direction n"), "{out}");
    let coloured = ok(&[
        "show",
        "--game",
        "splinter",
        "--color",
        "always",
        "--no-coords",
    ]);
    assert!(
        coloured.contains("\x1b[") && !coloured.contains(" a "),
        "{coloured}"
    );
    refused(
        &["show", "--game", "splinter", "h9-h10", "h11-h10"],
        &["move 2 (\"h11-h10\") refused"],
    );
}

#[test]
fn show_writes_svg_with_a_shape_per_piece_type() {
    let path = std::env::temp_dir().join(format!("crumble-splinter-{}.svg", std::process::id()));
    std::fs::remove_file(&path).ok();
    let p = path.to_str().unwrap();
    let o = crumble(&["show", "--game", "splinter", "h9-h10", "--svg", p]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<svg").count(), 1);
    assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
    let mut tags = Vec::new();
    for kind in ["king", "rook", "bishop", "pawn"] {
        let tag = |colour: &str| {
            let at = svg
                .find(&format!("class=\"piece {colour} {kind}\""))
                .unwrap_or_else(|| panic!("no {colour} {kind}"));
            let open = svg[..at].rfind('<').unwrap();
            svg[open..at].trim().to_string()
        };
        assert_eq!(tag("black"), tag("white"), "one shape per type");
        tags.push(tag("black"));
    }
    // The star and the cross are both polygons; the rook a square, the pawn a circle.
    assert_eq!(tags, ["<polygon", "<rect", "<polygon", "<circle"]);
    assert!(svg.contains("last move h9-h10 (black)"));
    assert_eq!(svg.matches("<rect class=\"moved\"").count(), 4);
    refused(
        &["show", "--game", "splinter", "--svg", p],
        &["the file exists; pass --force"],
    );
    ok(&["show", "--game", "splinter", "--svg", p, "--force"]);
    assert!(
        !std::fs::read_to_string(&path)
            .unwrap()
            .contains("class=\"moved\"")
    );
    std::fs::remove_file(&path).ok();
}

#[test]
fn bench_rules_json_has_the_documented_keys() {
    let out = ok(&[
        "bench",
        "rules",
        "--game",
        "splinter",
        "--json",
        "--width",
        "9",
        "--height",
        "10",
        "--seconds",
        "0.2",
    ]);
    let v = json(&out);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "game",
            "width",
            "height",
            "turn_limit",
            "cores",
            "games",
            "games_per_sec_per_core",
            "moves_per_sec_per_core",
            "decisions_per_sec_per_core",
            "mean_turns"
        ]
    );
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(9), Some(10))
    );
    assert_eq!(v["turn_limit"], 300);
    assert!(v["games"].as_u64().unwrap() >= 1);
    let moves = v["moves_per_sec_per_core"].as_f64().unwrap();
    let decisions = v["decisions_per_sec_per_core"].as_f64().unwrap();
    assert!(moves > 0.0 && decisions >= moves, "{v}");
    let mean = v["mean_turns"].as_f64().unwrap();
    assert!((1.0..=300.0).contains(&mean), "{v}");
    refused(
        &["bench", "rules", "--width", "9"],
        &["--width is a Splinter flag"],
    );
    refused(
        &["bench", "rules", "--game", "splinter", "--height", "2"],
        &["--height 2"],
    );
}
