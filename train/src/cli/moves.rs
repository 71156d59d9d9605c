//! `crumble moves [POSITION FLAGS] [MOVE...]`: every legal split and join of the player to
//! move (no swaps), one canonical notation string per line, in byte-wise order.

use super::PositionArgs;
use anyhow::Context as _;
use crumble_core::{notation, position};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    /// Moves to play first, in the chosen frame.
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let mut game = a.pos.replay(&a.moves)?;
    if let Some(o) = game.outcome() {
        eprintln!(
            "the game is over (result {}): no legal moves",
            position::outcome_text(Some(o))
        );
        return Ok(ExitCode::SUCCESS);
    }
    let frame = a.pos.frame();
    // One formatter for all moves: it builds the writer's view of the position once.
    let mut formatter = notation::Formatter::new(&game, frame);
    let mut lines = Vec::new();
    for mv in game.base_moves() {
        let text = formatter.format(&game, &mv);
        lines.push(text.with_context(|| {
            format!("internal error: the listed move {mv:?} cannot be printed")
        })?);
    }
    lines.sort_unstable();
    let mut text = lines.join("\n");
    text.push('\n');
    super::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
