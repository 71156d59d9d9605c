//! The Crumo form of `show` (`--game crumo`): the position in the terminal or as SVG, in
//! Crumo's notation (core/src/games/crumo/RULES.md rules 11 and 12).

use super::game_args::Setup;
use super::output::{check_output, write_output};
use super::show::ShowOptions;
use crumble_core::games::crumo::render::{
    CrumoHighlight,
    svg::{self, SvgOptions},
    term::{self, TermOptions},
};
use crumble_core::games::crumo::{Crumo, notation};
use std::path::Path;
use std::process::ExitCode;

/// `show`: the position after `moves`, the last of them highlighted, in the terminal or as
/// SVG.
pub fn show(setup: &Setup, moves: &[String], opts: &ShowOptions) -> anyhow::Result<ExitCode> {
    let inputs: Vec<&Path> = setup.position().into_iter().collect();
    if let Some(path) = opts.svg {
        check_output("--svg", path, &inputs, opts.force)?;
    }
    let game: Crumo = setup.replay(moves)?;
    let (highlight, last_move) = match moves.split_last() {
        Some((last, first)) => {
            let before: Crumo = setup.replay(first)?;
            let mv = notation::parse_move(before.geometry(), last)?;
            (
                CrumoHighlight::of(&mv),
                Some(format!("{last} ({})", before.to_move().name())),
            )
        }
        None => (None, None),
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
