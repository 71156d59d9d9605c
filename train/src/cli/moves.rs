//! `crumble moves [POSITION FLAGS] [MOVE...]`: every legal split and join of the player to
//! move (no swaps), one canonical notation string per line, in byte-wise order. With
//! `--game splinter`, every legal complete move of rule 9.5 (`cli::splinter`); with `--game
//! crumo`, every legal move of Crumo's rule 11.6 (`cli::crumo`).

use super::PositionArgs;
use super::game_args::GameArgs;
use anyhow::Context as _;
use crumble_core::{notation, position};
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
    /// Moves to play first, in the chosen frame.
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if a.game.is_splinter() {
        let setup = a.game.splinter(&a.pos, a.max_turns.unwrap_or(0), &[])?;
        return super::splinter::moves(&setup, &a.moves);
    }
    if a.game.is_crumo() {
        let setup = a.game.crumo(&a.pos, a.max_turns.unwrap_or(0), &[])?;
        return super::crumo::moves(&setup, &a.moves);
    }
    a.game
        .check_crumble(&[("--max-turns", a.max_turns.is_some())])?;
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
