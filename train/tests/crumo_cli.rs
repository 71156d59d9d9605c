//! End-to-end tests of the `crumble` binary with `--game crumo`: `replay` on every worked
//! example of games/crumo/RULES.md, `moves`, `random-game`, `show` (terminal and SVG), `bench
//! rules`, and the refusals of bad moves, sizes and flags.

mod common;
use common::examples::Examples;
use common::{
    TempFile, crumble, json, moves_refused, ok, refused, replay_refused, stderr, temp_file_of,
};
use crumble_core::GameState;
use crumble_core::game::CompleteMoves;

use crumble_core::games::crumo::{Crumo, position};
use serde_json::{Value, json};

const EXAMPLES: Examples = Examples {
    game: <Crumo as GameState>::NAME,
    size_keys: &["size"],
};

/// Numbers as floats, so that `6.0` and `6` compare equal (rule 12.2).
fn numbers_as_floats(v: &Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64().unwrap()),
        Value::Array(a) => Value::Array(a.iter().map(numbers_as_floats).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), numbers_as_floats(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn temp_file(name: &str, text: &str) -> TempFile {
    temp_file_of("crumo-test", name, text)
}

#[test]
fn replay_plays_every_worked_example() {
    EXAMPLES.replay_all(30, numbers_as_floats);
}

#[test]
fn bad_moves_exit_2_naming_index_text_and_why() {
    let bad_moves = |moves: &[&str], parts: &[&str]| moves_refused("crumo", moves, parts);
    bad_moves(&["pass"], &["move 1 (\"pass\")", "must place", "rule 8.1"]);
    bad_moves(&["3e5", "3E5"], &["move 2 (\"3E5\")", "upper case"]);
    bad_moves(&["3e5 "], &["move 1", "white space"]);
    bad_moves(&["5e5"], &["move 1", "rule 5.2 a"]);
    bad_moves(&["3e5", "3e2"], &["move 2", "enemy stack on e5"]);
    bad_moves(
        &["1a99999999999999999999"],
        &["move 1", "not on the size-5 board"],
    );
    bad_moves(&["99999999999999999999999e5"], &["move 1", "rule 5.2 a"]);
    bad_moves(&["3e5", "1a9", "e5-f7"], &["move 3", "12 lines"]);
    bad_moves(
        &["3e5", "pass", "pass", "1a9"],
        &["move 4 (\"1a9\")", "the game is over"],
    );
    refused(
        &[
            "replay",
            "--game",
            "crumo",
            "--max-turns",
            "1",
            "3e5",
            "1a9",
        ],
        &["move 2", "the game is over"],
    );
}

#[test]
fn bad_sizes_positions_and_flags_are_refused() {
    replay_refused(
        &["--game", "crumo", "--size", "1"],
        &["--size 1", "2 to 13", "rule 1.1"],
    );
    replay_refused(&["--game", "crumo", "--size", "14"], &["--size 14"]);
    replay_refused(&["--game", "crumo", "--size=-1"], &["--size"]);
    replay_refused(&["--game", "crumo", "--width", "9"], &["--width"]);
    // Crumble's own flags: every_game_cli.rs.
    replay_refused(&["--size", "5"], &["--size is a Crumo flag"]);
    replay_refused(
        &["--game", "splinter", "--size", "5"],
        &["--size is a Crumo flag"],
    );
    let bad = temp_file("dup.json", r#"{"size":5,"size":7}"#);
    let p = bad.to_str().unwrap();
    replay_refused(
        &["--game", "crumo", "--position", p],
        &["refused", "duplicate key"],
    );
    let good = temp_file(
        "start.json",
        &position::to_json(&Crumo::standard(4).unwrap()),
    );
    let g = good.to_str().unwrap();
    replay_refused(
        &["--game", "crumo", "--position", g, "--size", "4"],
        &["--size"],
    );
    let out = ok(&["replay", "--game", "crumo", "--position", g, "1d4"]);
    assert_eq!(json(&out)["size"], json!(4));
    refused(
        &["show", "--game", "crumo", "--view", "white"],
        &["--view turns the board, and Crumo draws its board one way"],
    );
}

#[test]
fn moves_lists_every_legal_move_sorted_then_nothing_after_the_end() {
    let out = ok(&["moves", "--game", "crumo", "3e5", "2e2", "e5-e7"]);
    let lines: Vec<&str> = out.lines().collect();
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(lines, sorted, "sorted byte-wise, no duplicates");
    let mut game = Crumo::standard(5).unwrap();
    game.play_texts(&["3e5", "2e2", "e5-e7"]).unwrap();
    assert_eq!(lines, game.legal_move_texts());
    assert_eq!(*lines.last().unwrap(), "pass");
    // The first turn: placements only, every point of size 3 at heights 1 to its line.
    let out = ok(&["moves", "--game", "crumo", "--size", "3"]);
    assert!(out.lines().all(|m| m.as_bytes()[0].is_ascii_digit()));
    assert!(ok(&["moves", "--game", "crumo", "1e5"]).ends_with("pass\nswap\n"));
    let o = crumble(&["moves", "--game", "crumo", "3e5", "pass", "pass"]);
    assert!(o.status.success() && o.stdout.is_empty());
    assert!(stderr(&o).contains("the game is over"), "{}", stderr(&o));
}

#[test]
fn random_game_is_seeded_and_replays_to_its_result() {
    let args = ["random-game", "--game", "crumo", "--seed", "7"];
    let out = ok(&args);
    assert_eq!(ok(&args), out, "the same seed gives the same game");
    assert_ne!(ok(&["random-game", "--game", "crumo", "--seed", "8"]), out);
    let (moves, result) = out.trim_end().rsplit_once('\n').unwrap();
    let result = json(result.strip_prefix("# result: ").unwrap());
    assert!(result["score"]["black"].is_number() && result["score"]["white"].is_number());
    let moves: Vec<String> = moves.lines().map(String::from).collect();
    assert!(moves.len() <= 200);
    let mut replay_args = vec!["replay", "--game", "crumo", "--max-turns", "200"];
    replay_args.extend(moves.iter().map(String::as_str));
    let end = json(&ok(&replay_args));
    assert_eq!(end["result"], result);
    // A turn limit of its own.
    let out = ok(&[
        "random-game",
        "--game",
        "crumo",
        "--size",
        "3",
        "--max-turns",
        "4",
    ]);
    assert!(out.lines().count() <= 5);
}

#[test]
fn show_draws_stacks_in_the_terminal_and_as_svg() {
    let out = ok(&[
        "show", "--game", "crumo", "--color", "never", "3e5", "2e2", "e5-e7",
    ]);
    assert!(
        out.contains("[B2]") && out.contains("[B1]") && out.contains("W2"),
        "{out}"
    );
    assert!(out.contains("last move e5-e7 (black)"), "{out}");
    // Nine rows, rank 9 at the top, each labelled with its rank and files.
    let rows: Vec<&str> = out.lines().take(9).collect();
    assert!(
        rows[0].starts_with(" 9") && rows[0].ends_with("a-e"),
        "{out}"
    );
    assert!(
        rows[8].starts_with(" 1") && rows[8].ends_with("e-i"),
        "{out}"
    );
    let coloured = ok(&["show", "--game", "crumo", "--color", "always", "3e5"]);
    assert!(coloured.contains("\x1b["));
    let path = std::env::temp_dir().join(format!("crumble-crumo-{}.svg", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let p = path.to_str().unwrap();
    ok(&[
        "show", "--game", "crumo", "--size", "7", "3g7", "2g4", "--svg", p,
    ]);
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("class=\"stack black\"").count(), 1);
    assert_eq!(svg.matches("class=\"stack white\"").count(), 1);
    assert_eq!(svg.matches("class=\"last-move\"").count(), 1);
    assert!(svg.contains("last move 2g4 (white)"));
    refused(&["show", "--game", "crumo", "1e5", "--svg", p], &["exists"]);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn bench_rules_measures_crumo() {
    let out = ok(&[
        "bench",
        "rules",
        "--game",
        "crumo",
        "--size",
        "3",
        "--json",
        "--seconds",
        "0.2",
    ]);
    let v = json(&out);
    assert_eq!(v["game"], "crumo");
    assert_eq!(v["size"], 3);
    assert!(v["games"].as_u64().unwrap() >= 1);
    for key in [
        "games_per_sec_per_core",
        "moves_per_sec_per_core",
        "decisions_per_sec_per_core",
    ] {
        assert!(v[key].as_f64().unwrap() > 0.0, "{key}");
    }
    let text = ok(&["bench", "rules", "--game", "crumo", "--seconds", "0.1"]);
    assert!(text.contains("--game crumo: size 5 (61 points)"), "{text}");
}
