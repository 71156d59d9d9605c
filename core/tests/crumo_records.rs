//! Crumo game records (the generic `Record` with Crumo's `Size` tag): random games round-trip
//! through the text, every kind of result is kept, and malformed records are refused with
//! their line.

mod crumo_common;
#[path = "common/records.rs"]
mod record_checks;
use crumble_core::game::record::{Ending, Record, RecordErrorKind, result_token};
use crumo_common::*;

fn parse(text: &str) -> Result<Record<Crumo>, crumble_core::game::record::RecordError> {
    Record::parse(text)
}

/// A random game from `g` to its end or `limit` turns, as a record and its final state.
fn record_of(mut g: Crumo, rng: &mut ChaCha8Rng, limit: u32) -> (Record<Crumo>, Crumo) {
    let mut rec = Record::new(g.clone());
    rec.set_tag("Black", "random \"a\"");
    rec.set_tag("Index", "3");
    g.set_turn_limit(limit);
    let mut turn = Vec::new();
    while !g.is_over() {
        g.play_random_turn_recorded(rng, &mut turn);
        rec.push_move(turn.clone(), None);
    }
    rec.end = Some(match g.outcome().unwrap().reason {
        Reason::TurnLimit => Ending::TurnLimit,
        _ => Ending::Rules,
    });
    (rec, g)
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
        let (rec, end) = record_of(start, &mut rng, 30);
        let text = rec.write();
        let back: Record<Crumo> = record_checks::round_trip(&text);
        assert_eq!(back, rec, "{text}");
        assert_eq!(back.write(), text);
        let last = back.ended_positions().unwrap().pop().unwrap();
        assert_eq!(last.outcome(), end.outcome());
        reasons.insert(end.outcome().unwrap().reason.name());
    }
    assert!(
        reasons.contains("two-passes") && reasons.contains("turn-limit"),
        "{reasons:?}"
    );
}

#[test]
fn results_outside_the_moves_need_a_termination() {
    let head = "[Game \"crumo\"]\n[Size \"5\"]\n";
    let rec = parse(&format!(
        "{head}[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. 3e5 2. 1a9 0-1\n"
    ))
    .unwrap();
    assert_eq!(
        rec.end,
        Some(Ending::Resignation {
            winner: Color::White
        })
    );
    // A turn limit scores the final position (rule 10.1); the Result must be its winner.
    let end = after(5, &["3e5", "1a9"]);
    let scored = Outcome::scored(Reason::TurnLimit, end.score_halves(None));
    let token = result_token(scored.winner);
    let rec = parse(&format!(
        "{head}[Result \"{token}\"]\n[Termination \"turn-limit\"]\n\n3e5 1a9\n"
    ))
    .unwrap();
    assert_eq!(rec.end, Some(Ending::TurnLimit));
    let last = rec.ended_positions().unwrap().pop().unwrap();
    assert_eq!(last.outcome(), Some(scored));
    let wrong = if token == "1-0" { "0-1" } else { "1-0" };
    assert!(
        parse(&format!(
            "{head}[Result \"{wrong}\"]\n[Termination \"turn-limit\"]\n\n3e5 1a9\n"
        ))
        .is_err()
    );
    let rec = parse(&format!("{head}[Result \"*\"]\n\n1. 3e5\n")).unwrap();
    assert_eq!(rec.end, None);
}

#[test]
fn comments_are_kept_in_crumo_records_too() {
    let text = "[Game \"crumo\"]\n[Size \"5\"]\n[Start \"standard\"]\n[Result \"*\"]\n\n{opening} 1. 3e5 {value +0.10} 2. swap *\n";
    let rec = parse(text).unwrap();
    assert_eq!(rec.intro.as_deref(), Some("opening"));
    assert_eq!(rec.comment(0), Some("value +0.10"));
    assert_eq!(rec.write(), text);
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
        // A result that does not fit the moves is refused on the Result line, a termination
        // that does not on the Termination line.
        (
            format!("{head}[Result \"0-1\"]\n\n1. 3e5 2. pass 3. pass\n"),
            3,
        ),
        (format!("{head}[Result \"1-0\"]\n\n1. 3e5\n"), 3),
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
        record_checks::refused::<Crumo>(text, *line, "");
    }
    let e = parse(&cases[8].0).unwrap_err();
    assert!(
        matches!(&e.kind, RecordErrorKind::Move { number, .. } if number == "2."),
        "{e}"
    );
}
