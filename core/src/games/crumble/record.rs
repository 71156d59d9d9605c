//! Game records: a PGN-like text format for a whole game.
//!
//! ```text
//! [Board "6"]
//! [Resolution "8"]
//! [Frame "per-player"]
//! [Black "Ada"]
//! [White "Bo"]
//! [Date "2025.01.31"]
//! [Result "0-1"]
//! [Termination "resignation"]
//!
//! 1. 1HN 5,5HSWS {White answers at once} 2. 0,2J2,1
//! 2... 3H 0-1
//! ```
//!
//! * **Tags**, one per line, `[Name "value"]` (`\"` and `\\` escape inside the value):
//!   `Board` and `Resolution` (default 6 and 8), `Frame` (`per-player`, the default, or
//!   `absolute`: the notation frame of the moves, RULES.md section 6), `Black`, `White`,
//!   `Date`, `Result`, `Termination`, and `Position`. Other tags are kept as they are.
//! * **`Result`** (required): `1-0` Black won (Black moves first and is named first), `0-1`
//!   White won, `1/2-1/2` a draw, `*` the game goes on.
//! * **`Termination`**: the reason name of RULES.md (`four-sides`, `draw-rule`,
//!   `no-split-or-join`, `turn-limit`, `resignation`, `agreement`). When the moves themselves
//!   end the game it may be left out, and must agree if given; a result the moves do not
//!   reach (resignation, agreement, turn limit) needs it.
//! * **`Position`**: the start position as one line of position JSON, written as a bare
//!   JSON object (`[Position {"board":6,...}]`; a quoted, escaped string is accepted too),
//!   present only when the game does not start from the standard start.
//! * **Moves** after a blank line, numbered per full turn: `1. <black> <white> 2. ...`, in
//!   the record's frame. After a comment, or when the game starts with White to move, a White
//!   move is written `2... <white>`. Move numbers are checked when present and may be left
//!   out. Comments are `{...}` (no nesting, may span lines) and belong to the move before
//!   them (or the game, before the first move). The movetext may end with the result token,
//!   which must agree with the `Result` tag.
//!
//! [`parse`] refuses a malformed record with the line and the reason ([`RecordError`]);
//! [`GameRecord::write`] then [`parse`] gives the same record.

use crate::game::Color;
use crate::games::crumble::game::{Crumble, Outcome, Reason};
use crate::games::crumble::moves::Move;
use crate::games::crumble::notation::{self, Formatter, Frame};
use crate::games::crumble::position::{self, PositionError};
use thiserror::Error;

/// A whole game: start position, notation frame, tags, moves (absolute frame), comments and
/// result.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The start position (the standard start, or any position players agreed on).
    pub start: Crumble,
    /// The frame the moves are written in.
    pub frame: Frame,
    /// Tags other than the structural ones (`Board`, `Resolution`, `Frame`, `Result`,
    /// `Termination`, `Position`): `Black`, `White`, `Date` and anything else, in order.
    pub tags: Vec<(String, String)>,
    /// The moves, in the absolute frame.
    pub moves: Vec<Move>,
    /// A comment before the first move.
    pub intro: Option<String>,
    /// `comments[i]`: the comment after move `i` (kept the same length as `moves` by
    /// [`GameRecord::push_move`] and [`parse`]).
    pub comments: Vec<Option<String>>,
    /// The game's result: `None` while it goes on (`*`).
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
    /// A tag line that is not `[Name "value"]`.
    #[error("malformed tag: {0}")]
    BadTag(String),
    /// The same tag twice.
    #[error("tag {0} is given twice")]
    DuplicateTag(String),
    /// A structural tag with a value it cannot have.
    #[error("tag {tag}: {why}")]
    BadTagValue { tag: String, why: String },
    /// The `Position` tag holds a position that does not load.
    #[error("tag Position: {0}")]
    Position(#[source] PositionError),
    /// There is no `Result` tag.
    #[error("the record has no Result tag")]
    MissingResult,
    /// A `{` without its `}`.
    #[error("comment opened here is never closed")]
    UnclosedComment,
    /// A `}` with no `{` before it.
    #[error("'}}' without a comment opened before it")]
    StrayBrace,
    /// A move number that does not fit the game.
    #[error("move number {found:?}: expected {expected:?}")]
    MoveNumber { found: String, expected: String },
    /// A move that cannot be read or played.
    #[error("move {number} ({text:?}) refused: {why}")]
    Move {
        number: String,
        text: String,
        why: String,
    },
    /// Moves after the game ended (by the rules, or after the result token).
    #[error("{0:?} comes after the end of the game")]
    AfterEnd(String),
    /// The result token or the tags disagree with the game.
    #[error("{0}")]
    Result(String),
}

fn fail<T>(line: usize, kind: RecordErrorKind) -> Result<T, RecordError> {
    Err(RecordError { line, kind })
}

fn bad_value<T>(line: usize, tag: &str, why: String) -> Result<T, RecordError> {
    fail(
        line,
        RecordErrorKind::BadTagValue {
            tag: tag.to_string(),
            why,
        },
    )
}

/// The result token of an outcome.
pub fn result_token(result: Option<Outcome>) -> &'static str {
    match result {
        None => "*",
        Some(Outcome {
            winner: Some(Color::Black),
            ..
        }) => "1-0",
        Some(Outcome {
            winner: Some(Color::White),
            ..
        }) => "0-1",
        Some(Outcome { winner: None, .. }) => "1/2-1/2",
    }
}

/// The winner a result token names: `Some(Some(c))` a win, `Some(None)` a draw, `None` for `*`.
fn parse_result_token(t: &str) -> Option<Option<Option<Color>>> {
    match t {
        "1-0" => Some(Some(Some(Color::Black))),
        "0-1" => Some(Some(Some(Color::White))),
        "1/2-1/2" => Some(Some(None)),
        "*" => Some(None),
        _ => None,
    }
}

const STRUCTURAL: [&str; 6] = [
    "Board",
    "Resolution",
    "Frame",
    "Result",
    "Termination",
    "Position",
];

/// Move number text of the move `index` (0-based) of a game whose first mover is `first`.
fn number_of(index: usize, first: Color) -> (usize, Color) {
    let ply = index + usize::from(first == Color::White);
    (
        ply / 2 + 1,
        if ply.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        },
    )
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

impl GameRecord {
    /// A record of no moves from `start`, in `frame`, with the start's result.
    pub fn new(start: Crumble, frame: Frame) -> GameRecord {
        let result = start.outcome();
        GameRecord {
            start,
            frame,
            tags: Vec::new(),
            moves: Vec::new(),
            intro: None,
            comments: Vec::new(),
            result,
        }
    }

    /// The value of a non-structural tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a non-structural tag (replacing an earlier value).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Appends a move (absolute frame) with an optional comment after it.
    pub fn push_move(&mut self, mv: Move, comment: Option<String>) {
        self.comments.resize(self.moves.len(), None);
        self.moves.push(mv);
        self.comments.push(comment);
    }

    /// The comment after move `i`, if any.
    pub fn comment(&self, i: usize) -> Option<&str> {
        self.comments.get(i).and_then(|c| c.as_deref())
    }

    /// Plays the first `ply` moves (all of them for `None`) on the start position; with all
    /// moves played, a result that the moves do not reach (resignation, agreement, turn limit)
    /// is applied too. Fails on an illegal move (the move's 0-based index and why).
    pub fn replay(&self, ply: Option<usize>) -> Result<Crumble, (usize, String)> {
        let n = ply.unwrap_or(self.moves.len()).min(self.moves.len());
        let mut game = self.start.clone();
        for (i, mv) in self.moves[..n].iter().enumerate() {
            game.play_move(mv).map_err(|e| (i, e.to_string()))?;
        }
        if n == self.moves.len()
            && !game.is_over()
            && let Some(o) = self.result
        {
            game.finish(o);
        }
        Ok(game)
    }

    /// The record as text (see the module documentation). A `}` inside a comment is written
    /// as `)`, since comments cannot nest. Moves that do not replay are written as `??`.
    pub fn write(&self) -> String {
        let mut out = String::new();
        let b = self.start.board();
        let standard = Crumble::new(b.board_size(), b.resolution()).is_ok_and(|s| s == self.start);
        out += &format!(
            "[Board \"{}\"]\n[Resolution \"{}\"]\n",
            b.board_size(),
            b.resolution()
        );
        out += &format!("[Frame \"{}\"]\n", self.frame.name());
        for (n, v) in &self.tags {
            out += &format!("[{n} \"{}\"]\n", escape(v));
        }
        out += &format!("[Result \"{}\"]\n", result_token(self.result));
        if let Some(o) = self.result {
            out += &format!("[Termination \"{}\"]\n", o.reason.name());
        }
        if !standard {
            let value: serde_json::Value = serde_json::from_str(&position::to_json(&self.start))
                .expect("position JSON is JSON");
            out += &format!("[Position {value}]\n");
        }
        out.push('\n');

        let mut words: Vec<String> = Vec::new();
        let comment = |c: &str| format!("{{{}}}", c.replace('}', ")"));
        if let Some(c) = &self.intro {
            words.push(comment(c));
        }
        let first = self.start.to_move();
        let mut game = self.start.clone();
        let mut need_number = true;
        for (i, mv) in self.moves.iter().enumerate() {
            let (num, who) = number_of(i, first);
            if who == Color::Black {
                words.push(format!("{num}."));
            } else if need_number {
                words.push(format!("{num}..."));
            }
            let text = Formatter::new(&game, self.frame)
                .format(&game, mv)
                .unwrap_or_else(|| "??".into());
            words.push(text);
            let _ = game.play_move(mv);
            need_number = false;
            if let Some(c) = self.comment(i) {
                words.push(comment(c));
                need_number = true;
            }
        }
        words.push(result_token(self.result).to_string());
        // Wrap at 80 columns; a word never breaks.
        let mut line = String::new();
        for w in words {
            if !line.is_empty() && line.len() + 1 + w.len() > 80 {
                out += &line;
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line += &w;
        }
        out += &line;
        out.push('\n');
        out
    }
}

// ----------------------------------------------------------------------------- parsing
//
// A record is read in the order of its grammar (see the module documentation):
//
//     record   = {tag | blank line} movetext
//     tag      = "[" name value "]"                       one to a line
//     movetext = {comment | move number | move} [result token]
//
// then the tags, the result token and the replayed game are checked against each other.
// One function reads each part. Which error a bad record gets depends on their order, kept
// as it is: tag lines in text order; then the structural tags' values in a fixed order; then
// the movetext's braces, all of it; then its numbers and moves in text order; the result last.

/// A tag as read: its line, name and value.
type Tag = (usize, String, String);

/// What the tags say: the start, the moves' frame, the result claimed, and the other tags.
struct Header {
    start: Crumble,
    frame: Frame,
    /// The `Result` tag's line and value, and the winner it names (`None` for `*`).
    result_line: usize,
    result_text: String,
    result_winner: Option<Option<Color>>,
    termination: Option<(usize, Reason)>,
    others: Vec<(String, String)>,
}

/// The movetext as read: the game after its moves, the moves and their comments, and the
/// result token if one ends it (with its line).
struct Movetext {
    game: Crumble,
    moves: Vec<Move>,
    comments: Vec<Option<String>>,
    intro: Option<String>,
    end_token: Option<(usize, String)>,
}

/// Reads a game record (see the module documentation).
pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
    let (tags, body_start) = read_tag_section(&lines)?;
    let head = read_header(&tags, lines.len())?;
    let tokens = tokenize(&lines[body_start..])?;
    let body = read_movetext(&head.start, head.frame, tokens)?;
    let result = read_result(&head, &body)?;
    Ok(GameRecord {
        start: head.start,
        frame: head.frame,
        tags: head.others,
        moves: body.moves,
        intro: body.intro,
        comments: body.comments,
        result,
    })
}

/// The tag section: tag lines, with blank lines allowed between them, up to the first
/// other line. Returns the tags in order and the index of the movetext's first line.
fn read_tag_section(lines: &[(usize, &str)]) -> Result<(Vec<Tag>, usize), RecordError> {
    let mut tags: Vec<Tag> = Vec::new();
    // Names seen so far: a linear scan per tag made a record with many tags quadratic.
    let mut names: std::collections::HashSet<String> = std::collections::HashSet::new();
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

/// A tag line `[Name value]` -> (name, raw value text).
fn parse_tag(line: &str, no: usize) -> Result<(String, String), RecordError> {
    let bad = |why: &str| fail(no, RecordErrorKind::BadTag(format!("{why} in {line:?}")));
    let t = line.trim();
    let Some(inner) = t.strip_prefix('[').and_then(|s| s.strip_suffix(']')) else {
        return bad("a tag is '[Name \"value\"]' on one line");
    };
    let inner = inner.trim();
    let name_len = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let (name, rest) = inner.split_at(name_len);
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return bad("the tag name must start with a letter");
    }
    let rest = rest.trim();
    // The start position may be written as bare JSON, which would need much escaping.
    if name == "Position" && rest.starts_with('{') {
        return Ok((name.to_string(), rest.to_string()));
    }
    match quoted_value(rest) {
        Ok(value) => Ok((name.to_string(), value)),
        Err(why) => bad(why),
    }
}

/// A tag's value `"..."`, with `\"` and `\\` escaped inside; or why it is malformed.
fn quoted_value(rest: &str) -> Result<String, &'static str> {
    let Some(body) = rest.strip_prefix('"').and_then(|s| s.strip_suffix('"')) else {
        return Err("the value must be in double quotes");
    };
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('"' | '\\')) => value.push(e),
                _ => return Err("only \\\" and \\\\ may be escaped"),
            },
            '"' => return Err("a '\"' inside the value must be escaped as \\\""),
            c => value.push(c),
        }
    }
    Ok(value)
}

/// The line and value of the tag `name`, if given.
fn tag<'a>(tags: &'a [Tag], name: &str) -> Option<(usize, &'a str)> {
    tags.iter()
        .find(|(_, n, _)| n == name)
        .map(|(no, _, v)| (*no, v.as_str()))
}

/// The structural tags, checked in a fixed order (so a record with several bad tags
/// always gets the same error). `line_count` places the error of a missing `Result`.
fn read_header(tags: &[Tag], line_count: usize) -> Result<Header, RecordError> {
    let board = tag_number(tags, "Board", 6)?;
    let resolution = tag_number(tags, "Resolution", 8)?;
    let frame = read_frame(tags)?;
    let start = match tag(tags, "Position") {
        Some((no, v)) => position_start(tags, no, v, board, resolution)?,
        None => standard_start(board, resolution)?,
    };
    let Some((result_line, result_text)) = tag(tags, "Result") else {
        return fail(line_count.max(1), RecordErrorKind::MissingResult);
    };
    let Some(result_winner) = parse_result_token(result_text) else {
        return bad_value(
            result_line,
            "Result",
            format!("{result_text:?} is not 1-0, 0-1, 1/2-1/2 or *"),
        );
    };
    let termination = read_termination(tags)?;
    let others = tags
        .iter()
        .filter(|(_, n, _)| !STRUCTURAL.contains(&n.as_str()))
        .map(|(_, n, v)| (n.clone(), v.clone()))
        .collect();
    Ok(Header {
        start,
        frame,
        result_line,
        result_text: result_text.to_string(),
        result_winner,
        termination,
        others,
    })
}

/// A whole-number tag (`Board`, `Resolution`) and its line; `default` and line 1 if absent.
fn tag_number(tags: &[Tag], name: &str, default: u32) -> Result<(usize, u32), RecordError> {
    match tag(tags, name) {
        None => Ok((1, default)),
        Some((no, v)) => match v.parse::<u32>() {
            Ok(n) => Ok((no, n)),
            Err(_) => bad_value(no, name, format!("{v:?} is not a whole number")),
        },
    }
}

/// The `Frame` tag's frame; per-player if absent.
fn read_frame(tags: &[Tag]) -> Result<Frame, RecordError> {
    match tag(tags, "Frame") {
        None => Ok(Frame::PerPlayer),
        Some((no, v)) => match Frame::from_name(v) {
            Some(f) => Ok(f),
            None => bad_value(
                no,
                "Frame",
                format!("{v:?} is neither \"per-player\" nor \"absolute\""),
            ),
        },
    }
}

/// The start given by the `Position` tag `v` (on line `no`), which the `Board` and
/// `Resolution` tags, where given, must agree with (each as its line and value).
fn position_start(
    tags: &[Tag],
    no: usize,
    v: &str,
    (board_line, board): (usize, u32),
    (res_line, resolution): (usize, u32),
) -> Result<Crumble, RecordError> {
    let game = position::from_json(v).map_err(|e| RecordError {
        line: no,
        kind: RecordErrorKind::Position(e),
    })?;
    let b = game.board();
    if tag(tags, "Board").is_some() && u32::from(b.board_size()) != board {
        return bad_value(
            board_line,
            "Board",
            format!(
                "{board} disagrees with the Position's board {}",
                b.board_size()
            ),
        );
    }
    if tag(tags, "Resolution").is_some() && u32::from(b.resolution()) != resolution {
        return bad_value(
            res_line,
            "Resolution",
            format!(
                "{resolution} disagrees with the Position's resolution {}",
                b.resolution()
            ),
        );
    }
    Ok(game)
}

/// The standard start of the board the `Board` and `Resolution` tags give (each as its
/// line and value): the error names the tag at fault.
fn standard_start(
    (board_line, board): (usize, u32),
    (res_line, resolution): (usize, u32),
) -> Result<Crumble, RecordError> {
    if let Err(e) = crate::games::crumble::board::check_size(board, resolution) {
        let (no, tag) = if matches!(e, super::SizeError::Resolution(_)) {
            (res_line, "Resolution")
        } else {
            (board_line, "Board")
        };
        return bad_value(no, tag, e.to_string());
    }
    Ok(Crumble::new(board as u16, resolution as u16).expect("size checked"))
}

/// The `Termination` tag's reason and line, if given.
fn read_termination(tags: &[Tag]) -> Result<Option<(usize, Reason)>, RecordError> {
    let Some((no, v)) = tag(tags, "Termination") else {
        return Ok(None);
    };
    match Reason::from_name(v) {
        Some(r) => Ok(Some((no, r))),
        None => {
            let names: Vec<&str> = Reason::ALL.iter().map(|r| r.name()).collect();
            bad_value(
                no,
                "Termination",
                format!("{v:?} is not one of {}", names.join(", ")),
            )
        }
    }
}

/// A token of the movetext: a word, or a comment's text.
#[derive(Debug)]
enum Token {
    Word(String),
    Comment(String),
}

/// The movetext's tokens: words split at whitespace, and `{...}` comments (which may span
/// lines, a line break reading as a space), each with the line it starts on.
fn tokenize(lines: &[(usize, &str)]) -> Result<Vec<(usize, Token)>, RecordError> {
    let mut out = Vec::new();
    let mut comment: Option<(usize, String)> = None;
    for &(no, line) in lines {
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut Vec<(usize, Token)>| {
            if !word.is_empty() {
                out.push((no, Token::Word(std::mem::take(word))));
            }
        };
        for c in line.chars() {
            if let Some((_, text)) = comment.as_mut() {
                if c == '}' {
                    let (at, text) = comment.take().unwrap();
                    out.push((at, Token::Comment(text.trim().to_string())));
                } else {
                    text.push(c);
                }
                continue;
            }
            match c {
                '{' => {
                    flush(&mut word, &mut out);
                    comment = Some((no, String::new()));
                }
                '}' => return fail(no, RecordErrorKind::StrayBrace),
                c if c.is_whitespace() => flush(&mut word, &mut out),
                c => word.push(c),
            }
        }
        flush(&mut word, &mut out);
        if let Some((_, text)) = comment.as_mut() {
            text.push(' ');
        }
    }
    if let Some((at, _)) = comment {
        return fail(at, RecordErrorKind::UnclosedComment);
    }
    Ok(out)
}

/// The movetext: comments, move numbers and moves, played from `start` as they are read,
/// and at most one result token, after which only comments may follow.
fn read_movetext(
    start: &Crumble,
    frame: Frame,
    tokens: Vec<(usize, Token)>,
) -> Result<Movetext, RecordError> {
    let first = start.to_move();
    let mut body = Movetext {
        game: start.clone(),
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
            return fail(
                no,
                RecordErrorKind::AfterEnd(format!("{word} (after the result {t})")),
            );
        }
        if parse_result_token(&word).is_some() {
            body.end_token = Some((no, word));
            continue;
        }
        let number = move_number(body.moves.len(), first);
        let Some(text) = strip_move_number(&word, &number, no)? else {
            continue;
        };
        let mv = read_move(&mut body.game, frame, text, &number, no)?;
        body.moves.push(mv);
        body.comments.push(None);
    }
    Ok(body)
}

impl Movetext {
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

/// The move number of the move `index` (0-based) of a game whose first mover is `first`,
/// as written: `12.` for Black, `12...` for White.
fn move_number(index: usize, first: Color) -> String {
    let (num, who) = number_of(index, first);
    if who == Color::Black {
        format!("{num}.")
    } else {
        format!("{num}...")
    }
}

/// A move number at the start of `word` (`12.`, `12...`, or glued to the move: `12.1HN`),
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
        return fail(
            no,
            RecordErrorKind::MoveNumber {
                found: found.to_string(),
                expected: expected.to_string(),
            },
        );
    }
    let rest = &word[digits + dots..];
    Ok((!rest.is_empty()).then_some(rest))
}

/// One move, in the record's frame, played on `game`; `number` is its move number as
/// written, for messages.
fn read_move(
    game: &mut Crumble,
    frame: Frame,
    text: &str,
    number: &str,
    no: usize,
) -> Result<Move, RecordError> {
    if game.is_over() {
        return fail(
            no,
            RecordErrorKind::AfterEnd(format!("move {number} {text}")),
        );
    }
    let refuse = |why: String| RecordError {
        line: no,
        kind: RecordErrorKind::Move {
            number: number.to_string(),
            text: text.to_string(),
            why,
        },
    };
    let mv = notation::parse_move(game, text, frame).map_err(|e| refuse(e.to_string()))?;
    game.play_move(&mv).map_err(|e| refuse(e.to_string()))?;
    Ok(mv)
}

/// The result tag or token disagrees with the game.
fn bad_result<T>(line: usize, why: String) -> Result<T, RecordError> {
    fail(line, RecordErrorKind::Result(why))
}

/// The record's result, once the result token, the tags and the game agree: the game's
/// own end, or one that the moves do not reach (resignation, agreement, turn limit).
fn read_result(head: &Header, body: &Movetext) -> Result<Option<Outcome>, RecordError> {
    let result_text = &head.result_text;
    if let Some((no, t)) = &body.end_token
        && t != result_text
    {
        return bad_result(
            *no,
            format!("the result token {t} disagrees with [Result \"{result_text}\"]"),
        );
    }
    match (body.game.outcome(), head.result_winner) {
        (Some(o), Some(w)) => ended_as_tagged(head, o, w).map(Some),
        (Some(o), None) => bad_result(
            head.result_line,
            format!(
                "[Result \"*\"], but the game ended ({})",
                position::outcome_text(Some(o))
            ),
        ),
        (None, None) => {
            if let Some((no, r)) = head.termination {
                return bad_value(
                    no,
                    "Termination",
                    format!("{:?} with the result *", r.name()),
                );
            }
            Ok(None)
        }
        (None, Some(w)) => ended_off_the_board(head, w).map(Some),
    }
}

/// The moves ended the game with `o`: the `Result` tag (winner `w`) and the `Termination`
/// tag, if given, must say the same.
fn ended_as_tagged(head: &Header, o: Outcome, w: Option<Color>) -> Result<Outcome, RecordError> {
    if o.winner != w {
        return bad_result(
            head.result_line,
            format!(
                "[Result \"{}\"] disagrees with the game, which ended {}",
                head.result_text,
                result_token(Some(o))
            ),
        );
    }
    if let Some((no, r)) = head.termination
        && r != o.reason
    {
        return bad_value(
            no,
            "Termination",
            format!(
                "{:?}, but the game ended by {:?}",
                r.name(),
                o.reason.name()
            ),
        );
    }
    Ok(o)
}

/// The moves leave the game going, but the `Result` tag names winner `w`: only a
/// `Termination` of resignation (a win) or agreement or turn limit (a draw) explains that.
fn ended_off_the_board(head: &Header, w: Option<Color>) -> Result<Outcome, RecordError> {
    let result_text = &head.result_text;
    let Some((no, reason)) = head.termination else {
        return bad_result(
            head.result_line,
            format!(
                "[Result \"{result_text}\"] is not reached by the moves: add a Termination tag (resignation, agreement or turn-limit)"
            ),
        );
    };
    let ok = match reason {
        Reason::Resignation => w.is_some(),
        Reason::Agreement | Reason::TurnLimit => w.is_none(),
        _ => false,
    };
    if !ok {
        let why = if matches!(
            reason,
            Reason::Resignation | Reason::Agreement | Reason::TurnLimit
        ) {
            format!("{:?} does not fit the result {result_text}", reason.name())
        } else {
            format!(
                "{:?} with the result {result_text}, but the moves do not end the game that way",
                reason.name()
            )
        };
        return bad_value(no, "Termination", why);
    }
    Ok(Outcome { winner: w, reason })
}

/// Splits a text holding one or more game records: a record starts at a tag line that follows
/// movetext (braces are tracked so that a comment line starting with `[` does not count).
/// Returns each record with the 1-based line it starts on; blank chunks are left out.
pub fn split_records(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut first = 1;
    let (mut in_moves, mut in_comment) = (false, false);
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if !in_comment && in_moves && t.starts_with('[') {
            if !cur.trim().is_empty() {
                out.push((first, std::mem::take(&mut cur)));
            }
            cur.clear();
            first = i + 1;
            in_moves = false;
        }
        if !in_moves && !t.is_empty() && !t.starts_with('[') {
            in_moves = true;
        }
        if in_moves {
            for c in line.chars() {
                match c {
                    '{' => in_comment = true,
                    '}' => in_comment = false,
                    _ => {}
                }
            }
        }
        if cur.is_empty() && t.is_empty() {
            // Leading blank lines belong to no record; keep line numbers right.
            first = i + 2;
            continue;
        }
        cur.push_str(line);
        cur.push('\n');
    }
    if !cur.trim().is_empty() {
        out.push((first, cur));
    }
    out
}

#[cfg(test)]
mod split_tests {
    use super::split_records;

    #[test]
    fn records_split_at_tags_after_movetext_but_not_inside_comments() {
        let text = "\n[Result \"*\"]\n\n1. 1HN {a comment\n[not a tag]} *\n\n[Result \"1-0\"]\n[Termination \"resignation\"]\n\n1. 1HN 1-0\n";
        let v = split_records(text);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].0, 2);
        assert!(v[0].1.contains("[not a tag]"));
        assert_eq!(v[1].0, 7);
        assert!(v[1].1.starts_with("[Result \"1-0\"]"));
    }
}
