//! Crumo in `crumble play` (driven through its standard input) and in `crumble view` pages of
//! its records and self-play files.

mod common;
use common::{
    check_page_frames, config, crumble, final_position, match_of_random, play_as_tester, refused,
    s, saved_game, selfplay_into, temp_dir, text, view_page,
};

use crumble_core::Color;
use crumble_core::game::CompleteMoves;
use crumble_core::game::record::Record;
use crumble_core::games::crumo::{Crumo, CrumoMove, Outcome, Reason};
use std::path::Path;

/// `crumble play` of Crumo on the tiny config's size-3 board against `random`.
fn play(out: &Path, extra: &[&str], script: &str) -> String {
    let tiny = config("crumo-tiny.toml");
    let mut args = vec!["--config", &tiny];
    args.extend_from_slice(extra);
    play_as_tester(out, &args, script)
}

/// A self-contained page with one hexagon picture and one frame per position, one entry per
/// move, the placed and moved-to points ringed, and a slider over the positions.
fn check_page(page: &str, moves: &[CrumoMove]) {
    let n = moves.len();
    check_page_frames(page, n, "<div class=\"ply");
    assert_eq!(page.matches("<svg xmlns").count(), n + 1);
    // A placement rings one point, a move two, a pass or a swap none.
    let rings: usize = moves
        .iter()
        .map(|m| match m {
            CrumoMove::Place { .. } => 1,
            CrumoMove::Move { .. } => 2,
            CrumoMove::Pass | CrumoMove::Swap => 0,
        })
        .sum();
    assert_eq!(page.matches("class=\"last-move\"").count(), rings);
    assert!(page.contains("Crumo size 3"));
}

/// How the recorded game ended, as its final position says.
fn outcome(rec: &Record<Crumo>) -> Option<Outcome> {
    final_position(rec).outcome()
}

/// The record's moves as Crumo moves.
fn moves(rec: &Record<Crumo>) -> Vec<CrumoMove> {
    let positions = rec.positions().unwrap();
    let turns = rec.moves.iter().enumerate();
    turns
        .map(|(i, t)| positions[i].move_of_turn(t).unwrap())
        .collect()
}

#[test]
fn a_scripted_crumo_game_with_refusals_undo_the_agents_swap_and_resign() {
    let dir = temp_dir("scripted");
    let out = dir.join("game.rec");
    let script = "3c3\nswap\nhello\n2e3\nmoves\nundo\n2e3\nresign\n";
    let stdout = play(&out, &["--seed", "1"], script);
    assert!(
        stdout.starts_with(
            "Crumo size 3 (19 points): you (Tester) play Black (the first seat) against random."
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("3c3\nnot a legal move: no point is 3 steps from c3"),
        "{stdout}"
    );
    assert!(
        stdout.contains("swap\nnot a legal move: on the first turn Black must place a stack"),
        "{stdout}"
    );
    assert!(
        stdout.contains("hello\nunknown command \"hello\""),
        "{stdout}"
    );
    assert!(stdout.contains("you play 1. 2e3\n"), "{stdout}");
    // The agent (second seat) takes Black: the person now plays White, and the list of
    // moves offers a pass.
    assert!(stdout.contains("White (random) plays 2. swap"), "{stdout}");
    assert!(stdout.contains("you play White from now on"), "{stdout}");
    assert!(stdout.contains("[turn 3] White (you)> moves\n"), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("  ") && l.split_whitespace().any(|w| w == "pass")),
        "the list of moves: {stdout}"
    );
    assert!(stdout.contains("took back your move 2e3 and the reply swap"));
    assert!(stdout.contains("White resigns"), "{stdout}");
    assert!(
        stdout.contains("1-0: Black wins (resignation); the game is saved in "),
        "{stdout}"
    );
    assert!(stdout.contains("B2") && !stdout.contains('\x1b'));

    // The players by the colours they ended with.
    let (saved, rec) = saved_game::<Crumo>(&out, "random", "Tester");
    assert!(saved.contains("\n1. 2e3 2. swap 1-0\n"), "{saved}");
    let result = outcome(&rec).unwrap();
    assert_eq!(
        (result.winner, result.reason),
        (Some(Color::Black), Reason::Resignation)
    );

    let page = dir.join("game.html");
    let html = view_page(&out, &[], &page);
    check_page(&html, &moves(&rec));
    assert!(html.contains("data-ply=\"2\">swap</span>"), "{html}");
    assert!(html.contains("Tester") && html.contains("1-0: Black wins (resignation)"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_second_seat_swaps_and_then_plays_black() {
    let dir = temp_dir("swap");
    let out = dir.join("game.rec");
    let stdout = play(&out, &["--as", "white", "--seed", "4"], "swap\nresign\n");
    assert!(stdout.contains("play White (the second seat, which may swap on turn 2)"));
    assert!(stdout.contains("Black (random) plays 1. "), "{stdout}");
    assert!(stdout.contains("[turn 2] White (you) (or swap)> swap\n"));
    assert!(stdout.contains("you play 2. swap\nthe seats swap colours: you play Black"));
    assert!(stdout.contains("White (random) plays 3. "), "{stdout}");
    assert!(stdout.contains("Black resigns"), "{stdout}");
    let rec = Record::<Crumo>::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(rec.tag("Black"), Some("Tester"));
    assert_eq!(rec.tag("White"), Some("random"));
    assert_eq!(rec.moves.len(), 3);
    assert_eq!(outcome(&rec).unwrap().winner, Some(Color::White));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn passing_plays_a_game_to_its_scored_end() {
    let dir = temp_dir("end");
    let out = dir.join("game.rec");
    let script = format!("2e3\n{}", "pass\n".repeat(20));
    let stdout = play(&out, &["--seed", "2", "--max-turns", "12"], &script);
    let saved = std::fs::read_to_string(&out).unwrap();
    let rec = Record::<Crumo>::parse(&saved).unwrap();
    let result = outcome(&rec).unwrap_or_else(|| panic!("unfinished: {stdout}"));
    assert!(
        matches!(result.reason, Reason::TwoPasses | Reason::TurnLimit),
        "{saved}"
    );
    assert!(result.score_halves.is_some(), "a scored end: {saved}");
    assert!(stdout.contains("score: Black "), "{stdout}");
    assert_eq!(rec.tag("TurnLimit"), Some("12"));
    assert_eq!(final_position(&rec).outcome(), Some(result));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Crumo self-play file and a match file as pages: the search values charted, the
/// players' names from the text beside a match file.
#[test]
fn view_draws_crumo_self_play_and_match_files() {
    let dir = temp_dir("files");
    let tiny = config("crumo-tiny.toml");
    let sp = dir.join("sp");
    selfplay_into(&sp, &tiny, "mcts:uniform:4", "2", &["--threads", "1"]);
    let crsp = sp.join("selfplay-000000.crsp");
    let txt = std::fs::read_to_string(sp.join("selfplay-000000.txt")).unwrap();
    let first = Record::<Crumo>::parse(txt.split("\n\n[Game").next().unwrap()).unwrap();
    let page = dir.join("sp.html");
    let html = view_page(&crsp, &["--game", "0"], &page);
    check_page(&html, &moves(&first));
    assert!(html.contains("id=\"chart\""), "the search values");
    assert!(html.contains("class=\"stack "));

    let crsp = match_of_random("crumo-tiny.toml", "20", &dir);
    let o = crumble(&["view", "--record", s(&crsp), "--list"]);
    let list = text(&o.stdout);
    assert!(
        list.starts_with("index\tgame\tmoves\tresult\tblack\twhite\n0\t0\t"),
        "{list}"
    );
    assert_eq!(list.matches("\trandom\trandom\n").count(), 2, "{list}");
    let page = dir.join("match.html");
    let html = view_page(&crsp, &["--game", "1"], &page);
    assert!(
        html.contains("random <span class=\"sub\">vs</span>"),
        "names"
    );
    assert!(html.contains("<div class=\"ply on\" id=\"ply-0\"><svg xmlns"));
    refused(
        &[
            "view",
            "--record",
            s(&crsp),
            "--view",
            "white",
            "-o",
            s(&dir.join("x.html")),
        ],
        &["--view white is a Crumble flag"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}
