//! `crumble match A B --games N [--max-turns T] [--config FILE] [--threads T] [--seed S]`:
//! agent A against agent B, colours alternating (A is Black in even games), turn limit,
//! draws counting half. Prints A's score. Search agents play with match settings (no noise,
//! temperature 0, no resignation).

use crumble_selfplay::driver::{RunOptions, with_threads};
use crumble_selfplay::{AgentSpec, ConfigFile, matchplay, selfplay};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Agent A (random, mcts:uniform:SIMS, mcts:rollout:SIMS, ckpt:PATH[:SIMS]).
    a: String,
    /// Agent B.
    b: String,
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Turn limit of every game (0 = none).
    #[arg(long, default_value_t = 200)]
    max_turns: u32,
    /// Games played at once.
    #[arg(long, default_value_t = 16)]
    parallel: usize,
    /// TOML config whose [search] section the search agents use.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    #[arg(long, default_value_t = 0)]
    threads: usize,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let (sa, sb) = (AgentSpec::parse(&a.a)?, AgentSpec::parse(&a.b)?);
    let cfg = match &a.config {
        Some(p) => ConfigFile::load(p)?,
        None => ConfigFile::default(),
    };
    let pa = selfplay::make_player(
        &sa,
        &cfg.search,
        a.seed ^ 0xA,
        &crumble_model::NetLoader::new(),
        true,
    )?;
    let pb = selfplay::make_player(
        &sb,
        &cfg.search,
        a.seed ^ 0xB,
        &crumble_model::NetLoader::new(),
        true,
    )?;
    let opts = RunOptions {
        start: crumble_core::Game::new(cfg.selfplay.board, cfg.selfplay.resolution)?,
        max_turns: a.max_turns,
        parallel_games: a.parallel.max(1),
        seed: a.seed,
        record_targets: false,
    };
    let t0 = Instant::now();
    let mut last = Instant::now();
    let r = with_threads(a.threads, || {
        matchplay::play_match(pa, pb, a.games, &opts, &mut |p, r| {
            if last.elapsed() >= Duration::from_secs(10) {
                last = Instant::now();
                eprintln!(
                    "match: {}/{} games, A {} wins, B {} wins, {} draws, score {:.3}, {:.0} s",
                    p.games_done,
                    p.games_total,
                    r.a_wins,
                    r.b_wins,
                    r.draws,
                    r.score(),
                    t0.elapsed().as_secs_f64()
                );
            }
        })
    })?;
    let secs = t0.elapsed().as_secs_f64();
    if a.json {
        let v = serde_json::json!({
            "a": sa.to_string(), "b": sb.to_string(), "games": r.games, "a_wins": r.a_wins,
            "b_wins": r.b_wins, "draws": r.draws, "score": r.score(), "mean_turns": r.mean_turns,
            "max_turns": a.max_turns, "seconds": secs,
        });
        super::print(&format!("{v}\n"))?;
    } else {
        super::print(&format!(
            "{} vs {}: {} games (colours alternating, turn limit {}), A {} wins ({} as Black, {} as White), B {} wins, {} draws; A scores {:.1}% (draws half); mean {:.1} turns; {:.0} s\n",
            sa,
            sb,
            r.games,
            a.max_turns,
            r.a_wins,
            r.a_wins_black,
            r.a_wins_white,
            r.b_wins,
            r.draws,
            100.0 * r.score(),
            r.mean_turns,
            secs
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
