//! A session of any game behind one object-safe interface, [`Board`], so the routes hold
//! `Box<dyn Board>` and a session can change game with a new game. Everything generic is
//! written once here for `Live<G>` (a session and its game's engine); the long work (an
//! agent's turn, an analysis, the values of a line) is handed out as a job the routes run
//! without holding the session's lock.

use super::ServeError;
use super::engine::Engine;
use super::game::{BoardView, ServeGame, parse_file};
use super::session::Session;
use crumble_core::{Color, Decision, Player};
use crumble_selfplay::AgentSpec;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// An agent's turn to compute: its decisions and its value (mover's view).
pub type AgentJob = Box<dyn FnOnce() -> Result<(Vec<Decision>, Option<f32>), ServeError> + Send>;
/// An analysis to run, reporting updates until the callback returns false.
pub type AnalysisJob =
    Box<dyn FnOnce(&mut dyn FnMut(Value) -> bool) -> Result<(), ServeError> + Send>;
/// The values of a line to compute.
pub type ValuesJob = Box<dyn FnOnce() -> Result<Vec<Value>, ServeError> + Send>;

/// One client's game, whatever the game.
pub trait Board: Send {
    /// The game's name (`crumble`).
    fn game(&self) -> &'static str;
    /// The position shown, its decisions, the moves, the evaluator's prior and value.
    fn state(&self) -> Value;
    fn decide(&mut self, d: u32) -> Result<(), ServeError>;
    fn play_text(&mut self, text: &str) -> Result<(), ServeError>;
    fn undo(&mut self) -> Result<(), ServeError>;
    fn goto(&mut self, ply: usize) -> Result<(), ServeError>;
    /// Loads game `index` of an uploaded file.
    fn load(&mut self, bytes: &[u8], index: usize) -> Result<(), ServeError>;
    /// The line as the game's text record.
    fn record(&self) -> Result<String, ServeError>;
    /// Checks an agent string from the page for this game.
    fn page_agent(&self, text: &str) -> Result<AgentSpec, ServeError>;
    fn set_agent(&mut self, agent: AgentSpec);
    /// Starts the agent's turn at the position shown (a turn in progress is dropped): the job
    /// and the session's version it is for.
    fn agent_job(&mut self, seed: u64) -> Result<(AgentJob, u64), ServeError>;
    fn play_agent(
        &mut self,
        version: u64,
        path: Vec<Decision>,
        value: Option<f32>,
    ) -> Result<(), ServeError>;
    fn set_thinking(&mut self, on: bool);
    /// Starts an analysis of the position shown, stopping the running one.
    fn analysis_job(&mut self, sims: u32) -> Result<AnalysisJob, ServeError>;
    /// Stops the running analysis; was one running?
    fn stop_search(&mut self) -> bool;
    fn values_job(&self) -> ValuesJob;
}

/// A session with its game's engine.
pub struct Live<G: ServeGame> {
    pub s: Session<G>,
    pub engine: Arc<Engine<G>>,
}

/// The evaluator's value from Black's view, given the value for the colour to move.
fn black_view(to_move: Option<Color>, v: f32) -> f32 {
    if to_move == Some(Color::White) { -v } else { v }
}

impl<G: ServeGame> Live<G> {
    pub fn new(start: G, human: Player, agent: AgentSpec, engine: Arc<Engine<G>>) -> Live<G> {
        Live {
            s: Session::new(start, human, agent),
            engine,
        }
    }

    /// The session as the page draws it, without the evaluation.
    fn state_json(&self) -> Value {
        let s = &self.s;
        let start = s.position();
        let mut game = s.current();
        let mut legal = Vec::new();
        game.legal_decisions_into(&mut legal);
        let before = (s.partial.is_empty() && s.ply > 0).then(|| s.position_at(s.ply - 1));
        let view = BoardView {
            start: &start,
            game: &game,
            partial: &s.partial,
            legal: &legal,
            last: before
                .as_ref()
                .map(|b| (b, s.moves[s.ply - 1].path.as_slice())),
            viewer: game.colour_of(s.human),
        };
        let moves: Vec<Value> = s
            .moves
            .iter()
            .map(|p| {
                json!({ "text": p.text, "by": p.by.name(), "value": p.value, "agent": p.by_agent })
            })
            .collect();
        let mut v = G::board_json(&view);
        let fields = json!({
            "game": G::NAME,
            "to_move": game.colour_to_move().map(|c| c.name()),
            "status": game.status_line(),
            "over": game.is_over(),
            "turn_start": game.at_turn_start(),
            "human": game.colour_of(s.human).name(),
            "agent": s.agent.to_string(),
            "evaluator": self.engine.evaluator_label(),
            "building": s.building(),
            "moves": moves,
            "ply": s.ply,
            "thinking": s.thinking,
        });
        if let (Value::Object(m), Value::Object(f)) = (&mut v, fields) {
            m.extend(f);
        }
        if let Some(book) = self.engine.book_json(&game) {
            v["book"] = book;
        }
        v
    }
}

impl<G: ServeGame> Board for Live<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn state(&self) -> Value {
        let mut v = self.state_json();
        let mut game = self.s.current();
        if game.is_over() {
            return v;
        }
        let mut legal = Vec::new();
        game.legal_decisions_into(&mut legal);
        match self.engine.evaluate(&game, &legal) {
            Ok(e) => {
                let black = black_view(game.colour_to_move(), e.value);
                v["eval"] = json!({ "value": e.value, "black": black, "priors": e.priors });
            }
            Err(e) => v["eval_error"] = json!(e.to_string()),
        }
        v
    }

    fn decide(&mut self, d: u32) -> Result<(), ServeError> {
        self.s.decide(d)
    }

    fn play_text(&mut self, text: &str) -> Result<(), ServeError> {
        self.s.play_text(text).map(|_| ())
    }

    fn undo(&mut self) -> Result<(), ServeError> {
        self.s.undo()
    }

    fn goto(&mut self, ply: usize) -> Result<(), ServeError> {
        self.s.goto(ply)
    }

    fn load(&mut self, bytes: &[u8], index: usize) -> Result<(), ServeError> {
        let rec = parse_file::<G>(bytes, index)?;
        self.s.load(rec)
    }

    fn record(&self) -> Result<String, ServeError> {
        self.s.record()
    }

    fn page_agent(&self, text: &str) -> Result<AgentSpec, ServeError> {
        self.engine.page_agent(text)
    }

    fn set_agent(&mut self, agent: AgentSpec) {
        self.s.agent = agent;
    }

    fn agent_job(&mut self, seed: u64) -> Result<(AgentJob, u64), ServeError> {
        let s = &mut self.s;
        if s.thinking {
            return Err(ServeError::Conflict("the agent is already thinking".into()));
        }
        if !s.partial.is_empty() {
            s.partial.clear();
            s.version += 1;
        }
        let game = s.position();
        if game.is_over() {
            return Err(ServeError::BadMove("the game is over".into()));
        }
        let spec = s.agent.clone();
        let engine = Arc::clone(&self.engine);
        let job: AgentJob = Box::new(move || engine.agent_turn(&spec, &game, seed));
        Ok((job, s.version))
    }

    fn play_agent(
        &mut self,
        version: u64,
        path: Vec<Decision>,
        value: Option<f32>,
    ) -> Result<(), ServeError> {
        self.s.play_agent(version, path, value)
    }

    fn set_thinking(&mut self, on: bool) {
        self.s.thinking = on;
    }

    fn analysis_job(&mut self, sims: u32) -> Result<AnalysisJob, ServeError> {
        self.stop_search();
        if self.s.current().is_over() {
            return Err(ServeError::BadRequest(
                "the game is over: nothing to analyse".into(),
            ));
        }
        let flag = Arc::new(AtomicBool::new(false));
        self.s.search = Some(Arc::clone(&flag));
        let (start, partial) = (self.s.position(), self.s.partial.clone());
        let engine = Arc::clone(&self.engine);
        Ok(Box::new(move |report| {
            engine.analyse(&start, &partial, sims, &flag, report)
        }))
    }

    fn stop_search(&mut self) -> bool {
        match self.s.search.take() {
            Some(flag) => {
                flag.store(true, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// The evaluator's value (Black's view) of every turn start of the line and of its end.
    fn values_job(&self) -> ValuesJob {
        let start = self.s.start.clone();
        let paths: Vec<Vec<Decision>> = self.s.moves.iter().map(|p| p.path.clone()).collect();
        let engine = Arc::clone(&self.engine);
        Box::new(move || {
            let mut g = start;
            let mut items = Vec::new();
            let mut finals = vec![None; paths.len() + 1];
            for (i, fin) in finals.iter_mut().enumerate() {
                if let Some(r) = g.game_result() {
                    // The result from the view of the seat that plays Black at the end.
                    let seat = if g.colour_of(Player::First) == Color::Black {
                        Player::First
                    } else {
                        Player::Second
                    };
                    *fin = Some(r.value_for(seat));
                } else {
                    let mut legal = Vec::new();
                    g.legal_decisions_into(&mut legal);
                    items.push((i, g.clone(), legal));
                }
                if let Some(path) = paths.get(i) {
                    for &d in path {
                        if g.apply(d).is_err() {
                            break;
                        }
                    }
                }
            }
            let batch: Vec<_> = items
                .iter()
                .map(|(_, g, l)| (g.clone(), l.clone()))
                .collect();
            let evals = engine.evaluate_many(&batch)?;
            let mut out: Vec<Value> = finals.iter().map(|v| json!(v)).collect();
            for ((i, g, _), e) in items.iter().zip(evals) {
                out[*i] = json!(black_view(g.colour_to_move(), e.value));
            }
            Ok(out)
        })
    }
}
