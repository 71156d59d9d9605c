//! `crumble replay [--game NAME] [START FLAGS] MOVE...`: play the moves, print the final
//! position's JSON. One command for every game, through its text layer.

use super::game_args::{PlayedArgs, Setup};
use crumble_core::GameText;
use std::process::ExitCode;

pub type Args = PlayedArgs;

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let setup = a.setup()?;
    crumble_train::for_game!(setup.game, G => replay::<G>(&setup, &a.moves))
}

fn replay<G: GameText>(setup: &Setup, moves: &[String]) -> anyhow::Result<ExitCode> {
    let game: G = setup.replay(moves)?;
    super::print(&format!("{}\n", game.position_json()))?;
    Ok(ExitCode::SUCCESS)
}
