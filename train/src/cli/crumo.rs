//! The Crumo forms of `replay`, `moves`, `random-game` and `show` (`--game crumo`): the same
//! outputs as the other games', in Crumo's notation and position JSON (RULES-crumo.md rules
//! 11 and 12).

use super::crumo_args::CrumoSetup;
use super::output::{check_output, write_output};
use crumble_core::crumo::{notation, position};
use crumble_core::render::crumo::{
    CrumoHighlight,
    svg::{self, SvgOptions},
    term::{self, TermOptions},
};
use rand::SeedableRng;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The turn limit of Crumo's random games when `--max-turns` is not given (rule 10.4).
pub const RANDOM_GAME_TURNS: u32 = 200;

/// `replay`: the final position as one line of position JSON (rule 12).
pub fn replay(setup: &CrumoSetup, moves: &[String]) -> anyhow::Result<ExitCode> {
    let game = setup.replay(moves)?;
    super::print(&format!("{}\n", position::to_json(&game)))?;
    Ok(ExitCode::SUCCESS)
}

/// `moves`: the list of rule 11.6, one move a line; nothing (and a note on stderr) once the
/// game is over.
pub fn moves(setup: &CrumoSetup, moves: &[String]) -> anyhow::Result<ExitCode> {
    let game = setup.replay(moves)?;
    if let Some(o) = game.outcome() {
        eprintln!(
            "the game is over (result {}): no legal moves",
            position::outcome_value(Some(o))
        );
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    for line in game.legal_move_texts() {
        text += &line;
        text.push('\n');
    }
    super::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// `random-game`: random play as rule 10.4 defines it, seeded, one move a line, then
/// `# result: <json>` with both scores.
pub fn random_game(setup: &CrumoSetup, moves: &[String], seed: u64) -> anyhow::Result<ExitCode> {
    let mut game = setup.replay(moves)?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut text = String::new();
    while let Some(mv) = game.play_random_move(&mut rng) {
        text += &notation::move_text(game.geometry(), &mv);
        text.push('\n');
    }
    text += "# result: ";
    text += &position::outcome_value(game.outcome()).to_string();
    text.push('\n');
    super::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// What `show` draws and where.
#[derive(Debug)]
pub struct ShowOptions<'a> {
    pub color: bool,
    pub coords: bool,
    pub svg: Option<&'a Path>,
    pub force: bool,
}

/// `show`: the position after `moves`, the last of them highlighted, in the terminal or as
/// SVG.
pub fn show(setup: &CrumoSetup, moves: &[String], opts: &ShowOptions) -> anyhow::Result<ExitCode> {
    let inputs: Vec<&Path> = setup.position.iter().map(PathBuf::as_path).collect();
    if let Some(path) = opts.svg {
        check_output("--svg", path, &inputs, opts.force)?;
    }
    let game = setup.replay(moves)?;
    let (highlight, last_move) = match moves.split_last() {
        Some((last, first)) => {
            let before = setup.replay(first)?;
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
