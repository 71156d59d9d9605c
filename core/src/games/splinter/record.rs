//! Splinter game records (rule 9.7): a PGN-like text of a whole game, in the shape of
//! Crumble's records (`crate::games::crumble::record`).
//!
//! ```text
//! [Game "splinter"]
//! [Index "3"]
//! [Black "mcts:rollout:200"]
//! [White "random"]
//! [Board "9x10"]
//! [Start "standard"]
//! [Result "1-0"]
//! [Termination "knockouts"]
//!
//! 1. f6-f7 2. e3-e2 {value -0.20} 3. d5-d6/c4 ... 1-0
//! ```
//!
//! * **Tags**, one per line, `[Name "value"]` (`\"` and `\\` escape inside the value).
//!   `Game` (required, `splinter`: it tells a Splinter record from a Crumble one), `Board`
//!   (required, `WxH`), `Start` (`standard`, the default, or the start position as one line
//!   of position JSON written bare: `[Start {"width":9,...}]`), `Result` (required: `1-0`
//!   Black won, `0-1` White won, `1/2-1/2` a draw, `*` unfinished) and `Termination` (the
//!   reason of rule 10.1). Every other tag (`Index`, `Black`, `White`, `Date`, ...) is kept
//!   in order.
//! * **`Termination`** may be left out when the moves themselves end the game, and must
//!   agree if given; a result the moves do not reach (resignation, agreement, turn limit)
//!   needs it.
//! * **Moves** after a blank line in canonical notation (rule 9.3: a kept group by its
//!   anchor), each numbered by its turn (rule 8.4, counted from the start): `1. h9-h10
//!   2. g11-g10`. Numbers are checked when present and may be left out; input may name a
//!   kept group by any of its squares. Comments `{...}` (no nesting) belong to the move
//!   before them. The movetext may end with the result token, which must agree with `Result`.
//!
//! [`parse`] replays every move through the engine and refuses a malformed record with its
//! line ([`RecordError`]); [`SplinterRecord::write`] then [`parse`] gives the same record.

use super::game::{Outcome, Reason, Splinter};
use super::moves::{MoveError, SplinterMove};
use super::notation;
use super::position::{self, PositionError};
use crate::game::Color;
use std::fmt::Write as _;
use thiserror::Error;

/// A whole Splinter game: start, tags, moves (canonical), comments and result.
#[derive(Clone, Debug, PartialEq)]
pub struct SplinterRecord {
    /// The start position, with no turn limit (the limit is a setting of the match).
    pub start: Splinter,
    /// Tags other than `Game`, `Board`, `Start`, `Result` and `Termination`, in order.
    pub tags: Vec<(String, String)>,
    /// The moves, each legal after the ones before it, in canonical form.
    pub moves: Vec<SplinterMove>,
    /// `comments[i]`: the comment after move `i` (as long as `moves`).
    pub comments: Vec<Option<String>>,
    /// The result: `None` while the game goes on (`*`).
    pub result: Option<Outcome>,
}

/// Why a record was refused: the 1-based line and what is wrong there.
#[derive(Debug, Error)]
#[error("line {line}: {kind}")]
pub struct RecordError {
    pub line: usize,
    pub kind: RecordErrorKind,
}

/// The kinds of [`RecordError`].
#[derive(Debug, Error)]
pub enum RecordErrorKind {
    #[error("not a tag line `[Name \"value\"]`: {0:?}")]
    BadTag(String),
    #[error("tag {0} appears twice")]
    DuplicateTag(String),
    #[error("tag {tag}: {why}")]
    BadTagValue { tag: String, why: String },
    #[error("the record has no {0} tag")]
    MissingTag(&'static str),
    #[error("start position: {0}")]
    Start(#[from] PositionError),
    #[error("move {number} is numbered {found}")]
    MoveNumber { number: usize, found: String },
    #[error("move {number} ({text}) refused: {source}")]
    Move {
        number: usize,
        text: String,
        #[source]
        source: MoveError,
    },
    #[error("a comment is not closed")]
    OpenComment,
    #[error("{0}")]
    Result(String),
}

fn fail<T>(line: usize, kind: RecordErrorKind) -> Result<T, RecordError> {
    Err(RecordError { line, kind })
}

/// The result token of an outcome.
pub fn result_token(result: Option<Outcome>) -> &'static str {
    match result.map(|o| o.winner) {
        None => "*",
        Some(Some(Color::Black)) => "1-0",
        Some(Some(Color::White)) => "0-1",
        Some(None) => "1/2-1/2",
    }
}

/// The winner a result token names: `Some(Some(c))` a win, `Some(None)` a draw, `None` `*`.
fn parse_result_token(t: &str) -> Option<Option<Option<Color>>> {
    match t {
        "1-0" => Some(Some(Some(Color::Black))),
        "0-1" => Some(Some(Some(Color::White))),
        "1/2-1/2" => Some(Some(None)),
        "*" => Some(None),
        _ => None,
    }
}

const STRUCTURAL: [&str; 5] = ["Game", "Board", "Start", "Result", "Termination"];

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

impl SplinterRecord {
    /// A record of no moves from `start` (its turn limit dropped), with the start's result.
    pub fn new(mut start: Splinter) -> SplinterRecord {
        start.set_turn_limit(0);
        let result = start.outcome();
        SplinterRecord {
            start,
            tags: Vec::new(),
            moves: Vec::new(),
            comments: Vec::new(),
            result,
        }
    }

    /// The value of a tag other than the structural ones.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag (replacing its value if present).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Appends a move (legal after the moves before it; the caller checked it) with its
    /// comment.
    pub fn push_move(&mut self, mv: SplinterMove, comment: Option<String>) {
        self.moves.push(mv);
        self.comments.push(comment);
    }

    /// The comment after move `i`.
    pub fn comment(&self, i: usize) -> Option<&str> {
        self.comments.get(i).and_then(|c| c.as_deref())
    }

    /// The positions of the game: the start and the position after every move, each with
    /// the move that led to it; the record's result is applied to the last position when
    /// the moves do not reach it (resignation, agreement, turn limit). A move that does not
    /// replay is refused with its 1-based number.
    #[allow(clippy::type_complexity)]
    pub fn positions(&self) -> Result<Vec<(Splinter, Option<SplinterMove>)>, (usize, MoveError)> {
        let mut game = self.start.clone();
        let mut out = vec![(game.clone(), None)];
        for (i, mv) in self.moves.iter().enumerate() {
            game.play(mv).map_err(|e| (i + 1, e))?;
            out.push((game.clone(), Some(*mv)));
        }
        if let Some(o) = self.result {
            let last = &mut out.last_mut().expect("the start is always there").0;
            last.finish(o);
        }
        Ok(out)
    }

    /// The text of the record (see the module documentation).
    pub fn write(&self) -> String {
        let b = self.start.board();
        let mut s = String::from("[Game \"splinter\"]\n");
        for (n, v) in &self.tags {
            let _ = writeln!(s, "[{n} \"{}\"]", escape(v));
        }
        let _ = writeln!(s, "[Board \"{}x{}\"]", b.width(), b.height());
        if is_standard(&self.start) {
            s.push_str("[Start \"standard\"]\n");
        } else {
            let _ = writeln!(s, "[Start {}]", position::to_json(&self.start));
        }
        let _ = writeln!(s, "[Result \"{}\"]", result_token(self.result));
        if let Some(o) = self.result {
            let _ = writeln!(s, "[Termination \"{}\"]", o.reason.name());
        }
        s.push('\n');
        let mut game = self.start.clone();
        let mut line = String::new();
        let push = |s: &mut String, line: &mut String, token: &str| {
            if !line.is_empty() && line.len() + 1 + token.len() > 79 {
                s.push_str(line);
                s.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(token);
        };
        for (i, mv) in self.moves.iter().enumerate() {
            push(&mut s, &mut line, &format!("{}.", i + 1));
            push(&mut s, &mut line, &notation::move_text(game.board(), mv));
            if let Some(c) = self.comment(i) {
                push(
                    &mut s,
                    &mut line,
                    &format!("{{{}}}", c.replace('}', ")").replace(['\n', '\r'], " ")),
                );
            }
            // A record holds legal moves (push_move's contract, parse checks them).
            let _ = game.play(mv);
        }
        push(&mut s, &mut line, result_token(self.result));
        s.push_str(&line);
        s.push('\n');
        s
    }
}

/// Is `game` the standard start of its size (rule 2.7), Black to move, nothing played?
fn is_standard(game: &Splinter) -> bool {
    let b = game.board();
    Splinter::standard(b.width(), b.height()).is_some_and(|s| {
        s.board() == b
            && s.to_move() == game.to_move()
            && game.last_move().is_none()
            && game.outcome().is_none()
    })
}

/// Reads one tag line `[Name "value"]` or `[Start {json}]`.
fn parse_tag(line: &str, no: usize) -> Result<(String, String), RecordError> {
    let bad = || RecordError {
        line: no,
        kind: RecordErrorKind::BadTag(line.to_string()),
    };
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(bad)?;
    let (name, rest) = inner.split_once(' ').ok_or_else(bad)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad());
    }
    let rest = rest.trim();
    if name == "Start" && rest.starts_with('{') {
        return Ok((name.to_string(), rest.to_string()));
    }
    let body = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(bad)?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next().ok_or_else(bad)?),
            '"' => return Err(bad()),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// A token of the movetext with its line.
enum Token<'a> {
    Word(&'a str),
    Comment(String),
}

fn tokens(text: &str, first_line: usize) -> Result<Vec<(usize, Token<'_>)>, RecordError> {
    let mut out = Vec::new();
    let mut comment: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let no = first_line + i;
        let mut rest = line;
        loop {
            if let Some((start, c)) = comment.as_mut() {
                match rest.split_once('}') {
                    Some((inside, after)) => {
                        c.push_str(inside);
                        out.push((*start, Token::Comment(c.trim().to_string())));
                        comment = None;
                        rest = after;
                    }
                    None => {
                        c.push_str(rest);
                        c.push(' ');
                        break;
                    }
                }
                continue;
            }
            match rest.split_once('{') {
                Some((before, after)) => {
                    out.extend(before.split_whitespace().map(|w| (no, Token::Word(w))));
                    comment = Some((no, String::new()));
                    rest = after;
                }
                None => {
                    out.extend(rest.split_whitespace().map(|w| (no, Token::Word(w))));
                    break;
                }
            }
        }
    }
    match comment {
        Some((start, _)) => fail(start, RecordErrorKind::OpenComment),
        None => Ok(out),
    }
}

/// Reads a record (see the module documentation), replaying its moves.
pub fn parse(text: &str) -> Result<SplinterRecord, RecordError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).peekable();
    let mut all_tags: Vec<(usize, String, String)> = Vec::new();
    while let Some(&(no, line)) = lines.peek() {
        let t = line.trim();
        if t.is_empty() && all_tags.is_empty() {
            lines.next();
            continue;
        }
        if !t.starts_with('[') {
            break;
        }
        let (name, value) = parse_tag(t, no)?;
        if all_tags.iter().any(|(_, n, _)| *n == name) {
            return fail(no, RecordErrorKind::DuplicateTag(name));
        }
        all_tags.push((no, name, value));
        lines.next();
    }
    let tag = |name: &str| all_tags.iter().find(|(_, n, _)| n == name);
    let header_end = all_tags.last().map_or(1, |t| t.0);
    let missing = |name: &'static str| RecordError {
        line: header_end,
        kind: RecordErrorKind::MissingTag(name),
    };
    let bad = |no: usize, tag: &str, why: String| RecordError {
        line: no,
        kind: RecordErrorKind::BadTagValue {
            tag: tag.into(),
            why,
        },
    };
    let (no, _, game) = tag("Game").ok_or_else(|| missing("Game"))?;
    if game != "splinter" {
        return Err(bad(*no, "Game", format!("{game:?} is not \"splinter\"")));
    }
    let (board_no, _, size) = tag("Board").ok_or_else(|| missing("Board"))?;
    let (w, h) = size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse::<u8>().ok()?, h.parse::<u8>().ok()?)))
        .ok_or_else(|| bad(*board_no, "Board", format!("{size:?} is not WxH")))?;
    let start = match tag("Start") {
        None => None,
        Some((_, _, v)) if v == "standard" => None,
        Some((no, _, v)) => Some(position::from_json(v).map_err(|e| RecordError {
            line: *no,
            kind: e.into(),
        })?),
    };
    let start = match start {
        Some(g) => {
            if (g.board().width(), g.board().height()) != (w, h) {
                return Err(bad(
                    *board_no,
                    "Board",
                    format!(
                        "{size} but the start position is {}x{}",
                        g.board().width(),
                        g.board().height()
                    ),
                ));
            }
            g
        }
        None => Splinter::standard(w, h).ok_or_else(|| {
            bad(
                *board_no,
                "Board",
                format!("{size} is outside 5..=26 x 6..=26 (rule 2.1)"),
            )
        })?,
    };
    let (result_no, _, result_text) = tag("Result").ok_or_else(|| missing("Result"))?;
    let winner = parse_result_token(result_text).ok_or_else(|| {
        bad(
            *result_no,
            "Result",
            format!("{result_text:?} is not a result"),
        )
    })?;
    let reason = match tag("Termination") {
        None => None,
        Some((no, _, v)) => Some(
            Reason::from_name(v)
                .ok_or_else(|| bad(*no, "Termination", format!("{v:?} is not a reason")))?,
        ),
    };

    let mut rec = SplinterRecord::new(start);
    rec.tags = all_tags
        .iter()
        .filter(|(_, n, _)| !STRUCTURAL.contains(&n.as_str()))
        .map(|(_, n, v)| (n.clone(), v.clone()))
        .collect();
    let rest_first = lines.peek().map_or(1, |&(no, _)| no);
    let rest: Vec<&str> = lines.map(|(_, l)| l).collect();
    let rest = rest.join("\n");
    let mut game = rec.start.clone();
    let mut final_token: Option<(usize, &str)> = None;
    let toks = tokens(&rest, rest_first)?;
    for (no, tok) in &toks {
        let no = *no;
        let word = match tok {
            Token::Comment(c) => {
                match rec.comments.last_mut() {
                    Some(slot) if slot.is_none() => *slot = Some(c.clone()),
                    Some(Some(prev)) => {
                        prev.push(' ');
                        prev.push_str(c);
                    }
                    _ => {} // a comment before the first move says nothing the record keeps
                }
                continue;
            }
            Token::Word(w) => *w,
        };
        if final_token.is_some() {
            return fail(
                no,
                RecordErrorKind::Result(format!("{word:?} after the result token")),
            );
        }
        if parse_result_token(word).is_some() {
            final_token = Some((no, word));
            continue;
        }
        let number = rec.moves.len() + 1;
        if let Some(n) = word.strip_suffix('.') {
            if n != number.to_string() {
                return fail(
                    no,
                    RecordErrorKind::MoveNumber {
                        number,
                        found: word.into(),
                    },
                );
            }
            continue;
        }
        let refused = |source| RecordError {
            line: no,
            kind: RecordErrorKind::Move {
                number,
                text: word.into(),
                source,
            },
        };
        let mv = notation::parse_move(game.board(), word).map_err(|e| refused(e.into()))?;
        let mv = game.canonical(&mv).map_err(refused)?;
        game.play(&mv).map_err(refused)?;
        rec.push_move(mv, None);
    }
    if let Some((no, t)) = final_token
        && t != result_text
    {
        return fail(
            no,
            RecordErrorKind::Result(format!(
                "the movetext ends with {t} but the Result tag says {result_text}"
            )),
        );
    }
    let mismatch = |why: String| RecordError {
        line: *result_no,
        kind: RecordErrorKind::Result(why),
    };
    rec.result = match (game.outcome(), winner) {
        (Some(o), Some(w)) if o.winner == w && reason.is_none_or(|r| r == o.reason) => Some(o),
        (Some(o), _) => {
            return Err(mismatch(format!(
                "the moves end the game as {} ({}), but the record says {result_text}{}",
                result_token(Some(o)),
                o.reason.name(),
                reason.map_or(String::new(), |r| format!(" ({})", r.name()))
            )));
        }
        (None, None) if reason.is_none() => None,
        (None, None) => return Err(mismatch("an unfinished game (*) has no Termination".into())),
        (None, Some(w)) => {
            let r = reason.ok_or_else(|| {
                mismatch(format!(
                    "the moves do not end the game: {result_text} needs a Termination (resignation, agreement or turn-limit)"
                ))
            })?;
            let fits = match r {
                Reason::Resignation => w.is_some(),
                Reason::Agreement | Reason::TurnLimit => w.is_none(),
                _ => false,
            };
            if !fits {
                return Err(mismatch(format!(
                    "{result_text} ({}) is not reached by the moves",
                    r.name()
                )));
            }
            Some(Outcome {
                winner: w,
                reason: r,
            })
        }
    };
    Ok(rec)
}

#[cfg(test)]
mod tests;
