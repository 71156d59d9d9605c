//! Helpers shared by the `crumble` program's integration tests: run the binary, read its
//! output, check a refusal.
#![allow(dead_code)] // each test binary uses its own subset

use std::process::{Command, Output};

/// Runs `crumble` with `args` and waits for it.
pub fn crumble(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crumble"))
        .args(args)
        .output()
        .expect("the crumble binary runs")
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
