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
//! DIR/tb/events.out.tfevents.*       TensorBoard scalars (one file per process)
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
//! whole), and `progress.csv` is rewritten that way after everything else of a generation
//! exists: a generation is finished exactly when its row is there. A run killed at any moment
//! and resumed drops whatever belongs to unfinished generations (except self-play record
//! files, which are complete by construction and are kept, so self-play of the interrupted
//! generation continues where it was), and goes on from the last row.

use crate::config::{ConfigError, TrainConfig};
use crate::ledger::{self, COLUMNS, History, Opponent, Row};
use crate::replay::{HostBatch, ReplayError, ReplayWindow, generation_dir};
use crate::tb::TbLog;
use crumble_core::{Game, Player};
use crumble_model::NetLoader;
use crumble_model::train::{self as mtrain, OptimizerSettings, StepStats, TrainBatch};
use crumble_model::{CheckpointError, CrumbleNet, Device, NetConfig, NetEvaluator, checkpoint};
use crumble_selfplay::arena::{
    self, ArenaError, Flow, Openings, PairSettings, Pairing, Pool, Tally,
};
use crumble_selfplay::driver::with_threads;
use crumble_selfplay::selfplay::{self, SelfPlayError};
use crumble_selfplay::{Agent, AgentKind, AgentSpec, Evaluator, MixedEvaluator, Progress};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
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
    #[error("board: {0}")]
    Size(#[from] crumble_core::SizeError),
    #[error(
        "generation {generation}: {what}. The generation was stopped before its checkpoint: \
         nothing was saved or promoted, and the finished generations are untouched"
    )]
    NonFinite { generation: u32, what: String },
}

pub(crate) fn io_err(path: &Path) -> impl Fn(std::io::Error) -> TrainError + '_ {
    move |source| TrainError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
    crumble_selfplay::files::write_atomic(path, bytes).map_err(io_err(path))
}

use crumble_selfplay::files::tmp_path as tmp_name;

/// The checkpoint directory of generation `g`.
pub fn checkpoint_dir(run: &Path, generation: u32) -> PathBuf {
    run.join("checkpoints").join(format!("gen-{generation:04}"))
}

/// The network file of generation `g`.
pub fn checkpoint_path(run: &Path, generation: u32) -> PathBuf {
    checkpoint_dir(run, generation).join("net.crnet")
}

// ---------------------------------------------------------------------------------------
// Elo

/// The Elo difference of a score `s` in `(0, 1)`: `−400 · log10(1/s − 1)`. Scores of 0 or 1
/// are first moved half a game inside (`games` games), so a clean sweep gives a finite
/// (lower-bound) figure.
pub fn elo_from_score(score: f64, games: u64) -> f64 {
    if games == 0 || !score.is_finite() {
        return f64::NAN;
    }
    let half = 0.5 / games as f64;
    let s = score.clamp(half, 1.0 - half);
    -400.0 * (1.0 / s - 1.0).log10()
}

// ---------------------------------------------------------------------------------------
// The run

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
}

/// What the loop reports as it goes.
#[derive(Clone, Debug)]
pub enum Event<'a> {
    /// The run directory is ready (`resumed_from` finished generations found).
    Started {
        dir: &'a Path,
        resumed_from: u32,
        target: u32,
    },
    SelfPlay {
        generation: u32,
        progress: &'a Progress,
        seconds: f64,
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
    let (dir, cfg) = open_run(opts)?;
    let target = opts.generations.unwrap_or(cfg.generation.total);
    let mut run = Run::open(dir.clone(), cfg)?;
    on_event(Event::Started {
        dir: &dir,
        resumed_from: run.history.done,
        target,
    });
    while run.history.done < target {
        let last = run.history.done + 1 == target;
        run.generation(last, on_event)?;
    }
    Ok(dir)
}

/// Finds or creates the run directory and settles its config.
fn open_run(opts: &TrainOptions) -> Result<(PathBuf, TrainConfig), TrainError> {
    let given = match &opts.config {
        Some(p) => Some(TrainConfig::load(p)?),
        None => None,
    };
    let existing = opts
        .run_dir
        .as_ref()
        .filter(|d| d.join("config.toml").exists());
    if let Some(dir) = existing {
        let saved = TrainConfig::load(&dir.join("config.toml"))?;
        if let Some(g) = given {
            let keys = saved.differing_keys(&g);
            if !keys.is_empty() {
                return Err(TrainError::ConfigChanged {
                    dir: dir.display().to_string(),
                    keys,
                });
            }
        }
        return Ok((dir.clone(), saved));
    }
    let cfg = match given {
        Some(c) => c,
        None => {
            return Err(TrainError::Ledger {
                path: opts
                    .run_dir
                    .as_ref()
                    .map_or("<new run>".into(), |d| d.display().to_string()),
                what: "no config.toml here: a new run needs --config".into(),
            });
        }
    };
    let dir = match &opts.run_dir {
        Some(d) => d.clone(),
        None => opts.runs_root.join(timestamp_name()),
    };
    std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
    if std::fs::read_dir(&dir)
        .map_err(io_err(&dir))?
        .next()
        .is_some()
    {
        return Err(TrainError::Ledger {
            path: dir.display().to_string(),
            what: "exists, is not empty, and holds no config.toml: refusing to start a run in it"
                .into(),
        });
    }
    write_atomic(&dir.join("config.toml"), cfg.to_toml_string().as_bytes())?;
    ledger::create(&dir.join("progress.csv"))?;
    Ok((dir, cfg))
}

/// `YYYYMMDD-HHMMSS` in UTC, from the system clock.
fn timestamp_name() -> String {
    crate::clock::now_stamps().1
}

/// The run's ledger. A missing one is refused, since it is created with the run, unless the
/// directory holds nothing but the config (a run killed between writing the two).
fn read_ledger(dir: &Path) -> Result<Vec<Row>, TrainError> {
    let path = dir.join("progress.csv");
    if !path.exists() {
        let mut others = Vec::new();
        for e in std::fs::read_dir(dir).map_err(io_err(dir))? {
            let name = e.map_err(io_err(dir))?.file_name();
            if name != "config.toml" {
                others.push(name.to_string_lossy().into_owned());
            }
        }
        if others.is_empty() {
            ledger::create(&path)?;
        } else {
            others.sort();
            return Err(TrainError::Ledger {
                path: path.display().to_string(),
                what: format!(
                    "is missing, but the run directory holds {}: the ledger is what says which \
                     generations finished, and without it nothing can be resumed safely. Nothing \
                     was changed. Restore progress.csv from a copy, or start a new run in a new \
                     directory",
                    others.join(", ")
                ),
            });
        }
    }
    ledger::read(&path)
}

struct Run {
    dir: PathBuf,
    cfg: TrainConfig,
    /// The finished generations, as far as the loop needs them.
    history: History,
    net_config: NetConfig,
    device: Device,
    /// The training net (autodiff device) and its optimiser.
    net: Option<CrumbleNet>,
    optim: mtrain::Optimizer,
    window: ReplayWindow,
    tb: TbLog,
    started: Instant,
    elapsed_before: f64,
}

impl Run {
    fn open(dir: PathBuf, cfg: TrainConfig) -> Result<Run, TrainError> {
        let rows = read_ledger(&dir)?;
        let done = rows.len() as u32;
        ledger::check_against_disk(&dir, done)?;
        ledger::drop_torn_tail(&dir.join("progress.csv"))?;
        let history = History::new(rows, cfg.replay.window_max);
        clean_unfinished(&dir, done)?;
        let net_config = cfg.net_config();
        let device = crumble_model::default_device().autodiff();
        let ckpt0 = checkpoint_path(&dir, 0);
        if done == 0 && !ckpt0.exists() {
            let net = net_config
                .init(&device)
                .map_err(|e| TrainError::Architecture {
                    path: ckpt0.display().to_string(),
                    what: e.to_string(),
                })?;
            save_checkpoint(&dir, 0, &net_config, &net, None)?;
        }
        let path = checkpoint_path(&dir, done);
        let (loaded_cfg, net) = checkpoint::load(&path, &device)?;
        if loaded_cfg != net_config {
            return Err(TrainError::Architecture {
                path: path.display().to_string(),
                what: format!(
                    "checkpoint has {}, the config asks for {}",
                    serde_json::to_string(&loaded_cfg).unwrap_or_default(),
                    serde_json::to_string(&net_config).unwrap_or_default()
                ),
            });
        }
        let mut optim = mtrain::optimizer(&optimizer_settings(&cfg));
        let opt_path = checkpoint_dir(&dir, done).join("optimizer.bpk");
        if opt_path.exists() {
            let bytes = std::fs::read(&opt_path).map_err(io_err(&opt_path))?;
            optim = mtrain::load_optimizer_state(optim, bytes).map_err(|e| TrainError::Ledger {
                path: opt_path.display().to_string(),
                what: format!("cannot read the optimiser state: {e}"),
            })?;
        }
        let mut window = ReplayWindow::new();
        let (board, res) = (cfg.selfplay.board, cfg.selfplay.resolution);
        for g in window_generations(&cfg, &history) {
            load_generation(&mut window, &dir, g, &history, board, res)?;
        }
        let tb = TbLog::open(&dir.join("tb")).map_err(io_err(&dir.join("tb")))?;
        let elapsed_before = history.last.as_ref().map_or(0.0, |r| r.elapsed_s);
        Ok(Run {
            dir,
            cfg,
            history,
            net_config,
            device,
            net: Some(net),
            optim,
            window,
            tb,
            started: Instant::now(),
            elapsed_before,
        })
    }

    fn generation(
        &mut self,
        last: bool,
        on_event: &mut (dyn FnMut(Event) + Send),
    ) -> Result<(), TrainError> {
        let g = self.history.done + 1;
        let prev = self.history.last.as_ref();
        // The net self-play uses: the newest one promoted so far.
        let selfplay_net = prev.map_or(0, |r| r.best_net as u32);
        let steps_before = prev.map_or(0.0, |r| r.steps_total) as u64;
        let elo_before = prev.map_or(0.0, |r| r.elo);
        let mut row = Row::new(g);
        row.selfplay_net = f64::from(selfplay_net);

        // 1. Self-play with the current net.
        let t0 = Instant::now();
        let sp_dir = generation_dir(&self.dir, g);
        let mut sp = self.cfg.selfplay.clone();
        sp.seed = self
            .cfg
            .selfplay
            .seed
            .wrapping_add(u64::from(g).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let net = NetEvaluator::load(
            &checkpoint_path(&self.dir, selfplay_net),
            crumble_model::default_device(),
        )?;
        let mix = self.cfg.generation.rollout_mix_at(g);
        let evaluator: Box<dyn Evaluator<Game>> = if mix > 0.0 {
            Box::new(MixedEvaluator::new(
                net,
                self.cfg.search.rollout.clone(),
                mix as f32,
                sp.seed ^ 0x5E_ED0F_7011_0075,
            ))
        } else {
            Box::new(net)
        };
        let agent = Agent {
            name: format!("gen-{selfplay_net:04}"),
            kind: AgentKind::Mcts {
                evaluator,
                simulations: self.cfg.search.simulations,
                config: self.cfg.search.clone(),
            },
        };
        let games_wanted = self.cfg.generation.games;
        let standard = Game::new(sp.board, sp.resolution)?;
        let (_, progress) = with_threads(self.cfg.generation.threads, || {
            selfplay::run_selfplay(agent, &sp, &standard, &sp_dir, games_wanted, &mut |p| {
                on_event(Event::SelfPlay {
                    generation: g,
                    progress: p,
                    seconds: t0.elapsed().as_secs_f64(),
                })
            })
        })?;
        let sp_secs = t0.elapsed().as_secs_f64();
        let games = crate::replay::read_generation(&sp_dir)?;
        selfplay_stats(&games, &mut row)?;
        row.selfplay_s = sp_secs;
        row.sims_per_s = progress.simulations as f64 / sp_secs.max(1e-9);
        // Games of this process only give the rate (a resumed generation has older ones too).
        row.games_per_hour = progress.games_done as f64 * 3600.0 / sp_secs.max(1e-9);
        let (board, res) = (self.cfg.selfplay.board, self.cfg.selfplay.resolution);
        self.window.insert(g, games, board, res)?;
        let new_positions = self.window.samples_of(g);
        row.positions = new_positions as f64;

        // 2. The replay window.
        let keep = window_generations_with(&self.cfg, &self.history, new_positions, g);
        if let Some(&oldest) = keep.first() {
            self.window.retain_from(oldest);
        }
        for gen_ in keep {
            if !self.window.generations().contains(&gen_) {
                load_generation(&mut self.window, &self.dir, gen_, &self.history, board, res)?;
            }
        }
        row.replay_positions = self.window.len() as f64;

        // 3. Training.
        let t1 = Instant::now();
        let o = &self.cfg.optim;
        let steps = if o.steps_per_generation > 0 {
            o.steps_per_generation
        } else {
            ((new_positions as f64 * o.sample_reuse / o.batch_size as f64).ceil() as u64).max(1)
        };
        let mut rng = ChaCha8Rng::seed_from_u64(self.cfg.selfplay.seed ^ (u64::from(g) << 32));
        let mut host = HostBatch::default();
        let mut sums = [0.0f64; 4];
        let mut sign_n = 0u32;
        let mut lr = 0.0;
        let stride = self.net_config.stride();
        for step in 0..steps {
            if self.window.is_empty() {
                break;
            }
            let refs = self.window.draw(o.batch_size, &mut rng);
            self.window
                .build(&refs, &self.cfg.replay, &mut rng, &mut host)?;
            let batch = TrainBatch::from_host(
                host.grid,
                stride,
                std::mem::take(&mut host.planes),
                std::mem::take(&mut host.policy),
                std::mem::take(&mut host.mask),
                std::mem::take(&mut host.value),
                &self.device,
            );
            lr = o.lr_at(g, steps_before + step);
            let net = self.net.take().expect("the training net is always there");
            let (net, stats) = mtrain::train_step(net, &mut self.optim, &batch, lr, o.value_weight);
            self.net = Some(net);
            // A non-finite loss poisons the weights: stop before anything is written.
            if !(stats.policy_loss.is_finite() && stats.value_loss.is_finite()) {
                return Err(TrainError::NonFinite {
                    generation: g,
                    what: format!(
                        "training step {} of {steps}: policy loss {}, value loss {}",
                        step + 1,
                        stats.policy_loss,
                        stats.value_loss
                    ),
                });
            }
            sums[0] += f64::from(stats.policy_loss);
            sums[1] += f64::from(stats.value_loss);
            sums[2] += f64::from(stats.policy_entropy);
            if stats.value_sign_agreement.is_finite() {
                sums[3] += f64::from(stats.value_sign_agreement);
                sign_n += 1;
            }
            on_event(Event::Train {
                generation: g,
                step: step + 1,
                steps,
                stats: &stats,
            });
        }
        let n = steps.max(1) as f64;
        let net = self.net.as_ref().expect("the training net is always there");
        let bad = mtrain::non_finite_weights(net);
        if bad > 0 {
            return Err(TrainError::NonFinite {
                generation: g,
                what: format!("after {steps} training steps, {bad} weights are NaN or infinite"),
            });
        }
        let l2 = o.l2 * mtrain::sum_of_squares(net);
        let train_s = t1.elapsed().as_secs_f64();
        row.steps = steps as f64;
        row.steps_total = (steps_before + steps) as f64;
        row.samples_per_s = (steps as usize * o.batch_size) as f64 / train_s.max(1e-9);
        row.lr = lr;
        row.policy_loss = sums[0] / n;
        row.value_loss = sums[1] / n;
        row.l2_loss = l2;
        row.total_loss = sums[0] / n + o.value_weight * sums[1] / n + l2;
        row.policy_entropy = sums[2] / n;
        if sign_n > 0 {
            row.value_sign_agreement = sums[3] / f64::from(sign_n);
        }
        row.train_s = train_s;

        // 4. Checkpoint.
        save_checkpoint(&self.dir, g, &self.net_config, net, Some(&self.optim))?;

        // 5. Evaluation.
        let t2 = Instant::now();
        let e = self.cfg.eval.clone();
        let evaluate = e.every > 0 && (g.is_multiple_of(e.every) || last);
        let mut promoted = true;
        if evaluate {
            let me = checkpoint_path(&self.dir, g);
            let mut matches: Vec<(Opponent, u64, EvalAgent)> = vec![
                (
                    Opponent::Previous,
                    e.games_vs_previous,
                    EvalAgent::Checkpoint(checkpoint_path(&self.dir, g - 1)),
                ),
                (Opponent::Random, e.games_vs_random, EvalAgent::Random),
                (
                    Opponent::Rollout,
                    e.games_vs_rollout,
                    EvalAgent::Spec(format!("mcts:rollout:{}", e.rollout_simulations)),
                ),
            ];
            matches.retain(|m| m.1 > 0);
            for (opponent, games, agent) in matches {
                let t = self.play_eval(&me, &agent, games, g, opponent.name(), on_event)?;
                let score = t.wdl.score();
                row.set_eval(opponent, score, elo_from_score(score, t.wdl.games()));
            }
            if e.gating && e.games_vs_previous > 0 {
                promoted = row.score_vs_previous >= e.gating_threshold;
            }
        }
        // Figures of an evaluation only when there was one (empty cells otherwise); the
        // running Elo is carried in progress.csv for the next evaluation to add to.
        let elo_step = row.elo_vs_previous;
        row.elo = elo_before + if elo_step.is_finite() { elo_step } else { 0.0 };
        if evaluate {
            row.eval_s = t2.elapsed().as_secs_f64();
        }
        row.promoted = if promoted { 1.0 } else { 0.0 };
        // The net the next generation plays self-play with.
        row.best_net = f64::from(if promoted { g } else { selfplay_net });

        // 6. The logs, then the ledger.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64());
        row.unix_time = now.floor();
        row.elapsed_s = self.elapsed_before + self.started.elapsed().as_secs_f64();
        // Logged before the ledger commits the generation: a kill in between repeats the
        // generation and logs its step twice, rather than never.
        let tb_dir = self.dir.join("tb");
        log_row(&mut self.tb, &row, g).map_err(io_err(&tb_dir))?;
        ledger::append(&self.dir.join("progress.csv"), &row)?;
        self.history.push(row.clone(), self.cfg.replay.window_max);
        on_event(Event::Finished {
            generation: g,
            row: &row,
        });
        Ok(())
    }

    /// Plays an evaluation match of the new checkpoint `me` against `opp`, exactly as
    /// `crumble match` plays one (the same engine, game pairs from `[eval] opening_turns`
    /// random turns, match search settings); returns the new net's tally.
    fn play_eval(
        &self,
        me: &Path,
        opp: &EvalAgent,
        games: u64,
        g: u32,
        name: &str,
        on_event: &mut (dyn FnMut(Event) + Send),
    ) -> Result<Tally, TrainError> {
        let e = &self.cfg.eval;
        let ckpt = |path: &Path| format!("ckpt:{}:{}", path.display(), e.simulations);
        let opponent = match opp {
            EvalAgent::Checkpoint(p) => ckpt(p),
            EvalAgent::Random => "random".into(),
            EvalAgent::Spec(s) => s.clone(),
        };
        let specs = [AgentSpec::parse(&ckpt(me))?, AgentSpec::parse(&opponent)?];
        let pool = Pool::new(&specs, &self.cfg.search.for_play(), &NetLoader::new())?;
        let pairs = games.div_ceil(2);
        let seed = self.cfg.selfplay.seed ^ (u64::from(g) << 20) ^ name.len() as u64;
        let openings = if e.opening_turns == 0 {
            Openings::Standard
        } else {
            Openings::RandomTurns(e.opening_turns)
        };
        let (board, res) = (self.cfg.selfplay.board, self.cfg.selfplay.resolution);
        let standard = Game::new(board, res)?;
        let starts = arena::opening_positions(&standard, &openings, pairs, seed)?;
        let settings = PairSettings {
            pairs,
            max_turns: e.max_turns,
            concurrency: e.parallel_games,
            seed,
            first_game: 0,
        };
        let mut tally = Tally::default();
        with_threads(self.cfg.generation.threads, || {
            arena::play_pairings(
                &pool,
                &[Pairing { a: 0, b: 1 }],
                &[],
                &starts,
                &settings,
                &mut |pair| {
                    tally.add(pair);
                    on_event(Event::Eval {
                        generation: g,
                        opponent: name,
                        tally: &tally,
                        total: 2 * pairs,
                    });
                    Ok(Flow::Continue)
                },
            )
        })?;
        Ok(tally)
    }
}

/// Who an evaluation match is played against.
enum EvalAgent {
    Checkpoint(PathBuf),
    Random,
    Spec(String),
}

fn optimizer_settings(cfg: &TrainConfig) -> OptimizerSettings {
    let o = &cfg.optim;
    OptimizerSettings {
        sgd_momentum: match o.optimizer {
            crate::config::OptimizerKind::Adam => None,
            crate::config::OptimizerKind::Sgd => Some(o.momentum),
        },
        l2: o.l2,
        grad_clip_norm: (o.grad_clip_norm > 0.0).then_some(o.grad_clip_norm),
    }
}

/// Writes `checkpoints/gen-g/` as a whole: built under a temporary name, then renamed.
fn save_checkpoint(
    run: &Path,
    g: u32,
    config: &NetConfig,
    net: &CrumbleNet,
    optim: Option<&mtrain::Optimizer>,
) -> Result<(), TrainError> {
    let dir = checkpoint_dir(run, g);
    let tmp = tmp_name(&dir);
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(io_err(&tmp))?;
    }
    std::fs::create_dir_all(&tmp).map_err(io_err(&tmp))?;
    checkpoint::save(&tmp.join("net.crnet"), config, net)?;
    let json = serde_json::to_string_pretty(config).expect("a net config serialises");
    write_atomic(&tmp.join("net.json"), json.as_bytes())?;
    if let Some(o) = optim {
        let bytes = mtrain::optimizer_state_bytes(o).map_err(|e| TrainError::Ledger {
            path: tmp.join("optimizer.bpk").display().to_string(),
            what: format!("cannot encode the optimiser state: {e}"),
        })?;
        write_atomic(&tmp.join("optimizer.bpk"), &bytes)?;
    }
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(io_err(&dir))?;
    }
    std::fs::rename(&tmp, &dir).map_err(io_err(&dir))
}

/// Removes what belongs to generations after `done` (kept: complete self-play files of
/// generation `done + 1`) and every temporary file.
fn clean_unfinished(run: &Path, done: u32) -> Result<(), TrainError> {
    let gen_of = |p: &Path| -> Option<(u32, bool)> {
        let name = p.file_name()?.to_str()?;
        let tmp = name.ends_with(".tmp");
        let n = name
            .strip_prefix("gen-")?
            .trim_end_matches(".tmp")
            .parse()
            .ok()?;
        Some((n, tmp))
    };
    let ck = run.join("checkpoints");
    if ck.exists() {
        for e in std::fs::read_dir(&ck).map_err(io_err(&ck))? {
            let p = e.map_err(io_err(&ck))?.path();
            if let Some((n, tmp)) = gen_of(&p)
                && (tmp || n > done)
            {
                std::fs::remove_dir_all(&p).map_err(io_err(&p))?;
            }
        }
    }
    let rp = run.join("replay");
    if rp.exists() {
        for e in std::fs::read_dir(&rp).map_err(io_err(&rp))? {
            let p = e.map_err(io_err(&rp))?.path();
            match gen_of(&p) {
                Some((n, false)) if n == done + 1 => {
                    // Keep complete record files; drop temporaries and any readable copy
                    // whose record file is missing (the record file is written last).
                    for f in std::fs::read_dir(&p).map_err(io_err(&p))? {
                        let f = f.map_err(io_err(&p))?.path();
                        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
                        let orphan_txt =
                            name.ends_with(".txt") && !f.with_extension("crsp").exists();
                        if name.ends_with(".tmp") || orphan_txt {
                            std::fs::remove_file(&f).map_err(io_err(&f))?;
                        }
                    }
                }
                Some((n, tmp)) if tmp || n > done => {
                    std::fs::remove_dir_all(&p).map_err(io_err(&p))?;
                }
                _ => {}
            }
        }
    }
    let csv_tmp = tmp_name(&run.join("progress.csv"));
    if csv_tmp.exists() {
        std::fs::remove_file(&csv_tmp).map_err(io_err(&csv_tmp))?;
    }
    Ok(())
}

/// Loads finished generation `g` into the window, refusing a generation whose record files
/// do not hold exactly the games its ledger row counts (a deleted file or directory is an
/// error, never silently less data).
fn load_generation(
    window: &mut ReplayWindow,
    run: &Path,
    g: u32,
    history: &History,
    board: u16,
    resolution: u16,
) -> Result<(), TrainError> {
    let dir = generation_dir(run, g);
    let games = crate::replay::read_generation(&dir)?;
    let want = history.games_of(g).ok_or_else(|| TrainError::Ledger {
        path: dir.display().to_string(),
        what: format!("generation {g} is not among the finished generations the window can hold"),
    })?;
    if games.len() as f64 != want {
        return Err(TrainError::Ledger {
            path: dir.display().to_string(),
            what: format!(
                "holds {} games, but progress.csv says generation {g} played {want}: record \
                 files are missing or were added. Nothing was changed; restore the files",
                games.len()
            ),
        });
    }
    window.insert(g, games, board, resolution)?;
    Ok(())
}

/// The generations the window holds after the finished generations of `history`.
fn window_generations(cfg: &TrainConfig, history: &History) -> Vec<u32> {
    match &history.last {
        None => Vec::new(),
        Some(last) => window_generations_with(cfg, history, last.positions as u64, history.done),
    }
}

/// The generations in the window when generation `newest` (with `newest_positions`) is the
/// newest: the newest ones whose positions fit the window size. `newest` is either the last
/// finished generation of `history` or the one after it.
fn window_generations_with(
    cfg: &TrainConfig,
    history: &History,
    newest_positions: u64,
    newest: u32,
) -> Vec<u32> {
    let total = if newest <= history.done {
        history.total_positions
    } else {
        history.total_positions + newest_positions
    };
    let want = cfg.replay.window(total);
    let mut have = newest_positions;
    let mut gens = vec![newest];
    for g in (1..newest).rev() {
        // Generations no longer tracked cannot fit (see `History`).
        let Some(p) = history.positions_of(g) else {
            break;
        };
        if have + p > want {
            break;
        }
        have += p;
        gens.push(g);
    }
    gens.reverse();
    gens
}

/// Fills the self-play columns from the generation's games.
fn selfplay_stats(games: &[crumble_selfplay::GameRecord], row: &mut Row) -> Result<(), TrainError> {
    let n = games.len() as f64;
    row.games = n;
    if games.is_empty() {
        return Ok(());
    }
    let (mut turns, mut black, mut draws) = (0u64, 0.0, 0u64);
    let (mut would, mut false_pos) = (0u64, 0u64);
    for rec in games {
        let end: Game = rec.replay().map_err(|e| ReplayError::Replay {
            index: rec.index,
            what: e.to_string(),
        })?;
        turns += u64::from(end.turns_played());
        match rec.winner() {
            Some(Player::First) => black += 1.0,
            None => {
                black += 0.5;
                draws += 1;
            }
            Some(Player::Second) => {}
        }
        if let Some(r) = rec.would_resign {
            would += 1;
            // The resignation would have been wrong unless the resigner lost.
            if rec.winner() != Some(r.opponent()) {
                false_pos += 1;
            }
        }
    }
    row.mean_turns = turns as f64 / n;
    row.black_score = black / n;
    row.draw_rate = draws as f64 / n;
    if would > 0 {
        row.resign_fp_rate = false_pos as f64 / would as f64;
    }
    Ok(())
}

fn log_row(tb: &mut TbLog, row: &Row, g: u32) -> std::io::Result<()> {
    for (column, value) in COLUMNS.iter().zip(row.values()) {
        let Some(tag) = column.tag else { continue };
        if column.name == "elo" && !row.evaluated() {
            continue; // carried over, not measured this generation
        }
        tb.scalar(tag, value, g)?;
    }
    tb.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_scores() {
        assert!((elo_from_score(0.5, 10)).abs() < 1e-9);
        // 0.75: −400·log10(1/3) = 190.85
        assert!((elo_from_score(0.75, 100) - 190.848_501_887_864_9).abs() < 1e-6);
        // A sweep of 20 games counts as 19.5/20.
        assert!((elo_from_score(1.0, 20) - 400.0 * 39f64.log10()).abs() < 1e-6);
        assert!(elo_from_score(0.3, 0).is_nan());
    }

    #[test]
    fn timestamp_names_are_dates() {
        let s = timestamp_name();
        assert_eq!(s.len(), 15);
        assert!(s.starts_with("20"), "{s}");
        assert_eq!(&s[8..9], "-");
    }
}
