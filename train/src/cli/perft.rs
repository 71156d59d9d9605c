//! `crumble perft [POSITION FLAGS] [MOVE...] --turns D [--divide]`: counts the distinct
//! complete moves (split or join plus every distinct swap path, including none) over `D`
//! turns, and reports how long it took.

use super::PositionArgs;
use crumble_core::{perft, position};
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
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
    let game = a.pos.replay(&a.moves)?;
    if let Some(o) = game.outcome() {
        anyhow::bail!(
            "the game is over (result {}): nothing to count",
            position::outcome_text(Some(o))
        );
    }
    let t0 = Instant::now();
    let mut out = String::new();
    let total = if a.divide {
        let lines = perft::divide(&game, a.turns, a.pos.frame());
        for l in &lines {
            let _ = writeln!(out, "{} {}", l.notation, l.count);
        }
        lines.iter().map(|l| l.count).sum()
    } else {
        perft::perft(&game, a.turns)
    };
    let secs = t0.elapsed().as_secs_f64();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let _ = writeln!(out, "perft {} turns: {total}", a.turns);
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
