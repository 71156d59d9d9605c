//! Evaluation games: many agents, many start positions, many games at once, with the network
//! calls of all games batched.
//!
//! The batched driver ([`crate::driver::run_games`]) plays many games from **one** start
//! position. Fair matches need a different start for every game pair, and tactics tests a
//! different position for every game, so this module runs many driver calls at once:
//!
//! * A [`Job`] is one driver call: a start position, its agents and seating, a few games
//!   (a game pair in a match, one game in a tactics test).
//! * [`run_jobs`] runs jobs on *lanes*, threads that each play one job at a time; as many
//!   lanes run as the concurrency asks for (`concurrency / games per job`). Tree work inside
//!   a lane goes to the rayon pool as usual.
//! * Checkpoint agents are loaded **once** ([`Pool::new`]) into a shared *hub*. A lane's
//!   network requests go to the hub, which waits until every lane that is playing a
//!   checkpoint agent has a request in (or has finished its job), then evaluates all of them,
//!   per network, in one batch: the same "one batch per round" as the driver, across lanes.
//!   Uniform and rollout agents need no batching and get a fresh evaluator per job.
//!
//! Results come back **in job order** whatever the lane timing, and every job's games
//! depend only on its start, agents, game numbers and seed: without checkpoint agents the
//! same settings give the same games at any concurrency. (With checkpoint agents, the
//! network sees timing-dependent batch compositions; its outputs per position are the same up
//! to floating-point rounding.)
//!
//! On top: [`play_pairings`] plays game pairs (one opening, each agent Black once) for any
//! list of pairings, the unit of matches and tournaments; [`opening_positions`] makes the
//! openings; [`RecordWriter`] saves games as record files with readable game records beside.

use crate::agent::{AgentError, AgentSpec, CheckpointLoader, EvaluatorSpec, build_evaluator};
use crate::config::SearchConfig;
use crate::driver::{Player, PlayerKind, Progress, RunError, RunOptions, Seating, run_games};
use crate::evaluator::{
    EvalError, Evaluation, Evaluator, Leaf, RolloutEvaluator, UniformEvaluator,
};
use crate::record::{GameRecord, RecordError, write_file};
use crate::stats::{Pentanomial, Wdl};
use crumble_core::solve::Solver;
use crumble_core::{Color, Decision, Game, position, random};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, mpsc};

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
    #[error("a lane thread panicked: {0}")]
    Panic(String),
}

/// Sizes rayon's global pool, where the tree work of every lane runs; fails if the pool was
/// built already.
pub fn set_global_threads(threads: usize) -> Result<(), String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| e.to_string())
}

/// SplitMix64 finaliser: decorrelates seeds derived from counters.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

// ---------------------------------------------------------------------------------------
// The hub: checkpoint evaluations of all lanes in one batch per network.

/// One lane's evaluation request: copies of its leaves (the lane waits while they are
/// evaluated, but its borrowed leaves cannot cross threads without copies).
struct Request {
    ticket: u64,
    leaves: Vec<(Game, Vec<Decision>)>,
}

struct HubState {
    evaluators: Vec<Box<dyn Evaluator>>,
    queues: Vec<Vec<Request>>,
    results: HashMap<u64, Result<Vec<Evaluation>, String>>,
    /// Lanes currently playing a job with a checkpoint agent.
    registered: usize,
    /// Of those, lanes waiting for an evaluation.
    waiting: usize,
    flushes: u64,
    next_ticket: u64,
    batches: u64,
    positions: u64,
}

struct Hub {
    state: Mutex<HubState>,
    cv: Condvar,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Hub")
    }
}

impl Hub {
    fn lock(&self) -> MutexGuard<'_, HubState> {
        // A panic while the lock is held is caught inside `flush`; the state stays usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn register(self: &Arc<Hub>) -> Lease {
        self.lock().registered += 1;
        Lease { hub: self.clone() }
    }

    /// Evaluates every queued request, per network, in one batch each. Runs with the lock
    /// held, while every registered lane waits.
    fn flush(st: &mut HubState) {
        for slot in 0..st.queues.len() {
            let queue = std::mem::take(&mut st.queues[slot]);
            if queue.is_empty() {
                continue;
            }
            let leaves: Vec<Leaf<'_>> = queue
                .iter()
                .flat_map(|r| r.leaves.iter())
                .map(|(game, legal)| Leaf { game, legal })
                .collect();
            let mut outs = vec![Evaluation::default(); leaves.len()];
            let evaluator = &mut st.evaluators[slot];
            // A panicking network must not leave the other lanes waiting forever.
            let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                evaluator.evaluate(&leaves, &mut outs)
            }));
            let res: Result<(), String> = match res {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(e.to_string()),
                Err(p) => Err(format!("evaluator panicked: {}", panic_text(&p))),
            };
            st.batches += 1;
            st.positions += leaves.len() as u64;
            drop(leaves);
            let mut rest = outs.into_iter();
            for r in queue {
                let part: Vec<Evaluation> = rest.by_ref().take(r.leaves.len()).collect();
                st.results.insert(r.ticket, res.clone().map(|()| part));
            }
        }
        st.waiting = 0;
        st.flushes += 1;
    }

    fn evaluate(
        &self,
        slot: usize,
        name: &str,
        leaves: &[Leaf<'_>],
        out: &mut [Evaluation],
    ) -> Result<(), EvalError> {
        let leaves: Vec<(Game, Vec<Decision>)> = leaves
            .iter()
            .map(|l| (l.game.clone(), l.legal.to_vec()))
            .collect();
        let mut st = self.lock();
        let ticket = st.next_ticket;
        st.next_ticket += 1;
        st.queues[slot].push(Request { ticket, leaves });
        st.waiting += 1;
        if st.waiting >= st.registered {
            Hub::flush(&mut st);
            self.cv.notify_all();
        } else {
            let seen = st.flushes;
            while st.flushes == seen {
                st = self.cv.wait(st).unwrap_or_else(|p| p.into_inner());
            }
        }
        let res = st.results.remove(&ticket);
        drop(st);
        match res {
            Some(Ok(evals)) => {
                for (o, e) in out.iter_mut().zip(evals) {
                    *o = e;
                }
                Ok(())
            }
            Some(Err(message)) => Err(EvalError::Failed {
                evaluator: name.into(),
                message,
            }),
            None => Err(EvalError::Failed {
                evaluator: name.into(),
                message: "evaluation lost by the batching hub".into(),
            }),
        }
    }
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

/// A lane's registration with the hub for the duration of one job.
struct Lease {
    hub: Arc<Hub>,
}

impl Drop for Lease {
    fn drop(&mut self) {
        let mut st = self.hub.lock();
        st.registered -= 1;
        // The lanes still waiting may have been waiting for this one.
        if st.waiting > 0 && st.waiting >= st.registered {
            Hub::flush(&mut st);
            self.hub.cv.notify_all();
        }
    }
}

/// The evaluator a lane's checkpoint player uses: a handle on the hub's network `slot`.
#[derive(Debug)]
struct HubEvaluator {
    hub: Arc<Hub>,
    slot: usize,
    name: String,
}

impl Evaluator for HubEvaluator {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn evaluate(&mut self, leaves: &[Leaf<'_>], out: &mut [Evaluation]) -> Result<(), EvalError> {
        self.hub.evaluate(self.slot, &self.name, leaves, out)
    }
}

// ---------------------------------------------------------------------------------------
// Agents and jobs.

/// Agents ready to play: their specs, search settings, and the networks of checkpoint agents
/// (each checkpoint file loaded once, shared by every agent that names it).
#[derive(Debug)]
pub struct Pool {
    specs: Vec<AgentSpec>,
    config: SearchConfig,
    hub: Option<Arc<Hub>>,
    slot: Vec<Option<usize>>,
}

impl Pool {
    /// Builds the pool; every checkpoint is loaded now, so a missing or broken one fails
    /// before any game. `config` is used as is (pass [`SearchConfig::for_play`] for matches).
    pub fn new(
        specs: &[AgentSpec],
        config: &SearchConfig,
        loader: &dyn CheckpointLoader,
    ) -> Result<Pool, AgentError> {
        let mut evaluators: Vec<Box<dyn Evaluator>> = Vec::new();
        let mut paths: Vec<PathBuf> = Vec::new();
        let mut slot = Vec::new();
        for spec in specs {
            if let AgentSpec::Mcts {
                evaluator: EvaluatorSpec::Checkpoint(p),
                ..
            } = spec
            {
                if let Some(k) = paths.iter().position(|q| q == p) {
                    slot.push(Some(k));
                    continue;
                }
                let e = build_evaluator(spec, config, 0, loader)?
                    .expect("a checkpoint agent has an evaluator");
                paths.push(p.clone());
                evaluators.push(e);
                slot.push(Some(paths.len() - 1));
            } else {
                slot.push(None);
            }
        }
        let hub = (!evaluators.is_empty()).then(|| {
            let n = evaluators.len();
            Arc::new(Hub {
                state: Mutex::new(HubState {
                    evaluators,
                    queues: (0..n).map(|_| Vec::new()).collect(),
                    results: HashMap::new(),
                    registered: 0,
                    waiting: 0,
                    flushes: 0,
                    next_ticket: 0,
                    batches: 0,
                    positions: 0,
                }),
                cv: Condvar::new(),
            })
        });
        Ok(Pool {
            specs: specs.to_vec(),
            config: config.clone(),
            hub,
            slot,
        })
    }

    pub fn len(&self) -> usize {
        self.specs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.specs.is_empty()
    }

    pub fn spec(&self, agent: usize) -> &AgentSpec {
        &self.specs[agent]
    }

    /// Network batches evaluated so far and the positions in them (checkpoint agents only).
    pub fn batch_stats(&self) -> (u64, u64) {
        self.hub.as_ref().map_or((0, 0), |h| {
            let st = h.lock();
            (st.batches, st.positions)
        })
    }

    fn player(&self, agent: usize, seed: u64) -> Player {
        let spec = &self.specs[agent];
        let name = spec.to_string();
        let AgentSpec::Mcts { evaluator, .. } = spec else {
            return Player {
                name,
                kind: PlayerKind::Random,
            };
        };
        let evaluator: Box<dyn Evaluator> = match (evaluator, self.slot[agent], &self.hub) {
            (EvaluatorSpec::Uniform, ..) => Box::new(UniformEvaluator),
            (EvaluatorSpec::Rollout, ..) => Box::new(RolloutEvaluator::new(
                self.config.rollout.clone(),
                mix(seed ^ (agent as u64 + 1)),
            )),
            (EvaluatorSpec::Checkpoint(_), Some(slot), Some(hub)) => Box::new(HubEvaluator {
                hub: hub.clone(),
                slot,
                name: name.clone(),
            }),
            (EvaluatorSpec::Checkpoint(_), ..) => unreachable!("checkpoints are loaded in new()"),
        };
        Player {
            kind: PlayerKind::Mcts {
                evaluator,
                simulations: spec
                    .simulations(&self.config)
                    .unwrap_or(self.config.simulations),
                config: self.config.clone(),
            },
            name,
        }
    }

    fn uses_hub(&self, agents: &[usize]) -> bool {
        agents.iter().any(|&a| self.slot[a].is_some())
    }
}

/// One driver call: `games` (game numbers: they seed the games, and with
/// [`Seating::Alternate`] agent 0 is Black in the even ones) from `start`.
#[derive(Clone, Debug)]
pub struct Job {
    /// Indices into the pool: one agent for [`Seating::SelfPlay`], two for
    /// [`Seating::Alternate`].
    pub agents: Vec<usize>,
    pub seating: Seating,
    pub start: Game,
    /// Turn limit, counted from `start` (0 = none).
    pub max_turns: u32,
    /// Stop each game after this many turns (0 = play it out; see
    /// [`crate::driver::GameJob::stop_after_turns`]).
    pub stop_after_turns: u32,
    pub games: Range<u64>,
    /// Seed of the games' random streams (with the game numbers) and of rollouts.
    pub seed: u64,
}

/// What to do after a finished job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// Start no more jobs; jobs still running are finished and dropped.
    Stop,
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

type JobResult = Result<(Vec<GameRecord>, Progress), RunError>;

/// Runs `jobs` on lanes (about `concurrency` games at once) and hands each job's games to
/// `on_job` in job order. Stops early when `on_job` says [`Flow::Stop`] or fails.
pub fn run_jobs(
    pool: &Pool,
    jobs: &[Job],
    concurrency: usize,
    on_job: &mut dyn FnMut(usize, Vec<GameRecord>) -> Result<Flow, ArenaError>,
) -> Result<RunTotals, ArenaError> {
    for (k, job) in jobs.iter().enumerate() {
        if let Some(&agent) = job.agents.iter().find(|&&a| a >= pool.len()) {
            return Err(ArenaError::BadJob {
                job: k,
                agent,
                agents: pool.len(),
            });
        }
    }
    let mut totals = RunTotals::default();
    if jobs.is_empty() {
        return Ok(totals);
    }
    let per_job = (jobs
        .iter()
        .map(|j| j.games.end.saturating_sub(j.games.start))
        .sum::<u64>() as usize)
        .div_ceil(jobs.len())
        .max(1);
    let lanes = concurrency.max(1).div_ceil(per_job).clamp(1, jobs.len());
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, JobResult)>();
    let mut failure: Option<ArenaError> = None;
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for _ in 0..lanes {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            handles.push(scope.spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = jobs.get(k) else { break };
                    let result = run_one(pool, job);
                    if tx.send((k, result)).is_err() {
                        break;
                    }
                }
            }));
        }
        drop(tx);
        let mut pending: BTreeMap<usize, JobResult> = BTreeMap::new();
        let mut due = 0usize;
        for (k, res) in rx {
            if failure.is_some() || stop.load(Ordering::SeqCst) {
                continue;
            }
            pending.insert(k, res);
            while let Some(res) = pending.remove(&due) {
                let job = &jobs[due];
                let outcome = match res {
                    Ok((records, progress)) => {
                        totals.jobs += 1;
                        totals.games += records.len() as u64;
                        totals.simulations += progress.simulations;
                        totals.evaluations += progress.evaluations;
                        on_job(due, records)
                    }
                    Err(error) => Err(ArenaError::Run {
                        what: format!(
                            "games {}..{} ({})",
                            job.games.start,
                            job.games.end,
                            job.agents
                                .iter()
                                .map(|&a| pool.spec(a).to_string())
                                .collect::<Vec<_>>()
                                .join(" vs ")
                        ),
                        error,
                    }),
                };
                due += 1;
                match outcome {
                    Ok(Flow::Continue) => {}
                    Ok(Flow::Stop) => {
                        stop.store(true, Ordering::SeqCst);
                        break;
                    }
                    Err(e) => {
                        stop.store(true, Ordering::SeqCst);
                        failure = Some(e);
                        break;
                    }
                }
            }
        }
        for h in handles {
            if let Err(p) = h.join() {
                failure.get_or_insert(ArenaError::Panic(panic_text(&p)));
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(totals),
    }
}

fn run_one(pool: &Pool, job: &Job) -> JobResult {
    let mut players: Vec<Player> = job
        .agents
        .iter()
        .map(|&a| pool.player(a, mix(job.seed ^ mix(job.games.start))))
        .collect();
    let _lease = match (&pool.hub, pool.uses_hub(&job.agents)) {
        (Some(hub), true) => Some(hub.register()),
        _ => None,
    };
    let opts = RunOptions {
        start: job.start.clone(),
        max_turns: job.max_turns,
        parallel_games: (job.games.end.saturating_sub(job.games.start) as usize).max(1),
        seed: job.seed,
        record_targets: false,
        stop_after_turns: job.stop_after_turns,
    };
    let mut records = Vec::new();
    let progress = run_games(
        &mut players,
        job.seating,
        &opts,
        job.games.clone(),
        &mut |g| {
            records.push(g);
            Ok(())
        },
        &mut |_| {},
    )?;
    records.sort_by_key(|g| g.index);
    Ok((records, progress))
}

// ---------------------------------------------------------------------------------------
// Openings.

/// Where the game pairs of a match start.
#[derive(Clone, Debug)]
pub enum Openings {
    /// Every pair from the standard start (near-deterministic agents then repeat one game).
    Standard,
    /// Each pair from its own position after this many random turns (random play as
    /// `DESIGN.md` defines it) from the standard start.
    RandomTurns(u32),
    /// Positions given by the caller, used in order, round and round.
    List(Vec<Game>),
}

/// The start position of each of `count` game pairs. Random openings are drawn from
/// `seed` and the pair number; an opening that ends the game, or that leaves the player to
/// move a win at once, is drawn again (it would decide the pair, not the agents). Positions
/// go through position JSON, so a game starts exactly from what its record stores.
pub fn opening_positions(
    board: u16,
    resolution: u16,
    openings: &Openings,
    count: u64,
    seed: u64,
) -> Result<Vec<Game>, ArenaError> {
    let standard = Game::new(board, resolution).map_err(|e| ArenaError::Openings(e.to_string()))?;
    let mut out = Vec::with_capacity(count as usize);
    match openings {
        Openings::Standard => out.resize(count as usize, standard),
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
            let mut solver = Solver::new();
            for pair in 0..count {
                let mut found = None;
                for attempt in 0..1000u64 {
                    let mut rng = ChaCha8Rng::seed_from_u64(mix(seed ^ mix(pair) ^ attempt));
                    let mut g = standard.clone();
                    for _ in 0..*turns {
                        random::play_random_turn(&mut g, &mut rng);
                        if g.is_over() {
                            break;
                        }
                    }
                    if g.is_over() || solver.find_win(&g).is_some() {
                        continue;
                    }
                    found = Some(
                        position::from_json(&position::to_json(&g))
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

// ---------------------------------------------------------------------------------------
// Game pairs.

/// Two pool agents; `a` is Black in the first game of every pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub a: usize,
    pub b: usize,
}

/// Settings of [`play_pairings`].
#[derive(Clone, Debug)]
pub struct PairSettings {
    /// Game pairs per pairing.
    pub pairs: u64,
    /// Turn limit of every game, counted from its opening (0 = none).
    pub max_turns: u32,
    /// Games at once.
    pub concurrency: usize,
    pub seed: u64,
    /// Number of the first game (keep it even: agent A is Black in the even-numbered games);
    /// pair `p` of every pairing plays games `first_game + 2p` and the next, so a pairing's
    /// games do not depend on the other pairings played with it.
    pub first_game: u64,
}

/// A finished game pair.
#[derive(Clone, Debug)]
pub struct PairOutcome {
    /// Index into the pairings.
    pub pairing: usize,
    /// Pair number within the pairing.
    pub pair: u64,
    /// The two games: A Black in the first, White in the second.
    pub games: [GameRecord; 2],
    /// A's points in each game (1, 1/2 or 0).
    pub a_points: [f64; 2],
    /// Was A Black in each game (yes in the first, no in the second)?
    pub a_black: [bool; 2],
    /// Turns played in each game.
    pub turns: [u32; 2],
}

/// A's points in a game where A played `a_color`.
pub fn points(winner: Option<Color>, a_color: Color) -> f64 {
    match winner {
        None => 0.5,
        Some(w) if w == a_color => 1.0,
        Some(_) => 0.0,
    }
}

/// Plays `settings.pairs` game pairs for every pairing, pair `p` of every pairing from
/// `openings[p]`, and hands each finished pair to `on_pair` (in order: pairing by pairing,
/// pair by pair). Pairings listed in `skip` are not played.
pub fn play_pairings(
    pool: &Pool,
    pairings: &[Pairing],
    skip: &[usize],
    openings: &[Game],
    settings: &PairSettings,
    on_pair: &mut dyn FnMut(&PairOutcome) -> Result<Flow, ArenaError>,
) -> Result<RunTotals, ArenaError> {
    if (openings.len() as u64) < settings.pairs {
        return Err(ArenaError::Openings(format!(
            "{} openings for {} game pairs",
            openings.len(),
            settings.pairs
        )));
    }
    let mut jobs = Vec::new();
    let mut keys = Vec::new();
    for (k, pg) in pairings.iter().enumerate() {
        if skip.contains(&k) {
            continue;
        }
        for p in 0..settings.pairs {
            let first = settings.first_game + 2 * p;
            jobs.push(Job {
                agents: vec![pg.a, pg.b],
                seating: Seating::Alternate,
                start: openings[p as usize].clone(),
                max_turns: settings.max_turns,
                stop_after_turns: 0,
                games: first..first + 2,
                seed: settings.seed,
            });
            keys.push((k, p));
        }
    }
    run_jobs(pool, &jobs, settings.concurrency, &mut |j, records| {
        let (pairing, pair) = keys[j];
        let [g0, g1]: [GameRecord; 2] = records.try_into().map_err(|v: Vec<GameRecord>| {
            ArenaError::Openings(format!("a game pair returned {} games", v.len()))
        })?;
        let mut turns = [0u32; 2];
        for (t, g) in turns.iter_mut().zip([&g0, &g1]) {
            *t = g.replay()?.turns_played();
        }
        // With alternating seats, agent A (player 0) is Black in the even-numbered games.
        let a_black = [g0.index % 2 == 0, g1.index % 2 == 0];
        let color = |black: bool| if black { Color::Black } else { Color::White };
        let out = PairOutcome {
            pairing,
            pair,
            a_points: [
                points(g0.outcome.winner, color(a_black[0])),
                points(g1.outcome.winner, color(a_black[1])),
            ],
            a_black,
            games: [g0, g1],
            turns,
        };
        on_pair(&out)
    })
}

/// Running totals of one pairing, from A's side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// A's wins as Black and as White.
    pub a_wins_black: u64,
    pub a_wins_white: u64,
    /// Games won by the Black side (either agent): the first-move advantage.
    pub black_wins: u64,
    pub white_wins: u64,
    pub turns: u64,
}

impl Tally {
    pub fn add(&mut self, pair: &PairOutcome) {
        for (i, &pts) in pair.a_points.iter().enumerate() {
            let a_black = pair.a_black[i];
            if pts == 1.0 {
                self.wdl.wins += 1;
                if a_black {
                    self.a_wins_black += 1;
                } else {
                    self.a_wins_white += 1;
                }
            } else if pts == 0.0 {
                self.wdl.losses += 1;
            } else {
                self.wdl.draws += 1;
            }
            match pair.games[i].outcome.winner {
                Some(Color::Black) => self.black_wins += 1,
                Some(Color::White) => self.white_wins += 1,
                None => {}
            }
            self.turns += u64::from(pair.turns[i]);
        }
        self.penta.add(pair.a_points[0], pair.a_points[1]);
    }

    pub fn mean_turns(&self) -> f64 {
        let n = self.wdl.games();
        if n == 0 {
            0.0
        } else {
            self.turns as f64 / n as f64
        }
    }
}

// ---------------------------------------------------------------------------------------
// Saving games.

/// Writes finished games as `PREFIX-NNNNNN.crsp` record files ([`crate::record`]), with the
/// same games as readable game records (`crumble_core::record`, tags `Black`, `White`,
/// `Game` and the start position when it is not the standard one) in `PREFIX-NNNNNN.txt`.
#[derive(Debug)]
pub struct RecordWriter {
    dir: PathBuf,
    prefix: String,
    per_file: usize,
    next_file: u64,
    batch: Vec<(GameRecord, String, String)>,
}

impl RecordWriter {
    /// Creates `dir` if needed. Refuses a directory that already holds `PREFIX-*.crsp` files:
    /// games of two runs would mix.
    pub fn new(dir: &Path, prefix: &str, per_file: usize) -> Result<RecordWriter, ArenaError> {
        let io = |error| ArenaError::Io {
            path: dir.display().to_string(),
            error,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        for e in std::fs::read_dir(dir).map_err(io)? {
            let name = e.map_err(io)?.file_name();
            let name = name.to_string_lossy();
            if name.starts_with(&format!("{prefix}-")) && name.ends_with(".crsp") {
                return Err(ArenaError::Io {
                    path: dir.join(&*name).display().to_string(),
                    error: std::io::Error::new(
                        std::io::ErrorKind::AlreadyExists,
                        "games of an earlier run are here; choose another directory",
                    ),
                });
            }
        }
        Ok(RecordWriter {
            dir: dir.to_path_buf(),
            prefix: prefix.into(),
            per_file: per_file.max(1),
            next_file: 0,
            batch: Vec::new(),
        })
    }

    /// Queues a game with its players' names; writes a file when one is full.
    pub fn push(&mut self, game: GameRecord, black: &str, white: &str) -> Result<(), ArenaError> {
        self.batch.push((game, black.into(), white.into()));
        if self.batch.len() >= self.per_file {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the queued games (if any) to the next file.
    pub fn flush(&mut self) -> Result<(), ArenaError> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let path = self
            .dir
            .join(format!("{}-{:06}.crsp", self.prefix, self.next_file));
        let mut text = String::new();
        for (g, black, white) in &self.batch {
            let mut rec = g.to_game_record()?;
            rec.set_tag("Black", black);
            rec.set_tag("White", white);
            text.push_str(&rec.write());
            text.push('\n');
        }
        let games: Vec<GameRecord> = self.batch.drain(..).map(|(g, ..)| g).collect();
        write_file(&path, &games)?;
        let txt = path.with_extension("txt");
        std::fs::write(&txt, text).map_err(|error| ArenaError::Io {
            path: txt.display().to_string(),
            error,
        })?;
        self.next_file += 1;
        Ok(())
    }
}
