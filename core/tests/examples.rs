//! One data-driven harness for every worked example: the files games/crumble/RULES.md section 7 ships
//! (copied from the project's shared examples) and our own cases, all in `tests/data/examples`
//! (see its README.md for the format).

use crumble_core::games::crumble::Crumble;
use crumble_core::games::crumble::notation::{self, Frame};
use crumble_core::games::crumble::position;
use serde_json::Value;
use std::path::Path;

fn start_of(case: &Value, name: &str) -> Crumble {
    match &case["start"] {
        Value::String(s) if s == "standard" => {
            let n = case["board"]
                .as_u64()
                .unwrap_or_else(|| panic!("{name}: board")) as u16;
            let r = case["resolution"]
                .as_u64()
                .unwrap_or_else(|| panic!("{name}: resolution")) as u16;
            Crumble::new(n, r).unwrap()
        }
        pos @ Value::Object(_) => {
            position::from_json(&pos.to_string()).unwrap_or_else(|e| panic!("{name}: start: {e}"))
        }
        other => panic!("{name}: bad start {other}"),
    }
}

/// Runs one case; returns a description of the failure, if any.
fn check(path: &Path) -> Result<(), String> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap();
    let case: Value = serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
    let frame = Frame::from_name(case["frame"].as_str().unwrap_or("per-player"))
        .ok_or(format!("{name}: frame"))?;
    let mut game = start_of(&case, &name);
    let before = position::to_json(&game);
    // A constructed start is stable on load.
    if case["start"].is_object() {
        let a: Value = serde_json::from_str(&before).unwrap();
        let mut b = case["start"].clone();
        if b.get("result").is_none() {
            b["result"] = Value::Null;
        }
        if a != b {
            return Err(format!("{name}: loading the start changed it:\n{before}"));
        }
    }
    let moves: Vec<&str> = case["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let error_at = case["expected_error"]
        .as_bool()
        .unwrap_or(false)
        .then(|| case["error_move_index"].as_u64().unwrap() as usize);
    for (i, text) in moves.iter().enumerate() {
        let result = notation::parse_move(&game, text, frame)
            .map_err(|e| e.to_string())
            .and_then(|mv| {
                let printed = notation::format_move(&game, &mv, frame)
                    .ok_or("a parsed move does not print")?;
                let again = notation::parse_move(&game, &printed, frame)
                    .map_err(|e| format!("reprint '{printed}' fails: {e}"))?;
                if again != mv {
                    return Err(format!(
                        "'{printed}' (printed from '{text}') parses to another move"
                    ));
                }
                game.play_move(&mv).map_err(|e| e.to_string())
            });
        match (result, error_at) {
            (Err(_), Some(k)) if k == i + 1 => return Ok(()),
            (Err(e), _) => return Err(format!("{name}: move {} '{text}' refused: {e}", i + 1)),
            (Ok(_), Some(k)) if k == i + 1 => {
                return Err(format!("{name}: move {k} '{text}' should be refused"));
            }
            (Ok(_), _) => {}
        }
    }
    if error_at.is_some() {
        return Err(format!("{name}: no move was refused"));
    }
    if let Some(expected) = case.get("expected") {
        let got: Value = serde_json::from_str(&position::to_json(&game)).unwrap();
        let mut want = expected.clone();
        if want.get("result").is_none() {
            want["result"] = Value::Null;
        }
        if got != want {
            return Err(format!(
                "{name}: final position differs:\n got {got}\nwant {want}"
            ));
        }
    }
    Ok(())
}

#[test]
fn every_example_file() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/examples");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 24,
        "example files missing from {}",
        dir.display()
    );
    let failures: Vec<String> = paths.iter().filter_map(|p| check(p).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} examples fail:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n\n")
    );
}
