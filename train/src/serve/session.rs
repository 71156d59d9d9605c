//! One client's game: the start, the line of moves played, the position shown (a ply of that
//! line and the decisions of a turn in progress), the person's seat and the agent. Every
//! change goes through a method that checks its input and leaves the session unchanged when
//! it refuses, so a bad request can never put a session in a state the rules do not allow.
//! Moves are kept as their decisions, so one session type serves every [`ServeGame`].

use super::ServeError;
use super::game::{Loaded, ServeGame, check_moves, complete_move_text};
use crumble_core::{Color, Decision, Player};
use crumble_selfplay::AgentSpec;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// One move of the line.
#[derive(Clone, Debug)]
pub struct Played {
    /// The decisions of the whole turn.
    pub path: Vec<Decision>,
    /// Its notation.
    pub text: String,
    /// The colour that played it.
    pub by: Color,
    /// The agent's value of the position it moved from (mover's view), when an agent played
    /// it or a record said so.
    pub value: Option<f32>,
    pub by_agent: bool,
}

/// The game of one client.
#[derive(Debug)]
pub struct Session<G> {
    pub start: G,
    pub moves: Vec<Played>,
    /// Moves of `moves` played to reach the position shown.
    pub ply: usize,
    /// Decisions of the turn in progress at `ply` (the person's clicks so far).
    pub partial: Vec<Decision>,
    /// The person's seat (in Crumo a swap changes its colour).
    pub human: Player,
    pub agent: AgentSpec,
    /// Tags of a loaded record (names, date), kept when it is saved again.
    pub tags: Vec<(String, String)>,
    /// The stop flag of this client's running search, if any.
    pub search: Option<Arc<AtomicBool>>,
    /// Is an agent move being computed (one at a time)?
    pub thinking: bool,
    /// Counts every change, so an agent move computed for an older state is not applied.
    pub version: u64,
}

impl<G: ServeGame> Session<G> {
    pub fn new(start: G, human: Player, agent: AgentSpec) -> Session<G> {
        Session {
            start,
            moves: Vec::new(),
            ply: 0,
            partial: Vec::new(),
            human,
            agent,
            tags: Vec::new(),
            search: None,
            thinking: false,
            version: 0,
        }
    }

    /// The position after the first `ply` moves (a turn start, or the end of the game).
    pub fn position_at(&self, ply: usize) -> G {
        let mut g = self.start.clone();
        for p in &self.moves[..ply] {
            for &d in &p.path {
                // Every stored move was checked when it was added.
                if g.apply(d).is_err() {
                    return g;
                }
            }
        }
        g
    }

    /// The position after `ply` moves.
    pub fn position(&self) -> G {
        self.position_at(self.ply)
    }

    /// The position shown: after `ply` moves and the decisions of the turn in progress.
    pub fn current(&self) -> G {
        let mut g = self.position();
        for &d in &self.partial {
            if g.apply(d).is_err() {
                break;
            }
        }
        g
    }

    /// Adds the turn `path` (legal at `ply`) to the line, dropping the moves after the
    /// position shown.
    fn push(&mut self, before: &G, path: Vec<Decision>, value: Option<f32>, by_agent: bool) {
        let text = complete_move_text(before, &path).unwrap_or_else(|| "??".into());
        let by = before.colour_to_move().unwrap_or(Color::Black);
        self.moves.truncate(self.ply);
        self.moves.push(Played {
            path,
            text,
            by,
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
            self.push(&before, path, None, false);
        } else {
            self.partial = path;
            self.version += 1;
        }
        Ok(())
    }

    /// Plays a move typed in notation at the position shown; the decisions of a turn in
    /// progress are dropped.
    pub fn play_text(&mut self, text: &str) -> Result<String, ServeError> {
        let before = self.position();
        if before.is_over() {
            return Err(ServeError::BadMove("the game is over".into()));
        }
        let path = before
            .parse_move(text, Default::default())
            .map_err(|e| ServeError::BadMove(format!("`{}`: {e}", text.trim())))?;
        self.check_turn(&before, &path)
            .map_err(|e| ServeError::Internal(format!("a parsed move: {e}")))?;
        self.push(&before, path, None, false);
        Ok(self.moves[self.ply - 1].text.clone())
    }

    /// Is `path` exactly one legal turn from `before`?
    fn check_turn(&self, before: &G, path: &[Decision]) -> Result<(), String> {
        let mut g = before.clone();
        for (i, &d) in path.iter().enumerate() {
            g.apply(d).map_err(|e| e.to_string())?;
            let ends = g.at_turn_start() || g.is_over();
            if ends != (i + 1 == path.len()) {
                return Err("the decisions are not one turn".into());
            }
        }
        if path.is_empty() {
            return Err("no decisions".into());
        }
        Ok(())
    }

    /// Adds the agent's move, computed for the session at `version`.
    pub fn play_agent(
        &mut self,
        version: u64,
        path: Vec<Decision>,
        value: Option<f32>,
    ) -> Result<(), ServeError> {
        if version != self.version {
            return Err(ServeError::Conflict(
                "the game changed while the agent was thinking; its move was dropped".into(),
            ));
        }
        let before = self.position();
        self.check_turn(&before, &path)
            .map_err(|e| ServeError::Internal(format!("the agent's move: {e}")))?;
        self.push(&before, path, value, true);
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
        if self.ply > 0 && self.position().decider() != Some(self.human) {
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
    pub fn load(&mut self, rec: Loaded<G>) -> Result<(), ServeError> {
        check_moves(&rec.start, &rec.moves)?;
        let mut g = rec.start.clone();
        let mut moves = Vec::with_capacity(rec.moves.len());
        for (path, value) in rec.moves.into_iter().zip(rec.values) {
            let text = complete_move_text(&g, &path).unwrap_or_else(|| "??".into());
            let by = g.colour_to_move().unwrap_or(Color::Black);
            for &d in &path {
                g.apply_unchecked(d);
            }
            moves.push(Played {
                path,
                text,
                by,
                value,
                by_agent: value.is_some(),
            });
        }
        self.start = rec.start;
        self.moves = moves;
        self.ply = 0;
        self.partial.clear();
        self.tags = rec.tags;
        self.version += 1;
        Ok(())
    }

    /// The whole line as the game's text record.
    pub fn record(&self) -> Result<String, ServeError> {
        let mut tags = self.tags.clone();
        let has = |t: &[(String, String)], k: &str| t.iter().any(|(n, _)| n == k);
        if !has(&tags, "Black") && !has(&tags, "White") {
            let agent = self.agent.to_string();
            // Named by the colour each seat ends the game with (a Crumo swap exchanges them).
            let end = self.position_at(self.moves.len());
            let (b, w) = if end.colour_of(self.human) == Color::Black {
                ("human".to_string(), agent)
            } else {
                (agent, "human".to_string())
            };
            tags.push(("Black".into(), b));
            tags.push(("White".into(), w));
        }
        let moves: Vec<(Vec<Decision>, Option<f32>)> = self
            .moves
            .iter()
            .map(|p| (p.path.clone(), p.value))
            .collect();
        G::write_record(&self.start, &moves, &tags)
    }

    /// The notation of the turn in progress so far (empty at a turn start).
    pub fn building(&self) -> String {
        G::building_text(&self.position(), &self.partial)
    }
}
