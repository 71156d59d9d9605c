//! `crumble replay [POSITION FLAGS] MOVE...`: play the moves, print the final position JSON.

use super::PositionArgs;
use crumble_core::position;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    /// Moves in notation, in the chosen frame (e.g. `1HN 5,5HSWS`).
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let game = a.pos.replay(&a.moves)?;
    super::print(&position::to_json(&game))?;
    Ok(ExitCode::SUCCESS)
}
