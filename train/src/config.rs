//! The training config: one TOML file with a section per part of a generation.
//!
//! `[game]` which game of the registry the run learns, `[net]` the network's sizes,
//! `[selfplay]` and `[search]` the self-play games (which `crumble selfplay --config` reads
//! too), `[generation]` how many games a generation plays, `[replay]` the window of recent
//! positions, `[optim]` the training steps, `[eval]` the matches after each generation;
//! `[book]` how `crumble book` grows an opening book.
//! Every key has a default, so a config may be partial; unknown keys are errors, and every
//! value is range-checked with its key named. A run directory keeps the full resolved config
//! (`config.toml`), so a run resumes with exactly the settings it started with.

use crumble_model::NetConfig;
use crumble_selfplay::adjudication::Adjudication;
use crumble_selfplay::book::BookConfig;
use crumble_selfplay::{Lookahead, SearchConfig, SelfPlayConfig};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

pub use crumble_selfplay::ConfigError;
pub use eval::{EvalBackground, EvalConfig};
pub use optim::{OptimConfig, OptimizerKind};

mod eval;
mod legacy;
mod optim;

/// Everything a training run needs to know.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    pub game: GameSection,
    pub net: NetSection,
    pub selfplay: SelfPlayConfig,
    pub search: SearchConfig,
    pub generation: GenerationConfig,
    pub replay: ReplayConfig,
    pub optim: OptimConfig,
    pub eval: EvalConfig,
    /// `[book]`: how `crumble book` grows an opening book.
    pub book: BookConfig,
    /// `[adjudication]`: when `crumble match` and `crumble tournament` end games early.
    pub adjudication: Adjudication,
}

/// `[game]`: which game a run learns, and where its games start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GameSection {
    /// One of [`crate::games::GAMES`] (default: the registry's first, Crumble).
    pub name: String,
    /// `[game.start]`: the game's start specification, its start JSON written as TOML
    /// (Crumble's `board` and `resolution`, Splinter's `width` and `height`, Crumo's
    /// `size`); absent, the game's default start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<toml::Table>,
    /// Keys of earlier versions (`width`, `height`, `size`), refused with the key that
    /// replaced them.
    #[serde(skip_serializing)]
    width: Option<toml::Value>,
    #[serde(skip_serializing)]
    height: Option<toml::Value>,
    #[serde(skip_serializing)]
    size: Option<toml::Value>,
}

impl Default for GameSection {
    fn default() -> Self {
        GameSection::new(crate::games::GAMES[0], None)
    }
}

impl GameSection {
    /// The section of game `name` starting at `start` (`None`: its default start).
    pub fn new(name: &str, start: Option<toml::Table>) -> GameSection {
        GameSection {
            name: name.into(),
            start,
            width: None,
            height: None,
            size: None,
        }
    }
}

/// `[net]`: the sizes of the network (see `crumble_model::NetConfig`). Its resolution is the
/// self-play resolution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetSection {
    pub cell_pixels: usize,
    pub channels: usize,
    pub blocks: usize,
    pub gpool_every: usize,
    pub value_hidden: usize,
    pub seed: u64,
    /// The heads' output layers start at zero (`NetConfig::init_zero_outputs`).
    pub zero_init_outputs: bool,
}

impl Default for NetSection {
    fn default() -> Self {
        let n = NetConfig::new();
        NetSection {
            cell_pixels: n.cell_pixels,
            channels: n.channels,
            blocks: n.blocks,
            gpool_every: n.gpool_every,
            value_hidden: n.value_hidden,
            seed: n.seed,
            zero_init_outputs: false,
        }
    }
}

/// `[generation]`: the size of one generation's self-play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GenerationConfig {
    /// Generations of a run when `crumble train` is not given `--generations`.
    pub total: u32,
    /// Self-play games per generation.
    pub games: u64,
    /// Worker threads for self-play and matches (0 = one per core).
    pub threads: usize,
    /// `[[G, w], ...]`: from generation G on, self-play leaf values are
    /// `(1 − w) · network + w · random playouts` (see `crumble_selfplay::MixedEvaluator`);
    /// before the first entry, and with none, the network alone.
    pub rollout_mix: Vec<(u32, f64)>,
}

impl GenerationConfig {
    /// The playouts' share of self-play leaf values in `generation`.
    pub fn rollout_mix_at(&self, generation: u32) -> f64 {
        let mut w = 0.0;
        for &(g, f) in &self.rollout_mix {
            if generation >= g {
                w = f;
            }
        }
        w
    }
}

impl Default for GenerationConfig {
    fn default() -> Self {
        GenerationConfig {
            total: 100,
            games: 64,
            threads: 0,
            rollout_mix: Vec::new(),
        }
    }
}

/// `[replay]`: which positions training samples from.
///
/// The window grows with the run as in KataGo: after `N` positions in all, it holds the most
/// recent `min(N, clamp(c · (1 + beta · ((N/c)^alpha − 1) / alpha), c, max))` positions, with
/// `c = window_min`, counted in whole generations (the newest always included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReplayConfig {
    pub window_min: u64,
    pub window_max: u64,
    pub window_alpha: f64,
    pub window_beta: f64,
    /// Train on a random exact symmetry of each sample (see `crumble_model::encoders::crumble::symmetry`).
    pub augment: bool,
    /// The value target is `(1 − q) · game result + q · the search's root value`.
    pub value_q_weight: f64,
    /// Where the search proved the root's value, the target becomes
    /// `(1 − p) · the target above + p · the proven value` (1 = the proof replaces it).
    pub proven_value_weight: f64,
    /// Policy-surprise weighting: the share of the draws given to samples in proportion to
    /// how much their search target surprised the network (0 = uniform draws; see
    /// `crate::replay`).
    pub policy_surprise_weight: f64,
}

impl Default for ReplayConfig {
    fn default() -> Self {
        ReplayConfig {
            window_min: 20_000,
            window_max: 500_000,
            window_alpha: 0.75,
            window_beta: 0.4,
            augment: true,
            value_q_weight: 0.0,
            proven_value_weight: 1.0,
            policy_surprise_weight: 0.0,
        }
    }
}

impl ReplayConfig {
    /// Positions the window should hold after `total` positions in all.
    pub fn window(&self, total: u64) -> u64 {
        let c = self.window_min.max(1) as f64;
        let n = total as f64;
        let grown = if n <= c {
            c
        } else {
            c * (1.0
                + self.window_beta * ((n / c).powf(self.window_alpha) - 1.0) / self.window_alpha)
        };
        (grown.clamp(c, self.window_max.max(1) as f64) as u64).min(total)
    }
}

impl TrainConfig {
    /// The `[search]` and `[selfplay]` sections, as the commands that play games take them.
    pub fn play_config(&self) -> crumble_selfplay::ConfigFile {
        crumble_selfplay::ConfigFile {
            search: self.search.clone(),
            selfplay: self.selfplay.clone(),
        }
    }

    /// Parses and validates a config; `path` names the file in errors. A config of the
    /// layout before `[game.start]` (Crumble's board as `[selfplay] board` and
    /// `resolution`, which every run directory of that time keeps) reads as its
    /// `[game.start]`.
    pub fn from_toml_str(text: &str, path: &str) -> Result<TrainConfig, ConfigError> {
        let parse = |message: String| ConfigError::Parse {
            path: path.into(),
            message,
        };
        let mut table: toml::Table = toml::from_str(text).map_err(|e| parse(e.to_string()))?;
        legacy::move_crumble_board(&mut table)
            .map_err(|(key, value, reason)| invalid(path, &key, value, &reason))?;
        let c: TrainConfig = table.try_into().map_err(|e| parse(e.to_string()))?;
        c.validate(path)?;
        Ok(c)
    }

    pub fn load(path: &Path) -> Result<TrainConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.display().to_string(),
            source,
        })?;
        TrainConfig::from_toml_str(&text, &path.display().to_string())
    }

    /// The full config as TOML (every key).
    pub fn to_toml_string(&self) -> String {
        toml::to_string(self).expect("a training config always serialises")
    }

    /// The `[net]` sizes as a network config, at resolution 1 (one grid cell a board cell);
    /// a game's [`TrainGame::net_config`](crate::games::TrainGame::net_config) sets its own
    /// resolution and encoder.
    pub fn net_config(&self) -> NetConfig {
        let n = &self.net;
        NetConfig::new()
            .with_resolution(1)
            .with_cell_pixels(n.cell_pixels)
            .with_channels(n.channels)
            .with_blocks(n.blocks)
            .with_gpool_every(n.gpool_every)
            .with_value_hidden(n.value_hidden)
            .with_seed(n.seed)
            .with_ownership(self.optim.ownership_weight > 0.0)
            .with_short_value(self.optim.short_value_weight > 0.0)
            .with_soft_policy(self.optim.soft_policy_weight > 0.0)
    }

    /// Checks every range; errors name the key.
    pub fn validate(&self, path: &str) -> Result<(), ConfigError> {
        self.validate_game(path)?;
        self.search.validate().map_err(|e| e.in_path(path))?;
        self.selfplay.validate().map_err(|e| e.in_path(path))?;
        self.book.validate().map_err(|e| e.in_path(path))?;
        self.adjudication
            .check()
            .map_err(|message| ConfigError::Parse {
                path: path.into(),
                message,
            })?;
        crate::for_game!(self.game.name.as_str(), G => {
            <G as crate::games::TrainGame>::net_config(self).validate()
        })
        .map_err(|e| ConfigError::Parse {
            path: path.into(),
            message: format!("[net] for the game's start: {e}"),
        })?;
        self.validate_data(path)?;
        self.validate_optim(path)?;
        self.validate_eval(path)
    }

    /// `[game]`: a game of this build, no keys of the old layout, a start the game plays.
    fn validate_game(&self, path: &str) -> Result<(), ConfigError> {
        let bad = |key: &str, value: String, reason: &str| invalid(path, key, value, reason);
        if !crate::games::GAMES.contains(&self.game.name.as_str()) {
            return Err(bad(
                "game.name",
                format!("{:?}", self.game.name),
                &format!(
                    "not a game of this build: {}",
                    crate::games::GAMES.join(", ")
                ),
            ));
        }
        let old = [
            ("width", &self.game.width),
            ("height", &self.game.height),
            ("size", &self.game.size),
        ];
        if let Some((key, Some(v))) = old.into_iter().find(|(_, v)| v.is_some()) {
            return Err(bad(
                &format!("game.{key}"),
                v.to_string(),
                &format!(
                    "the start moved to [game.start]: write `[game.start]` then `{key} = {v}`"
                ),
            ));
        }
        // The start must be one the game plays and its network can encode.
        crate::for_game!(self.game.name.as_str(), G => {
            <G as crate::games::TrainGame>::standard_start(self).map(|_| ())
        })
        .map_err(|e| {
            let shown = self.game.start.as_ref().map_or("the default".into(), |t| {
                toml::to_string(t)
                    .unwrap_or_default()
                    .trim()
                    .replace('\n', ", ")
            });
            bad("game.start", shown, &e.to_string())
        })?;
        Ok(())
    }

    /// Where the training data comes from: `[generation]` (games, threads, rollout mix) and
    /// `[replay]` (the window and the value targets' weights).
    fn validate_data(&self, path: &str) -> Result<(), ConfigError> {
        let bad = |key: &str, value: String, reason: &str| invalid(path, key, value, reason);
        if self.generation.games == 0 {
            return Err(bad("generation.games", "0".into(), "must be at least 1"));
        }
        if let Err(why) = crumble_selfplay::driver::check_threads(self.generation.threads) {
            return Err(bad(
                "generation.threads",
                self.generation.threads.to_string(),
                &why,
            ));
        }
        let r = &self.replay;
        if r.window_min == 0 || r.window_max < r.window_min {
            return Err(bad(
                "replay.window_max",
                r.window_max.to_string(),
                "window_min must be positive and window_max at least window_min",
            ));
        }
        if !(r.window_alpha > 0.0 && r.window_alpha <= 1.0) {
            return Err(bad(
                "replay.window_alpha",
                r.window_alpha.to_string(),
                "must lie in (0, 1]",
            ));
        }
        if !(r.window_beta >= 0.0 && r.window_beta.is_finite()) {
            return Err(bad(
                "replay.window_beta",
                r.window_beta.to_string(),
                "must be finite and not negative",
            ));
        }
        if !(0.0..=1.0).contains(&r.value_q_weight) {
            return Err(bad(
                "replay.value_q_weight",
                r.value_q_weight.to_string(),
                "must lie in [0, 1]",
            ));
        }
        if !(0.0..=1.0).contains(&r.proven_value_weight) {
            return Err(bad(
                "replay.proven_value_weight",
                r.proven_value_weight.to_string(),
                "must lie in [0, 1]",
            ));
        }
        if !(0.0..=1.0).contains(&r.policy_surprise_weight) {
            return Err(bad(
                "replay.policy_surprise_weight",
                r.policy_surprise_weight.to_string(),
                "must lie in [0, 1]",
            ));
        }
        for &(g, w) in &self.generation.rollout_mix {
            if !(0.0..=1.0).contains(&w) {
                return Err(bad(
                    "generation.rollout_mix",
                    format!("[{g}, {w}]"),
                    "weights must lie in [0, 1]",
                ));
            }
        }
        Ok(())
    }

    /// `[optim]`: learning rate and its schedule, momentum, L2, clipping, batches, reuse,
    /// loss weights.
    fn validate_optim(&self, path: &str) -> Result<(), ConfigError> {
        let bad = |key: &str, value: String, reason: &str| invalid(path, key, value, reason);
        let o = &self.optim;
        if !(o.lr > 0.0 && o.lr < 10.0) {
            return Err(bad("optim.lr", o.lr.to_string(), "must lie in (0, 10)"));
        }
        for &(g, f) in &o.lr_schedule {
            if !(f > 0.0 && f.is_finite()) {
                return Err(bad(
                    "optim.lr_schedule",
                    format!("[{g}, {f}]"),
                    "factors must be positive",
                ));
            }
        }
        if !(0.0..1.0).contains(&o.momentum) {
            return Err(bad(
                "optim.momentum",
                o.momentum.to_string(),
                "must lie in [0, 1)",
            ));
        }
        if !(o.l2 >= 0.0 && o.l2 < 1.0) {
            return Err(bad("optim.l2", o.l2.to_string(), "must lie in [0, 1)"));
        }
        if !(o.grad_clip_norm >= 0.0 && o.grad_clip_norm.is_finite()) {
            return Err(bad(
                "optim.grad_clip_norm",
                o.grad_clip_norm.to_string(),
                "must be finite and not negative",
            ));
        }
        if o.batch_size == 0 || o.batch_size > 65_536 {
            return Err(bad(
                "optim.batch_size",
                o.batch_size.to_string(),
                "must be 1 to 65536",
            ));
        }
        if o.steps_per_generation == 0 && !(o.sample_reuse > 0.0 && o.sample_reuse <= 1000.0) {
            return Err(bad(
                "optim.sample_reuse",
                o.sample_reuse.to_string(),
                "must lie in (0, 1000] when steps_per_generation = 0",
            ));
        }
        for (key, weight) in [
            ("optim.value_weight", o.value_weight),
            ("optim.ownership_weight", o.ownership_weight),
            ("optim.short_value_weight", o.short_value_weight),
            ("optim.soft_policy_weight", o.soft_policy_weight),
        ] {
            if !(weight >= 0.0 && weight.is_finite()) {
                return Err(bad(
                    key,
                    weight.to_string(),
                    "must be finite and not negative",
                ));
            }
        }
        if !(o.short_value_horizon >= 1.0 && o.short_value_horizon <= 1000.0) {
            return Err(bad(
                "optim.short_value_horizon",
                o.short_value_horizon.to_string(),
                "must lie in [1, 1000] turns",
            ));
        }
        let owns = crate::for_game!(self.game.name.as_str(), G => {
            <<G as crate::games::TrainGame>::Encoder as crumble_model::Encoder<G>>::OWNERSHIP
        });
        if o.ownership_weight > 0.0 && !owns {
            return Err(bad(
                "optim.ownership_weight",
                o.ownership_weight.to_string(),
                &format!("{} has no ownership target: must be 0", self.game.name),
            ));
        }
        Ok(())
    }

    /// `[eval]`: simulations, parallel games, lookahead and the gating threshold.
    fn validate_eval(&self, path: &str) -> Result<(), ConfigError> {
        let bad = |key: &str, value: String, reason: &str| invalid(path, key, value, reason);
        let e = &self.eval;
        if e.simulations == 0 || e.rollout_simulations == 0 {
            return Err(bad(
                "eval.simulations",
                e.simulations.to_string(),
                "simulations and rollout_simulations must be at least 1",
            ));
        }
        if e.parallel_games == 0 {
            return Err(bad("eval.parallel_games", "0".into(), "must be at least 1"));
        }
        if e.lookahead == Lookahead::AtVisit(0) {
            return Err(bad(
                "eval.lookahead",
                "0".into(),
                "must be false, \"root\", true or at least 1",
            ));
        }
        if !(0.0..=1.0).contains(&e.gating_threshold) {
            return Err(bad(
                "eval.gating_threshold",
                e.gating_threshold.to_string(),
                "must lie in [0, 1]",
            ));
        }
        Ok(())
    }

    /// The keys (dotted paths) whose values differ between two configs, sorted.
    pub fn differing_keys(&self, other: &TrainConfig) -> Vec<String> {
        let a = flatten(&toml::Value::try_from(self).expect("serialises"));
        let b = flatten(&toml::Value::try_from(other).expect("serialises"));
        let mut keys: Vec<String> = a
            .keys()
            .chain(b.keys())
            .filter(|k| a.get(*k) != b.get(*k))
            .cloned()
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }
}

/// A value of `key` in the config file `path` out of its range, and why.
fn invalid(path: &str, key: &str, value: String, reason: &str) -> ConfigError {
    ConfigError::Invalid {
        path: path.into(),
        key: key.into(),
        value,
        reason: reason.into(),
    }
}

fn flatten(v: &toml::Value) -> BTreeMap<String, String> {
    fn go(prefix: &str, v: &toml::Value, out: &mut BTreeMap<String, String>) {
        match v {
            toml::Value::Table(t) => {
                for (k, v) in t {
                    let key = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    go(&key, v, out);
                }
            }
            other => {
                out.insert(prefix.to_string(), other.to_string());
            }
        }
    }
    let mut out = BTreeMap::new();
    go("", v, &mut out);
    out
}

#[cfg(test)]
mod tests;
