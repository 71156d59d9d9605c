//! `crumble perft [--game NAME] [START FLAGS] [MOVE...] --turns D [--divide] [--unique]`: counts the
//! lines of `D` complete moves (Crumble: a split or join plus every distinct swap path,
//! including none), with the game's own counter where it has one, and reports how long it
//! took.

use super::game_args::StartArgs;
use crumble_core::GameText;
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
    /// Also count the distinct positions after each turn (transpositions once) and their
    /// classes under the game's symmetries (mirror images once): how many moves really
    /// differ. Keeps every distinct position: for the first few turns.
    #[arg(long)]
    unique: bool,
    /// Moves to play first, in the chosen frame.
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if a.turns == 0 {
        anyhow::bail!("--turns must be at least 1");
    }
    let name = a.start.game.game.clone();
    crumble_train::for_game!(name.as_str(), G => count::<G>(&a))
}

/// The count for game `G` (its own counter where it has one, `GameState::perft`), split
/// by the first move through the game's text for `--divide`.
fn count<G: GameText>(a: &Args) -> anyhow::Result<ExitCode> {
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
        game.perft(a.turns)
    };
    if a.unique {
        for (d, (positions, classes)) in crumble_core::game::perft::unique(&game, a.turns)
            .into_iter()
            .enumerate()
        {
            let _ = writeln!(
                out,
                "turn {}: {positions} distinct positions, {classes} up to symmetry",
                d + 1
            );
        }
    }
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
