//! `crumble random-game [POSITION FLAGS] [--seed S] [--max-turns T]`: random play (DESIGN.md,
//! `crumble_core::random`), one move per line in canonical notation, then `# result: <json>`.
//! With `--game splinter`, Splinter's random play (rule 8.8, `cli::splinter`); with `--game
//! crumo`, Crumo's (rule 10.4, `cli::crumo`).

use super::PositionArgs;
use super::game_args::GameArgs;
use anyhow::Context as _;
use crumble_core::{notation, position, random};
use rand::SeedableRng;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    pos: PositionArgs,
    /// Seed of the random choices (ChaCha8); the same seed gives the same game.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Turn limit (Crumble rule 5.4, Splinter rule 8.4, Crumo rule 10.1), counted from the
    /// start position; 0 means none [default: 200 for Crumble and Crumo, 300 for Splinter].
    #[arg(long, value_name = "T")]
    max_turns: Option<u32>,
    /// Moves to play before the random game starts, in the chosen frame.
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if a.game.is_splinter() {
        let turns = a.max_turns.unwrap_or(super::splinter::RANDOM_GAME_TURNS);
        let setup = a.game.splinter(&a.pos, turns, &[])?;
        return super::splinter::random_game(&setup, &a.moves, a.seed);
    }
    if a.game.is_crumo() {
        let turns = a.max_turns.unwrap_or(super::crumo::RANDOM_GAME_TURNS);
        let setup = a.game.crumo(&a.pos, turns, &[])?;
        return super::crumo::random_game(&setup, &a.moves, a.seed);
    }
    a.game.check_crumble(&[])?;
    let mut game = a.pos.replay(&a.moves)?;
    game.set_max_turns(a.max_turns.unwrap_or(200));
    let frame = a.pos.frame();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(a.seed);
    let mut path = Vec::new();
    let mut text = String::new();
    while !game.is_over() {
        let before = game.clone();
        random::play_random_turn_recorded(&mut game, &mut rng, &mut path);
        let mv = before.move_from_decisions(&path)?;
        let line = notation::format_move(&before, &mv, frame);
        text.push_str(&line.with_context(|| {
            format!("internal error: the random move {mv:?} cannot be printed")
        })?);
        text.push('\n');
    }
    text.push_str("# result: ");
    text.push_str(&position::outcome_json(game.outcome()).to_string());
    text.push('\n');
    super::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
