//! `crumble play` driven through its standard input, and `crumble view` pages checked
//! structurally (the browser check is `scripts/view_screenshots.sh`, outside `cargo test`).

mod common;
use common::{
    check_page_frames, crumble, crumble_with_input, final_position, play_as_tester, refused, s,
    saved_game, selfplay_into, temp_dir, text, view_page, write_in,
};

use crumble_core::game::record::{Ending, Record};
use crumble_core::games::crumble::notation;
use crumble_core::games::crumble::{Crumble, Frame};
use crumble_core::{Color, GameResult, Player};

/// What every page must be: one self-contained document with one board frame per position,
/// one move-list entry per move and a slider over the positions.
/// Crumble's pages draw one board whose frames are groups of it.
fn check_page(page: &str, moves: usize) {
    check_page_frames(page, moves, "<g class=\"ply");
    // Not even a plain http:// address (the other games' SVG frames name their namespace).
    assert!(!page.contains("http://"), "the page refers to http://");
    assert_eq!(page.matches("<svg id=\"board\"").count(), 1);
    assert!(page.contains(&format!(
        "<input id=\"slider\" type=\"range\" min=\"0\" max=\"{moves}\""
    )));
    assert!(page.contains("id=\"status-text\""));
    assert!(page.contains("id=\"crumble-data\""));
}

#[test]
fn a_scripted_game_against_random_with_a_bad_move_undo_hint_and_resign() {
    let dir = temp_dir("scripted");
    let out = dir.join("game.rec");
    let script = "1H9\nhlep\n1HN\nundo\nhint\n1HN\nresign\n";
    let stdout = play_as_tester(
        &out,
        &["--hint-agent", "mcts:rollout:16", "--seed", "3"],
        script,
    );
    // The bad move: why, and where (a caret under the characters concerned).
    assert!(stdout.contains("1H9\nnot a legal move: "), "{stdout}");
    assert!(stdout.contains("  1H9\n   ^^\n"), "{stdout}");
    assert!(stdout.contains("unknown command \"hlep\""), "{stdout}");
    assert!(stdout.contains("you play 1. 1HN"), "{stdout}");
    assert!(stdout.contains("White (random) plays 1... "), "{stdout}");
    assert!(
        stdout.contains("took back your move 1HN and the reply "),
        "{stdout}"
    );
    let hint = stdout
        .lines()
        .find(|l| l.starts_with("hint (mcts:rollout:16): "))
        .unwrap_or_else(|| panic!("no hint in {stdout}"));
    assert!(
        hint.contains(", value ") && hint.contains(" for you"),
        "{hint}"
    );
    // The hint is a legal move of the start position.
    let hinted = hint
        .trim_start_matches("hint (mcts:rollout:16): ")
        .split(", value")
        .next()
        .unwrap();
    let start = Crumble::new(6, 8).unwrap();
    assert!(
        notation::parse_move(&start, hinted, Frame::PerPlayer).is_ok(),
        "{hint}"
    );
    assert!(stdout.contains("Black resigns"), "{stdout}");
    assert!(
        stdout.contains("0-1: White wins (resignation); the game is saved in "),
        "{stdout}"
    );
    // The board after every move: the start, 1HN, the reply, the undo, 1HN, the reply.
    assert_eq!(stdout.matches("to move (turn ").count(), 6, "{stdout}");
    assert!(!stdout.contains('\x1b'), "--color never");

    let (saved, rec) = saved_game::<Crumble>(&out, "Tester", "random");
    assert_eq!(rec.notation, Frame::PerPlayer);
    assert_eq!(rec.moves.len(), 2, "the undone moves are gone: {saved}");
    assert_eq!(
        start
            .clone()
            .play_move(&notation::parse_move(&start, "1HN", Frame::PerPlayer).unwrap())
            .unwrap(),
        rec.moves[0]
    );
    assert_eq!(
        rec.end,
        Some(Ending::Resignation {
            winner: Color::White
        })
    );
    assert!(saved.contains("[Termination \"resignation\"]"));
    let end = final_position(&rec);
    assert!(end.is_over());

    // The saved game opens in the viewer.
    let html = dir.join("game.html");
    let page = view_page(&out, &[], &html);
    check_page(&page, 2);
    assert!(page.contains("Tester"));
    assert!(page.contains("0-1: White wins (resignation)"));
    assert!(!page.contains("id=\"chart\""), "random play has no values");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn playing_white_on_8x8_in_the_absolute_frame_saves_an_unfinished_game_with_values() {
    let dir = temp_dir("white");
    let out = dir.join("w.rec");
    let o = crumble_with_input(
        &[
            "play",
            "--as",
            "white",
            "--board",
            "8",
            "--frame",
            "absolute",
            "--agent",
            "mcts:rollout:8",
            "--color",
            "always",
            "-o",
            s(&out),
        ],
        "moves\nboard\n",
    );
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "stderr: {}\n{stdout}", text(&o.stderr));
    assert!(
        stdout.contains("Black (mcts:rollout:8) plays 1. "),
        "{stdout}"
    );
    assert!(stdout.contains(", value "), "{stdout}");
    assert!(stdout.contains("splits and joins"), "{stdout}");
    assert!(stdout.contains("end of input"), "{stdout}");
    assert!(stdout.contains("\x1b["), "--color always draws in colour");
    let saved = std::fs::read_to_string(&out).unwrap();
    let rec = Record::<Crumble>::parse(&saved).unwrap();
    assert_eq!(rec.start.board().board_size(), 8);
    assert_eq!(rec.notation, Frame::Absolute);
    assert_eq!(rec.tag("Black"), Some("mcts:rollout:8"));
    assert_eq!(rec.tag("White"), Some("human"));
    assert_eq!(rec.moves.len(), 1);
    assert_eq!(rec.end, None, "{saved}");
    assert!(
        rec.comment(0).is_some_and(|c| c.starts_with("value ")),
        "{saved}"
    );

    // The viewer charts the agent's value; White's view on request.
    let html = dir.join("w.html");
    let o = crumble(&[
        "view",
        "--record",
        s(&out),
        "--view",
        "white",
        "-o",
        s(&html),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    check_page(&page, 1);
    assert!(page.contains("id=\"chart\"") && page.contains("class=\"dot\""));
    assert!(page.contains("8\u{d7}8"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_refuses_a_bad_agent_and_an_existing_record_file() {
    let dir = temp_dir("refuse");
    let o = crumble_with_input(&["play", "--agent", "mcts:nonsense:5"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("unknown evaluator `nonsense`"));
    let existing = write_in(&dir, "taken.rec", "keep me");
    let o = crumble_with_input(&["play", "--agent", "random", "-o", s(&existing)], "1HN\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("already exists"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "keep me");
    let o = crumble_with_input(
        &[
            "play",
            "--agent",
            "random",
            "-o",
            s(&dir.join("no/such/dir.rec")),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("no directory"),
        "{}",
        text(&o.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn view_shows_a_game_of_a_selfplay_file_with_its_values() {
    let dir = temp_dir("crsp");
    let cfg = write_in(
        &dir,
        "sp.toml",
        "[selfplay]\nmax_turns = 14\nparallel_games = 2\ngames_per_file = 4\n",
    );
    let games = dir.join("games");
    selfplay_into(&games, s(&cfg), "mcts:uniform:8", "2", &[]);
    let file = games.join("selfplay-000000.crsp");

    let o = crumble(&["view", "--record", s(&file), "--list"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let listing = text(&o.stdout);
    assert_eq!(listing.lines().count(), 3, "{listing}");
    assert!(listing.starts_with("index\tgame\tmoves\tresult"));

    let sp = crumble_selfplay::record::read_file(&file).unwrap();
    let moves = crumble_selfplay::text_record::to_text_record::<Crumble>(&sp[1], None)
        .unwrap()
        .moves
        .len();
    let html = dir.join("g1.html");
    let page = view_page(&file, &["--game", "1"], &html);
    check_page(&page, moves);
    assert!(page.contains("id=\"chart\"") && page.contains("<polyline"));
    assert!(page.contains("game index 1 of 2"));

    // The text file beside it holds the same games, split at each record's tags.
    let o = crumble(&[
        "view",
        "--record",
        s(&file.with_extension("txt")),
        "--game",
        "1",
        "-o",
        s(&html),
        "--force",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    check_page(&std::fs::read_to_string(&html).unwrap(), moves);

    refused(
        &[
            "view",
            "--record",
            s(&file),
            "--game",
            "2",
            "-o",
            s(&html),
            "--force",
        ],
        &["holds 2 games (index 0 to 1)"],
    );

    // A game whose recorded result contradicts its moves is refused, naming the file and
    // the game's place in it, by `view` (any game of the file) and by `openings`.
    let mut forged = sp.clone();
    let other = if forged[1].winner() == Some(Player::First) {
        Player::Second
    } else {
        Player::First
    };
    forged[1].result = GameResult::Win(other);
    forged[1].ending = crumble_selfplay::Ending::Rules;
    let lies = dir.join("lies");
    std::fs::create_dir_all(&lies).unwrap();
    let liar = lies.join("liar.crsp");
    crumble_selfplay::record::write_file(&liar, &forged).unwrap();
    for args in [
        vec!["view", "--record", s(&liar), "--list"],
        vec![
            "view",
            "--record",
            s(&liar),
            "-o",
            s(&dir.join("liar.html")),
        ],
        vec!["openings", "--games", s(&lies)],
    ] {
        let o = crumble(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("liar.crsp")
                && err.contains("game index 1")
                && err.contains("record says"),
            "{args:?}: {err}"
        );
    }
    assert!(!dir.join("liar.html").exists());
    // The text file beside a .crsp file is an input too.
    refused(
        &[
            "view",
            "--record",
            s(&file),
            "-o",
            s(&file.with_extension("txt")),
            "--force",
        ],
        &["input of this command"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// An output that would replace an input is refused (even with --force), and so is any
/// existing file without --force; the input is left as it was.
#[test]
fn outputs_never_overwrite_inputs_or_existing_files() {
    let dir = temp_dir("outputs");
    let rec = dir.join("game.rec");
    let original = "[Result \"*\"]\n\n1. 1HN *\n";
    std::fs::write(&rec, original).unwrap();
    let same = format!("{}/./game.rec", dir.display());
    for args in [
        vec!["view", "--record", s(&rec), "-o", s(&rec)],
        vec!["view", "--record", s(&rec), "-o", &same, "--force"],
        vec!["show", "--record", s(&rec), "--svg", s(&rec)],
        vec!["show", "--record", s(&rec), "--svg", &same, "--force"],
    ] {
        let o = crumble(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("input of this command"), "{args:?}: {err}");
        assert_eq!(std::fs::read_to_string(&rec).unwrap(), original);
    }
    let other = write_in(&dir, "other.svg", "mine");
    refused(
        &["show", "--record", s(&rec), "--svg", s(&other)],
        &["--force"],
    );
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "mine");
    let o = crumble(&["show", "--record", s(&rec), "--svg", s(&other), "--force"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(std::fs::read_to_string(&other).unwrap().starts_with("<svg"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn view_names_the_players_of_a_match_game_from_the_text_beside_it() {
    let dir = temp_dir("match");
    let games = dir.join("m");
    let o = crumble(&[
        "match",
        "mcts:uniform:4",
        "random",
        "--games",
        "2",
        "--max-turns",
        "12",
        "--out",
        s(&games),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let file = games.join("match-000000.crsp");
    let o = crumble(&["view", "--record", s(&file), "--list"]);
    let listing = text(&o.stdout);
    assert!(
        listing.contains("\tmcts:uniform:4\trandom")
            && listing.contains("\trandom\tmcts:uniform:4"),
        "{listing}"
    );
    let html = dir.join("m.html");
    let page = view_page(&file, &[], &html);
    assert!(page.contains("mcts:uniform:4") && page.contains("random"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn view_refuses_bad_files_with_the_reason_and_where() {
    let dir = temp_dir("bad");
    let html = dir.join("x.html");
    let o = crumble(&[
        "view",
        "--record",
        s(&dir.join("missing.rec")),
        "-o",
        s(&html),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("cannot read record"));

    let binary = write_in(&dir, "junk.bin", [0xff, 0xfe, 0x00, 0x01]);
    let o = crumble(&["view", "--record", s(&binary), "-o", s(&html)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("neither a self-play record file"));

    let damaged = dir.join("damaged.crsp");
    let mut bytes = b"CRMBSP\r\n".to_vec();
    bytes.extend_from_slice(&[1, 0, 0, 0, 9, 0]);
    std::fs::write(&damaged, bytes).unwrap();
    refused(
        &["view", "--record", s(&damaged), "-o", s(&html)],
        &["truncated"],
    );

    // The second record of the file is bad on its line 3, the file's line 8.
    let two = write_in(
        &dir,
        "two.rec",
        "[Result \"*\"]\n\n1. 1HN *\n\n[Result \"*\"]\n\n1. 1HN\n9H *\n",
    );
    let o = crumble(&["view", "--record", s(&two), "--game", "1", "-o", s(&html)]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("two.rec line 8: move 1... (\"9H\") refused"),
        "{err}"
    );
    assert!(!err.contains("panicked"));
    assert!(!html.exists());
    std::fs::remove_dir_all(&dir).ok();
}
