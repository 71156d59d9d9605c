//! The subcommands of `crumble`, one file each, and the flags they share.

mod bench;
mod bench_mcts;
mod bench_net;
mod bench_selfplay;
mod book;
mod eval_args;
mod game_args;
mod match_;
mod match_report;
mod moves;
mod openings;
mod output;
mod perft;
mod play;
mod position_args;
mod random_game;
mod replay;
mod selfplay;
mod serve;
mod show;
mod solve;
mod store_check;
mod tactics;
pub mod text;
mod ticker;
mod tournament;
mod train;
mod view;
mod worker;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

pub use position_args::PositionArgs;

/// Crumble Zero: self-play training, evaluation, play and analysis of Crumble, Splinter, Crumo
/// and every other game of its registry, and their rules engines on the command line.
#[derive(Debug, Parser)]
#[command(name = "crumble", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play moves from a position and print the final position as JSON (any game, with
    /// --game).
    Replay(replay::Args),
    /// List every legal move of the player to move (Crumble: splits and joins), one per
    /// line, sorted.
    Moves(moves::Args),
    /// Play a random game and print its moves, then `# result: <json>`.
    RandomGame(random_game::Args),
    /// Draw a position in the terminal or as SVG, optionally from a game record.
    Show(show::Args),
    /// Count the distinct complete moves over D turns (turn-level perft), timed.
    Perft(perft::Args),
    /// Find moves that win at once (depth 1) or force a win within two turns (depth 2).
    Solve(solve::Args),
    /// Measure the speed of parts of the system.
    #[command(subcommand)]
    Bench(bench::Bench),
    /// Self-play games of one agent into record files.
    Selfplay(selfplay::Args),
    /// A match between two agents in game pairs: score, Elo with intervals, optional SPRT.
    Match(match_::Args),
    /// The result of matches saved with `match --out`: one so far, or the parts of one match
    /// (each with its own --seed) summed.
    MatchReport(match_report::Args),
    /// Ratings of many agents (or a training run's checkpoints) from a round robin or gauntlet.
    Tournament(tournament::Args),
    /// The tactics suite: an agent's solve rate on short forced wins and defences.
    Tactics(tactics::Args),
    /// Opening statistics: the tree of the first moves with results, lengths and priors.
    Openings(openings::Args),
    /// Opening books grown from an agent's searches: grow one, export it as JSON or as an
    /// opening suite for matches.
    #[command(subcommand)]
    Book(book::BookCommand),
    /// The training loop: self-play, replay, training, evaluation, generation after generation.
    Train(train::Args),
    /// Play a game against an agent in the terminal; the game is saved as a record.
    Play(play::Args),
    /// Write one game (text record or .crsp) as a self-contained HTML page to step through.
    View(view::Args),
    /// The board in the browser: play and analyse with the bot (a local web server).
    Serve(serve::Args),
    /// A self-play worker of a shared run: follows the trainer's network, uploads games.
    Worker(worker::Args),
    /// Check that a run location's store does what shared runs need (create-only, listing).
    StoreCheck(store_check::Args),
}

pub fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Replay(a) => replay::run(a),
        Command::Moves(a) => moves::run(a),
        Command::RandomGame(a) => random_game::run(a),
        Command::Show(a) => show::run(a),
        Command::Perft(a) => perft::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Bench(b) => bench::run(b),
        Command::Selfplay(a) => selfplay::run(a),
        Command::Match(a) => match_::run(a),
        Command::MatchReport(a) => match_report::run(a),
        Command::Tournament(a) => tournament::run(a),
        Command::Tactics(a) => tactics::run(a),
        Command::Openings(a) => openings::run(a),
        Command::Book(b) => book::run(b),
        Command::Train(a) => train::run(a),
        Command::Play(a) => play::run(a),
        Command::View(a) => view::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Worker(a) => worker::run(a),
        Command::StoreCheck(a) => store_check::run(a),
    }
}

/// Writes `text` to stdout in one piece (nothing is printed before all work succeeded).
pub(crate) fn print(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// The value parser of every `--threads` flag: a count within
/// [`crumble_selfplay::driver::MAX_THREADS`].
pub fn threads_arg(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("`{s}` is not a thread count (a whole number, 0 = one per core)"))?;
    crumble_selfplay::driver::check_threads(n)
}

/// Ctrl-C ends a long command at once with `message` (what was kept, how to go on) and exit
/// status 130. Every file the commands write appears whole through a rename, so stopping
/// at any moment loses only work in progress.
pub fn on_interrupt(message: String) -> anyhow::Result<()> {
    ctrlc::set_handler(move || {
        eprintln!("\ninterrupted: {message}");
        std::process::exit(130);
    })
    .map_err(|e| anyhow::anyhow!("cannot catch Ctrl-C: {e}"))
}

/// The value parser of every count flag that must be at least 1 (games, simulations,
/// tactics per kind...): clap refuses 0 before the command starts, so no flag is found
/// wrong only after the work it was meant to shape.
pub fn positive<T>(s: &str) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + From<u8>,
{
    let n: T = s
        .parse()
        .map_err(|_| format!("`{s}` is not a whole number"))?;
    if n < T::from(1) {
        return Err("must be at least 1".into());
    }
    Ok(n)
}

/// The value parser of durations in seconds: finite and positive.
pub fn seconds_arg(s: &str) -> Result<f64, String> {
    positive_amount(s, "seconds")
}

/// The value parser of durations in hours: finite and positive.
pub fn hours_arg(s: &str) -> Result<f64, String> {
    positive_amount(s, "hours")
}

fn positive_amount(s: &str, unit: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("`{s}` is not a positive number of {unit}")),
    }
}

/// The value parser of finite numbers that are 0 or more (pseudo-counts, weights).
pub fn non_negative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("`{s}` is not a finite number of 0 or more")),
    }
}

/// Did the error come from writing to a closed pipe?
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
