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

/// The part of an agent the parallel phase reads.
#[derive(Clone, Debug)]
enum Meta {
    Random,
    Solver,
    Mcts {
        simulations: u32,
        config: SearchConfig,
    },
}

struct Slot<G: GameState> {
    active: bool,
    /// Position of the job in the queue.
    job: usize,
    index: u64,
    start: G,
    max_turns: u32,
    /// Turn count at which the game is stopped (see [`GameJob::stop_after_turns`]).
    stop_at: Option<u32>,
    game: G,
    /// How the game ended when it was not by the rules (a resignation, a stop).
    adjudicated: Option<(GameResult, Ending)>,
    rng: ChaCha8Rng,
    /// The trees of the agents seated here (indexed by agent; built on first use and kept
    /// for the slot's later games).
    trees: Vec<Option<Search<G>>>,
    /// The exact values the `solver` agent found (kept for the slot's later games).
    solver: Option<Negamax<G>>,
    seat: [usize; 2],
    searching: Option<usize>,
    steps: Vec<StepRecord>,
    low: [u32; 2],
    playout: bool,
    would_resign: Option<Player>,
    /// The match adjudication of this game, and whether its verdict ends the game (or the
    /// game is one of those played out to check it).
    judge: Adjudicator,
    judge_ends: bool,
    needs: Option<usize>,
    pending: Option<usize>,
    legal: Vec<Decision>,
    path: Vec<Decision>,
    joint: Vec<(Decision, Decision, f32)>,
    decisions: u64,
}

/// The tree of seated agent `p` (a borrow of the trees alone, not of the whole slot).
fn tree<G: GameState>(trees: &mut [Option<Search<G>>], p: usize) -> &mut Search<G> {
    trees[p].as_mut().expect("a seated agent has a tree")
}

impl<G: GameState> Slot<G> {
    fn new(agents: usize, start: &G) -> Slot<G> {
        Slot {
            active: false,
            job: 0,
            index: 0,
            start: start.clone(),
            max_turns: 0,
            stop_at: None,
            game: start.clone(),
            adjudicated: None,
            rng: ChaCha8Rng::seed_from_u64(0),
            trees: (0..agents).map(|_| None).collect(),
            solver: None,
            seat: [0, 0],
            searching: None,
            steps: Vec::new(),
            low: [0, 0],
            playout: false,
            would_resign: None,
            judge: Adjudicator::new(Adjudication::default()),
            judge_ends: false,
            needs: None,
            pending: None,
            legal: Vec::new(),
            path: Vec::new(),
            joint: Vec::new(),
            decisions: 0,
        }
    }

    fn start(&mut self, k: usize, job: GameJob<G>, metas: &[Meta], adjudication: Adjudication) {
        self.active = true;
        self.job = k;
        self.index = job.index;
        self.start = job.start;
        self.max_turns = job.max_turns;
        self.stop_at = (job.stop_after_turns > 0).then(|| {
            self.start
                .turns_played()
                .saturating_add(job.stop_after_turns)
        });
        self.game.clone_from(&self.start);
        self.game.set_turn_limit(job.max_turns);
        self.adjudicated = None;
        let seed = mix(job.seed ^ mix(job.index));
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.seat = job.seats.agents();
        for (p, t) in self.trees.iter_mut().enumerate() {
            if !self.seat.contains(&p) {
                continue;
            }
            let tree = t.get_or_insert_with(|| match &metas[p] {
                Meta::Mcts { config, .. } => Search::new(config.clone(), 0),
                Meta::Random | Meta::Solver => Search::new(SearchConfig::default(), 0),
            });
            tree.reseed(mix(seed ^ (p as u64 + 1)));
        }
        self.searching = None;
        self.steps.clear();
        self.low = [0, 0];
        self.would_resign = None;
        self.needs = None;
        self.pending = None;
        let seated = || self.seat.iter().map(|&p| &metas[p]);
        let resign =
            seated().any(|m| matches!(m, Meta::Mcts { config, .. } if config.resign.enabled));
        let fraction = seated()
            .map(|m| {
                if let Meta::Mcts { config, .. } = m {
                    config.resign.playout_fraction
                } else {
                    0.0
                }
            })
            .fold(0.0f32, f32::max);
        self.playout = resign && self.rng.random_bool(f64::from(fraction));
        self.judge = Adjudicator::new(adjudication);
        // From a stream of its own, so that adjudication changes no game's random choices.
        let draw = (mix(seed ^ 0xAD7) >> 11) as f64 / (1u64 << 53) as f64;
        self.judge_ends = adjudication.is_on() && draw >= f64::from(adjudication.playout_fraction);
    }

    /// The trees of the agents seated in this slot's game.
    fn seated_trees(&mut self) -> impl Iterator<Item = &mut Search<G>> {
        let seat = self.seat;
        self.trees
            .iter_mut()
            .enumerate()
            .filter(move |(p, _)| seat.contains(p))
            .filter_map(|(_, t)| t.as_mut())
    }

    fn play(&mut self, d: Decision, kind: StepKind, search: Option<SearchRecord>) {
        self.observe(kind, search.as_ref());
        if self.adjudicated.is_some() {
            // Adjudicated before its move: the game ends where the searches agreed.
            return;
        }
        self.game.apply_unchecked(d);
        for t in self.seated_trees() {
            t.advance(d);
        }
        self.steps.push(StepRecord {
            decision: d,
            kind,
            search,
        });
        self.decisions += 1;
    }

    /// Runs the slot until it needs an evaluation (`needs`) or its game is over.
    fn step(
        &mut self,
        metas: &[Meta],
        books: &[SharedOpening<G>],
        outs: &[Evaluation],
        record_targets: bool,
    ) {
        if let Some(j) = self.pending.take() {
            let t = self.searching.expect("a search waits for its evaluation");
            tree(&mut self.trees, t).provide(&outs[j]);
        }
        self.needs = None;
        loop {
            if let Some(t) = self.stop_at
                && !self.is_over()
                && self.game.turns_played() >= t
            {
                self.adjudicated = Some((GameResult::Draw, Ending::Stopped));
            }
            if self.adjudicated.is_some() {
                return;
            }
            let Some(c) = self.game.decider() else { return };
            if let Some(t) = self.searching {
                if tree(&mut self.trees, t).run() == Step::NeedsEval {
                    self.needs = Some(t);
                    return;
                }
                self.searching = None;
                let Meta::Mcts { config, .. } = &metas[t] else {
                    unreachable!("only search agents search")
                };
                let out = tree(&mut self.trees, t).finish();
                let (value, full, proven) = (out.value, out.full, out.proven);
                if config.resign.enabled {
                    let k = c.index();
                    self.low[k] = if value < config.resign.threshold {
                        self.low[k] + 1
                    } else {
                        0
                    };
                    if self.low[k] >= config.resign.consecutive {
                        if self.playout {
                            self.would_resign.get_or_insert(c);
                        } else {
                            self.adjudicated =
                                Some((GameResult::Win(c.opponent()), Ending::Resignation));
                            return;
                        }
                    }
                }
                let prior = if record_targets {
                    out.prior.clone()
                } else {
                    Vec::new()
                };
                let policy: Vec<(Decision, f32)> = if record_targets {
                    out.legal
                        .iter()
                        .copied()
                        .zip(out.target.iter().copied())
                        .collect()
                } else {
                    Vec::new()
                };
                let tc = &config.temperature;
                let temp = if self.game.turns_played() < tc.turns {
                    tc.initial
                } else {
                    tc.final_
                };
                let joint = if record_targets && self.game.at_turn_start() {
                    tree(&mut self.trees, t).joint_first_two(&mut self.joint);
                    self.joint.clone()
                } else {
                    Vec::new()
                };
                let d = tree(&mut self.trees, t).pick(temp);
                self.play(
                    d,
                    StepKind::Searched,
                    Some(SearchRecord {
                        value,
                        full,
                        proven,
                        policy,
                        prior,
                        joint,
                    }),
                );
                continue;
            }
            let p = self.seat[c.index()];
            if self.play_from_book(books[p].as_deref()) {
                continue;
            }
            self.game.legal_decisions_into(&mut self.legal);
            if self.legal.len() == 1 {
                let d = self.legal[0];
                self.play(d, StepKind::Forced, None);
                continue;
            }
            match &metas[p] {
                Meta::Solver => {
                    let solver = self.solver.get_or_insert_with(Negamax::new);
                    solver.best_decisions(&self.game, &mut self.legal);
                    let d = self.legal[self.rng.random_range(0..self.legal.len())];
                    self.play(d, StepKind::Exact, None);
                }
                Meta::Random => {
                    let mut path = std::mem::take(&mut self.path);
                    self.observe(StepKind::Random, None);
                    self.game
                        .play_random_turn_recorded(&mut self.rng, &mut path);
                    for &d in &path {
                        for t in self.seated_trees() {
                            t.advance(d);
                        }
                        self.steps.push(StepRecord {
                            decision: d,
                            kind: StepKind::Random,
                            search: None,
                        });
                    }
                    self.decisions += path.len() as u64;
                    self.path = path;
                }
                Meta::Mcts {
                    simulations,
                    config,
                } => {
                    let pc = &config.playout_cap;
                    let full = !pc.enabled || self.rng.random_bool(f64::from(pc.full_fraction));
                    let n = if full {
                        *simulations
                    } else {
                        pc.fast_simulations
                    };
                    tree(&mut self.trees, p).begin(&self.game, n, full);
                    self.searching = Some(p);
                }
            }
        }
    }

    /// Plays the book's move at a turn's start when it has one that is legal here; whether it
    /// did.
    fn play_from_book(&mut self, book: Option<&dyn OpeningSource<G>>) -> bool {
        let Some(book) = book else { return false };
        if !self.game.at_turn_start() {
            return false;
        }
        // A move the rules refuse is not played: the agent searches instead.
        let Some(turn) = book.legal_turn(&self.game) else {
            return false;
        };
        for d in turn {
            self.play(d, StepKind::Book, None);
        }
        true
    }

    /// Shows the step about to be played to the match adjudication; its verdict ends the game
    /// unless the game is played out.
    fn observe(&mut self, kind: StepKind, search: Option<&SearchRecord>) {
        if let Some(v) = self.judge.step(&self.game, kind, search)
            && self.judge_ends
            && self.adjudicated.is_none()
        {
            let ending = match v.result {
                GameResult::Win(_) => Ending::Resignation,
                GameResult::Draw => Ending::Stopped,
            };
            self.adjudicated = Some((v.result, ending));
        }
    }

    /// Is the game over, by the rules or adjudicated?
    fn is_over(&self) -> bool {
        self.adjudicated.is_some() || self.game.is_over()
    }

    fn take_record(&mut self) -> GameRecord {
        let (result, ending) = self.adjudicated.unwrap_or_else(|| {
            let r = self.game.game_result().expect("a finished game");
            (r, Ending::Rules)
        });
        GameRecord {
            index: self.index,
            game: G::NAME.to_string(),
            start: crate::record::start_json::<G>(&self.start.to_start()),
            max_turns: self.max_turns,
            steps: std::mem::take(&mut self.steps),
            result,
            ending,
            would_resign: self.would_resign,
            agents: None,
        }
    }
}

/// Evaluation cache of one evaluator: value and priors by state hash.
#[derive(Debug, Default)]
struct Cache {
    map: HashMap<u64, (f32, Box<[f32]>)>,
    capacity: usize,
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

impl Meta {
    fn of<G: GameState>(agent: &Agent<G>) -> Meta {
        match &agent.kind {
            AgentKind::Random => Meta::Random,
            AgentKind::Solver => Meta::Solver,
            AgentKind::Mcts {
                simulations,
                config,
                ..
            } => Meta::Mcts {
                simulations: *simulations,
                config: config.clone(),
            },
        }
    }
}

impl Cache {
    /// The evaluation cache of an agent that asks for one.
    fn for_agent(meta: &Meta) -> Option<Cache> {
        match meta {
            Meta::Mcts { config, .. } if config.eval_cache => Some(Cache {
                map: HashMap::new(),
                capacity: config.eval_cache_capacity,
            }),
            _ => None,
        }
    }
}

/// Steps every active slot in parallel until it needs an evaluation or its game ends (the
/// slots reading their evaluations from `outs`); returns the simulations of all the trees.
fn step_all<G: GameState>(
    slots: &mut [Slot<G>],
    metas: &[Meta],
    books: &[SharedOpening<G>],
    outs: &[Evaluation],
    record: bool,
) -> u64 {
    // One contiguous chunk of slots per thread: a slot's games mostly stay on one
    // thread (and its allocator arena).
    let chunk = slots
        .len()
        .div_ceil(rayon::current_num_threads().max(1))
        .max(1);
    slots.par_chunks_mut(chunk).for_each(|c| {
        for s in c.iter_mut().filter(|s| s.active) {
            s.step(metas, books, outs, record);
        }
    });
    slots
        .iter()
        .map(|s| {
            s.trees
                .iter()
                .flatten()
                .map(|t| t.total_simulations)
                .sum::<u64>()
        })
        .sum::<u64>()
}

/// One round's evaluations, the buffers kept from round to round.
#[derive(Default)]
struct Batch {
    /// The evaluations; the first `used` are this round's.
    outs: Vec<Evaluation>,
    used: usize,
    /// (slot, index in `outs`) of each slot of the current agent whose leaf is evaluated.
    hits: Vec<(usize, usize)>,
    /// The slots of the current agent whose leaf is not in its cache.
    misses: Vec<usize>,
}

impl Batch {
    /// Sorts the slots waiting on agent `p` into the hits of its `cache` (their evaluations
    /// copied into `outs`) and the misses.
    fn look_up<G: GameState>(
        &mut self,
        p: usize,
        slots: &[Slot<G>],
        cache: Option<&Cache>,
        progress: &mut Progress,
    ) {
        for (si, s) in slots.iter().enumerate() {
            if s.needs != Some(p) {
                continue;
            }
            let h = s.trees[p]
                .as_ref()
                .and_then(|t| t.leaf_hash())
                .expect("a pending leaf");
            if let Some((v, pri)) = cache.and_then(|c| c.map.get(&h)) {
                let used = self.used;
                if used >= self.outs.len() {
                    self.outs.push(Evaluation::default());
                }
                self.outs[used].value = *v;
                self.outs[used].priors.clear();
                self.outs[used].priors.extend_from_slice(pri);
                self.hits.push((si, used));
                self.used += 1;
                progress.cache_hits += 1;
            } else {
                self.misses.push(si);
            }
        }
    }

    /// Evaluates the misses' leaves in one batch of agent `p`'s `evaluator`, checks each
    /// answer's size, and keeps them in `cache` (cleared when full).
    fn evaluate_misses<G: GameState>(
        &mut self,
        p: usize,
        evaluator: &mut dyn Evaluator<G>,
        slots: &[Slot<G>],
        cache: &mut Option<Cache>,
        progress: &mut Progress,
    ) -> Result<(), RunError> {
        let (first, misses) = (self.used, &self.misses);
        while self.outs.len() < first + misses.len() {
            self.outs.push(Evaluation::default());
        }
        let leaves: Vec<Leaf<'_, G>> = misses
            .iter()
            .map(|&si| {
                slots[si].trees[p]
                    .as_ref()
                    .and_then(|t| t.leaf())
                    .expect("a pending leaf")
            })
            .collect();
        evaluator.evaluate(&leaves, &mut self.outs[first..first + misses.len()])?;
        for (k, leaf) in leaves.iter().enumerate() {
            let o = &self.outs[first + k];
            if o.priors.len() != leaf.legal.len() {
                return Err(RunError::BadEvaluation {
                    evaluator: evaluator.name(),
                    got: o.priors.len(),
                    want: leaf.legal.len(),
                });
            }
        }
        progress.evaluations += misses.len() as u64;
        drop(leaves);
        for (k, &si) in misses.iter().enumerate() {
            let j = first + k;
            if let Some(c) = cache.as_mut() {
                if c.map.len() >= c.capacity {
                    c.map.clear();
                }
                let h = slots[si].trees[p]
                    .as_ref()
                    .and_then(|t| t.leaf_hash())
                    .expect("a pending leaf");
                c.map.insert(
                    h,
                    (
                        self.outs[j].value,
                        self.outs[j].priors.clone().into_boxed_slice(),
                    ),
                );
            }
            self.hits.push((si, j));
        }
        self.used += misses.len();
        Ok(())
    }
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
