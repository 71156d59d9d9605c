//! Every worked Splinter example of `games/splinter/RULES.md` section 13 (copied from the project's
//! shared `examples-splinter/`, format in its README.md) through one harness.

use crumble_core::games::splinter::{Splinter, notation, position};
use serde_json::Value;
use std::path::Path;

fn start_of(case: &Value, name: &str) -> Result<Splinter, String> {
    match &case["start"] {
        Value::String(s) if s == "standard" => {
            let w = case["width"].as_u64().ok_or(format!("{name}: width"))?;
            let h = case["height"].as_u64().ok_or(format!("{name}: height"))?;
            Splinter::standard(w as u8, h as u8).ok_or(format!("{name}: size {w}x{h}"))
        }
        pos @ Value::Object(_) => {
            position::from_json(&pos.to_string()).map_err(|e| format!("{name}: start: {e}"))
        }
        other => Err(format!("{name}: bad start {other}")),
    }
}

/// Parses, reprints and plays one move; the canonical text must parse back to itself.
fn play_one(game: &mut Splinter, text: &str) -> Result<(), String> {
    let mv = notation::parse_move(game.board(), text).map_err(|e| e.to_string())?;
    let canonical = game.canonical(&mv).map_err(|e| e.to_string())?;
    let printed = notation::move_text(game.board(), &canonical);
    let again = notation::parse_move(game.board(), &printed)
        .map_err(|e| format!("reprint '{printed}' fails: {e}"))?;
    if game.canonical(&again) != Ok(canonical) {
        return Err(format!(
            "'{printed}' (printed from '{text}') is another move"
        ));
    }
    if !game.legal_move_texts().contains(&printed) {
        return Err(format!(
            "'{printed}' is missing from the list of legal moves"
        ));
    }
    game.play(&mv).map_err(|e| e.to_string())
}

/// Runs one case; returns a description of the failure, if any.
fn check(path: &Path) -> Result<(), String> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap();
    let case: Value = serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
    let mut game = start_of(&case, &name)?;
    // A constructed start is stable on load.
    if case["start"].is_object() {
        let got = position::to_value(&game);
        let mut want = case["start"].clone();
        for key in ["last_move", "result"] {
            if want.get(key).is_none() {
                want[key] = Value::Null;
            }
        }
        if got != want {
            return Err(format!("{name}: loading the start changed it:\n{got}"));
        }
    }
    if let Some(t) = case.get("max_turns") {
        game.set_turn_limit(t.as_u64().ok_or(format!("{name}: max_turns"))? as u32);
    }
    let moves: Vec<&str> = case["moves"]
        .as_array()
        .ok_or(format!("{name}: moves"))?
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let error_at = case["expected_error"]
        .as_bool()
        .unwrap_or(false)
        .then(|| case["error_move_index"].as_u64().unwrap() as usize);
    for (i, text) in moves.iter().enumerate() {
        let before = game.clone();
        let result = play_one(&mut game, text);
        match (result, error_at) {
            (Err(_), Some(k)) if k == i + 1 => {
                if game != before {
                    return Err(format!("{name}: the refused move changed the game"));
                }
                return Ok(());
            }
            (Err(e), _) => return Err(format!("{name}: move {} '{text}' refused: {e}", i + 1)),
            (Ok(()), Some(k)) if k == i + 1 => {
                return Err(format!("{name}: move {k} '{text}' should be refused"));
            }
            (Ok(()), _) => {}
        }
    }
    if error_at.is_some() {
        return Err(format!("{name}: no move was refused"));
    }
    if let Some(want) = case.get("expected") {
        let got = position::to_value(&game);
        if &got != want {
            return Err(format!(
                "{name}: final position differs:\n got {got}\nwant {want}"
            ));
        }
        if game.is_over() && !game.legal_move_texts().is_empty() {
            return Err(format!("{name}: moves listed after the end"));
        }
    }
    Ok(())
}

#[test]
fn every_splinter_example_file() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/splinter-examples");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert_eq!(
        paths.len(),
        29,
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
