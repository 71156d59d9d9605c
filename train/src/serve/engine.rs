//! The searching side of the server: the agent's moves, the network's prior and value for
//! the position shown, and the live analysis search. Everything here blocks (it runs on
//! threads of its own, never on the server's event loop) and is bounded: simulations are
//! capped, and a running analysis stops on request, at its budget, or after
//! [`MAX_ANALYSIS_SECONDS`].

use super::ServeError;
use super::view::building_text;
use crumble_core::notation::{self, Frame};
use crumble_core::{Color, Decision, Game, GameState};
use crumble_model::NetLoader;
use crumble_selfplay::evaluator::{Evaluation, Evaluator, Leaf};
use crumble_selfplay::{AgentKind, AgentSpec, EvaluatorSpec, Search, SearchConfig, Step};
use rand::SeedableRng;
use serde_json::{Value, json};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Most simulations a decision an agent chosen in the page may use.
pub const MAX_AGENT_SIMULATIONS: u32 = 5_000;
/// Most simulations of one analysis search.
pub const MAX_ANALYSIS_SIMULATIONS: u32 = 200_000;
/// An analysis search stops after this long whatever its budget.
pub const MAX_ANALYSIS_SECONDS: u64 = 120;
/// Candidate moves an analysis update lists.
const CANDIDATES: usize = 8;
/// How often a running analysis reports.
const REPORT_EVERY: Duration = Duration::from_millis(250);

/// The agents, the search settings and the analysis network, shared by all sessions.
#[derive(Debug)]
pub struct Engine {
    /// The `[search]` section agents play with (match settings are applied per agent).
    pub config: SearchConfig,
    /// The agent given on the command line: the only one that may name a file.
    pub default_agent: AgentSpec,
    /// The network behind the prior heatmap, the value and the analysis search: the default
    /// agent's when it has one, else the built-in network.
    pub analysis: AgentSpec,
    net: Mutex<Option<Box<dyn Evaluator<Game>>>>,
}

impl Engine {
    pub fn new(config: SearchConfig, default_agent: AgentSpec) -> Engine {
        let analysis = match &default_agent {
            AgentSpec::Mcts {
                evaluator: e @ (EvaluatorSpec::Checkpoint(_) | EvaluatorSpec::Builtin),
                ..
            } => AgentSpec::Mcts {
                evaluator: e.clone(),
                simulations: None,
            },
            _ => AgentSpec::Mcts {
                evaluator: EvaluatorSpec::Builtin,
                simulations: None,
            },
        };
        Engine {
            config,
            default_agent,
            analysis,
            net: Mutex::new(None),
        }
    }

    /// Builds the command line's agent and evaluates the standard start with the analysis
    /// network, so that a bad `--agent` or a damaged network is refused at start.
    pub fn check_default(&self) -> Result<(), ServeError> {
        crumble_selfplay::selfplay::make_agent::<Game>(
            &self.default_agent,
            &self.config,
            0,
            &NetLoader::new(),
            true,
        )
        .map_err(|e| ServeError::BadAgent(e.to_string()))?;
        let mut g = Game::new(6, 8).map_err(|e| ServeError::Internal(e.to_string()))?;
        let legal = g.legal_decisions();
        self.evaluate(&g, &legal).map(|_| ())
    }

    /// Checks an agent string from the page: its own kinds with a bounded number of
    /// simulations, or exactly the command line's agent (a page never names a file).
    pub fn page_agent(&self, text: &str) -> Result<AgentSpec, ServeError> {
        let spec = AgentSpec::parse(text).map_err(|e| ServeError::BadAgent(e.to_string()))?;
        if spec == self.default_agent {
            return Ok(spec);
        }
        if let AgentSpec::Mcts {
            evaluator: EvaluatorSpec::Checkpoint(_),
            ..
        } = spec
        {
            return Err(ServeError::BadAgent(
                "the page cannot load network files: start the server with --agent ckpt:PATH"
                    .into(),
            ));
        }
        if spec == AgentSpec::Solver {
            return Err(ServeError::BadAgent(
                "the solver plays only the test games".into(),
            ));
        }
        if spec.simulations(&self.config).unwrap_or(0) > MAX_AGENT_SIMULATIONS {
            return Err(ServeError::BadAgent(format!(
                "at most {MAX_AGENT_SIMULATIONS} simulations a decision"
            )));
        }
        Ok(spec)
    }

    /// The analysis network's value (the decider's view) and priors over `legal` for `game`.
    pub fn evaluate(&self, game: &Game, legal: &[Decision]) -> Result<Evaluation, ServeError> {
        let mut out = self.evaluate_many(&[(game.clone(), legal.to_vec())])?;
        Ok(out.pop().unwrap_or_default())
    }

    /// [`Engine::evaluate`] of many live positions in one batch.
    pub fn evaluate_many(
        &self,
        items: &[(Game, Vec<Decision>)],
    ) -> Result<Vec<Evaluation>, ServeError> {
        let mut net = self
            .net
            .lock()
            .map_err(|_| ServeError::Internal("the network's lock is poisoned".into()))?;
        if net.is_none() {
            *net = crumble_selfplay::agent::build_evaluator(
                &self.analysis,
                &self.config,
                0,
                &NetLoader::new(),
            )
            .map_err(|e| ServeError::BadAgent(e.to_string()))?;
        }
        let ev = net
            .as_mut()
            .ok_or_else(|| ServeError::Internal("no analysis network".into()))?;
        let leaves: Vec<Leaf<'_, Game>> = items
            .iter()
            .map(|(game, legal)| Leaf { game, legal })
            .collect();
        let mut out = vec![Evaluation::default(); leaves.len()];
        // Small batches: a long game is still one quick call each.
        for (l, o) in leaves.chunks(64).zip(out.chunks_mut(64)) {
            ev.evaluate(l, o)
                .map_err(|e| ServeError::Analysis(e.to_string()))?;
        }
        Ok(out)
    }

    /// The decisions of `spec`'s turn in `game` (a live turn start) and its search value
    /// (mover's view; `None` for random play).
    pub fn agent_turn(
        &self,
        spec: &AgentSpec,
        game: &Game,
        seed: u64,
    ) -> Result<(Vec<Decision>, Option<f32>), ServeError> {
        let agent = crumble_selfplay::selfplay::make_agent(
            spec,
            &self.config,
            seed,
            &NetLoader::new(),
            true,
        )
        .map_err(|e| ServeError::BadAgent(e.to_string()))?;
        let mut g = game.clone();
        let mut path = Vec::new();
        match agent.kind {
            AgentKind::Random | AgentKind::Solver => {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                g.play_random_turn_recorded(&mut rng, &mut path);
                Ok((path, None))
            }
            AgentKind::Mcts {
                mut evaluator,
                simulations,
                config,
            } => {
                let mut search = Search::new(config, seed);
                let mut legal = Vec::new();
                let mut value = None;
                loop {
                    g.legal_decisions_into(&mut legal);
                    let d = if legal.len() == 1 {
                        legal[0]
                    } else {
                        let out = search
                            .search_with(&g, simulations, false, evaluator.as_mut())
                            .map_err(|e| ServeError::Analysis(e.to_string()))?;
                        // The first search of the turn judges the position it starts from.
                        value.get_or_insert(out.value);
                        search.pick(0.0)
                    };
                    search.advance(d);
                    g.apply(d)
                        .map_err(|e| ServeError::Internal(format!("agent {spec}: {e}")))?;
                    path.push(d);
                    if g.is_over() || g.at_turn_start() {
                        return Ok((path, value));
                    }
                }
            }
        }
    }

    /// Runs the analysis search of the position `start` + `partial` (live) for at most
    /// `simulations`, calling `report` with an update every [`REPORT_EVERY`] and once at the
    /// end (`"done": true`); stops early when `stop` is set or `report` returns false (the
    /// page went away).
    pub fn analyse(
        &self,
        start: &Game,
        partial: &[Decision],
        simulations: u32,
        stop: &AtomicBool,
        mut report: impl FnMut(Value) -> bool,
    ) -> Result<(), ServeError> {
        let mut game = start.clone();
        for &d in partial {
            game.apply(d)
                .map_err(|e| ServeError::Internal(format!("the turn in progress: {e}")))?;
        }
        if game.is_over() {
            return Err(ServeError::BadRequest(
                "the game is over: nothing to analyse".into(),
            ));
        }
        let mut evaluator = crumble_selfplay::agent::build_evaluator(
            &self.analysis,
            &self.config,
            0,
            &NetLoader::new(),
        )
        .map_err(|e| ServeError::BadAgent(e.to_string()))?
        .ok_or_else(|| ServeError::Internal("the analysis agent does not search".into()))?;
        let mut search: Search<Game> = Search::new(self.config.for_play(), 0);
        let budget = simulations.clamp(1, MAX_ANALYSIS_SIMULATIONS);
        search.begin(&game, budget, false);
        let t0 = Instant::now();
        let mut last = Instant::now();
        let mut eval = [Evaluation::default()];
        let mut stopped = false;
        while search.run() == Step::NeedsEval {
            {
                let leaf = search
                    .leaf()
                    .ok_or_else(|| ServeError::Internal("no pending leaf".into()))?;
                evaluator
                    .evaluate(&[leaf], &mut eval)
                    .map_err(|e| ServeError::Analysis(e.to_string()))?;
            }
            search.provide(&eval[0]);
            if stop.load(Ordering::Relaxed) || t0.elapsed().as_secs() >= MAX_ANALYSIS_SECONDS {
                stopped = true;
                break;
            }
            if last.elapsed() >= REPORT_EVERY {
                last = Instant::now();
                if !report(snapshot(&search, start, partial, &game, t0, false)) {
                    return Ok(());
                }
            }
        }
        let mut done = snapshot(&search, start, partial, &game, t0, true);
        done["stopped"] = json!(stopped);
        report(done);
        Ok(())
    }
}

/// One analysis update: visits, the root value (decider's view and Black's), the candidate
/// moves in notation and the principal line.
fn snapshot(
    search: &Search<Game>,
    start: &Game,
    partial: &[Decision],
    game: &Game,
    t0: Instant,
    done: bool,
) -> Value {
    let visits = search.root_visits();
    let decider = game.decider().unwrap_or(Color::Black);
    let lines = search.candidate_lines(CANDIDATES);
    let root_value = search.node_stats(&[]).map_or(
        0.0,
        |(v, _, _)| if decider == Color::Black { v } else { -v } as f32,
    );
    let candidates: Vec<Value> = lines
        .iter()
        .map(|l| {
            let mut path = partial.to_vec();
            path.extend_from_slice(&l.decisions);
            json!({
                "move": building_text(start, &path),
                "visits": l.visits,
                "value": l.value,
                "prior": l.prior,
                "complete": l.complete,
            })
        })
        .collect();
    let black = if decider == Color::Black {
        root_value
    } else {
        -root_value
    };
    json!({
        "visits": visits,
        "value": root_value,
        "black": black,
        "to_move": decider.name(),
        "candidates": candidates,
        "pv": principal_line(start, partial, &search.principal_variation(200)),
        "seconds": t0.elapsed().as_secs_f64(),
        "done": done,
    })
}

/// The principal variation as moves in notation, each in its mover's per-player frame; the
/// first completes the turn in progress, a last unfinished one ends with `…`.
fn principal_line(start: &Game, partial: &[Decision], pv: &[Decision]) -> Vec<String> {
    let mut out = Vec::new();
    let mut turn_start = start.clone();
    let mut g = start.clone();
    let mut path = Vec::new();
    for &d in partial.iter().chain(pv) {
        if g.apply(d).is_err() {
            break;
        }
        path.push(d);
        if g.at_turn_start() || g.is_over() {
            match turn_start.move_from_decisions(&path) {
                Ok(mv) => out.push(
                    notation::format_move(&turn_start, &mv, Frame::PerPlayer)
                        .unwrap_or_else(|| "?".into()),
                ),
                Err(_) => break,
            }
            turn_start.clone_from(&g);
            path.clear();
            if g.is_over() {
                break;
            }
        }
    }
    if !path.is_empty() {
        out.push(building_text(&turn_start, &path));
    }
    out
}
