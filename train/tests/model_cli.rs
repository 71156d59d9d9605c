//! The network through the `crumble` program: `ckpt:` agents load checkpoints, bad ones give
//! a clear error. (`crumble bench net` is a benchmark: it is not run here.)

mod common;
use common::{crumble, write_in};

use crumble_model::{NetConfig, checkpoint, default_device};
use std::process::Command;

#[test]
fn a_checkpoint_agent_plays_a_match() {
    let dir = std::env::temp_dir().join(format!("crumble-model-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tiny.crnet");
    let cfg = NetConfig::new()
        .with_channels(8)
        .with_blocks(1)
        .with_value_hidden(8);
    checkpoint::save(&path, &cfg, &cfg.init(&default_device()).unwrap()).unwrap();
    let spec = format!("ckpt:{}:4", path.display());
    let out = crumble(&[
        "match",
        &spec,
        "random",
        "--games",
        "2",
        "--max-turns",
        "6",
        "--parallel",
        "2",
    ]);
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    let bad = write_in(&dir, "bad.crnet", b"CRMBNET\n\x01\x00");
    let spec = format!("ckpt:{}:4", bad.display());
    let out = crumble(&["match", &spec, "random", "--games", "2"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.crnet") && err.contains("truncated"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `BURN_DEVICE` naming a backend this build lacks is refused before any work, naming the
/// variable, its value and the backends there are; `flex` is accepted.
#[test]
fn an_unknown_burn_device_is_refused_clearly() {
    let out = Command::new(env!("CARGO_BIN_EXE_crumble"))
        .env("BURN_DEVICE", "quantum")
        .args(["random-game", "--seed", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("BURN_DEVICE=quantum") && err.contains("flex"),
        "{err}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_crumble"))
        .env("BURN_DEVICE", "flex")
        .args(["random-game", "--seed", "1"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
