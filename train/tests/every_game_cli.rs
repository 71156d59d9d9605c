//! The rules commands written once for every game, run over the registry: whatever game a
//! line of `train/src/games.rs` adds, `random-game`, `replay` and `moves` play it through its
//! text layer, and bad moves and flags are refused with exit 2.

mod common;

use common::{crumble, crumble_with_input, refused, stderr, stdout, temp_dir, write_in};
use crumble_train::games::GAMES;

/// The moves of a random game of `game`, and its result line.
fn random_game(game: &str, seed: &str) -> (Vec<String>, String) {
    let out = crumble(&["random-game", "--game", game, "--seed", seed]);
    assert!(out.status.success(), "{game}: {}", stderr(&out));
    let text = stdout(&out);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let result = lines.pop().expect("a result line");
    assert!(result.starts_with("# result: "), "{game}: {text}");
    assert_ne!(result, "# result: null", "{game}: a random game ends");
    (lines, result)
}

#[test]
fn every_game_replays_its_random_games_and_lists_its_moves() {
    for &game in GAMES {
        let (moves, result) = random_game(game, "3");
        assert!(!moves.is_empty(), "{game}");
        // The same seed gives the same game.
        assert_eq!(random_game(game, "3").0, moves, "{game}");
        // Replaying the game's moves gives a position; one move fewer leaves a move to list.
        let mut args = vec!["replay", "--game", game];
        args.extend(moves.iter().map(String::as_str));
        let out = crumble(&args);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        assert!(stdout(&out).trim_start().starts_with('{'), "{game}");
        let mut args = vec!["moves", "--game", game];
        args.extend(moves[..moves.len() - 1].iter().map(String::as_str));
        let out = crumble(&args);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        let listed = stdout(&out);
        assert!(
            !listed.is_empty(),
            "{game}: no move listed before the last turn"
        );
        // Every move listed at the start replays.
        let out = crumble(&["moves", "--game", game]);
        for mv in stdout(&out).lines().take(20) {
            let out = crumble(&["replay", "--game", game, mv]);
            assert!(out.status.success(), "{game} {mv}: {}", stderr(&out));
        }
        if result.contains("limit") {
            // The random game's turn limit ended it; `moves` and `replay` set none.
            continue;
        }
        // After the end: nothing listed, a note on stderr.
        let mut args = vec!["moves", "--game", game];
        args.extend(moves.iter().map(String::as_str));
        let out = crumble(&args);
        assert!(out.status.success(), "{game}");
        assert_eq!(stdout(&out), "", "{game}");
        assert!(stderr(&out).contains("the game is over"), "{game}");
    }
}

#[test]
fn every_game_refuses_a_bad_move_and_a_move_after_the_end() {
    for &game in GAMES {
        refused(
            &["replay", "--game", game, "zz9-?"],
            &["move 1 (\"zz9-?\") refused"],
        );
        let (mut moves, result) = random_game(game, "5");
        if result.contains("limit") {
            continue;
        }
        let last = moves.last().cloned().expect("a move");
        moves.push(last);
        let mut args = vec!["replay", "--game", game];
        args.extend(moves.iter().map(String::as_str));
        refused(&args, &[&format!("move {} (", moves.len()), "refused"]);
    }
}

#[test]
fn the_test_games_play_from_position_files_and_refuse_board_flags() {
    let dir = temp_dir("from-positions");
    let ttt = write_in(&dir, "ttt.json", r#"{"cells":"xo.x.o..."}"#);
    let out = crumble(&[
        "moves",
        "--game",
        "tictactoe",
        "--position",
        ttt.to_str().unwrap(),
    ]);
    assert_eq!(stdout(&out), "c3\nb2\na1\nb1\nc1\n");
    let out = crumble(&[
        "replay",
        "--game",
        "tictactoe",
        "--position",
        ttt.to_str().unwrap(),
        "a1",
    ]);
    assert_eq!(
        stdout(&out),
        "{\"cells\":\"xo.x.ox..\"}\n",
        "{}",
        stderr(&out)
    );
    let nim = write_in(&dir, "nim.json", r#"{"heaps":[2,0,1]}"#);
    let out = crumble(&[
        "moves",
        "--game",
        "nim",
        "--position",
        nim.to_str().unwrap(),
    ]);
    assert_eq!(stdout(&out), "1-1\n1-2\n3-1\n");
    std::fs::write(&nim, r#"{"heaps":[2,0,1], "extra": 1}"#).unwrap();
    refused(
        &[
            "replay",
            "--game",
            "nim",
            "--position",
            nim.to_str().unwrap(),
        ],
        &["position file", "refused"],
    );
    for flag in [
        ["--board", "4"],
        ["--size", "5"],
        ["--width", "6"],
        ["--frame", "absolute"],
    ] {
        refused(
            &["moves", "--game", "nim", flag[0], flag[1]],
            &[flag[0], "Nim does not take it"],
        );
    }
    refused(&["moves", "--game", "chess"], &["chess"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_other_game_refuses_crumbles_flags_by_name() {
    for &game in &GAMES[1..] {
        let title = crumble_train::for_game!(game, G => <G as crumble_core::GameText>::TITLE);
        let says = format!("is a Crumble flag: {title} does not take it");
        for flag in [
            ["--board", "6"],
            ["--resolution", "8"],
            ["--frame", "absolute"],
        ] {
            refused(
                &["replay", "--game", game, flag[0], flag[1]],
                &[flag[0], &says],
            );
        }
    }
}

#[test]
fn every_game_has_a_rules_benchmark() {
    for &game in GAMES {
        let out = crumble(&[
            "bench",
            "rules",
            "--game",
            game,
            "--json",
            "--seconds",
            "0.05",
        ]);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert!(
            v["games_per_sec_per_core"].as_f64().unwrap() > 0.0,
            "{game}: {v}"
        );
        if game != "crumble" {
            assert_eq!(v["game"], game, "{v}");
            assert!(v["games"].as_u64().unwrap() >= 1, "{v}");
        }
    }
}

#[test]
fn every_game_shows_its_positions() {
    for &game in GAMES {
        let (moves, _) = random_game(game, "4");
        let mut args = vec!["show", "--game", game, "--color", "never"];
        args.extend(moves.iter().take(2).map(String::as_str));
        let out = crumble(&args);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        assert!(
            stdout(&out).lines().count() >= 3,
            "{game}: {}",
            stdout(&out)
        );
    }
    let out = crumble(&["show", "--game", "tictactoe", "b2", "a3"]);
    assert_eq!(
        stdout(&out),
        "3 o . .\n2 . x .\n1 . . .\n  a b c\nlast move: a3 (white)\nBlack to move (turn 3)\n"
    );
    refused(
        &["show", "--game", "nim", "--svg", "x.svg"],
        &["--svg", "text diagram"],
    );
}

#[test]
fn crumble_only_commands_refuse_another_games_config() {
    refused(
        &[
            "tactics",
            "--config",
            "../configs/nim.toml",
            "--agent",
            "random",
        ],
        &["Crumble's", "nim"],
    );
    refused(
        &[
            "openings",
            "--config",
            "../configs/nim.toml",
            "--games",
            "tests/data",
        ],
        &["Crumble's", "nim"],
    );
}

#[test]
fn play_refuses_crumble_flags_with_another_games_config() {
    for (config, says) in [
        ("splinter.toml", "--board is a Crumble flag"),
        (
            "crumo-tiny.toml",
            "--board is a Crumble flag: Crumo does not take it",
        ),
    ] {
        refused(
            &["play", "--config", &common::config(config), "--board", "6"],
            &[says],
        );
    }
}

#[test]
fn every_game_counts_its_moves() {
    for &game in GAMES {
        let out = crumble(&["perft", "--game", game, "--turns", "1", "--divide"]);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        let text = stdout(&out);
        let total: u64 = text
            .lines()
            .find_map(|l| l.strip_prefix("perft 1 turns: "))
            .unwrap_or_else(|| panic!("{game}: {text}"))
            .parse()
            .unwrap();
        let lines = text.lines().count() as u64 - 2;
        assert_eq!(lines, total, "{game}: one line a first move:\n{text}");
    }
    let out = crumble(&["perft", "--game", "tictactoe", "--turns", "2"]);
    assert!(
        stdout(&out).contains("perft 2 turns: 72\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn every_game_solves_short_wins() {
    for &game in GAMES {
        let (moves, _) = random_game(game, "6");
        let mut args = vec!["solve", "--game", game, "--depth", "1"];
        args.extend(moves.iter().take(moves.len() - 1).map(String::as_str));
        let out = crumble(&args);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        assert!(stdout(&out).starts_with("# "), "{game}: {}", stdout(&out));
    }
    // X to move blocks O's diagonal at c1 and so threatens two lines at once.
    let out = crumble(&["solve", "--game", "tictactoe", "a3", "a2", "c3", "b2"]);
    let text = stdout(&out);
    assert!(text.contains("1 moves win at once"), "{text}");
    let out = crumble(&["solve", "--game", "tictactoe", "c3", "a3", "a1", "b2"]);
    let text = stdout(&out);
    assert!(
        text.contains("forced win within two turns (0 moves win at once, 1 win next turn")
            && text.contains("\nc1\n"),
        "{text}"
    );
    refused(&["solve", "--game", "nim", "--annotate"], &["--annotate"]);
}

/// `crumble play` for `game` (its config, `configs/GAME.toml`; Crumble's is the default) from
/// the position file `start`, the standard input `script`, the game saved in `out`; returns
/// the transcript.
fn play(game: &str, start: &std::path::Path, out: &std::path::Path, script: &str) -> String {
    let config = common::config(&format!("{game}.toml"));
    let mut args = vec!["play", "--agent", "random", "-o", out.to_str().unwrap()];
    args.extend(["--position", start.to_str().unwrap()]);
    if game != GAMES[0] {
        args.extend(["--config", config.as_str()]);
    }
    let o = crumble_with_input(&args, script);
    assert!(o.status.success(), "{game}: {}", stderr(&o));
    stdout(&o)
}

#[test]
fn every_game_plays_in_the_terminal_and_its_saved_game_draws_as_a_page() {
    let dir = temp_dir("play");
    for &game in GAMES {
        let out = crumble(&["moves", "--game", game]);
        let first = stdout(&out).lines().next().unwrap().trim().to_string();
        // The start `moves` lists from, as the position file of the session.
        let start = dir.join(format!("{game}.json"));
        std::fs::write(&start, stdout(&crumble(&["replay", "--game", game]))).unwrap();
        let rec = dir.join(format!("{game}.rec"));
        let transcript = play(
            game,
            &start,
            &rec,
            &format!("moves\n{first}\nundo\n{first}\nresign\n"),
        );
        assert!(transcript.contains("you play 1. "), "{game}: {transcript}");
        assert!(
            transcript.contains("took back your move"),
            "{game}: {transcript}"
        );
        assert!(transcript.contains("resigns"), "{game}: {transcript}");
        let saved = std::fs::read_to_string(&rec).unwrap();
        // A resignation (by the colour the person ended with: Crumo's seats may swap).
        assert!(
            saved.contains("[Termination \"resignation\"]") && !saved.contains("[Result \"*\"]"),
            "{game}: {saved}"
        );
        let page = dir.join(format!("{game}.html"));
        let o = crumble(&[
            "view",
            "--record",
            rec.to_str().unwrap(),
            "-o",
            page.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(
            html.contains("data-ply=\"1\""),
            "{game}: no move on the page"
        );
        let o = crumble(&["view", "--record", rec.to_str().unwrap(), "--list"]);
        assert!(
            stdout(&o)
                .lines()
                .nth(1)
                .is_some_and(|l| l.contains("resignation")),
            "{game}: {}",
            stdout(&o)
        );
        // `show` draws the record's positions (the record names its game): the start, and
        // after its first move; a move past the end is refused.
        let r = rec.to_str().unwrap();
        if game != GAMES[0] {
            // Crumble's frame flag: the other games have one notation.
            let other = dir.join("x.html");
            refused(
                &[
                    "view",
                    "--record",
                    r,
                    "--frame",
                    "absolute",
                    "-o",
                    other.to_str().unwrap(),
                ],
                &["--frame is a Crumble flag"],
            );
        }
        let shown = |ply: &str| {
            let o = crumble(&["show", "--record", r, "--ply", ply, "--color", "never"]);
            assert!(o.status.success(), "{game} --ply {ply}: {}", stderr(&o));
            stdout(&o)
        };
        assert_ne!(
            shown("0"),
            shown("1"),
            "{game}: the move changes the picture"
        );
        refused(
            &["show", "--record", r, "--ply", "99"],
            &["--ply 99: the record has only"],
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `play --agent solver` answers in the test games with an exactly best move: from Nim's
/// heaps 1 and 2, after the person empties the first heap, only taking both of the second
/// wins.
#[test]
fn play_against_the_solver_in_a_test_game() {
    let dir = temp_dir("play-solver");
    let start = write_in(&dir, "nim.json", "{\"heaps\": [1, 2]}");
    let config = common::config("nim.toml");
    let rec = dir.join("nim.rec");
    let args = [
        "play",
        "--agent",
        "solver",
        "--config",
        config.as_str(),
        "--position",
        start.to_str().unwrap(),
        "-o",
        rec.to_str().unwrap(),
    ];
    let o = crumble_with_input(&args, "1-1\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let transcript = stdout(&o);
    assert!(transcript.contains("2-2"), "{transcript}");
    std::fs::remove_dir_all(&dir).ok();
}
