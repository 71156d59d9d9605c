//! Splinter game records (the generic `Record` with Splinter's board tag): round trips, the
//! splinter choice in notation, results by the rules, and refusals with their lines.

#[path = "common/records.rs"]
mod record_checks;
mod splinter_common;
use crumble_core::GameText;
use crumble_core::game::record::{Ending, Record, result_token};
use splinter_common::*;

fn game_of(moves: &[&str], w: u8, h: u8) -> (Splinter, Vec<Vec<Decision>>) {
    let mut g = Splinter::standard(w, h).unwrap();
    let start = g.clone();
    let mut out = Vec::new();
    for m in moves {
        let turn = g.parse_move(m, ()).unwrap();
        for &d in &turn {
            g.apply(d).unwrap();
        }
        out.push(turn);
    }
    (start, out)
}

fn parse(text: &str) -> Result<Record<Splinter>, crumble_core::game::record::RecordError> {
    Record::parse(text)
}

fn check(text: &str) -> Record<Splinter> {
    record_checks::round_trip(text)
}

fn refused(text: &str, line: usize, says: &str) {
    record_checks::refused::<Splinter>(text, line, says);
}

#[test]
fn a_written_record_reads_back_the_same() {
    let (start, moves) = game_of(&["h9-h10", "g11-g10", "f9-e9"], 15, 18);
    let mut rec = Record::new(start);
    rec.set_tag("Index", "3");
    rec.set_tag("Black", "Ada \"the\" \\ first");
    rec.set_tag("White", "random");
    for (i, mv) in moves.into_iter().enumerate() {
        rec.push_move(mv, (i == 1).then(|| "value -0.25".to_string()));
    }
    rec.end = Some(Ending::Resignation {
        winner: Color::White,
    });
    let text = rec.write();
    assert!(
        text.starts_with("[Game \"splinter\"]\n[Board \"15x18\"]\n[Index \"3\"]\n"),
        "{text}"
    );
    assert!(text.contains("[Start \"standard\"]\n"));
    assert!(text.contains("[Result \"0-1\"]\n[Termination \"resignation\"]\n"));
    assert!(
        text.contains("\n1. h9-h10 2. g11-g10 {value -0.25} 3. f9-e9 0-1\n"),
        "{text}"
    );
    assert_eq!(parse(&text).unwrap(), rec);
    assert_eq!(check(&text).tag("Black"), Some("Ada \"the\" \\ first"));
}

#[test]
fn records_written_before_the_generic_record_still_read() {
    // The Splinter records of earlier versions put the Board tag after the others.
    let old = "[Game \"splinter\"]\n[Index \"3\"]\n[Black \"a\"]\n[White \"b\"]\n[Board \"9x10\"]\n[Start \"standard\"]\n[Result \"*\"]\n\n1. f6-f7 *\n";
    let rec = check(old);
    assert_eq!(rec.tags.len(), 3);
    assert_eq!(rec.moves.len(), 1);
    assert_eq!(rec.start.board().width(), 9);
}

#[test]
fn a_splinter_choice_is_written_with_its_anchor_and_read_by_any_square() {
    // Worked example 18: `e5-e6/g4` keeps the group anchored on f2.
    let ex = example("18-three-groups-two-tied.json");
    let start = position::to_json(&position::from_value(&ex["start"]).unwrap());
    let b = position::from_json(&start).unwrap();
    let size = format!("{}x{}", b.board().width(), b.board().height());
    let text = format!(
        "[Game \"splinter\"]\n[Board \"{size}\"]\n[Start {start}]\n[Result \"*\"]\n\ne5-e6/g4 *\n"
    );
    let rec = check(&text);
    assert_eq!(rec.moves.len(), 1);
    assert!(rec.write().contains("\n1. e5-e6/f2 *\n"), "{}", rec.write());
    assert!(rec.write().contains("[Start {"));
    refused(&text.replace("/g4", ""), 6, "name the group that stays");
    refused(
        &text.replace(&size, "15x18"),
        2,
        "15x18 disagrees with the start position, whose Board is",
    );
}

#[test]
fn a_game_that_ends_by_the_rules_needs_no_termination() {
    let mut g = Splinter::standard(7, 8).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut rec = Record::new(g.clone());
    let mut turn = Vec::new();
    while !g.is_over() {
        g.play_random_turn_recorded(&mut rng, &mut turn);
        rec.push_move(turn.clone(), None);
    }
    rec.end = Some(Ending::Rules);
    let text = rec.write();
    let parsed = check(&text);
    assert_eq!(parsed.final_position().unwrap(), g);
    let without = text
        .lines()
        .filter(|l| !l.starts_with("[Termination"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(parse(&without).unwrap(), rec);
    // A wrong result is refused on the Result line.
    let token = result_token(g.outcome().unwrap().winner);
    let other = if token == "1-0" { "0-1" } else { "1-0" };
    let wrong = without.replace(&format!("\"{token}\""), &format!("\"{other}\""));
    let wrong = wrong.trim_end().strip_suffix(token).unwrap().to_string() + other;
    assert!(
        parse(&wrong)
            .unwrap_err()
            .to_string()
            .contains("disagrees with the game, which ended")
    );
}

#[test]
fn malformed_records_are_refused_with_their_line() {
    let head = "[Game \"splinter\"]\n[Board \"15x18\"]\n[Result \"*\"]\n\n";
    check(&format!("{head}h9-h10 g11-g10 *\n"));
    refused(
        &format!("{head}1. h9-h10 3. g11-g10 *\n"),
        5,
        "move number \"3.\": expected \"2.\"",
    );
    refused(&format!("{head}1. h9-h10\n2. h11-h10 *\n"), 6, "no-return");
    refused(&format!("{head}1. h9-h11 *\n"), 5, "not neighbours");
    refused(&format!("{head}1. h9-h10 {{open\n"), 5, "never closed");
    refused(
        &format!("{head}1. h9-h10 1-0\n"),
        5,
        "disagrees with [Result \"*\"]",
    );
    refused(
        &format!("{head}h9-h10 * g11-g10\n"),
        5,
        "after the result *",
    );
    refused(&head.replace("splinter", "crumble"), 1, "not \"splinter\"");
    refused(&head.replace("15x18", "4x18"), 2, "outside");
    refused(&head.replace("[Board \"15x18\"]\n", ""), 2, "no Board tag");
    refused(&format!("[Game \"splinter\"]\n{head}"), 2, "is given twice");
    refused(
        &head.replace("\"*\"", "\"1-0\""),
        3,
        "add a Termination tag",
    );
    refused(
        &head.replace(
            "[Result \"*\"]",
            "[Result \"1-0\"]\n[Termination \"knockouts\"]",
        ),
        4,
        "the moves do not end the game that way",
    );
    refused(&head.replace("[Board", "[Board x"), 2, "malformed tag");
    // A comment may span lines and holds anything but a closing brace.
    let rec = check(&format!("{head}1. h9-h10 {{a [tag-like]\nnote}} *\n"));
    assert_eq!(rec.comment(0), Some("a [tag-like] note"));
}
