//! Crumo game records (rule 11.7): a PGN-like text of a whole game, in the shape of
//! Splinter's records.
//!
//! ```text
//! [Game "crumo"]
//! [Size "5"]
//! [Black "mcts:rollout:200"]
//! [White "random"]
//! [Start "standard"]
//! [Result "1-0"]
//! [Termination "two-passes"]
//!
//! 1. 3e5 2. swap 3. 1e3 4. e5-e7 5. pass 6. pass 1-0
//! ```
//!
//! * **Tags**, one per line, `[Name "value"]` (`\"` and `\\` escape inside the value).
//!   `Game` (required, `crumo`), `Size` (required, rule 1.1), `Start` (`standard`, the
//!   default, or the start position as one line of rule 12's JSON written bare:
//!   `[Start {"size":5,...}]`, whose size must agree), `Result` (required: `1-0` Black won,
//!   `0-1` White won, `1/2-1/2` a draw, `*` unfinished) and `Termination` (a reason of rule
//!   12.2). Every other tag is kept in order; a tag given twice is refused.
//! * **`Termination`** may be left out when the moves end the game (two passes), and must
//!   agree if given; a result the moves do not reach (a turn limit, which scores the final
//!   position, a resignation or an agreement) needs it, and the `Result` must agree with it.
//! * **Moves** after a blank line in rule 11's notation, each optionally preceded by its
//!   turn number (`1.`, counted from the start; checked when present). The movetext may end
//!   with the result token, which must agree with `Result`. No comments.
//!
//! [`parse`] replays every move through the engine and refuses a malformed record with its
//! line ([`RecordError`]); [`CrumoRecord::write`] then [`parse`] gives the same record.

use super::board::size_ok;
use super::game::{Crumo, Outcome, Reason};
use super::moves::MoveError;
use super::notation::CrumoMove;
use super::position::{self, PositionError};
use crate::game::Color;
use std::fmt::Write as _;
use thiserror::Error;

/// A whole Crumo game: start, tags, moves and result.
#[derive(Clone, Debug, PartialEq)]
pub struct CrumoRecord {
    /// The start position, with no turn limit (the limit is a setting of the match).
    pub start: Crumo,
    /// Tags other than `Game`, `Size`, `Start`, `Result` and `Termination`, in order.
    pub tags: Vec<(String, String)>,
    /// The moves, each legal after the ones before it.
    pub moves: Vec<CrumoMove>,
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

const STRUCTURAL: [&str; 5] = ["Game", "Size", "Start", "Result", "Termination"];

/// A tag line: `[Name "value"]`, or `[Start {json}]` with the JSON bare.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    if name == "Start" && rest.starts_with('{') {
        return Some((name.into(), rest.into()));
    }
    let quoted = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next().filter(|&e| e == '"' || e == '\\')?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.into(), value))
}

fn quote(v: &str) -> String {
    format!("\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Reads a record (see the module documentation), replaying every move.
pub fn parse(text: &str) -> Result<CrumoRecord, RecordError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut tags: Vec<(String, String, usize)> = Vec::new();
    let mut i = 0;
    while i < lines.len() && !lines[i].trim().is_empty() {
        let line = lines[i].trim_end_matches('\r');
        let Some((name, value)) = parse_tag(line) else {
            return fail(i + 1, RecordErrorKind::BadTag(line.into()));
        };
        if tags.iter().any(|t| t.0 == name) {
            return fail(i + 1, RecordErrorKind::DuplicateTag(name));
        }
        tags.push((name, value, i + 1));
        i += 1;
    }
    let header_end = i.max(1);
    let get = |name: &str| tags.iter().find(|t| t.0 == name);
    let required = |name: &'static str| {
        get(name).ok_or(RecordError {
            line: header_end,
            kind: RecordErrorKind::MissingTag(name),
        })
    };
    let bad = |t: &(String, String, usize), why: String| RecordError {
        line: t.2,
        kind: RecordErrorKind::BadTagValue {
            tag: t.0.clone(),
            why,
        },
    };
    let game = required("Game")?;
    if game.1 != "crumo" {
        return Err(bad(game, format!("{:?} is not \"crumo\"", game.1)));
    }
    let size_tag = required("Size")?;
    let size = size_tag
        .1
        .parse::<u8>()
        .ok()
        .filter(|&n| size_ok(n) && n.to_string() == size_tag.1)
        .ok_or_else(|| bad(size_tag, "not a supported size (rule 1.1)".into()))?;
    let mut start = match get("Start") {
        None => Crumo::standard(size).expect("size checked"),
        Some(t) if t.1 == "standard" => Crumo::standard(size).expect("size checked"),
        Some(t) => {
            let g = position::from_json(&t.1).map_err(|e| RecordError {
                line: t.2,
                kind: RecordErrorKind::Start(e),
            })?;
            if g.size() != size {
                return Err(bad(t, format!("the position has size {}", g.size())));
            }
            g
        }
    };
    start.set_turn_limit(0);
    let result_tag = required("Result")?;
    let stated = parse_result_token(&result_tag.1)
        .ok_or_else(|| bad(result_tag, "not 1-0, 0-1, 1/2-1/2 or *".into()))?;
    let termination = match get("Termination") {
        None => None,
        Some(t) => Some((
            Reason::from_name(&t.1).ok_or_else(|| bad(t, "not a reason of rule 12.2".into()))?,
            t.2,
        )),
    };

    let mut game = start.clone();
    let mut moves = Vec::new();
    let mut token_end = false;
    for (k, line) in lines.iter().enumerate().skip(i) {
        for token in line.split_whitespace() {
            let line_no = k + 1;
            if token_end {
                return fail(
                    line_no,
                    RecordErrorKind::Result(format!("{token:?} after the result token")),
                );
            }
            if let Some(number) = token.strip_suffix('.') {
                if number != (moves.len() + 1).to_string() {
                    return fail(
                        line_no,
                        RecordErrorKind::MoveNumber {
                            number: moves.len() + 1,
                            found: token.into(),
                        },
                    );
                }
                continue;
            }
            if let Some(winner) = parse_result_token(token) {
                if winner != stated {
                    return fail(
                        line_no,
                        RecordErrorKind::Result(format!(
                            "the movetext ends {token}, the Result tag says {}",
                            result_tag.1
                        )),
                    );
                }
                token_end = true;
                continue;
            }
            let mv = super::notation::parse_move(game.geometry(), token)
                .map_err(MoveError::from)
                .and_then(|mv| game.play(&mv).map(|()| mv))
                .map_err(|source| RecordError {
                    line: line_no,
                    kind: RecordErrorKind::Move {
                        number: moves.len() + 1,
                        text: token.into(),
                        source,
                    },
                })?;
            moves.push(mv);
        }
    }
    let line = lines.len().max(1);
    let result = settle(&mut game, stated, termination, line)?;
    Ok(CrumoRecord {
        start,
        tags: tags
            .into_iter()
            .filter(|t| !STRUCTURAL.contains(&t.0.as_str()))
            .map(|t| (t.0, t.1))
            .collect(),
        moves,
        result,
    })
}

/// The result of the replayed game given the `Result` token and the `Termination` tag.
fn settle(
    game: &mut Crumo,
    stated: Option<Option<Color>>,
    termination: Option<(Reason, usize)>,
    line: usize,
) -> Result<Option<Outcome>, RecordError> {
    let err = |line, why: String| fail(line, RecordErrorKind::Result(why));
    if let Some(o) = game.outcome() {
        if let Some((reason, at)) = termination
            && reason != o.reason
        {
            return err(at, format!("the moves end the game by {}", o.reason.name()));
        }
        if stated != Some(o.winner) {
            return err(
                line,
                format!("the moves give the result {}", result_token(Some(o))),
            );
        }
        return Ok(Some(o));
    }
    let Some(winner) = stated else {
        return match termination {
            Some((_, at)) => err(at, "an unfinished game (*) has no Termination".into()),
            None => Ok(None),
        };
    };
    let Some((reason, at)) = termination else {
        return err(
            line,
            "the moves do not end the game: a Termination tag is needed".into(),
        );
    };
    let outcome = match reason {
        Reason::TwoPasses => return err(at, "the moves do not end with two passes".into()),
        Reason::TurnLimit => Outcome::scored(Reason::TurnLimit, game.score_halves(None)),
        Reason::Resignation | Reason::Agreement => Outcome {
            winner,
            reason,
            score_halves: None,
        },
    };
    let agrees = match reason {
        Reason::Resignation => winner.is_some(),
        Reason::Agreement => winner.is_none(),
        _ => outcome.winner == winner,
    };
    if !agrees {
        return err(
            at,
            format!(
                "a {} here cannot give {}",
                reason.name(),
                result_token(Some(Outcome { winner, ..outcome }))
            ),
        );
    }
    if !game.finish(outcome) {
        return err(at, "the game cannot end here".into());
    }
    Ok(Some(outcome))
}

impl CrumoRecord {
    /// The value of tag `name` (one of [`CrumoRecord::tags`]), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing its value when present, else adding it at the end.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The record as text (see the module documentation); [`parse`] reads it back.
    pub fn write(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "[Game \"crumo\"]");
        let _ = writeln!(out, "[Size \"{}\"]", self.start.size());
        for (k, v) in &self.tags {
            let _ = writeln!(out, "[{k} {}]", quote(v));
        }
        let standard = Crumo::standard(self.start.size())
            .is_some_and(|s| position::to_value(&s) == position::to_value(&self.start));
        if standard {
            out.push_str("[Start \"standard\"]\n");
        } else {
            let _ = writeln!(out, "[Start {}]", position::to_json(&self.start));
        }
        let _ = writeln!(out, "[Result {}]", quote(result_token(self.result)));
        if let Some(o) = self.result {
            let _ = writeln!(out, "[Termination \"{}\"]", o.reason.name());
        }
        out.push('\n');
        let geo = self.start.geometry();
        let mut line = String::new();
        for (i, mv) in self.moves.iter().enumerate() {
            let word = format!("{}. {}", i + 1, super::notation::move_text(geo, mv));
            if !line.is_empty() && line.len() + word.len() > 78 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(result_token(self.result));
        out.push_str(&line);
        out.push('\n');
        out
    }

    /// The game at its end: the start with every move played and the result set.
    pub fn replay(&self) -> Result<Crumo, MoveError> {
        let mut game = self.start.clone();
        for mv in &self.moves {
            game.play(mv)?;
        }
        if let Some(o) = self.result
            && !game.is_over()
        {
            game.finish(o);
        }
        Ok(game)
    }
}
