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
use super::output::{check_output, write_output};
use anyhow::{Context as _, bail};
use crumble_selfplay::arena::Pool;
use crumble_selfplay::driver::{RunOptions, Seating, run_games, with_threads};
use crumble_selfplay::games::crumble::tactics::{
    self, Attempt, ClassifyOptions, Generator, Kind, Score, Suite,
};
use crumble_selfplay::{AgentSpec, selfplay};
use serde_json::json;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

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
    let mut agents: Vec<(String, AgentSpec, Option<u64>)> = Vec::new();
    match (&a.agent, &a.run_dir) {
        (Some(s), _) => {
            let spec = AgentSpec::parse(s)?;
            agents.push((spec.to_string(), spec, None));
        }
        (None, Some(dir)) => {
            for c in eval_args::run_checkpoints(dir, a.every)? {
                agents.push((
                    format!("gen-{:04}", c.generation),
                    eval_args::checkpoint_spec(&c, a.sims)?,
                    Some(c.generation),
                ));
            }
        }
        (None, None) => bail!("give --agent AGENT, --run-dir DIR or --generate"),
    }
    // The agents are checked first: a bad agent string is the likelier mistake.
    let (suite, suite_name) = match &a.suite {
        Some(dir) => (Suite::load_dir(dir)?, dir.display().to_string()),
        None => (Suite::builtin()?, "built-in suite".to_string()),
    };
    let suite = suite.filter(&kinds);
    if suite.tactics.is_empty() {
        bail!("no tactics of kinds {} in the {suite_name}", a.kinds);
    }
    let cfg = a.game.crumble_config("tactics")?;
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
    // The chance that a uniformly random move solves, per kind: a baseline for the rates.
    let chance = |k: Kind| {
        let ts: Vec<_> = suite.tactics.iter().filter(|t| t.kind == k).collect();
        ts.iter()
            .map(|t| t.answers.len() as f64 / t.moves as f64)
            .sum::<f64>()
            / ts.len().max(1) as f64
    };
    if a.json {
        let v = json!({
            "suite": suite_name,
            "positions": suite.tactics.len(),
            "turn_limit": a.game.max_turns,
            "seconds": (secs * 10.0).round() / 10.0,
            "agents": agents.iter().zip(&results).map(|((name, spec, generation), att)| {
                let score = Score::of(att);
                let (s, n) = score.total();
                json!({
                    "name": name, "agent": spec.to_string(), "generation": generation,
                    "solved": s, "total": n,
                    "kinds": score.by_kind.iter().map(|&(k, s, n)| {
                        let (r, lo, hi) = Score::rate(s, n);
                        json!({"kind": k.name(), "solved": s, "total": n, "rate": r,
                               "low": lo, "high": hi, "random_move": chance(k)})
                    }).collect::<Vec<_>>(),
                    "missed": att.iter().filter(|x| !x.solved).map(|x| json!({"id": x.id, "played": x.played})).collect::<Vec<_>>(),
                })
            }).collect::<Vec<_>>(),
        });
        super::print(&format!("{v}\n"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut s = String::new();
    if agents.len() == 1 {
        let score = Score::of(&results[0]);
        let _ = writeln!(
            s,
            "tactics: {} on {} positions ({suite_name}; the first turn of a game from each position, turn limit {}), {:.1} s",
            agents[0].0,
            suite.tactics.len(),
            a.game.max_turns,
            secs
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
                100.0 * chance(k)
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
        if a.verbose {
            for x in results[0].iter().filter(|x| !x.solved) {
                let t = suite
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
    } else {
        let present: Vec<Kind> = Kind::ALL
            .into_iter()
            .filter(|k| suite.tactics.iter().any(|t| t.kind == *k))
            .collect();
        let _ = writeln!(
            s,
            "tactics: {} checkpoints on {} positions ({suite_name}), {:.1} s",
            agents.len(),
            suite.tactics.len(),
            secs
        );
        let mut head = format!("{:<10}", "agent");
        for k in &present {
            let _ = write!(head, " {:>10}", k.name());
        }
        let _ = writeln!(s, "{head} {:>10}", "all");
        for ((name, ..), att) in agents.iter().zip(&results) {
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
    }
    super::print(&s)?;
    Ok(ExitCode::SUCCESS)
}

fn generate(a: &Args) -> anyhow::Result<ExitCode> {
    let out = a.out.as_ref().expect("clap requires --out");
    let inputs: Vec<&Path> = a
        .suite
        .iter()
        .chain(&a.game.config)
        .map(|p| p.as_path())
        .collect();
    let wanted = kinds(&a.kinds)?;
    for &k in &wanted {
        check_output(
            "--out",
            &out.join(format!("{}.jsonl", k.name())),
            &inputs,
            a.force,
        )?;
    }
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let sources: Vec<String> = if a.source.is_empty() && a.records.is_empty() {
        vec!["random".into()]
    } else {
        a.source.clone()
    };
    let specs: Vec<AgentSpec> = sources
        .iter()
        .map(|s| AgentSpec::parse(s))
        .collect::<Result<_, _>>()?;
    let mut record_files = Vec::new();
    for dir in &a.records {
        let found = files_under(dir)?;
        if found.is_empty() {
            bail!(
                "--records {}: no record files (*.crsp) there",
                dir.display()
            );
        }
        record_files.extend(found);
    }
    let cfg = a.game.crumble_config("tactics")?;
    // Three candidates per place leave room to spread the suite over many games.
    let mut generator = Generator::new(
        ClassifyOptions {
            max_solve_ms: a.max_solve_ms,
            ..ClassifyOptions::default()
        },
        3 * a.per_kind,
    );
    generator.scan = a.scan;
    generator.skip = Kind::ALL
        .into_iter()
        .filter(|k| !wanted.contains(k))
        .collect();
    let t0 = Instant::now();
    let mut last = Instant::now();
    for (k, spec) in specs.iter().enumerate() {
        // Each source its own seed, so two sources of one kind play different games.
        let seed = a.game.seed.wrapping_add(k as u64);
        let player = selfplay::make_agent(
            spec,
            &cfg.search,
            seed,
            &crumble_model::NetLoader::new(),
            false,
        )?;
        let opts = RunOptions {
            start: crumble_core::games::crumble::Crumble::new(
                cfg.selfplay.board,
                cfg.selfplay.resolution,
            )?,
            max_turns: a.game.max_turns,
            parallel_games: a.game.concurrency.max(1),
            seed,
            record_targets: false,
            stop_after_turns: 0,
        };
        let label = format!("self-play {spec} seed {seed}");
        let first = k as u64 * a.games;
        let mut failure: Option<anyhow::Error> = None;
        with_threads(a.game.threads, || {
            let mut players = [player];
            run_games(
                &mut players,
                Seating::SelfPlay,
                &opts,
                0..a.games,
                &mut |g| {
                    let name = format!("{label} game {}", g.index);
                    if let Err(e) = generator.add_game(&g, first + g.index, &name) {
                        return Err(Box::new(e));
                    }
                    if last.elapsed() >= Duration::from_secs(10) {
                        last = Instant::now();
                        let count =
                            |k: Kind| generator.found.iter().filter(|f| f.2.kind == k).count();
                        eprintln!(
                            "tactics: {spec} game {}/{}, {} positions classified ({} scanned for win2, {} over the time limit), found win1 {}, win2 {}, defend {}, {:.0} s",
                            g.index + 1,
                            a.games,
                            generator.positions,
                            generator.scanned,
                            generator.out_of_time,
                            count(Kind::Win1),
                            count(Kind::Win2),
                            count(Kind::Defend),
                            t0.elapsed().as_secs_f64()
                        );
                    }
                    Ok(())
                },
                &mut |_| {},
            )
            .map(|_| ())
            .unwrap_or_else(|e| failure = Some(e.into()));
        });
        if let Some(e) = failure {
            return Err(e.context(format!("playing the games of {spec}")));
        }
    }
    let first = specs.len() as u64 * a.games;
    let mut games_read = 0u64;
    for (k, f) in record_files.iter().enumerate() {
        if generator.done() {
            break;
        }
        let games = crumble_selfplay::record::read_file(f)
            .with_context(|| format!("--records: {}", f.display()))?;
        for g in games {
            let name = format!("{} game {}", f.display(), g.index);
            generator
                .add_game(&g, first + games_read, &name)
                .with_context(|| format!("--records: {}", f.display()))?;
            games_read += 1;
        }
        if last.elapsed() >= Duration::from_secs(10) {
            last = Instant::now();
            let (w1, w2, d) = generator.counts();
            eprintln!(
                "tactics: record file {}/{}, {games_read} games, {} positions classified ({} scanned for win2, {} over the time limit), found win1 {w1}, win2 {w2}, defend {d}, {:.0} s",
                k + 1,
                record_files.len(),
                generator.positions,
                generator.scanned,
                generator.out_of_time,
                t0.elapsed().as_secs_f64()
            );
        }
    }
    let suite = generator.select(a.per_kind);
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut names: Vec<String> = specs
        .iter()
        .map(|s| format!("{} games of {s}", a.games))
        .collect();
    if !a.records.is_empty() {
        names.push(format!(
            "{games_read} recorded games from {} files",
            record_files.len()
        ));
    }
    let mut report = format!(
        "tactics: {}, {} distinct positions classified ({} skipped at the {} ms limit) in {:.0} s\n",
        names.join(", "),
        generator.positions,
        generator.out_of_time,
        a.max_solve_ms,
        t0.elapsed().as_secs_f64()
    );
    for &k in &wanted {
        let mut text = String::new();
        let mut n = 0;
        for t in suite.tactics.iter().filter(|t| t.kind == k) {
            text.push_str(&t.to_json().to_string());
            text.push('\n');
            n += 1;
        }
        let p = out.join(format!("{}.jsonl", k.name()));
        write_output("--out", &p, &inputs, a.force, text.as_bytes())?;
        let found = generator.found.iter().filter(|f| f.2.kind == k).count();
        let _ = writeln!(
            report,
            "{}: {n} kept of {found} found ({}) -> {}",
            k.name(),
            k.describe(),
            p.display()
        );
    }
    // What was written must load (answers parse back to the same legal moves).
    let mut back = Suite::default();
    for k in &wanted {
        let p = out.join(format!("{}.jsonl", k.name()));
        let text =
            std::fs::read_to_string(&p).with_context(|| format!("reading {} back", p.display()))?;
        if !text.is_empty() {
            back.tactics
                .extend(Suite::parse(&p.display().to_string(), &text)?.tactics);
        }
    }
    let same = |t: &tactics::Tactic| {
        back.tactics.iter().any(|b| {
            b.id == t.id && b.position == t.position && b.answers == t.answers && b.kind == t.kind
        })
    };
    if back.tactics.len() != suite.tactics.len() || !suite.tactics.iter().all(same) {
        bail!(
            "the suite read back from {} differs from the one written",
            out.display()
        );
    }
    super::print(&report)?;
    Ok(ExitCode::SUCCESS)
}

/// The record files (`*.crsp`: self-play, match) in `dir` and, depth first, in its
/// subdirectories, in name order.
fn files_under(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("--records: cannot read {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    let mut out: Vec<PathBuf> = entries
        .iter()
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "crsp"))
        .cloned()
        .collect();
    for d in entries.iter().filter(|p| p.is_dir()) {
        out.extend(files_under(d)?);
    }
    Ok(out)
}
