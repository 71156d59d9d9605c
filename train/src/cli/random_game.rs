//! `crumble random-game [--game NAME] [START FLAGS] [--seed S] [--max-turns T]`: the game's
//! random play (Crumble: its `random` module; Splinter rule 8.8; Crumo
//! rule 10.4), one move a line in canonical notation, then `# result: <json>`.

use super::game_args::{Setup, StartArgs};
use crumble_core::GameText;
use crumble_core::game::text::random_move_texts;
use rand::SeedableRng;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    start: StartArgs,
    /// Seed of the random choices (ChaCha8); the same seed gives the same game.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Turn limit (Crumble rule 5.4, Splinter rule 8.4, Crumo rule 10.1), counted from the
    /// start position; 0 means none [default: 200 for Crumble and Crumo, 300 for Splinter,
    /// none for the test games].
    #[arg(long, value_name = "T")]
    max_turns: Option<u32>,
    /// Moves to play before the random game starts, in the game's notation.
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let name = a.start.game.game.clone();
    crumble_train::for_game!(name.as_str(), G => {
        let turns = a.max_turns.unwrap_or(G::RANDOM_GAME_TURNS);
        let setup = a.start.setup(turns, &[])?;
        random_game::<G>(&setup, &a.moves, a.seed)
    })
}

fn random_game<G: GameText>(
    setup: &Setup,
    moves: &[String],
    seed: u64,
) -> anyhow::Result<ExitCode> {
    let mut game: G = setup.replay(moves)?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut text = String::new();
    for line in random_move_texts(&mut game, &mut rng, setup.notation::<G>())? {
        text += &line;
        text.push('\n');
    }
    text += "# result: ";
    text += &game.result_json().to_string();
    text.push('\n');
    super::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
