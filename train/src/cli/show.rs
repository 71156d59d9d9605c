//! `crumble show [POSITION FLAGS] [MOVE...] [--record FILE [--ply K]] [--svg FILE]`: draws the
//! position in the terminal (colour when stdout is a terminal and `NO_COLOR` is not set), or
//! writes it as an SVG image; with a record, the position after its move K (default: all).
//! The last move is highlighted. Every game (`--game NAME`) is drawn by its own pictures
//! (`crumble_core::render::Pictures`): Crumble's, Splinter's and Crumo's boards, the test
//! games' text diagrams.

use super::game_args::StartArgs;
use super::output::{check_output, write_output};
use anyhow::{Context as _, bail};
use clap::ValueEnum;
use crumble_core::game::record::Record;
use crumble_core::render::{PictureStyle, Pictures};
use crumble_core::{Color, Decision, GameText};
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// Colour when stdout is a terminal and NO_COLOR is not set.
    Auto,
    Always,
    Never,
}

impl ColorArg {
    /// Whether to draw in colour: `always`, or `auto` with stdout a terminal and no
    /// `NO_COLOR`.
    pub fn enabled(self) -> bool {
        match self {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stdout().is_terminal()
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ViewArg {
    Black,
    White,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    start: StartArgs,
    /// Splinter and Crumo: turn limit (Splinter rule 8.4, Crumo rule 10.1), counted from the
    /// start position; 0 means none [default: 0].
    #[arg(long, value_name = "T")]
    max_turns: Option<u32>,
    /// Moves to play first, in the chosen frame (the last one is highlighted).
    #[arg(value_name = "MOVE", conflicts_with = "record")]
    moves: Vec<String>,
    /// Show a position of this game record instead (its own game, start, notation and moves).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "board", "resolution"])]
    record: Option<PathBuf>,
    /// With --record: the position after this many moves (default: after all of them).
    #[arg(long, value_name = "K", requires = "record")]
    ply: Option<usize>,
    /// Write the picture as SVG to this file instead of drawing it in the terminal.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Whose side is at the bottom (default: the player to move in the per-player frame,
    /// Black in the absolute frame or when the game is over).
    #[arg(long, value_enum)]
    view: Option<ViewArg>,
    /// Terminal colours.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
    /// Leave out the edge coordinates.
    #[arg(long)]
    no_coords: bool,
    /// Replace the SVG file if it exists (it is never an input of the command).
    #[arg(long, requires = "svg")]
    force: bool,
}

impl Args {
    /// The files this command reads: an output must not replace them.
    fn inputs(&self) -> Vec<&std::path::Path> {
        self.record
            .iter()
            .chain(&self.start.pos.position)
            .map(|p| p.as_path())
            .collect()
    }
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    // A record names its game; otherwise `--game` (or the config's) does.
    let game = match &a.record {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read record {}", path.display()))?;
            super::view::record_game(&text, path)?
        }
        None => a.start.game.game.clone(),
    };
    crumble_train::for_game!(game.as_str(), G => show_game::<G>(&a))
}

/// `show` for any game: the position after the moves (or after move K of a record), the last
/// move highlighted, drawn by the game's pictures in the terminal or as SVG (a game without
/// an SVG picture refuses `--svg`), from the side `--view` names (by default the side the
/// notation's frame turns the board to for the player to move; Black once the game is over).
/// A game whose pictures never turn refuses `--view`.
fn show_game<G: Pictures>(a: &Args) -> anyhow::Result<ExitCode> {
    if a.view.is_some() && G::view_for(G::Notation::default(), Color::White) == Color::Black {
        bail!(
            "--view turns the board, and {} draws its board one way",
            G::TITLE
        );
    }
    let setup = a.start.setup(
        a.max_turns.unwrap_or(0),
        &[("--max-turns", a.max_turns.is_some())],
    )?;
    let inputs: Vec<&Path> = a.inputs();
    if let Some(path) = &a.svg {
        check_output("--svg", path, &inputs, a.force)?;
    }
    let (game, last, notation): (G, _, _) = match &a.record {
        Some(path) => record_position(path, a.ply)?,
        None => {
            // The whole line first: a refused move is named with its number.
            let game: G = setup.replay(&a.moves)?;
            let last = match a.moves.split_last() {
                Some((text, first)) => {
                    let before: G = setup.replay(first)?;
                    let turn = before.parse_move(text, setup.notation::<G>())?;
                    Some((before, turn))
                }
                None => None,
            };
            (game, last, setup.notation::<G>())
        }
    };
    let view = match a.view {
        Some(ViewArg::Black) => Color::Black,
        Some(ViewArg::White) => Color::White,
        None => match game.decider() {
            Some(p) => G::view_for(notation, game.colour_of(p)),
            None => Color::Black,
        },
    };
    let style = PictureStyle {
        color: a.color.enabled(),
        coords: !a.no_coords,
        view,
        last_move: match &last {
            Some((before, turn)) => Some(format!(
                "{} ({})",
                before.move_text(turn, notation)?,
                before
                    .decider()
                    .map_or(Color::Black, |p| before.colour_of(p))
                    .name()
            )),
            None => None,
        },
        highlight: None,
    };
    let last = last.as_ref().map(|(b, t)| (b, t.as_slice()));
    if let Some(path) = &a.svg {
        let text = game.svg_picture(last, &style).with_context(|| {
            format!(
                "--svg draws pictures, and {} has a text diagram only",
                G::NAME
            )
        })?;
        write_output("--svg", path, &inputs, a.force, text.as_bytes())?;
        eprintln!("wrote {}", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    super::print(&game.term_picture(last, &style))?;
    Ok(ExitCode::SUCCESS)
}

/// The position of a record after its move `ply` (all of them by default; the record's end
/// applied after the last), the position before that move and the move, and the record's
/// notation.
type RecordPosition<G> = (G, Option<(G, Vec<Decision>)>, <G as GameText>::Notation);

fn record_position<G: GameText>(
    path: &Path,
    ply: Option<usize>,
) -> anyhow::Result<RecordPosition<G>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read record {}", path.display()))?;
    let rec =
        Record::<G>::parse(&text).with_context(|| format!("record {} refused", path.display()))?;
    let k = ply.unwrap_or(rec.moves.len());
    if k > rec.moves.len() {
        bail!("--ply {k}: the record has only {} moves", rec.moves.len());
    }
    let mut positions = rec.ended_positions()?;
    positions.truncate(k + 1);
    let game = positions.pop().expect("the start is a position");
    let last = positions
        .pop()
        .map(|before| (before, rec.moves[k - 1].clone()));
    Ok((game, last, rec.notation))
}
