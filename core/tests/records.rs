//! Game records: hand-written files and program-written records read, replay and round-trip;
//! malformed records are refused with the right line.

#[path = "common/records.rs"]
mod record_checks;
use crumble_core::Color;
use crumble_core::game::GameState;
use crumble_core::game::record::{Ending, Record};
type GameRecord = Record<Crumble>;
use crumble_core::games::crumble::{Crumble, Frame, Outcome, Reason};
use crumble_core::games::crumble::{notation, position};
use rand::SeedableRng;
use std::path::PathBuf;

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// How the recorded game ended: its final position's outcome, the record's end applied.
fn outcome(rec: &GameRecord) -> Option<Outcome> {
    rec.ended_positions().unwrap().pop().unwrap().outcome()
}

fn round_trip(text: &str) -> GameRecord {
    record_checks::round_trip(text)
}

#[test]
fn hand_written_opening_with_comments() {
    let rec = round_trip(&data("opening-with-comments.rec"));
    assert_eq!(rec.moves.len(), 5);
    assert_eq!(rec.tag("Black"), Some("Ada"));
    assert_eq!(rec.tag("White"), Some("Bo"));
    assert_eq!(rec.tag("Date"), Some("2025.01.31"));
    assert_eq!(rec.tag("Event"), Some("hand-written test record"));
    assert_eq!(rec.intro.as_deref(), Some("The fig. 2 opening."));
    assert_eq!(rec.comment(0), Some("Black swaps north, RULES.md 7.1"));
    assert_eq!(rec.comment(3), Some("a comment that spans two lines"));
    assert_eq!(rec.end, None);
    // The moves are the ones the notation gives.
    let mut game = Crumble::new(6, 8).unwrap();
    for (turn, text) in rec
        .moves
        .iter()
        .zip(["1HN", "0VE", "3,2VW", "3,2V", "0,2,4H"])
    {
        let mv = notation::parse_move(&game, text, Frame::PerPlayer).unwrap();
        assert_eq!(*turn, game.play_move(&mv).unwrap());
    }
    assert_eq!(rec.final_position().unwrap(), game);
    let written = rec.write();
    let flat = written.replace('\n', " ");
    assert!(
        flat.contains("1. 1HN {Black swaps north, RULES.md 7.1} 1... 0VE 2. 3,2VW 3,2V"),
        "{written}"
    );
    assert!(
        written.contains("[Start \"standard\"]") && !written.contains("[Position"),
        "{written}"
    );
}

#[test]
fn hand_written_resignation() {
    let rec = round_trip(&data("resignation.rec"));
    assert_eq!(
        outcome(&rec),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::Resignation
        })
    );
    assert!(
        !rec.positions().unwrap()[5].is_over(),
        "the game goes on before the last move"
    );
    assert!(rec.write().contains("[Termination \"resignation\"]"));
}

#[test]
fn hand_written_custom_start_and_win() {
    let rec = round_trip(&data("custom-start-win.rec"));
    assert_ne!(rec.start, Crumble::new(6, 8).unwrap());
    assert_eq!(
        outcome(&rec),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::FourSides
        })
    );
    assert!(rec.final_position().unwrap().is_over());
    assert!(
        rec.write().contains("[Start {\"board\": 6,"),
        "{}",
        rec.write()
    );
}

#[test]
fn hand_written_white_starts_agreement() {
    let rec = round_trip(&data("white-starts-agreement.rec"));
    assert_eq!(rec.start.to_move(), Color::White);
    assert_eq!(outcome(&rec), Some(Outcome::draw(Reason::Agreement)));
    let written = rec.write();
    assert!(
        written.contains("1... 0VE 2. 3,2VW 3,2V {Draw agreed.} 1/2-1/2"),
        "{written}"
    );
}

#[test]
fn hand_written_absolute_frame() {
    let rec = round_trip(&data("absolute-frame.rec"));
    assert_eq!(rec.notation, Frame::Absolute);
    let per_player = GameRecord::parse("[Result \"*\"]\n\n1. 1HN 5,5HSWS *\n").unwrap();
    assert_eq!(rec.moves, per_player.moves, "the same game in both frames");
}

/// Records written by the program from random games, in both frames, with comments and
/// every kind of ending, read back as the same game.
#[test]
fn program_written_records_round_trip() {
    for seed in 0..40u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (n, r) = [(6, 8), (4, 2), (3, 4), (8, 8)][seed as usize % 4];
        let mut start = Crumble::new(n, r).unwrap();
        if seed % 5 == 1 {
            // A custom start: the position after a few random turns.
            for _ in 0..3 {
                start.play_random_turn(&mut rng);
            }
            start = position::from_json(&position::to_json(&start)).unwrap();
        }
        let frame = if seed % 2 == 0 {
            Frame::PerPlayer
        } else {
            Frame::Absolute
        };
        let mut rec = GameRecord::new(start.clone());
        rec.notation = frame;
        rec.set_tag("Black", "random");
        rec.set_tag("White", "random \"quoted\" \\ name");
        let mut game = start;
        let limit = [6, 30, 200][seed as usize % 3];
        let mut path = Vec::new();
        while !game.is_over() && rec.moves.len() < limit {
            let before = game.clone();
            game.play_random_turn_recorded(&mut rng, &mut path);
            assert!(before.move_from_decisions(&path).is_ok());
            let comment =
                (rec.moves.len() % 4 == 1).then(|| format!("turn {} {{nested}}", rec.moves.len()));
            rec.push_move(path.clone(), comment);
        }
        let expected = game.outcome().or(match seed % 3 {
            0 => Some(Outcome {
                winner: Some(Color::White),
                reason: Reason::Resignation,
            }),
            1 => Some(Outcome::draw(Reason::Agreement)),
            _ => None,
        });
        rec.end = match expected {
            Some(_) if game.is_over() => Some(Ending::Rules),
            Some(o) if o.reason == Reason::Resignation => Some(Ending::Resignation {
                winner: Color::White,
            }),
            Some(_) => Some(Ending::Agreement),
            None => None,
        };
        let text = rec.write();
        let back = GameRecord::parse(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        // A comment's '}' is written as ')'.
        for c in rec.comments.iter_mut().flatten() {
            *c = c.replace('}', ")");
        }
        assert_eq!(back, rec, "seed {seed}:\n{text}");
        assert_eq!(outcome(&back), expected, "seed {seed}");
    }
}

fn refused(text: &str, line: usize, part: &str) {
    record_checks::refused::<Crumble>(text, line, part);
}

#[test]
fn malformed_records_are_refused_with_the_line() {
    let head = "[Board \"6\"]\n[Result \"*\"]\n\n";
    refused(
        "[Board \"6\"\n[Result \"*\"]\n\n1. 1HN *\n",
        1,
        "malformed tag",
    );
    refused("[Board 6]\n[Result \"*\"]\n", 1, "double quotes");
    refused(
        "[Board \"6\"]\n[Board \"6\"]\n[Result \"*\"]\n",
        2,
        "given twice",
    );
    refused("[Board \"six\"]\n[Result \"*\"]\n", 1, "not a whole number");
    refused("[Board \"99\"]\n[Result \"*\"]\n", 1, "out of range");
    refused("[Resolution \"3\"]\n[Result \"*\"]\n", 1, "resolution 3");
    refused("[Frame \"mine\"]\n[Result \"*\"]\n", 1, "per-player");
    refused("[Result \"2-0\"]\n", 1, "not 1-0");
    refused("[Board \"6\"]\n\n1. 1HN\n", 1, "no Result tag");
    refused(
        &format!("{head}1. 1HN 5,5HSWS\n2. 9H *\n"),
        5,
        "move 2. (\"9H\") refused",
    );
    refused(
        &format!("{head}1. 1HN\n5,5HSWS 3. 0H *\n"),
        5,
        "move number \"3.\": expected \"2.\"",
    );
    refused(
        &format!("{head}1. 1HN 2... 5,5HSWS *\n"),
        4,
        "move number \"2...\": expected \"1...\"",
    );
    refused(
        &format!("{head}1. 1HN 1. 5,5HSWS *\n"),
        4,
        "move number \"1.\": expected \"1...\"",
    );
    refused(
        &format!("{head}1. 1HN {{unclosed\n\n2. 0H *\n"),
        4,
        "never closed",
    );
    refused(&format!("{head}1. 1HN }} *\n"), 4, "without a comment");
    refused(&format!("{head}1. 1HN * 5,5HSWS\n"), 4, "after the end");
    refused(&format!("{head}1. 1HN 1-0\n"), 4, "disagrees with [Result");
    refused(
        "[Result \"1-0\"]\n\n1. 1HN 1-0\n",
        1,
        "add a Termination tag",
    );
    refused(
        "[Result \"1-0\"]\n[Termination \"agreement\"]\n\n1. 1HN 1-0\n",
        2,
        "does not fit",
    );
    refused(
        "[Result \"1-0\"]\n[Termination \"checkmate\"]\n",
        2,
        "is not one of",
    );
    refused(
        "[Result \"*\"]\n[Termination \"resignation\"]\n",
        2,
        "with the result *",
    );
    refused(
        "[Result \"*\"]\n[Position {\"board\": 6}]\n",
        2,
        "tag Start",
    );
    refused(
        "[Board \"8\"]\n[Result \"*\"]\n[Position {\"board\":2,\"resolution\":1,\"to_move\":\"black\",\"pieces\":[{\"x\":0,\"y\":0,\"w\":2,\"h\":2,\"color\":\"black\"}]}]\n",
        1,
        "disagrees with the start position",
    );
    // The custom-start win: a wrong result, a result of * and a wrong termination.
    let win = data("custom-start-win.rec");
    refused(
        &win.replace("[Result \"1-0\"]", "[Result \"0-1\"]")
            .replace("} 1-0", "} 0-1"),
        4,
        "ended 1-0",
    );
    refused(
        &win.replace(
            "[Termination \"four-sides\"]",
            "[Termination \"resignation\"]",
        ),
        5,
        "ended by \"four-sides\"",
    );
    // Moves after a win.
    refused(
        &win.replace("} 1-0", "} 1... 0H 1-0"),
        8,
        "after the end of the game",
    );
}

#[test]
fn a_white_move_after_a_comment_needs_the_ellipsis_number_or_none() {
    let ok = "[Result \"*\"]\n\n1. 1HN {c} 5,5HSWS *\n";
    assert_eq!(
        GameRecord::parse(ok).unwrap().moves.len(),
        2,
        "numbers may be left out"
    );
    let glued = "[Result \"*\"]\n\n1.1HN 1...5,5HSWS *\n";
    assert_eq!(
        GameRecord::parse(glued).unwrap().moves.len(),
        2,
        "numbers may touch the move"
    );
}

/// 200,000 tags (3.4 MB) read in linear time: the duplicate check was a scan of the tags
/// before each one (2·10^10 string comparisons here), which hung the reader.
#[test]
fn many_tags_are_read_in_linear_time() {
    let mut text = String::new();
    for i in 0..200_000 {
        text.push_str(&format!("[Tag{i} \"x\"]\n"));
    }
    let mut ok = text.clone();
    ok.push_str("[Result \"*\"]\n\n*\n");
    let rec = GameRecord::parse(&ok).unwrap();
    assert_eq!(rec.tag("Tag199999"), Some("x"));
    text.push_str("[Tag7 \"y\"]\n[Result \"*\"]\n\n*\n");
    let e = GameRecord::parse(&text).unwrap_err().to_string();
    assert!(e.contains("line 200001") && e.contains("Tag7"), "{e}");
}

/// Many comments on one move are joined in linear time (they were copied for each one).
#[test]
fn many_comments_are_joined_in_linear_time() {
    let mut text = String::from("[Result \"*\"]\n\n");
    for _ in 0..100_000 {
        text.push_str("{a comment of some length} ");
    }
    text.push_str("*\n");
    let rec = GameRecord::parse(&text).unwrap();
    assert_eq!(rec.intro.as_deref().map(str::len), Some(100_000 * 25 - 1));
}
