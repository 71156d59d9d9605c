//! End-to-end tests of `crumble show`, `crumble perft` and `crumble solve`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn crumble(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crumble"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("the crumble binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn core_data(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../core/tests/data")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

fn ok(args: &[&str]) -> String {
    let o = crumble(args);
    assert!(o.status.success(), "args {args:?}: {}", stderr(&o));
    stdout(&o)
}

/// Bad input: exit status 2, nothing on stdout, a message on stderr containing `part`.
fn refused(args: &[&str], part: &str) {
    let o = crumble(args);
    assert_eq!(
        o.status.code(),
        Some(2),
        "args {args:?}, stderr {}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty(), "args {args:?} printed {}", stdout(&o));
    assert!(
        stderr(&o).contains(part),
        "args {args:?}: stderr {:?} lacks {part:?}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"));
}

#[test]
fn show_draws_the_board_in_ascii_when_not_a_terminal() {
    let out = ok(&["show", "1HN"]);
    assert!(out.is_ascii(), "{out}");
    assert!(!out.contains('\x1b'));
    assert!(
        out.contains("White to move (turn 2); last move 1HN (black); White's view"),
        "{out}"
    );
    assert!(out.contains("===="), "the cut line is highlighted: {out}");
    assert!(
        out.contains('o') && out.contains('v'),
        "the swap path: {out}"
    );
    let coloured = ok(&["show", "1HN", "--color", "always", "--view", "black"]);
    assert!(coloured.contains("\x1b[") && coloured.contains('━'));
    let eight = ok(&["show", "--board", "8", "--no-coords"]);
    assert_eq!(
        eight.lines().filter(|l| l.starts_with('+')).count(),
        9,
        "{eight}"
    );
}

#[test]
fn show_writes_svg_and_reads_records() {
    let path = std::env::temp_dir().join(format!("crumble-show-{}.svg", std::process::id()));
    let p = path.to_string_lossy().into_owned();
    let rec = core_data("records/resignation.rec");
    ok(&["show", "--record", &rec, "--ply", "2", "--svg", &p]);
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert!(svg.starts_with("<svg") && svg.contains("viewBox"));
    assert!(svg.contains("last move 0HN (white)"), "{svg}");
    let end = ok(&["show", "--record", &rec]);
    assert!(end.contains("1-0: Black wins (resignation)"), "{end}");
    refused(&["show", "--record", &rec, "--ply", "99"], "only 6 moves");
    refused(
        &["show", "--record", "/nonexistent.rec"],
        "cannot read record",
    );
    refused(&["show", "1HN", "9H"], "move 2 (\"9H\") refused");
}

#[test]
fn perft_counts_and_divides() {
    let out = ok(&["perft", "--turns", "1"]);
    assert!(out.contains("perft 1 turns: 96\n"), "{out}");
    assert!(out.contains("time: "), "{out}");
    let out = ok(&[
        "perft",
        "--turns",
        "2",
        "--divide",
        "--board",
        "3",
        "--resolution",
        "2",
    ]);
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("perft") && !l.starts_with("time"))
        .collect();
    let sum: u64 = lines
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    let total: u64 = out
        .lines()
        .find(|l| l.starts_with("perft"))
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(sum, total);
    refused(&["perft", "--turns", "0"], "at least 1");
    refused(
        &["perft", "--turns", "1", "--position", "/nonexistent.json"],
        "cannot read position file",
    );
}

#[test]
fn solve_finds_wins_and_says_when_there_are_none() {
    let start = ok(&["solve", "--depth", "2"]);
    assert!(
        start.contains("# black to move: no forced win within two turns"),
        "{start}"
    );
    let rec = core_data("records/custom-start-win.rec");
    // The record's start position, as a position file for --position.
    let text = std::fs::read_to_string(&rec).unwrap();
    let json = text
        .lines()
        .find_map(|l| l.strip_prefix("[Position "))
        .unwrap()
        .trim_end_matches(']');
    let path = std::env::temp_dir().join(format!("crumble-solve-{}.json", std::process::id()));
    std::fs::write(&path, json).unwrap();
    let p = path.to_string_lossy().into_owned();
    let out = ok(&["solve", "--position", &p, "--depth", "1"]);
    assert!(
        out.contains("38 moves win at once") && out.lines().any(|l| l == "0,2J2,1E"),
        "{out}"
    );
    std::fs::remove_file(&path).ok();
    refused(&["solve", "--depth", "3"], "3");
}
