//! `crumble book` end to end: growing books of the test games and of a small Crumble board,
//! a killed build that resumes to the uninterrupted book byte for byte, the JSON and suite
//! exports (a suite a match reads), and refusals of bad options and malformed book files
//! (exit status 2, nothing on stdout, a message naming what and where).

mod common;
use common::{
    config, crumble, crumble_with_input, ok, refused, s, stderr, stdout, temp_dir, write_in,
};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A config of a small Crumble board whose searches take milliseconds.
fn small_crumble(dir: &Path) -> PathBuf {
    write_in(
        dir,
        "small.toml",
        "[selfplay]\nboard = 3\nresolution = 2\nmax_turns = 30\nseed = 4\n\n[net]\ncell_pixels = 1\n\n\
         [book]\nbatch = 4\n",
    )
}

fn grow(book: &Path, cfg: &str, agent: &str, positions: &str) -> String {
    let o = crumble(&[
        "book",
        "grow",
        "--book",
        s(book),
        "--config",
        cfg,
        "--agent",
        agent,
        "--positions",
        positions,
    ]);
    assert!(o.status.success(), "grow failed: {}", stderr(&o));
    stderr(&o)
}

#[test]
fn a_tictactoe_book_grows_exports_and_feeds_a_match() {
    let dir = temp_dir("ttt");
    let book = dir.join("ttt.crbook");
    let log = grow(&book, &config("tictactoe.toml"), "mcts:rollout:32", "40");
    assert!(log.contains("positions reached"), "{log}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["book", "json", "--book", s(&book)])).unwrap();
    assert_eq!(json["game"], "tictactoe");
    let nodes = json["nodes"].as_array().unwrap();
    assert!(nodes.len() >= 40, "{} nodes", nodes.len());
    // The empty board's moves are classes: at most corner, edge and centre.
    let root_moves = nodes[0]["moves"].as_array().unwrap();
    assert!(
        !root_moves.is_empty() && root_moves.len() <= 3,
        "{root_moves:?}"
    );
    for n in nodes {
        let (lo, v, hi) = (
            n["lower"].as_f64().unwrap(),
            n["value"].as_f64().unwrap(),
            n["upper"].as_f64().unwrap(),
        );
        assert!(lo <= v && v <= hi, "{n}");
    }
    // Growing on to more positions keeps what was there.
    let log = grow(&book, &config("tictactoe.toml"), "mcts:rollout:32", "80");
    assert!(log.contains("book: positions reached: "), "{log}");
    // The static site: a page a position, the start's with its moves linked.
    let site = dir.join("site");
    let o = crumble(&["book", "html", "--book", s(&book), "--out", s(&site)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pages = std::fs::read_dir(site.join("p")).unwrap().count();
    let now: serde_json::Value =
        serde_json::from_str(&ok(&["book", "json", "--book", s(&book)])).unwrap();
    assert_eq!(pages as u64, now["positions"].as_u64().unwrap());
    let start = std::fs::read_to_string(site.join("p/0.html")).unwrap();
    assert!(
        start.contains("<table>") && start.contains("href=\""),
        "{start}"
    );
    assert!(site.join("index.html").is_file());
    refused(
        &["book", "html", "--book", s(&book), "--out", s(&site)],
        &["--out", "exists", "--force"],
    );
    // A balanced suite (tic-tac-toe is a draw), read by a match.
    let suite = dir.join("suite.txt");
    let o = crumble(&[
        "book",
        "suite",
        "--book",
        s(&book),
        "--band",
        "-0.5:0.5",
        "--turns",
        "1:3",
        "--out",
        s(&suite),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&suite).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!lines.is_empty(), "{text}");
    let mut keys: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# key "))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let n = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), n, "one opening per canonical key");
    let o = crumble(&[
        "match",
        "solver",
        "mcts:rollout:8",
        "--config",
        &config("tictactoe.toml"),
        "--openings",
        s(&suite),
        "--games",
        "4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // An agent playing from the book, its games kept, then counted over the book.
    let games = dir.join("games");
    let o = crumble(&[
        "match",
        &format!("book:{}", s(&book)),
        "random",
        "--config",
        &config("tictactoe.toml"),
        "--opening-turns",
        "0",
        "--games",
        "6",
        "--out",
        s(&games),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let counted = crumble(&["book", "json", "--book", s(&book), "--games", s(&games)]);
    assert!(counted.status.success(), "{}", stderr(&counted));
    assert!(
        stderr(&counted).contains("6 of the 6 games"),
        "{}",
        stderr(&counted)
    );
    let json: serde_json::Value = serde_json::from_slice(&counted.stdout).unwrap();
    assert_eq!(json["game_sources"][0]["games"], 6);
    assert_eq!(json["nodes"][0]["games"][0]["games"], 6);
    // The book's player opens with the book's best move in the games it starts.
    let best = json["nodes"][0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["games"][0]["games"].as_u64().unwrap())
        .max()
        .unwrap();
    assert!(best >= 3, "{}", json["nodes"][0]);
    let o = crumble(&[
        "book",
        "html",
        "--book",
        s(&book),
        "--out",
        s(&site),
        "--force",
        "--games",
        s(&games),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let start = std::fs::read_to_string(site.join("p/0.html")).unwrap();
    assert!(start.contains("Games through here"), "{start}");
    // `play` against the book's agent: its first move is the book's best (the first of the
    // best on a tie: tic-tac-toe's moves are all proven draws).
    let rec = dir.join("play.rec");
    let o = crumble_with_input(
        &[
            "play",
            "--config",
            &config("tictactoe.toml"),
            "--agent",
            &format!("book:{}", s(&book)),
            "--as",
            "white",
            "-o",
            s(&rec),
        ],
        "resign\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let transcript = stdout(&o);
    let mut best: Option<(f64, &str)> = None;
    for m in json["nodes"][0]["moves"].as_array().unwrap() {
        let v = m["value"].as_f64().unwrap();
        if best.is_none_or(|b| v > b.0) {
            best = Some((v, m["move"].as_str().unwrap()));
        }
    }
    let best = best.unwrap().1;
    assert!(
        transcript.contains(&format!("plays 1. {best} ")),
        "{best}: {transcript}"
    );
    // The book's choices against searches twice as deep.
    let checked: serde_json::Value = serde_json::from_str(&ok(&[
        "book",
        "check",
        "--book",
        s(&book),
        "--positions",
        "6",
        "--factor",
        "2",
        "--json",
    ]))
    .unwrap();
    assert_eq!(checked["agent"], "mcts:rollout:64");
    let rows = checked["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    for r in rows {
        let differs = r["agree"] == false;
        assert_eq!(r["deep_value_of_book_move"].is_number(), differs, "{r}");
        assert_eq!(r["deep_value_of_deep_move"].is_number(), differs, "{r}");
    }
    refused(
        &["book", "check", "--book", s(&book), "--factor", "0"],
        &["--factor"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_killed_build_resumes_to_the_uninterrupted_book_byte_for_byte() {
    let dir = temp_dir("kill");
    let cfg = small_crumble(&dir);
    let straight = dir.join("straight.crbook");
    grow(&straight, s(&cfg), "mcts:rollout:16", "300");
    let killed = dir.join("killed.crbook");
    let mut child = Command::new(env!("CARGO_BIN_EXE_crumble"))
        .args([
            "book",
            "grow",
            "--book",
            s(&killed),
            "--config",
            s(&cfg),
            "--agent",
            "mcts:rollout:16",
            "--positions",
            "300",
            "--save-every",
            "0.01",
        ])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed as soon as it has saved a book (or when it is done, on a fast machine).
    for _ in 0..2000 {
        if killed.exists() || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().ok();
    child.wait().unwrap();
    let saved = std::fs::read(&killed).map_or(0, |b| b.len());
    let log = grow(&killed, s(&cfg), "mcts:rollout:16", "300");
    assert!(log.contains("positions reached"), "{log}");
    assert!(saved > 0, "the build was killed before it saved");
    assert!(
        std::fs::read(&killed).unwrap() == std::fs::read(&straight).unwrap(),
        "the resumed book differs from the uninterrupted one"
    );
    // Exported, the same book is the same JSON; its first moves are position classes.
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["book", "json", "--book", s(&killed)])).unwrap();
    assert_eq!(json["game"], "crumble");
    assert!(json["positions"].as_u64().unwrap() >= 300);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_options_and_malformed_books_are_refused() {
    let dir = temp_dir("refusals");
    let book = dir.join("nim.crbook");
    grow(&book, &config("nim.toml"), "mcts:rollout:8", "5");
    let b = s(&book);
    refused(
        &["book", "suite", "--book", b, "--band", "0.5:0.2"],
        &["--band", "LO <= HI"],
    );
    refused(
        &["book", "suite", "--book", b, "--band", "-2:0"],
        &["--band", "from -1 to 1"],
    );
    refused(
        &[
            "book", "suite", "--book", b, "--band", "0:1", "--turns", "5:1",
        ],
        &["--turns"],
    );
    refused(
        &["book", "grow", "--book", b, "--positions", "0"],
        &["--positions", "at least 1"],
    );
    refused(
        &["book", "grow", "--book", b, "--agent", "mcts:rollout:9"],
        &["was started with agent mcts:rollout:8", "mcts:rollout:9"],
    );
    refused(
        &[
            "book",
            "grow",
            "--book",
            b,
            "--config",
            &config("tictactoe.toml"),
        ],
        &["the game"],
    );
    let fresh = dir.join("fresh.crbook");
    refused(
        &[
            "book",
            "grow",
            "--book",
            s(&fresh),
            "--config",
            &config("nim.toml"),
            "--agent",
            "random",
        ],
        &["does not search"],
    );
    // Malformed files: not a book, damaged, truncated, missing.
    let junk = write_in(&dir, "junk.crbook", "not a book at all");
    refused(
        &["book", "json", "--book", s(&junk)],
        &["junk.crbook", "not a book file"],
    );
    let bytes = std::fs::read(&book).unwrap();
    let mut damaged = bytes.clone();
    let k = bytes.len() / 2;
    damaged[k] ^= 0x10;
    std::fs::write(&junk, &damaged).unwrap();
    refused(
        &["book", "json", "--book", s(&junk)],
        &["junk.crbook", "checksum"],
    );
    std::fs::write(&junk, &bytes[..bytes.len() / 3]).unwrap();
    refused(&["book", "json", "--book", s(&junk)], &["junk.crbook"]);
    refused(
        &[
            "book",
            "suite",
            "--book",
            s(&dir.join("none.crbook")),
            "--band",
            "0:1",
        ],
        &["none.crbook"],
    );
    // Games that are not there; agents and boards given a book that is not there.
    refused(
        &[
            "book",
            "json",
            "--book",
            b,
            "--games",
            s(&dir.join("no-games")),
        ],
        &["--games", "no-games"],
    );
    refused(
        &[
            "match",
            &format!("book:{}", s(&dir.join("none.crbook"))),
            "random",
            "--config",
            &config("nim.toml"),
        ],
        &["none.crbook"],
    );
    refused(
        &["serve", "--addr", "127.0.0.1:0", "--book", s(&junk)],
        &["bad book", "junk.crbook"],
    );
    // The output never replaces the book, nor an existing file without --force.
    refused(
        &["book", "json", "--book", b, "--out", b, "--force"],
        &["input of this command"],
    );
    std::fs::remove_dir_all(&dir).ok();
}
