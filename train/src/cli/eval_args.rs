//! Flags and helpers shared by the evaluation subcommands (`match`, `tournament`, `tactics`):
//! game settings, openings, agent lists from a training run's checkpoints.

use anyhow::{Context as _, bail};
use crumble_core::GameState;
use crumble_core::games::crumble::Crumble;
use crumble_selfplay::arena::PairSettings;
use crumble_selfplay::arena::{self, Openings};
use crumble_selfplay::{AgentSpec, ConfigFile};
use crumble_train::config::TrainConfig;
use crumble_train::games::TrainGame;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, clap::Args)]
pub struct GameArgs {
    /// Turn limit of every game, counted from its opening (0 = none); the limit ends a game
    /// as a draw.
    #[arg(long, value_name = "T", default_value_t = 200)]
    pub max_turns: u32,
    /// Games played at once (their network calls are batched together).
    #[arg(long, value_name = "C", default_value_t = 16, alias = "parallel", value_parser = crate::cli::positive::<usize>)]
    pub concurrency: usize,
    /// TOML config whose [search] section the search agents use, and whose
    /// [game.start] sets the board.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Worker threads for tree work (0 = one per core).
    #[arg(long, value_name = "T", default_value_t = 0, value_parser = crate::cli::threads_arg)]
    pub threads: usize,
    /// Seed of the openings and of the games' random choices.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Each game pair starts after this many random turns from the standard start (both
    /// games of a pair from the same position, each agent Black once). 0: every pair from
    /// the standard start.
    #[arg(long, value_name = "K", default_value_t = 4)]
    pub opening_turns: u32,
    /// Openings from a file instead, used in order (round and round): one per line, either
    /// a position JSON object on one line, or moves in per-player notation from the standard
    /// start (`1HN 5,5HSWS`); blank lines and lines starting with `#` are skipped.
    #[arg(long, value_name = "FILE", conflicts_with = "opening_turns")]
    pub openings: Option<PathBuf>,
}

impl GameArgs {
    /// The settings of `pairs` game pairs a pairing, from game 0, adjudicated as `full` says.
    pub fn pair_settings(&self, pairs: u64, full: &TrainConfig) -> PairSettings {
        PairSettings {
            pairs,
            max_turns: self.max_turns,
            concurrency: self.concurrency.max(1),
            seed: self.seed,
            adjudication: full.adjudication,
        }
    }

    /// The whole config of `--config` (the defaults without it): its `[game]` picks the game.
    pub fn full_config(&self) -> anyhow::Result<TrainConfig> {
        match &self.config {
            Some(p) => Ok(TrainConfig::load(p)?),
            None => Ok(TrainConfig::default()),
        }
    }

    /// The start positions of `pairs` game pairs in the config's game `G`: the standard
    /// start, `--opening-turns` random turns from it, or the positions of `--openings`.
    pub fn opening_positions_of<G: TrainGame>(
        &self,
        full: &TrainConfig,
        pairs: u64,
    ) -> anyhow::Result<Vec<G>> {
        let openings = match &self.openings {
            Some(path) => Openings::List(G::read_openings(path, full)?),
            None if self.opening_turns == 0 => Openings::Standard,
            None => Openings::RandomTurns(self.opening_turns),
        };
        let standard = G::standard_start(full)?;
        Ok(arena::opening_positions(
            &standard, &openings, pairs, self.seed,
        )?)
    }

    /// The `[search]` and `[selfplay]` sections of `--config` and its start, for a command
    /// that plays Crumble only (`tactics`): a config of another game is refused.
    pub fn crumble_config(&self, command: &str) -> anyhow::Result<(ConfigFile, Crumble)> {
        let full = self.full_config()?;
        if full.game.name != Crumble::NAME {
            bail!(
                "crumble {command} is Crumble's: the config's [game] name is {}",
                full.game.name
            );
        }
        Ok((full.play_config(), Crumble::standard_start(&full)?))
    }

    /// A short description of the openings for reports.
    pub fn describe_openings(&self) -> String {
        match &self.openings {
            Some(p) => format!("openings from {}", p.display()),
            None if self.opening_turns == 0 => "every pair from the standard start".into(),
            None => format!("openings: {} random turns", self.opening_turns),
        }
    }
}

/// Sizes the rayon pool that the engine's tree work runs on (0 = one thread per core).
pub fn set_threads(threads: usize) {
    if threads > 0 {
        // Fails only if the pool was already built, in which case it stays as it is.
        let _ = arena::set_global_threads(threads);
    }
}

/// One checkpoint of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub generation: u64,
    pub path: PathBuf,
}

/// The checkpoints of a training run, `DIR/checkpoints/gen-NNNN/net.crnet`, by generation, up
/// to generation `up_to` when given; every `every`-th one (counting from the first) plus
/// always the last.
pub fn run_checkpoints(
    run_dir: &Path,
    every: usize,
    up_to: Option<u64>,
) -> anyhow::Result<Vec<Checkpoint>> {
    let dir = run_dir.join("checkpoints");
    let entries = std::fs::read_dir(&dir).with_context(|| {
        format!(
            "cannot read {} (a training run keeps its checkpoints there)",
            dir.display()
        )
    })?;
    let mut all = Vec::new();
    for e in entries {
        let e = e.with_context(|| format!("cannot read {}", dir.display()))?;
        let name = e.file_name();
        let Some(n) = name
            .to_str()
            .and_then(|s| s.strip_prefix("gen-"))
            .and_then(|s| s.parse::<u64>().ok())
        else {
            continue;
        };
        let path = e.path().join("net.crnet");
        if path.is_file() && up_to.is_none_or(|g| n <= g) {
            all.push(Checkpoint {
                generation: n,
                path,
            });
        }
    }
    if all.is_empty() {
        let upto = up_to.map(|g| format!(" up to generation {g}"));
        bail!(
            "no checkpoints{} in {} (expected gen-NNNN/net.crnet)",
            upto.unwrap_or_default(),
            dir.display()
        );
    }
    all.sort_by_key(|c| c.generation);
    let every = every.max(1);
    let last = all.len() - 1;
    Ok(all
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % every == 0 || *i == last)
        .map(|(_, c)| c)
        .collect())
}

/// The agent string of a checkpoint, with `sims` simulations if given.
pub fn checkpoint_spec(c: &Checkpoint, sims: Option<u32>) -> anyhow::Result<AgentSpec> {
    let mut s = format!("ckpt:{}", c.path.display());
    if let Some(n) = sims {
        s.push_str(&format!(":{n}"));
    }
    Ok(AgentSpec::parse(&s)?)
}
