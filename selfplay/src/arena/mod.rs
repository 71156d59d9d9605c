//! Evaluation games: many agents, many start positions, game pairs, saved records, all on
//! the one engine that plays games ([`crate::driver::play_games`]).
//!
//! * A [`Pool`] holds the agents ready to play, each checkpoint file loaded **once** and
//!   shared by every agent that names it (with its own simulations).
//! * A [`Job`] is a few games from one start (a game pair in a match, one game in a tactics
//!   test); [`run_jobs`] turns all jobs into one queue of games for the engine, which plays
//!   `concurrency` of them at once and evaluates the leaves of all running games in one
//!   batch per agent and round. Results come back **in job order** (game pairs: in order
//!   within each pairing), and every game depends only on its start, agents, game number and
//!   seed: the same settings give the same games at any concurrency.
//!
//! On top: [`play_pairings`] plays game pairs (one opening, each agent first once) for any
//! list of pairings, the unit of matches, tournaments and training's evaluation;
//! [`opening_positions`] makes the openings; [`RecordWriter`] saves games as record files with
//! readable game records beside.
//!
//! Files: this one the pool, jobs and openings; `pairs` game pairs and their tallies;
//! `records` the record files.

use crate::adjudication::Adjudication;
use crate::agent::{AgentError, AgentSpec, CheckpointLoader, EvaluatorSpec, build_evaluator};
use crate::config::SearchConfig;
use crate::driver::{
    Agent, AgentKind, EngineOptions, GameJob, Progress, RunError, Seating, Seats, play_games,
};
use crate::evaluator::{EvalError, Evaluation, Evaluator, Leaf};
use crate::record::{GameRecord, RecordError};
use crate::stats::{Pentanomial, Wdl};
use crumble_core::GameText;
use crumble_core::{GameState, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

pub use crate::driver::Flow;
pub use crate::evaluator::mix;
pub use pairs::{PairOutcome, PairSettings, Pairing, Tally, play_match, play_pairings, points};
pub use records::RecordWriter;

mod pairs;
mod records;

/// Why evaluation games could not be played or saved.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    #[error(transparent)]
    Agent(#[from] AgentError),
    #[error("{what}: {error}")]
    Run { what: String, error: RunError },
    #[error("job {job} names agent {agent}, but the pool has {agents}")]
    BadJob {
        job: usize,
        agent: usize,
        agents: usize,
    },
    #[error("{0}")]
    Sink(Box<dyn std::error::Error + Send + Sync>),
    #[error(transparent)]
    Record(#[from] RecordError),
    /// (The I/O error is part of the message, not a `source`: error chains would repeat it.)
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("openings: {0}")]
    Openings(String),
}

/// Sizes rayon's global pool, where the engine's tree work runs; fails if the pool was
/// built already.
pub fn set_global_threads(threads: usize) -> Result<(), String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------------------
// Agents and jobs.

/// Network batches and the positions in them, over every checkpoint agent of a pool.
#[derive(Debug, Default)]
struct BatchCounts {
    batches: AtomicU64,
    positions: AtomicU64,
}

/// An evaluator several agents use (each agent of the engine owns its evaluator).
type SharedEvaluator<G> = Arc<Mutex<Box<dyn Evaluator<G>>>>;

/// One checkpoint's network, shared by the agents that name it.
#[derive(Debug)]
struct SharedNet<G: GameState> {
    net: SharedEvaluator<G>,
    counts: Arc<BatchCounts>,
}

impl<G: GameState> Evaluator<G> for SharedNet<G> {
    fn name(&self) -> String {
        self.net.lock().unwrap_or_else(|p| p.into_inner()).name()
    }
    fn evaluate(
        &mut self,
        leaves: &[Leaf<'_, G>],
        out: &mut [Evaluation],
    ) -> Result<(), EvalError> {
        self.counts.batches.fetch_add(1, Ordering::Relaxed);
        self.counts
            .positions
            .fetch_add(leaves.len() as u64, Ordering::Relaxed);
        self.net
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .evaluate(leaves, out)
    }
}

/// Agents ready to play: their specs, search settings and evaluators (each checkpoint file
/// loaded once, shared by every agent that names it).
#[derive(Debug)]
pub struct Pool<G: GameState> {
    specs: Vec<AgentSpec>,
    agents: Mutex<Vec<Agent<G>>>,
    counts: Arc<BatchCounts>,
}

impl<G: GameText> Pool<G> {
    /// Builds the pool; every checkpoint is loaded now, so a missing or broken one fails
    /// before any game. `config` is used as is (pass [`SearchConfig::for_play`] for matches).
    pub fn new(
        specs: &[AgentSpec],
        config: &SearchConfig,
        loader: &dyn CheckpointLoader<G>,
    ) -> Result<Pool<G>, AgentError> {
        let counts = Arc::new(BatchCounts::default());
        let mut nets: Vec<(PathBuf, SharedEvaluator<G>)> = Vec::new();
        let mut agents = Vec::with_capacity(specs.len());
        for (agent, full_spec) in specs.iter().enumerate() {
            let name = full_spec.to_string();
            let (spec, book) = crate::book::open_agent::<G>(full_spec)?;
            let spec = &spec;
            if *spec == AgentSpec::Solver {
                let mut solver = crate::selfplay::solver_agent()?;
                solver.name = name;
                solver.book = book;
                agents.push(solver);
                continue;
            }
            let AgentSpec::Mcts { evaluator, .. } = spec else {
                agents.push(Agent {
                    name,
                    kind: AgentKind::Random,
                    book,
                });
                continue;
            };
            let evaluator: Box<dyn Evaluator<G>> = match evaluator {
                EvaluatorSpec::Checkpoint(path) => {
                    let net = match nets.iter().find(|(p, _)| p == path) {
                        Some((_, net)) => net.clone(),
                        None => {
                            let e = build_evaluator(spec, config, 0, loader)?
                                .expect("a checkpoint agent has an evaluator");
                            let net = Arc::new(Mutex::new(e));
                            nets.push((path.clone(), net.clone()));
                            net
                        }
                    };
                    Box::new(SharedNet {
                        net,
                        counts: counts.clone(),
                    })
                }
                _ => build_evaluator(spec, config, mix(agent as u64 + 1), loader)?
                    .expect("a search agent has an evaluator"),
            };
            agents.push(Agent {
                name,
                kind: AgentKind::Mcts {
                    evaluator,
                    simulations: spec.simulations(config).unwrap_or(config.simulations),
                    config: config.clone(),
                },
                book,
            });
        }
        Ok(Pool {
            specs: specs.to_vec(),
            agents: Mutex::new(agents),
            counts,
        })
    }
}

impl<G: GameState> Pool<G> {
    pub fn len(&self) -> usize {
        self.specs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.specs.is_empty()
    }

    pub fn spec(&self, agent: usize) -> &AgentSpec {
        &self.specs[agent]
    }

    /// Gives search agent `agent` its own search settings (a match of two settings of the
    /// search); its simulations stay its spec's. Other agents are left as they are.
    pub fn set_search(&self, agent: usize, search: &SearchConfig) {
        let mut agents = self.agents.lock().unwrap_or_else(|e| e.into_inner());
        if let AgentKind::Mcts { config, .. } = &mut agents[agent].kind {
            *config = search.clone();
        }
    }

    /// Network batches evaluated so far and the positions in them (checkpoint agents only).
    pub fn batch_stats(&self) -> (u64, u64) {
        (
            self.counts.batches.load(Ordering::Relaxed),
            self.counts.positions.load(Ordering::Relaxed),
        )
    }
}

/// A few games from one start: `games` are game numbers (they seed the games, and with
/// [`Seating::Alternate`] agent 0 is the first player in the even ones).
#[derive(Clone, Debug)]
pub struct Job<G> {
    /// Indices into the pool: one agent for [`Seating::SelfPlay`], two for
    /// [`Seating::Alternate`].
    pub agents: Vec<usize>,
    pub seating: Seating,
    pub start: G,
    /// Turn limit, counted from `start` (0 = none).
    pub max_turns: u32,
    /// Stop each game after this many turns (0 = play it out; see
    /// [`crate::driver::GameJob::stop_after_turns`]).
    pub stop_after_turns: u32,
    pub games: Range<u64>,
    /// Seed of the games' random streams (with the game numbers).
    pub seed: u64,
}

/// Totals of a [`run_jobs`] call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunTotals {
    /// Jobs handed to the callback.
    pub jobs: usize,
    pub games: u64,
    pub simulations: u64,
    pub evaluations: u64,
}

/// The games of all `jobs` as one queue for the engine, with the job of each game; refuses
/// a job with an agent outside `pool` or the wrong number of agents for its seating.
fn game_queue<G: GameState>(
    pool: &Pool<G>,
    jobs: &[Job<G>],
) -> Result<(Vec<GameJob<G>>, Vec<usize>), ArenaError> {
    let mut games = Vec::new();
    // The job of each game of the queue.
    let mut owner = Vec::new();
    for (k, job) in jobs.iter().enumerate() {
        let need = if job.seating == Seating::SelfPlay {
            1
        } else {
            2
        };
        if let Some(&agent) = job.agents.iter().find(|&&a| a >= pool.len()) {
            return Err(ArenaError::BadJob {
                job: k,
                agent,
                agents: pool.len(),
            });
        }
        if job.agents.len() != need {
            return Err(ArenaError::Run {
                what: format!("job {k}"),
                error: RunError::Players {
                    seating: job.seating,
                    need,
                    got: job.agents.len(),
                },
            });
        }
        for index in job.games.clone() {
            let seats = match job.seating {
                Seating::SelfPlay => Seats::SelfPlay(job.agents[0]),
                Seating::Alternate if index % 2 == 0 => Seats::Match {
                    first: job.agents[0],
                    second: job.agents[1],
                },
                Seating::Alternate => Seats::Match {
                    first: job.agents[1],
                    second: job.agents[0],
                },
            };
            games.push(GameJob {
                start: job.start.clone(),
                seats,
                index,
                max_turns: job.max_turns,
                seed: job.seed,
                stop_after_turns: job.stop_after_turns,
            });
            owner.push(k);
        }
    }
    Ok((games, owner))
}

/// Runs the games of all `jobs` on the engine, `concurrency` at once, and hands each job's
/// games (by game number) to `on_job` in job order. Stops early when `on_job` says
/// [`Flow::Stop`] or fails.
pub fn run_jobs<G: GameState>(
    pool: &Pool<G>,
    jobs: &[Job<G>],
    concurrency: usize,
    on_job: &mut dyn FnMut(usize, Vec<GameRecord>) -> Result<Flow, ArenaError>,
) -> Result<RunTotals, ArenaError> {
    run_adjudicated(
        pool,
        jobs,
        &vec![0; jobs.len()],
        concurrency,
        Adjudication::default(),
        on_job,
        &mut |_| {},
    )
}

/// [`run_jobs`] whose games end early as `adjudication` says, calling `on_round` with the
/// engine's progress after every round of moves (games finished out of order included).
/// Jobs are handed over in order within each lane (`lanes[j]`: job `j`'s), the lanes' jobs
/// interleaved as they finish: a slow job holds back only the later jobs of its own lane.
fn run_adjudicated<G: GameState>(
    pool: &Pool<G>,
    jobs: &[Job<G>],
    lanes: &[usize],
    concurrency: usize,
    adjudication: Adjudication,
    on_job: &mut dyn FnMut(usize, Vec<GameRecord>) -> Result<Flow, ArenaError>,
    on_round: &mut dyn FnMut(&Progress),
) -> Result<RunTotals, ArenaError> {
    let (games, owner) = game_queue(pool, jobs)?;
    let mut totals = RunTotals::default();
    let mut done: BTreeMap<usize, Vec<GameRecord>> = BTreeMap::new();
    // Each lane's next job to hand over, and each job's successor in its lane (NONE: none).
    const NONE: usize = usize::MAX;
    let mut due = vec![NONE; lanes.iter().max().map_or(0, |&m| m + 1)];
    let mut next = vec![NONE; jobs.len()];
    let mut last = due.clone();
    for (j, &lane) in lanes.iter().enumerate() {
        match last[lane] {
            NONE => due[lane] = j,
            before => next[before] = j,
        }
        last[lane] = j;
    }
    let mut failure: Option<ArenaError> = None;
    let mut agents = pool.agents.lock().unwrap_or_else(|p| p.into_inner());
    let opts = EngineOptions {
        parallel_games: concurrency.max(1),
        record_targets: false,
        adjudication,
    };
    let progress = play_games(
        &mut agents,
        games,
        &opts,
        &mut |g, record| {
            let k = owner[g];
            let finished = done.entry(k).or_default();
            finished.push(record);
            // Hand over every job of this lane that is complete and next in order.
            let lane = lanes[k];
            while let Some(records) = done.get(&due[lane]) {
                let j = due[lane];
                if records.len() as u64 != jobs[j].games.end - jobs[j].games.start {
                    break;
                }
                let mut records = done.remove(&j).unwrap_or_default();
                records.sort_by_key(|r| r.index);
                totals.jobs += 1;
                totals.games += records.len() as u64;
                due[lane] = next[j];
                match on_job(j, records) {
                    Ok(Flow::Continue) => {}
                    Ok(Flow::Stop) => return Ok(Flow::Stop),
                    Err(e) => {
                        failure = Some(e);
                        return Ok(Flow::Stop);
                    }
                }
            }
            Ok(Flow::Continue)
        },
        on_round,
    )
    .map_err(|error| ArenaError::Run {
        what: format!("{} jobs", jobs.len()),
        error,
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    totals.simulations = progress.simulations;
    totals.evaluations = progress.evaluations;
    Ok(totals)
}

// ---------------------------------------------------------------------------------------
// Openings.

/// Where the game pairs of a match start.
#[derive(Clone, Debug)]
pub enum Openings<G> {
    /// Every pair from the standard start (near-deterministic agents then repeat one game).
    Standard,
    /// Each pair from its own position after this many random turns (random play as the
    /// game defines it) from the standard start.
    RandomTurns(u32),
    /// Positions given by the caller, used in order, round and round.
    List(Vec<G>),
}

/// The start position of each of `count` game pairs. Random openings are drawn from
/// `seed` and the pair number; an opening that ends the game, or that leaves the player to
/// move a win at once (by the game's exact one-turn lookahead, when it has one), is drawn
/// again (it would decide the pair, not the agents). Positions go through the game's start
/// specification, so a game starts exactly from what its record stores.
pub fn opening_positions<G: GameState>(
    standard: &G,
    openings: &Openings<G>,
    count: u64,
    seed: u64,
) -> Result<Vec<G>, ArenaError> {
    let mut out = Vec::with_capacity(count as usize);
    match openings {
        Openings::Standard => out.resize(count as usize, standard.clone()),
        Openings::List(list) => {
            if list.is_empty() && count > 0 {
                return Err(ArenaError::Openings("the opening list is empty".into()));
            }
            for (i, g) in list.iter().enumerate() {
                if g.is_over() {
                    return Err(ArenaError::Openings(format!(
                        "opening {} is a finished game",
                        i + 1
                    )));
                }
            }
            out.extend((0..count as usize).map(|i| list[i % list.len()].clone()));
        }
        Openings::RandomTurns(turns) => {
            let mut check = G::WinCheck::default();
            for pair in 0..count {
                let mut found = None;
                for attempt in 0..1000u64 {
                    let mut rng = ChaCha8Rng::seed_from_u64(mix(seed ^ mix(pair) ^ attempt));
                    let mut g = standard.clone();
                    for _ in 0..*turns {
                        g.play_random_turn(&mut rng);
                        if g.is_over() {
                            break;
                        }
                    }
                    if g.is_over() || g.win_this_turn(&mut check).is_some() {
                        continue;
                    }
                    found = Some(
                        G::from_start(&g.to_start())
                            .map_err(|e| ArenaError::Openings(e.to_string()))?,
                    );
                    break;
                }
                out.push(found.ok_or_else(|| {
                    ArenaError::Openings(format!(
                        "no playable position after {turns} random turns in 1000 tries"
                    ))
                })?);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::NoCheckpoints;
    use crumble_core::games::tictactoe::TicTacToe;

    #[test]
    fn an_agent_gets_its_own_search_settings_and_keeps_its_simulations() {
        let specs = [
            AgentSpec::parse("mcts:uniform:4").unwrap(),
            AgentSpec::parse("mcts:uniform:8").unwrap(),
        ];
        let play = SearchConfig::default().for_play();
        let pool = Pool::<TicTacToe>::new(&specs, &play, &NoCheckpoints).unwrap();
        let mut lcb = play.clone();
        lcb.lcb.enabled = true;
        pool.set_search(1, &lcb);
        let agents = pool.agents.lock().unwrap();
        let settings = |k: usize| match &agents[k].kind {
            AgentKind::Mcts {
                config,
                simulations,
                ..
            } => (config.lcb.enabled, *simulations),
            _ => panic!("a search agent"),
        };
        assert_eq!(settings(0), (false, 4));
        assert_eq!(settings(1), (true, 8));
    }
}
