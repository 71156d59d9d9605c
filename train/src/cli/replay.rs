//! `crumble replay [POSITION FLAGS] MOVE...`: play the moves, print the final position JSON
//! (with `--game splinter`, Splinter's: `cli::splinter`; with `--game crumo`, Crumo's:
//! `cli::crumo`).

use super::PositionArgs;
use super::game_args::GameArgs;
use crumble_core::position;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    pos: PositionArgs,
    /// Splinter and Crumo: turn limit (Splinter rule 8.4, Crumo rule 10.1), counted from the
    /// start position; 0 means none [default: 0].
    #[arg(long, value_name = "T")]
    max_turns: Option<u32>,
    /// Moves in notation, in the chosen frame (e.g. `1HN 5,5HSWS`; Splinter: `h9-h10`;
    /// Crumo: `3e5 e5-e7 pass swap`).
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if a.game.is_splinter() {
        let setup = a.game.splinter(&a.pos, a.max_turns.unwrap_or(0), &[])?;
        return super::splinter::replay(&setup, &a.moves);
    }
    if a.game.is_crumo() {
        let setup = a.game.crumo(&a.pos, a.max_turns.unwrap_or(0), &[])?;
        return super::crumo::replay(&setup, &a.moves);
    }
    a.game
        .check_crumble(&[("--max-turns", a.max_turns.is_some())])?;
    let game = a.pos.replay(&a.moves)?;
    super::print(&position::to_json(&game))?;
    Ok(ExitCode::SUCCESS)
}
