//! One data-driven harness for every game's worked examples, each game's files in its own
//! folder of `tests/data` (format in the folder's README.md): Crumble's (games/crumble/RULES.md
//! section 7, and our own cases, in `examples`), Splinter's (games/splinter/RULES.md section
//! 13) and Crumo's (games/crumo/RULES.md section 14; refused moves must be refused for the rule
//! the example is about). Every move played is printed back and read again as itself.

mod crumo_common;
use crumble_core::GameState;
use crumble_core::game::CompleteMoves;
use crumble_core::games::crumble::Crumble;
use crumble_core::games::crumble::notation::{self, Frame};
use crumble_core::games::crumble::position;
use crumble_core::games::crumo::{MoveError, MoveRuleError};
use crumble_core::games::splinter::{self, Splinter};
use crumo_common::{NotationError, example, example_moves, json, same_position};
use serde_json::Value;
use std::fmt::Display;
use std::path::{Path, PathBuf};

// ------------------------------------------------------------------- the shared harness

/// The example files of `tests/data/{dir}`, sorted.
fn example_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
}

/// Runs `check` on every example of `tests/data/{dir}` and fails listing every failure;
/// returns how many examples there are.
fn every_example_passes(dir: &str, check: impl Fn(&str, &Value) -> Result<(), String>) -> usize {
    let paths = example_files(dir);
    let failures: Vec<String> = paths
        .iter()
        .filter_map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(path).unwrap();
            let checked = serde_json::from_str(&text)
                .map_err(|e| e.to_string())
                .and_then(|case| check(&name, &case));
            checked.err().map(|e| format!("{name}: {e}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} examples of {dir} fail:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n\n")
    );
    paths.len()
}

/// Plays a case's moves through `play_one`, which returns the game's refusal inside (`Ok(Err)`)
/// and a failure of the harness's own checks outside. The case's `error_move_index` (1-based,
/// when `expected_error`) must be refused and every move before it accepted; returns that
/// refusal.
fn play_case<E: Display>(
    case: &Value,
    mut play_one: impl FnMut(&str) -> Result<Result<(), E>, String>,
) -> Result<Option<E>, String> {
    let error_at = (case["expected_error"] == json!(true))
        .then(|| case["error_move_index"].as_u64().unwrap() as usize);
    let moves = case["moves"].as_array().ok_or("moves")?;
    for (i, text) in moves.iter().enumerate() {
        let text = text.as_str().unwrap();
        let played = play_one(text).map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        match (played, error_at) {
            (Err(e), Some(k)) if k == i + 1 => return Ok(Some(e)),
            (Err(e), _) => return Err(format!("move {} '{text}' refused: {e}", i + 1)),
            (Ok(()), Some(k)) if k == i + 1 => {
                return Err(format!("move {k} '{text}' should be refused"));
            }
            (Ok(()), _) => {}
        }
    }
    match error_at {
        Some(_) => Err("no move was refused".into()),
        None => Ok(None),
    }
}

/// `v` with each of `keys` it lacks set to null (the position formats write them).
fn with_nulls(v: &Value, keys: &[&str]) -> Value {
    let mut v = v.clone();
    for key in keys {
        if v.get(key).is_none() {
            v[key] = Value::Null;
        }
    }
    v
}

// ------------------------------------------------------------------------------ Crumble

fn crumble_start(case: &Value) -> Result<Crumble, String> {
    match &case["start"] {
        Value::String(s) if s == "standard" => {
            let n = case["board"].as_u64().ok_or("board")? as u16;
            let r = case["resolution"].as_u64().ok_or("resolution")? as u16;
            Ok(Crumble::new(n, r).unwrap())
        }
        pos @ Value::Object(_) => {
            position::from_json(&pos.to_string()).map_err(|e| format!("start: {e}"))
        }
        other => Err(format!("bad start {other}")),
    }
}

fn check_crumble(case: &Value) -> Result<(), String> {
    let frame = Frame::from_name(case["frame"].as_str().unwrap_or("per-player")).ok_or("frame")?;
    let mut game = crumble_start(case)?;
    let position_of =
        |game: &Crumble| -> Value { serde_json::from_str(&position::to_json(game)).unwrap() };
    // A constructed start is stable on load.
    if case["start"].is_object() && position_of(&game) != with_nulls(&case["start"], &["result"]) {
        return Err(format!(
            "loading the start changed it:\n{}",
            position::to_json(&game)
        ));
    }
    play_case(case, |text| {
        let mv = match notation::parse_move(&game, text, frame) {
            Ok(mv) => mv,
            Err(e) => return Ok(Err(e.to_string())),
        };
        let printed =
            notation::format_move(&game, &mv, frame).ok_or("a parsed move does not print")?;
        let again = notation::parse_move(&game, &printed, frame)
            .map_err(|e| format!("reprint '{printed}' fails: {e}"))?;
        if again != mv {
            return Err(format!(
                "'{printed}' (printed from '{text}') parses to another move"
            ));
        }
        Ok(game.play_move(&mv).map(|_| ()).map_err(|e| e.to_string()))
    })?;
    if let Some(expected) = case.get("expected") {
        let (got, want) = (position_of(&game), with_nulls(expected, &["result"]));
        if got != want {
            return Err(format!("final position differs:\n got {got}\nwant {want}"));
        }
    }
    Ok(())
}

#[test]
fn every_crumble_example_file() {
    let n = every_example_passes("examples", |_, case| check_crumble(case));
    assert!(n >= 24, "example files missing from tests/data/examples");
}

// ----------------------------------------------------------------------------- Splinter

fn splinter_start(case: &Value) -> Result<Splinter, String> {
    match &case["start"] {
        Value::String(s) if s == "standard" => {
            let w = case["width"].as_u64().ok_or("width")?;
            let h = case["height"].as_u64().ok_or("height")?;
            Splinter::standard(w as u8, h as u8).ok_or(format!("size {w}x{h}"))
        }
        pos @ Value::Object(_) => {
            splinter::position::from_json(&pos.to_string()).map_err(|e| format!("start: {e}"))
        }
        other => Err(format!("bad start {other}")),
    }
}

/// Parses, reprints and plays one move; the canonical text must parse back to itself and be
/// in the list of legal moves, and a refused move must change nothing.
fn play_splinter(game: &mut Splinter, text: &str) -> Result<Result<(), String>, String> {
    use splinter::notation;
    let before = game.clone();
    let refused = |game: &Splinter, e: String| {
        if *game != before {
            return Err("the refused move changed the game".to_string());
        }
        Ok(Err(e))
    };
    let mv = match notation::parse_move(game.board(), text) {
        Ok(mv) => mv,
        Err(e) => return refused(game, e.to_string()),
    };
    let canonical = match game.canonical(&mv) {
        Ok(c) => c,
        Err(e) => return refused(game, e.to_string()),
    };
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
    match game.play(&mv) {
        Ok(()) => Ok(Ok(())),
        Err(e) => refused(game, e.to_string()),
    }
}

fn check_splinter(case: &Value) -> Result<(), String> {
    let mut game = splinter_start(case)?;
    let position_of = splinter::position::to_value;
    // A constructed start is stable on load.
    if case["start"].is_object() {
        let got = position_of(&game);
        if got != with_nulls(&case["start"], &["last_move", "result"]) {
            return Err(format!("loading the start changed it:\n{got}"));
        }
    }
    if let Some(t) = case.get("max_turns") {
        game.set_turn_limit(t.as_u64().ok_or("max_turns")? as u32);
    }
    play_case(case, |text| play_splinter(&mut game, text))?;
    if let Some(want) = case.get("expected") {
        let got = position_of(&game);
        if &got != want {
            return Err(format!("final position differs:\n got {got}\nwant {want}"));
        }
        if game.is_over() && !game.legal_move_texts().is_empty() {
            return Err("moves listed after the end".into());
        }
    }
    Ok(())
}

#[test]
fn every_splinter_example_file() {
    let n = every_example_passes("splinter-examples", |_, case| check_splinter(case));
    assert_eq!(
        n, 29,
        "example files missing from tests/data/splinter-examples"
    );
}

// -------------------------------------------------------------------------------- Crumo

/// The refusal each refused example expects, by file.
fn expected_refusal(file: &str, e: &MoveError) -> bool {
    match file {
        "05-2-dead-on-arrival-refused.json" => matches!(
            e,
            MoveError::Rules(MoveRuleError::DeadOnArrival {
                attack: 2,
                defence: 1,
                ..
            })
        ),
        "05-2-enemy-at-distance-refused.json" => {
            matches!(e, MoveError::Rules(MoveRuleError::GuardsEnemy { enemy, .. }) if enemy == "e5")
        }
        "05-2-no-point-at-distance-refused.json" => {
            matches!(
                e,
                MoveError::Rules(MoveRuleError::NoPointAtDistance { longest: 4, .. })
            )
        }
        "06-1-enemy-landing-refused.json" => {
            matches!(e, MoveError::Rules(MoveRuleError::LandsOnEnemy { .. }))
        }
        "06-1-too-few-pieces-refused.json" => {
            matches!(
                e,
                MoveError::Rules(MoveRuleError::TooFewPieces {
                    pieces: 3,
                    height: 2,
                    ..
                })
            )
        }
        "06-5-complete-after-complete-refused.json" | "06-5-own-loss-is-not-capturing.json" => {
            matches!(e, MoveError::Rules(MoveRuleError::CompleteAfterComplete))
        }
        "08-1-first-turn-pass-refused.json" => {
            matches!(e, MoveError::Rules(MoveRuleError::FirstTurnPlaces { .. }))
        }
        "08-2-swap-too-late-refused.json" => {
            matches!(e, MoveError::Rules(MoveRuleError::SwapNotNow))
        }
        "11-5-notation-refused.json" => {
            matches!(e, MoveError::Notation(NotationError::Syntax { .. }))
        }
        _ => false,
    }
}

fn check_crumo(file: &str, case: &Value) -> Result<(), String> {
    let mut game = crumo_common::start_of(case)?;
    let position_of = crumo_common::position::to_value;
    if case["start"].is_object() {
        same_position(&position_of(&game), &case["start"])
            .map_err(|e| format!("loading the start changed it: {e}"))?;
    }
    let refusal = play_case(case, |text| {
        // Every move played is in the sorted list of legal moves.
        let listed = game.legal_move_texts().iter().any(|t| t == text);
        match game.play_text(text) {
            Err(e) => Ok(Err(e)),
            Ok(()) if !listed => Err("not in the legal list".into()),
            Ok(()) => Ok(Ok(())),
        }
    })?;
    match refusal {
        Some(e) if !expected_refusal(file, &e) => Err(format!("refused for the wrong reason: {e}")),
        Some(_) => Ok(()),
        None => same_position(&position_of(&game), &case["expected"]),
    }
}

#[test]
fn all_thirty_crumo_examples_pass() {
    assert_eq!(every_example_passes("crumo-examples", check_crumo), 30);
}

#[test]
fn the_crumo_harness_fails_on_a_wrong_expectation() {
    // The same example with a changed expected capture count must fail.
    let mut case = example("06-3-enemy-cascade.json");
    let mut game = crumo_common::start_of(&case).unwrap();
    game.play_texts(&example_moves(&case)).unwrap();
    case["expected"]["captures"]["black"] = json!(2);
    assert!(same_position(&crumo_common::position::to_value(&game), &case["expected"]).is_err());
    assert!(check_crumo("06-3-enemy-cascade.json", &case).is_err());
    assert!(!expected_refusal(
        "08-2-swap-too-late-refused.json",
        &MoveError::Rules(MoveRuleError::CompleteAfterComplete)
    ));
}
