//! Crumo game records (`crumble_core::games::crumo::record`): random games round-trip through the
//! text, every kind of result is kept, and malformed records are refused with their line.

mod crumo_common;
use crumble_core::games::crumo::record::{self, CrumoRecord, RecordErrorKind};
use crumo_common::*;

fn record_of(mut g: Crumo, rng: &mut ChaCha8Rng, limit: u32) -> CrumoRecord {
    let start = g.clone();
    g.set_turn_limit(limit);
    let mut moves = Vec::new();
    while let Some(m) = g.play_random_move(rng) {
        moves.push(m);
    }
    CrumoRecord {
        start,
        tags: vec![
            ("Black".into(), "random \"a\"".into()),
            ("Index".into(), "3".into()),
        ],
        moves,
        result: g.outcome(),
    }
}

#[test]
fn random_games_round_trip_through_the_text() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut reasons = std::collections::BTreeSet::new();
    for i in 0..40 {
        let start = if i % 4 == 3 {
            example_start("06-3-own-cascade.json")
        } else {
            Crumo::standard([3, 4, 5][i % 3]).unwrap()
        };
        let rec = record_of(start, &mut rng, 30);
        let text = rec.write();
        let back = record::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, rec, "{text}");
        assert_eq!(back.write(), text);
        let end = back.replay().unwrap();
        assert_eq!(end.outcome(), rec.result);
        reasons.insert(rec.result.unwrap().reason.name());
    }
    assert!(
        reasons.contains("two-passes") && reasons.contains("turn-limit"),
        "{reasons:?}"
    );
}

#[test]
fn results_outside_the_moves_need_a_termination() {
    let head = "[Game \"crumo\"]\n[Size \"5\"]\n";
    let rec = record::parse(&format!(
        "{head}[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. 3e5 2. 1a9 0-1\n"
    ))
    .unwrap();
    assert_eq!(rec.result.unwrap().reason, Reason::Resignation);
    // A turn limit scores the final position (rule 10.1); the Result must be its winner.
    let end = after(5, &["3e5", "1a9"]);
    let scored = Outcome::scored(Reason::TurnLimit, end.score_halves(None));
    let token = record::result_token(Some(scored));
    let rec = record::parse(&format!(
        "{head}[Result \"{token}\"]\n[Termination \"turn-limit\"]\n\n3e5 1a9\n"
    ))
    .unwrap();
    assert_eq!(rec.result, Some(scored));
    let wrong = if token == "1-0" { "0-1" } else { "1-0" };
    assert!(
        record::parse(&format!(
            "{head}[Result \"{wrong}\"]\n[Termination \"turn-limit\"]\n\n3e5 1a9\n"
        ))
        .is_err()
    );
    let rec = record::parse(&format!("{head}[Result \"*\"]\n\n1. 3e5\n")).unwrap();
    assert_eq!(rec.result, None);
}

#[test]
fn malformed_records_are_refused_with_their_line() {
    let head = "[Game \"crumo\"]\n[Size \"5\"]\n";
    let cases: Vec<(String, usize)> = vec![
        (
            "[Game \"splinter\"]\n[Size \"5\"]\n[Result \"*\"]\n\n".to_string(),
            1,
        ),
        (
            "[Game \"crumo\"]\n[Size \"14\"]\n[Result \"*\"]\n\n".to_string(),
            2,
        ),
        (
            "[Game \"crumo\"]\n[Size \"05\"]\n[Result \"*\"]\n\n".to_string(),
            2,
        ),
        (format!("{head}[Result \"*\"]\n[Result \"*\"]\n\n"), 4),
        (format!("{head}[Result \"2-0\"]\n\n"), 3),
        (format!("{head}\n1. 3e5\n"), 2),
        (format!("{head}[Result \"*\"]\nGame crumo\n\n"), 4),
        (format!("{head}[Result \"*\"]\n\n1. 3e5 3. 1a9\n"), 5),
        (format!("{head}[Result \"*\"]\n\n1. 3e5 2. 3e2\n"), 5),
        (format!("{head}[Result \"*\"]\n\n1. 3e5\n2. 3E5\n"), 6),
        (
            format!("{head}[Result \"1-0\"]\n\n1. 3e5 2. pass 3. pass 0-1\n"),
            5,
        ),
        (
            format!("{head}[Result \"0-1\"]\n\n1. 3e5 2. pass 3. pass\n"),
            5,
        ),
        (format!("{head}[Result \"1-0\"]\n\n1. 3e5\n"), 5),
        (
            format!("{head}[Result \"1-0\"]\n[Termination \"two-passes\"]\n\n1. 3e5\n"),
            4,
        ),
        (
            format!("{head}[Result \"1/2-1/2\"]\n[Termination \"resignation\"]\n\n1. 3e5\n"),
            4,
        ),
        (format!("{head}[Result \"*\"]\n\n1. 3e5 * 2. 1a9\n"), 5),
        (
            format!("{head}[Result \"*\"]\n[Start {{\"size\":7}}]\n\n"),
            4,
        ),
    ];
    for (text, line) in &cases {
        match record::parse(text) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => assert_eq!(e.line, *line, "{e}\n{text}"),
        }
    }
    let e = record::parse(&cases[8].0).unwrap_err();
    assert!(
        matches!(e.kind, RecordErrorKind::Move { number: 2, .. }),
        "{e}"
    );
}
