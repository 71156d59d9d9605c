//! `crumble match-report DIR... [--json]`: the result of matches saved with `crumble match
//! --out`, played no further. One directory: a match so far (a stopped one too). Several: the
//! parts of one match, the same agents and settings each with its own `--seed` (a match too
//! long for one sitting, or spread over machines), their finished pairs summed into one score
//! and Elo with the intervals an unbroken match of that many pairs would give.

use super::match_::{
    Header, adjudication_json, adjudication_line, differing, report, saved_settings, summary_json,
};
use anyhow::{Context, bail};
use crumble_selfplay::AgentSpec;
use crumble_selfplay::adjudication::AdjudicationTally;
use crumble_selfplay::arena::{RecordWriter, Tally};
use crumble_selfplay::stats::SprtStatus;
use crumble_train::config::TrainConfig;
use crumble_train::games::TrainGame;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directories that `crumble match --out` saved games in: one match, or the parts of one
    /// match (the same agents, config, openings and turn limit, each part with its own
    /// --seed).
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// Print one JSON object (match.json's fields, with the parts) instead of text.
    #[arg(long)]
    json: bool,
}

/// One saved match: its directory and the settings it started with.
struct Part {
    dir: PathBuf,
    settings: serde_json::Value,
    seed: u64,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let mut parts: Vec<Part> = Vec::with_capacity(a.dirs.len());
    for dir in &a.dirs {
        let mut settings = saved_settings(dir, "match-report")?;
        let seed = settings
            .as_object_mut()
            .and_then(|m| m.remove("seed"))
            .and_then(|s| s.as_u64())
            .with_context(|| {
                format!(
                    "match-report: {} names no seed",
                    dir.join("match-settings.json").display()
                )
            })?;
        if let Some(first) = parts.first() {
            let differ = differing(&first.settings, &settings);
            if !differ.is_empty() {
                bail!(
                    "match-report: {} holds another match than {} (other settings: {}); only \
                     parts of one match, which differ in --seed alone, add up",
                    dir.display(),
                    first.dir.display(),
                    differ.join(", ")
                );
            }
        }
        if let Some(same) = parts.iter().find(|p| p.seed == seed) {
            bail!(
                "match-report: {} and {} were both played with seed {seed}, so their games \
                 repeat each other; give each part its own --seed",
                same.dir.display(),
                dir.display()
            );
        }
        parts.push(Part {
            dir: dir.clone(),
            settings,
            seed,
        });
    }
    let settings = &parts[0].settings;
    let full: TrainConfig =
        serde_json::from_value(settings["config"].clone()).with_context(|| {
            format!(
                "match-report: the config in {} is not one this program reads",
                parts[0].dir.join("match-settings.json").display()
            )
        })?;
    let field = |key: &str| {
        settings[key].as_str().with_context(|| {
            format!(
                "match-report: {} has no `{key}`",
                parts[0].dir.join("match-settings.json").display()
            )
        })
    };
    let names = [
        AgentSpec::parse(field("a")?)?.to_string(),
        AgentSpec::parse(field("b")?)?.to_string(),
    ];
    let header = Header {
        names: &names,
        openings: field("openings")?.to_string(),
        max_turns: settings["max_turns"]
            .as_u64()
            .and_then(|t| u32::try_from(t).ok())
            .context("match-report: the saved settings have no max_turns")?,
    };
    crumble_train::for_game!(full.game.name.as_str(), G => report_parts::<G>(&a, &parts, &header, &full))
}

/// Sums the parts' finished pairs (games of `G`) and prints the report.
fn report_parts<G: TrainGame>(
    a: &Args,
    parts: &[Part],
    header: &Header,
    full: &TrainConfig,
) -> anyhow::Result<ExitCode> {
    let names = [header.names[0].as_str(), header.names[1].as_str()];
    let rules = full.adjudication;
    let mut adjudicated = AdjudicationTally::default();
    let mut tally = Tally::default();
    let mut counts = Vec::with_capacity(parts.len());
    for part in parts {
        let pairs = RecordWriter::<G>::saved_pairs(&part.dir, "match", names, 0)
            .with_context(|| format!("match-report: the games saved in {}", part.dir.display()))?;
        for p in &pairs {
            tally.add(p);
            if rules.is_on() {
                for g in &p.games {
                    adjudicated.add::<G>(rules, g)?;
                }
            }
        }
        counts.push(pairs.len());
    }
    let adjudication = rules.is_on().then_some((rules, adjudicated));
    let pairs = tally.penta.pairs();
    if a.json {
        let mut summary = summary_json(header, &tally, None, 0.0, SprtStatus::Continue, None);
        summary["adjudication"] = adjudication_json(adjudication);
        summary["parts"] = parts
            .iter()
            .zip(&counts)
            .map(|(p, n)| {
                serde_json::json!({ "dir": p.dir.display().to_string(), "seed": p.seed, "pairs": n })
            })
            .collect();
        super::print(&format!("{summary}\n"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut s = report(header, &tally, pairs, None, 0.0, SprtStatus::Continue, None);
    if let Some((r, t)) = adjudication {
        s.push_str(&adjudication_line(&r, &t));
    }
    let list: Vec<String> = parts
        .iter()
        .zip(&counts)
        .map(|(p, n)| format!("{} (seed {}): {n} pairs", p.dir.display(), p.seed))
        .collect();
    s.push_str(&format!(
        "{}: {}\n",
        if parts.len() == 1 { "games" } else { "parts" },
        list.join("; ")
    ));
    super::print(&s)?;
    Ok(ExitCode::SUCCESS)
}
