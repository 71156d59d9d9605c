//! The one text record of a whole game, for every game ([`Record`]): PGN-like tags, then the
//! complete moves in the game's notation, numbered, with `{…}` comments.
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
//!   at most once. `Game` (the game's name), the game's board tags
//!   ([`GameText::board_tags`]: Crumble's `Board "6"` and `Resolution "8"`, Splinter's
//!   `Board "WxH"`, Crumo's `Size "N"`), the notation's tag where a game writes moves more
//!   than one way ([`GameText::notation_tag`]: Crumble's `Frame`), `Start` (`standard`, the
//!   default, or the start position as one line of position JSON written bare:
//!   `[Start {"width":9,...}]`), `Result` (required: `1-0` Black won, `0-1` White won,
//!   `1/2-1/2` a draw, `*` unfinished; Black is the colour of the first player unless the
//!   game says otherwise, [`GameText::colour_of`]) and `Termination`. Every other tag
//!   (`Index`, `Black`, `White`, `Date`, `TurnLimit`, ...) is kept in order. Tags a game
//!   wrote before this record are read as their new names ([`GameText::upgrade_tags`]).
//! * **`Termination`** is the game's name of how its rules ended it
//!   ([`GameText::END_REASONS`]), or `resignation`, `agreement` or `turn-limit` for an end
//!   the moves do not reach. It may be left out when the moves end the game, and must agree
//!   if given; a result the moves do not reach needs it, and the result must fit it (a
//!   resignation has a winner, an agreement is a draw, a turn limit scores the final
//!   position as the game does, [`GameState::turn_limit_result`]).
//! * **Moves** after the tags, in the game's notation, each preceded by its number: the
//!   turn's (`1. e5 2. d4`), or for a game numbered by rounds ([`GameText::NUMBER_BY_ROUND`],
//!   Crumble) the round's, written before Black's move, and `2...` before White's move when
//!   it starts the movetext or follows a comment (`1. 1HN 5,5HSWS {a reply} 2... 3H`).
//!   Numbers are checked when present, may touch the move (`1.1HN`) and may be left out.
//!   Comments `{...}` (no nesting, may span lines) belong to the move before them, or to the
//!   game before the first move. The movetext may end with the result token, which must
//!   agree with `Result`; only comments may follow it.
//!
//! [`Record::parse`] replays every move through the game and refuses a malformed record with
//! its line and the reason ([`RecordError`]); [`Record::write`] then [`Record::parse`] gives
//! the same record.

use super::color::Color;
use super::decision::Decision;
use super::state::{GameResult, GameState, Player};
use super::text::{GameText, TextError};
use lex::{comment_text, escape};
use std::fmt::Write as _;
use thiserror::Error;

mod lex;
mod read;

pub use lex::split_records;

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

    /// The `Termination` of an end the moves do not reach (every game's reason of that name).
    pub fn name(self) -> Option<&'static str> {
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
    /// How the moves are written (Crumble's frame).
    pub notation: G::Notation,
    /// Tags other than `Game`, the board and notation tags, `Start`, `Result` and
    /// `Termination`, in order.
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
    /// A tag line that is not `[Name "value"]`.
    #[error("malformed tag: {0}")]
    BadTag(String),
    /// The same tag twice.
    #[error("tag {0} is given twice")]
    DuplicateTag(String),
    /// A structural tag with a value it cannot have.
    #[error("tag {tag}: {why}")]
    BadTagValue { tag: String, why: String },
    /// A tag the record needs is not there.
    #[error("the record has no {0} tag")]
    MissingTag(&'static str),
    /// The start position does not load.
    #[error("tag {tag}: {source}")]
    Start {
        tag: String,
        #[source]
        source: TextError,
    },
    /// A `{` without its `}`.
    #[error("comment opened here is never closed")]
    UnclosedComment,
    /// A `}` with no `{` before it.
    #[error("'}}' without a comment opened before it")]
    StrayBrace,
    /// A move number that does not fit the game.
    #[error("move number {found:?}: expected {expected:?}")]
    MoveNumber { found: String, expected: String },
    /// A move that cannot be read or played (`number`: its number as written, `2...`).
    #[error("move {number} ({text:?}) refused: {source}")]
    Move {
        number: String,
        text: String,
        #[source]
        source: TextError,
    },
    /// Moves after the game ended (by the rules, or after the result token).
    #[error("{0:?} comes after the end of the game")]
    AfterEnd(String),
    /// The result token or the tags disagree with the game.
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
            notation: G::Notation::default(),
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

    /// The moves in the record's notation, each from the position before it.
    pub fn move_texts(&self) -> Result<Vec<String>, TextError> {
        let mut game = self.start.clone();
        let mut out = Vec::with_capacity(self.moves.len());
        for turn in &self.moves {
            out.push(game.move_text(turn, self.notation)?);
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

    /// The record as text (see the module documentation), its movetext wrapped at 80
    /// columns.
    pub fn write(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "[Game \"{}\"]", G::NAME);
        for (n, v) in self.start.board_tags() {
            let _ = writeln!(s, "[{n} \"{}\"]", escape(&v));
        }
        if let Some((n, v)) = G::notation_tag(self.notation) {
            let _ = writeln!(s, "[{n} \"{v}\"]");
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
        let mut words: Vec<String> = Vec::new();
        if let Some(c) = &self.intro {
            words.push(comment_text(c));
        }
        let mut after_comment = true;
        for (i, turn) in self.moves.iter().enumerate() {
            let number = self.number(i);
            if after_comment || !number.ends_with("...") {
                words.push(number);
            }
            // A record holds legal moves (push_move's contract, parse checks them).
            words.push(
                game.move_text(turn, self.notation)
                    .unwrap_or_else(|_| "??".into()),
            );
            after_comment = false;
            if let Some(c) = self.comment(i) {
                words.push(comment_text(c));
                after_comment = true;
            }
            for &d in turn {
                let _ = game.apply(d);
            }
        }
        let token = self.result_token(&game);
        words.push(token.into());
        let _ = writeln!(s, "[Result \"{token}\"]");
        if let Some(t) = self.termination(&game) {
            let _ = writeln!(s, "[Termination \"{t}\"]");
        }
        s.push('\n');
        // Wrap at 80 columns; a word never breaks.
        let mut line = String::new();
        for w in words {
            if !line.is_empty() && line.len() + 1 + w.len() > 80 {
                s.push_str(&line);
                s.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
        }
        s.push_str(&line);
        s.push('\n');
        s
    }

    /// The number of move `i` (0-based) as written before it: `3.` for the third turn; for a
    /// game numbered by rounds ([`GameText::NUMBER_BY_ROUND`]) `2.` before Black's move of
    /// the second round and `2...` before White's.
    pub fn number(&self, i: usize) -> String {
        number_of(&self.start, i)
    }

    /// Whether the start is the standard start of its board tags.
    pub fn is_standard_start(&self) -> bool {
        let tags = self.start.board_tags();
        let pairs: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (*n, v.as_str())).collect();
        G::standard_start_of(&pairs).is_ok_and(|s| s == self.start)
    }
}

/// The number of move `i` of a game from `start` ([`Record::number`]).
fn number_of<G: GameText>(start: &G, i: usize) -> String {
    if !G::NUMBER_BY_ROUND {
        return format!("{}.", i + 1);
    }
    let white_first = start
        .decider()
        .is_some_and(|p| start.colour_of(p) == Color::White);
    let ply = i + usize::from(white_first);
    let dots = if ply.is_multiple_of(2) { "." } else { "..." };
    format!("{}{dots}", ply / 2 + 1)
}

/// The game a text record names in its `Game` tag (the first record of `text`); `None` when
/// it names none, as Crumble's records before the generic record did (their `Game`, when a
/// number, numbered the game in its run).
pub fn game_named(text: &str) -> Option<String> {
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if !t.starts_with('[') {
            break;
        }
        if let Ok((name, value)) = lex::parse_tag(t, i + 1)
            && name == "Game"
        {
            return value.parse::<u64>().is_err().then_some(value);
        }
    }
    None
}

/// A tag as read: its line, name and value.
pub type TagLine = (usize, String, String);

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
