//! Splinter in `crumble play` (driven through its standard input), in `crumble view` pages
//! and in the readable records `crumble match --out` writes.

mod common;
use common::{
    check_page_frames, config, crumble, final_position, match_of_random, play_as_tester, s,
    saved_game, temp_dir, text, view_page, write_in,
};

use crumble_core::Color;
use crumble_core::game::record::Record;
use crumble_core::games::splinter::{Outcome, Reason, Splinter};
use std::path::{Path, PathBuf};

/// Worked example 15's start (`e4-d3` leaves two groups of 7) as a position file.
fn tie_position(dir: &Path) -> PathBuf {
    let example: serde_json::Value = serde_json::from_str(include_str!(
        "../../core/tests/data/splinter-examples/15-tie-mover-keeps-first.json"
    ))
    .unwrap();
    write_in(dir, "tie.json", example["start"].to_string())
}

/// A self-contained page with one Splinter picture and one frame per position, one entry
/// per move and a slider over the positions.
fn check_page(page: &str, moves: usize) {
    check_page_frames(page, moves, "<div class=\"ply");
    assert_eq!(page.matches("<svg xmlns").count(), moves + 1);
    // The last move is highlighted in every position after the start.
    assert_eq!(page.matches("<rect class=\"left\"").count(), moves);
}

/// How the recorded game ended, as its final position says.
fn outcome(rec: &Record<Splinter>) -> Option<Outcome> {
    final_position(rec).outcome()
}

#[test]
fn a_scripted_splinter_game_with_a_bad_move_a_missing_choice_undo_and_resign() {
    let dir = temp_dir("scripted");
    let out = dir.join("game.rec");
    let pos = tie_position(&dir);
    let script = "h9h10\ne4-d3\ne4-d3/g9\nmoves\ne4-d3/d3\nundo\ne4-d3/g6\nresign\n";
    let splinter = config("splinter.toml");
    let stdout = play_as_tester(
        &out,
        &["--config", &splinter, "--position", s(&pos), "--seed", "3"],
        script,
    );
    assert!(stdout.starts_with("Splinter 9x10 board: you (Tester) play Black against random."));
    assert!(
        stdout.contains("h9h10\nnot a legal move: \"h9h10\" is not a move: missing hyphen"),
        "{stdout}"
    );
    // The missing and the wrong splinter choice: why, and the choices of that move.
    let choices = "the groups that may stay (any square of the group will do): e4-d3/d3 e4-d3/f4\n";
    assert!(
        stdout.contains("e4-d3\nnot a legal move: the move leaves equal largest groups"),
        "{stdout}"
    );
    assert_eq!(stdout.matches(choices).count(), 2, "{stdout}");
    assert!(stdout.contains("e4-d3/g9\nnot a legal move: after the push, g9 holds no piece"));
    assert!(
        stdout.contains("e4-d3/d3  e4-d3/f4"),
        "the list of moves: {stdout}"
    );
    assert!(stdout.contains("you play 1. e4-d3/d3\n"), "{stdout}");
    assert!(stdout.contains("White (random) plays 2. "), "{stdout}");
    assert!(stdout.contains("took back your move e4-d3/d3 and the reply "));
    // A choice named by another square of the group is written with its anchor.
    assert!(stdout.contains("you play 1. e4-d3/f4\n"), "{stdout}");
    assert!(stdout.contains("Black resigns"), "{stdout}");
    assert!(
        stdout.contains("0-1: White wins (resignation); the game is saved in "),
        "{stdout}"
    );
    // The board after every move: the start, the move, the reply, the undo, the move, the
    // reply; plain ASCII as rule 2.7's diagram.
    assert_eq!(stdout.matches("to move (turn ").count(), 6, "{stdout}");
    assert!(stdout.contains("bK") && !stdout.contains('\x1b'));

    let (saved, rec) = saved_game::<Splinter>(&out, "Tester", "random");
    assert_eq!(rec.moves.len(), 2, "the undone moves are gone: {saved}");
    assert!(saved.contains("\n1. e4-d3/f4 2. "), "{saved}");
    assert!(saved.contains("[Start {\"width\":9"), "{saved}");
    let result = outcome(&rec).unwrap();
    assert_eq!(
        (result.winner, result.reason),
        (Some(Color::White), Reason::Resignation)
    );

    // The saved game as a page: one picture per position, the moves in notation, the
    // agent's value as a badge.
    let page = dir.join("game.html");
    let html = view_page(&out, &[], &page);
    check_page(&html, 2);
    assert!(html.contains("data-ply=\"1\">e4-d3/f4</span>"), "{html}");
    assert!(html.contains("Tester") && html.contains("0-1: White wins (resignation)"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_out_writes_splinter_records_beside_the_record_files() {
    let dir = temp_dir("match");
    let crsp = match_of_random("splinter-tiny.toml", "30", &dir);
    let txt = std::fs::read_to_string(dir.join("match-000000.txt")).unwrap();
    let games: Vec<&str> = txt.split("\n\n[Game").collect();
    assert_eq!(games.len(), 2, "{txt}");
    for (i, g) in games.iter().enumerate() {
        let g = if i == 0 {
            g.to_string()
        } else {
            format!("[Game{g}")
        };
        let rec = Record::<Splinter>::parse(&g).unwrap_or_else(|e| panic!("{e}\n{g}"));
        assert_eq!(rec.tag("Index"), Some(i.to_string().as_str()));
        assert_eq!(rec.tag("Black"), Some("random"));
        assert!(outcome(&rec).is_some() && !rec.moves.is_empty());
        assert!(g.contains("[Board \"5x6\"]") && g.contains("\n1. "), "{g}");
    }
    // The record file as a page, the players' names from the text beside it.
    let second = Record::<Splinter>::parse(&format!("[Game{}", games[1])).unwrap();
    let page = dir.join("game.html");
    let html = view_page(&crsp, &["--game", "1"], &page);
    check_page(&html, second.moves.len());
    assert!(
        html.contains("random <span class=\"sub\">vs</span>"),
        "names"
    );
    let o = crumble(&["view", "--record", s(&crsp), "--list"]);
    assert!(text(&o.stdout).starts_with("index\tgame\tmoves\tresult\tblack\twhite\n0\t0\t"));
    // The names are in the .crsp file itself (format version 4): no text beside is needed.
    std::fs::remove_file(crsp.with_extension("txt")).unwrap();
    let o = crumble(&["view", "--record", s(&crsp), "--list"]);
    let listed = text(&o.stdout);
    assert!(
        listed
            .lines()
            .nth(1)
            .is_some_and(|l| l.ends_with("\trandom\trandom")),
        "{listed}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tournament --run-dir` rates a Splinter run's checkpoints in Splinter, reading the run's
/// own config (no --config): its nets cannot play Crumble; `--plot-x cpu-hours` draws them
/// all against the run's ledger.
#[test]
fn tournament_rates_a_splinter_runs_checkpoints_from_its_own_config() {
    let dir = temp_dir("tournament");
    let run = dir.join("run");
    let o = crumble(&[
        "train",
        "--config",
        &config("splinter-tiny.toml"),
        "--run-dir",
        s(&run),
        "--generations",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = crumble(&[
        "tournament",
        "--run-dir",
        s(&run),
        "--sims",
        "2",
        "--rollout-sims",
        "0",
        "--games-per-pair",
        "2",
        "--max-turns",
        "30",
        "--format",
        "csv",
        "--plot",
        s(&dir.join("curve.svg")),
        "--plot-x",
        "cpu-hours",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let table = text(&o.stdout);
    assert!(
        table.contains("gen-0000") && table.contains("gen-0001") && table.contains("random"),
        "{table}"
    );
    // Both checkpoints are on the curve by CPU hours: gen-0000 at 0 (the ledger starts with
    // generation 1), gen-0001 at its ledger's CPU time.
    let svg = std::fs::read_to_string(dir.join("curve.svg")).unwrap();
    assert_eq!(svg.matches(r#"<circle class="dot""#).count(), 2, "{svg}");
    let _ = std::fs::remove_dir_all(&dir);
}
