//! Tournaments: the agents to rate, which pairs of them play (the schedule), the resumable
//! ledger of finished pairings, and the ratings table fitted from the results.
//!
//! A [`Tournament`] plays its pairings with [`arena::play_pairings`]; each finished game pair
//! goes to the records of the [`Ledger`] of its output directory (`games/`) and each finished
//! pairing to its `pairings.jsonl` (`tournament.json` holds the settings), so a later run
//! with the same settings plays only the game pairs not stored yet. [`Tournament::table`] fits the
//! ratings ([`ratings::fit`]) and ranks the agents in a [`Table`].
//!
//! Files: `ledger` the output directory's stored pairings, `table` the ratings table and its
//! renderings, `tests`.

use crate::agent::{AgentError, AgentSpec, EvaluatorSpec};
use crate::arena::{self, ArenaError, Flow, PairSettings, Pairing, Pool, RecordWriter, Tally};
use crate::config::ConfigFile;
use crate::driver::Progress;
use crate::plot::{Chart, Point, Reference};
use crate::ratings::{self, FitOptions, PairResult, RatingError, Ratings};
use crate::stats::fmt_elo;
use crumble_core::GameText;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;

mod ledger;
mod table;
#[cfg(test)]
mod tests;

pub use ledger::{Ledger, StoredPairing, settings_json};
pub use table::{PlayedPairing, Row, Table};

/// Why a tournament could not be set up, resumed or rated.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    #[error("agent `{0}` is listed twice")]
    Duplicate(AgentSpec),
    #[error("a tournament needs at least two agents, got {0}")]
    TooFew(usize),
    #[error(
        "unknown schedule `{0}` (expected round-robin, gauntlet, ladder:K or anchored:K with K ≥ 1)"
    )]
    Schedule(String),
    /// The directory's stored settings differ from this run's.
    #[error(
        "{} holds a tournament with other settings (games per pair, turn limit, openings, seed, board or search)",
        .0.display()
    )]
    OtherSettings(PathBuf),
    #[error("{} is not valid JSON", .path.display())]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("{} line {line}: not a pairing result", .path.display())]
    BadLine { path: PathBuf, line: usize },
    #[error("cannot {action} {}", .path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Settings(serde_json::Error),
    #[error("rating fit failed (players: {players})")]
    Fit {
        players: String,
        source: RatingError,
    },
    #[error(transparent)]
    Games(#[from] ArenaError),
}

fn io_err(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> TournamentError {
    let path = path.to_path_buf();
    move |source| TournamentError::Io {
        action,
        path,
        source,
    }
}

// ---------------------------------------------------------------------------------------
// Agents and schedules.

/// One rated agent.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub spec: AgentSpec,
    /// How tables name it: the agent string, or `gen-NNNN` for a run's checkpoint.
    pub name: String,
    /// The generation of a run's checkpoint (the x of the rating chart).
    pub generation: Option<u64>,
}

impl Entry {
    /// An agent named by its string; a checkpoint at `.../gen-NNNN/net.crnet` keeps its
    /// generation.
    pub fn agent(spec: AgentSpec) -> Entry {
        Entry {
            name: spec.to_string(),
            generation: generation_of(&spec),
            spec,
        }
    }

    /// Checkpoint `generation` of a training run, named `gen-NNNN`.
    pub fn checkpoint(spec: AgentSpec, generation: u64) -> Entry {
        Entry {
            spec,
            name: format!("gen-{generation:04}"),
            generation: Some(generation),
        }
    }
}

/// The generation of a checkpoint path `.../gen-NNNN/net.crnet`, if it is one.
pub fn generation_of(spec: &AgentSpec) -> Option<u64> {
    let AgentSpec::Mcts {
        evaluator: EvaluatorSpec::Checkpoint(p),
        ..
    } = spec
    else {
        return None;
    };
    p.parent()?
        .file_name()?
        .to_str()?
        .strip_prefix("gen-")?
        .parse()
        .ok()
}

/// The baselines a run's checkpoints are rated with: `random`, and `mcts:rollout:SIMS`
/// unless `rollout_sims` is 0.
pub fn baselines(rollout_sims: u32) -> Result<Vec<Entry>, AgentError> {
    let mut v = vec![Entry::agent(AgentSpec::Random)];
    if rollout_sims > 0 {
        v.push(Entry::agent(AgentSpec::parse(&format!(
            "mcts:rollout:{rollout_sims}"
        ))?));
    }
    Ok(v)
}

/// Which pairs of agents play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every agent against every other.
    RoundRobin,
    /// The first agent against each other one.
    Gauntlet,
    /// Each agent against the next K in the list.
    Ladder(usize),
    /// The first K agents (the anchors) against every agent, and each later agent against
    /// the next: a learning curve's checkpoints each tied to the fixed anchors and to their
    /// neighbours, in a number of pairings that grows linearly with the checkpoints.
    Anchored(usize),
}

impl FromStr for Schedule {
    type Err = TournamentError;

    /// `round-robin`, `gauntlet`, `ladder:K` or `anchored:K` (K ≥ 1).
    fn from_str(text: &str) -> Result<Schedule, TournamentError> {
        let k = |prefix: &str| {
            text.strip_prefix(prefix)
                .and_then(|k| k.parse::<usize>().ok())
                .filter(|&k| k >= 1)
        };
        match text {
            "round-robin" => Some(Schedule::RoundRobin),
            "gauntlet" => Some(Schedule::Gauntlet),
            _ => k("ladder:")
                .map(Schedule::Ladder)
                .or_else(|| k("anchored:").map(Schedule::Anchored)),
        }
        .ok_or_else(|| TournamentError::Schedule(text.into()))
    }
}

impl Schedule {
    /// The pairings among `n` agents, each with the earlier agent as A.
    pub fn pairings(self, n: usize) -> Vec<Pairing> {
        let k = match self {
            Schedule::RoundRobin => n,
            Schedule::Gauntlet => {
                return (1..n).map(|b| Pairing { a: 0, b }).collect();
            }
            Schedule::Ladder(k) => k,
            Schedule::Anchored(k) => {
                return (0..n)
                    .flat_map(|a| {
                        let last = if a < k { n } else { (a + 2).min(n) };
                        (a + 1..last).map(move |b| Pairing { a, b })
                    })
                    .collect();
            }
        };
        (0..n)
            .flat_map(|a| (a + 1..(a + 1 + k).min(n)).map(move |b| Pairing { a, b }))
            .collect()
    }
}

/// The agents, their pairings and the results known so far.
#[derive(Clone, Debug)]
pub struct Tournament {
    pub entries: Vec<Entry>,
    pub pairings: Vec<Pairing>,
    /// Each pairing's result from A's side, once finished (played or stored).
    pub tallies: Vec<Option<Tally>>,
}

impl Tournament {
    /// Checks the entries (no agent twice, at least two), then parses the schedule.
    pub fn new(entries: Vec<Entry>, schedule: &str) -> Result<Tournament, TournamentError> {
        for (i, e) in entries.iter().enumerate() {
            if entries[..i].iter().any(|o| o.spec == e.spec) {
                return Err(TournamentError::Duplicate(e.spec.clone()));
            }
        }
        if entries.len() < 2 {
            return Err(TournamentError::TooFew(entries.len()));
        }
        let pairings = schedule.parse::<Schedule>()?.pairings(entries.len());
        Ok(Tournament {
            tallies: vec![None; pairings.len()],
            entries,
            pairings,
        })
    }

    /// Takes the results of the pairings the ledger holds.
    pub fn resume(&mut self, ledger: &Ledger) {
        for (p, t) in self.pairings.iter().zip(&mut self.tallies) {
            let (a, b) = (&self.entries[p.a].spec, &self.entries[p.b].spec);
            *t = ledger.lookup(&a.to_string(), &b.to_string());
        }
    }

    /// The entries' agents, for [`Pool::new`].
    pub fn specs(&self) -> Vec<AgentSpec> {
        self.entries.iter().map(|e| e.spec.clone()).collect()
    }

    /// How many pairings still have to play.
    pub fn to_play(&self) -> usize {
        self.tallies.iter().filter(|t| t.is_none()).count()
    }

    /// Plays the unfinished pairings, all at once; each finished one is committed to the
    /// ledger (if any), then reported to `on_finished`. With a ledger, every game pair is
    /// stored as it finishes and the pairs an earlier run stored are not played again, so a
    /// stop loses only the games in progress. `on_round` sees the engine's progress over all
    /// the games to play after every round of moves (for a progress line between pairings,
    /// which can be far apart).
    pub fn play<G: GameText>(
        &mut self,
        pool: &Pool<G>,
        openings: &[G],
        settings: &PairSettings,
        mut ledger: Option<&mut Ledger>,
        on_finished: &mut dyn FnMut(&Entry, &Entry, &Tally),
        on_round: &mut dyn FnMut(&Progress),
    ) -> Result<(), ArenaError> {
        let (entries, pairings, tallies) = (&self.entries, &self.pairings, &mut self.tallies);
        let ledger_err = |e| match e {
            TournamentError::Games(e) => e,
            e => ArenaError::Sink(e.into()),
        };
        // Each unfinished pairing's tally so far and its records' writer.
        let mut running: Vec<(Tally, Option<RecordWriter<G>>)> = Vec::new();
        let mut done = Vec::with_capacity(pairings.len());
        for (k, p) in pairings.iter().enumerate() {
            let (a, b) = (&entries[p.a], &entries[p.b]);
            let mut tally = Tally::default();
            let mut writer = None;
            let mut kept = 0;
            if tallies[k].is_some() {
                kept = settings.pairs;
            } else if let Some(l) = ledger.as_deref_mut() {
                let (w, finished) = l
                    .open_pairing::<G>(a, b, k, settings.pairs)
                    .map_err(ledger_err)?;
                finished.iter().for_each(|pair| tally.add(pair));
                kept = finished.len() as u64;
                writer = Some(w);
                // Stopped after its last pair and before its line: finished now.
                if kept == settings.pairs {
                    l.commit(a, b, &tally).map_err(ledger_err)?;
                    tallies[k] = Some(tally);
                    on_finished(a, b, &tally);
                }
            }
            done.push(kept);
            running.push((tally, writer));
        }
        if done.iter().all(|&d| d >= settings.pairs) {
            return Ok(());
        }
        arena::play_pairings(
            pool,
            pairings,
            &done,
            openings,
            settings,
            &mut |p| {
                let k = p.pairing;
                let (a, b) = (&entries[pairings[k].a], &entries[pairings[k].b]);
                let (tally, writer) = &mut running[k];
                tally.add(p);
                if let Some(w) = writer.as_mut() {
                    for (g, &a_first) in p.games.iter().zip(&p.a_first) {
                        let (first, second) = if a_first { (a, b) } else { (b, a) };
                        w.push(g.clone(), &first.name, &second.name)?;
                    }
                    w.flush()?;
                }
                if tally.penta.pairs() < settings.pairs {
                    return Ok(Flow::Continue);
                }
                tallies[k] = Some(*tally);
                if let Some(l) = ledger.as_deref_mut() {
                    l.commit(a, b, tally).map_err(ledger_err)?;
                }
                on_finished(a, b, tally);
                Ok(Flow::Continue)
            },
            on_round,
        )?;
        Ok(())
    }

    /// The finished pairings, in schedule order, as results for the fit with their tallies.
    pub fn results(&self) -> Vec<(PairResult, Tally)> {
        self.pairings
            .iter()
            .zip(&self.tallies)
            .filter_map(|(p, t)| {
                t.map(|t| {
                    let r = PairResult {
                        a: p.a,
                        b: p.b,
                        a_wins: t.wdl.wins,
                        draws: t.wdl.draws,
                        b_wins: t.wdl.losses,
                    };
                    (r, t)
                })
            })
            .collect()
    }

    /// Fits the ratings of the finished pairings and ranks the agents.
    pub fn table(&self, opts: &FitOptions) -> Result<Table, TournamentError> {
        let played = self.results();
        let results: Vec<PairResult> = played.iter().map(|(r, _)| *r).collect();
        let fit = ratings::fit(self.entries.len(), &results, opts).map_err(|source| {
            let names: Vec<String> = self
                .entries
                .iter()
                .enumerate()
                .map(|(k, e)| format!("{k} = {}", e.name))
                .collect();
            TournamentError::Fit {
                players: names.join(", "),
                source,
            }
        })?;
        Ok(Table::new(&self.entries, played, &fit, opts.anchor))
    }
}
