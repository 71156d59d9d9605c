//! The engine that plays games: self-play, matches, tournaments, tactics, openings and
//! training's evaluation all run here.
//!
//! [`play_games`] takes a queue of [`GameJob`]s (a start position, which player sits in
//! which seat, a game number, a turn limit) and plays many at once, each in its own slot with
//! the trees of its seated agents. One round: every slot (in parallel, rayon) feeds in its
//! last evaluation and runs its search until it needs a new one (or plays random, forced and
//! searched decisions until then); then, on the calling thread, the leaves of all slots that
//! wait on one player go to that player's evaluator in **one** batch (after the evaluation
//! cache, keyed by the rules engine's state hash). A finished game leaves as a
//! [`GameRecord`] and its slot pulls the next job. [`run_games`] is the common case: games
//! `0..n` from one start, one seating.
//!
//! Determinism: game `i` draws every random choice from `seed` and `i`, slots are visited
//! in a fixed order, and an evaluator's answer for a leaf depends on the leaf alone (see
//! [`Evaluator`]), so the same seed and settings give the same games whatever the number of
//! threads, the number of games at once, or the other games in the queue.

use crate::adjudication::{Adjudication, Adjudicator};
use crate::config::SearchConfig;
use crate::evaluator::{EvalError, Evaluation, Evaluator, Leaf, mix};
use crate::mcts::{Search, Step};
use crate::record::{Ending, GameRecord, SearchRecord, StepKind, StepRecord};
use crumble_core::game::negamax::Negamax;
use crumble_core::{Decision, GameResult, GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

mod batch;
mod slot;

use batch::{Batch, Cache};
use slot::{Meta, Slot, step_all};

/// One agent at run time: random play, or search with its own evaluator and settings.
#[derive(Debug)]
pub struct Agent<G: GameState> {
    pub name: String,
    pub kind: AgentKind<G>,
    /// Where it takes whole moves from before it plays as `kind` (an opening book).
    pub book: SharedOpening<G>,
}

impl<G: GameState> Agent<G> {
    /// An agent that plays as `kind` from the first move.
    pub fn new(name: impl Into<String>, kind: AgentKind<G>) -> Agent<G> {
        Agent {
            name: name.into(),
            kind,
            book: None,
        }
    }
}

/// An agent's opening source, if it has one.
pub type SharedOpening<G> = Option<Arc<dyn OpeningSource<G>>>;

/// A source of whole moves for some positions, such as an opening book: the agent plays its
/// move at the start of a turn whenever it has one.
pub trait OpeningSource<G>: Send + Sync + std::fmt::Debug {
    /// The move (a turn's decisions, legal in `state`) to play in `state`, at a turn's
    /// start; `None` where the source has none.
    fn turn(&self, state: &G) -> Option<Vec<Decision>>;

    /// [`OpeningSource::turn`], checked by the rules: a move they refuse is not returned.
    fn legal_turn(&self, state: &G) -> Option<Vec<Decision>>
    where
        G: GameState,
    {
        let turn = self.turn(state)?;
        let mut check = state.clone();
        (!turn.is_empty() && turn.iter().all(|&d| check.apply(d).is_ok())).then_some(turn)
    }
}

#[derive(Debug)]
pub enum AgentKind<G: GameState> {
    Random,
    /// Perfect play (exhaustive search), a uniform choice among the best decisions: the
    /// `solver` agent of the small test games.
    Solver,
    Mcts {
        evaluator: Box<dyn Evaluator<G>>,
        simulations: u32,
        config: SearchConfig,
    },
}

/// Who plays which side in one game: indices into the agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seats {
    /// One agent plays both sides with one tree (self-play).
    SelfPlay(usize),
    /// One agent per side: `first` plays the first player (Crumble's Black).
    Match { first: usize, second: usize },
}

impl Seats {
    /// The agent of each side (`[first, second]`).
    fn agents(self) -> [usize; 2] {
        match self {
            Seats::SelfPlay(p) => [p, p],
            Seats::Match { first, second } => [first, second],
        }
    }
}

/// One game for [`play_games`].
#[derive(Clone, Debug)]
pub struct GameJob<G> {
    pub start: G,
    pub seats: Seats,
    /// The game's number: with the run's seed it seeds every random choice of the game, and
    /// the record carries it.
    pub index: u64,
    /// Turn limit, counted from `start` (0 = none).
    pub max_turns: u32,
    /// With `index`, the seed of every random choice of the game.
    pub seed: u64,
    /// Stop the game after this many turns from `start` (0 = play it out): the searches still
    /// see the whole game and its turn limit; a stopped game is recorded as a draw ended by
    /// [`Ending::Stopped`] (the tactics harness judges only the first turn).
    pub stop_after_turns: u32,
}

/// Settings of [`play_games`].
#[derive(Clone, Copy, Debug)]
pub struct EngineOptions {
    /// Games played at once.
    pub parallel_games: usize,
    /// Keep policy targets and joint distributions in the records (self-play).
    pub record_targets: bool,
    /// When games end early by their searches' agreement (matches).
    pub adjudication: Adjudication,
}

/// What to do after a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// Start no more games; games still running are dropped.
    Stop,
}

/// Who plays which side in every game of a [`run_games`] call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seating {
    /// Agent 0 plays both sides with one tree (self-play).
    SelfPlay,
    /// Agent 0 is the first player in even-numbered games and the second in odd ones; agent
    /// 1 the other.
    Alternate,
}

/// Settings of a run of games.
#[derive(Clone, Debug)]
pub struct RunOptions<G> {
    /// The start of every game.
    pub start: G,
    /// Turn limit (`0` = none).
    pub max_turns: u32,
    pub parallel_games: usize,
    pub seed: u64,
    /// Keep policy targets and joint distributions in the records (self-play).
    pub record_targets: bool,
    /// Stop every game after this many turns (0 = play them out; [`GameJob::stop_after_turns`]).
    pub stop_after_turns: u32,
}

/// Counters reported after every round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub games_done: u64,
    pub games_total: u64,
    pub games_running: u64,
    pub simulations: u64,
    pub decisions: u64,
    pub evaluations: u64,
    pub cache_hits: u64,
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Eval(#[from] EvalError),
    #[error("evaluator {evaluator} returned {got} priors for a leaf with {want} legal decisions")]
    BadEvaluation {
        evaluator: String,
        got: usize,
        want: usize,
    },
    #[error("{0}")]
    Sink(Box<dyn std::error::Error + Send + Sync>),
    #[error("seating {seating:?} needs {need} agent(s), got {got}")]
    Players {
        seating: Seating,
        need: usize,
        got: usize,
    },
    #[error("game job {job} seats agent {agent}, but there are {agents}")]
    BadSeat {
        job: usize,
        agent: usize,
        agents: usize,
    },
}

/// Plays the games numbered `games` (a range, or any list of distinct indices: a resumed
/// run plays just the missing ones) from `opts.start` between `agents` as `seating` says,
/// and hands each finished game to `on_game`; `on_round` sees the counters after every
/// round. The common case of [`play_games`].
pub fn run_games<G: GameState>(
    agents: &mut [Agent<G>],
    seating: Seating,
    opts: &RunOptions<G>,
    games: impl IntoIterator<Item = u64>,
    on_game: &mut dyn FnMut(GameRecord) -> Result<(), Box<dyn std::error::Error + Send + Sync>>,
    on_round: &mut dyn FnMut(&Progress),
) -> Result<Progress, RunError> {
    let need = if seating == Seating::SelfPlay { 1 } else { 2 };
    if agents.len() != need {
        return Err(RunError::Players {
            seating,
            need,
            got: agents.len(),
        });
    }
    let jobs = games.into_iter().map(|index| GameJob {
        start: opts.start.clone(),
        seats: match seating {
            Seating::SelfPlay => Seats::SelfPlay(0),
            Seating::Alternate if index % 2 == 0 => Seats::Match {
                first: 0,
                second: 1,
            },
            Seating::Alternate => Seats::Match {
                first: 1,
                second: 0,
            },
        },
        index,
        max_turns: opts.max_turns,
        seed: opts.seed,
        stop_after_turns: opts.stop_after_turns,
    });
    let engine = EngineOptions {
        parallel_games: opts.parallel_games,
        record_targets: opts.record_targets,
        adjudication: Adjudication::default(),
    };
    play_games(
        agents,
        jobs,
        &engine,
        &mut |_, g| on_game(g).map(|()| Flow::Continue),
        on_round,
    )
}

/// Plays `jobs` between `agents`, `opts.parallel_games` at once, and hands each finished
/// game to `on_game` with its position in the queue (in a deterministic order); `on_round`
/// sees the counters after every round. Runs on the current rayon pool (see
/// [`with_threads`]).
pub fn play_games<G: GameState>(
    agents: &mut [Agent<G>],
    jobs: impl IntoIterator<Item = GameJob<G>>,
    opts: &EngineOptions,
    on_game: &mut dyn FnMut(
        usize,
        GameRecord,
    ) -> Result<Flow, Box<dyn std::error::Error + Send + Sync>>,
    on_round: &mut dyn FnMut(&Progress),
) -> Result<Progress, RunError> {
    let jobs: Vec<GameJob<G>> = jobs.into_iter().collect();
    check_seats(&jobs, agents.len())?;
    let metas: Vec<Meta> = agents.iter().map(Meta::of).collect();
    let books: Vec<SharedOpening<G>> = agents.iter().map(|a| a.book.clone()).collect();
    let mut caches: Vec<Option<Cache>> = metas.iter().map(Cache::for_agent).collect();
    let total = jobs.len() as u64;
    let Some(first) = jobs.first() else {
        return Ok(Progress::default());
    };
    let mut slots: Vec<Slot<G>> = (0..opts.parallel_games.max(1).min(jobs.len()))
        .map(|_| Slot::new(agents.len(), &first.start))
        .collect();
    let mut queue = jobs.into_iter().enumerate();
    for s in &mut slots {
        if let Some((k, job)) = queue.next() {
            s.start(k, job, &metas, opts.adjudication);
        }
    }
    let mut batch = Batch::default();
    let mut progress = Progress {
        games_total: total,
        ..Progress::default()
    };
    loop {
        progress.simulations =
            step_all(&mut slots, &metas, &books, &batch.outs, opts.record_targets);
        for s in &mut slots {
            if s.active && s.is_over() {
                progress.decisions += s.decisions;
                s.decisions = 0;
                let rec = s.take_record();
                progress.games_done += 1;
                s.active = false;
                if on_game(s.job, rec).map_err(RunError::Sink)? == Flow::Stop {
                    return Ok(progress);
                }
                if let Some((k, job)) = queue.next() {
                    s.start(k, job, &metas, opts.adjudication);
                }
            }
        }
        progress.games_running = slots.iter().filter(|s| s.active).count() as u64;
        if progress.games_running == 0 {
            // Simulations of finished trees stay counted.
            on_round(&progress);
            return Ok(progress);
        }
        // One batch per evaluator.
        batch.used = 0;
        for (p, agent) in agents.iter_mut().enumerate() {
            let AgentKind::Mcts { evaluator, .. } = &mut agent.kind else {
                continue;
            };
            batch.hits.clear();
            batch.misses.clear();
            let cache = &mut caches[p];
            batch.look_up(p, &slots, cache.as_ref(), &mut progress);
            if !batch.misses.is_empty() {
                batch.evaluate_misses(p, evaluator.as_mut(), &slots, cache, &mut progress)?;
            }
            for &(si, j) in &batch.hits {
                slots[si].pending = Some(j);
                slots[si].needs = None;
            }
        }
        on_round(&progress);
    }
}

/// Refuses a job that seats an agent outside `agents`.
fn check_seats<G>(jobs: &[GameJob<G>], agents: usize) -> Result<(), RunError> {
    for (k, job) in jobs.iter().enumerate() {
        if let Some(&agent) = job.seats.agents().iter().find(|&&p| p >= agents) {
            return Err(RunError::BadSeat {
                job: k,
                agent,
                agents,
            });
        }
    }
    Ok(())
}

/// The most worker threads a run may ask for: far above any machine's cores, far below what
/// exhausts the operating system (every count that becomes threads is checked against it).
pub const MAX_THREADS: usize = 1024;

/// Checks a thread count (`0` = one per core) against [`MAX_THREADS`].
pub fn check_threads(threads: usize) -> Result<usize, String> {
    if threads > MAX_THREADS {
        Err(format!(
            "{threads} threads is more than the {MAX_THREADS} allowed (0 = one per core)"
        ))
    } else {
        Ok(threads)
    }
}

/// Runs `f` on a rayon pool of `threads` threads (`0` = one per core; at most
/// [`MAX_THREADS`], which callers check first with [`check_threads`]).
pub fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    let threads = threads.min(MAX_THREADS);
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(f),
        Err(_) => f(),
    }
}
