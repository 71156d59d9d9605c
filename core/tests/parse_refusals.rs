//! The exact refusals of the two text parsers: for each way a move (games/crumble/RULES.md section 6) or a
//! game record can be malformed, the message and where it points (characters of the move,
//! line of the record). Pinned so that reworking a parser cannot quietly change what a
//! player is told.

use crumble_core::game::record::{Record, RecordErrorKind};
use crumble_core::games::crumble::notation::{self, Frame};
use crumble_core::games::crumble::position;
type GameRecord = Record<crumble_core::games::crumble::Crumble>;
use crumble_core::GameState as _;
use crumble_core::games::crumble::{Crumble, Outcome, Reason};

/// A board of unit-cell squares coloured by `rows` (top row first, 'b'/'w').
fn cells(rows: &[&str], to_move: &str) -> Crumble {
    let n = rows.len();
    let mut pieces = Vec::new();
    for (j, row) in rows.iter().rev().enumerate() {
        for (i, ch) in row.chars().enumerate() {
            let color = if ch == 'b' { "black" } else { "white" };
            pieces.push(format!(
                r#"{{"x": {}, "y": {}, "w": 2, "h": 2, "color": "{color}"}}"#,
                i * 2,
                j * 2
            ));
        }
    }
    position::from_json(&format!(
        r#"{{"board": {n}, "resolution": 2, "to_move": "{to_move}", "pieces": [{}], "result": null}}"#,
        pieces.join(", ")
    ))
    .unwrap()
}

/// A move's text, the message it is refused with, and the character span it points at.
type Refusal<'a> = (&'a str, &'a str, Option<(usize, usize)>);

/// Each case is refused in `game` (per-player frame) with exactly that message and span.
fn refusals(game: &Crumble, cases: &[Refusal<'_>]) {
    for &(input, message, span) in cases {
        match notation::parse_move(game, input, Frame::PerPlayer) {
            Ok(mv) => panic!("{input:?} accepted as {mv:?}"),
            Err(e) => assert_eq!(
                (e.message.as_str(), e.span),
                (message, span),
                "refusal of {input:?}"
            ),
        }
    }
}

#[test]
fn move_refusals_before_the_position() {
    let g = Crumble::new(6, 8).unwrap();
    refusals(
        &g,
        &[
            ("", "empty move", None),
            ("  ", "empty move", None),
            (
                "1h",
                "lower-case letter 'h': notation uses upper-case letters",
                Some((1, 2)),
            ),
            ("１H", "'１' is not an ASCII digit", Some((0, 1))),
            ("1H\u{e9}", "unexpected character '\u{e9}'", Some((2, 3))),
            ("1HN+++", "at most '++' may end a move", Some((3, 6))),
            ("1H+N", "'+' may only end a move", Some((2, 3))),
        ],
    );
    let mut over = g.clone();
    over.finish(Outcome::draw(Reason::Agreement));
    refusals(
        &over,
        &[("1HN", "the game is over: no move can be played", None)],
    );
    let mut mid = g.clone();
    let d = mid.legal_decisions()[0];
    mid.apply(d).unwrap();
    refusals(
        &mid,
        &[("1HN", "the game is in the middle of a turn", None)],
    );
}

#[test]
fn move_refusals_of_the_position() {
    let g = Crumble::new(6, 8).unwrap();
    refusals(
        &g,
        &[
            ("H", "the move must start with a position", Some((0, 1))),
            (",H", "position ',' is malformed", Some((0, 1))),
            ("1,,2H", "position '1,,2' is malformed", Some((0, 4))),
            ("1/2/3,1H", "position '1/2/3,1' is malformed", Some((0, 7))),
            (
                "99999999999H",
                "number '99999999999' is too large",
                Some((0, 11)),
            ),
            (
                "1/2,1/2,1/2H",
                "fraction position '1/2,1/2,1/2' has more than two coordinates",
                Some((0, 11)),
            ),
            (
                "1/0H",
                "fraction position '1/0' divides by zero",
                Some((0, 3)),
            ),
            (
                "1/7H",
                "fraction position '1/7': x = 1/7 is not a piece corner on this 48-unit board",
                Some((0, 3)),
            ),
            (
                "0,1/7H",
                "fraction position '0,1/7': y = 1/7 is not a piece corner on this 48-unit board",
                Some((0, 5)),
            ),
            (
                "0,0,1H",
                "staircase '0,0,1': only the first number may be 0",
                Some((0, 5)),
            ),
            (
                "9H",
                "staircase '9': number 1 (9 right) leaves the board or crosses a piece",
                Some((0, 1)),
            ),
            (
                "0,9H",
                "staircase '0,9': number 2 (9 up) leaves the board or crosses a piece",
                Some((0, 3)),
            ),
        ],
    );
    // A split names its piece by the lower-left corner: a grid point that is none is refused.
    let j = cells(&["bbwb", "bbbw", "wbwb", "bwbb"], "black");
    refusals(
        &j,
        &[(
            "1/8H",
            "no piece has its lower-left corner at '1/8'",
            Some((0, 3)),
        )],
    );
}

#[test]
fn move_refusals_of_the_split_or_join() {
    let g = Crumble::new(6, 8).unwrap();
    refusals(
        &g,
        &[
            (
                "1X",
                "expected H, V or J after the position, found 'X'",
                Some((1, 2)),
            ),
            (
                "1",
                "the move has a position but no split or join (H, V or J)",
                None,
            ),
            (
                "1H1",
                "a long split counts at least 2 pieces, not 1",
                Some((2, 3)),
            ),
            ("1H99999", "split count 99999 is too large", Some((2, 7))),
            (
                "1H4294967296",
                "split count 4294967295 is too large",
                Some((2, 12)),
            ),
            ("1J", "'J' must be followed by 'a,b'", Some((2, 3))),
            ("1J1", "a join's extent is written 'a,b'", Some((3, 4))),
            ("1J1,", "a join's extent is written 'a,b'", Some((4, 5))),
            // The base alone is checked by the rules, and the message is theirs.
            (
                "0H",
                "the piece 8x8 at (0, 0) belongs to white",
                Some((1, 2)),
            ),
            (
                "0J1,1",
                "the outline 8x8 at (0, 0) holds the opponent's piece 8x8 at (0, 0)",
                Some((1, 5)),
            ),
        ],
    );
    let j = cells(&["bbwb", "bbbw", "wbwb", "bwbb"], "black");
    refusals(
        &j,
        &[
            (
                "0,2J9,1",
                "join: 9 intersections rightwards leave the board or cross a piece",
                Some((4, 5)),
            ),
            (
                "0,2J1,9",
                "join: 9 intersections upwards leave the board or cross a piece",
                Some((6, 7)),
            ),
            (
                "0,2J0,1",
                "a join's extent counts at least one intersection each way",
                Some((3, 7)),
            ),
            (
                "0,2J1,1",
                "the outline 2x2 at (0, 4) holds only one piece; a join needs two or more",
                Some((3, 7)),
            ),
            (
                "0,2J2,2-N",
                "a join's swap names no piece: no '-'",
                Some((7, 8)),
            ),
        ],
    );
}

#[test]
fn move_refusals_of_the_swap() {
    let g = Crumble::new(6, 8).unwrap();
    refusals(
        &g,
        &[
            (
                "1HN-",
                "'-' must be followed by at least one swap step",
                Some((3, 4)),
            ),
            (
                "1HNX",
                "expected a swap step (N, E, S or W), found 'X'",
                Some((3, 4)),
            ),
            (
                "1H-1N-N",
                "the '-number half-' form is only for a long split",
                Some((2, 3)),
            ),
            (
                "1HE-N",
                "'E' is not a half of a horizontal cut (use N or S)",
                Some((2, 3)),
            ),
            (
                "1HNN-E",
                "a half is one letter followed by '-'",
                Some((3, 4)),
            ),
            (
                "1HN-E",
                "illegal swap: step 1 (E): 8x8 at (16, 0) is not a two-point neighbour of the \
                 swapper 8x4 at (8, 4)",
                Some((4, 5)),
            ),
            (
                "1HNNNN",
                "illegal swap from either half: step 2 (N) comes after the swap ended: no legal \
                 target was left, so the swap ended (step 2 (N): 8x8 at (8, 16) is the mover's \
                 own piece)",
                Some((2, 6)),
            ),
        ],
    );
    let long = cells(&["bwbw", "wbwb", "bbbb", "wbwb"], "black");
    refusals(
        &long,
        &[
            (
                "0,1H3N",
                "both halves can make this swap: name the half, as in 'HN-...'",
                Some((5, 6)),
            ),
            (
                "0,1H2N-N",
                "a long split's swap names the piece as '-number half-'",
                Some((5, 6)),
            ),
            (
                "0,1H3-N-N",
                "a long split's swap names the piece: '-number half-'",
                Some((6, 7)),
            ),
            (
                "0,1H3-3",
                "expected a half (N, S, E or W) before '-'",
                Some((7, 8)),
            ),
            (
                "0,1H3-3N",
                "a half is one letter followed by '-'",
                Some((8, 9)),
            ),
            (
                "0,1H3-3N-",
                "'-' must be followed by at least one swap step",
                Some((8, 9)),
            ),
            (
                "0,1H3-4N-N",
                "piece number 4 is not one of the 3 split pieces",
                Some((6, 7)),
            ),
            (
                "0,1H3-0N-N",
                "piece number 0 is not one of the 3 split pieces",
                Some((6, 7)),
            ),
            (
                "0,1H3-3E-N",
                "'E' is not a half of a horizontal cut (use N or S)",
                Some((7, 8)),
            ),
            (
                "0,1H3-2N-N",
                "illegal swap: step 1 (N): 2x2 at (2, 4) is the mover's own piece",
                Some((9, 10)),
            ),
        ],
    );
}

/// Spans count characters, and the message says where in a person's counting (from 1).
#[test]
fn move_refusals_say_where_in_characters() {
    let g = Crumble::new(6, 8).unwrap();
    let e = notation::parse_move(&g, "\u{e9}1H", Frame::PerPlayer).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unexpected character '\u{e9}' (at character 1)"
    );
    let e = notation::parse_move(&g, "１1/7H", Frame::PerPlayer).unwrap_err();
    assert_eq!(e.span, Some((0, 1)));
    let e = notation::parse_move(&g, "0,1/7 H", Frame::PerPlayer).unwrap_err();
    assert_eq!(
        e.to_string(),
        "fraction position '0,1/7': y = 1/7 is not a piece corner on this 48-unit board \
         (at characters 1-5)"
    );
}

fn win() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/records/custom-start-win.rec"
    ))
    .unwrap()
}

/// `text` is refused on `line` with the error kind `kind` (its variant name) and exactly
/// the message `message`.
fn record_refused(text: &str, line: usize, kind: &str, message: &str) {
    match GameRecord::parse(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => {
            let k = format!("{:?}", e.kind);
            let variant = k.split(['(', ' ', '{']).next().unwrap().trim();
            assert_eq!(
                (e.line, variant, e.to_string().as_str()),
                (line, kind, message),
                "refusal of\n{text}"
            );
        }
    }
}

#[test]
fn record_refusals_of_the_tags() {
    for (text, line, kind, message) in [
        (
            "[Board \"6\"\n[Result \"*\"]\n",
            1,
            "BadTag",
            "line 1: malformed tag: a tag is '[Name \"value\"]' on one line in \"[Board \\\"6\\\"\"",
        ),
        (
            "[ 1x \"6\"]\n",
            1,
            "BadTag",
            "line 1: malformed tag: the tag name must start with a letter in \"[ 1x \\\"6\\\"]\"",
        ),
        (
            "[Board 6]\n",
            1,
            "BadTag",
            "line 1: malformed tag: the value must be in double quotes in \"[Board 6]\"",
        ),
        (
            "[Black \"a\\nb\"]\n",
            1,
            "BadTag",
            "line 1: malformed tag: only \\\" and \\\\ may be escaped in \"[Black \\\"a\\\\nb\\\"]\"",
        ),
        (
            "[Black \"a\"b\"]\n",
            1,
            "BadTag",
            "line 1: malformed tag: a '\"' inside the value must be escaped as \\\" in \
             \"[Black \\\"a\\\"b\\\"]\"",
        ),
        (
            "[Black \"a\"]\n\n[Black \"b\"]\n[Result \"*\"]\n",
            3,
            "DuplicateTag",
            "line 3: tag Black is given twice",
        ),
        (
            "[Resolution \"-1\"]\n[Result \"*\"]\n",
            1,
            "BadTagValue",
            "line 1: tag Resolution: \"-1\" is not a whole number",
        ),
        (
            "[Board \"99\"]\n[Result \"*\"]\n",
            1,
            "BadTagValue",
            "line 1: tag Board: board size 99 is out of range (2 to 32 cells)",
        ),
        (
            "[Resolution \"3\"]\n[Result \"*\"]\n",
            1,
            "BadTagValue",
            "line 1: tag Resolution: resolution 3 is not a power of two from 1 to 64",
        ),
        (
            "[Frame \"mine\"]\n[Result \"*\"]\n",
            1,
            "BadTagValue",
            "line 1: tag Frame: \"mine\" is neither \"per-player\" nor \"absolute\"",
        ),
        (
            "[Result \"*\"]\n[Position \"{\\\"board\\\": 6}\"]\n",
            2,
            "Start",
            "line 2: tag Start: position: missing key \"resolution\"",
        ),
        (
            "[Board \"6\"]\n\n1. 1HN\n",
            1,
            "MissingTag",
            "line 1: the record has no Result tag",
        ),
        ("", 1, "MissingTag", "line 1: the record has no Result tag"),
        (
            "[Result \"2-0\"]\n",
            1,
            "BadTagValue",
            "line 1: tag Result: \"2-0\" is not 1-0, 0-1, 1/2-1/2 or *",
        ),
        (
            "[Result \"*\"]\n[Termination \"checkmate\"]\n",
            2,
            "BadTagValue",
            "line 2: tag Termination: \"checkmate\" is not one of four-sides, draw-rule, \
             no-split-or-join, turn-limit, resignation, agreement",
        ),
    ] {
        record_refused(text, line, kind, message);
    }
    let win = win();
    record_refused(
        &win.replace("[Board \"6\"]", "[Board \"8\"]"),
        1,
        "BadTagValue",
        "line 1: tag Board: 8 disagrees with the start position, whose Board is 6",
    );
    record_refused(
        &win.replace("[Resolution \"8\"]", "[Resolution \"4\"]"),
        2,
        "BadTagValue",
        "line 2: tag Resolution: 4 disagrees with the start position, whose Resolution is 8",
    );
}

#[test]
fn record_refusals_of_the_movetext() {
    let head = "[Result \"*\"]\n\n";
    for (body, line, kind, message) in [
        (
            "1. 1HN } *\n",
            3,
            "StrayBrace",
            "line 3: '}' without a comment opened before it",
        ),
        (
            "1. 1HN {open\n\n*\n",
            3,
            "UnclosedComment",
            "line 3: comment opened here is never closed",
        ),
        (
            "1. 1HN * 5,5HSWS\n",
            3,
            "AfterEnd",
            "line 3: \"5,5HSWS (after the result *)\" comes after the end of the game",
        ),
        (
            "1. 1HN 3. 5,5HSWS *\n",
            3,
            "MoveNumber",
            "line 3: move number \"3.\": expected \"1...\"",
        ),
        (
            "1. 1HN 1.. 5,5HSWS *\n",
            3,
            "MoveNumber",
            "line 3: move number \"1..\": expected \"1...\"",
        ),
        (
            "1. 1HN\n5,5HSWS 2.9H *\n",
            4,
            "Move",
            "line 4: move 2. (\"9H\") refused: staircase '9': number 1 (9 right) leaves the \
             board or crosses a piece (at character 1)",
        ),
        (
            "1. 1HN 1-0\n",
            3,
            "Result",
            "line 3: the result token 1-0 disagrees with [Result \"*\"]",
        ),
    ] {
        record_refused(&format!("{head}{body}"), line, kind, message);
    }
}

#[test]
fn record_refusals_of_the_result() {
    for (text, line, kind, message) in [
        (
            "[Result \"1-0\"]\n\n1. 1HN 1-0\n",
            1,
            "Result",
            "line 1: [Result \"1-0\"] is not reached by the moves: add a Termination tag \
             (resignation, agreement or turn-limit)",
        ),
        (
            "[Result \"1-0\"]\n[Termination \"agreement\"]\n\n1. 1HN 1-0\n",
            2,
            "BadTagValue",
            "line 2: tag Termination: \"agreement\" does not fit the result 1-0",
        ),
        (
            "[Result \"1-0\"]\n[Termination \"four-sides\"]\n\n1. 1HN 1-0\n",
            2,
            "BadTagValue",
            "line 2: tag Termination: \"four-sides\" with the result 1-0, but the moves do not \
             end the game that way",
        ),
        (
            "[Result \"*\"]\n[Termination \"resignation\"]\n",
            2,
            "BadTagValue",
            "line 2: tag Termination: \"resignation\" with the result *",
        ),
    ] {
        record_refused(text, line, kind, message);
    }
    let win = win();
    record_refused(
        &win.replace("[Result \"1-0\"]", "[Result \"0-1\"]")
            .replace("} 1-0", "} 0-1"),
        4,
        "Result",
        "line 4: [Result \"0-1\"] disagrees with the game, which ended 1-0",
    );
    record_refused(
        &win.replace("[Result \"1-0\"]", "[Result \"*\"]")
            .replace("} 1-0", "} *"),
        4,
        "Result",
        "line 4: [Result \"*\"], but the game ended ({\"winner\": \"black\", \"reason\": \"four-sides\"})",
    );
    record_refused(
        &win.replace(
            "[Termination \"four-sides\"]",
            "[Termination \"resignation\"]",
        ),
        5,
        "BadTagValue",
        "line 5: tag Termination: \"resignation\", but the game ended by \"four-sides\"",
    );
    record_refused(
        &win.replace("} 1-0", "} 1... 0H 1-0"),
        8,
        "AfterEnd",
        "line 8: \"move 1... 0H\" comes after the end of the game",
    );
}

/// Comments belong to the move before them (or the game, before the first); several in a
/// row are joined with a space; numbers may touch the move.
#[test]
fn record_comments_and_glued_numbers() {
    let rec =
        GameRecord::parse("[Result \"*\"]\n\n{intro} 1.1HN {a} {b\nc} 1... 5,5HSWS * {late}\n")
            .unwrap();
    assert_eq!(rec.moves.len(), 2);
    assert_eq!(rec.intro.as_deref(), Some("intro"));
    assert_eq!(
        rec.comments,
        [Some("a b c".to_string()), Some("late".to_string())]
    );
    assert!(matches!(
        GameRecord::parse("[Result \"*\"]\n\n1. 1HN 1.5,5HSWS *\n")
            .unwrap_err()
            .kind,
        RecordErrorKind::MoveNumber { .. }
    ));
}
