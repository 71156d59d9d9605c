//! `crumble tactics` and `crumble openings` end to end: small runs, and their refusals of bad
//! input (exit status 2, nothing on stdout, a message naming what and where, no panic).

mod common;
use common::{config, ok, refused, selfplay_into, temp_dir, write_in};

use std::path::PathBuf;

/// The hand-counted corpus of the openings tests (six 4×4 game records).
fn corpus() -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../selfplay/tests/data/openings");
    p.display().to_string()
}

#[test]
fn openings_reads_a_directory_and_writes_every_format() {
    let dir = temp_dir("openings");
    let out = dir.join("report");
    let md = ok(&[
        "openings",
        "--games",
        &corpus(),
        "--depth",
        "2",
        "--min-count",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(md.contains("6 games from the standard 4×4 start"), "{md}");
    assert!(md.contains("1... `2H`"), "{md}");
    assert!(!md.contains("1... `2V`"), "pruned at 2 games: {md}");
    for f in [
        "openings.md",
        "openings.json",
        "openings.csv",
        "openings.svg",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let csv = ok(&[
        "openings",
        "--games",
        &corpus(),
        "--depth",
        "1",
        "--min-count",
        "1",
        "--format",
        "csv",
    ]);
    assert_eq!(csv.lines().count(), 4, "{csv}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["openings", "--games", &corpus(), "--format", "json"])).unwrap();
    assert_eq!(json["games"], 6);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn openings_refuses_bad_input() {
    let dir = temp_dir("openings-bad");
    refused(
        &["openings", "--games", "5", "--agent", "mcts:bogus:3"],
        &["mcts:bogus:3", "unknown evaluator"],
    );
    refused(
        &["openings", "--games", "5", "--agent", "alpha"],
        &["alpha", "unknown kind"],
    );
    refused(
        &[
            "openings",
            "--games",
            "2",
            "--agent",
            "ckpt:/nonexistent/net.crnet",
        ],
        &["/nonexistent/net.crnet"],
    );
    refused(&["openings", "--games", "5"], &["needs --agent"]);
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    refused(
        &["openings", "--games", empty.to_str().unwrap()],
        &["no game files in", "empty"],
    );
    refused(
        &["openings", "--games", dir.join("nowhere").to_str().unwrap()],
        &["nowhere"],
    );
    // A malformed self-play record file and a malformed text record, each named.
    let bad = dir.join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("games-000000.crsp"), b"not a record file").unwrap();
    refused(
        &["openings", "--games", bad.to_str().unwrap()],
        &["games-000000.crsp"],
    );
    std::fs::remove_file(bad.join("games-000000.crsp")).unwrap();
    std::fs::write(
        bad.join("g.rec"),
        "[Board \"4\"]\n[Result \"1-0\"]\n\n1. 1H 9Q\n",
    )
    .unwrap();
    refused(
        &["openings", "--games", bad.to_str().unwrap()],
        &["g.rec", "9Q"],
    );
    refused(
        &["openings", "--games", &corpus(), "--depth", "0"],
        &["--depth"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tactics_refuses_bad_input() {
    let dir = temp_dir("tactics-bad");
    refused(
        &["tactics", "--agent", "mcts:bogus:3"],
        &["mcts:bogus:3", "unknown evaluator"],
    );
    refused(&["tactics", "--agent", "alpha"], &["alpha", "unknown kind"]);
    refused(
        &["tactics", "--agent", "ckpt:/nonexistent/net.crnet"],
        &["/nonexistent/net.crnet"],
    );
    refused(
        &["tactics", "--agent", "random", "--kinds", "win3"],
        &["win3"],
    );
    refused(&["tactics"], &["--agent"]);
    // The built-in suite is on the standard 6x6 board; tiny.toml starts on a 4x4 one.
    refused(
        &[
            "tactics",
            "--agent",
            "random",
            "--config",
            &config("tiny.toml"),
        ],
        &["built-in suite", "6x6", "4x4", "--generate"],
    );
    let suite = dir.join("suite");
    std::fs::create_dir_all(&suite).unwrap();
    let suite_args = [
        "tactics",
        "--agent",
        "random",
        "--suite",
        suite.to_str().unwrap(),
    ];
    refused(&suite_args, &["no tactics in", "suite"]);
    std::fs::write(suite.join("mine.jsonl"), "{\"id\": \"x\"\n").unwrap();
    refused(&suite_args, &["mine.jsonl line 1", "not JSON"]);
    // A well-formed line whose answer is not a legal move of its position.
    let pos: serde_json::Value =
        serde_json::from_str(&crumble_core::games::crumble::position::to_json(
            &crumble_core::games::crumble::Crumble::new(4, 8).unwrap(),
        ))
        .unwrap();
    std::fs::write(
        suite.join("mine.jsonl"),
        format!(
            "{{\"id\": \"w-1\", \"kind\": \"win1\", \"position\": {pos}, \"answers\": [\"9Q\"], \"moves\": 16}}\n"
        ),
    )
    .unwrap();
    refused(&suite_args, &["mine.jsonl line 1", "w-1", "9Q"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--generate --records DIR` reads recorded games (self-play records in a subdirectory, as
/// in a run's `replay/`) instead of playing any, and says so; a directory without records is
/// refused by name.
#[test]
fn tactics_generate_reads_recorded_games() {
    let dir = temp_dir("records");
    let config = write_in(
        &dir,
        "small.toml",
        "[selfplay]\nboard = 4\nresolution = 4\nmax_turns = 40\ngames_per_file = 4\n",
    );
    let nested = dir.join("replay").join("gen-0001");
    selfplay_into(
        &nested,
        config.to_str().unwrap(),
        "mcts:uniform:4",
        "8",
        &[],
    );
    let out = dir.join("suite");
    let report = ok(&[
        "tactics",
        "--generate",
        "--records",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--per-kind",
        "2",
    ]);
    assert!(report.contains("8 recorded games from 2 files"), "{report}");
    assert!(!report.contains("games of random"), "{report}");
    for k in ["win1", "win2", "defend"] {
        assert!(out.join(format!("{k}.jsonl")).is_file(), "{k}");
    }
    // Only the kinds asked for are looked for and written; other files are left alone.
    let only = dir.join("only-win2");
    std::fs::create_dir_all(&only).unwrap();
    std::fs::write(only.join("win1.jsonl"), "keep me").unwrap();
    let report = ok(&[
        "tactics",
        "--generate",
        "--records",
        dir.join("replay").to_str().unwrap(),
        "--kinds",
        "win2",
        "--out",
        only.to_str().unwrap(),
    ]);
    assert!(
        report.contains("win2:") && !report.contains("win1:"),
        "{report}"
    );
    assert_eq!(
        std::fs::read_to_string(only.join("win1.jsonl")).unwrap(),
        "keep me"
    );
    assert!(only.join("win2.jsonl").is_file() && !only.join("defend.jsonl").exists());
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    refused(
        &[
            "tactics",
            "--generate",
            "--records",
            empty.to_str().unwrap(),
            "--out",
            dir.join("o2").to_str().unwrap(),
        ],
        &["--records", "no record files"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}
