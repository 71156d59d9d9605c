//! `crumble tournament (--agents A B C ... | --run-dir DIR [--every K] [--sims N]
//! [--rollout-sims N]) [--games-per-pair N] [--schedule round-robin|gauntlet|ladder:K]
//! [--anchor AGENT] [--prior-draws X] [--out DIR] [--plot FILE] [--format F] [game flags]`:
//! every scheduled pairing plays game pairs (as `crumble match` does, all pairings' games
//! at once), then ratings are fitted by maximum likelihood (Davidson's Bradley–Terry model
//! with draws, `crumble_selfplay::ratings`), anchored at `random` = 0, with 95% intervals.
//!
//! Output: a table on stdout (text, Markdown, CSV or JSON); with `--out DIR` also
//! `ratings.md`, `ratings.csv`, `ratings.json`, the game records (`games/`) and, when
//! checkpoints of a run are rated, `ratings.svg` (rating against generation, error bars,
//! baselines as lines). With `--run-dir`, `--out` defaults to `DIR/tournament`.
//!
//! Resumable: finished pairings are appended to `OUT/pairings.jsonl`; a later run with the
//! same settings plays only the pairings not there yet (so a tournament over a growing run
//! only plays the new checkpoints' games).

use super::eval_args::{self, Checkpoint, GameArgs};
use super::output::{check_output, write_output};
use anyhow::{Context as _, bail};
use crumble_core::Game;
use crumble_selfplay::arena::{self, Flow, PairSettings, Pairing, Pool, RecordWriter, Tally};
use crumble_selfplay::plot::{self, Chart, Point, Reference};
use crumble_selfplay::ratings::{self, FitOptions, PairResult, Ratings};
use crumble_selfplay::stats::fmt_elo;
use crumble_selfplay::{AgentSpec, ConfigFile, GameRecord};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Markdown,
    Csv,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agents to rate (at least two): random, mcts:uniform:SIMS, mcts:rollout:SIMS,
    /// ckpt:PATH[:SIMS].
    #[arg(long, value_name = "AGENT", num_args = 1.., required_unless_present = "run_dir")]
    agents: Vec<String>,
    /// Rate a training run's checkpoints (DIR/checkpoints/gen-NNNN/net.crnet) with the
    /// baselines random and mcts:rollout:SIMS.
    #[arg(long, value_name = "DIR", conflicts_with = "agents")]
    run_dir: Option<PathBuf>,
    /// With --run-dir: every K-th checkpoint (from the first), and always the last.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = crate::cli::positive::<usize>)]
    every: usize,
    /// With --run-dir: simulations per decision of the checkpoint agents (default: the
    /// config's search.simulations).
    #[arg(long, value_name = "N", value_parser = crate::cli::positive::<u32>)]
    sims: Option<u32>,
    /// With --run-dir: simulations of the rollout baseline (0: no rollout baseline).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = crate::cli::positive::<u32>)]
    rollout_sims: u32,
    /// Games per pairing (rounded up to whole pairs: one opening, each agent Black once).
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = crate::cli::positive::<u64>)]
    games_per_pair: u64,
    /// Which pairings play: round-robin (all), gauntlet (the first agent against each
    /// other), ladder:K (each agent against the next K in the list; with --run-dir the list
    /// is random, rollout, then the checkpoints by generation).
    #[arg(long, value_name = "SCHEDULE", default_value = "round-robin")]
    schedule: String,
    /// The agent rated 0 (default: random if it plays, else the first agent).
    #[arg(long, value_name = "AGENT")]
    anchor: Option<String>,
    /// Virtual draws added to each pairing (keeps ratings finite when an agent wins or loses
    /// every game; 0 = plain maximum likelihood).
    #[arg(long, value_name = "X", default_value_t = 1.0, value_parser = crate::cli::non_negative)]
    prior_draws: f64,
    /// Directory for the results, game records and tables (resumable).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Write the rating-against-generation plot (SVG) here as well.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Replace the --plot file if it exists.
    #[arg(long, requires = "plot")]
    force: bool,
    /// Format of the table on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    game: GameArgs,
}

/// One rated agent.
#[derive(Clone, Debug)]
struct Entry {
    spec: AgentSpec,
    name: String,
    generation: Option<u64>,
}

/// The generation of a checkpoint path `.../gen-NNNN/net.crnet`, if it is one.
fn generation_of(spec: &AgentSpec) -> Option<u64> {
    let AgentSpec::Mcts {
        evaluator: crumble_selfplay::EvaluatorSpec::Checkpoint(p),
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

fn entries(a: &Args) -> anyhow::Result<Vec<Entry>> {
    let mut v = Vec::new();
    if let Some(dir) = &a.run_dir {
        v.push(Entry {
            spec: AgentSpec::Random,
            name: "random".into(),
            generation: None,
        });
        if a.rollout_sims > 0 {
            let spec = AgentSpec::parse(&format!("mcts:rollout:{}", a.rollout_sims))?;
            v.push(Entry {
                name: spec.to_string(),
                spec,
                generation: None,
            });
        }
        for c in eval_args::run_checkpoints(dir, a.every)? {
            let Checkpoint { generation, .. } = c;
            v.push(Entry {
                spec: eval_args::checkpoint_spec(&c, a.sims)?,
                name: format!("gen-{generation:04}"),
                generation: Some(generation),
            });
        }
    } else {
        for s in &a.agents {
            let spec = AgentSpec::parse(s)?;
            v.push(Entry {
                name: spec.to_string(),
                generation: generation_of(&spec),
                spec,
            });
        }
    }
    for (i, e) in v.iter().enumerate() {
        if v[..i].iter().any(|o| o.spec == e.spec) {
            bail!("agent `{}` is listed twice", e.spec);
        }
    }
    if v.len() < 2 {
        bail!("a tournament needs at least two agents, got {}", v.len());
    }
    Ok(v)
}

/// The pairings a schedule asks for, as index pairs.
fn schedule(text: &str, n: usize) -> anyhow::Result<Vec<(usize, usize)>> {
    let mut v = Vec::new();
    match text {
        "round-robin" => {
            for i in 0..n {
                for j in i + 1..n {
                    v.push((i, j));
                }
            }
        }
        "gauntlet" => v.extend((1..n).map(|j| (0, j))),
        _ => {
            let k = text
                .strip_prefix("ladder:")
                .and_then(|k| k.parse::<usize>().ok())
                .filter(|&k| k >= 1)
                .with_context(|| {
                    format!(
                        "unknown schedule `{text}` (expected round-robin, gauntlet or ladder:K with K ≥ 1)"
                    )
                })?;
            for i in 0..n {
                for j in i + 1..(i + 1 + k).min(n) {
                    v.push((i, j));
                }
            }
        }
    }
    Ok(v)
}

/// A finished pairing as stored in `pairings.jsonl`.
#[derive(Clone, Debug, Default)]
struct Done {
    a: String,
    b: String,
    tally: Tally,
}

impl Done {
    fn to_json(&self, records: &str) -> Value {
        let t = &self.tally;
        json!({
            "a": self.a, "b": self.b,
            "a_wins": t.wdl.wins, "draws": t.wdl.draws, "b_wins": t.wdl.losses,
            "a_wins_first": t.a_wins_first, "a_wins_second": t.a_wins_second,
            "black_wins": t.first_wins, "white_wins": t.second_wins,
            "pentanomial": t.penta.0, "turns": t.turns, "records": records,
        })
    }

    fn from_json(v: &Value) -> Option<Done> {
        let u = |k: &str| v.get(k)?.as_u64();
        let mut t = Tally::default();
        t.wdl.wins = u("a_wins")?;
        t.wdl.draws = u("draws")?;
        t.wdl.losses = u("b_wins")?;
        t.a_wins_first = u("a_wins_first")?;
        t.a_wins_second = u("a_wins_second")?;
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
        Some(Done {
            a: v.get("a")?.as_str()?.into(),
            b: v.get("b")?.as_str()?.into(),
            tally: t,
        })
    }
}

/// The settings a stored tournament must share with this run to be continued.
fn settings_json(a: &Args, cfg: &ConfigFile, pairs: u64) -> anyhow::Result<Value> {
    Ok(json!({
        "pairs_per_pairing": pairs,
        "max_turns": a.game.max_turns,
        "openings": a.game.describe_openings(),
        "seed": a.game.seed,
        "board": cfg.selfplay.board,
        "resolution": cfg.selfplay.resolution,
        "search": serde_json::to_value(cfg.search.for_play())?,
    }))
}

/// Reads `OUT/tournament.json` and `OUT/pairings.jsonl` (refusing other settings), or
/// starts them.
fn load_state(out: &Path, settings: &Value) -> anyhow::Result<Vec<Done>> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let sp = out.join("tournament.json");
    if sp.exists() {
        let text = std::fs::read_to_string(&sp)
            .with_context(|| format!("cannot read {}", sp.display()))?;
        let stored: Value = serde_json::from_str(&text)
            .with_context(|| format!("{} is not valid JSON", sp.display()))?;
        if stored.get("settings") != Some(settings) {
            bail!(
                "{} holds a tournament with other settings (games per pair, turn limit, openings, seed, board or search); use another --out",
                out.display()
            );
        }
    } else {
        std::fs::write(&sp, format!("{:#}\n", json!({ "settings": settings })))
            .with_context(|| format!("cannot write {}", sp.display()))?;
    }
    let jp = out.join("pairings.jsonl");
    let mut done = Vec::new();
    if jp.exists() {
        let text = std::fs::read_to_string(&jp)
            .with_context(|| format!("cannot read {}", jp.display()))?;
        for (no, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let d = serde_json::from_str::<Value>(line)
                .ok()
                .as_ref()
                .and_then(Done::from_json)
                .with_context(|| {
                    format!("{} line {}: not a pairing result", jp.display(), no + 1)
                })?;
            done.push(d);
        }
    }
    Ok(done)
}

fn append_line(path: &Path, v: &Value) -> anyhow::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    writeln!(f, "{v}").with_context(|| format!("cannot write {}", path.display()))?;
    f.sync_all()
        .with_context(|| format!("cannot write {}", path.display()))
}

/// A pairing's result from A's side, found among the stored ones in either order.
fn lookup(done: &[Done], a: &str, b: &str) -> Option<Tally> {
    done.iter().find_map(|d| {
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

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    super::on_interrupt(match (&a.out, &a.run_dir) {
        (None, None) => "the tournament is not finished; nothing was saved (--out keeps it)".into(),
        _ => "the finished pairings are saved (pairings.jsonl in the output directory); the \
              same command again plays only the others"
            .into(),
    })?;
    let list = entries(&a)?;
    let n = list.len();
    let pairs_idx = schedule(&a.schedule, n)?;
    if a.games_per_pair == 0 {
        bail!("--games-per-pair must be at least 1");
    }
    let inputs: Vec<&Path> = a.game.config.iter().map(|p| p.as_path()).collect();
    if let Some(p) = &a.plot {
        // Known before any game: the plot has a point per checkpoint of a run.
        if !list.iter().any(|e| e.generation.is_some()) {
            bail!(
                "--plot: no agent is a checkpoint of a run (ckpt:.../gen-NNNN/net.crnet), nothing to plot"
            );
        }
        check_output("--plot", p, &inputs, a.force)?;
    }
    let anchor = match &a.anchor {
        Some(s) => {
            let spec = AgentSpec::parse(s)?;
            list.iter()
                .position(|e| e.spec == spec)
                .with_context(|| format!("--anchor `{spec}` is not one of the agents"))?
        }
        None => list
            .iter()
            .position(|e| e.spec == AgentSpec::Random)
            .unwrap_or(0),
    };
    let cfg = a.game.config()?;
    let pairs = a.games_per_pair.div_ceil(2);
    let out = a
        .out
        .clone()
        .or_else(|| a.run_dir.as_ref().map(|d| d.join("tournament")));
    let specs: Vec<String> = list.iter().map(|e| e.spec.to_string()).collect();
    let done = match &out {
        Some(dir) => load_state(dir, &settings_json(&a, &cfg, pairs)?)?,
        None => Vec::new(),
    };
    let pairings: Vec<Pairing> = pairs_idx
        .iter()
        .map(|&(i, j)| Pairing { a: i, b: j })
        .collect();
    let mut tallies: Vec<Option<Tally>> = pairs_idx
        .iter()
        .map(|&(i, j)| lookup(&done, &specs[i], &specs[j]))
        .collect();
    let skip: Vec<usize> = (0..pairings.len())
        .filter(|&k| tallies[k].is_some())
        .collect();
    let todo = pairings.len() - skip.len();
    let openings = a.game.opening_positions(&cfg, pairs)?;
    eval_args::set_threads(a.game.threads);
    let specs_parsed: Vec<AgentSpec> = list.iter().map(|e| e.spec.clone()).collect();
    let t0 = Instant::now();
    eprintln!(
        "tournament: {n} agents, {} pairings ({} to play, {} stored), {} games each; loading agents",
        pairings.len(),
        todo,
        skip.len(),
        2 * pairs
    );
    let pool = Pool::new(
        &specs_parsed,
        &cfg.search.for_play(),
        &crumble_model::NetLoader::new(),
    )?;
    let settings = PairSettings {
        pairs,
        max_turns: a.game.max_turns,
        concurrency: a.game.concurrency.max(1),
        seed: a.game.seed,
        first_game: 0,
    };
    let mut running: Vec<(Tally, Vec<(GameRecord, bool)>)> =
        vec![(Tally::default(), Vec::new()); pairings.len()];
    let mut recorded = done.len();
    let mut finished = 0usize;
    if todo > 0 {
        arena::play_pairings(&pool, &pairings, &skip, &openings, &settings, &mut |p| {
            let k = p.pairing;
            let (tally, games) = &mut running[k];
            tally.add(p);
            for (g, &ab) in p.games.iter().zip(&p.a_first) {
                games.push((g.clone(), ab));
            }
            if tally.penta.pairs() < pairs {
                return Ok(Flow::Continue);
            }
            let (i, j) = pairs_idx[k];
            finished += 1;
            tallies[k] = Some(*tally);
            if let Some(dir) = &out {
                let prefix = format!("pairing-{recorded:04}");
                recorded += 1;
                let d = Done {
                    a: specs[i].clone(),
                    b: specs[j].clone(),
                    tally: *tally,
                };
                append_line(
                    &dir.join("pairings.jsonl"),
                    &d.to_json(&format!("games/{prefix}")),
                )
                .map_err(|e| arena::ArenaError::Sink(e.into()))?;
                let mut w = RecordWriter::<Game>::new(&dir.join("games"), &prefix, 1 << 20)?;
                for (g, ab) in games.drain(..) {
                    let (black, white) = if ab {
                        (&list[i].name, &list[j].name)
                    } else {
                        (&list[j].name, &list[i].name)
                    };
                    w.push(g, black, white)?;
                }
                w.flush()?;
            }
            let w = &tally.wdl;
            eprintln!(
                "tournament: {finished}/{todo} pairings: {} vs {}: {}-{}-{} (W-D-L), score {:.1}%, {:.0} s",
                list[i].name,
                list[j].name,
                w.wins,
                w.draws,
                w.losses,
                100.0 * w.score(),
                t0.elapsed().as_secs_f64()
            );
            Ok(Flow::Continue)
        })?;
    }
    let played: Vec<(PairResult, Tally)> = pairs_idx
        .iter()
        .zip(&tallies)
        .filter_map(|(&(i, j), t)| {
            t.map(|t| {
                let r = PairResult {
                    a: i,
                    b: j,
                    a_wins: t.wdl.wins,
                    draws: t.wdl.draws,
                    b_wins: t.wdl.losses,
                };
                (r, t)
            })
        })
        .collect();
    let results: Vec<PairResult> = played.iter().map(|(r, _)| *r).collect();
    let fit = ratings::fit(
        n,
        &results,
        &FitOptions {
            anchor,
            prior_draws: a.prior_draws,
        },
    )
    .with_context(|| {
        let names: Vec<String> = list
            .iter()
            .enumerate()
            .map(|(k, e)| format!("{k} = {}", e.name))
            .collect();
        format!("rating fit failed (players: {})", names.join(", "))
    })?;
    let table = Table::new(&list, &results, &fit);
    let header = format!(
        "{} agents, {} pairings of {} games ({}, {}), schedule {}",
        n,
        pairings.len(),
        2 * pairs,
        a.game.describe_openings(),
        if a.game.max_turns == 0 {
            "no turn limit".into()
        } else {
            format!("turn limit {}", a.game.max_turns)
        },
        a.schedule
    );
    let footer = format!(
        "Ratings: maximum likelihood, Davidson's Bradley-Terry model with draws (nu = {:.3}), {} = 0, {} virtual draw(s) per pairing; intervals 95% from the observed information.",
        fit.draw_nu, list[anchor].name, a.prior_draws
    );
    let chart = table.chart(&list[anchor].name);
    if let Some(dir) = &out {
        let write = |name: &str, text: String| -> anyhow::Result<()> {
            let p = dir.join(name);
            std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))
        };
        write(
            "ratings.md",
            table.markdown(&header, &footer, &list, &played),
        )?;
        write("ratings.csv", table.csv())?;
        write(
            "ratings.json",
            format!("{:#}\n", table.json(&list, &results, &fit, anchor)),
        )?;
        if let Some(c) = &chart {
            write("ratings.svg", plot::render(c))?;
        }
    }
    if let Some(p) = &a.plot {
        match &chart {
            Some(c) => write_output("--plot", p, &inputs, a.force, plot::render(c).as_bytes())?,
            None => bail!(
                "--plot: no agent is a checkpoint of a run (ckpt:.../gen-NNNN/net.crnet), nothing to plot"
            ),
        }
    }
    let text = match a.format {
        Format::Text => {
            let mut s = format!("{header}\n{}{footer}\n", table.text());
            if let Some(dir) = &out {
                let _ = writeln!(s, "results in {}", dir.display());
            }
            s
        }
        Format::Markdown => table.markdown(&header, &footer, &list, &played),
        Format::Csv => table.csv(),
        Format::Json => format!("{}\n", table.json(&list, &results, &fit, anchor)),
    };
    super::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// One table row.
struct Row {
    player: usize,
    name: String,
    spec: String,
    generation: Option<u64>,
    elo: f64,
    low: f64,
    high: f64,
    stderr: f64,
    games: u64,
    score: f64,
}

struct Table {
    rows: Vec<Row>,
}

impl Table {
    fn new(list: &[Entry], results: &[PairResult], fit: &Ratings) -> Table {
        let mut rows: Vec<Row> = list
            .iter()
            .enumerate()
            .map(|(p, e)| {
                let (mut games, mut points) = (0u64, 0.0f64);
                for r in results {
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
        Table { rows }
    }

    fn text(&self) -> String {
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

    fn markdown(
        &self,
        header: &str,
        footer: &str,
        list: &[Entry],
        played: &[(PairResult, Tally)],
    ) -> String {
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
        for (r, t) in played {
            let w = t.wdl;
            let e = t.penta.elo_estimate();
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {:.1}% | {} [{}, {}] |",
                list[r.a].name,
                list[r.b].name,
                r.a_wins,
                r.draws,
                r.b_wins,
                100.0 * w.score(),
                fmt_elo(e.elo),
                fmt_elo(e.elo_low),
                fmt_elo(e.elo_high)
            );
        }
        s
    }

    fn csv(&self) -> String {
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

    fn json(&self, list: &[Entry], results: &[PairResult], fit: &Ratings, anchor: usize) -> Value {
        let round = |x: f64| (x * 100.0).round() / 100.0;
        json!({
            "anchor": list[anchor].name,
            "draw_nu": (fit.draw_nu * 1e4).round() / 1e4,
            "ratings": self.rows.iter().enumerate().map(|(k, r)| json!({
                "rank": k + 1, "name": r.name, "agent": r.spec, "generation": r.generation,
                "elo": round(r.elo), "elo_low": round(r.low), "elo_high": round(r.high),
                "stderr": round(r.stderr), "games": r.games, "score": (r.score * 1e4).round() / 1e4,
                "player": r.player,
            })).collect::<Vec<_>>(),
            "pairings": results.iter().map(|r| json!({
                "a": list[r.a].name, "b": list[r.b].name,
                "a_wins": r.a_wins, "draws": r.draws, "b_wins": r.b_wins,
            })).collect::<Vec<_>>(),
        })
    }

    /// Rating against generation, when checkpoints of a run are among the agents; the other
    /// agents become reference lines.
    fn chart(&self, anchor: &str) -> Option<Chart> {
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
            title: format!("Rating by generation ({anchor} = 0)"),
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
