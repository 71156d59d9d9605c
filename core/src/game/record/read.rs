//! Reading a text record ([`Record::parse`]), in the order of its grammar:
//!
//! ```text
//! record   = {tag | blank line} movetext
//! tag      = "[" name value "]"                       one to a line
//! movetext = {comment | move number | move} [result token] {comment}
//! ```
//!
//! then the tags, the result token and the replayed game are checked against each other.
//! One function reads each part. Which error a bad record gets depends on their order, kept
//! as it is: tag lines in text order; then the structural tags in a fixed order; then the
//! movetext's braces, all of it; then its numbers and moves in text order; the result last.

use super::lex::{Token, parse_tag, tokens};
use super::{
    BoardTagError, Ending, Record, RecordError, RecordErrorKind, TagLine, fail, parse_result_token,
    result_token, winner_colour,
};
use crate::game::color::Color;
use crate::game::text::{GameText, TextError};

/// The `Termination` values of an end the moves do not reach.
const OFF_THE_BOARD: [&str; 3] = ["turn-limit", "resignation", "agreement"];

/// What the tags say: the start, the notation, the result claimed, and the other tags.
struct Header<G: GameText> {
    start: G,
    notation: G::Notation,
    /// The `Result` tag's line and value, and the winner it names (`None` for `*`).
    result_line: usize,
    result_text: String,
    stated: Option<Option<Color>>,
    termination: Option<(usize, String)>,
    others: Vec<(String, String)>,
}

/// The movetext as read: the game after its moves, the moves and their comments, and the
/// result token if one ends it (with its line).
struct Movetext<G> {
    game: G,
    moves: Vec<Vec<crate::game::Decision>>,
    comments: Vec<Option<String>>,
    intro: Option<String>,
    end_token: Option<(usize, String)>,
}

impl<G: GameText> Record<G> {
    /// Reads a record (see the module documentation), replaying its moves.
    pub fn parse(text: &str) -> Result<Record<G>, RecordError> {
        let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
        let (mut tags, body_start) = read_tag_section(&lines)?;
        G::upgrade_tags(&mut tags);
        let header_end = tags.iter().map(|t| t.0).max().unwrap_or(1);
        let head = read_header::<G>(&tags, header_end)?;
        let body = read_movetext(&head, tokens(&lines[body_start..])?)?;
        let end = read_result(&head, &body)?;
        Ok(Record {
            start: head.start,
            notation: head.notation,
            tags: head.others,
            moves: body.moves,
            intro: body.intro,
            comments: body.comments,
            end,
        })
    }
}

/// The tag section: tag lines, with blank lines allowed between them, up to the first
/// other line. Returns the tags in order and the index of the movetext's first line.
fn read_tag_section(lines: &[(usize, &str)]) -> Result<(Vec<TagLine>, usize), RecordError> {
    let mut tags: Vec<TagLine> = Vec::new();
    // Names seen so far: a linear scan per tag made a record with many tags quadratic.
    let mut names = std::collections::HashSet::new();
    for (k, &(no, line)) in lines.iter().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if !t.starts_with('[') {
            return Ok((tags, k));
        }
        let (name, value) = parse_tag(t, no)?;
        if !names.insert(name.clone()) {
            return fail(no, RecordErrorKind::DuplicateTag(name));
        }
        tags.push((no, name, value));
    }
    Ok((tags, lines.len()))
}

fn bad_value(line: usize, tag: &str, why: String) -> RecordError {
    RecordError {
        line,
        kind: RecordErrorKind::BadTagValue {
            tag: tag.to_string(),
            why,
        },
    }
}

/// The structural tags, checked in a fixed order (so a record with several bad tags always
/// gets the same error). A missing tag is placed on the last tag line, `last_line`.
fn read_header<G: GameText>(tags: &[TagLine], last_line: usize) -> Result<Header<G>, RecordError> {
    let tag = |name: &str| {
        tags.iter()
            .find(|(_, n, _)| n == name)
            .map(|(no, _, v)| (*no, v.as_str()))
    };
    let missing = |name: &'static str| RecordError {
        line: last_line,
        kind: RecordErrorKind::MissingTag(name),
    };
    let from_board_tags = |e: BoardTagError| match e {
        BoardTagError::Missing(n) => missing(n),
        BoardTagError::Bad { tag: n, why } => bad_value(tag(n).map_or(last_line, |t| t.0), n, why),
    };
    let (no, game) = tag("Game").ok_or_else(|| missing("Game"))?;
    if game != G::NAME {
        return Err(bad_value(
            no,
            "Game",
            format!("{game:?} is not \"{}\"", G::NAME),
        ));
    }
    let pairs: Vec<(&str, &str)> = tags
        .iter()
        .map(|(_, n, v)| (n.as_str(), v.as_str()))
        .collect();
    let start = match tag("Start") {
        Some((no, v)) if v != "standard" => {
            let g = G::from_position_json(v).map_err(|source| RecordError {
                line: no,
                kind: RecordErrorKind::Start {
                    tag: "Start".into(),
                    source,
                },
            })?;
            // The board tags, where given, must name the board the position has.
            for (n, v) in g.board_tags() {
                if let Some((at, given)) = tag(n)
                    && given != v
                {
                    let why =
                        format!("{given} disagrees with the start position, whose {n} is {v}");
                    return Err(bad_value(at, n, why));
                }
            }
            g
        }
        _ => G::standard_start_of(&pairs).map_err(from_board_tags)?,
    };
    let notation = G::notation_of(&pairs).map_err(from_board_tags)?;
    let (result_line, result_text) = tag("Result").ok_or_else(|| missing("Result"))?;
    let stated = parse_result_token(result_text).ok_or_else(|| {
        let why = format!("{result_text:?} is not 1-0, 0-1, 1/2-1/2 or *");
        bad_value(result_line, "Result", why)
    })?;
    let termination = match tag("Termination") {
        Some((no, t)) if !G::END_REASONS.contains(&t) && !OFF_THE_BOARD.contains(&t) => {
            let names: Vec<&str> = G::END_REASONS
                .iter()
                .chain(&OFF_THE_BOARD)
                .copied()
                .collect();
            let why = format!("{t:?} is not one of {}", names.join(", "));
            return Err(bad_value(no, "Termination", why));
        }
        t => t.map(|(no, t)| (no, t.to_string())),
    };
    let mut structural = vec!["Game", "Start", "Result", "Termination"];
    structural.extend(start.board_tags().iter().map(|(n, _)| *n));
    structural.extend(G::notation_tag(notation).map(|(n, _)| n));
    let others = tags
        .iter()
        .filter(|(_, n, _)| !structural.contains(&n.as_str()))
        .map(|(_, n, v)| (n.clone(), v.clone()))
        .collect();
    Ok(Header {
        start,
        notation,
        result_line,
        result_text: result_text.to_string(),
        stated,
        termination,
        others,
    })
}

/// The movetext: comments, move numbers and moves, played from the start as they are read,
/// and at most one result token, after which only comments may follow.
fn read_movetext<G: GameText>(
    head: &Header<G>,
    tokens: Vec<(usize, Token<'_>)>,
) -> Result<Movetext<G>, RecordError> {
    let mut body = Movetext {
        game: head.start.clone(),
        moves: Vec::new(),
        comments: Vec::new(),
        intro: None,
        end_token: None,
    };
    for (no, tok) in tokens {
        let word = match tok {
            Token::Comment(c) => {
                body.add_comment(c);
                continue;
            }
            Token::Word(w) => w,
        };
        if let Some((_, t)) = &body.end_token {
            let what = format!("{word} (after the result {t})");
            return fail(no, RecordErrorKind::AfterEnd(what));
        }
        if parse_result_token(word).is_some() {
            body.end_token = Some((no, word.to_string()));
            continue;
        }
        let number = super::number_of(&head.start, body.moves.len());
        let Some(text) = strip_move_number(word, &number, no)? else {
            continue;
        };
        let turn = read_move(&mut body.game, head.notation, text, &number, no)?;
        body.moves.push(turn);
        body.comments.push(None);
    }
    Ok(body)
}

impl<G> Movetext<G> {
    /// A comment belongs to the move before it, or to the game before the first move.
    fn add_comment(&mut self, c: String) {
        let slot = match self.moves.len() {
            0 => &mut self.intro,
            n => &mut self.comments[n - 1],
        };
        // Appends in place: copying the joined text for each of many comments was quadratic.
        match slot {
            Some(old) => {
                old.push(' ');
                old.push_str(&c);
            }
            None => *slot = Some(c),
        }
    }
}

/// A move number at the start of `word` (`12.`, `12...`, or touching the move: `12.1HN`),
/// which must be `expected`; returns the rest of the word, `None` if nothing is left.
fn strip_move_number<'a>(
    word: &'a str,
    expected: &str,
    no: usize,
) -> Result<Option<&'a str>, RecordError> {
    let digits = word
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(word.len());
    if digits == 0 || !word[digits..].starts_with('.') {
        return Ok(Some(word));
    }
    let dots = word[digits..].chars().take_while(|&c| c == '.').count();
    let found = &word[..digits + dots];
    if found != expected {
        let kind = RecordErrorKind::MoveNumber {
            found: found.to_string(),
            expected: expected.to_string(),
        };
        return fail(no, kind);
    }
    let rest = &word[digits + dots..];
    Ok((!rest.is_empty()).then_some(rest))
}

/// One move, in the record's notation, played on `game`; `number` is its number as
/// written, for messages.
fn read_move<G: GameText>(
    game: &mut G,
    notation: G::Notation,
    text: &str,
    number: &str,
    no: usize,
) -> Result<Vec<crate::game::Decision>, RecordError> {
    if game.decider().is_none() {
        return fail(
            no,
            RecordErrorKind::AfterEnd(format!("move {number} {text}")),
        );
    }
    let refused = |source| RecordError {
        line: no,
        kind: RecordErrorKind::Move {
            number: number.to_string(),
            text: text.to_string(),
            source,
        },
    };
    let turn = game.parse_move(text, notation).map_err(refused)?;
    for &d in &turn {
        game.apply(d).map_err(|e| refused(TextError::of_move(e)))?;
    }
    Ok(turn)
}

fn bad_result<T>(line: usize, why: String) -> Result<T, RecordError> {
    fail(line, RecordErrorKind::Result(why))
}

/// How the game ended, once the result token, the tags and the game agree: by the rules, or
/// an end the moves do not reach (resignation, agreement, turn limit).
fn read_result<G: GameText>(
    head: &Header<G>,
    body: &Movetext<G>,
) -> Result<Option<Ending>, RecordError> {
    let result_text = &head.result_text;
    if let Some((no, t)) = &body.end_token
        && t != result_text
    {
        let why = format!("the result token {t} disagrees with [Result \"{result_text}\"]");
        return bad_result(*no, why);
    }
    let game = &body.game;
    match (game.game_result(), head.stated) {
        (Some(r), Some(stated)) => {
            let winner = winner_colour(game, r);
            if winner != stated {
                let why = format!(
                    "[Result \"{result_text}\"] disagrees with the game, which ended {}",
                    result_token(winner)
                );
                return bad_result(head.result_line, why);
            }
            if let Some((no, t)) = &head.termination
                && Some(t.as_str()) != game.end_reason()
            {
                let why = match game.end_reason() {
                    Some(r) => format!("{t:?}, but the game ended by {r:?}"),
                    None => format!("{t:?}, but the game ended by its rules"),
                };
                return Err(bad_value(*no, "Termination", why));
            }
            Ok(Some(Ending::Rules))
        }
        (Some(_), None) => {
            let why = format!(
                "[Result \"*\"], but the game ended ({})",
                game.result_text()
            );
            bad_result(head.result_line, why)
        }
        (None, None) => match &head.termination {
            Some((no, t)) => Err(bad_value(
                *no,
                "Termination",
                format!("{t:?} with the result *"),
            )),
            None => Ok(None),
        },
        (None, Some(winner)) => ended_off_the_board(head, game, winner).map(Some),
    }
}

/// The moves leave the game going, but the `Result` tag names `winner`: only a
/// `Termination` of resignation (a win), agreement (a draw) or turn limit (the game's own
/// turn-limit result) explains that.
fn ended_off_the_board<G: GameText>(
    head: &Header<G>,
    game: &G,
    winner: Option<Color>,
) -> Result<Ending, RecordError> {
    let result_text = &head.result_text;
    let Some((no, t)) = &head.termination else {
        let why = format!(
            "[Result \"{result_text}\"] is not reached by the moves: add a Termination tag \
             (resignation, agreement or turn-limit)"
        );
        return bad_result(head.result_line, why);
    };
    let end = match (t.as_str(), winner) {
        ("resignation", Some(winner)) => Some(Ending::Resignation { winner }),
        ("agreement", None) => Some(Ending::Agreement),
        ("turn-limit", w) if w == winner_colour(game, game.turn_limit_result()) => {
            Some(Ending::TurnLimit)
        }
        _ => None,
    };
    end.ok_or_else(|| {
        let why = if OFF_THE_BOARD.contains(&t.as_str()) {
            format!("{t:?} does not fit the result {result_text}")
        } else {
            format!(
                "{t:?} with the result {result_text}, but the moves do not end the game that way"
            )
        };
        bad_value(*no, "Termination", why)
    })
}
