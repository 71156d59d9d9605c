//! Refusals that come before any work (issue: late or missing refusals), messages that
//! quote user input safely, and outputs that would replace files.

mod common;
use common::{crumble, refused, stderr, temp_dir};

use crumble_model::{NetConfig, checkpoint, default_device};
use std::io::Write as _;
use std::process::{Command, Stdio};

/// Zero counts and non-finite numbers are refused by the argument parser, before any game
/// is played or any benchmark runs. Each of these used to run first (or forever).
#[test]
fn bad_numbers_are_refused_before_any_work() {
    for (args, flag) in [
        (vec!["bench", "mcts", "--sims", "0"], "--sims"),
        (
            vec!["bench", "mcts", "--selfplay-sims", "0"],
            "--selfplay-sims",
        ),
        (vec!["bench", "mcts", "--seconds", "nan"], "--seconds"),
        (vec!["bench", "net", "--seconds", "inf"], "--seconds"),
        (
            vec![
                "tournament",
                "--agents",
                "random",
                "mcts:rollout:4",
                "--prior-draws",
                "nan",
            ],
            "--prior-draws",
        ),
        (
            vec![
                "tournament",
                "--agents",
                "random",
                "mcts:rollout:4",
                "--prior-draws=-1",
            ],
            "--prior-draws",
        ),
        (
            vec![
                "tactics",
                "--generate",
                "--out",
                "/nonexistent/t",
                "--per-kind",
                "0",
            ],
            "--per-kind",
        ),
        (
            vec!["tactics", "--agent", "random", "--every", "0"],
            "--every",
        ),
        (
            vec!["match", "random", "random", "--concurrency", "0"],
            "--concurrency",
        ),
        (
            vec![
                "openings", "--games", "3", "--agent", "random", "--top", "0",
            ],
            "--top",
        ),
        (
            vec![
                "selfplay",
                "--agent",
                "random",
                "--games",
                "0",
                "--out",
                "/nonexistent/s",
            ],
            "--games",
        ),
    ] {
        refused(&args, &[flag]);
    }
}

/// `play` with a checkpoint for another resolution fails before the game starts, and so
/// writes no record.
#[test]
fn play_refuses_a_checkpoint_for_another_board_before_writing_anything() {
    let dir = temp_dir("play");
    let net = dir.join("r4.crnet");
    let cfg = NetConfig::new()
        .with_resolution(4)
        .with_channels(4)
        .with_blocks(1)
        .with_value_hidden(4);
    checkpoint::save(&net, &cfg, &cfg.init(&default_device()).unwrap()).unwrap();
    let rec = dir.join("game.rec");
    let mut child = Command::new(env!("CARGO_BIN_EXE_crumble"))
        .args([
            "play",
            "--agent",
            &format!("ckpt:{}:4", net.display()),
            "--as",
            "white",
            "-o",
            rec.to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The program may exit before reading: a closed pipe is fine then.
    let _ = child.stdin.take().unwrap().write_all(b"quit\n");
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("resolution"), "{err}");
    assert!(!rec.exists(), "a record was written: {err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A raw escape byte in a bad move is not echoed to the terminal.
#[test]
fn control_characters_of_user_input_are_escaped() {
    let o = crumble(&["replay", "1H\u{1b}[2J"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains('\u{1b}'), "{err:?}");
    assert!(err.contains("\\u{1b}"), "{err:?}");
}

/// A bad move's place is counted in characters, not bytes.
#[test]
fn positions_in_moves_are_characters() {
    let o = crumble(&["replay", "1H１"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("at character 3"), "{err}");
}

/// Outputs of the directory-writing commands are refused at the start when they exist.
#[test]
fn existing_outputs_are_refused_before_the_games() {
    let dir = temp_dir("outs");
    std::fs::write(dir.join("openings.md"), "mine").unwrap();
    refused(
        &[
            "openings",
            "--games",
            "200",
            "--agent",
            "random",
            "--out",
            dir.to_str().unwrap(),
        ],
        &["openings.md", "--force"],
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("openings.md")).unwrap(),
        "mine"
    );
    std::fs::remove_dir_all(&dir).ok();
}
