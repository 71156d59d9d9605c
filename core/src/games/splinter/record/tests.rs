//! Round trips and refusals of Splinter game records.

use super::*;

fn game_of(moves: &[&str], w: u8, h: u8) -> (Splinter, Vec<SplinterMove>) {
    let mut g = Splinter::standard(w, h).unwrap();
    let start = g.clone();
    let mut out = Vec::new();
    for m in moves {
        let mv = notation::parse_move(g.board(), m).unwrap();
        let mv = g.canonical(&mv).unwrap();
        g.play(&mv).unwrap();
        out.push(mv);
    }
    (start, out)
}

fn check(text: &str) -> SplinterRecord {
    let rec = parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let again = parse(&rec.write()).unwrap();
    assert_eq!(again, rec, "{}", rec.write());
    rec
}

fn refused(text: &str, line: usize, says: &str) {
    let e = parse(text).unwrap_err();
    assert_eq!(e.line, line, "{e}");
    assert!(e.to_string().contains(says), "{e}");
}

#[test]
fn a_written_record_reads_back_the_same() {
    let (start, moves) = game_of(&["h9-h10", "g11-g10", "f9-e9"], 15, 18);
    let mut rec = SplinterRecord::new(start);
    rec.set_tag("Index", "3");
    rec.set_tag("Black", "Ada \"the\" \\ first");
    rec.set_tag("White", "random");
    for (i, mv) in moves.into_iter().enumerate() {
        rec.push_move(mv, (i == 1).then(|| "value -0.25".to_string()));
    }
    rec.result = Some(Outcome {
        winner: Some(Color::White),
        reason: Reason::Resignation,
    });
    let text = rec.write();
    assert!(
        text.starts_with("[Game \"splinter\"]\n[Index \"3\"]\n"),
        "{text}"
    );
    assert!(text.contains("[Board \"15x18\"]\n[Start \"standard\"]\n"));
    assert!(text.contains("[Result \"0-1\"]\n[Termination \"resignation\"]\n"));
    assert!(
        text.contains("\n1. h9-h10 2. g11-g10 {value -0.25} 3. f9-e9 0-1\n"),
        "{text}"
    );
    assert_eq!(parse(&text).unwrap(), rec);
    assert_eq!(check(&text).tag("Black"), Some("Ada \"the\" \\ first"));
}

#[test]
fn a_splinter_choice_is_written_with_its_anchor_and_read_by_any_square() {
    // Worked example 18: `e5-e6/g4` keeps the group anchored on f2.
    let json =
        include_str!("../../../../tests/data/splinter-examples/18-three-groups-two-tied.json");
    let example: serde_json::Value = serde_json::from_str(json).unwrap();
    let start = position::to_json(&position::from_value(&example["start"]).unwrap());
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
}

#[test]
fn a_game_that_ends_by_the_rules_needs_no_termination() {
    let mut g = Splinter::standard(7, 8).unwrap();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
    let start = g.clone();
    let mut rec = SplinterRecord::new(start);
    while let Some(mv) = g.play_random_move(&mut rng) {
        rec.push_move(mv, None);
    }
    rec.result = g.outcome();
    assert!(rec.result.is_some());
    let text = rec.write();
    let parsed = check(&text);
    assert_eq!(parsed.positions().unwrap().last().unwrap().0, g);
    let without = text
        .lines()
        .filter(|l| !l.starts_with("[Termination"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(parse(&without).unwrap(), rec);
    // A wrong result is refused on the Result line.
    let token = result_token(rec.result);
    let other = if token == "1-0" { "0-1" } else { "1-0" };
    let wrong = without.replace(&format!("\"{token}\""), &format!("\"{other}\""));
    let wrong = wrong.trim_end().strip_suffix(token).unwrap().to_string() + other;
    assert!(
        parse(&wrong)
            .unwrap_err()
            .to_string()
            .contains("the moves end the game")
    );
}

#[test]
fn malformed_records_are_refused_with_their_line() {
    let head = "[Game \"splinter\"]\n[Board \"15x18\"]\n[Result \"*\"]\n\n";
    check(&format!("{head}h9-h10 g11-g10 *\n"));
    refused(
        &format!("{head}1. h9-h10 3. g11-g10 *\n"),
        5,
        "move 2 is numbered 3.",
    );
    refused(&format!("{head}1. h9-h10\n2. h11-h10 *\n"), 6, "no-return");
    refused(&format!("{head}1. h9-h11 *\n"), 5, "not neighbours");
    refused(&format!("{head}1. h9-h10 {{open\n"), 5, "not closed");
    refused(
        &format!("{head}1. h9-h10 1-0\n"),
        5,
        "the Result tag says *",
    );
    refused(
        &format!("{head}h9-h10 * g11-g10\n"),
        5,
        "after the result token",
    );
    refused(&head.replace("splinter", "crumble"), 1, "not \"splinter\"");
    refused(&head.replace("15x18", "4x18"), 2, "outside");
    refused(&head.replace("[Board \"15x18\"]\n", ""), 2, "no Board tag");
    refused(&format!("[Game \"splinter\"]\n{head}"), 2, "appears twice");
    refused(&head.replace("\"*\"", "\"1-0\""), 3, "needs a Termination");
    refused(
        &head.replace(
            "[Result \"*\"]",
            "[Result \"1-0\"]\n[Termination \"knockouts\"]",
        ),
        3,
        "not reached by the moves",
    );
    refused(&head.replace("[Board", "[Board x"), 2, "not a tag line");
    // A comment may span lines and holds anything but a closing brace.
    let rec = check(&format!("{head}1. h9-h10 {{a [tag-like]\nnote}} *\n"));
    assert_eq!(rec.comment(0), Some("a [tag-like] note"));
}
