//! `crumble tournament (--agents A B C ... | --run-dir DIR [--agents ANCHORS...] [--every K]
//! [--up-to GEN] [--sims N] [--rollout-sims N]) [--games-per-pair N]
//! [--schedule round-robin|gauntlet|ladder:K|anchored:K]
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
//! Resumable: every finished game pair is written to `OUT/games/` and every finished pairing
//! appended to `OUT/pairings.jsonl`; a later run with the same settings plays only the game
//! pairs not there yet (so a stop loses only the games in progress, and a tournament over a
//! growing run only plays the new checkpoints' games).
//!
//! The schedules, the ledger and the table are `crumble_selfplay::tournament`; this file
//! reads the flags and prints.

use super::eval_args::{self, GameArgs};
use super::output::{check_output, write_output};
use crate::cli::ticker::Ticker;
use anyhow::{Context as _, bail};
use crumble_core::GameState;
use crumble_selfplay::arena::{PairSettings, Pool};
use crumble_selfplay::plot::{self, Chart};
use crumble_selfplay::ratings::FitOptions;
use crumble_selfplay::tournament::{self, Entry, Ledger, Table, Tournament, TournamentError};
use crumble_selfplay::{AgentSpec, ConfigFile};
use crumble_train::config::TrainConfig;
use crumble_train::games::TrainGame;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlotX {
    Generation,
    CpuHours,
}

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
    /// ckpt:PATH[:SIMS], book:FILE[@AGENT] (an opening book's moves, then AGENT), bot[:SIMS].
    /// With --run-dir: more fixed agents, listed after the baselines and before the
    /// checkpoints (anchors of a learning curve, e.g. `bot mcts:rollout:800`).
    #[arg(long, value_name = "AGENT", num_args = 1.., required_unless_present = "run_dir")]
    agents: Vec<String>,
    /// Rate a training run's checkpoints (DIR/checkpoints/gen-NNNN/net.crnet) with the
    /// baselines random and mcts:rollout:SIMS, in the run's game with its search settings
    /// (DIR/config.toml, unless --config names another).
    #[arg(long, value_name = "DIR")]
    run_dir: Option<PathBuf>,
    /// With --run-dir: every K-th checkpoint (from the first), and always the last.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = crate::cli::positive::<usize>)]
    every: usize,
    /// With --run-dir: only the checkpoints up to generation GEN, the last of them counting
    /// as the last. Rates a run that is still training as it stood, so that no pairing is
    /// played for a last checkpoint that a later run of the tournament would no longer rate.
    #[arg(long, value_name = "GEN", requires = "run_dir")]
    up_to: Option<u64>,
    /// With --run-dir: simulations per decision of the checkpoint agents (default: the
    /// config's search.simulations).
    #[arg(long, value_name = "N", value_parser = crate::cli::positive::<u32>)]
    sims: Option<u32>,
    /// With --run-dir: simulations of the rollout baseline (0: no rollout baseline).
    #[arg(long, value_name = "N", default_value_t = 100)]
    rollout_sims: u32,
    /// Games per pairing (rounded up to whole pairs: one opening, each agent Black once).
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = crate::cli::positive::<u64>)]
    games_per_pair: u64,
    /// Which pairings play: round-robin (all), gauntlet (the first agent against each
    /// other), ladder:K (each agent against the next K in the list), anchored:K (the first K
    /// against every agent, each later one against the next: a learning curve's schedule).
    /// With --run-dir the list is random, rollout, the --agents, then the checkpoints by
    /// generation.
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
    /// The plot's horizontal axis: the checkpoints' generation, or with --run-dir the CPU
    /// hours the run had spent when it wrote each (its progress.csv): the learning curve at
    /// equal cost.
    #[arg(long, value_enum, default_value_t = PlotX::Generation)]
    plot_x: PlotX,
    /// Replace the --plot file if it exists.
    #[arg(long, requires = "plot")]
    force: bool,
    /// Format of the table on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    game: GameArgs,
}

/// The agents of `--agents`, or a run's checkpoints with the baselines.
fn entries(a: &Args) -> anyhow::Result<Vec<Entry>> {
    let Some(dir) = &a.run_dir else {
        return a
            .agents
            .iter()
            .map(|s| Ok(Entry::agent(AgentSpec::parse(s)?)))
            .collect();
    };
    let mut v = tournament::baselines(a.rollout_sims)?;
    for s in &a.agents {
        v.push(Entry::agent(AgentSpec::parse(s)?));
    }
    for c in eval_args::run_checkpoints(dir, a.every, a.up_to)? {
        v.push(Entry::checkpoint(
            eval_args::checkpoint_spec(&c, a.sims)?,
            c.generation,
        ));
    }
    Ok(v)
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    super::on_interrupt(match (&a.out, &a.run_dir) {
        (None, None) => "the tournament is not finished; nothing was saved (--out keeps it)".into(),
        _ => "the finished game pairs are saved (games/ and pairings.jsonl in the output \
              directory); the same command again plays only the others"
            .into(),
    })?;
    if a.plot_x == PlotX::CpuHours && a.run_dir.is_none() {
        bail!("--plot-x cpu-hours needs --run-dir (the CPU hours come from its progress.csv)");
    }
    let mut t = Tournament::new(entries(&a)?, &a.schedule)?;
    let (list, n) = (&t.entries, t.entries.len());
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
    let anchor = anchor(a.anchor.as_deref(), list)?;
    let full = match (&a.game.config, &a.run_dir) {
        // A run's checkpoints play the run's game: a Splinter run's nets cannot play Crumble.
        (None, Some(dir)) => TrainConfig::load(&dir.join("config.toml"))?,
        _ => a.game.full_config()?,
    };
    let cfg = full.play_config();
    let pairs = a.games_per_pair.div_ceil(2);
    let settings = a.game.pair_settings(pairs, &full);
    let out = a
        .out
        .clone()
        .or_else(|| a.run_dir.as_ref().map(|d| d.join("tournament")));
    let mut ledger = match &out {
        Some(dir) => {
            let start = crumble_train::for_game!(full.game.name.as_str(), G => {
                crumble_selfplay::record::start_json::<G>(&G::standard_start(&full)?.to_start())
            });
            Some(open_ledger(dir, &a, (&settings, &start), &cfg, &mut t)?)
        }
        None => None,
    };
    crumble_train::for_game!(full.game.name.as_str(), G => {
        play_all::<G>(&a, &mut t, &full, &cfg, &settings, ledger.as_mut())?
    });
    let table = t.table(&FitOptions {
        anchor,
        prior_draws: a.prior_draws,
    })?;
    let header = report_header(&a, n, t.pairings.len(), pairs);
    let footer = format!(
        "Ratings: maximum likelihood, Davidson's Bradley-Terry model with draws (nu = {:.3}), {} = 0, {} virtual draw(s) per pairing; intervals 95% from the observed information.",
        table.draw_nu, table.anchor, a.prior_draws
    );
    let chart = match (a.plot_x, &a.run_dir) {
        (PlotX::Generation, _) => table.chart(),
        (PlotX::CpuHours, Some(dir)) => {
            let rows = crumble_train::ledger::read(&dir.join("progress.csv"))?;
            let hours = |g: u32| {
                // gen-0000 is the network before any training: the ledger has no row for it.
                if g == 0 {
                    return Some(0.0);
                }
                let r = rows.iter().find(|r| r.generation == f64::from(g))?;
                r.cpu_s.is_finite().then_some(r.cpu_s / 3600.0)
            };
            table.chart_by("CPU hours", &hours)
        }
        (PlotX::CpuHours, None) => unreachable!("refused before any game"),
    };
    if let Some(dir) = &out {
        write_results(dir, &table, &header, &footer, chart.as_ref())?;
    }
    if let Some(p) = &a.plot {
        match &chart {
            Some(c) => write_output("--plot", p, &inputs, a.force, plot::render(c).as_bytes())?,
            None => bail!(
                "--plot: no agent is a checkpoint of a run (ckpt:.../gen-NNNN/net.crnet), nothing to plot"
            ),
        }
    }
    super::print(&report(a.format, &table, &header, &footer, out.as_deref()))?;
    Ok(ExitCode::SUCCESS)
}

/// The report's first line: agents, pairings, games, openings, turn limit, schedule.
fn report_header(a: &Args, agents: usize, pairings: usize, pairs: u64) -> String {
    format!(
        "{} agents, {} pairings of {} games ({}, {}), schedule {}",
        agents,
        pairings,
        2 * pairs,
        a.game.describe_openings(),
        if a.game.max_turns == 0 {
            "no turn limit".into()
        } else {
            format!("turn limit {}", a.game.max_turns)
        },
        a.schedule
    )
}

/// The index of the `--anchor` agent in `list` (`random`'s, or the first, by default).
fn anchor(anchor: Option<&str>, list: &[Entry]) -> anyhow::Result<usize> {
    Ok(match anchor {
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
    })
}

/// The ledger in `dir` (refused when it holds a tournament of other settings), its
/// finished pairings taken into `t`.
fn open_ledger(
    dir: &Path,
    a: &Args,
    (settings, start): (&PairSettings, &str),
    cfg: &ConfigFile,
    t: &mut Tournament,
) -> anyhow::Result<Ledger> {
    let s = tournament::settings_json(settings, &a.game.describe_openings(), start, cfg)?;
    let l = Ledger::open(dir, &s).map_err(|e| match e {
        TournamentError::OtherSettings(_) => anyhow::anyhow!("{e}; use another --out"),
        e => e.into(),
    })?;
    t.resume(&l);
    Ok(l)
}

/// `ratings.md`, `ratings.csv`, `ratings.json` and (with a chart) `ratings.svg` in `dir`.
fn write_results(
    dir: &Path,
    table: &Table,
    header: &str,
    footer: &str,
    chart: Option<&Chart>,
) -> anyhow::Result<()> {
    let write = |name: &str, text: String| -> anyhow::Result<()> {
        let p = dir.join(name);
        std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))
    };
    write("ratings.md", table.markdown(header, footer))?;
    write("ratings.csv", table.csv())?;
    write("ratings.json", format!("{:#}\n", table.json()))?;
    if let Some(c) = chart {
        write("ratings.svg", plot::render(c))?;
    }
    Ok(())
}

/// The table in `format`, the results' directory (`out`) named under a text one.
fn report(format: Format, table: &Table, header: &str, footer: &str, out: Option<&Path>) -> String {
    match format {
        Format::Text => {
            let mut s = format!("{header}\n{}{footer}\n", table.text());
            if let Some(dir) = out {
                let _ = writeln!(s, "results in {}", dir.display());
            }
            s
        }
        Format::Markdown => table.markdown(header, footer),
        Format::Csv => table.csv(),
        Format::Json => format!("{}\n", table.json()),
    }
}

/// Plays the tournament's unfinished pairings in game `G` (the config's `[game] name`), with
/// a progress line per finished pairing.
fn play_all<G: TrainGame>(
    a: &Args,
    t: &mut Tournament,
    full: &TrainConfig,
    cfg: &ConfigFile,
    settings: &PairSettings,
    ledger: Option<&mut Ledger>,
) -> anyhow::Result<()> {
    let (n, pairs) = (t.entries.len(), settings.pairs);
    let todo = t.to_play();
    let openings: Vec<G> = a.game.opening_positions_of(full, pairs)?;
    eval_args::set_threads(a.game.threads);
    let t0 = Instant::now();
    let mut clock = Ticker::every(10);
    eprintln!(
        "tournament: {n} agents, {} pairings ({} to play, {} stored), {} games each; loading agents",
        t.pairings.len(),
        todo,
        t.pairings.len() - todo,
        2 * pairs
    );
    let loader = crumble_model::NetLoader::for_encoder(G::Encoder::default());
    let pool = Pool::<G>::new(&t.specs(), &cfg.search.for_play(), &loader)?;
    let mut finished = 0usize;
    t.play(
        &pool,
        &openings,
        settings,
        ledger,
        &mut |x, y, tally| {
            finished += 1;
            let w = &tally.wdl;
            eprintln!(
                "tournament: {finished}/{todo} pairings: {} vs {}: {}-{}-{} (W-D-L), score {:.1}%, {:.0} s",
                x.name,
                y.name,
                w.wins,
                w.draws,
                w.losses,
                100.0 * w.score(),
                t0.elapsed().as_secs_f64()
            );
        },
        // Between pairings (a pairing of slow agents takes hours), a line every 10 s.
        &mut |r| {
            if clock.due() {
                eprintln!(
                    "tournament: {}/{} games finished ({} playing), {:.0} s",
                    r.games_done,
                    r.games_total,
                    r.games_running,
                    t0.elapsed().as_secs_f64()
                );
            }
        },
    )?;
    Ok(())
}
