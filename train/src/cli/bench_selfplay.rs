//! `crumble bench selfplay [--json] [--games N] [--config FILE]`: self-play of the config (the
//! default config unless `--config`) with a freshly initialised network, the network alone at
//! the mean batch self-play used, and the shares of the time in the network, in encoding and
//! in tree work (`crumble_model::selfplay_bench`). Only meaningful in a release build on an
//! idle machine.

use anyhow::Context as _;
use crumble_train::config::TrainConfig;
use crumble_train::games::TrainGame;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print one JSON object with the keys cores, games, seconds, selfplay_sims_per_sec,
    /// selfplay_games_per_hour, selfplay_evals_per_sec, mean_batch,
    /// net_pos_per_sec_at_mean_batch, share_net, share_encode, share_tree.
    #[arg(long)]
    json: bool,
    /// Self-play games to play (default: one generation's worth of the default config).
    #[arg(long, value_name = "N", default_value_t = 32, value_parser = crate::cli::positive::<u64>)]
    games: u64,
    /// A training config (Crumble) instead of the default one.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    super::bench::warn_if_unoptimised();
    let cfg = match &a.config {
        Some(p) => TrainConfig::load(p)?,
        None => TrainConfig::default(),
    };
    if cfg.game.name != <crumble_core::games::crumble::Crumble as crumble_core::GameState>::NAME {
        anyhow::bail!(
            "bench selfplay measures Crumble; the config's game is `{}`",
            cfg.game.name
        );
    }
    let standard = <crumble_core::games::crumble::Crumble as TrainGame>::standard_start(&cfg)?;
    let net = <crumble_core::games::crumble::Crumble as TrainGame>::net_config(&cfg);
    let dir = std::env::temp_dir().join(format!("crumble-bench-selfplay-{}", std::process::id()));
    let result = crumble_model::selfplay_bench::run(
        &cfg.search,
        &cfg.selfplay,
        &net,
        &standard,
        a.games,
        &dir,
    );
    let _ = std::fs::remove_dir_all(&dir);
    let b = result.context("bench selfplay")?;
    if a.json {
        println!("{}", serde_json::to_string(&b)?);
    } else {
        println!(
            "self-play, default config{}, fresh network, {} cores: {} games in {:.1} s",
            a.config
                .as_ref()
                .map(|p| format!(" ({})", p.display()))
                .unwrap_or_default(),
            b.cores,
            b.games,
            b.seconds
        );
        println!(
            "  simulations per second      {:>10.0}",
            b.selfplay_sims_per_sec
        );
        println!(
            "  games per hour              {:>10.0}",
            b.selfplay_games_per_hour
        );
        println!(
            "  network evaluations / s     {:>10.0}",
            b.selfplay_evals_per_sec
        );
        println!("  mean batch                  {:>10.1}", b.mean_batch);
        println!(
            "  network alone at that batch {:>10.0} positions/s",
            b.net_pos_per_sec_at_mean_batch
        );
        println!(
            "  time: network {:.0}%, encoding and priors {:.0}%, tree and rules {:.0}%",
            100.0 * b.share_net,
            100.0 * b.share_encode,
            100.0 * b.share_tree
        );
    }
    Ok(ExitCode::SUCCESS)
}
