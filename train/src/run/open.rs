//! Opening a run: a new directory or an existing one with its config settled, then the
//! state a resumed run goes on from (ledger, net, optimiser, replay window, logs).

use super::layout::{
    check_against_disk, checkpoint_dir, checkpoint_path, clean_unfinished, read_ledger,
    save_checkpoint, timestamp_name,
};
use super::{Run, TrainError, TrainOptions, io_err, window, write_atomic};
use crate::config::{OptimizerKind, TrainConfig};
use crate::games::TrainGame;
use crate::ledger::{self, History};
use crate::tb::TbLog;
use crumble_model::train::{self as mtrain, OptimizerSettings};
use crumble_model::{CrumbleNet, Device, NetConfig, checkpoint};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Finds or creates the run directory and settles its config.
pub(super) fn open_run(opts: &TrainOptions) -> Result<(PathBuf, TrainConfig), TrainError> {
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
    let Some(cfg) = given else {
        return Err(TrainError::Ledger {
            path: opts
                .run_dir
                .as_ref()
                .map_or("<new run>".into(), |d| d.display().to_string()),
            what: "no config.toml here: a new run needs --config".into(),
        });
    };
    let dir = match &opts.run_dir {
        Some(d) => d.clone(),
        None => opts.runs_root.join(timestamp_name()),
    };
    create_run_dir(&dir, &cfg)?;
    Ok((dir, cfg))
}

/// Starts a new run in `dir`: its config, then its (empty) ledger. An existing directory
/// must be empty, so that nothing of another run is mixed in or deleted.
fn create_run_dir(dir: &Path, cfg: &TrainConfig) -> Result<(), TrainError> {
    std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    if std::fs::read_dir(dir)
        .map_err(io_err(dir))?
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
    ledger::create(&dir.join("progress.csv"))
}

impl<G: TrainGame> Run<G> {
    /// Opens the run in `dir` (its config settled) where its last finished generation left
    /// off, after dropping whatever unfinished generations left behind.
    pub(super) fn open(dir: PathBuf, cfg: TrainConfig) -> Result<Run<G>, TrainError> {
        let standard = G::standard_start(&cfg).map_err(|e| TrainError::Start(Box::new(e)))?;
        let history = settle_ledger(&dir, &cfg)?;
        let net_config = G::net_config(&cfg);
        let device = crumble_model::default_device().autodiff();
        let zero_outputs = cfg.net.zero_init_outputs;
        let net = load_net(&dir, history.done, &net_config, zero_outputs, &device)?;
        let optim = load_optimizer(&dir, history.done, &cfg)?;
        let window = window::load_window(&cfg, &standard, &dir, &history)?;
        let tb = TbLog::open(&dir.join("tb")).map_err(io_err(&dir.join("tb")))?;
        let elapsed_before = history.last.as_ref().map_or(0.0, |r| r.elapsed_s);
        // A ledger from before `cpu_s` was measured: those generations' CPU time is unknown
        // (NaN), and stays so rather than counting from zero.
        let cpu_before = history.last.as_ref().map_or(0.0, |r| r.cpu_s);
        Ok(Run {
            dir,
            cfg,
            standard,
            history,
            net_config,
            device,
            net: Some(net),
            optim,
            window,
            tb,
            started: Instant::now(),
            elapsed_before,
            cpu_started: cpu_time::ProcessTime::now(),
            cpu_before,
            dist: None,
            background: None,
        })
    }
}

/// Reads the ledger, refuses it if it lost rows, and removes the unfinished generations'
/// files (a torn last row included): what is left is exactly the finished generations.
fn settle_ledger(dir: &Path, cfg: &TrainConfig) -> Result<History, TrainError> {
    let rows = read_ledger(dir)?;
    let done = rows.len() as u32;
    check_against_disk(dir, done)?;
    ledger::drop_torn_tail(&dir.join("progress.csv"))?;
    ledger::upgrade(&dir.join("progress.csv"))?;
    let history = History::new(rows, cfg.replay.window_max);
    clean_unfinished(dir, done)?;
    Ok(history)
}

/// The training net of the last finished generation `done` (generation 0, the initial net,
/// is created first when there is none), refused if it is not the config's architecture.
fn load_net(
    dir: &Path,
    done: u32,
    net_config: &NetConfig,
    zero_outputs: bool,
    device: &Device,
) -> Result<CrumbleNet, TrainError> {
    let ckpt0 = checkpoint_path(dir, 0);
    if done == 0 && !ckpt0.exists() {
        let net = if zero_outputs {
            net_config.init_zero_outputs(device)
        } else {
            net_config.init(device)
        };
        let net = net.map_err(|e| TrainError::Architecture {
            path: ckpt0.display().to_string(),
            what: e.to_string(),
        })?;
        save_checkpoint(dir, 0, net_config, &net, None)?;
    }
    let path = checkpoint_path(dir, done);
    let (loaded_cfg, net) = checkpoint::load(&path, device)?;
    if loaded_cfg != *net_config {
        return Err(TrainError::Architecture {
            path: path.display().to_string(),
            what: format!(
                "checkpoint has {}, the config asks for {}",
                serde_json::to_string(&loaded_cfg).unwrap_or_default(),
                serde_json::to_string(net_config).unwrap_or_default()
            ),
        });
    }
    Ok(net)
}

/// The optimiser, with the state saved with generation `done` if there is one (generation
/// 0 has none: training starts fresh).
fn load_optimizer(
    dir: &Path,
    done: u32,
    cfg: &TrainConfig,
) -> Result<mtrain::Optimizer, TrainError> {
    let optim = mtrain::optimizer(&optimizer_settings(cfg));
    let opt_path = checkpoint_dir(dir, done).join("optimizer.bpk");
    if !opt_path.exists() {
        return Ok(optim);
    }
    let bytes = std::fs::read(&opt_path).map_err(io_err(&opt_path))?;
    mtrain::load_optimizer_state(optim, bytes).map_err(|e| TrainError::Ledger {
        path: opt_path.display().to_string(),
        what: format!("cannot read the optimiser state: {e}"),
    })
}

fn optimizer_settings(cfg: &TrainConfig) -> OptimizerSettings {
    let o = &cfg.optim;
    OptimizerSettings {
        sgd_momentum: match o.optimizer {
            OptimizerKind::Adam => None,
            OptimizerKind::Sgd => Some(o.momentum),
        },
        l2: o.l2,
        grad_clip_norm: (o.grad_clip_norm > 0.0).then_some(o.grad_clip_norm),
    }
}
