//! One client's game: the start, the line of moves played, the position shown (a ply of that
//! line and the decisions of a turn in progress), the person's colour and the agent. Every
//! change goes through a method that checks its input and leaves the session unchanged when
//! it refuses, so a bad request can never put a session in a state the rules do not allow.

use super::ServeError;
use super::view::building_text;
use crumble_core::notation::{self, Frame};
use crumble_core::record::{self, GameRecord};
use crumble_core::render::html;
use crumble_core::{Color, Decision, Game, Move, position};
use crumble_selfplay::AgentSpec;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// One move of the line.
#[derive(Clone, Debug)]
pub struct Played {
    pub mv: Move,
    /// Its notation in the session's frame.
    pub text: String,
    /// Who played it.
    pub by: Color,
    /// The agent's value of the position it moved from (mover's view), when an agent played
    /// it or a record said so.
    pub value: Option<f32>,
    pub by_agent: bool,
}

/// The game of one client.
#[derive(Debug)]
pub struct Session {
    pub start: Game,
    pub moves: Vec<Played>,
    /// Moves of `moves` played to reach the position shown.
    pub ply: usize,
    /// Decisions of the turn in progress at `ply` (the person's clicks so far).
    pub partial: Vec<Decision>,
    pub human: Color,
    pub agent: AgentSpec,
    pub frame: Frame,
    /// Tags of a loaded record (names, date), kept when it is saved again.
    pub tags: Vec<(String, String)>,
    /// The stop flag of this client's running search, if any.
    pub search: Option<Arc<AtomicBool>>,
    /// Is an agent move being computed (one at a time)?
    pub thinking: bool,
    pub last_used: Instant,
    /// Counts every change, so an agent move computed for an older state is not applied.
    pub version: u64,
}

/// What a new game starts from.
#[derive(Debug)]
pub struct NewGame {
    pub start: Game,
    pub human: Color,
    pub agent: AgentSpec,
}

impl Session {
    pub fn new(start: Game, human: Color, agent: AgentSpec) -> Session {
        Session {
            start,
            moves: Vec::new(),
            ply: 0,
            partial: Vec::new(),
            human,
            agent,
            frame: Frame::PerPlayer,
            tags: Vec::new(),
            search: None,
            thinking: false,
            last_used: Instant::now(),
            version: 0,
        }
    }

    /// Starts over with `g`; the running search (if any) is stopped by the caller.
    pub fn reset(&mut self, g: NewGame) {
        self.start = g.start;
        self.moves.clear();
        self.ply = 0;
        self.partial.clear();
        self.human = g.human;
        self.agent = g.agent;
        self.tags.clear();
        self.version += 1;
    }

    /// The position after `ply` moves (a turn start, or the end of the game).
    pub fn position(&self) -> Game {
        let mut g = self.start.clone();
        for p in &self.moves[..self.ply] {
            // Every stored move was checked when it was added.
            if g.play_move(&p.mv).is_err() {
                break;
            }
        }
        g
    }

    /// The position shown: after `ply` moves and the decisions of the turn in progress.
    pub fn current(&self) -> Game {
        let mut g = self.position();
        for &d in &self.partial {
            if g.apply(d).is_err() {
                break;
            }
        }
        g
    }

    /// Adds `mv` (legal at `ply`) to the line, dropping the moves after the position shown.
    fn push(&mut self, before: &Game, mv: Move, value: Option<f32>, by_agent: bool) {
        let text = notation::format_move(before, &mv, self.frame).unwrap_or_else(|| "??".into());
        self.moves.truncate(self.ply);
        self.moves.push(Played {
            mv,
            text,
            by: before.to_move(),
            value,
            by_agent,
        });
        self.ply += 1;
        self.partial.clear();
        self.version += 1;
    }

    /// Applies one decision of the turn in progress; a decision that ends the turn adds the
    /// move to the line.
    pub fn decide(&mut self, d: u32) -> Result<(), ServeError> {
        let before = self.position();
        let mut g = self.current();
        if g.is_over() {
            return Err(ServeError::BadMove("the game is over".into()));
        }
        g.apply(Decision(d))
            .map_err(|e| ServeError::BadMove(format!("decision {d}: {e}")))?;
        let mut path = self.partial.clone();
        path.push(Decision(d));
        if g.at_turn_start() || g.is_over() {
            let mv = before
                .move_from_decisions(&path)
                .map_err(|e| ServeError::Internal(format!("a turn of clicks: {e}")))?;
            self.push(&before, mv, None, false);
        } else {
            self.partial = path;
            self.version += 1;
        }
        Ok(())
    }

    /// Plays a move typed in notation (the session's frame) at the position shown; the
    /// decisions of a turn in progress are dropped.
    pub fn play_text(&mut self, text: &str) -> Result<String, ServeError> {
        let before = self.position();
        if before.is_over() {
            return Err(ServeError::BadMove("the game is over".into()));
        }
        let mv = notation::parse_move(&before, text, self.frame)
            .map_err(|e| ServeError::BadMove(format!("`{}`: {e}", text.trim())))?;
        self.push(&before, mv, None, false);
        Ok(self.moves[self.ply - 1].text.clone())
    }

    /// Adds the agent's move, computed for the session at `version`.
    pub fn play_agent(
        &mut self,
        version: u64,
        path: &[Decision],
        value: Option<f32>,
    ) -> Result<(), ServeError> {
        if version != self.version {
            return Err(ServeError::Conflict(
                "the game changed while the agent was thinking; its move was dropped".into(),
            ));
        }
        let before = self.position();
        let mv = before
            .move_from_decisions(path)
            .map_err(|e| ServeError::Internal(format!("the agent's move: {e}")))?;
        self.push(&before, mv, value, true);
        Ok(())
    }

    /// Takes back the last decision of the turn in progress, else the moves back to the
    /// person's last turn (the agent's reply and the person's move).
    pub fn undo(&mut self) -> Result<(), ServeError> {
        if self.partial.pop().is_some() {
            self.version += 1;
            return Ok(());
        }
        if self.ply == 0 {
            return Err(ServeError::BadMove("nothing to undo".into()));
        }
        self.ply -= 1;
        if self.ply > 0 && self.moves[self.ply].by != self.human {
            self.ply -= 1;
        }
        self.moves.truncate(self.ply);
        self.version += 1;
        Ok(())
    }

    /// Shows the position after `ply` moves of the line (the line is kept).
    pub fn goto(&mut self, ply: usize) -> Result<(), ServeError> {
        if ply > self.moves.len() {
            return Err(ServeError::BadRequest(format!(
                "ply {ply}: the game has {} moves",
                self.moves.len()
            )));
        }
        self.ply = ply;
        self.partial.clear();
        self.version += 1;
        Ok(())
    }

    /// Replaces the game by a record's, shown from its start.
    pub fn load(&mut self, rec: &GameRecord) -> Result<(), ServeError> {
        let mut g = rec.start.clone();
        let mut moves = Vec::with_capacity(rec.moves.len());
        for (i, mv) in rec.moves.iter().enumerate() {
            let text = notation::format_move(&g, mv, self.frame)
                .ok_or_else(|| ServeError::BadRecord(format!("move {} is not legal", i + 1)))?;
            let by = g.to_move();
            g.play_move(mv)
                .map_err(|e| ServeError::BadRecord(format!("move {} ({text}): {e}", i + 1)))?;
            let value = rec.comment(i).and_then(html::parse_value_comment);
            moves.push(Played {
                mv: mv.clone(),
                text,
                by,
                value,
                by_agent: value.is_some(),
            });
        }
        self.start = rec.start.clone();
        self.moves = moves;
        self.ply = 0;
        self.partial.clear();
        self.tags = rec.tags.clone();
        self.version += 1;
        Ok(())
    }

    /// The whole line as a game record (its result when the line ends the game).
    pub fn record(&self) -> GameRecord {
        let mut rec = GameRecord::new(self.start.clone(), self.frame);
        rec.tags = self.tags.clone();
        if rec.tag("Black").is_none() && rec.tag("White").is_none() {
            let agent = self.agent.to_string();
            let (b, w) = match self.human {
                Color::Black => ("human".to_string(), agent),
                Color::White => (agent, "human".to_string()),
            };
            rec.set_tag("Black", &b);
            rec.set_tag("White", &w);
        }
        for p in &self.moves {
            rec.push_move(p.mv.clone(), p.value.map(html::value_comment));
        }
        let mut end = self.start.clone();
        for p in &self.moves {
            if end.play_move(&p.mv).is_err() {
                break;
            }
        }
        rec.result = end.outcome();
        rec
    }

    /// The notation of the turn in progress so far (empty at a turn start).
    pub fn building(&self) -> String {
        building_text(&self.position(), &self.partial)
    }
}

/// The start a page asked for: the standard start of `board` (resolution 8, the built-in
/// network's), or a position in the project's position JSON.
pub fn start_from(board: Option<u32>, position_json: Option<&str>) -> Result<Game, ServeError> {
    match position_json.map(str::trim).filter(|t| !t.is_empty()) {
        Some(text) => position::from_json(text).map_err(|e| ServeError::BadPosition(e.to_string())),
        None => {
            let n = board.unwrap_or(6);
            if !(2..=16).contains(&n) {
                return Err(ServeError::BadPosition(format!(
                    "board size {n}: the page plays boards of 2 to 16 cells a side"
                )));
            }
            Game::new(n as u16, 8).map_err(|e| ServeError::BadPosition(e.to_string()))
        }
    }
}

/// Reads an uploaded record: a text game record (the file may hold several; `index` picks one,
/// 0-based) or a binary self-play file (`.crsp`, recognised by its first bytes).
pub fn parse_record(bytes: &[u8], index: usize) -> Result<GameRecord, ServeError> {
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
    if bytes.starts_with(&crumble_selfplay::record::MAGIC) {
        let games = crumble_selfplay::record::decode_file_checked::<Game>(bytes)
            .map_err(|e| ServeError::BadRecord(e.to_string()))?;
        let g = &games[pick(games.len())?];
        return crumble_selfplay::crumble::to_game_record(g)
            .map_err(|e| ServeError::BadRecord(e.to_string()));
    }
    let text = std::str::from_utf8(bytes).map_err(|_| {
        ServeError::BadRecord("neither a text game record (UTF-8) nor a .crsp file".into())
    })?;
    let chunks = record::split_records(text);
    if chunks.is_empty() {
        return Err(ServeError::BadRecord("the file holds no game".into()));
    }
    let (line, chunk) = &chunks[pick(chunks.len())?];
    record::parse(chunk)
        .map_err(|e| ServeError::BadRecord(format!("line {}: {}", e.line + line - 1, e.kind)))
}
