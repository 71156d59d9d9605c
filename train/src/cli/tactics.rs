//! `crumble tactics (--agent A | --run-dir DIR [--every K] [--sims N]) [--suite DIR]
//! [--kinds win1,win2,defend] [--verbose] [--json]`: the solve rate of an agent (or of every
//! checkpoint of a training run) on the tactics suite (`crumble_selfplay::games::crumble::tactics`): positions
//! from real games where the side to move can win at once, force a win within two turns, or
//! must stop the opponent's win at once.
//!
//! `crumble tactics --generate --out DIR [--source AGENT]... [--records DIR]... [--games N]
//! [--per-kind K] [--max-solve-ms MS]`: plays self-play games of each source agent, reads
//! the games of record directories (a training run's replay: its checkpoints' games), and
//! collects such positions with the exhaustive solver into `DIR/{win1,win2,defend}.jsonl`
//! (how the built-in suite in `selfplay/data/tactics/` was made), then loads the files back as
//! a check.

use super::eval_args::{self, GameArgs};
use anyhow::{Context as _, bail};
use crumble_selfplay::AgentSpec;
use crumble_selfplay::arena::Pool;
use crumble_selfplay::games::crumble::tactics::{self, Attempt, Kind, Score, Suite};
use serde_json::json;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

mod generate;
use generate::generate;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent to test: random, bot[:SIMS], mcts:uniform:SIMS, mcts:rollout:SIMS, ckpt:PATH[:SIMS].
    #[arg(long, value_name = "AGENT", conflicts_with_all = ["run_dir", "generate"])]
    agent: Option<String>,
    /// Test every checkpoint of a training run (DIR/checkpoints/gen-NNNN/net.crnet).
    #[arg(long, value_name = "DIR", conflicts_with = "generate")]
    run_dir: Option<PathBuf>,
    /// With --run-dir: every K-th checkpoint, and always the last.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = crate::cli::positive::<usize>)]
    every: usize,
    /// With --run-dir: simulations per decision of the checkpoint agents.
    #[arg(long, value_name = "N", value_parser = crate::cli::positive::<u32>)]
    sims: Option<u32>,
    /// A directory of *.jsonl tactics files instead of the built-in suite.
    #[arg(long, value_name = "DIR")]
    suite: Option<PathBuf>,
    /// Only these kinds (comma-separated: win1, win2, defend). With --generate: only these
    /// are looked for and written (other kinds' files in --out are left alone).
    #[arg(long, value_name = "KINDS", default_value = "win1,win2,defend")]
    kinds: String,
    /// Also list every tactic the agent missed.
    #[arg(long)]
    verbose: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Make a suite: play games and collect tactics from them (with --out).
    #[arg(long, requires = "out")]
    generate: bool,
    /// With --generate: the directory for the data files.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// With --generate: replace data files that exist in --out.
    #[arg(long, requires = "out")]
    force: bool,
    /// With --generate: an agent whose self-play games are searched for tactics (repeat the
    /// flag for a mix of agents: each plays --games games). Default: random, unless
    /// --records is given.
    #[arg(long, value_name = "AGENT")]
    source: Vec<String>,
    /// With --generate: also search the games of every record file (*.crsp) in this
    /// directory and its subdirectories, e.g. a training run's `replay/` (repeatable; after
    /// the --source games, in file order).
    #[arg(long, value_name = "DIR", requires = "generate")]
    records: Vec<PathBuf>,
    /// With --generate: games to play per source agent.
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = crate::cli::positive::<u64>)]
    games: u64,
    /// With --generate: tactics kept per kind.
    #[arg(long, value_name = "K", default_value_t = 40, value_parser = crate::cli::positive::<usize>)]
    per_kind: usize,
    /// With --generate: time limit of one position's exhaustive solve; the solver stops there
    /// and the position is skipped.
    #[arg(long, value_name = "MS", default_value_t = 2000, value_parser = crate::cli::positive::<u64>)]
    max_solve_ms: u64,
    /// With --generate: turn starts per game solved for win2 beyond the hints (positions
    /// where a forcing move was played); 0 solves only the hints.
    #[arg(long, value_name = "N", default_value_t = 4)]
    scan: usize,
    #[command(flatten)]
    game: GameArgs,
}

fn kinds(text: &str) -> anyhow::Result<Vec<Kind>> {
    text.split(',')
        .map(|k| {
            Kind::from_name(k.trim()).with_context(|| {
                format!("unknown tactic kind `{k}` (expected win1, win2 or defend)")
            })
        })
        .collect()
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    super::on_interrupt(
        "nothing was written (results are written when every position is done); run the \
         command again"
            .into(),
    )?;
    if a.generate {
        return generate(&a);
    }
    let kinds = kinds(&a.kinds)?;
    let agents = entrants(&a)?;
    // The agents are checked first: a bad agent string is the likelier mistake.
    let (suite, suite_name) = match &a.suite {
        Some(dir) => (Suite::load_dir(dir)?, dir.display().to_string()),
        None => (Suite::builtin()?, "built-in suite".to_string()),
    };
    let suite = suite.filter(&kinds);
    if suite.tactics.is_empty() {
        bail!("no tactics of kinds {} in the {suite_name}", a.kinds);
    }
    let (cfg, start) = a.game.crumble_config("tactics")?;
    suite.check_fits(&start).with_context(|| {
        format!(
            "the {suite_name} does not fit the config: give a config with the suite's start, \
             or a suite made for this one (`crumble tactics --generate` with this config, \
             then --suite DIR)"
        )
    })?;
    eval_args::set_threads(a.game.threads);
    let specs: Vec<AgentSpec> = agents.iter().map(|x| x.1.clone()).collect();
    let pool = Pool::new(
        &specs,
        &cfg.search.for_play(),
        &crumble_model::NetLoader::new(),
    )?;
    let t0 = Instant::now();
    let mut results: Vec<Vec<Attempt>> = Vec::new();
    for (i, (name, ..)) in agents.iter().enumerate() {
        if agents.len() > 1 {
            eprintln!("tactics: {name} ({}/{})", i + 1, agents.len());
        }
        results.push(tactics::run(
            &pool,
            i,
            &suite,
            a.game.max_turns,
            a.game.concurrency.max(1),
            a.game.seed,
        )?);
    }
    let secs = t0.elapsed().as_secs_f64();
    let tested = Tested {
        suite: &suite,
        suite_name: &suite_name,
        agents: &agents,
        results: &results,
        secs,
    };
    let s = if a.json {
        format!("{}\n", tested.json(a.game.max_turns))
    } else if agents.len() == 1 {
        tested.one_agent(a.game.max_turns, a.verbose)
    } else {
        tested.checkpoints()
    };
    super::print(&s)?;
    Ok(ExitCode::SUCCESS)
}

/// An agent under test: its name, its spec and its generation (for a run's checkpoints).
type Entrant = (String, AgentSpec, Option<u64>);

/// The agents `--agent` or `--run-dir` names.
fn entrants(a: &Args) -> anyhow::Result<Vec<Entrant>> {
    let mut agents: Vec<Entrant> = Vec::new();
    match (&a.agent, &a.run_dir) {
        (Some(s), _) => {
            let spec = AgentSpec::parse(s)?;
            agents.push((spec.to_string(), spec, None));
        }
        (None, Some(dir)) => {
            for c in eval_args::run_checkpoints(dir, a.every, None)? {
                agents.push((
                    format!("gen-{:04}", c.generation),
                    eval_args::checkpoint_spec(&c, a.sims)?,
                    Some(c.generation),
                ));
            }
        }
        (None, None) => bail!("give --agent AGENT, --run-dir DIR or --generate"),
    }
    Ok(agents)
}

/// The agents' attempts at the suite, for the reports.
struct Tested<'a> {
    suite: &'a Suite,
    suite_name: &'a str,
    agents: &'a [Entrant],
    results: &'a [Vec<Attempt>],
    secs: f64,
}

impl Tested<'_> {
    /// The chance that a uniformly random move solves, per kind: a baseline for the rates.
    fn chance(&self, k: Kind) -> f64 {
        let ts: Vec<_> = self.suite.tactics.iter().filter(|t| t.kind == k).collect();
        ts.iter()
            .map(|t| t.answers.len() as f64 / t.moves as f64)
            .sum::<f64>()
            / ts.len().max(1) as f64
    }

    /// The report as one JSON object.
    fn json(&self, max_turns: u32) -> serde_json::Value {
        json!({
            "suite": self.suite_name,
            "positions": self.suite.tactics.len(),
            "turn_limit": max_turns,
            "seconds": (self.secs * 10.0).round() / 10.0,
            "agents": self.agents.iter().zip(self.results).map(|((name, spec, generation), att)| {
                let score = Score::of(att);
                let (s, n) = score.total();
                json!({
                    "name": name, "agent": spec.to_string(), "generation": generation,
                    "solved": s, "total": n,
                    "kinds": score.by_kind.iter().map(|&(k, s, n)| {
                        let (r, lo, hi) = Score::rate(s, n);
                        json!({"kind": k.name(), "solved": s, "total": n, "rate": r,
                               "low": lo, "high": hi, "random_move": self.chance(k)})
                    }).collect::<Vec<_>>(),
                    "missed": att.iter().filter(|x| !x.solved).map(|x| json!({"id": x.id, "played": x.played})).collect::<Vec<_>>(),
                })
            }).collect::<Vec<_>>(),
        })
    }

    /// One agent's report: a row per kind and the total, then (`verbose`) every miss.
    fn one_agent(&self, max_turns: u32, verbose: bool) -> String {
        let (agents, suite, suite_name) = (self.agents, self.suite, self.suite_name);
        let mut s = String::new();
        let score = Score::of(&self.results[0]);
        let _ = writeln!(
            s,
            "tactics: {} on {} positions ({suite_name}; the first turn of a game from each position, turn limit {}), {:.1} s",
            agents[0].0,
            suite.tactics.len(),
            max_turns,
            self.secs
        );
        let _ = writeln!(
            s,
            "{:<7} {:<32} {:>8} {:>7} {:>16} {:>12}",
            "kind", "task", "solved", "rate", "95% interval", "random move"
        );
        for &(k, solved, n) in &score.by_kind {
            let (r, lo, hi) = Score::rate(solved, n);
            let _ = writeln!(
                s,
                "{:<7} {:<32} {:>8} {:>6.1}% {:>16} {:>11.1}%",
                k.name(),
                k.describe(),
                format!("{solved}/{n}"),
                100.0 * r,
                format!("[{:.1}, {:.1}]", 100.0 * lo, 100.0 * hi),
                100.0 * self.chance(k)
            );
        }
        let (solved, n) = score.total();
        let (r, lo, hi) = Score::rate(solved, n);
        let _ = writeln!(
            s,
            "{:<7} {:<32} {:>8} {:>6.1}% {:>16}",
            "all",
            "",
            format!("{solved}/{n}"),
            100.0 * r,
            format!("[{:.1}, {:.1}]", 100.0 * lo, 100.0 * hi)
        );
        if verbose {
            self.misses(&mut s);
        }
        s
    }

    /// Every tactic the one agent missed, with what it played and the answers.
    fn misses(&self, s: &mut String) {
        for x in self.results[0].iter().filter(|x| !x.solved) {
            let t = self
                .suite
                .tactics
                .iter()
                .find(|t| t.id == x.id)
                .expect("an id of the suite");
            let _ = writeln!(
                s,
                "missed {} ({}): played {}, answers ({} of {} moves): {}",
                x.id,
                t.source,
                x.played,
                t.answers.len(),
                t.moves,
                t.answers
                    .iter()
                    .take(6)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" ")
                    + if t.answers.len() > 6 { " ..." } else { "" }
            );
        }
    }

    /// Several checkpoints' report: a row per agent, a column per kind present.
    fn checkpoints(&self) -> String {
        let (agents, suite, suite_name) = (self.agents, self.suite, self.suite_name);
        let mut s = String::new();
        let present: Vec<Kind> = Kind::ALL
            .into_iter()
            .filter(|k| suite.tactics.iter().any(|t| t.kind == *k))
            .collect();
        let _ = writeln!(
            s,
            "tactics: {} checkpoints on {} positions ({suite_name}), {:.1} s",
            agents.len(),
            suite.tactics.len(),
            self.secs
        );
        let mut head = format!("{:<10}", "agent");
        for k in &present {
            let _ = write!(head, " {:>10}", k.name());
        }
        let _ = writeln!(s, "{head} {:>10}", "all");
        for ((name, ..), att) in agents.iter().zip(self.results) {
            let score = Score::of(att);
            let mut line = format!("{name:<10}");
            for k in &present {
                let (_, solved, n) = score
                    .by_kind
                    .iter()
                    .find(|x| x.0 == *k)
                    .copied()
                    .unwrap_or((*k, 0, 0));
                let _ = write!(line, " {:>10}", format!("{solved}/{n}"));
            }
            let (solved, n) = score.total();
            let _ = writeln!(s, "{line} {:>9.1}%", 100.0 * Score::rate(solved, n).0);
        }
        s
    }
}
