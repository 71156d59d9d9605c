//! A training run: its directory, the generation loop, and resuming.
//!
//! # Run directory
//!
//! ```text
//! DIR/config.toml                    the full config of the run (every key)
//! DIR/progress.csv                   one row per finished generation (the ledger)
//! DIR/checkpoints/gen-NNNN/net.crnet network config + weights (gen-0000: the initial net)
//! DIR/checkpoints/gen-NNNN/net.json  the network config, readable
//! DIR/checkpoints/gen-NNNN/optimizer.bpk  optimiser state (to resume training exactly)
//! DIR/replay/gen-NNNN/selfplay-*.crsp   that generation's self-play games (the replay store)
//! DIR/replay/gen-NNNN/selfplay-*.txt    the same games as readable game records
//! DIR/tb/events.out.tfevents.*       TensorBoard scalars (one file per generation logged)
//! ```
//!
//! # One generation `g`
//!
//! self-play with the current net into `replay/gen-g` -> load the replay window -> training
//! steps -> `checkpoints/gen-g` -> evaluation matches -> a row in `progress.csv` -> scalars to
//! TensorBoard.
//!
//! # Resuming and crash safety
//!
//! Every file is written to a temporary name and renamed (a checkpoint directory as a
//! whole), and the generation's row is appended to `progress.csv` after everything else of
//! it exists: a generation is finished exactly when its row is there. A run killed at any
//! moment and resumed drops whatever belongs to unfinished generations (except self-play
//! record files, which are complete by construction and are kept, so self-play of the
//! interrupted generation continues where it was), and goes on from the last row.
//!
//! # Files of this module
//!
//! # Shared runs
//!
//! With [`train_shared`] the run also lives in a store ([`crate::distributed`]):
//! its files are mirrored there after each generation, a pointer tells workers which
//! network to play, and with external self-play the generation's games are gathered from
//! workers' uploads (`external`) instead of played here, and committed with a commit object
//! before the ledger row. Without it nothing of this runs.
//!
//! `layout` the paths of the run directory and what is on disk (cleaning, checks against the
//! ledger, writing a checkpoint); `open` a new or resumed run; `generation` one generation as
//! its steps, with self-play and the ledger row; `window` the replay window; `training` the
//! training steps; `eval` the evaluation matches.

mod eval;
mod external;
mod generation;
mod layout;
mod open;
mod training;
mod window;

pub use eval::elo_from_score;
pub use generation::selfplay_agent;
pub use layout::{checkpoint_dir, checkpoint_path};

use crate::config::{ConfigError, TrainConfig};
use crate::distributed::trainer::{Shared, TrainerSide};
use crate::games::TrainGame;
use crate::ledger::{History, Row};
use crate::replay::{ReplayError, ReplayWindow};
use crate::tb::TbLog;
use crumble_model::train::{self as mtrain, StepStats};
use crumble_model::{CheckpointError, CrumbleNet, Device, NetConfig};
use crumble_selfplay::Progress;
use crumble_selfplay::arena::{ArenaError, Tally};
use crumble_selfplay::selfplay::SelfPlayError;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(
        "run directory {dir} was started with a different config; differing keys: {}. Resume without --config, or start a new run",
        keys.join(", ")
    )]
    ConfigChanged { dir: String, keys: Vec<String> },
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {what}")]
    Ledger { path: String, what: String },
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    #[error("checkpoint {path} holds a network that does not match the run's config: {what}")]
    Architecture { path: String, what: String },
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("self-play: {0}")]
    SelfPlay(#[from] SelfPlayError),
    #[error("evaluation match: {0}")]
    Match(#[from] ArenaError),
    #[error("agent: {0}")]
    Agent(#[from] crumble_selfplay::AgentError),
    #[error("the game's start: {0}")]
    Start(Box<dyn std::error::Error + Send + Sync>),
    #[error(
        "generation {generation}: {what}. The generation was stopped before its checkpoint: \
         nothing was saved or promoted, and the finished generations are untouched"
    )]
    NonFinite { generation: u32, what: String },
    #[error(
        "{path} has generations whose CPU time was not measured (a ledger from before `cpu_s`): a CPU budget cannot be kept for this run"
    )]
    NoCpuTime { path: String },
    #[error(
        "a CPU budget is for runs in a directory: a shared run's CPU time counts its trainer alone"
    )]
    SharedCpuBudget,
    #[error("the evaluation of gen-{generation:04} panicked")]
    EvalPanicked { generation: u32 },
    // Transparent: its messages name the store already, and `{:#}` would repeat them.
    #[error(transparent)]
    Dist(#[from] crate::distributed::DistError),
}

pub(crate) fn io_err(path: &Path) -> impl Fn(std::io::Error) -> TrainError + '_ {
    move |source| TrainError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Writes `bytes` to `path` through a temporary file and a rename (the project's one
/// implementation, `crumble_selfplay::files`, with the error naming the path).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
    crumble_selfplay::files::write_atomic(path, bytes).map_err(io_err(path))
}

/// What `crumble train` was asked to do.
#[derive(Clone, Debug, Default)]
pub struct TrainOptions {
    /// The config; required for a new run, checked against the saved one on resume.
    pub config: Option<PathBuf>,
    /// The run directory; `None` creates `runs_root/YYYYMMDD-HHMMSS`.
    pub run_dir: Option<PathBuf>,
    pub runs_root: PathBuf,
    /// Generations the run should have in total (`None`: the config's `generation.total`).
    pub generations: Option<u32>,
    /// The run's CPU budget in seconds: no generation starts once the ledger's CPU time
    /// (`cpu_s`: every generation, every resume) has reached it, so a run ends just past it
    /// (`None`: none). `generations` still caps the run. Local runs only.
    pub cpu_budget_s: Option<f64>,
}

/// What the loop reports as it goes.
#[derive(Clone, Debug)]
pub enum Event<'a> {
    /// The run directory is ready (`resumed_from` finished generations found, `cpu_s` CPU
    /// seconds spent on them).
    Started {
        dir: &'a Path,
        resumed_from: u32,
        target: u32,
        cpu_s: f64,
        cpu_budget_s: Option<f64>,
    },
    SelfPlay {
        generation: u32,
        progress: &'a Progress,
        seconds: f64,
    },
    /// Waiting for workers' files (external self-play): games and files taken so far.
    Gather {
        generation: u32,
        games: u64,
        wanted: u64,
        files: usize,
        seconds: f64,
    },
    /// The trainer could not keep up: fresh files over the intake cap were dropped (named
    /// in the generation's commit).
    Dropped {
        generation: u32,
        files: usize,
        used: usize,
    },
    Train {
        generation: u32,
        step: u64,
        steps: u64,
        stats: &'a StepStats,
    },
    Eval {
        generation: u32,
        opponent: &'a str,
        /// The new net's games so far.
        tally: &'a Tally,
        total: u64,
    },
    /// The evaluation running beside the loop was stopped unfinished: the last
    /// generation's own evaluation replaces it.
    EvalDropped {
        generation: u32,
        evaluated: u32,
    },
    Finished {
        generation: u32,
        row: &'a Row,
    },
}

/// Runs (or resumes) a training run until it has `target` generations.
pub fn train(
    opts: &TrainOptions,
    on_event: &mut (dyn FnMut(Event) + Send),
) -> Result<PathBuf, TrainError> {
    train_shared(opts, None, on_event)
}

/// [`train`], the run shared through a store when `shared` is given (`None`: a local run,
/// exactly as [`train`]).
pub fn train_shared(
    opts: &TrainOptions,
    shared: Option<&Shared>,
    on_event: &mut (dyn FnMut(Event) + Send),
) -> Result<PathBuf, TrainError> {
    if opts.cpu_budget_s.is_some() && shared.is_some() {
        return Err(TrainError::SharedCpuBudget);
    }
    if let (Some(sh), Some(dir)) = (shared, &opts.run_dir) {
        crate::distributed::trainer::sync_down(&sh.store, dir)?;
    }
    let (dir, cfg) = open::open_run(opts)?;
    let name = cfg.game.name.clone();
    crate::for_game!(name.as_str(), G => train_game::<G>(opts, shared, dir, cfg, on_event))
}

/// [`train`] for the run's game `G` (its directory open and its config settled).
fn train_game<G: TrainGame>(
    opts: &TrainOptions,
    shared: Option<&Shared>,
    dir: PathBuf,
    cfg: TrainConfig,
    on_event: &mut (dyn FnMut(Event) + Send),
) -> Result<PathBuf, TrainError> {
    let target = opts.generations.unwrap_or(cfg.generation.total);
    let budget = opts.cpu_budget_s;
    // Before the run opens: a shared run settles a half-committed generation first.
    let side = match shared {
        Some(sh) => Some(TrainerSide::start(sh.clone(), &dir)?),
        None => None,
    };
    let mut run = Run::<G>::open(dir.clone(), cfg)?;
    run.dist = side;
    // The ledger's CPU time, not the clock's: where a run stops depends on its rows alone.
    let spent = |h: &History| h.last.as_ref().map_or(0.0, |r| r.cpu_s);
    if budget.is_some() && !spent(&run.history).is_finite() {
        return Err(TrainError::NoCpuTime {
            path: dir.join("progress.csv").display().to_string(),
        });
    }
    on_event(Event::Started {
        dir: &dir,
        resumed_from: run.history.done,
        target,
        cpu_s: spent(&run.history),
        cpu_budget_s: budget,
    });
    run.publish(run.history.done >= target)?;
    // The next generation's CPU time, guessed from the previous one (the mean at first): the
    // generation expected to reach the budget is the last and so always evaluated.
    let mut cost = spent(&run.history) / f64::from(run.history.done.max(1));
    while run.history.done < target && budget.is_none_or(|b| spent(&run.history) < b) {
        let before = spent(&run.history);
        let last = run.history.done + 1 == target || budget.is_some_and(|b| before + cost >= b);
        run.generation(last, on_event)?;
        cost = spent(&run.history) - before;
    }
    Ok(dir)
}

/// An open run of game `G`: what the generation loop keeps between generations (the rest is
/// on disk).
struct Run<G: TrainGame> {
    dir: PathBuf,
    cfg: TrainConfig,
    /// The start of every self-play and evaluation game.
    standard: G,
    /// The finished generations, as far as the loop needs them.
    history: History,
    net_config: NetConfig,
    device: Device,
    /// The training net (autodiff device) and its optimiser.
    net: Option<CrumbleNet>,
    optim: mtrain::Optimizer,
    window: ReplayWindow<G::Encoder>,
    tb: TbLog,
    started: Instant,
    elapsed_before: f64,
    cpu_started: cpu_time::ProcessTime,
    cpu_before: f64,
    /// The trainer's side of a shared run.
    dist: Option<TrainerSide>,
    /// The evaluation beside the loop (`[eval] background`), once one started.
    background: Option<eval::Background>,
}
