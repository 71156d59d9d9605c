//! The Splinter form of `show` (`--game splinter`): the position in the terminal or as SVG,
//! in Splinter's notation (core/src/games/splinter/RULES.md rules 9 and 10).

use super::game_args::Setup;
use super::output::{check_output, write_output};
use super::show::ShowOptions;
use crumble_core::games::splinter::render::{
    SplinterHighlight,
    svg::{self, SvgOptions},
    term::{self, TermOptions},
};
use crumble_core::games::splinter::{Splinter, notation};
use std::path::Path;
use std::process::ExitCode;

/// `show`: the position after `moves`, the last of them highlighted (or, with no moves, the
/// position's own `last_move`), in the terminal or as SVG.
pub fn show(setup: &Setup, moves: &[String], opts: &ShowOptions) -> anyhow::Result<ExitCode> {
    let inputs: Vec<&Path> = setup.position().into_iter().collect();
    if let Some(path) = opts.svg {
        check_output("--svg", path, &inputs, opts.force)?;
    }
    let game: Splinter = setup.replay(moves)?;
    let (highlight, last_move) = match moves.split_last() {
        Some((last, first)) => {
            let before: Splinter = setup.replay(first)?;
            let mv = notation::parse_move(before.board(), last)?;
            let canonical = before.canonical(&mv)?;
            (
                SplinterHighlight::of(&before, &mv),
                Some(format!(
                    "{} ({})",
                    notation::move_text(before.board(), &canonical),
                    before.to_move().name()
                )),
            )
        }
        None => (SplinterHighlight::of_last_move(&game), None),
    };
    if let Some(path) = opts.svg {
        let text = svg::render(
            &game,
            &SvgOptions {
                coords: opts.coords,
                highlight,
                last_move,
            },
        );
        write_output("--svg", path, &inputs, opts.force, text.as_bytes())?;
        eprintln!("wrote {}", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    let text = term::render(
        &game,
        &TermOptions {
            color: opts.color,
            coords: opts.coords,
            highlight,
            last_move,
        },
    );
    super::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
