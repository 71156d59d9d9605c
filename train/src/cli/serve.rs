//! `crumble serve [--addr 127.0.0.1:8080] [--agent A] [--config FILE] [--game G] [--book FILE]`: the board
//! in the browser (`crumble_train::serve`) for Crumble, Splinter and Crumo. Binds to loopback
//! unless told otherwise, and warns when told.

use anyhow::{Context as _, bail};
use crumble_selfplay::ConfigFile;
use crumble_train::serve::{AppState, GAMES};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Address to listen on (port 0: any free port, printed at start).
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The default opponent of the game: bot (its built-in network) for a game that has
    /// one, mcts:rollout:200 for the others. The page may pick another kind, but only this
    /// one may name a checkpoint file.
    #[arg(long, value_name = "AGENT")]
    agent: Option<String>,
    /// TOML config whose [search] section the agents and the analysis use; its [game] name
    /// is the game when --game is not given (a different --game is refused).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The game a new page starts with: crumble, splinter or crumo (the page can switch).
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// An opening book (`crumble book grow`) shown beside the analysis: its values and moves
    /// for the position on the board. Repeat for other games' books (one a game).
    #[arg(long, value_name = "FILE")]
    book: Vec<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let full = match &a.config {
        Some(p) => Some(crumble_train::config::TrainConfig::load(p)?),
        None => None,
    };
    let game = match (&a.game, &full) {
        (Some(g), Some(f)) if *g != f.game.name => bail!(
            "--game {g} but the config's [game] name is {}: name one game",
            f.game.name
        ),
        (Some(g), _) => g.clone(),
        (None, Some(f)) => f.game.name.clone(),
        (None, None) => GAMES[0].to_string(),
    };
    if !GAMES.contains(&game.as_str()) {
        bail!("crumble serve plays {}, not {game}", GAMES.join(", "));
    }
    let cfg = match &full {
        Some(f) => f.play_config().search,
        None => ConfigFile::default().search,
    };
    let state = AppState::new(&game, cfg, a.agent.as_deref(), &a.book)?;
    // A wrong --agent is refused now, not at the first click.
    state
        .check()
        .with_context(|| format!("the agent cannot play the standard start of {game}"))?;
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
        crumble_train::serve::serve(listener, Arc::new(state))
            .await
            .context("the server stopped")
    })?;
    Ok(ExitCode::SUCCESS)
}
