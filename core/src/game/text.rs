//! The text layer every game implements beside its rules ([`GameText`]): complete moves in
//! the game's notation and their decisions, the legal moves as text, positions as JSON, and
//! results. Programs (`replay`, `moves`, `random-game`, records) are written once against it;
//! [`check_text`] holds every game to the same round trips on random games.

use super::color::Color;
use super::decision::Decision;
use super::record::{self, BoardTagError, Ending, Record, TagLine};
use super::state::{GameState, Player};
use rand::Rng;
use std::error::Error;
use std::fmt;

/// Why a game's text was refused: the game's own typed error inside, its message as is.
#[derive(Debug, thiserror::Error)]
pub enum TextError {
    /// A move after the end of the game.
    #[error("the game is over (result {result})")]
    GameOver { result: String },
    /// A move's text is malformed, or the move is not legal here.
    #[error(transparent)]
    Move(Box<dyn Error + Send + Sync>),
    /// A position's JSON is malformed or not a position of the game.
    #[error(transparent)]
    Position(Box<dyn Error + Send + Sync>),
    /// The game could not write what it was given (a bug in the game's text layer).
    #[error("internal error: {0}")]
    Internal(String),
}

impl TextError {
    /// A refused move, with the game's own error inside.
    pub fn of_move(e: impl Error + Send + Sync + 'static) -> TextError {
        TextError::Move(Box::new(e))
    }

    /// A refused position, with the game's own error inside.
    pub fn of_position(e: impl Error + Send + Sync + 'static) -> TextError {
        TextError::Position(Box::new(e))
    }
}

/// An option of a game's standard start ([`GameText::START_OPTIONS`]): a whole-number field
/// of its start specification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartOption {
    /// The field's name, and the option's (`--width`).
    pub name: &'static str,
    /// The value's name in help texts (`W`).
    pub value_name: &'static str,
    /// What it sets, its range and default, for help texts.
    pub help: &'static str,
}

/// A game's text, in the game's own notation and position JSON.
///
/// A *complete move* is everything one player decides in one turn: one or more decisions
/// (a Crumble split and its swap path, a Splinter slide and the group that stays, one
/// tic-tac-toe mark). Its text is the game's notation of it.
pub trait GameText: GameState {
    /// How moves are written beyond the notation itself: Crumble's frame (each player's view
    /// or the absolute one); `()` for a game with one way.
    type Notation: Copy + Default + PartialEq + Eq + fmt::Debug + Send + Sync + 'static;

    /// The turn limit of a random game (`random-game`) when none is given: long enough that
    /// random play almost always ends by the rules. None (`0`) by default, for games whose
    /// every game ends by the rules within a bounded number of turns.
    const RANDOM_GAME_TURNS: u32 = 0;

    /// The names of how the game's rules end a game ([`GameText::end_reason`]), which a
    /// record's `Termination` may give besides `resignation`, `agreement` and `turn-limit`;
    /// none by default.
    const END_REASONS: &'static [&'static str] = &[];

    /// Whether a record numbers its moves by rounds of both colours, PGN's way (`1. e4 e5
    /// 2. Nf3`), rather than one number a turn (the default).
    const NUMBER_BY_ROUND: bool = false;

    /// The game's name for people (`Tic-tac-toe`); by default its [`GameState::NAME`].
    const TITLE: &'static str = Self::NAME;

    /// Small enough for exhaustive search: the `solver` agent, exact values in opening books
    /// (the test games); no by default.
    const SOLVABLE: bool = false;

    /// The options that name a standard start other than the default one (Splinter's
    /// `width` and `height`): each sets the field of its name in the start specification
    /// ([`GameState::Start`]) to a whole number, which [`GameState::from_start`] then checks.
    /// The command line offers each as `--NAME`; none by default.
    const START_OPTIONS: &'static [StartOption] = &[];

    /// The decisions of the complete move written `text`, from this state at a turn start.
    /// A move that cannot be played here (its text is malformed, the move is illegal, the game
    /// is over) is refused with the reason.
    fn parse_move(&self, text: &str, notation: Self::Notation) -> Result<Vec<Decision>, TextError>;

    /// `Err(GameOver)` with the result once the game is over: what a game's
    /// [`GameText::parse_move`] refuses first.
    fn refuse_when_over(&self) -> Result<(), TextError> {
        if self.is_over() {
            return Err(TextError::GameOver {
                result: self.result_text(),
            });
        }
        Ok(())
    }

    /// The canonical text of the complete move made of `turn`: the decisions of one whole
    /// turn from this state, at a turn start. `parse_move` of the text gives `turn` back.
    fn move_text(&self, turn: &[Decision], notation: Self::Notation) -> Result<String, TextError>;

    /// The legal moves as the game lists them (`crumble moves`), one text each, in the
    /// game's order; empty once the game is over. (Crumble lists its splits and joins
    /// without their swap paths, which can be too many to list.)
    fn legal_move_texts(&self, notation: Self::Notation) -> Result<Vec<String>, TextError>;

    /// The position as the game's position JSON (canonical: one position, one text; no
    /// trailing newline). By default the state's start specification ([`GameState::to_start`])
    /// as JSON, which plays on exactly as the state does.
    fn position_json(&self) -> String {
        // A start specification is plain data; failing to write it is a bug in its type.
        serde_json::to_string(&self.to_start()).expect("a start specification writes as JSON")
    }

    /// A state from position JSON, read strictly: an error names the key, piece or cell. By
    /// default a start specification's JSON through [`GameState::from_start`].
    fn from_position_json(text: &str) -> Result<Self, TextError> {
        let start: Self::Start = serde_json::from_str(text).map_err(TextError::of_position)?;
        Self::from_start(&start).map_err(TextError::of_position)
    }

    /// The result as JSON (`null` while the game is live), as `random-game` prints it. By
    /// default `{"winner": "first"}`, `"second"` or `null` for a draw.
    fn result_json(&self) -> serde_json::Value {
        match self.game_result() {
            None => serde_json::Value::Null,
            Some(r) => serde_json::json!({
                "winner": r.winner().map(|p| p.to_string()),
            }),
        }
    }

    /// The board in a few words for a report's header (`9x10 board`, `size 5 (61 points)`);
    /// by default the position JSON.
    fn board_text(&self) -> String {
        self.position_json()
    }

    /// A plain-text drawing of the position for a terminal, for a game without pictures of
    /// its own (`crumble show`); `None` when the game draws its positions elsewhere.
    fn diagram(&self) -> Option<String> {
        None
    }

    /// The result in words for messages ("the game is over (result …)"); by default the
    /// result JSON.
    fn result_text(&self) -> String {
        self.result_json().to_string()
    }

    /// The tags that name the board in a game record ([`Record`]),
    /// written after `Game` (Splinter's `Board "9x10"`); none by default.
    fn board_tags(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    /// The standard start of the board that a record's tags name (`tags`: name and value),
    /// the start of a record whose `Start` is `standard`. By default `Start::default()`.
    fn standard_start_of(tags: &[(&str, &str)]) -> Result<Self, BoardTagError> {
        let _ = tags;
        record::default_standard_start()
    }

    /// The tag that says how a record's moves are written (Crumble's `Frame "absolute"`);
    /// none by default, for a game with one notation.
    fn notation_tag(notation: Self::Notation) -> Option<(&'static str, &'static str)> {
        let _ = notation;
        None
    }

    /// The notation a record's tags name (`tags`: name and value; see
    /// [`GameText::notation_tag`]); by default the one notation.
    fn notation_of(tags: &[(&str, &str)]) -> Result<Self::Notation, BoardTagError> {
        let _ = tags;
        Ok(Self::Notation::default())
    }

    /// Rewrites the tags of a record written before the generic record (Crumble's
    /// `Position`, its run-numbered `Game`) as today's, so that every record ever written
    /// still reads; nothing by default.
    fn upgrade_tags(tags: &mut Vec<TagLine>) {
        let _ = tags;
    }

    /// The colour player `p` plays in this state: records name results and players by colour
    /// (`1-0`: Black won). By default the first player is Black.
    fn colour_of(&self, p: Player) -> Color {
        record::default_colour(p)
    }

    /// The game's name of how its rules ended it (a record's `Termination`), `None` while it
    /// goes on or for a game that names no reasons (the default).
    fn end_reason(&self) -> Option<&'static str> {
        None
    }

    /// How a person writes a move here, for `play`'s help: a few lines. By default: as
    /// `moves` lists them.
    fn notation_help(&self) -> String {
        "Moves are written as `moves` lists them.\n".into()
    }

    /// More to say when `text` was refused as a move here (`e`: why), such as the choices
    /// of a move named in part; nothing by default.
    fn refusal_hint(&self, text: &str, e: &TextError) -> Option<String> {
        let _ = (text, e);
        None
    }

    /// Where in a refused move's text the fault lies (characters, end exclusive), so that
    /// `play` can point at it; unknown by default.
    fn refusal_span(e: &TextError) -> Option<(usize, usize)> {
        let _ = e;
        None
    }

    /// The line under `play`'s list of the legal moves `texts` (as `legal_move_texts`
    /// wrote them): their count, and how to go beyond the list where a game lists only part
    /// of each move.
    fn moves_summary(&self, texts: &[String]) -> String {
        format!("{} moves", texts.len())
    }

    /// Whose side of the board a person writing moves in `notation` as `writer` sees at the
    /// bottom, so that the edge coordinates drawn are the ones they write (Crumble's
    /// per-player frame turns the board for White); Black's by default.
    fn view_for(notation: Self::Notation, writer: Color) -> Color {
        let _ = (notation, writer);
        Color::Black
    }

    /// What a person playing seat `p` from this position should know (Crumo's second seat
    /// may swap); nothing by default.
    fn seat_note(&self, p: Player) -> Option<&'static str> {
        let _ = p;
        None
    }

    /// The plain words that are moves in the game's notation (Crumo's `pass` and `swap`), so
    /// that `play` does not take them for mistyped commands; none by default.
    fn move_words(&self) -> &'static [&'static str] {
        &[]
    }

    /// A move beyond the board's that a person may type now, for the prompt (Crumo's
    /// `swap`); nothing by default.
    fn prompt_note(&self) -> Option<&'static str> {
        None
    }

    /// Ends a live game as a record says when its moves do not (`end` is not
    /// [`Ending::Rules`]; `winner` the result's winner), for a game whose states can hold
    /// such an end (pictures and status lines then show it). By default nothing: the record
    /// alone carries the result.
    fn end_as(&mut self, end: Ending, winner: Option<Color>) {
        let _ = (end, winner);
    }
}

/// Checks the alphabet the games' move notations share: lower-case letters, digits and the
/// game's `extra` punctuation. On the first other character, what is wrong with it (`only`
/// names the whole alphabet), for the game's syntax error.
pub fn check_move_alphabet(
    text: &str,
    extra: &[u8],
    only: &'static str,
) -> Result<(), &'static str> {
    match text
        .bytes()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || extra.contains(c)))
    {
        None => Ok(()),
        Some(c) if c.is_ascii_whitespace() => Err("white space is not allowed"),
        Some(c) if c.is_ascii_uppercase() => Err("upper case is not allowed"),
        Some(_) => Err(only),
    }
}

/// Plays the rest of the game at random from a turn start, returning each turn's text: the
/// one loop behind `random-game` for every game. Stops at the state's turn limit, if any.
pub fn random_move_texts<G: GameText, R: Rng + ?Sized>(
    game: &mut G,
    rng: &mut R,
    notation: G::Notation,
) -> Result<Vec<String>, TextError> {
    let mut path = Vec::new();
    let mut out = Vec::new();
    while game.decider().is_some() {
        let before = game.clone();
        game.play_random_turn_recorded(rng, &mut path);
        out.push(before.move_text(&path, notation)?);
    }
    Ok(out)
}

/// Plays the complete move written `text` on `game`: its decisions through checked apply,
/// so a game whose `parse_move` let an illegal move through is caught here.
pub fn play_move_text<G: GameText>(
    game: &mut G,
    text: &str,
    notation: G::Notation,
) -> Result<(), TextError> {
    let turn = game.parse_move(text, notation)?;
    for d in turn {
        game.apply(d).map_err(|e| {
            TextError::Internal(format!(
                "a decision of the parsed move {text:?} was refused: {e}"
            ))
        })?;
    }
    Ok(())
}

/// A broken rule of the text contract, found by [`check_text`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{game} text check, turn {turn}: {what}")]
pub struct TextViolation {
    pub game: &'static str,
    pub turn: u32,
    pub what: String,
}

/// Checks a game's text layer on `games` random games from `start` (seeded by `rng`): at
/// every live turn start, the position JSON reads back, with the same player to move, as the
/// same text; every
/// listed move parses and prints back to its own text; the random turn's decisions print as a
/// text that parses back to the same decisions; the result JSON is `null` exactly while live.
pub fn check_text<G: GameText, R: Rng + ?Sized>(
    start: &G,
    games: usize,
    notation: G::Notation,
    rng: &mut R,
) -> Result<u32, TextViolation> {
    let mut turns_checked = 0;
    let mut path = Vec::new();
    for _ in 0..games {
        let mut game = start.clone();
        let mut rec = Record::new(start.clone());
        rec.notation = notation;
        let mut turn = 0;
        loop {
            turn += 1;
            let bad = |what: String| TextViolation {
                game: G::NAME,
                turn,
                what,
            };
            let live = game.decider().is_some();
            let json = game.position_json();
            // A game over by the turn limit has a position the rules still play on: only live
            // positions must read back as themselves.
            if live {
                let back = G::from_position_json(&json)
                    .map_err(|e| bad(format!("position JSON {json} does not read back: {e}")))?;
                if back.position_json() != json {
                    return Err(bad(format!(
                        "position JSON is not canonical: {json} reads back as {}",
                        back.position_json()
                    )));
                }
                if back.decider() != game.decider() || back.game_result().is_some() {
                    return Err(bad(format!("position JSON {json} loses who moves")));
                }
            }
            if game.result_json().is_null() != live {
                return Err(bad(format!(
                    "result JSON {} while the game is {}",
                    game.result_json(),
                    if live { "live" } else { "over" }
                )));
            }
            let listed = game
                .legal_move_texts(notation)
                .map_err(|e| bad(format!("listing the legal moves failed: {e}")))?;
            if !live {
                if !listed.is_empty() {
                    return Err(bad(format!("{} moves listed after the end", listed.len())));
                }
                check_record(&rec, &game).map_err(bad)?;
                break;
            }
            if listed.is_empty() {
                return Err(bad("no move listed in a live position".into()));
            }
            for text in &listed {
                let turn_of = game
                    .parse_move(text, notation)
                    .map_err(|e| bad(format!("listed move {text:?} does not parse: {e}")))?;
                let again = game
                    .move_text(&turn_of, notation)
                    .map_err(|e| bad(format!("listed move {text:?} does not print: {e}")))?;
                if &again != text {
                    return Err(bad(format!("listed move {text:?} prints as {again:?}")));
                }
            }
            let before = game.clone();
            game.play_random_turn_recorded(rng, &mut path);
            let text = before
                .move_text(&path, notation)
                .map_err(|e| bad(format!("the random turn {path:?} does not print: {e}")))?;
            let parsed = before
                .parse_move(&text, notation)
                .map_err(|e| bad(format!("{text:?} (the random turn) does not parse: {e}")))?;
            if parsed != path {
                return Err(bad(format!(
                    "{text:?} parses as {parsed:?}, not the random turn {path:?}"
                )));
            }
            rec.push_move(path.clone(), None);
            turns_checked += 1;
        }
    }
    Ok(turns_checked)
}

/// The game record of a finished random game (`end` its final state) writes a text that
/// reads back as the same record, whose replay ends in the same position.
fn check_record<G: GameText>(rec: &Record<G>, end: &G) -> Result<(), String> {
    let mut rec = rec.clone();
    // The record's start has no turn limit: a game the limit ended goes on in the record.
    let mut replayed = rec.final_position().map_err(|e| e.to_string())?;
    if let Some(r) = replayed.end_reason()
        && !G::END_REASONS.contains(&r)
    {
        return Err(format!("its end {r:?} is not among the game's END_REASONS"));
    }
    rec.end = Some(if replayed.is_over() {
        Ending::Rules
    } else {
        Ending::TurnLimit
    });
    let text = rec.write();
    let back =
        Record::<G>::parse(&text).map_err(|e| format!("its record {text:?} is refused: {e}"))?;
    if back != rec {
        return Err(format!("its record {text:?} reads back as another record"));
    }
    replayed.set_turn_limit(end.turn_limit());
    if replayed.position_json() != end.position_json() {
        return Err(format!("its record {text:?} replays to another position"));
    }
    Ok(())
}
