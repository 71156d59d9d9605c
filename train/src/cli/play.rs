//! `crumble play [--config GAME.toml] [--agent A] [--as black|white] [--hint-agent A] [-o FILE]
//! [POSITION FLAGS]`: a game against an agent in the terminal, for every game (the one the
//! config's `[game] name` names, as for `crumble match`; Crumble by default). The session is
//! written once for every game ([`session`]); this file holds its flags and what every session
//! shares: reading lines, the file the game is saved in.
//!
//! Reads commands line by line from standard input, so a script can play it too; when the
//! input is not a terminal every line read is echoed after the prompt, to keep the transcript
//! readable.

mod session;

use super::PositionArgs;
use super::game_args::StartFlags;
use super::show::{ColorArg, ViewArg};
use super::text::escape_controls;
use anyhow::{Context as _, bail};
use std::io::{BufRead as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    #[command(flatten)]
    options: StartFlags,
    /// The opponent: bot[:SIMS] (the built-in network), random, mcts:uniform:SIMS,
    /// mcts:rollout:SIMS, ckpt:PATH[:SIMS], or book:FILE[@AGENT] (an opening book's moves,
    /// then AGENT). Default: bot for a game with a built-in network, mcts:rollout:200 for
    /// the others.
    #[arg(long, value_name = "AGENT")]
    agent: Option<String>,
    /// Your colour (Black moves first). In Crumo your seat: white is the second seat, which
    /// may swap on turn 2 and then plays Black.
    #[arg(long = "as", value_enum, value_name = "COLOR", default_value_t = ViewArg::Black)]
    side: ViewArg,
    /// The agent behind `hint` (default: --agent when it searches, else the default agent).
    #[arg(long, value_name = "AGENT")]
    hint_agent: Option<String>,
    /// Where to save the game (default: crumble-game-DATE-TIME.rec in the current directory).
    /// An existing file is never overwritten.
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    out: Option<PathBuf>,
    /// Your name in the record.
    #[arg(long, value_name = "NAME", default_value = "human")]
    name: String,
    /// Turn limit (0 = none): the game is drawn after this many turns.
    #[arg(long, value_name = "T", default_value_t = 0)]
    max_turns: u32,
    /// TOML config whose [search] section the search agents use.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Seed of the agents' random choices (rollouts, random play).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Terminal colours.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
    /// Leave out the edge coordinates.
    #[arg(long)]
    no_coords: bool,
}

/// How the game loop ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    /// The game has a result (by the rules or a resignation).
    Over,
    /// `quit` or the end of the input: saved unfinished.
    Stopped,
}

/// Reads one line of standard input, trimmed, echoed to `out` when `echo` (the input is not
/// a terminal); `None` at the end of the input.
fn read_line(out: &mut std::io::Stdout, echo: bool) -> anyhow::Result<Option<String>> {
    let mut buf = Vec::new();
    let n = std::io::stdin()
        .lock()
        .read_until(b'\n', &mut buf)
        .context("cannot read standard input")?;
    if n == 0 {
        return Ok(None);
    }
    // Bad bytes become U+FFFD and then a refused move, never a crash.
    let line = String::from_utf8_lossy(&buf).trim().to_string();
    if echo {
        out.write_all(format!("{line}\n").as_bytes())?;
        out.flush()?;
    }
    Ok(Some(line))
}

/// The file to save the game in: `-o`, or `PREFIX-DATE-TIME.rec` here; refused when it
/// exists (games are never overwritten), is one of the inputs, or its directory is missing.
fn out_path(a: &Args, prefix: &str, stamp: &str) -> anyhow::Result<PathBuf> {
    let path = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{prefix}-{stamp}.rec")));
    if path.exists() {
        bail!(
            "{} already exists: choose another file with -o (games are never overwritten)",
            path.display()
        );
    }
    let inputs: Vec<&Path> = a
        .pos
        .position
        .iter()
        .chain(&a.config)
        .map(|p| p.as_path())
        .collect();
    super::output::check_output("-o", &path, &inputs, false)?;
    if let Some(dir) = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && !d.is_dir())
    {
        bail!(
            "cannot save the game to {}: no directory {}",
            path.display(),
            dir.display()
        );
    }
    Ok(path)
}

/// Writes the record to `path`, never over an existing file.
fn save(path: &Path, text: &str) -> anyhow::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    f.write_all(text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    // The config's [game] picks the game, as for `crumble match`.
    let full = match &a.config {
        Some(p) => crumble_train::config::TrainConfig::load(p)?,
        None => crumble_train::config::TrainConfig::default(),
    };
    crumble_train::for_game!(full.game.name.as_str(), G => session::run::<G>(&a, &full))
}
