//! Every search setting in one struct, [`SearchConfig`]: the `[search]` section of a TOML
//! config (the training config embeds it), with a default for every key. Unknown keys are
//! errors; values out of range are refused by [`SearchConfig::validate`] with the key named.
//!
//! ```toml
//! [search]
//! simulations = 200          # simulations per full search
//! c_puct = 1.5
//! [search.gumbel]
//! enabled = true
//! ```

use crate::evaluator::RolloutConfig;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Why a config was refused: the one config error of the project (the training config's
/// loader uses it too).
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("config {path}: {message}")]
    Parse { path: String, message: String },
    /// `path` is empty where a section is checked on its own, outside a file.
    #[error("config {}key `{key}` = {value}: {reason}", in_file(path))]
    Invalid {
        path: String,
        key: String,
        value: String,
        reason: String,
    },
}

fn in_file(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("{path}: ")
    }
}

impl ConfigError {
    /// The error with the file it came from named.
    pub fn in_path(self, file: &str) -> ConfigError {
        match self {
            ConfigError::Invalid {
                path,
                key,
                value,
                reason,
            } if path.is_empty() => ConfigError::Invalid {
                path: file.into(),
                key,
                value,
                reason,
            },
            other => other,
        }
    }
}

/// All settings of the search (see the module docs). Field docs are the reference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    /// Simulations of a full search (one simulation = one selection-expansion-backup pass from
    /// the root; the root's own evaluation counts as one). An agent spec's `SIMS` overrides it.
    pub simulations: u32,
    /// PUCT exploration constant: `Q + c_puct · P · sqrt(N_parent) / (1 + N_child)`.
    pub c_puct: f32,
    /// First-play urgency: an unvisited child's Q is the parent's Q minus
    /// `fpu_reduction · sqrt(prior mass of the visited children)` (Leela's reduction).
    pub fpu_reduction: f32,
    /// Keep the subtree of the decision played as the next search's tree.
    pub tree_reuse: bool,
    /// Cache evaluations by the rules engine's state hash (one cache per evaluator).
    pub eval_cache: bool,
    /// Entries kept in the evaluation cache; when full it is cleared.
    pub eval_cache_capacity: usize,
    /// Root Dirichlet noise (PUCT searches; Gumbel searches explore through their own noise).
    pub noise: NoiseConfig,
    /// How the decision to play is picked from the root visits (PUCT searches).
    pub temperature: TemperatureConfig,
    /// Resignation in self-play.
    pub resign: ResignConfig,
    /// Gumbel AlphaZero root search and its policy target.
    pub gumbel: GumbelConfig,
    /// KataGo's playout cap randomisation.
    pub playout_cap: PlayoutCapConfig,
    /// KataGo's forced playouts and policy target pruning (PUCT searches).
    pub forced_playouts: ForcedPlayoutsConfig,
    /// Exploration scaled by the spread of the values seen below a node (KataGo).
    pub stdev_exploration: StdevExplorationConfig,
    /// The decision played by lower confidence bound in matches, evaluation and play.
    pub lcb: LcbConfig,
    /// The random-playout evaluator of the `mcts:rollout:SIMS` agents.
    pub rollout: RolloutConfig,
    /// Exact one-turn lookahead in self-play (`[search] lookahead`, see [`Lookahead`]): the
    /// root's decider's win within the current turn is found exactly and played; with a
    /// visit count, tree nodes that begin a turn are checked too, so a move that lets the
    /// opponent win at once is proven lost. Cost: a few microseconds to a few milliseconds
    /// per check on 6×6 (see `crumble bench mcts`).
    pub lookahead: Lookahead,
    /// The lookahead of matches, evaluation, tactics and play ([`SearchConfig::for_play`]),
    /// where a fixed simulation count, not games per hour, is what is measured.
    pub play_lookahead: Lookahead,
    /// Exact two-turn lookahead at the root in self-play: at the root of every search the
    /// game's [`GameState::forcing_turn`] looks for a rest of the turn that wins at once or
    /// forces a win on the decider's next turn whatever the reply, visiting at most this many
    /// states (a budget in work, not time, so runs stay reproducible); a path found proves
    /// the root won and is played. `0` is off. Needs no `lookahead`.
    ///
    /// [`GameState::forcing_turn`]: crumble_core::GameState::forcing_turn
    pub forcing_budget: u64,
    /// The same in matches, evaluation, tactics and play.
    pub play_forcing_budget: u64,
    /// The two-turn lookahead's other half in self-play: at the root of every search (any
    /// phase of the turn) the game's [`GameState::losing_decisions`] finds the decisions
    /// after which the opponent wins at once whatever the rest of the turn, within the
    /// `forcing_budget` (off when it is 0); they become proven losses, so a defence is found
    /// however few decisions hold.
    ///
    /// [`GameState::losing_decisions`]: crumble_core::GameState::losing_decisions
    pub loss_check: bool,
    /// The same in matches, tactics and play (evaluation follows `loss_check`).
    pub play_loss_check: bool,
    /// Set by [`SearchConfig::for_play`]: the searches of matches, evaluation and play (what
    /// [`LcbConfig`] applies to). Not a config key.
    #[serde(skip)]
    pub playing: bool,
}

/// The default `play_forcing_budget`: states the two-turn lookahead may visit per search.
pub const DEFAULT_PLAY_FORCING_BUDGET: u64 = 250_000;

/// When the search runs the game's exact one-turn win check. In TOML: `false` (off),
/// `"root"` (the root only: a win in one is always played), `N` (N ≥ 1: the root, and every
/// node that begins a turn on its N-th visit; 1 checks a node when it is created, before it
/// is evaluated) or `true` (the same as 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookahead {
    Off,
    Root,
    /// Check a turn-start node on this visit (1 = at its creation); the root always.
    AtVisit(u32),
}

impl Lookahead {
    pub fn is_on(self) -> bool {
        self != Lookahead::Off
    }

    /// The visit of a turn-start node below the root that runs the check, if any does.
    pub fn visit(self) -> Option<u32> {
        match self {
            Lookahead::Off | Lookahead::Root => None,
            Lookahead::AtVisit(n) => Some(n),
        }
    }
}

impl std::fmt::Display for Lookahead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lookahead::Off => f.write_str("false"),
            Lookahead::Root => f.write_str("\"root\""),
            Lookahead::AtVisit(n) => write!(f, "{n}"),
        }
    }
}

impl Serialize for Lookahead {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Lookahead::Off => s.serialize_bool(false),
            Lookahead::Root => s.serialize_str("root"),
            Lookahead::AtVisit(n) => s.serialize_u32(*n),
        }
    }
}

impl<'de> Deserialize<'de> for Lookahead {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Lookahead, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Lookahead;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("false, \"root\", true or the visit (1 or more) that checks a node")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Lookahead, E> {
                match v {
                    "root" => Ok(Lookahead::Root),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
                }
            }
            fn visit_bool<E: serde::de::Error>(self, on: bool) -> Result<Lookahead, E> {
                Ok(if on {
                    Lookahead::AtVisit(1)
                } else {
                    Lookahead::Off
                })
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Lookahead, E> {
                match u32::try_from(n) {
                    Ok(n) if n >= 1 => Ok(Lookahead::AtVisit(n)),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Signed(n), &self)),
                }
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Lookahead, E> {
                match u32::try_from(n) {
                    Ok(n) if n >= 1 => Ok(Lookahead::AtVisit(n)),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Unsigned(n), &self)),
                }
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// Root Dirichlet noise: `P' = (1 - epsilon)·P + epsilon·Dir(alpha)`, applied on full searches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NoiseConfig {
    pub enabled: bool,
    /// Total concentration: each legal decision gets `alpha = total_alpha / legal count`
    /// (KataGo's scaling; the number of legal decisions varies from 2 to hundreds).
    pub total_alpha: f32,
    /// Weight of the noise in the root priors.
    pub epsilon: f32,
    /// The root priors of a noised search raised to `1/T` and renormalised before the noise
    /// (KataGo's root policy temperature; `T > 1` flattens them). 1 is off.
    pub root_policy_temperature: f32,
    /// Whether the first-play reduction applies at a noised root too (`false`: KataGo's zero
    /// reduction there, so noise-boosted children are tried at the parent's value).
    pub fpu_at_root: bool,
}

/// Temperature by turn number: `initial` for turns `< turns`, then `final`. Decisions are
/// sampled with probability proportional to `N^(1/T)`; `T = 0` plays the most visited.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TemperatureConfig {
    pub initial: f32,
    #[serde(rename = "final")]
    pub final_: f32,
    /// Number of (whole) turns played with the initial temperature.
    pub turns: u32,
}

/// Resignation: a player whose search value (own view) stays below `threshold` for
/// `consecutive` of their searches in a row resigns; in a fraction `playout_fraction` of the
/// games nobody resigns and the record notes who would have, to measure false resignations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ResignConfig {
    pub enabled: bool,
    pub threshold: f32,
    pub consecutive: u32,
    pub playout_fraction: f32,
}

/// Gumbel AlphaZero (Danihelka et al. 2022) at the root: Gumbel top-k sampling of
/// `sampled_actions` decisions, sequential halving over the simulation budget, the decision
/// played is the survivor, and the policy target is `softmax(logits + σ(completed Q))`.
/// Interior nodes use PUCT.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GumbelConfig {
    pub enabled: bool,
    /// `k`: decisions considered at the root (fewer when fewer are legal).
    pub sampled_actions: u32,
    /// `σ(q) = (c_visit + max N) · c_scale · q`, q rescaled to [0, 1].
    pub c_visit: f32,
    pub c_scale: f32,
    /// Scale of the Gumbel noise (1 in self-play; 0 gives a deterministic search for matches).
    pub noise_scale: f32,
}

/// Playout cap randomisation (KataGo): a fraction `full_fraction` of the searched decisions
/// get the full search (noise, forced playouts; their targets train the policy), the rest a
/// fast search of `fast_simulations` that only advances the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PlayoutCapConfig {
    pub enabled: bool,
    pub full_fraction: f32,
    pub fast_simulations: u32,
}

/// Forced playouts (KataGo): on full PUCT searches a root child with fewer than
/// `sqrt(k · P · N_root)` visits is chosen first; with `prune`, the visit target subtracts
/// those forced visits again where they were not deserved (never below zero).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ForcedPlayoutsConfig {
    pub enabled: bool,
    pub k: f32,
    pub prune: bool,
}

/// Exploration scaled by the observed spread of values (KataGo's `cpuctUtilityStdevScale`):
/// a node's `c_puct` is multiplied by `1 + scale · (σ / prior − 1)`, where `σ` is the
/// standard deviation of the values backed up through the node, blended with `prior` as if
/// seen `prior_weight` times. Positions whose values swing explore more, settled ones less.
/// `scale = 0` is off.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StdevExplorationConfig {
    pub scale: f32,
    pub prior: f32,
    pub prior_weight: f32,
}

/// The decision played at temperature 0 in matches, evaluation and play (searches of
/// [`SearchConfig::for_play`]; self-play never uses it): among the root children with at
/// least `min_visit_share` of the most visited one's visits, the one whose value's lower
/// confidence bound, `Q − stdevs · σ / sqrt(N)`, is highest (KataGo's LCB move choice).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LcbConfig {
    pub enabled: bool,
    pub stdevs: f32,
    pub min_visit_share: f32,
}

impl Default for StdevExplorationConfig {
    fn default() -> Self {
        StdevExplorationConfig {
            scale: 0.0,
            prior: 0.4,
            prior_weight: 2.0,
        }
    }
}

impl Default for LcbConfig {
    fn default() -> Self {
        LcbConfig {
            enabled: false,
            stdevs: 5.0,
            min_visit_share: 0.15,
        }
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            simulations: 200,
            c_puct: 1.5,
            fpu_reduction: 0.2,
            tree_reuse: true,
            eval_cache: true,
            eval_cache_capacity: 200_000,
            noise: NoiseConfig::default(),
            temperature: TemperatureConfig::default(),
            resign: ResignConfig::default(),
            gumbel: GumbelConfig::default(),
            playout_cap: PlayoutCapConfig::default(),
            forced_playouts: ForcedPlayoutsConfig::default(),
            stdev_exploration: StdevExplorationConfig::default(),
            lcb: LcbConfig::default(),
            rollout: RolloutConfig::default(),
            lookahead: Lookahead::Root,
            play_lookahead: Lookahead::AtVisit(1),
            forcing_budget: 0,
            play_forcing_budget: DEFAULT_PLAY_FORCING_BUDGET,
            loss_check: false,
            play_loss_check: true,
            playing: false,
        }
    }
}

impl Default for NoiseConfig {
    fn default() -> Self {
        NoiseConfig {
            enabled: true,
            total_alpha: 10.0,
            epsilon: 0.25,
            root_policy_temperature: 1.0,
            fpu_at_root: true,
        }
    }
}
impl Default for TemperatureConfig {
    fn default() -> Self {
        TemperatureConfig {
            initial: 1.0,
            final_: 0.0,
            turns: 10,
        }
    }
}
impl Default for ResignConfig {
    fn default() -> Self {
        ResignConfig {
            enabled: false,
            threshold: -0.9,
            consecutive: 3,
            playout_fraction: 0.1,
        }
    }
}
impl Default for GumbelConfig {
    fn default() -> Self {
        GumbelConfig {
            enabled: false,
            sampled_actions: 16,
            c_visit: 50.0,
            c_scale: 1.0,
            noise_scale: 1.0,
        }
    }
}
impl Default for PlayoutCapConfig {
    fn default() -> Self {
        PlayoutCapConfig {
            enabled: false,
            full_fraction: 0.25,
            fast_simulations: 32,
        }
    }
}
impl Default for ForcedPlayoutsConfig {
    fn default() -> Self {
        ForcedPlayoutsConfig {
            enabled: false,
            k: 2.0,
            prune: true,
        }
    }
}

/// The error of `key` = `value`, out of range for `reason` (the file named later).
pub(crate) fn bad(key: &str, value: impl std::fmt::Display, reason: &str) -> ConfigError {
    ConfigError::Invalid {
        path: String::new(),
        key: key.into(),
        value: value.to_string(),
        reason: reason.into(),
    }
}

fn check_f(key: &str, v: f32, lo: f32, hi: f32) -> Result<(), ConfigError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(bad(key, v, &format!("must lie in [{lo}, {hi}]")))
    }
}

impl SearchConfig {
    /// The search settings for matches and evaluation: no noise, no exploration temperature,
    /// no playout cap, no resignation, deterministic Gumbel; everything else as configured.
    pub fn for_play(&self) -> SearchConfig {
        let mut c = self.clone();
        c.noise.enabled = false;
        c.temperature = TemperatureConfig {
            initial: 0.0,
            final_: 0.0,
            turns: 0,
        };
        c.playout_cap.enabled = false;
        c.resign.enabled = false;
        c.gumbel.noise_scale = 0.0;
        c.forced_playouts.enabled = false;
        c.lookahead = self.play_lookahead;
        c.forcing_budget = self.play_forcing_budget;
        c.loss_check = self.play_loss_check;
        c.playing = true;
        c
    }

    /// Checks every value's range; the error names the key (as written under `[search]`).
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.validate_tree_search()?;
        self.validate_move_choice()?;
        self.validate_playouts()
    }

    /// The tree search's keys: simulations, exploration (PUCT, first-play urgency, root
    /// noise, stdev exploration) and the evaluation cache.
    fn validate_tree_search(&self) -> Result<(), ConfigError> {
        if self.simulations == 0 || self.simulations > 10_000_000 {
            return Err(bad(
                "search.simulations",
                self.simulations,
                "must be 1 to 10,000,000",
            ));
        }
        check_f("search.c_puct", self.c_puct, 0.0, 1e3)?;
        check_f("search.fpu_reduction", self.fpu_reduction, 0.0, 2.0)?;
        if self.eval_cache && self.eval_cache_capacity == 0 {
            return Err(bad(
                "search.eval_cache_capacity",
                0,
                "must be positive when the cache is on",
            ));
        }
        check_f(
            "search.noise.total_alpha",
            self.noise.total_alpha,
            1e-6,
            1e4,
        )?;
        check_f("search.noise.epsilon", self.noise.epsilon, 0.0, 1.0)?;
        check_f(
            "search.noise.root_policy_temperature",
            self.noise.root_policy_temperature,
            0.1,
            10.0,
        )?;
        check_f(
            "search.stdev_exploration.scale",
            self.stdev_exploration.scale,
            0.0,
            10.0,
        )?;
        check_f(
            "search.stdev_exploration.prior",
            self.stdev_exploration.prior,
            0.01,
            2.0,
        )?;
        check_f(
            "search.stdev_exploration.prior_weight",
            self.stdev_exploration.prior_weight,
            0.0,
            1e6,
        )?;
        Ok(())
    }

    /// How a move is chosen from the search: the lower confidence bound, temperature and
    /// resignation.
    fn validate_move_choice(&self) -> Result<(), ConfigError> {
        check_f("search.lcb.stdevs", self.lcb.stdevs, 0.0, 100.0)?;
        check_f(
            "search.lcb.min_visit_share",
            self.lcb.min_visit_share,
            0.0,
            1.0,
        )?;
        check_f(
            "search.temperature.initial",
            self.temperature.initial,
            0.0,
            100.0,
        )?;
        check_f(
            "search.temperature.final",
            self.temperature.final_,
            0.0,
            100.0,
        )?;
        check_f("search.resign.threshold", self.resign.threshold, -1.0, 1.0)?;
        if self.resign.consecutive == 0 {
            return Err(bad("search.resign.consecutive", 0, "must be at least 1"));
        }
        check_f(
            "search.resign.playout_fraction",
            self.resign.playout_fraction,
            0.0,
            1.0,
        )?;
        Ok(())
    }

    /// Gumbel sampling, playout caps, forced playouts, rollouts and lookahead.
    fn validate_playouts(&self) -> Result<(), ConfigError> {
        if self.gumbel.sampled_actions < 1 {
            return Err(bad(
                "search.gumbel.sampled_actions",
                0,
                "must be at least 1",
            ));
        }
        check_f("search.gumbel.c_visit", self.gumbel.c_visit, 0.0, 1e6)?;
        check_f("search.gumbel.c_scale", self.gumbel.c_scale, 0.0, 1e6)?;
        check_f(
            "search.gumbel.noise_scale",
            self.gumbel.noise_scale,
            0.0,
            100.0,
        )?;
        check_f(
            "search.playout_cap.full_fraction",
            self.playout_cap.full_fraction,
            0.0,
            1.0,
        )?;
        if self.playout_cap.enabled && self.playout_cap.fast_simulations == 0 {
            return Err(bad(
                "search.playout_cap.fast_simulations",
                0,
                "must be at least 1",
            ));
        }
        check_f("search.forced_playouts.k", self.forced_playouts.k, 0.0, 1e3)?;
        if self.rollout.max_turns == 0 {
            return Err(bad("search.rollout.max_turns", 0, "must be at least 1"));
        }
        for (key, l) in [
            ("search.lookahead", self.lookahead),
            ("search.play_lookahead", self.play_lookahead),
        ] {
            if l == Lookahead::AtVisit(0) {
                return Err(bad(key, 0, "must be false, \"root\", true or at least 1"));
            }
        }
        Ok(())
    }

    /// Parses the body of a `[search]` table (keys at top level), then validates it.
    pub fn from_toml_str(text: &str, path: &str) -> Result<SearchConfig, ConfigError> {
        let c: SearchConfig = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: path.into(),
            message: e.to_string(),
        })?;
        c.validate()?;
        Ok(c)
    }

    /// The TOML of this config (as the body of a `[search]` table).
    pub fn to_toml_string(&self) -> String {
        toml::to_string(self).expect("a search config always serialises")
    }
}

/// Settings of the self-play driver: the `[selfplay]` section of a config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SelfPlayConfig {
    /// Turn limit of every game (`0` = none); a game reaching it is a draw.
    pub max_turns: u32,
    /// Games played at once (each with its own tree; their leaves form one batch).
    pub parallel_games: usize,
    /// Finished games per record file.
    pub games_per_file: usize,
    /// Seed of everything random in self-play (game `i` draws from `seed` and `i`).
    pub seed: u64,
    /// Share of games (0 to 1) that start after `opening_turns` random turns from the
    /// standard start instead of at it (as KataGo does), so the network sees positions away
    /// from the usual lines. Which games, and their openings, follow from `seed` and the
    /// game's index alone.
    pub opening_share: f64,
    /// Random turns of such an opening (they count towards `max_turns`).
    pub opening_turns: u32,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            max_turns: 200,
            parallel_games: 64,
            games_per_file: 64,
            seed: 0,
            opening_share: 0.0,
            opening_turns: 4,
        }
    }
}

impl SelfPlayConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.parallel_games == 0 || self.parallel_games > 100_000 {
            return Err(bad(
                "selfplay.parallel_games",
                self.parallel_games,
                "must be 1 to 100,000",
            ));
        }
        if self.games_per_file == 0 {
            return Err(bad("selfplay.games_per_file", 0, "must be at least 1"));
        }
        if !(0.0..=1.0).contains(&self.opening_share) {
            return Err(bad(
                "selfplay.opening_share",
                self.opening_share,
                "must lie in [0, 1]",
            ));
        }
        if self.opening_share > 0.0
            && (self.opening_turns == 0
                || (self.max_turns > 0 && self.opening_turns >= self.max_turns))
        {
            return Err(bad(
                "selfplay.opening_turns",
                self.opening_turns,
                "must be at least 1 and below selfplay.max_turns when selfplay.opening_share > 0",
            ));
        }
        Ok(())
    }
}

/// The parts of a config file this crate reads: the `[search]` and `[selfplay]` sections,
/// each strict (unknown keys are errors). [`ConfigFile::load`] leaves other top-level
/// sections alone; the `crumble` commands load configs through the training config instead,
/// which refuses anything unknown in the whole file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConfigFile {
    #[serde(default)]
    pub search: SearchConfig,
    #[serde(default)]
    pub selfplay: SelfPlayConfig,
}

impl ConfigFile {
    pub fn from_toml_str(text: &str, path: &str) -> Result<ConfigFile, ConfigError> {
        let c: ConfigFile = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: path.into(),
            message: e.to_string(),
        })?;
        c.search.validate().map_err(|e| e.in_path(path))?;
        c.selfplay.validate().map_err(|e| e.in_path(path))?;
        Ok(c)
    }
    pub fn load(path: &Path) -> Result<ConfigFile, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.display().to_string(),
            source,
        })?;
        ConfigFile::from_toml_str(&text, &path.display().to_string())
    }
}
