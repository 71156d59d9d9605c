//! Helpers shared by the `crumble` program's integration tests: run the binary, read its
//! output, check a refusal.
#![allow(dead_code)] // each test binary uses its own subset

pub mod examples;

use std::process::{Command, Output};

/// Runs `crumble` with `args` and waits for it.
pub fn crumble(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crumble"))
        .args(args)
        .output()
        .expect("the crumble binary runs")
}

/// The standard output of `crumble args`, which must succeed and print UTF-8.
pub fn ok(args: &[&str]) -> String {
    let o = crumble(args);
    assert!(o.status.success(), "args {args:?} failed: {}", stderr(&o));
    String::from_utf8(o.stdout).expect("UTF-8 output")
}

/// `text` as JSON, which it must be.
pub fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `crumble args` must fail as bad input does: exit status 2, nothing on stdout, no panic,
/// and every one of `parts` in its message.
pub fn refused(args: &[&str], parts: &[&str]) {
    let o = crumble(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "args {args:?}, stderr {err}");
    assert!(o.stdout.is_empty(), "args {args:?} printed {}", stdout(&o));
    assert!(!err.contains("panicked"), "args {args:?} panicked: {err}");
    for p in parts {
        assert!(err.contains(p), "args {args:?}: stderr {err:?} lacks {p:?}");
    }
}

/// `crumble replay ARGS` must be refused as [`refused`] says.
pub fn replay_refused(args: &[&str], parts: &[&str]) {
    refused(&[&["replay"], args].concat(), parts);
}

/// `crumble replay --game GAME MOVES...` must be refused as [`refused`] says.
pub fn moves_refused(game: &str, moves: &[&str], parts: &[&str]) {
    replay_refused(&[&["--game", game], moves].concat(), parts);
}

/// Runs `crumble` with `input` on its standard input (`NO_COLOR` unset: tests pass
/// `--color` where it matters).
pub fn crumble_with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_crumble"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the crumble binary runs");
    // A program that refuses its flags exits before reading: a closed pipe is fine then.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// Bytes as text, bad bytes replaced.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh directory `crumble-SUITE-PID-NAME` for one test.
pub fn temp_dir_of(suite: &str, name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("crumble-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A fresh directory for the test `name` of this test binary (`crumble-BINARY-PID-NAME`).
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    // This module is compiled into each test binary, whose crate name leads the path.
    let binary = module_path!().split("::").next().unwrap_or("test");
    temp_dir_of(binary, name)
}

/// Writes `text` to the file `name` in `dir` (a config, a record, a suite for one test) and
/// returns its path.
pub fn write_in(dir: &std::path::Path, name: &str, text: impl AsRef<[u8]>) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A path as a command-line argument.
pub fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

/// The path of `configs/NAME` as a command-line argument.
pub fn config(name: &str) -> String {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../configs")
        .join(name)
        .display()
        .to_string()
}

/// A temporary file, removed when dropped (so a test leaves nothing behind, also when it
/// fails).
pub struct TempFile(std::path::PathBuf);

impl std::ops::Deref for TempFile {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The file `crumble-SUITE-PID-NAME` in the temporary directory, holding `text`.
pub fn temp_file_of(suite: &str, name: &str, text: &str) -> TempFile {
    let path = std::env::temp_dir().join(format!("crumble-{suite}-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    TempFile(path)
}

/// `crumble play` against `random` as "Tester", without colour, the game saved in `out`,
/// `extra` flags added (a config, a seed) and `script` on the standard input; the run must
/// succeed. Returns the transcript.
pub fn play_as_tester(out: &std::path::Path, extra: &[&str], script: &str) -> String {
    let mut args = vec![
        "play", "--agent", "random", "--name", "Tester", "--color", "never", "-o",
    ];
    args.push(s(out));
    args.extend_from_slice(extra);
    let o = crumble_with_input(&args, script);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "stderr: {}\n{stdout}", text(&o.stderr));
    stdout
}

/// What every `crumble view` page must be, whatever the game: one self-contained document
/// with one frame (`frame_tag`, as `<g class="ply`) per position, the first one shown, one
/// move-list entry per move, a slider over the positions and two scripts (data and code),
/// each closed once: nothing in the data ends a script early.
pub fn check_page_frames(page: &str, moves: usize, frame_tag: &str) {
    assert!(page.starts_with("<!DOCTYPE html>"), "{}", &page[..80]);
    assert!(page.trim_end().ends_with("</html>"));
    for external in ["https://", "<link", "src=", "@import", "//cdn"] {
        assert!(!page.contains(external), "the page refers to {external}");
    }
    assert_eq!(page.matches(frame_tag).count(), moves + 1);
    assert_eq!(page.matches(&format!("{frame_tag} on\"")).count(), 1);
    for k in 0..=moves {
        assert!(page.contains(&format!("id=\"ply-{k}\"")), "frame {k}");
    }
    assert_eq!(page.matches("class=\"mv\"").count(), moves);
    assert!(page.contains(&format!("max=\"{moves}\"")));
    assert_eq!(page.matches("<script").count(), 2);
    assert_eq!(page.matches("</script>").count(), 2);
}

/// `crumble view --record RECORD EXTRA -o PAGE`, which must succeed; returns the page.
pub fn view_page(record: &std::path::Path, extra: &[&str], page: &std::path::Path) -> String {
    let mut args = vec!["view", "--record", s(record)];
    args.extend_from_slice(extra);
    args.extend(["-o", s(page)]);
    let o = crumble(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    std::fs::read_to_string(page).unwrap()
}

/// Two games of `random` against itself under `configs/CONFIG`, at most `max_turns` turns
/// each, written to `dir` by `crumble match --out`; returns the record file.
pub fn match_of_random(
    config_name: &str,
    max_turns: &str,
    dir: &std::path::Path,
) -> std::path::PathBuf {
    let o = crumble(&[
        "match",
        "random",
        "random",
        "--config",
        &config(config_name),
        "--games",
        "2",
        "--max-turns",
        max_turns,
        "--out",
        s(dir),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    dir.join("match-000000.crsp")
}

/// The game `crumble play` saved in `out`, as text and as a record of `G`; its tags name the
/// players (`black`, `white`) and today's date.
pub fn saved_game<G: crumble_core::GameText>(
    out: &std::path::Path,
    black: &str,
    white: &str,
) -> (String, crumble_core::game::record::Record<G>) {
    let saved = std::fs::read_to_string(out).unwrap();
    let rec = crumble_core::game::record::Record::<G>::parse(&saved)
        .unwrap_or_else(|e| panic!("{e}\n{saved}"));
    assert_eq!(rec.tag("Black"), Some(black), "{saved}");
    assert_eq!(rec.tag("White"), Some(white), "{saved}");
    assert!(rec.tag("Date").is_some_and(|d| d.len() == 10), "{saved}");
    (saved, rec)
}

/// The last position of a record, with its end (a resignation or agreement the record states
/// included).
pub fn final_position<G: crumble_core::GameText>(rec: &crumble_core::game::record::Record<G>) -> G {
    rec.ended_positions().unwrap().pop().unwrap()
}

/// `crumble selfplay` of `games` games by `agent` under the config file `config`, into
/// `out`, `extra` flags added; it must succeed.
pub fn selfplay_into(
    out: &std::path::Path,
    config: &str,
    agent: &str,
    games: &str,
    extra: &[&str],
) {
    let mut args = vec!["selfplay", "--config", config, "--agent", agent];
    args.extend(["--games", games, "--out", s(out)]);
    args.extend_from_slice(extra);
    ok(&args);
}
