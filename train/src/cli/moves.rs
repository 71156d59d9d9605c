//! `crumble moves [--game NAME] [START FLAGS] [MOVE...]`: the legal moves of the player to
//! move, one a line, as the game lists them: Crumble's splits and joins without swaps in
//! byte order, Splinter's complete moves of rule 9.5, Crumo's moves of rule 11.6, every
//! legal move of the test games.

use super::game_args::{PlayedArgs, Setup};
use crumble_core::GameText;
use std::process::ExitCode;

pub type Args = PlayedArgs;

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let setup = a.setup()?;
    crumble_train::for_game!(setup.game, G => moves::<G>(&setup, &a.moves))
}

/// The list; nothing (and a note on stderr) once the game is over.
fn moves<G: GameText>(setup: &Setup, moves: &[String]) -> anyhow::Result<ExitCode> {
    let game: G = setup.replay(moves)?;
    if game.decider().is_none() {
        eprintln!(
            "the game is over (result {}): no legal moves",
            game.result_text()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    for line in game.legal_move_texts(setup.notation::<G>())? {
        text += &line;
        text.push('\n');
    }
    super::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
