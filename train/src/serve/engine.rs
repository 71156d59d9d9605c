//! The searching side of the server: the agent's moves, the network's prior and value for
//! the position shown, and the live analysis search. Everything here blocks (it runs on
//! threads of its own, never on the server's event loop) and is bounded: simulations are
//! capped, and a running analysis stops on request, at its budget, or after
//! [`MAX_ANALYSIS_SECONDS`].

use super::ServeError;
use super::game::ServeGame;
use crate::games::TrainGame;
use crumble_core::{Color, Decision, Player};
use crumble_model::NetLoader;
use crumble_selfplay::book::Book;
use crumble_selfplay::evaluator::{Evaluation, Evaluator, Leaf};
use crumble_selfplay::turn_agent::TurnAgent;
use crumble_selfplay::{AgentSpec, EvaluatorSpec, Search, SearchConfig};
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

/// Leaves the analysis evaluates in one network call ([`Search::run_batch`], virtual loss):
/// the network serves several times more positions a second at this size than one at a
/// time, and a batch this small among thousands of simulations barely changes the search.
const ANALYSIS_BATCH: usize = 16;

/// The agents, the search settings and the analysis network of one game, shared by all
/// sessions of that game.
#[derive(Debug)]
pub struct Engine<G: ServeGame> {
    /// The `[search]` section agents play with (match settings are applied per agent).
    pub config: SearchConfig,
    /// The agent given on the command line: the only one that may name a file.
    pub default_agent: AgentSpec,
    /// The evaluator behind the prior heatmap, the value and the analysis search: the default
    /// agent's network when it has one, else the built-in network where it plays the game,
    /// else the default agent's evaluator (random playouts for `random`).
    pub analysis: AgentSpec,
    /// The opening book shown beside the analysis (`crumble serve --book`).
    pub book: Option<Book<G>>,
    net: Mutex<Option<Box<dyn Evaluator<G>>>>,
}

impl<G: ServeGame> Engine<G> {
    pub fn new(config: SearchConfig, default_agent: AgentSpec) -> Engine<G> {
        let evaluator = match &default_agent {
            AgentSpec::Mcts {
                evaluator: e @ (EvaluatorSpec::Checkpoint(_) | EvaluatorSpec::Builtin),
                ..
            } => e.clone(),
            _ if G::BUILTIN => EvaluatorSpec::Builtin,
            AgentSpec::Mcts { evaluator, .. } => evaluator.clone(),
            _ => EvaluatorSpec::Rollout,
        };
        let analysis = AgentSpec::Mcts {
            evaluator,
            simulations: None,
        };
        Engine {
            config,
            default_agent,
            analysis,
            book: None,
            net: Mutex::new(None),
        }
    }

    /// The game with the engine for the command line's agent: the game's default agent when
    /// none is named.
    pub fn for_game(config: SearchConfig, agent: Option<&str>) -> Result<Engine<G>, ServeError> {
        let text = agent.unwrap_or(G::DEFAULT_AGENT);
        let spec = AgentSpec::parse(text).map_err(|e| ServeError::BadAgent(e.to_string()))?;
        Ok(Engine::new(config, spec))
    }

    /// What the book says of `game` (`{"in_book": false}` where it has nothing: a position
    /// outside the book or within a turn); `None` without a book.
    pub fn book_json(&self, game: &G) -> Option<Value> {
        let book = self.book.as_ref()?;
        let found = game
            .at_turn_start()
            .then(|| book.position_json(game))
            .flatten();
        Some(match found {
            Some(mut v) => {
                v["in_book"] = json!(true);
                v
            }
            None => json!({ "in_book": false, "positions": book.nodes().len() }),
        })
    }

    /// What the heatmap and the value come from, as the page says it.
    pub fn evaluator_label(&self) -> &'static str {
        match &self.analysis {
            AgentSpec::Mcts {
                evaluator: EvaluatorSpec::Rollout,
                ..
            } => "playouts",
            AgentSpec::Mcts {
                evaluator: EvaluatorSpec::Uniform,
                ..
            } => "uniform",
            _ => "net",
        }
    }

    /// The loader of the game's networks.
    fn loader() -> NetLoader<<G as TrainGame>::Encoder> {
        NetLoader::for_encoder(<G as TrainGame>::Encoder::default())
    }

    /// Builds the command line's agent and evaluates the standard start with the analysis
    /// network, so that a bad `--agent` or a damaged network is refused at start.
    pub fn check_default(&self) -> Result<(), ServeError> {
        no_bot::<G>(&self.default_agent)?;
        crumble_selfplay::selfplay::make_agent::<G>(
            &self.default_agent,
            &self.config,
            0,
            &Self::loader(),
            true,
        )
        .map_err(|e| ServeError::BadAgent(e.to_string()))?;
        let mut g = G::start(None, None)?;
        let mut legal = Vec::new();
        g.legal_decisions_into(&mut legal);
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
        no_bot::<G>(&spec)?;
        if spec == AgentSpec::Solver && !G::SOLVABLE {
            return Err(ServeError::BadAgent(format!(
                "the solver plays only the games small enough to solve, not {}",
                G::NAME
            )));
        }
        if spec.simulations(&self.config).unwrap_or(0) > MAX_AGENT_SIMULATIONS {
            return Err(ServeError::BadAgent(format!(
                "at most {MAX_AGENT_SIMULATIONS} simulations a decision"
            )));
        }
        Ok(spec)
    }

    /// The analysis network's value (the decider's view) and priors over `legal` for `game`.
    pub fn evaluate(&self, game: &G, legal: &[Decision]) -> Result<Evaluation, ServeError> {
        let mut out = self.evaluate_many(&[(game.clone(), legal.to_vec())])?;
        Ok(out.pop().unwrap_or_default())
    }

    /// [`Engine::evaluate`] of many live positions in one batch.
    pub fn evaluate_many(
        &self,
        items: &[(G, Vec<Decision>)],
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
                &Self::loader(),
            )
            .map_err(|e| ServeError::BadAgent(e.to_string()))?;
        }
        let ev = net
            .as_mut()
            .ok_or_else(|| ServeError::Internal("no analysis network".into()))?;
        let leaves: Vec<Leaf<'_, G>> = items
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
        game: &G,
        seed: u64,
    ) -> Result<(Vec<Decision>, Option<f32>), ServeError> {
        let mut agent = TurnAgent::new(spec, &self.config, seed, &Self::loader())
            .map_err(|e| ServeError::BadAgent(e.to_string()))?;
        agent
            .choose_turn(game)
            .map_err(|e| ServeError::Analysis(e.to_string()))
    }

    /// Runs the analysis search of the position `start` + `partial` (live) for at most
    /// `simulations`, calling `report` with an update every `REPORT_EVERY` and once at the
    /// end (`"done": true`); stops early when `stop` is set or `report` returns false (the
    /// page went away).
    pub fn analyse(
        &self,
        start: &G,
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
            &Self::loader(),
        )
        .map_err(|e| ServeError::BadAgent(e.to_string()))?
        .ok_or_else(|| ServeError::Internal("the analysis agent does not search".into()))?;
        let mut search: Search<G> = Search::new(self.config.for_play(), 0);
        let budget = simulations.clamp(1, MAX_ANALYSIS_SIMULATIONS);
        search.begin(&game, budget, false);
        let t0 = Instant::now();
        let mut last = Instant::now();
        let mut evals = Vec::new();
        let mut stopped = false;
        loop {
            let n = search.run_batch(ANALYSIS_BATCH);
            if n == 0 {
                break;
            }
            evals.resize_with(n, Evaluation::default);
            {
                let leaves: Vec<_> = (0..n).map(|i| search.batch_leaf(i)).collect();
                evaluator
                    .evaluate(&leaves, &mut evals[..n])
                    .map_err(|e| ServeError::Analysis(e.to_string()))?;
            }
            search.provide_batch(&evals[..n]);
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
fn snapshot<G: ServeGame>(
    search: &Search<G>,
    start: &G,
    partial: &[Decision],
    game: &G,
    t0: Instant,
    done: bool,
) -> Value {
    let visits = search.root_visits();
    let decider = game.colour_to_move().unwrap_or(Color::Black);
    let lines = search.candidate_lines(CANDIDATES);
    // The tree keeps the first seat's view; in Crumo a swap gives that seat White.
    let first = game.decider() != Some(Player::Second);
    let root_value = search
        .node_stats(&[])
        .map_or(0.0, |(v, _, _)| if first { v } else { -v } as f32);
    let candidates: Vec<Value> = lines
        .iter()
        .map(|l| {
            let mut path = partial.to_vec();
            path.extend_from_slice(&l.decisions);
            json!({
                "move": G::building_text(start, &path),
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

/// The principal variation as moves in notation (Crumble's each in its mover's frame); the
/// first completes the turn in progress, a last unfinished one ends with `…`.
fn principal_line<G: ServeGame>(start: &G, partial: &[Decision], pv: &[Decision]) -> Vec<String> {
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
            match super::game::complete_move_text(&turn_start, &path) {
                Some(t) => out.push(t),
                None => break,
            }
            turn_start.clone_from(&g);
            path.clear();
            if g.is_over() {
                break;
            }
        }
    }
    if !path.is_empty() {
        out.push(G::building_text(&turn_start, &path));
    }
    out
}

/// Refuses the built-in network for a game it does not play, with what to pick instead.
fn no_bot<G: ServeGame>(spec: &AgentSpec) -> Result<(), ServeError> {
    if !G::BUILTIN
        && matches!(
            spec,
            AgentSpec::Mcts {
                evaluator: EvaluatorSpec::Builtin,
                ..
            }
        )
    {
        return Err(ServeError::BadAgent(format!(
            "{} has no built-in network (bot): choose mcts:rollout, mcts:uniform or random \
             (or start the server with --agent ckpt:PATH)",
            G::NAME
        )));
    }
    Ok(())
}
