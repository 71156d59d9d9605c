//! `crumble serve [--addr 127.0.0.1:8080] [--agent A] [--config FILE] [--game G]`: the board
//! in the browser (`crumble_train::serve`). Binds to loopback unless told otherwise, and warns
//! when told.

use anyhow::{Context as _, bail};
use crumble_selfplay::{AgentSpec, ConfigFile};
use crumble_train::serve::{AppState, Engine};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Address to listen on (port 0: any free port, printed at start).
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The default opponent; the page may pick another kind, but only this one may name a
    /// checkpoint file.
    #[arg(long, value_name = "AGENT", default_value = super::play::DEFAULT_AGENT)]
    agent: String,
    /// TOML config whose [search] section the agents and the analysis use.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The game the board plays (crumble).
    #[arg(long, value_name = "GAME", default_value = "crumble")]
    game: String,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if a.game != "crumble" {
        bail!("crumble serve plays crumble, not {} (--game)", a.game);
    }
    let spec = AgentSpec::parse(&a.agent)?;
    let cfg = match &a.config {
        Some(p) => {
            let full = crumble_train::config::TrainConfig::load(p)?;
            if full.game.name != "crumble" {
                bail!(
                    "crumble serve plays crumble, not {} (the config's [game] name)",
                    full.game.name
                );
            }
            full.play_config().search
        }
        None => ConfigFile::default().search,
    };
    let engine = Engine::new(cfg, spec);
    // A wrong --agent is refused now, not at the first click.
    engine
        .check_default()
        .context("the --agent cannot play the standard start")?;
    if !crumble_train::serve::is_loopback(&a.addr) {
        eprintln!(
            "warning: listening on {}, which is not loopback: anyone who can reach this \
             machine can use the board and its CPU",
            a.addr
        );
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(a.addr)
            .await
            .with_context(|| format!("cannot listen on {}", a.addr))?;
        let addr = listener.local_addr()?;
        println!("crumble serve: open http://{addr}/ (Ctrl-C stops)");
        crumble_train::serve::serve(listener, Arc::new(AppState::new(engine)))
            .await
            .context("the server stopped")
    })?;
    Ok(ExitCode::SUCCESS)
}
