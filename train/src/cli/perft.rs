//! `crumble perft [--game NAME] [START FLAGS] [MOVE...] --turns D [--divide]`: counts the
//! lines of `D` complete moves (Crumble: a split or join plus every distinct swap path,
//! including none, with Crumble's own perft; every other game through the generic one), and
//! reports how long it took.

use super::game_args::StartArgs;
use crumble_core::games::crumble::{Crumble, perft, position};
use crumble_core::{GameState, GameText};
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    start: StartArgs,
    /// Number of turns (complete moves) to count, 1 or more; every turn multiplies the work.
    #[arg(long, value_name = "D")]
    turns: u32,
    /// Also print the count under each first move (canonical notation, byte-wise order).
    #[arg(long)]
    divide: bool,
    /// Moves to play first, in the chosen frame.
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if a.turns == 0 {
        anyhow::bail!("--turns must be at least 1");
    }
    if a.start.game.game != Crumble::NAME {
        let name = a.start.game.game.clone();
        return crumble_train::for_game!(name.as_str(), G => generic::<G>(&a));
    }
    a.start.game.check_crumble(&[])?;
    let game = a.start.pos.replay(&a.moves)?;
    if let Some(o) = game.outcome() {
        anyhow::bail!(
            "the game is over (result {}): nothing to count",
            position::outcome_text(Some(o))
        );
    }
    let t0 = Instant::now();
    let mut out = String::new();
    let total = if a.divide {
        let lines = perft::divide(&game, a.turns, a.start.pos.frame());
        for l in &lines {
            let _ = writeln!(out, "{} {}", l.notation, l.count);
        }
        lines.iter().map(|l| l.count).sum()
    } else {
        perft::perft(&game, a.turns)
    };
    report(out, a.turns, total, t0)
}

/// Every game but Crumble: the generic perft, through the game's text for `--divide`.
fn generic<G: GameText>(a: &Args) -> anyhow::Result<ExitCode> {
    let setup = a.start.setup(0, &[])?;
    let game: G = setup.replay(&a.moves)?;
    if game.decider().is_none() {
        anyhow::bail!(
            "the game is over (result {}): nothing to count",
            game.result_text()
        );
    }
    let t0 = Instant::now();
    let mut out = String::new();
    let total = if a.divide {
        let lines = crumble_core::game::perft::divide(&game, a.turns, setup.notation::<G>())?;
        for (text, count) in &lines {
            let _ = writeln!(out, "{text} {count}");
        }
        lines.iter().map(|l| l.1).sum()
    } else {
        crumble_core::game::perft::perft(&game, a.turns)
    };
    report(out, a.turns, total, t0)
}

/// Prints the count and how long it took, after the `--divide` lines in `out`.
fn report(mut out: String, turns: u32, total: u64, t0: Instant) -> anyhow::Result<ExitCode> {
    let secs = t0.elapsed().as_secs_f64();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let _ = writeln!(out, "perft {turns} turns: {total}");
    let _ = writeln!(
        out,
        "time: {secs:.3} s ({:.0} per second, 1 thread, {cores} cores{})",
        total as f64 / secs.max(1e-9),
        if cfg!(debug_assertions) {
            ", DEBUG BUILD: use --release"
        } else {
            ""
        }
    );
    super::print(&out)?;
    Ok(ExitCode::SUCCESS)
}
