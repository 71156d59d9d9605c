//! The self-play job: one agent plays itself, games go to record files in a directory.
//!
//! Files are `selfplay-NNNNNN.crsp` ([`crate::record`] format), where `NNNNNN` is the index
//! of the file's first game, with a human-readable `selfplay-NNNNNN.txt` beside each: the
//! games as text ([`text_record`](crate::text_record::text_record); for Crumble, game records in the per-player
//! frame), separated by blank lines.
//!
//! **The layout is a function of the game indices alone**, never of the order in which games
//! happen to finish: games `0..games` fall into blocks of `games_per_file` consecutive
//! indices, and a block's file is written (through a rename, in index order) once all its
//! games are finished. A run into a directory that already holds games plays exactly the
//! indices no file holds, so a run killed at any moment and started again ends with the same
//! files, byte for byte, as one that was never interrupted (game `i`'s random choices come
//! from the seed and `i` alone; see [`crate::driver`]). Finished games of an unfinished block
//! are lost with the process; no file is ever overwritten.
//!
//! **Openings.** A share of the games (`[selfplay] opening_share`) starts after
//! `opening_turns` random turns from the run's start ([`opening`]): whether game `i` does,
//! and its opening, come from the seed and `i` alone, so a resumed run plays the same
//! openings. The record stores such a game's start position ([`GameRecord::start`]) and a
//! turn limit shortened by the opening's turns, so every game ends by `max_turns` turns from
//! the standard start.

use crate::agent::{AgentError, AgentSpec, CheckpointLoader, build_evaluator};
use crate::config::{SearchConfig, SelfPlayConfig};
use crate::driver::{
    Agent, AgentKind, EngineOptions, Flow, GameJob, Progress, RunError, Seats, play_games,
};
use crate::evaluator::mix;
use crate::record::{GameRecord, RecordError, read_file, write_file};
use crumble_core::GameState;
use crumble_core::GameText;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};
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
    #[error(
        "agent `{0}` cannot play self-play: it does not search, so its games have no targets to record"
    )]
    RandomAgent(String),
    #[error("{path}: game {index} is also in {other}: a directory holds each game once")]
    DuplicateGame {
        path: String,
        other: String,
        index: u64,
    },
}

/// Builds the run-time agent of `spec` (a `book:` spec with its book). `play` selects match
/// settings ([`SearchConfig::for_play`]) instead of self-play settings.
pub fn make_agent<G: GameText>(
    spec: &AgentSpec,
    cfg: &SearchConfig,
    seed: u64,
    loader: &dyn CheckpointLoader<G>,
    play: bool,
) -> Result<Agent<G>, AgentError> {
    let (searcher, book) = crate::book::open_agent::<G>(spec)?;
    if searcher == AgentSpec::Solver {
        let mut solver = solver_agent()?;
        solver.name = spec.to_string();
        solver.book = book;
        return Ok(solver);
    }
    let spec_name = spec.to_string();
    let spec = &searcher;
    let kind = match build_evaluator(spec, cfg, seed, loader)? {
        None => AgentKind::Random,
        Some(evaluator) => AgentKind::Mcts {
            evaluator,
            simulations: spec.simulations(cfg).unwrap_or(cfg.simulations),
            config: if play { cfg.for_play() } else { cfg.clone() },
        },
    };
    Ok(Agent {
        name: spec_name,
        kind,
        book,
    })
}

/// The `solver` agent of `G`, if `G` is small enough to solve.
pub fn solver_agent<G: GameText>() -> Result<Agent<G>, AgentError> {
    if !G::SOLVABLE {
        return Err(AgentError::NotSolvable { game: G::NAME });
    }
    Ok(Agent {
        name: AgentSpec::Solver.to_string(),
        kind: AgentKind::Solver,
        book: None,
    })
}

/// What the directory already holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Existing {
    /// The game indices found, each in exactly one file.
    pub indices: BTreeSet<u64>,
}

impl Existing {
    /// Games found.
    pub fn games(&self) -> u64 {
        self.indices.len() as u64
    }

    /// The indices of `0..games` that no file holds, in order.
    pub fn missing(&self, games: u64) -> Vec<u64> {
        (0..games).filter(|i| !self.indices.contains(i)).collect()
    }
}

fn file_number(p: &Path) -> Option<u64> {
    let name = p.file_name()?.to_str()?;
    name.strip_prefix("selfplay-")?
        .strip_suffix(".crsp")?
        .parse()
        .ok()
}

/// The record file whose first game is `first`.
pub fn record_file_path(dir: &Path, first: u64) -> PathBuf {
    dir.join(format!("selfplay-{first:06}.crsp"))
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

/// Scans `dir` for games of `G` (every file is read and checked; a game index held twice,
/// or a game of another game, is refused).
pub fn scan<G: GameState>(dir: &Path) -> Result<Existing, SelfPlayError> {
    let mut ex = Existing::default();
    let mut owner: BTreeMap<u64, PathBuf> = BTreeMap::new();
    for p in record_files(dir)? {
        for g in read_file(&p)? {
            if g.game != G::NAME {
                return Err(SelfPlayError::Record(RecordError::InFile {
                    position: ex.indices.len(),
                    source: Box::new(RecordError::WrongGame {
                        index: g.index,
                        found: g.game,
                        expected: G::NAME,
                    }),
                }));
            }
            if let Some(other) = owner.insert(g.index, p.clone()) {
                return Err(SelfPlayError::DuplicateGame {
                    path: p.display().to_string(),
                    other: other.display().to_string(),
                    index: g.index,
                });
            }
            ex.indices.insert(g.index);
        }
    }
    Ok(ex)
}

/// Writes one block's games (in index order) as a record file and its readable copy.
fn write_block<G: GameText>(dir: &Path, games: &[GameRecord]) -> Result<(), SelfPlayError> {
    let Some(first) = games.first() else {
        return Ok(());
    };
    let path = record_file_path(dir, first.index);
    let mut text = String::new();
    for g in games {
        text.push_str(&crate::text_record::text_record::<G>(g, None)?);
        text.push('\n');
    }
    // The readable copy first, whole, then the record file: the record file is the commit
    // point (a `.txt` without its `.crsp` is an unfinished write, replaced when redone).
    let txt = path.with_extension("txt");
    crate::files::write_atomic(&txt, text.as_bytes()).map_err(|source| SelfPlayError::Io {
        path: txt.display().to_string(),
        source,
    })?;
    write_file(&path, games)?;
    Ok(())
}

/// Salt of the openings' random streams: apart from the game's own stream in the driver,
/// which draws from the same seed and index.
const OPENING_SALT: u64 = 0x6f70_656e_696e_6773; // "openings"

/// The start of self-play game `index` and its turn limit: the standard start, or for a
/// share `opening_share` of the games, the position after `opening_turns` random turns (a
/// function of `sp.seed` and `index` alone). An opening that ends the game is drawn again,
/// from the same stream.
pub fn opening<G: GameState>(sp: &SelfPlayConfig, standard: &G, index: u64) -> (G, u32) {
    if sp.opening_share <= 0.0 || sp.opening_turns == 0 {
        return (standard.clone(), sp.max_turns);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(mix(sp.seed ^ mix(index)) ^ OPENING_SALT);
    if !rng.random_bool(sp.opening_share.min(1.0)) {
        return (standard.clone(), sp.max_turns);
    }
    // The rest of the game keeps the run's limit from the standard start.
    let left = if sp.max_turns == 0 {
        0
    } else {
        sp.max_turns.saturating_sub(sp.opening_turns).max(1)
    };
    for _ in 0..100 {
        let mut g = standard.clone();
        g.set_turn_limit(0);
        for _ in 0..sp.opening_turns {
            if g.is_over() {
                break;
            }
            g.play_random_turn(&mut rng);
        }
        if !g.is_over() {
            // Through the start specification, the form the record stores: the game starts
            // exactly as its record will replay it (for Crumble: no history for the draw rule).
            if let Ok(p) = G::from_start(&g.to_start()) {
                return (p, left);
            }
        }
    }
    // Unreachable on real boards (random openings that all end the game).
    (standard.clone(), sp.max_turns)
}

/// Plays self-play games into `dir` until it holds games `0..games`: exactly the indices no
/// file holds yet are played. Returns what was there before and this run's counters.
pub fn run_selfplay<G: GameText>(
    agent: Agent<G>,
    sp: &SelfPlayConfig,
    standard: &G,
    dir: &Path,
    games: u64,
    on_round: &mut dyn FnMut(&Progress),
) -> Result<(Existing, Progress), SelfPlayError> {
    if matches!(agent.kind, AgentKind::Random | AgentKind::Solver) {
        return Err(SelfPlayError::RandomAgent(agent.name));
    }
    std::fs::create_dir_all(dir).map_err(|source| SelfPlayError::Io {
        path: dir.display().to_string(),
        source,
    })?;
    let ex = scan::<G>(dir)?;
    let todo = ex.missing(games);
    let jobs = todo.iter().map(|&index| {
        let (start, max_turns) = opening(sp, standard, index);
        GameJob {
            start,
            seats: Seats::SelfPlay(0),
            index,
            max_turns,
            seed: sp.seed,
            stop_after_turns: 0,
        }
    });
    let opts = EngineOptions {
        parallel_games: sp.parallel_games,
        record_targets: true,
        adjudication: Default::default(),
    };
    let per_file = sp.games_per_file.max(1) as u64;
    // Missing games of each block, and the finished ones waiting for the rest of their block.
    let mut waiting: BTreeMap<u64, usize> = BTreeMap::new();
    for &i in &todo {
        *waiting.entry(i / per_file).or_default() += 1;
    }
    let mut done: BTreeMap<u64, Vec<GameRecord>> = BTreeMap::new();
    let mut agents = [agent];
    let progress = play_games(
        &mut agents,
        jobs,
        &opts,
        &mut |_, g| {
            let block = g.index / per_file;
            let finished = done.entry(block).or_default();
            finished.push(g);
            if finished.len() == waiting[&block] {
                let mut games = done.remove(&block).unwrap_or_default();
                games.sort_by_key(|g| g.index);
                write_block::<G>(dir, &games)
                    .map_err(|e| Box::new(e) as Box<dyn std::error::Error + Send + Sync>)?;
            }
            Ok(Flow::Continue)
        },
        on_round,
    )?;
    debug_assert!(
        done.is_empty(),
        "every block is written when its last game ends"
    );
    Ok((ex, progress))
}
