//! One test (at least) per numbered rule of `games/crumo/RULES.md` sections 11–13: the notation,
//! the position JSON with its strict loading, and the symmetries.

mod crumo_common;
use Color::{Black, White};
use crumble_core::game::{CompleteMoves, TurnError};
use crumo_common::*;

#[test]
fn rule_11_1_points_are_a_file_letter_and_a_rank() {
    let g7 = Crumo::standard(7).unwrap();
    let geo = g7.geometry();
    assert_eq!(geo.coords(pt(&g7, "a13")), (0, 12));
    assert_eq!(geo.name(pt(&g7, "g7")), "g7");
    for bad in ["E5", "e05", " e5", "5e", "e", ""] {
        assert!(notation::parse_point(geo, bad).is_err(), "{bad:?}");
    }
    assert!(matches!(
        notation::parse_point(geo, "n7"),
        Err(NotationError::OffBoard { size: 7, .. })
    ));
}

#[test]
fn rule_11_2_placements_write_the_height_then_the_point() {
    let mut g = Crumo::standard(7).unwrap();
    assert_eq!(
        notation::parse_move(g.geometry(), "12g1").unwrap(),
        CrumoMove::Place {
            point: pt(&g, "g1"),
            height: 12
        }
    );
    g.play_text("12g1").unwrap();
    assert_eq!(at(&g, "g1"), Some((Black, 12)));
    assert!(notation::parse_move(g.geometry(), "01g1").is_err());
}

#[test]
fn rule_11_3_moves_write_source_and_target() {
    let g = Crumo::standard(5).unwrap();
    let geo = g.geometry();
    let mv = notation::parse_move(geo, "e5-c9").unwrap();
    assert_eq!(
        mv,
        CrumoMove::Move {
            from: pt(&g, "e5"),
            to: pt(&g, "c9")
        }
    );
    assert_eq!(geo.line_between(pt(&g, "e5"), pt(&g, "c9")), Some((7, 2)));
    assert!(matches!(
        notation::parse_move(geo, "e5-f7"),
        Err(NotationError::NotALine { .. })
    ));
    assert!(notation::parse_move(geo, "e5-e5").is_err());
}

#[test]
fn rule_11_4_pass_and_swap() {
    let geo = Crumo::standard(5).unwrap().geometry();
    assert_eq!(notation::parse_move(geo, "pass"), Ok(CrumoMove::Pass));
    assert_eq!(notation::parse_move(geo, "swap"), Ok(CrumoMove::Swap));
    for bad in ["PASS", "pass\n", "Swap", "passe", "resign"] {
        assert!(notation::parse_move(geo, bad).is_err(), "{bad:?}");
    }
}

#[test]
fn rule_11_5_the_lexical_rules_are_exact_and_never_overflow() {
    let mut g = after(5, &["3e5"]);
    for bad in [
        "3E5", "3e5\n", "3e5\r", " 3e5", "3 e5", "03e5", "3e05", "3e5+", "3e5!", "e5-e7?", "e5—e7",
        "3", "e5", "-e5", "e5-", "3e5-e7",
    ] {
        let before = g.clone();
        assert!(g.play_text(bad).is_err(), "{bad:?}");
        assert_eq!(g, before);
    }
    // Too large for any board: refused like an illegal move, never wrapped.
    for huge in [
        "99999999999999999999999e5",
        "1a99999999999999999999",
        "4294967297e5",
        "e5-e99999999999999999999",
    ] {
        assert!(g.play_text(huge).is_err(), "{huge}");
    }
    assert!(g.play_text("1e1").is_ok());
}

#[test]
fn rule_11_6_lists_are_sorted_byte_wise() {
    let g = after(7, &["2a7", "1m7", "a7-a8", "pass"]);
    let list = g.legal_move_texts();
    let mut sorted = list.clone();
    sorted.sort();
    assert_eq!(list, sorted);
    let pos = |m: &str| list.iter().position(|x| x == m).unwrap();
    assert!(
        pos("12g1") < pos("1a13"),
        "\"12g1\" < \"1a13\": bytes, not numbers"
    );
    assert!(pos("a7-b7") < pos("pass"));
    assert!(list.last().unwrap() == "pass");
    let g = after(7, &["1a7"]);
    assert_eq!(g.legal_move_texts().last().unwrap(), "swap");
}

#[test]
fn rule_11_7_every_legal_move_prints_once_and_parses_back() {
    let g = after(5, &["3e5", "2e2", "e5-e7", "1a9"]);
    let list = g.legal_move_texts();
    let set: std::collections::BTreeSet<&String> = list.iter().collect();
    assert_eq!(set.len(), list.len());
    for text in &list {
        let mv = notation::parse_move(g.geometry(), text).unwrap();
        assert_eq!(&g.write_move(&mv), text);
        let mut played = g.clone();
        played.play(&mv).unwrap();
    }
    assert_eq!(list.len(), g.legal_moves().len());
}

#[test]
fn rule_11_8_a_list_stops_at_its_first_refused_move() {
    let mut g = Crumo::standard(5).unwrap();
    let r = g.play_texts(&["3e5", "1a9", "3E5", "1i1"]).unwrap_err();
    assert_eq!((r.index, r.text.as_str()), (3, "3E5"));
    assert_eq!(g, after(5, &["3e5", "1a9"]));
    assert!(
        r.to_string().starts_with("move 3 (\"3E5\") refused:"),
        "{r}"
    );
    let mut over = after(5, &["3e5", "pass", "pass"]);
    let r = over.play_texts(&["pass"]).unwrap_err();
    assert_eq!(
        (r.index, r.error),
        (1, MoveError::Turn(TurnError::GameOver))
    );
}

#[test]
fn rule_12_1_the_schema_and_the_same_state() {
    let g = Crumo::standard(5).unwrap();
    assert_eq!(
        position::to_json(&g),
        r#"{"size":5,"to_move":"black","pie":"first","swapped":false,"previous":"other","captures":{"black":0,"white":0},"stacks":[],"result":null}"#
    );
    // Captures are part of the state: equality and hash see them.
    let a = example_start("06-3-enemy-cascade.json");
    let mut v = position::to_value(&a);
    v["captures"]["white"] = json!(1);
    let b = position::from_value(&v).unwrap();
    assert_ne!(a, b);
    assert_ne!(a.state_hash(), b.state_hash());
}

#[test]
fn rule_12_2_results_write_scores_as_floats() {
    let g = after(5, &["3e5", "pass", "pass"]);
    let text = position::to_json(&g);
    assert!(
        text.ends_with(r#""result":{"winner":"black","reason":"two-passes","score":{"black":1.0,"white":0.5}}}"#),
        "{text}"
    );
}

fn refused(text: &str) -> PositionError {
    match position::from_json(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e,
    }
}

const START: &str = r#""to_move":"black","pie":"over","swapped":false,"previous":"other","captures":{"black":0,"white":0}"#;

#[test]
fn rule_12_3_loading_is_strict() {
    let ok =
        format!(r#"{{"size":5,{START},"stacks":[{{"point":"e5","color":"black","height":3}}]}}"#);
    assert!(
        position::from_json(&ok).is_ok(),
        "a missing result means null"
    );
    let cases = [
        format!(r#"{{"size":5,"size":7,{START},"stacks":[]}}"#),
        format!(r#"{{"size":NaN,{START},"stacks":[]}}"#),
        format!(r#"{{"size":5,{START},"stacks":[{{"point":"e5","color":"black","height":1e400}}]}}"#),
        format!(r#"{{"size":5,{START},"stacks":[],"extra":1}}"#),
        format!(r#"{{{START},"stacks":[]}}"#),
        format!(r#"{{"size":5.0,{START},"stacks":[]}}"#),
        format!(r#"{{"size":true,{START},"stacks":[]}}"#),
        format!(r#"{{"size":14,{START},"stacks":[]}}"#),
        format!(r#"{{"size":256,{START},"stacks":[]}}"#),
        format!(r#"{{"size":5,{START},"stacks":[{{"point":"e5","color":"black","height":1.0}}]}}"#),
        format!(r#"{{"size":5,{START},"stacks":[{{"point":"e5","color":"black","height":0}}]}}"#),
        format!(r#"{{"size":5,{START},"stacks":[{{"point":"e5","color":"black","height":2147483648}}]}}"#),
        format!(r#"{{"size":5,{START},"stacks":[{{"point":"E5","color":"black","height":1}}]}}"#),
        format!(r#"{{"size":5,{START},"stacks":[{{"point":"e05","color":"black","height":1}}]}}"#),
        format!(r#"{{"size":5,{START},"stacks":[{{"point":" e5","color":"black","height":1}}]}}"#),
        format!(r#"{{"size":5,{START},"stacks":[{{"point":"a1","color":"black","height":1}}]}}"#),
        format!(r#"{{"size":5,{START},"stacks":[{{"point":"e5","color":"red","height":1}}]}}"#),
        format!(r#"{{"size":5,{START},"stacks":[{{"point":"e5","color":"black","height":1,"x":0}}]}}"#),
        format!(r#"{{"size":5,{START},"stacks":[{{"point":"e5","color":"black","height":1}},{{"point":"e5","color":"white","height":1}}]}}"#),
        format!(r#"{{"size":5,{START},"stacks":{{}}}}"#),
        r#"{"size":5,"to_move":"black","pie":"over","swapped":false,"previous":"other","captures":{"black":-1,"white":0},"stacks":[]}"#.into(),
        r#"{"size":5,"to_move":"black","pie":"over","swapped":false,"previous":"other","captures":{"black":2147483648,"white":0},"stacks":[]}"#.into(),
        r#"{"size":5,"to_move":"black","pie":"over","swapped":"no","previous":"other","captures":{"black":0,"white":0},"stacks":[]}"#.into(),
        r#"{"size":5,"to_move":"black","pie":"first","swapped":false,"previous":"other","captures":{"black":0,"white":0},"stacks":[{"point":"e5","color":"black","height":1}]}"#.into(),
        r#"{"size":5,"to_move":"black","pie":"first","swapped":false,"previous":"other","captures":{"black":1,"white":0},"stacks":[]}"#.into(),
        r#"{"size":5,"to_move":"black","pie":"choice","swapped":false,"previous":"other","captures":{"black":0,"white":0},"stacks":[]}"#.into(),
        r#"{"size":5,"to_move":"white","pie":"choice","swapped":true,"previous":"other","captures":{"black":0,"white":0},"stacks":[]}"#.into(),
        r#"{"size":5,"to_move":"white","pie":"choice","swapped":false,"previous":"pass","captures":{"black":0,"white":0},"stacks":[]}"#.into(),
        format!(r#"{{"size":5,{START},"stacks":[{{"point":"d5","color":"black","height":1}},{{"point":"e5","color":"white","height":1}},{{"point":"f5","color":"black","height":1}}]}}"#),
    ];
    for text in &cases {
        let e = refused(text);
        assert!(!e.to_string().is_empty());
    }
    assert!(matches!(refused(&cases[0]), PositionError::Json(_)));
    assert!(matches!(
        refused(cases.last().unwrap()),
        PositionError::Rules(PositionRuleError::Dead { .. })
    ));
}

#[test]
fn rule_12_3_a_result_must_agree_with_its_position() {
    let g = after(5, &["3e5", "pass", "pass"]);
    let good = position::to_value(&g);
    let mut int_scores = good.clone();
    int_scores["result"]["score"]["black"] = json!(1);
    assert!(
        position::from_value(&int_scores).is_ok(),
        "1 and 1.0 are the same number"
    );
    let mut bad = Vec::new();
    for (path, value) in [
        ("score.black", json!(2.0)),
        ("score.white", json!(0.25)),
        ("score.white", json!(-0.5)),
        ("winner", json!("white")),
        ("winner", json!(null)),
        ("reason", json!("timeout")),
        ("score", json!(null)),
    ] {
        let mut v = good.clone();
        match path.split_once('.') {
            Some((a, b)) => v["result"][a][b] = value,
            None => v["result"][path] = value,
        }
        bad.push(v);
    }
    let mut not_after_pass = good.clone();
    not_after_pass["previous"] = json!("other");
    bad.push(not_after_pass);
    let mut resign_scored = good.clone();
    resign_scored["result"]["reason"] = json!("resignation");
    bad.push(resign_scored);
    let mut agreement_winner = good.clone();
    agreement_winner["result"] = json!({"winner": "black", "reason": "agreement", "score": null});
    bad.push(agreement_winner);
    let mut resign_no_winner = good.clone();
    resign_no_winner["result"] = json!({"winner": null, "reason": "resignation", "score": null});
    bad.push(resign_no_winner);
    for v in &bad {
        assert!(position::from_value(v).is_err(), "accepted {}", v["result"]);
    }
    // A loaded result is kept, and the game is over.
    let loaded = position::from_value(&good).unwrap();
    assert!(loaded.is_over() && loaded.legal_move_texts().is_empty());
}

#[test]
fn rule_12_4_output_uses_the_schema_order() {
    let g = after(5, &["1i1", "1e1", "1e9"]);
    let text = position::to_json(&g);
    // Read back in the text's order (serde_json preserves it here).
    let v: Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let schema = [
        "size", "to_move", "pie", "swapped", "previous", "captures", "stacks", "result",
    ];
    assert_eq!(keys, schema, "{text}");
    // Stacks by rank, then file.
    assert!(text.find("\"e1\"").unwrap() < text.find("\"i1\"").unwrap());
    assert!(text.find("\"i1\"").unwrap() < text.find("\"e9\"").unwrap());
}

#[test]
fn rule_13_1_symmetries_map_legal_moves_and_keep_scores() {
    let g = example_start("09-territory.json");
    for s in Symmetry::ALL {
        let image = s.apply(&g);
        let mut want: Vec<String> = g
            .legal_moves()
            .iter()
            .map(|m| image.write_move(&s.map_move(g.geometry(), m)))
            .collect();
        want.sort();
        assert_eq!(image.legal_move_texts(), want, "symmetry {}", s.index());
        assert_eq!(image.score_halves(None), g.score_halves(None));
    }
}

#[test]
fn rule_13_2_the_numbering() {
    let g = Crumo::standard(5).unwrap();
    let geo = g.geometry();
    let map = |i: u8, name: &str| geo.name(Symmetry::new(i).unwrap().map_point(geo, pt(&g, name)));
    assert_eq!(map(1, "f5"), "e6");
    assert_eq!(map(1, "e5"), "e5");
    assert_eq!(map(6, "f5"), "e6");
    assert_eq!(map(6, "g3"), "c7");
    assert_eq!(map(3, "e1"), "e9", "the half turn");
    assert!(Symmetry::new(12).is_none());
    // Symmetry i ≥ 6 is rot^(i−6) after the reflection.
    for i in 6..12u8 {
        let (x, z) = Symmetry::new(6).unwrap().map_centred(1, 2);
        assert_eq!(
            Symmetry::new(i - 6).unwrap().map_centred(x, z),
            Symmetry::new(i).unwrap().map_centred(1, 2)
        );
    }
}

#[test]
fn rule_13_3_everything_but_point_names_is_preserved() {
    let mut g = example_start("06-3-own-cascade.json");
    g.play_text("d5-c6").unwrap();
    for s in Symmetry::ALL {
        let image = position::to_value(&s.apply(&g));
        let orig = position::to_value(&g);
        for key in [
            "to_move", "pie", "swapped", "previous", "captures", "result",
        ] {
            assert_eq!(image[key], orig[key], "{key}");
        }
        // The stacks come out sorted again after mapping.
        let back = position::from_value(&image).unwrap();
        assert_eq!(position::to_value(&back), image);
    }
    let _ = White;
}
