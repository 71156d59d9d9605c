//! The Splinter forms of `replay`, `moves`, `random-game` and `show` (`--game splinter`):
//! the same outputs as Crumble's, in Splinter's notation and position JSON
//! (RULES-splinter.md rules 9 and 10).

use super::game_args::SplinterSetup;
use super::output::{check_output, write_output};
use crumble_core::render::splinter::{
    SplinterHighlight,
    svg::{self, SvgOptions},
    term::{self, TermOptions},
};
use crumble_core::splinter::{notation, position};
use rand::SeedableRng;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The turn limit of Splinter's random games when `--max-turns` is not given (rule 8.8 leaves
/// it to the project; the reference engine's is 300).
pub const RANDOM_GAME_TURNS: u32 = 300;

/// `replay`: the final position as one line of position JSON (rule 10.2).
pub fn replay(setup: &SplinterSetup, moves: &[String]) -> anyhow::Result<ExitCode> {
    let game = setup.replay(moves)?;
    super::print(&format!("{}\n", position::to_json(&game)))?;
    Ok(ExitCode::SUCCESS)
}

/// `moves`: the list of rule 9.5, one move a line; nothing (and a note on stderr) once the
/// game is over.
pub fn moves(setup: &SplinterSetup, moves: &[String]) -> anyhow::Result<ExitCode> {
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

/// `random-game`: random play as rule 8.8 defines it (uniform over the complete moves),
/// seeded, one move a line in canonical notation, then `# result: <json>`.
pub fn random_game(setup: &SplinterSetup, moves: &[String], seed: u64) -> anyhow::Result<ExitCode> {
    let mut game = setup.replay(moves)?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut text = String::new();
    while let Some(mv) = game.play_random_move(&mut rng) {
        text += &notation::move_text(game.board(), &mv);
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

/// `show`: the position after `moves`, the last of them highlighted (or, with no moves, the
/// position's own `last_move`), in the terminal or as SVG.
pub fn show(
    setup: &SplinterSetup,
    moves: &[String],
    opts: &ShowOptions,
) -> anyhow::Result<ExitCode> {
    let inputs: Vec<&Path> = setup.position.iter().map(PathBuf::as_path).collect();
    if let Some(path) = opts.svg {
        check_output("--svg", path, &inputs, opts.force)?;
    }
    let game = setup.replay(moves)?;
    let (highlight, last_move) = match moves.split_last() {
        Some((last, first)) => {
            let before = setup.replay(first)?;
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
