//! Every worked Crumo example of `games/crumo/RULES.md` section 14 (copied from the project's
//! shared `examples-crumo/`, format in its README.md) through one harness; refused moves
//! must be refused for the rule the example is about.

mod crumo_common;
use crumo_common::*;

/// The refusal each refused example expects, by file.
fn expected_refusal(file: &str, e: &MoveError) -> bool {
    match file {
        "05-2-dead-on-arrival-refused.json" => matches!(
            e,
            MoveError::DeadOnArrival {
                attack: 2,
                defence: 1,
                ..
            }
        ),
        "05-2-enemy-at-distance-refused.json" => {
            matches!(e, MoveError::GuardsEnemy { enemy, .. } if enemy == "e5")
        }
        "05-2-no-point-at-distance-refused.json" => {
            matches!(e, MoveError::NoPointAtDistance { longest: 4, .. })
        }
        "06-1-enemy-landing-refused.json" => matches!(e, MoveError::LandsOnEnemy { .. }),
        "06-1-too-few-pieces-refused.json" => {
            matches!(
                e,
                MoveError::TooFewPieces {
                    pieces: 3,
                    height: 2,
                    ..
                }
            )
        }
        "06-5-complete-after-complete-refused.json" | "06-5-own-loss-is-not-capturing.json" => {
            matches!(e, MoveError::CompleteAfterComplete)
        }
        "08-1-first-turn-pass-refused.json" => matches!(e, MoveError::FirstTurnPlaces { .. }),
        "08-2-swap-too-late-refused.json" => matches!(e, MoveError::SwapNotNow),
        "11-5-notation-refused.json" => {
            matches!(e, MoveError::Notation(NotationError::Syntax { .. }))
        }
        _ => false,
    }
}

/// Runs one case; returns a description of the failure, if any.
fn check(file: &str) -> Result<(), String> {
    let case = example(file);
    let mut game = start_of(&case)?;
    if case["start"].is_object() {
        same_position(&position::to_value(&game), &case["start"])
            .map_err(|e| format!("loading the start changed it: {e}"))?;
    }
    let moves = example_moves(&case);
    if case["expected_error"] == json!(true) {
        let index = case["error_move_index"].as_u64().unwrap() as usize;
        let refusal = match game.play_texts(&moves) {
            Ok(()) => return Err("every move was accepted".into()),
            Err(r) => r,
        };
        if refusal.index != index || refusal.text != moves[index - 1] {
            return Err(format!(
                "refused move {}, not {index}: {refusal}",
                refusal.index
            ));
        }
        if !expected_refusal(file, &refusal.error) {
            return Err(format!("refused for the wrong reason: {refusal}"));
        }
        return Ok(());
    }
    for (i, text) in moves.iter().enumerate() {
        // Every move played is in the sorted list of legal moves, and prints back as itself.
        if !game.legal_move_texts().contains(text) {
            return Err(format!("move {} ({text}) is not in the legal list", i + 1));
        }
        game.play_text(text)
            .map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    same_position(&position::to_value(&game), &case["expected"])
}

#[test]
fn all_thirty_examples_pass() {
    let mut files: Vec<String> = std::fs::read_dir(examples_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 30);
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| check(f).err().map(|e| format!("{f}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_harness_fails_on_a_wrong_expectation() {
    // The same example with a changed expected capture count must fail.
    let mut case = example("06-3-enemy-cascade.json");
    let mut game = start_of(&case).unwrap();
    game.play_texts(&example_moves(&case)).unwrap();
    case["expected"]["captures"]["black"] = json!(2);
    assert!(same_position(&position::to_value(&game), &case["expected"]).is_err());
    assert!(!expected_refusal(
        "08-2-swap-too-late-refused.json",
        &MoveError::CompleteAfterComplete
    ));
}
