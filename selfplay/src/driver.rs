//! The batched game driver behind self-play and match play.
//!
//! Many games run at once, each in its own slot with its own tree(s). One round: every slot
//! (in parallel, rayon) feeds in its last evaluation and runs its search until it needs a new
//! one (or plays random, forced and searched decisions until then); then, on the calling
//! thread, the leaves of all slots that use one evaluator go to it in **one** batch (after
//! the evaluation cache, keyed by the rules engine's state hash). Finished games leave as
//! [`GameRecord`]s, in slot order, and their slot starts the next game.
//!
//! Determinism: game `i` draws every random choice from `seed` and `i`, slots are visited
//! in a fixed order, and the evaluator sees the same batches in the same order, so the same
//! seed and settings give the same games whatever the number of threads.

use crate::config::SearchConfig;
use crate::evaluator::{EvalError, Evaluation, Evaluator, Leaf, mix};
use crate::mcts::{Search, Step};
use crate::record::{GameRecord, SearchRecord, StepKind, StepRecord};
use crumble_core::{Color, Decision, Game, Outcome, Phase, Reason, random};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::HashMap;

/// One agent at run time: random play, or search with its own evaluator and settings.
#[derive(Debug)]
pub struct Player {
    pub name: String,
    pub kind: PlayerKind,
}

#[derive(Debug)]
pub enum PlayerKind {
    Random,
    Mcts {
        evaluator: Box<dyn Evaluator>,
        simulations: u32,
        config: SearchConfig,
    },
}

/// Who plays which colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seating {
    /// Player 0 plays both colours with one tree (self-play).
    SelfPlay,
    /// Player 0 is Black in even-numbered games and White in odd ones; player 1 the other.
    Alternate,
}

/// Settings of a run of games.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The start of every game (the standard start: `Game::new(n, r)`).
    pub start: Game,
    /// Turn limit (`0` = none).
    pub max_turns: u32,
    pub parallel_games: usize,
    pub seed: u64,
    /// Keep policy targets and joint distributions in the records (self-play).
    pub record_targets: bool,
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
    #[error("seating {seating:?} needs {need} player(s), got {got}")]
    Players {
        seating: Seating,
        need: usize,
        got: usize,
    },
}

/// The part of a player the parallel phase reads.
#[derive(Clone, Debug)]
enum Meta {
    Random,
    Mcts {
        simulations: u32,
        config: SearchConfig,
    },
}

struct Slot {
    active: bool,
    index: u64,
    game: Game,
    rng: ChaCha8Rng,
    trees: Vec<Search>,
    seat: [usize; 2],
    searching: Option<usize>,
    steps: Vec<StepRecord>,
    low: [u32; 2],
    playout: bool,
    would_resign: Option<Color>,
    needs: Option<usize>,
    pending: Option<usize>,
    legal: Vec<Decision>,
    path: Vec<Decision>,
    joint: Vec<(Decision, Decision, f32)>,
    decisions: u64,
}

#[inline]
fn ci(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Slot {
    fn new(metas: &[Meta], start: &Game) -> Slot {
        let trees = metas
            .iter()
            .map(|m| match m {
                Meta::Mcts { config, .. } => Search::new(config.clone(), 0),
                Meta::Random => Search::new(SearchConfig::default(), 0),
            })
            .collect();
        Slot {
            active: false,
            index: 0,
            game: start.clone(),
            rng: ChaCha8Rng::seed_from_u64(0),
            trees,
            seat: [0, 0],
            searching: None,
            steps: Vec::new(),
            low: [0, 0],
            playout: false,
            would_resign: None,
            needs: None,
            pending: None,
            legal: Vec::new(),
            path: Vec::new(),
            joint: Vec::new(),
            decisions: 0,
        }
    }

    fn start(&mut self, index: u64, metas: &[Meta], seating: Seating, opts: &RunOptions) {
        self.active = true;
        self.index = index;
        self.game.clone_from(&opts.start);
        self.game.set_max_turns(opts.max_turns);
        let seed = mix(opts.seed ^ mix(index));
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        for (p, t) in self.trees.iter_mut().enumerate() {
            t.reseed(mix(seed ^ (p as u64 + 1)));
        }
        self.seat = match seating {
            Seating::SelfPlay => [0, 0],
            Seating::Alternate if index % 2 == 0 => [0, 1],
            Seating::Alternate => [1, 0],
        };
        self.searching = None;
        self.steps.clear();
        self.low = [0, 0];
        self.would_resign = None;
        self.needs = None;
        self.pending = None;
        let resign = metas
            .iter()
            .any(|m| matches!(m, Meta::Mcts { config, .. } if config.resign.enabled));
        let fraction = metas
            .iter()
            .map(|m| {
                if let Meta::Mcts { config, .. } = m {
                    config.resign.playout_fraction
                } else {
                    0.0
                }
            })
            .fold(0.0f32, f32::max);
        self.playout = resign && self.rng.random_bool(f64::from(fraction));
    }

    fn play(&mut self, d: Decision, kind: StepKind, search: Option<SearchRecord>) {
        self.game.apply_unchecked(d);
        for t in &mut self.trees {
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
    fn step(&mut self, metas: &[Meta], outs: &[Evaluation], record_targets: bool) {
        if let Some(j) = self.pending.take() {
            let t = self.searching.expect("a search waits for its evaluation");
            self.trees[t].provide(&outs[j]);
        }
        self.needs = None;
        loop {
            let Some(c) = self.game.decider() else { return };
            if let Some(t) = self.searching {
                if self.trees[t].run() == Step::NeedsEval {
                    self.needs = Some(t);
                    return;
                }
                self.searching = None;
                let Meta::Mcts { config, .. } = &metas[t] else {
                    unreachable!("only search agents search")
                };
                let out = self.trees[t].finish();
                let (value, full) = (out.value, out.full);
                if config.resign.enabled {
                    let k = ci(c);
                    self.low[k] = if value < config.resign.threshold {
                        self.low[k] + 1
                    } else {
                        0
                    };
                    if self.low[k] >= config.resign.consecutive {
                        if self.playout {
                            self.would_resign.get_or_insert(c);
                        } else {
                            self.game.finish(Outcome {
                                winner: Some(c.opposite()),
                                reason: Reason::Resignation,
                            });
                            return;
                        }
                    }
                }
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
                let joint = if record_targets && self.game.phase() == Phase::Choose {
                    self.trees[t].joint_choose_extent(&mut self.joint);
                    self.joint.clone()
                } else {
                    Vec::new()
                };
                let d = self.trees[t].pick(temp);
                self.play(
                    d,
                    StepKind::Searched,
                    Some(SearchRecord {
                        value,
                        full,
                        policy,
                        joint,
                    }),
                );
                continue;
            }
            self.game.legal_decisions_into(&mut self.legal);
            if self.legal.len() == 1 {
                let d = self.legal[0];
                self.play(d, StepKind::Forced, None);
                continue;
            }
            let p = self.seat[ci(c)];
            match &metas[p] {
                Meta::Random => {
                    let mut path = std::mem::take(&mut self.path);
                    random::play_random_turn_recorded(&mut self.game, &mut self.rng, &mut path);
                    for &d in &path {
                        for t in &mut self.trees {
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
                    self.trees[p].begin(&self.game, n, full);
                    self.searching = Some(p);
                }
            }
        }
    }

    fn take_record(&mut self, opts: &RunOptions) -> GameRecord {
        let standard = Game::new(
            opts.start.board().board_size(),
            opts.start.board().resolution(),
        )
        .map(|g| g == opts.start)
        .unwrap_or(false);
        GameRecord {
            index: self.index,
            board: opts.start.board().board_size(),
            resolution: opts.start.board().resolution(),
            max_turns: opts.max_turns,
            start: (!standard).then(|| crumble_core::position::to_json(&opts.start)),
            steps: std::mem::take(&mut self.steps),
            outcome: self.game.outcome().expect("a finished game"),
            would_resign: self.would_resign,
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
/// run plays just the missing ones) between `players` as `seating` says, many at once, and
/// hands each finished game to `on_game` (in a deterministic order); `on_round` sees the
/// counters after every round. Runs on the current rayon pool (see [`with_threads`]).
pub fn run_games(
    players: &mut [Player],
    seating: Seating,
    opts: &RunOptions,
    games: impl IntoIterator<Item = u64>,
    on_game: &mut dyn FnMut(GameRecord) -> Result<(), Box<dyn std::error::Error + Send + Sync>>,
    on_round: &mut dyn FnMut(&Progress),
) -> Result<Progress, RunError> {
    let need = if seating == Seating::SelfPlay { 1 } else { 2 };
    if players.len() != need {
        return Err(RunError::Players {
            seating,
            need,
            got: players.len(),
        });
    }
    let metas: Vec<Meta> = players
        .iter()
        .map(|p| match &p.kind {
            PlayerKind::Random => Meta::Random,
            PlayerKind::Mcts {
                simulations,
                config,
                ..
            } => Meta::Mcts {
                simulations: *simulations,
                config: config.clone(),
            },
        })
        .collect();
    let mut caches: Vec<Option<Cache>> = metas
        .iter()
        .map(|m| match m {
            Meta::Mcts { config, .. } if config.eval_cache => Some(Cache {
                map: HashMap::new(),
                capacity: config.eval_cache_capacity,
            }),
            _ => None,
        })
        .collect();
    let indices: Vec<u64> = games.into_iter().collect();
    let total = indices.len() as u64;
    let mut queue = indices.into_iter();
    let mut slots: Vec<Slot> = Vec::new();
    for _ in 0..opts.parallel_games.max(1).min(total.max(1) as usize) {
        let mut s = Slot::new(&metas, &opts.start);
        if let Some(next) = queue.next() {
            s.start(next, &metas, seating, opts);
        }
        slots.push(s);
    }
    let mut outs: Vec<Evaluation> = Vec::new();
    let mut progress = Progress {
        games_total: total,
        ..Progress::default()
    };
    let mut hits: Vec<(usize, usize)> = Vec::new();
    let mut misses: Vec<usize> = Vec::new();
    loop {
        {
            let (metas, outs) = (&metas, &outs);
            let record = opts.record_targets;
            // One contiguous chunk of slots per thread: a slot's games mostly stay on one
            // thread (and its allocator arena).
            let chunk = slots
                .len()
                .div_ceil(rayon::current_num_threads().max(1))
                .max(1);
            slots.par_chunks_mut(chunk).for_each(|c| {
                for s in c.iter_mut().filter(|s| s.active) {
                    s.step(metas, outs, record);
                }
            });
        }
        progress.simulations = slots
            .iter()
            .map(|s| s.trees.iter().map(|t| t.total_simulations).sum::<u64>())
            .sum::<u64>();
        for s in &mut slots {
            if s.active && s.game.is_over() {
                progress.decisions += s.decisions;
                s.decisions = 0;
                let rec = s.take_record(opts);
                progress.games_done += 1;
                on_game(rec).map_err(RunError::Sink)?;
                if let Some(next) = queue.next() {
                    s.start(next, &metas, seating, opts);
                } else {
                    s.active = false;
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
        let mut used = 0usize;
        for (p, player) in players.iter_mut().enumerate() {
            let PlayerKind::Mcts { evaluator, .. } = &mut player.kind else {
                continue;
            };
            hits.clear();
            misses.clear();
            let cache = &mut caches[p];
            for (si, s) in slots.iter().enumerate() {
                if s.needs != Some(p) {
                    continue;
                }
                let h = s.trees[p].leaf_hash().expect("a pending leaf");
                if let Some((v, pri)) = cache.as_ref().and_then(|c| c.map.get(&h)) {
                    if used >= outs.len() {
                        outs.push(Evaluation::default());
                    }
                    outs[used].value = *v;
                    outs[used].priors.clear();
                    outs[used].priors.extend_from_slice(pri);
                    hits.push((si, used));
                    used += 1;
                    progress.cache_hits += 1;
                } else {
                    misses.push(si);
                }
            }
            if !misses.is_empty() {
                let first = used;
                while outs.len() < used + misses.len() {
                    outs.push(Evaluation::default());
                }
                let leaves: Vec<Leaf<'_>> = misses
                    .iter()
                    .map(|&si| slots[si].trees[p].leaf().expect("a pending leaf"))
                    .collect();
                evaluator.evaluate(&leaves, &mut outs[first..first + misses.len()])?;
                for (k, leaf) in leaves.iter().enumerate() {
                    let o = &outs[first + k];
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
                        let h = slots[si].trees[p].leaf_hash().expect("a pending leaf");
                        c.map.insert(
                            h,
                            (outs[j].value, outs[j].priors.clone().into_boxed_slice()),
                        );
                    }
                    hits.push((si, j));
                }
                used += misses.len();
            }
            for &(si, j) in &hits {
                slots[si].pending = Some(j);
                slots[si].needs = None;
            }
        }
        on_round(&progress);
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
