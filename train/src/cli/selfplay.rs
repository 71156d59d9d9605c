//! `crumble selfplay --agent AGENT --games N --out DIR [--config FILE] [--threads T] [--seed S]`:
//! self-play games into record files (`crumble_selfplay::selfplay`), with a progress line
//! every few seconds (games done, games per hour, simulations per second, ETA). A directory
//! that already holds games is continued up to N games in total.

use anyhow::Context as _;
use crumble_selfplay::{AgentSpec, selfplay};
use crumble_train::config::TrainConfig;
use crumble_train::games::TrainGame;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent: mcts:uniform:SIMS, mcts:rollout:SIMS or ckpt:PATH[:SIMS] (a network of the
    /// config's game), or book:FILE[@AGENT] (an opening book's moves, then AGENT's searches).
    #[arg(long, value_name = "AGENT")]
    agent: String,
    /// Total games the directory should hold.
    #[arg(long, value_name = "N", value_parser = crate::cli::positive::<u64>)]
    games: u64,
    /// Output directory (created if missing; existing games are kept and counted).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// TOML config: [game] (the game), [search] and [selfplay] are used; every section is
    /// checked.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0, value_parser = crate::cli::threads_arg)]
    threads: usize,
    /// Overrides selfplay.seed.
    #[arg(long)]
    seed: Option<u64>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    super::on_interrupt(format!(
        "the finished record files in {} are kept; the same command again plays the games \
         they lack",
        a.out.display()
    ))?;
    let spec = AgentSpec::parse(&a.agent)?;
    let mut full = match &a.config {
        Some(p) => TrainConfig::load(p)?,
        None => TrainConfig::default(),
    };
    if let Some(s) = a.seed {
        full.selfplay.seed = s;
    }
    crumble_train::for_game!(full.game.name.as_str(), G => play::<G>(&a, &spec, &full))
}

/// Self-play in game `G` (the config's `[game] name`).
fn play<G: TrainGame>(a: &Args, spec: &AgentSpec, cfg: &TrainConfig) -> anyhow::Result<ExitCode> {
    let loader = crumble_model::NetLoader::for_encoder(G::Encoder::default());
    let player = selfplay::make_agent(spec, &cfg.search, cfg.selfplay.seed, &loader, false)?;
    let standard = G::standard_start(cfg)?;
    let t0 = Instant::now();
    let mut last = Instant::now();
    let mut first: Option<(Instant, u64)> = None;
    let total = a.games;
    let out = a.out.clone();
    let (existing, progress) = crumble_selfplay::driver::with_threads(a.threads, || {
        selfplay::run_selfplay(player, &cfg.selfplay, &standard, &out, total, &mut |p| {
            let start = *first.get_or_insert((Instant::now(), p.simulations));
            if last.elapsed() < Duration::from_secs(5) && p.games_running > 0 {
                return;
            }
            last = Instant::now();
            let secs = t0.elapsed().as_secs_f64().max(1e-9);
            let per_hour = p.games_done as f64 / secs * 3600.0;
            let sims = (p.simulations - start.1) as f64 / start.0.elapsed().as_secs_f64().max(1e-9);
            let left = p.games_total - p.games_done;
            let eta = if p.games_done > 0 {
                format!("{:.0} s", left as f64 * secs / p.games_done as f64)
            } else {
                "?".into()
            };
            eprintln!(
                "selfplay: {}/{} games, {:.1} games/h, {:.0} sims/s, cache hits {}, ETA {eta}",
                p.games_done, p.games_total, per_hour, sims, p.cache_hits
            );
        })
    })
    .with_context(|| format!("self-play into {}", a.out.display()))?;
    eprintln!(
        "selfplay: done: {} new games ({} were there), {} simulations in {:.1} s, records in {}",
        progress.games_done,
        existing.games(),
        progress.simulations,
        t0.elapsed().as_secs_f64(),
        a.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
