//! `crumble tactics --generate`: a suite collected from self-play games of source agents and
//! from recorded games, written as `DIR/{win1,win2,defend}.jsonl` and loaded back as a check.

use super::{Args, kinds};
use crate::cli::output::{check_output, write_output};
use crate::cli::ticker::Ticker;
use anyhow::{Context as _, bail};
use crumble_selfplay::AgentSpec;
use crumble_selfplay::driver::{RunOptions, Seating, run_games, with_threads};
use crumble_selfplay::games::crumble::tactics::{self, ClassifyOptions, Generator, Kind, Suite};
use crumble_selfplay::selfplay;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub(super) fn generate(a: &Args) -> anyhow::Result<ExitCode> {
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
    let record_files = record_files(&a.records)?;
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
    let mut clock = Ticker::every(10);
    play_sources(a, &specs, &mut generator, &mut clock)?;
    let first = specs.len() as u64 * a.games;
    let games_read = read_records(&record_files, first, &mut generator, &mut clock)?;
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
        clock.secs()
    );
    for &k in &wanted {
        let line = write_kind(a, out, &inputs, k, &suite, &generator)?;
        report.push_str(&line);
    }
    check_written(out, &wanted, &suite)?;
    crate::cli::print(&report)?;
    Ok(ExitCode::SUCCESS)
}

/// The record files of every `--records` directory; refused when one has none.
fn record_files(dirs: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut record_files = Vec::new();
    for dir in dirs {
        let found = files_under(dir)?;
        if found.is_empty() {
            bail!(
                "--records {}: no record files (*.crsp) there",
                dir.display()
            );
        }
        record_files.extend(found);
    }
    Ok(record_files)
}

/// Writes the `suite`'s tactics of kind `k` to `out/KIND.jsonl`; returns the report's line
/// (kept of found).
fn write_kind(
    a: &Args,
    out: &Path,
    inputs: &[&Path],
    k: Kind,
    suite: &Suite,
    generator: &Generator,
) -> anyhow::Result<String> {
    let mut text = String::new();
    let mut n = 0;
    for t in suite.tactics.iter().filter(|t| t.kind == k) {
        text.push_str(&t.to_json().to_string());
        text.push('\n');
        n += 1;
    }
    let p = out.join(format!("{}.jsonl", k.name()));
    write_output("--out", &p, inputs, a.force, text.as_bytes())?;
    let found = generator.found.iter().filter(|f| f.2.kind == k).count();
    Ok(format!(
        "{}: {n} kept of {found} found ({}) -> {}\n",
        k.name(),
        k.describe(),
        p.display()
    ))
}

/// Plays `--games` self-play games of each source agent (each its own seed) and hands them
/// to `generator`.
fn play_sources(
    a: &Args,
    specs: &[AgentSpec],
    generator: &mut Generator,
    clock: &mut Ticker,
) -> anyhow::Result<()> {
    let (cfg, start) = a.game.crumble_config("tactics")?;
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
            start: start.clone(),
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
                    if clock.due() {
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
                            clock.secs()
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
    Ok(())
}

/// Hands the games of `record_files` to `generator` (numbered from `first`) until it has
/// enough; returns the games read.
fn read_records(
    record_files: &[PathBuf],
    first: u64,
    generator: &mut Generator,
    clock: &mut Ticker,
) -> anyhow::Result<u64> {
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
        if clock.due() {
            let (w1, w2, d) = generator.counts();
            eprintln!(
                "tactics: record file {}/{}, {games_read} games, {} positions classified ({} scanned for win2, {} over the time limit), found win1 {w1}, win2 {w2}, defend {d}, {:.0} s",
                k + 1,
                record_files.len(),
                generator.positions,
                generator.scanned,
                generator.out_of_time,
                clock.secs()
            );
        }
    }
    Ok(games_read)
}

/// What was written to `out` must load (answers parse back to the same legal moves) and be
/// `suite`'s tactics of the `wanted` kinds.
fn check_written(out: &Path, wanted: &[Kind], suite: &Suite) -> anyhow::Result<()> {
    let mut back = Suite::default();
    for k in wanted {
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
    Ok(())
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
