//! Tournaments: the agents to rate, which pairs of them play (the schedule), the resumable
//! ledger of finished pairings, and the ratings table fitted from the results.
//!
//! A [`Tournament`] plays its pairings with [`arena::play_pairings`]; each finished pairing
//! goes to the [`Ledger`] of its output directory (`tournament.json` holds the settings,
//! `pairings.jsonl` one line per pairing, `games/` the records), so a later run with the
//! same settings plays only the pairings not stored yet. [`Tournament::table`] fits the
//! ratings ([`ratings::fit`]) and ranks the agents in a [`Table`].

use crate::agent::{AgentError, AgentSpec, EvaluatorSpec};
use crate::arena::{self, ArenaError, Flow, PairSettings, Pairing, Pool, RecordWriter, Tally};
use crate::config::ConfigFile;
use crate::hooks::GameHooks;
use crate::plot::{Chart, Point, Reference};
use crate::ratings::{self, FitOptions, PairResult, RatingError, Ratings};
use crate::record::GameRecord;
use crate::stats::fmt_elo;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Why a tournament could not be set up, resumed or rated.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    #[error("agent `{0}` is listed twice")]
    Duplicate(AgentSpec),
    #[error("a tournament needs at least two agents, got {0}")]
    TooFew(usize),
    #[error("unknown schedule `{0}` (expected round-robin, gauntlet or ladder:K with K ≥ 1)")]
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
}

impl FromStr for Schedule {
    type Err = TournamentError;

    /// `round-robin`, `gauntlet` or `ladder:K` (K ≥ 1).
    fn from_str(text: &str) -> Result<Schedule, TournamentError> {
        match text {
            "round-robin" => Ok(Schedule::RoundRobin),
            "gauntlet" => Ok(Schedule::Gauntlet),
            _ => text
                .strip_prefix("ladder:")
                .and_then(|k| k.parse::<usize>().ok())
                .filter(|&k| k >= 1)
                .map(Schedule::Ladder)
                .ok_or_else(|| TournamentError::Schedule(text.into())),
        }
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
        };
        (0..n)
            .flat_map(|a| (a + 1..(a + 1 + k).min(n)).map(move |b| Pairing { a, b }))
            .collect()
    }
}

// ---------------------------------------------------------------------------------------
// The ledger of finished pairings.

/// A finished pairing as stored in `pairings.jsonl`, by agent string.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StoredPairing {
    pub a: String,
    pub b: String,
    pub tally: Tally,
}

impl StoredPairing {
    fn to_json(&self, records: &str) -> Value {
        let t = &self.tally;
        json!({
            "a": self.a, "b": self.b,
            "a_wins": t.wdl.wins, "draws": t.wdl.draws, "b_wins": t.wdl.losses,
            "a_wins_black": t.a_wins_first, "a_wins_white": t.a_wins_second,
            "black_wins": t.first_wins, "white_wins": t.second_wins,
            "pentanomial": t.penta.0, "turns": t.turns, "records": records,
        })
    }

    fn from_json(v: &Value) -> Option<StoredPairing> {
        let u = |k: &str| v.get(k)?.as_u64();
        let mut t = Tally::default();
        t.wdl.wins = u("a_wins")?;
        t.wdl.draws = u("draws")?;
        t.wdl.losses = u("b_wins")?;
        // The ledger's keys name Crumble's colours: Black is the first player.
        t.a_wins_first = u("a_wins_black")?;
        t.a_wins_second = u("a_wins_white")?;
        t.first_wins = u("black_wins")?;
        t.second_wins = u("white_wins")?;
        t.turns = u("turns")?;
        let p = v.get("pentanomial")?.as_array()?;
        if p.len() != 5 {
            return None;
        }
        for (k, x) in p.iter().enumerate() {
            t.penta.0[k] = x.as_u64()?;
        }
        Some(StoredPairing {
            a: v.get("a")?.as_str()?.into(),
            b: v.get("b")?.as_str()?.into(),
            tally: t,
        })
    }
}

/// The settings a stored tournament must share with this run to be continued: the game
/// pairs per pairing, turn limit and seed of `play`, the openings (as described to people),
/// the board and the search.
pub fn settings_json(
    play: &PairSettings,
    openings: &str,
    cfg: &ConfigFile,
) -> Result<Value, TournamentError> {
    Ok(json!({
        "pairs_per_pairing": play.pairs,
        "max_turns": play.max_turns,
        "openings": openings,
        "seed": play.seed,
        "board": cfg.selfplay.board,
        "resolution": cfg.selfplay.resolution,
        "search": serde_json::to_value(cfg.search.for_play()).map_err(TournamentError::Settings)?,
    }))
}

/// A tournament's output directory: `tournament.json` (the settings), `pairings.jsonl`
/// (one line per finished pairing, appended and synced whole) and `games/` (each pairing's
/// records, `pairing-NNNN-*`).
#[derive(Debug)]
pub struct Ledger {
    dir: PathBuf,
    stored: Vec<StoredPairing>,
}

impl Ledger {
    /// Reads the stored settings and pairings of `dir`, refusing other settings
    /// ([`TournamentError::OtherSettings`]), or starts a new tournament there.
    pub fn open(dir: &Path, settings: &Value) -> Result<Ledger, TournamentError> {
        std::fs::create_dir_all(dir).map_err(io_err("create", dir))?;
        let sp = dir.join("tournament.json");
        if sp.exists() {
            let text = std::fs::read_to_string(&sp).map_err(io_err("read", &sp))?;
            let stored: Value =
                serde_json::from_str(&text).map_err(|source| TournamentError::Json {
                    path: sp.clone(),
                    source,
                })?;
            if stored.get("settings") != Some(settings) {
                return Err(TournamentError::OtherSettings(dir.to_path_buf()));
            }
        } else {
            std::fs::write(&sp, format!("{:#}\n", json!({ "settings": settings })))
                .map_err(io_err("write", &sp))?;
        }
        let jp = dir.join("pairings.jsonl");
        let mut stored = Vec::new();
        if jp.exists() {
            let text = std::fs::read_to_string(&jp).map_err(io_err("read", &jp))?;
            for (no, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let d = serde_json::from_str::<Value>(line)
                    .ok()
                    .as_ref()
                    .and_then(StoredPairing::from_json)
                    .ok_or_else(|| TournamentError::BadLine {
                        path: jp.clone(),
                        line: no + 1,
                    })?;
                stored.push(d);
            }
        }
        Ok(Ledger {
            dir: dir.to_path_buf(),
            stored,
        })
    }

    /// The finished pairings, in the order they were stored.
    pub fn stored(&self) -> &[StoredPairing] {
        &self.stored
    }

    /// The result of `a` against `b` from A's side, found among the stored ones in either
    /// order.
    pub fn lookup(&self, a: &str, b: &str) -> Option<Tally> {
        self.stored.iter().find_map(|d| {
            if d.a == a && d.b == b {
                Some(d.tally)
            } else if d.a == b && d.b == a {
                let mut t = d.tally;
                std::mem::swap(&mut t.wdl.wins, &mut t.wdl.losses);
                t.penta.0.reverse();
                // A's wins by colour are not kept for the swapped side: the ratings do not use them.
                (t.a_wins_first, t.a_wins_second) = (0, 0);
                Some(t)
            } else {
                None
            }
        })
    }

    /// Stores a finished pairing: its line in `pairings.jsonl` (one write, synced), then its
    /// games of game `G` (`a_first`: whether A was the first player) as records named by the
    /// entries' names.
    pub fn commit<G: GameHooks>(
        &mut self,
        a: &Entry,
        b: &Entry,
        tally: &Tally,
        games: impl IntoIterator<Item = (GameRecord, bool)>,
    ) -> Result<(), TournamentError> {
        let prefix = format!("pairing-{:04}", self.stored.len());
        let d = StoredPairing {
            a: a.spec.to_string(),
            b: b.spec.to_string(),
            tally: *tally,
        };
        append_line(
            &self.dir.join("pairings.jsonl"),
            &d.to_json(&format!("games/{prefix}")),
        )?;
        self.stored.push(d);
        let mut w = RecordWriter::<G>::new(&self.dir.join("games"), &prefix, 1 << 20)?;
        for (g, a_first) in games {
            let (first, second) = if a_first {
                (&a.name, &b.name)
            } else {
                (&b.name, &a.name)
            };
            w.push(g, first, second)?;
        }
        w.flush()?;
        Ok(())
    }
}

fn append_line(path: &Path, v: &Value) -> Result<(), TournamentError> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io_err("open", path))?;
    writeln!(f, "{v}").map_err(io_err("write", path))?;
    f.sync_all().map_err(io_err("write", path))
}

// ---------------------------------------------------------------------------------------
// Playing and rating.

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
    /// ledger (if any), then reported to `on_finished`.
    pub fn play<G: GameHooks>(
        &mut self,
        pool: &Pool<G>,
        openings: &[G],
        settings: &PairSettings,
        mut ledger: Option<&mut Ledger>,
        on_finished: &mut dyn FnMut(&Entry, &Entry, &Tally),
    ) -> Result<(), ArenaError> {
        let skip: Vec<usize> = (0..self.pairings.len())
            .filter(|&k| self.tallies[k].is_some())
            .collect();
        if skip.len() == self.pairings.len() {
            return Ok(());
        }
        let (entries, pairings, tallies) = (&self.entries, &self.pairings, &mut self.tallies);
        let mut running: Vec<(Tally, Vec<(GameRecord, bool)>)> =
            vec![(Tally::default(), Vec::new()); pairings.len()];
        arena::play_pairings(pool, pairings, &skip, openings, settings, &mut |p| {
            let k = p.pairing;
            let (tally, games) = &mut running[k];
            tally.add(p);
            for (g, &ab) in p.games.iter().zip(&p.a_first) {
                games.push((g.clone(), ab));
            }
            if tally.penta.pairs() < settings.pairs {
                return Ok(Flow::Continue);
            }
            tallies[k] = Some(*tally);
            let (a, b) = (&entries[pairings[k].a], &entries[pairings[k].b]);
            if let Some(l) = ledger.as_deref_mut() {
                l.commit::<G>(a, b, tally, games.drain(..))
                    .map_err(|e| match e {
                        TournamentError::Games(e) => e,
                        e => ArenaError::Sink(e.into()),
                    })?;
            }
            on_finished(a, b, tally);
            Ok(Flow::Continue)
        })?;
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

// ---------------------------------------------------------------------------------------
// The table.

/// One agent's line of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The agent's index among the entries.
    pub player: usize,
    pub name: String,
    pub spec: String,
    pub generation: Option<u64>,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    pub stderr: f64,
    pub games: u64,
    pub score: f64,
}

/// A finished pairing with its agents' names.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedPairing {
    pub a: String,
    pub b: String,
    pub result: PairResult,
    pub tally: Tally,
}

/// The ratings of a tournament, best first, with the pairings they rest on.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub rows: Vec<Row>,
    pub pairings: Vec<PlayedPairing>,
    /// The name of the agent rated 0.
    pub anchor: String,
    /// The fitted draw parameter ν.
    pub draw_nu: f64,
}

impl Table {
    pub fn new(
        entries: &[Entry],
        played: Vec<(PairResult, Tally)>,
        fit: &Ratings,
        anchor: usize,
    ) -> Table {
        let mut rows: Vec<Row> = entries
            .iter()
            .enumerate()
            .map(|(p, e)| {
                let (mut games, mut points) = (0u64, 0.0f64);
                for (r, _) in &played {
                    if r.a == p {
                        games += r.games();
                        points += r.a_wins as f64 + 0.5 * r.draws as f64;
                    } else if r.b == p {
                        games += r.games();
                        points += r.b_wins as f64 + 0.5 * r.draws as f64;
                    }
                }
                Row {
                    player: p,
                    name: e.name.clone(),
                    spec: e.spec.to_string(),
                    generation: e.generation,
                    elo: fit.elo[p],
                    low: fit.low[p],
                    high: fit.high[p],
                    stderr: fit.stderr[p],
                    games,
                    score: if games == 0 {
                        0.0
                    } else {
                        points / games as f64
                    },
                }
            })
            .collect();
        rows.sort_by(|x, y| y.elo.total_cmp(&x.elo));
        let pairings = played
            .into_iter()
            .map(|(result, tally)| PlayedPairing {
                a: entries[result.a].name.clone(),
                b: entries[result.b].name.clone(),
                result,
                tally,
            })
            .collect();
        Table {
            rows,
            pairings,
            anchor: entries[anchor].name.clone(),
            draw_nu: fit.draw_nu,
        }
    }

    /// The ranking as aligned plain text.
    pub fn text(&self) -> String {
        let w = self
            .rows
            .iter()
            .map(|r| r.name.len())
            .max()
            .unwrap_or(5)
            .max(5);
        let mut s = format!(
            "{:>4}  {:<w$}  {:>8}  {:>20}  {:>6}  {:>6}\n",
            "rank", "agent", "rating", "95% interval", "games", "score"
        );
        for (k, r) in self.rows.iter().enumerate() {
            let _ = writeln!(
                s,
                "{:>4}  {:<w$}  {:>8}  {:>20}  {:>6}  {:>5.1}%",
                k + 1,
                r.name,
                fmt_elo(r.elo),
                format!("[{}, {}]", fmt_elo(r.low), fmt_elo(r.high)),
                r.games,
                100.0 * r.score
            );
        }
        s
    }

    /// A Markdown report: `header` and the ranking, `footer`, then the pairings.
    pub fn markdown(&self, header: &str, footer: &str) -> String {
        let mut s = format!("# Tournament\n\n{header}.\n\n");
        s += "| rank | agent | rating | 95% interval | games | score |\n";
        s += "| ---: | --- | ---: | --- | ---: | ---: |\n";
        for (k, r) in self.rows.iter().enumerate() {
            let name = if r.name == r.spec {
                format!("`{}`", r.name)
            } else {
                format!("{} (`{}`)", r.name, r.spec)
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | [{}, {}] | {} | {:.1}% |",
                k + 1,
                name,
                fmt_elo(r.elo),
                fmt_elo(r.low),
                fmt_elo(r.high),
                r.games,
                100.0 * r.score
            );
        }
        let _ = writeln!(s, "\n{footer}\n\n## Pairings\n");
        s += "| A | B | A wins | draws | B wins | A's score | Elo (A - B), 95% from the game pairs |\n";
        s += "| --- | --- | ---: | ---: | ---: | ---: | --- |\n";
        for p in &self.pairings {
            let r = &p.result;
            let e = p.tally.penta.elo_estimate();
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {:.1}% | {} [{}, {}] |",
                p.a,
                p.b,
                r.a_wins,
                r.draws,
                r.b_wins,
                100.0 * p.tally.wdl.score(),
                fmt_elo(e.elo),
                fmt_elo(e.elo_low),
                fmt_elo(e.elo_high)
            );
        }
        s
    }

    pub fn csv(&self) -> String {
        let mut s =
            String::from("rank,name,agent,generation,elo,elo_low,elo_high,stderr,games,score\n");
        for (k, r) in self.rows.iter().enumerate() {
            let q = |t: &str| format!("\"{}\"", t.replace('"', "\"\""));
            let _ = writeln!(
                s,
                "{},{},{},{},{:.2},{:.2},{:.2},{:.2},{},{:.4}",
                k + 1,
                q(&r.name),
                q(&r.spec),
                r.generation.map(|g| g.to_string()).unwrap_or_default(),
                r.elo,
                r.low,
                r.high,
                r.stderr,
                r.games,
                r.score
            );
        }
        s
    }

    pub fn json(&self) -> Value {
        let round = |x: f64| (x * 100.0).round() / 100.0;
        json!({
            "anchor": self.anchor,
            "draw_nu": (self.draw_nu * 1e4).round() / 1e4,
            "ratings": self.rows.iter().enumerate().map(|(k, r)| json!({
                "rank": k + 1, "name": r.name, "agent": r.spec, "generation": r.generation,
                "elo": round(r.elo), "elo_low": round(r.low), "elo_high": round(r.high),
                "stderr": round(r.stderr), "games": r.games, "score": (r.score * 1e4).round() / 1e4,
                "player": r.player,
            })).collect::<Vec<_>>(),
            "pairings": self.pairings.iter().map(|p| json!({
                "a": p.a, "b": p.b,
                "a_wins": p.result.a_wins, "draws": p.result.draws, "b_wins": p.result.b_wins,
            })).collect::<Vec<_>>(),
        })
    }

    /// Rating against generation, when checkpoints of a run are among the agents; the other
    /// agents become reference lines.
    pub fn chart(&self) -> Option<Chart> {
        let points: Vec<Point> = self
            .rows
            .iter()
            .filter_map(|r| {
                r.generation.map(|g| Point {
                    x: g as f64,
                    y: r.elo,
                    low: r.low,
                    high: r.high,
                })
            })
            .collect();
        if points.is_empty() {
            return None;
        }
        let references = self
            .rows
            .iter()
            .filter(|r| r.generation.is_none())
            .map(|r| Reference {
                label: format!("{} {}", r.name, fmt_elo(r.elo)),
                y: r.elo,
                low: r.low,
                high: r.high,
            })
            .collect();
        Some(Chart {
            title: format!("Rating by generation ({} = 0)", self.anchor),
            note:
                "checkpoints with 95% intervals; dashed: other agents (shaded: their 95% interval)"
                    .into(),
            x_label: "generation".into(),
            y_label: "rating (Elo), 95% interval".into(),
            points,
            references,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Pentanomial, Wdl};
    use crumble_core::Game;

    fn entries(specs: &[&str]) -> Vec<Entry> {
        specs
            .iter()
            .map(|s| Entry::agent(AgentSpec::parse(s).unwrap()))
            .collect()
    }

    /// A tally of `pairs` game pairs from `penta` (A's points per pair: 0, ½, 1, 1½, 2).
    fn tally(wins: u64, draws: u64, losses: u64, penta: [u64; 5]) -> Tally {
        Tally {
            wdl: Wdl {
                wins,
                draws,
                losses,
            },
            penta: Pentanomial(penta),
            a_wins_first: wins / 2,
            a_wins_second: wins - wins / 2,
            first_wins: wins / 2 + losses / 2,
            second_wins: (wins + losses) - (wins / 2 + losses / 2),
            turns: 10 * (wins + draws + losses),
        }
    }

    #[test]
    fn schedules_parse_and_pair() {
        let pairs = |s: &str, n| -> Vec<(usize, usize)> {
            let sch: Schedule = s.parse().unwrap();
            sch.pairings(n).iter().map(|p| (p.a, p.b)).collect()
        };
        assert_eq!(
            pairs("round-robin", 4),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(pairs("gauntlet", 4), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(pairs("ladder:1", 4), [(0, 1), (1, 2), (2, 3)]);
        // ladder:2 over 5 agents: 4 + 3 = 7 pairings.
        assert_eq!(pairs("ladder:2", 5).len(), 7);
        assert_eq!(pairs("ladder:9", 4), pairs("round-robin", 4));
        assert!(pairs("gauntlet", 1).is_empty());
        for bad in [
            "swiss",
            "ladder:0",
            "ladder:",
            "ladder:x",
            "Round-Robin",
            "",
        ] {
            let e = bad.parse::<Schedule>().unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "unknown schedule `{bad}` (expected round-robin, gauntlet or ladder:K with K ≥ 1)"
                )
            );
        }
    }

    #[test]
    fn entries_are_checked_and_named() {
        let e = Tournament::new(entries(&["random", "mcts:rollout:4", "random"]), "gauntlet")
            .unwrap_err();
        assert_eq!(e.to_string(), "agent `random` is listed twice");
        let e = Tournament::new(entries(&["random"]), "round-robin").unwrap_err();
        assert_eq!(
            e.to_string(),
            "a tournament needs at least two agents, got 1"
        );
        // The entries are checked before the schedule.
        let e = Tournament::new(entries(&["random"]), "swiss").unwrap_err();
        assert!(matches!(e, TournamentError::TooFew(1)), "{e}");
        let t = Tournament::new(entries(&["random", "mcts:uniform:8"]), "round-robin").unwrap();
        assert_eq!((t.pairings.len(), t.to_play()), (1, 1));

        let ck =
            Entry::agent(AgentSpec::parse("ckpt:runs/a/checkpoints/gen-0012/net.crnet:8").unwrap());
        assert_eq!(ck.generation, Some(12));
        assert_eq!(ck.name, "ckpt:runs/a/checkpoints/gen-0012/net.crnet:8");
        let other = AgentSpec::parse("ckpt:nets/best.crnet").unwrap();
        assert_eq!(generation_of(&other), None);
        assert_eq!(Entry::checkpoint(other, 3).name, "gen-0003");
        let names: Vec<String> = baselines(100)
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["random", "mcts:rollout:100"]);
        assert_eq!(baselines(0).unwrap().len(), 1);
    }

    #[test]
    fn the_ledger_resumes_finished_pairings_and_refuses_other_settings() {
        let dir = std::env::temp_dir().join(format!("crumble-tournament-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut play = PairSettings {
            pairs: 2,
            max_turns: 50,
            concurrency: 4,
            seed: 7,
            first_game: 0,
        };
        let cfg = ConfigFile::default();
        let settings = settings_json(&play, "openings: 4 random turns", &cfg).unwrap();
        let list = entries(&["random", "mcts:uniform:8", "mcts:uniform:16"]);
        let t01 = tally(3, 0, 1, [0, 1, 0, 1, 0]);
        {
            let mut l = Ledger::open(&dir, &settings).unwrap();
            assert!(l.stored().is_empty());
            l.commit::<Game>(&list[0], &list[1], &t01, []).unwrap();
            // Stored as B against A: found from A's side.
            l.commit::<Game>(&list[2], &list[1], &tally(0, 2, 2, [1, 1, 0, 0, 0]), [])
                .unwrap();
        }
        let text = std::fs::read_to_string(dir.join("pairings.jsonl")).unwrap();
        assert_eq!(text.lines().count(), 2);
        assert!(text.contains(r#""records":"games/pairing-0001""#), "{text}");

        let l = Ledger::open(&dir, &settings).unwrap();
        assert_eq!(l.stored().len(), 2);
        assert_eq!(l.lookup("random", "mcts:uniform:8"), Some(t01));
        let swapped = l.lookup("mcts:uniform:8", "mcts:uniform:16").unwrap();
        assert_eq!(
            (swapped.wdl.wins, swapped.wdl.draws, swapped.wdl.losses),
            (2, 2, 0)
        );
        assert_eq!(swapped.penta, Pentanomial([0, 0, 0, 1, 1]));
        assert_eq!(l.lookup("random", "mcts:uniform:16"), None);

        let mut t = Tournament::new(list.clone(), "round-robin").unwrap();
        t.resume(&l);
        assert_eq!(t.to_play(), 1);
        assert_eq!(t.tallies[0], Some(t01));
        assert_eq!(t.tallies[1], None);
        assert!(t.tallies[2].is_some());

        play.seed = 8;
        let other = settings_json(&play, "openings: 4 random turns", &cfg).unwrap();
        let e = Ledger::open(&dir, &other).unwrap_err();
        assert!(matches!(e, TournamentError::OtherSettings(_)), "{e}");
        assert!(
            e.to_string()
                .contains("holds a tournament with other settings"),
            "{e}"
        );

        std::fs::write(
            dir.join("pairings.jsonl"),
            format!("{text}\n{{\"a\":\"random\"}}\n"),
        )
        .unwrap();
        let e = Ledger::open(&dir, &settings).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("pairings.jsonl line 4: not a pairing result"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tables_rank_the_fitted_ratings() {
        let list = vec![
            Entry::agent(AgentSpec::Random),
            Entry::agent(AgentSpec::parse("mcts:rollout:4").unwrap()),
            Entry::checkpoint(AgentSpec::parse("ckpt:r/gen-0002/net.crnet").unwrap(), 2),
        ];
        let mut t = Tournament::new(list, "round-robin").unwrap();
        // Unplayed pairings are left out of the fit and the counts.
        t.tallies = vec![
            Some(tally(1, 2, 5, [2, 1, 1, 0, 0])),
            Some(tally(0, 0, 8, [4, 0, 0, 0, 0])),
            None,
        ];
        let opts = FitOptions {
            anchor: 0,
            prior_draws: 1.0,
        };
        let table = t.table(&opts).unwrap();
        let names: Vec<&str> = table.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["gen-0002", "mcts:rollout:4", "random"]);
        assert!(table.rows.windows(2).all(|w| w[0].elo >= w[1].elo));
        let random = &table.rows[2];
        assert_eq!((random.player, random.elo, random.games), (0, 0.0, 16));
        assert!((random.score - 2.0 / 16.0).abs() < 1e-12);
        let rollout = &table.rows[1];
        assert_eq!(rollout.games, 8);
        assert!((rollout.score - 6.0 / 8.0).abs() < 1e-12);
        assert_eq!(table.anchor, "random");
        assert_eq!(table.pairings.len(), 2);
        assert_eq!(
            (table.pairings[1].a.as_str(), table.pairings[1].b.as_str()),
            ("random", "gen-0002")
        );

        let csv = table.csv();
        assert_eq!(csv.lines().count(), 4);
        assert!(
            csv.lines()
                .nth(1)
                .unwrap()
                .starts_with("1,\"gen-0002\",\"ckpt:r/gen-0002/net.crnet\",2,")
        );
        let v = table.json();
        assert_eq!(v["anchor"], "random");
        assert_eq!(v["ratings"][2]["elo"], 0.0);
        assert_eq!(v["pairings"].as_array().unwrap().len(), 2);
        let md = table.markdown("h", "f");
        assert!(
            md.contains("| 1 | gen-0002 (`ckpt:r/gen-0002/net.crnet`) |"),
            "{md}"
        );
        assert!(
            md.contains("| random | mcts:rollout:4 | 1 | 2 | 5 | 25.0% |"),
            "{md}"
        );
        assert!(table.text().lines().nth(3).unwrap().contains("random"));

        let chart = table.chart().unwrap();
        assert_eq!(chart.points.len(), 1);
        assert_eq!(chart.references.len(), 2);
        assert_eq!(chart.title, "Rating by generation (random = 0)");
        let mut no_run = Tournament::new(
            vec![
                Entry::agent(AgentSpec::Random),
                Entry::agent(AgentSpec::parse("mcts:uniform:2").unwrap()),
            ],
            "gauntlet",
        )
        .unwrap();
        // Nothing played: no rating, and the error names the players.
        let e = no_run.table(&opts).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("rating fit failed (players: 0 = random, 1 = mcts:uniform:2)"),
            "{e}"
        );
        no_run.tallies = vec![Some(tally(1, 0, 1, [0, 1, 0, 0, 0]))];
        assert!(no_run.table(&opts).unwrap().chart().is_none());
    }
}
