//! The one text record of a whole game, for every game ([`Record`]): PGN-like tags, then the
//! complete moves in the game's notation, numbered by turn, with `{…}` comments.
//!
//! ```text
//! [Game "splinter"]
//! [Board "9x10"]
//! [Black "mcts:rollout:200"]
//! [White "random"]
//! [Start "standard"]
//! [Result "1-0"]
//! [Termination "knockouts"]
//!
//! 1. f6-f7 2. e3-e2 {value -0.20} 3. d5-d6/c4 ... 1-0
//! ```
//!
//! * **Tags**, one per line, `[Name "value"]` (`\"` and `\\` escape inside the value), each
//!   at most once. `Game` (required: the game's name), the game's board tags
//!   ([`GameText::board_tags`]: Splinter's `Board "WxH"`, Crumo's `Size "N"`), `Start`
//!   (`standard`, the default, or the start position as one line of position JSON written
//!   bare: `[Start {"width":9,...}]`), `Result` (required: `1-0` Black won, `0-1` White won,
//!   `1/2-1/2` a draw, `*` unfinished; Black is the colour of the first player unless the
//!   game says otherwise, [`GameText::colour_of`]) and `Termination`. Every other tag
//!   (`Index`, `Black`, `White`, `Date`, `TurnLimit`, ...) is kept in order.
//! * **`Termination`** is the game's name of how its rules ended it
//!   ([`GameText::end_reason`]), or `resignation`, `agreement` or `turn-limit` for an end the
//!   moves do not reach. It may be left out when the moves end the game, and must agree if
//!   given; a result the moves do not reach needs it, and the result must fit it (a
//!   resignation has a winner, an agreement is a draw, a turn limit scores the final position
//!   as the game does, [`GameState::turn_limit_result`]).
//! * **Moves** after the tags, in the game's notation, each optionally preceded by its turn
//!   number (`1.`, counted from the record's start; checked when present). Comments `{...}`
//!   (no nesting, may span lines) belong to the move before them, or to the game before the
//!   first move. The movetext may end with the result token, which must agree with `Result`.
//!
//! [`Record::parse`] replays every move through the game and refuses a malformed record with
//! its line ([`RecordError`]); [`Record::write`] then [`Record::parse`] gives the same record.

use super::color::Color;
use super::decision::Decision;
use super::state::{GameResult, GameState, Player};
use super::text::{GameText, TextError};
use lex::{Token, comment_text, escape, parse_tag, tokens};
use std::fmt::Write as _;
use thiserror::Error;

mod lex;

/// How a recorded game ended, when it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The moves end the game by its rules.
    Rules,
    /// The other colour resigned.
    Resignation { winner: Color },
    /// The players agreed on a draw (also a game stopped unfinished by a match).
    Agreement,
    /// The turn limit of the match: the game's own turn-limit result.
    TurnLimit,
}

impl Ending {
    /// How `game` (a final state) ended: by the rules, or by a resignation, an agreement or
    /// a turn limit its state holds (its [`GameText::end_reason`] names them); `None` while
    /// it goes on.
    pub fn of<G: GameText>(game: &G) -> Option<Ending> {
        let result = game.game_result()?;
        Some(match game.end_reason() {
            Some("resignation") => Ending::Resignation {
                winner: result.winner().map_or(Color::Black, |p| game.colour_of(p)),
            },
            Some("agreement") => Ending::Agreement,
            Some("turn-limit") => Ending::TurnLimit,
            _ => Ending::Rules,
        })
    }

    /// The `Termination` of an end the moves do not reach.
    fn name(self) -> Option<&'static str> {
        match self {
            Ending::Rules => None,
            Ending::Resignation { .. } => Some("resignation"),
            Ending::Agreement => Some("agreement"),
            Ending::TurnLimit => Some("turn-limit"),
        }
    }
}

/// A whole game: its start, tags, complete moves with their comments, and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Record<G: GameText> {
    /// The start position, with no turn limit (the limit is a setting of the match).
    pub start: G,
    /// Tags other than `Game`, the board tags, `Start`, `Result` and `Termination`, in order.
    pub tags: Vec<(String, String)>,
    /// The complete moves, each one turn's decisions, each legal after the ones before it.
    pub moves: Vec<Vec<Decision>>,
    /// A comment before the first move.
    pub intro: Option<String>,
    /// `comments[i]`: the comment after move `i` (as long as `moves`).
    pub comments: Vec<Option<String>>,
    /// How the game ended: `None` while it goes on (`*`).
    pub end: Option<Ending>,
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
    Start(TextError),
    #[error("move {number} is numbered {found}")]
    MoveNumber { number: usize, found: String },
    #[error("move {number} ({text}) refused: {source}")]
    Move {
        number: usize,
        text: String,
        #[source]
        source: TextError,
    },
    #[error("a comment is not closed")]
    OpenComment,
    #[error("{0}")]
    Result(String),
}

/// Why a record's board tags name no start ([`GameText::standard_start_of`]).
#[derive(Debug, Error)]
pub enum BoardTagError {
    #[error("the record has no {0} tag")]
    Missing(&'static str),
    #[error("tag {tag}: {why}")]
    Bad { tag: &'static str, why: String },
}

fn fail<T>(line: usize, kind: RecordErrorKind) -> Result<T, RecordError> {
    Err(RecordError { line, kind })
}

/// The result token of a winner: `1-0` Black, `0-1` White, `1/2-1/2` a draw.
pub fn result_token(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::Black) => "1-0",
        Some(Color::White) => "0-1",
        None => "1/2-1/2",
    }
}

/// The result a token names: `Some(Some(winner))` an end, `Some(None)` unfinished (`*`).
fn parse_result_token(t: &str) -> Option<Option<Option<Color>>> {
    match t {
        "1-0" => Some(Some(Some(Color::Black))),
        "0-1" => Some(Some(Some(Color::White))),
        "1/2-1/2" => Some(Some(None)),
        "*" => Some(None),
        _ => None,
    }
}

/// The colour a game result names in `game` (the state it ended in).
fn winner_colour<G: GameText>(game: &G, r: GameResult) -> Option<Color> {
    r.winner().map(|p| game.colour_of(p))
}

impl<G: GameText> Record<G> {
    /// A record of no moves from `start` (its turn limit dropped), unfinished.
    pub fn new(mut start: G) -> Record<G> {
        start.set_turn_limit(0);
        Record {
            start,
            tags: Vec::new(),
            moves: Vec::new(),
            intro: None,
            comments: Vec::new(),
            end: None,
        }
    }

    /// A tag's value (not the structural ones).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing its value if present.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Appends a complete move (legal after the moves so far: the caller's contract) with an
    /// optional comment.
    pub fn push_move(&mut self, turn: Vec<Decision>, comment: Option<String>) {
        self.moves.push(turn);
        self.comments.push(comment);
    }

    /// The comment after move `i`.
    pub fn comment(&self, i: usize) -> Option<&str> {
        self.comments.get(i).and_then(|c| c.as_deref())
    }

    /// Every position of the game: the start, then the position after each move. A move
    /// that is not legal (a record built against `push_move`'s contract) is an error.
    pub fn positions(&self) -> Result<Vec<G>, TextError> {
        let mut game = self.start.clone();
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(game.clone());
        for (i, turn) in self.moves.iter().enumerate() {
            for &d in turn {
                game.apply(d).map_err(|e| {
                    TextError::Internal(format!("move {} of the record: {e}", i + 1))
                })?;
            }
            out.push(game.clone());
        }
        Ok(out)
    }

    /// Every position of the game as [`positions`](Record::positions) gives them, the last
    /// one ended as the record says when the moves do not end it (a resignation, a turn
    /// limit: [`GameText::end_as`]), so that its pictures and status lines show the result.
    pub fn ended_positions(&self) -> Result<Vec<G>, TextError> {
        let mut out = self.positions()?;
        let last = out.last_mut().expect("the start is a position");
        if let Some(end) = self.end.filter(|e| *e != Ending::Rules)
            && !last.is_over()
        {
            let winner = self.winner(last).flatten();
            last.end_as(end, winner);
        }
        Ok(out)
    }

    /// The position after the last move.
    pub fn final_position(&self) -> Result<G, TextError> {
        Ok(self.positions()?.pop().expect("the start is a position"))
    }

    /// The moves in the game's notation, each from the position before it.
    pub fn move_texts(&self) -> Result<Vec<String>, TextError> {
        let mut game = self.start.clone();
        let mut out = Vec::with_capacity(self.moves.len());
        for turn in &self.moves {
            out.push(game.move_text(turn, G::Notation::default())?);
            for &d in turn {
                game.apply(d).map_err(TextError::of_move)?;
            }
        }
        Ok(out)
    }

    /// The winner by colour once the game has ended (`Some(None)` a draw), `None` while it
    /// goes on; `last` is the final position.
    pub fn winner(&self, last: &G) -> Option<Option<Color>> {
        match self.end? {
            Ending::Rules => last.game_result().map(|r| winner_colour(last, r)),
            Ending::Resignation { winner } => Some(Some(winner)),
            Ending::Agreement => Some(None),
            Ending::TurnLimit => Some(winner_colour(last, last.turn_limit_result())),
        }
    }

    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`) with the final position `last`.
    pub fn result_token(&self, last: &G) -> &'static str {
        self.winner(last).map_or("*", result_token)
    }

    /// The `Termination` tag's value with the final position `last`.
    pub fn termination(&self, last: &G) -> Option<&'static str> {
        match self.end? {
            Ending::Rules => last.end_reason(),
            e => e.name(),
        }
    }

    /// The record as text (see the module documentation).
    pub fn write(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "[Game \"{}\"]", G::NAME);
        for (n, v) in self.start.board_tags() {
            let _ = writeln!(s, "[{n} \"{}\"]", escape(&v));
        }
        for (n, v) in &self.tags {
            let _ = writeln!(s, "[{n} \"{}\"]", escape(v));
        }
        if self.is_standard_start() {
            s.push_str("[Start \"standard\"]\n");
        } else {
            // One line, whatever the game's JSON layout (JSON strings hold no raw newline).
            let json = self.start.position_json();
            let line: String = json.lines().map(str::trim).collect();
            let _ = writeln!(s, "[Start {line}]");
        }
        let mut game = self.start.clone();
        let mut line = String::new();
        let mut movetext = String::new();
        let mut push = |token: &str| {
            if !line.is_empty() && line.len() + 1 + token.len() > 79 {
                movetext.push_str(&line);
                movetext.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(token);
        };
        if let Some(c) = &self.intro {
            push(&comment_text(c));
        }
        for (i, turn) in self.moves.iter().enumerate() {
            push(&format!("{}.", i + 1));
            // A record holds legal moves (push_move's contract, parse checks them).
            let text = game
                .move_text(turn, G::Notation::default())
                .unwrap_or_else(|e| format!("{{{e}}}"));
            push(&text);
            if let Some(c) = self.comment(i) {
                push(&comment_text(c));
            }
            for &d in turn {
                let _ = game.apply(d);
            }
        }
        let token = self.result_token(&game);
        push(token);
        let _ = writeln!(s, "[Result \"{token}\"]");
        if let Some(t) = self.termination(&game) {
            let _ = writeln!(s, "[Termination \"{t}\"]");
        }
        s.push('\n');
        s.push_str(&movetext);
        s.push_str(&line);
        s.push('\n');
        s
    }

    /// Whether the start is the standard start of its board tags.
    pub fn is_standard_start(&self) -> bool {
        let tags = self.start.board_tags();
        let pairs: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (*n, v.as_str())).collect();
        G::standard_start_of(&pairs).is_ok_and(|s| s == self.start)
    }

    /// Reads a record (see the module documentation), replaying its moves.
    pub fn parse(text: &str) -> Result<Record<G>, RecordError> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).peekable();
        let mut tags: Vec<(usize, String, String)> = Vec::new();
        while let Some(&(no, line)) = lines.peek() {
            let t = line.trim();
            if t.is_empty() && tags.is_empty() {
                lines.next();
                continue;
            }
            if !t.starts_with('[') {
                break;
            }
            let (name, value) = parse_tag(t).ok_or_else(|| RecordError {
                line: no,
                kind: RecordErrorKind::BadTag(t.to_string()),
            })?;
            if tags.iter().any(|(_, n, _)| *n == name) {
                return fail(no, RecordErrorKind::DuplicateTag(name));
            }
            tags.push((no, name, value));
            lines.next();
        }
        let tag = |name: &str| tags.iter().find(|(_, n, _)| n == name);
        let header_end = tags.last().map_or(1, |t| t.0);
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
        if game != G::NAME {
            return Err(bad(*no, "Game", format!("{game:?} is not \"{}\"", G::NAME)));
        }
        let value = |name: &str| tag(name).map(|(_, _, v)| v.as_str());
        let pairs: Vec<(&str, &str)> = tags
            .iter()
            .map(|(_, n, v)| (n.as_str(), v.as_str()))
            .collect();
        let line_of = |name: &str| tag(name).map_or(header_end, |t| t.0);
        let start = match tag("Start") {
            Some((no, _, v)) if v != "standard" => {
                let g = G::from_position_json(v).map_err(|e| RecordError {
                    line: *no,
                    kind: RecordErrorKind::Start(e),
                })?;
                // The board tags must say the board the position has.
                for (n, v) in g.board_tags() {
                    if let Some(given) = value(n)
                        && given != v
                    {
                        return Err(bad(
                            *no,
                            "Start",
                            format!("the start position is {v}, but the {n} tag says {given}"),
                        ));
                    }
                }
                g
            }
            _ => G::standard_start_of(&pairs).map_err(|e| match e {
                BoardTagError::Missing(n) => missing(n),
                BoardTagError::Bad { tag, why } => bad(line_of(tag), tag, why),
            })?,
        };
        let board_tags: Vec<&str> = start.board_tags().iter().map(|(n, _)| *n).collect();
        let (result_no, _, result_text) = tag("Result").ok_or_else(|| missing("Result"))?;
        let stated = parse_result_token(result_text).ok_or_else(|| {
            bad(
                *result_no,
                "Result",
                format!("{result_text:?} is not a result"),
            )
        })?;
        let termination = tag("Termination").map(|(_, _, v)| v.as_str());

        let mut rec = Record::new(start);
        rec.tags = tags
            .iter()
            .filter(|(_, n, _)| {
                !["Game", "Start", "Result", "Termination"].contains(&n.as_str())
                    && !board_tags.contains(&n.as_str())
            })
            .map(|(_, n, v)| (n.clone(), v.clone()))
            .collect();
        let rest_first = lines.peek().map_or(1, |&(no, _)| no);
        let rest: Vec<&str> = lines.map(|(_, l)| l).collect();
        let mut game = rec.start.clone();
        let mut final_token: Option<(usize, &str)> = None;
        let rest = rest.join("\n");
        for (no, tok) in tokens(&rest, rest_first)? {
            let word = match tok {
                Token::Comment(c) => {
                    let slot = match rec.comments.last_mut() {
                        Some(slot) => slot,
                        None => &mut rec.intro,
                    };
                    match slot {
                        Some(prev) => {
                            prev.push(' ');
                            prev.push_str(&c);
                        }
                        None => *slot = Some(c),
                    }
                    continue;
                }
                Token::Word(w) => w,
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
            let turn = game
                .parse_move(word, G::Notation::default())
                .map_err(refused)?;
            for &d in &turn {
                game.apply(d).map_err(|e| refused(TextError::of_move(e)))?;
            }
            rec.push_move(turn, None);
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
        rec.end = ending(&game, stated, termination).map_err(|why| RecordError {
            line: *result_no,
            kind: RecordErrorKind::Result(why.replace("{result}", result_text)),
        })?;
        Ok(rec)
    }
}

/// How a game that reached `game` ended, from the stated result and termination; the
/// message's `{result}` stands for the Result tag's text.
fn ending<G: GameText>(
    game: &G,
    stated: Option<Option<Color>>,
    termination: Option<&str>,
) -> Result<Option<Ending>, String> {
    if let Some(r) = game.game_result() {
        let winner = winner_colour(game, r);
        let reason = game.end_reason();
        if stated == Some(winner) && termination.is_none_or(|t| Some(t) == reason) {
            return Ok(Some(Ending::Rules));
        }
        return Err(format!(
            "the moves end the game as {}{}, but the record says {{result}}{}",
            result_token(winner),
            reason.map_or(String::new(), |r| format!(" ({r})")),
            termination.map_or(String::new(), |t| format!(" ({t})"))
        ));
    }
    let Some(winner) = stated else {
        return match termination {
            None => Ok(None),
            Some(_) => Err("an unfinished game (*) has no Termination".into()),
        };
    };
    let t = termination.ok_or(
        "the moves do not end the game: {result} needs a Termination (resignation, agreement or turn-limit)",
    )?;
    let end = match (t, winner) {
        ("resignation", Some(winner)) => Some(Ending::Resignation { winner }),
        ("agreement", None) => Some(Ending::Agreement),
        ("turn-limit", w) if w == winner_colour(game, game.turn_limit_result()) => {
            Some(Ending::TurnLimit)
        }
        _ => None,
    };
    end.map(Some)
        .ok_or_else(|| format!("{{result}} ({t}) is not reached by the moves"))
}

/// The value of tag `name` among `tags`.
pub fn tag_value<'t>(tags: &[(&str, &'t str)], name: &str) -> Option<&'t str> {
    tags.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// The colour of the first player unless a game says otherwise: Black.
pub(crate) fn default_colour(p: Player) -> Color {
    match p {
        Player::First => Color::Black,
        Player::Second => Color::White,
    }
}

/// The standard start, for a game whose records name no board: `Start::default()`.
pub(crate) fn default_standard_start<G: GameState>() -> Result<G, BoardTagError> {
    G::from_start(&G::Start::default()).map_err(|e| BoardTagError::Bad {
        tag: "Start",
        why: e.to_string(),
    })
}
