//! The self-play job: one agent plays itself, games go to record files in a directory.
//!
//! Files are `selfplay-NNNNNN.crsp` ([`crate::record`] format), `games_per_file` games each,
//! with a human-readable `selfplay-NNNNNN.txt` beside each: the games as game records
//! (`crumble_core::record`, per-player frame), separated by blank lines. A run into a directory that already holds games
//! continues: it counts them, numbers new games after the highest game number found and new
//! files after the highest file number, and never overwrites a file. Games in progress when
//! a run is killed are lost; finished files are complete (written through a rename).

use crate::agent::{AgentError, AgentSpec, CheckpointLoader, build_evaluator};
use crate::config::{SearchConfig, SelfPlayConfig};
use crate::driver::{Player, PlayerKind, Progress, RunError, RunOptions, Seating, run_games};
use crate::record::{GameRecord, RecordError, read_file, write_file};
use crumble_core::Game;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum SelfPlayError {
    #[error(transparent)]
    Agent(#[from] AgentError),
    #[error(transparent)]
    Run(#[from] RunError),
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("agent `{0}` cannot play self-play: random play has nothing to record")]
    RandomAgent(String),
}

/// Builds the run-time player of `spec`. `play` selects match settings
/// ([`SearchConfig::for_play`]) instead of self-play settings.
pub fn make_player(
    spec: &AgentSpec,
    cfg: &SearchConfig,
    seed: u64,
    loader: &dyn CheckpointLoader,
    play: bool,
) -> Result<Player, AgentError> {
    let kind = match build_evaluator(spec, cfg, seed, loader)? {
        None => PlayerKind::Random,
        Some(evaluator) => PlayerKind::Mcts {
            evaluator,
            simulations: spec.simulations(cfg).unwrap_or(cfg.simulations),
            config: if play { cfg.for_play() } else { cfg.clone() },
        },
    };
    Ok(Player {
        name: spec.to_string(),
        kind,
    })
}

/// What the directory already holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Existing {
    pub games: u64,
    pub next_index: u64,
    pub next_file: u64,
}

fn file_number(p: &Path) -> Option<u64> {
    let name = p.file_name()?.to_str()?;
    name.strip_prefix("selfplay-")?
        .strip_suffix(".crsp")?
        .parse()
        .ok()
}

/// Record files in `dir`, sorted by number.
pub fn record_files(dir: &Path) -> Result<Vec<PathBuf>, SelfPlayError> {
    let io = |source| SelfPlayError::Io {
        path: dir.display().to_string(),
        source,
    };
    if !dir.exists() {
        return Ok(Vec::new());
    }
    let mut v: Vec<(u64, PathBuf)> = Vec::new();
    for e in std::fs::read_dir(dir).map_err(io)? {
        let p = e.map_err(io)?.path();
        if let Some(n) = file_number(&p) {
            v.push((n, p));
        }
    }
    v.sort();
    Ok(v.into_iter().map(|x| x.1).collect())
}

/// Scans `dir` (every file is read and checked).
pub fn scan(dir: &Path) -> Result<Existing, SelfPlayError> {
    let mut ex = Existing::default();
    for p in record_files(dir)? {
        let games = read_file(&p)?;
        ex.games += games.len() as u64;
        for g in &games {
            ex.next_index = ex.next_index.max(g.index + 1);
        }
        ex.next_file = ex.next_file.max(file_number(&p).unwrap_or(0) + 1);
    }
    Ok(ex)
}

/// Plays self-play games into `dir` until it holds `games` games in total.
pub fn run_selfplay(
    player: Player,
    sp: &SelfPlayConfig,
    dir: &Path,
    games: u64,
    on_round: &mut dyn FnMut(&Progress),
) -> Result<(Existing, Progress), SelfPlayError> {
    if matches!(player.kind, PlayerKind::Random) {
        return Err(SelfPlayError::RandomAgent(player.name));
    }
    std::fs::create_dir_all(dir).map_err(|source| SelfPlayError::Io {
        path: dir.display().to_string(),
        source,
    })?;
    let ex = scan(dir)?;
    let todo = games.saturating_sub(ex.games);
    let start = Game::new(sp.board, sp.resolution).map_err(|e| SelfPlayError::Io {
        path: "selfplay.board".into(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidInput, e.to_string()),
    })?;
    let opts = RunOptions {
        start,
        max_turns: sp.max_turns,
        parallel_games: sp.parallel_games,
        seed: sp.seed,
        record_targets: true,
    };
    let mut batch: Vec<GameRecord> = Vec::new();
    let mut file = ex.next_file;
    let per_file = sp.games_per_file.max(1);
    let flush = |batch: &mut Vec<GameRecord>, file: &mut u64| -> Result<(), SelfPlayError> {
        if batch.is_empty() {
            return Ok(());
        }
        let path = dir.join(format!("selfplay-{:06}.crsp", *file));
        let mut text = String::new();
        for g in batch.iter() {
            text.push_str(&g.to_text()?);
            text.push('\n');
        }
        write_file(&path, batch)?;
        let txt = path.with_extension("txt");
        std::fs::write(&txt, text).map_err(|source| SelfPlayError::Io {
            path: txt.display().to_string(),
            source,
        })?;
        *file += 1;
        batch.clear();
        Ok(())
    };
    let mut players = [player];
    let progress = run_games(
        &mut players,
        Seating::SelfPlay,
        &opts,
        ex.next_index..ex.next_index + todo,
        &mut |g| {
            batch.push(g);
            if batch.len() >= per_file {
                flush(&mut batch, &mut file)
                    .map_err(|e| Box::new(e) as Box<dyn std::error::Error + Send + Sync>)?;
            }
            Ok(())
        },
        on_round,
    )?;
    flush(&mut batch, &mut file)?;
    Ok((ex, progress))
}
