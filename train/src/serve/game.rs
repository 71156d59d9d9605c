//! What the board asks of a game beyond the training pipeline ([`TrainGame`]): its start from
//! the page's form, its moves in notation, its picture with every legal decision placed on
//! it, and its text records. The sessions, the engine and the routes are written once against
//! this trait; Crumble, Splinter and Crumo implement it in their own files.

use super::ServeError;
use crate::games::TrainGame;
use crumble_core::game::record::{Ending, Record};
use crumble_core::render::{PictureStyle, Pictures, parse_value_comment, value_comment};
use crumble_core::{Color, Decision, GameState, GameText};
use crumble_selfplay::record as sp;
use serde_json::{Value, json};

/// The game of untagged records and version-1 self-play files.
const CRUMBLE: &str = <crumble_core::games::crumble::Crumble as GameState>::NAME;

/// A game the board plays.
pub trait ServeGame: TrainGame + Pictures {
    /// The game's drawing and clicking hooks for the page (`assets/NAME.js`, see `app.js`);
    /// none by default: the page draws the picture the server sends and offers every legal
    /// decision as a button.
    const PAGE_SCRIPT: &'static str = "";

    /// The start the page asked for: a position in the game's position JSON, else the
    /// standard start of `board` ([`ServeGame::sized_start`]).
    fn start(board: Option<&str>, position: Option<&str>) -> Result<Self, ServeError> {
        match position {
            Some(text) => {
                Self::from_position_json(text).map_err(|e| ServeError::BadPosition(e.to_string()))
            }
            None => Self::sized_start(board),
        }
    }

    /// The standard start of `board` (the game's size text: `6`, `15x18`, `5`; `None` its
    /// default). By default the game's default start (a game without sizes refuses a
    /// `board`).
    fn sized_start(board: Option<&str>) -> Result<Self, ServeError> {
        if let Some(b) = board.map(str::trim).filter(|b| !b.is_empty()) {
            return Err(ServeError::BadPosition(format!(
                "board `{b}`: {} has one board (leave the size empty, or give a position)",
                Self::NAME
            )));
        }
        Self::from_start(&Self::Start::default())
            .map_err(|e| ServeError::BadPosition(e.to_string()))
    }

    /// The colour that makes the next decision (`None` once the game is over). A seat plays a
    /// colour; in Crumo a swap changes which.
    fn colour_to_move(&self) -> Option<Color> {
        self.decider().map(|p| self.colour_of(p))
    }

    /// The notation of a turn begun with `path` from `start`, as far as it goes (`e4-d3/…`):
    /// the whole move once it is complete, else [`ServeGame::unfinished_text`]; empty for an
    /// empty path.
    fn building_text(start: &Self, path: &[Decision]) -> String {
        if path.is_empty() {
            return String::new();
        }
        complete_move_text(start, path).unwrap_or_else(|| Self::unfinished_text(start, path))
    }

    /// The notation of a turn begun with `path` from `start` that is not yet a whole move. By
    /// default the part that every move the path can still become shares, then `…`.
    fn unfinished_text(start: &Self, path: &[Decision]) -> String {
        shared_move_text(start, path)
    }

    /// What the page draws of `view`: the game's picture and the legal decisions of the
    /// position shown, each with the place it is clicked (see each game's file). By default
    /// the game's picture (its SVG, else its terminal picture as SVG text) and every legal
    /// decision as a button labelled with the move it makes or begins.
    fn board_json(view: &BoardView<'_, Self>) -> Value {
        let picture = Self::board_picture(view);
        let decisions: Vec<Value> = view
            .legal
            .iter()
            .map(|&d| {
                let text = view.text_with(d);
                json!({ "d": d.0, "kind": "decision", "text": text, "button": text })
            })
            .collect();
        json!({ "svg": picture, "decisions": decisions })
    }

    /// The position's picture for the page: its SVG (else its terminal picture as SVG
    /// text) from the person's side, the last move marked.
    fn board_picture(view: &BoardView<'_, Self>) -> String {
        let style = PictureStyle {
            view: view.viewer,
            last_move: view
                .last
                .and_then(|(before, path)| before.move_text(path, Self::Notation::default()).ok()),
            ..PictureStyle::default()
        };
        view.game
            .svg_picture(view.last, &style)
            .unwrap_or_else(|| text_svg(&view.game.term_picture(view.last, &style)))
    }

    /// The line as the game's text record: the start, the moves with the agent's values as
    /// comments, the tags, the result the moves reach. By default the generic
    /// [`Record`](crumble_core::game::record::Record).
    fn write_record(
        start: &Self,
        moves: &[(Vec<Decision>, Option<f32>)],
        tags: &[(String, String)],
    ) -> Result<String, ServeError> {
        let mut rec = Record::new(start.clone());
        rec.tags = tags.to_vec();
        let mut end = start.clone();
        for (path, value) in moves {
            for &d in path {
                end.apply(d)
                    .map_err(|e| ServeError::Internal(format!("a move of the line: {e}")))?;
            }
            rec.push_move(path.clone(), value.map(value_comment));
        }
        rec.end = end.is_over().then_some(Ending::Rules);
        Ok(rec.write())
    }

    /// One text record of the game (one chunk of a file). By default the generic
    /// [`Record`](crumble_core::game::record::Record).
    fn read_record(text: &str) -> Result<Loaded<Self>, ServeError> {
        let rec = Record::<Self>::parse(text).map_err(|e| ServeError::BadRecord(e.to_string()))?;
        Ok(Loaded {
            values: (0..rec.moves.len())
                .map(|i| rec.comment(i).and_then(parse_value_comment))
                .collect(),
            start: rec.start,
            moves: rec.moves,
            tags: rec.tags,
        })
    }

    /// One game of a self-play file.
    fn read_selfplay(rec: &sp::GameRecord) -> Result<Loaded<Self>, ServeError> {
        let mut game: Self = rec
            .start_state()
            .map_err(|e| ServeError::BadRecord(e.to_string()))?;
        let mut moves = Vec::new();
        let mut turn = Vec::new();
        for (i, s) in rec.steps.iter().enumerate() {
            game.apply(s.decision).map_err(|e| {
                ServeError::BadRecord(format!("decision {i} ({}): {e}", s.decision.0))
            })?;
            turn.push(s.decision);
            if game.at_turn_start() || game.is_over() {
                moves.push(std::mem::take(&mut turn));
            }
        }
        let start = rec
            .start_state()
            .map_err(|e| ServeError::BadRecord(e.to_string()))?;
        Ok(Loaded {
            start,
            values: vec![None; moves.len()],
            moves,
            tags: vec![("Index".into(), rec.index.to_string())],
        })
    }
}

/// A game read from a file: its start, each move's decisions, the values its comments gave
/// (the mover's view), its tags.
#[derive(Debug)]
pub struct Loaded<G> {
    pub start: G,
    pub moves: Vec<Vec<Decision>>,
    pub values: Vec<Option<f32>>,
    pub tags: Vec<(String, String)>,
}

/// The position the page shows, with how it was reached.
#[derive(Debug)]
pub struct BoardView<'a, G> {
    /// The turn start the partial turn began at.
    pub start: &'a G,
    /// `start` with the decisions of the turn in progress.
    pub game: &'a G,
    pub partial: &'a [Decision],
    /// The legal decisions of `game`, in the order the prior is given.
    pub legal: &'a [Decision],
    /// The position before the last move and the move's decisions, when the position shown
    /// is a turn start after a move.
    pub last: Option<(&'a G, &'a [Decision])>,
    /// The colour at the bottom of the board (the person's).
    pub viewer: Color,
}

impl<G: ServeGame> BoardView<'_, G> {
    /// The notation of the turn in progress followed by `d`.
    pub fn text_with(&self, d: Decision) -> String {
        let mut path = self.partial.to_vec();
        path.push(d);
        G::building_text(self.start, &path)
    }
}

/// Replays `moves` from `start`, each a whole turn, into the decisions the session keeps.
pub fn check_moves<G: GameState>(start: &G, moves: &[Vec<Decision>]) -> Result<G, ServeError> {
    let mut g = start.clone();
    for (i, path) in moves.iter().enumerate() {
        for &d in path {
            g.apply(d)
                .map_err(|e| ServeError::BadRecord(format!("move {}: {e}", i + 1)))?;
        }
        if !(g.at_turn_start() || g.is_over()) {
            return Err(ServeError::BadRecord(format!(
                "move {} stops in the middle of a turn",
                i + 1
            )));
        }
    }
    Ok(g)
}

/// Reads an uploaded file of game `G`: text records (the file may hold several; `index` picks
/// one, 0-based) or a self-play file (`.crsp`, recognised by its first bytes).
pub fn parse_file<G: ServeGame>(bytes: &[u8], index: usize) -> Result<Loaded<G>, ServeError> {
    let pick = |n: usize| -> Result<usize, ServeError> {
        if index < n {
            Ok(index)
        } else {
            Err(ServeError::BadRecord(format!(
                "game index {index}: the file holds {n} game{}",
                if n == 1 { "" } else { "s" }
            )))
        }
    };
    if bytes.starts_with(&sp::MAGIC) {
        let games = sp::decode_file_checked::<G>(bytes)
            .map_err(|e| ServeError::BadRecord(e.to_string()))?;
        return G::read_selfplay(&games[pick(games.len())?]);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| {
        ServeError::BadRecord("neither a text game record (UTF-8) nor a .crsp file".into())
    })?;
    let chunks = crumble_core::game::record::split_records(text);
    if chunks.is_empty() {
        return Err(ServeError::BadRecord("the file holds no game".into()));
    }
    let (line, chunk) = &chunks[pick(chunks.len())?];
    G::read_record(chunk).map_err(|e| match e {
        // Line numbers of a chunk count from the file's first line.
        ServeError::BadRecord(m) => ServeError::BadRecord(shift_line(&m, line - 1)),
        other => other,
    })
}

/// The game of an uploaded file: a self-play file's first game's, a text record's `Game` tag,
/// else Crumble (whose older records have no such tag).
pub fn file_game(bytes: &[u8]) -> String {
    if bytes.starts_with(&sp::MAGIC) {
        return match sp::decode_file(bytes) {
            Ok(games) if !games.is_empty() => games[0].game.chars().take(40).collect(),
            // The game's own reader says what is wrong.
            _ => CRUMBLE.into(),
        };
    }
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
    crumble_core::game::record::game_named(&text)
        .map_or_else(|| CRUMBLE.into(), |g| g.chars().take(40).collect())
}

/// Moves listed at most when a partial turn's label is worked out.
const MAX_COMPLETIONS: usize = 256;

/// A turn begun with `path` from `start` (a turn start), not yet a whole move, in notation:
/// the text that the moves it can still become share, then `…` (Nim's `2-…` once heap 2 is
/// chosen); `…` alone when they share nothing.
pub fn shared_move_text<G: GameText>(start: &G, path: &[Decision]) -> String {
    let mut after = start.clone();
    if path.iter().any(|&d| after.apply(d).is_err()) {
        return "?".into();
    }
    let mut texts = Vec::new();
    let mut line = path.to_vec();
    completions(start, &mut after, &mut line, &mut texts);
    let Some((first, rest)) = texts.split_first() else {
        return "…".into();
    };
    let mut shared = first.as_str();
    for t in rest {
        let n = shared
            .char_indices()
            .zip(t.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((i, a), _)| i + a.len_utf8());
        shared = &shared[..n];
    }
    format!("{shared}…")
}

/// The texts of the complete moves that `line` (played from `start`, reaching `now`) can
/// become, depth first, [`MAX_COMPLETIONS`] at most.
fn completions<G: GameText>(
    start: &G,
    now: &mut G,
    line: &mut Vec<Decision>,
    out: &mut Vec<String>,
) {
    if out.len() >= MAX_COMPLETIONS {
        return;
    }
    if now.at_turn_start() || now.is_over() {
        if let Ok(t) = start.move_text(line, G::Notation::default()) {
            out.push(t);
        }
        return;
    }
    let mut legal = Vec::new();
    now.legal_decisions_into(&mut legal);
    for d in legal {
        let mut next = now.clone();
        if next.apply(d).is_ok() {
            line.push(d);
            completions(start, &mut next, line, out);
            line.pop();
        }
    }
}

/// A plain-text picture as an SVG of monospaced lines, for a game without SVG pictures.
pub fn text_svg(text: &str) -> String {
    use crumble_core::render::svg::{BACKGROUND, escape};
    let lines: Vec<&str> = text.lines().collect();
    let (char_w, line_h, pad) = (9.6, 20.0, 16.0);
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let (w, h) = (
        2.0 * pad + char_w * widest as f64,
        2.0 * pad + line_h * lines.len() as f64,
    );
    let mut out = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}"><rect width="100%" height="100%" fill="{BACKGROUND}"/><g font-family="monospace" font-size="16" fill="#222">"##
    );
    for (i, l) in lines.iter().enumerate() {
        let y = pad + line_h * (i as f64 + 0.75);
        out += &format!(
            r#"<text x="{pad}" y="{y}" xml:space="preserve">{}</text>"#,
            escape(l)
        );
    }
    out + "</g></svg>\n"
}

/// `line N: ...` → `line N+by: ...`.
fn shift_line(message: &str, by: usize) -> String {
    if let Some(rest) = message.strip_prefix("line ")
        && let Some((n, tail)) = rest.split_once(':')
        && let Ok(n) = n.parse::<usize>()
    {
        return format!("line {}:{tail}", n + by);
    }
    message.to_string()
}

/// A size text of the form `N`, refused outside `range`.
pub fn size_in(
    text: &str,
    range: std::ops::RangeInclusive<u32>,
    what: &str,
) -> Result<u32, ServeError> {
    let n = text.trim().parse::<u32>().map_err(|_| {
        ServeError::BadPosition(format!("board `{text}`: {what} is a whole number"))
    })?;
    if !range.contains(&n) {
        return Err(ServeError::BadPosition(format!(
            "board size {n}: the page plays {what} of {} to {}",
            range.start(),
            range.end()
        )));
    }
    Ok(n)
}

/// The notation of the complete move `path` played from `before` (a turn start); `None`
/// when the decisions are not one whole turn.
pub fn complete_move_text<G: GameText>(before: &G, path: &[Decision]) -> Option<String> {
    let mut after = before.clone();
    for &d in path {
        after.apply(d).ok()?;
    }
    if path.is_empty() || !(after.at_turn_start() || after.is_over()) {
        return None;
    }
    before.move_text(path, G::Notation::default()).ok()
}
