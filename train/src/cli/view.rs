//! `crumble view --record FILE [--game INDEX] [--list] [--view black|white] [--frame F]
//! -o game.html`: one game as a self-contained HTML page (`crumble_core::games::crumble::render::html`).
//!
//! The file is a text game record (`crumble_core::game::record`; a file of several records,
//! like the `.txt` beside a self-play file, is split at each record's tags) or a binary self-play
//! record file (`.crsp`, recognised by its magic bytes, not its name). `--game` picks a game
//! of a file holding several by its 0-based position in the file (`--list` shows them); the
//! players' names of a `.crsp` game come from the `.txt` beside it when that holds the same
//! games (match files have them). The value chart shows the search value at the start of
//! every turn of a `.crsp` game, or the `value` comments `crumble play` writes after the
//! agent's moves.
//!
//! Every game's games are read through [`tagged`]; Crumble's are drawn by its own page, every
//! other game's by the generic page with the game's pictures.

use super::output::{check_output, write_output};
use super::position_args::FrameArg;
use super::show::ViewArg;
use anyhow::{Context as _, bail};
use crumble_core::game::record::{game_named, split_records};
use crumble_core::games::crumble::Crumble;
use crumble_core::games::crumble::render::html::{self, HtmlOptions};
use crumble_core::{Color, GameState};
use crumble_selfplay::record as sp;
use crumble_train::for_game;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tagged::TaggedGames;

mod tagged;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A game record (text) or a self-play record file (.crsp).
    #[arg(long, value_name = "FILE")]
    record: PathBuf,
    /// The game to show when the file holds several: its 0-based position in the file.
    #[arg(long, value_name = "INDEX")]
    game: Option<usize>,
    /// List the games in the file (index, game number, moves, result) instead.
    #[arg(long, conflicts_with_all = ["out", "game"])]
    list: bool,
    /// The HTML file to write.
    #[arg(
        short = 'o',
        long = "out",
        value_name = "FILE",
        required_unless_present = "list"
    )]
    out: Option<PathBuf>,
    /// Whose side of the board is at the bottom.
    #[arg(long, value_enum, default_value_t = ViewArg::Black)]
    view: ViewArg,
    /// Notation frame of the move list (default: the record's own; per-player for .crsp).
    #[arg(long, value_enum)]
    frame: Option<FrameArg>,
    /// Replace the output file if it exists (it is never the record itself).
    #[arg(long)]
    force: bool,
}

/// The game to show: `--game`, checked against the `n` games of the file, or the first.
fn pick_index(a: &Args, n: usize) -> anyhow::Result<usize> {
    Ok(match a.game {
        Some(i) if i >= n => bail!(
            "--game {i}: {} holds {n} game{} (index 0{})",
            a.record.display(),
            if n == 1 { "" } else { "s" },
            if n > 1 {
                format!(" to {}", n - 1)
            } else {
                String::new()
            }
        ),
        Some(i) => i,
        None => {
            if n > 1 {
                eprintln!(
                    "{} holds {n} games; showing index 0 (--game INDEX picks another, --list lists them)",
                    a.record.display()
                );
            }
            0
        }
    })
}

/// A record of a file of several refused: `line` (of the record starting at `first_line`)
/// as the file's line.
fn refused_at(
    path: &Path,
    first_line: usize,
    line: usize,
    what: impl std::fmt::Display,
) -> anyhow::Error {
    anyhow::anyhow!("{} line {}: {what}", path.display(), line + first_line - 1)
}

/// The search value at the start of every turn of a self-play game, the view of the colour
/// `mover` names (a Crumo swap changes a seat's colour), indexed by the number of moves
/// played before it (the positions of the game record).
fn crsp_values_by<G: GameState>(
    g: &sp::GameRecord,
    mover: impl Fn(&G) -> Option<Color>,
) -> anyhow::Result<Vec<Option<f32>>> {
    let mut game: G = g.start_state()?;
    let mut values: Vec<Option<f32>> = vec![None];
    let mut moves = 0usize;
    for (i, s) in g.steps.iter().enumerate() {
        let decider = mover(&game);
        if let (Some(r), Some(c), None) = (&s.search, decider, values[moves]) {
            // The first search of the turn judges the position the turn starts from.
            values[moves] = Some(if c == Color::Black { r.value } else { -r.value });
        }
        let turn = game.turns_played();
        game.apply(s.decision)
            .map_err(|e| anyhow::anyhow!("decision {i} does not replay: {e}"))?;
        if game.turns_played() != turn || game.is_over() {
            moves += 1;
            values.push(None);
        }
    }
    Ok(values)
}

/// The file's games and the name of their game: a `.crsp` file says it in its games, a text
/// record in its `Game` tag (Crumble's older records have none).
fn load(path: &Path) -> anyhow::Result<(String, TaggedGames)> {
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read record {}", path.display()))?;
    // Names are a nicety: a missing or different text file beside a .crsp file is not used.
    let beside = |n: usize| {
        std::fs::read_to_string(path.with_extension("txt"))
            .ok()
            .map(|t| split_records(&t))
            .filter(|t| t.len() == n)
    };
    if bytes.starts_with(&sp::MAGIC) {
        let refused = || format!("self-play record file {} refused", path.display());
        let name = sp::decode_file(&bytes)
            .with_context(refused)?
            .first()
            .map_or_else(
                || <Crumble as GameState>::NAME.to_string(),
                |g| g.game.clone(),
            );
        let games = for_game!(name.as_str(), G => sp::decode_file_checked::<G>(&bytes))
            .with_context(refused)?;
        let text = beside(games.len());
        return Ok((name, TaggedGames::Crsp(games, text)));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{} is neither a self-play record file (.crsp) nor a text game record (not UTF-8 at byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    let chunks = split_records(&text);
    let name = record_game(chunks.first().map_or("", |(_, t)| t.as_str()), path)?;
    Ok((name, TaggedGames::Text(chunks)))
}

/// The game of a text record (`path` names it in the error): its `Game` tag, one of the
/// registry's games, or Crumble for Crumble's older records, which name none.
pub fn record_game(text: &str, path: &Path) -> anyhow::Result<String> {
    match game_named(text) {
        None => Ok(<Crumble as GameState>::NAME.to_string()),
        Some(name) if crumble_train::games::GAMES.contains(&name.as_str()) => Ok(name),
        Some(name) => bail!(
            "{}: the record's game {name:?} is not one of {}",
            path.display(),
            crumble_train::games::GAMES.join(", ")
        ),
    }
}

/// The files the page is made from: the record, and the text file beside a `.crsp` file
/// (read for the players' names).
fn inputs(a: &Args, games: &TaggedGames) -> Vec<PathBuf> {
    match games {
        TaggedGames::Crsp(..) => vec![a.record.clone(), a.record.with_extension("txt")],
        TaggedGames::Text(_) => vec![a.record.clone()],
    }
}

/// The page's source line: the file's name, with the game's index when it holds `n > 1`.
fn source(a: &Args, index: usize, n: usize) -> String {
    let name = a
        .record
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    if n > 1 {
        format!("{name}, game index {index} of {n}")
    } else {
        name
    }
}

/// Writes `page`, the page of a game of `moves` moves, to `--out` (never over an input) and
/// says what was written.
fn write_page(a: &Args, games: &TaggedGames, page: &str, moves: usize) -> anyhow::Result<ExitCode> {
    let out = a.out.as_ref().expect("clap requires --out without --list");
    let inputs = inputs(a, games);
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    write_output("-o", out, &inputs, a.force, page.as_bytes())?;
    eprintln!(
        "wrote {} ({moves} moves, {} KB)",
        out.display(),
        page.len().div_ceil(1024)
    );
    Ok(ExitCode::SUCCESS)
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let (game, games) = load(&a.record)?;
    if let Some(out) = &a.out {
        let inputs = inputs(&a, &games);
        let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
        check_output("-o", out, &inputs, a.force)?;
    }
    let n = games.len();
    if n == 0 {
        bail!("{} holds no game", a.record.display());
    }
    if game != <Crumble as GameState>::NAME {
        return for_game!(game.as_str(), G => tagged::run::<G>(&a, &games));
    }
    if a.list {
        super::print(&tagged::list::<Crumble>(&games, &a.record)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let index = pick_index(&a, n)?;
    let (mut rec, values) = games.get::<Crumble>(index, &a.record)?;
    if let Some(f) = a.frame {
        rec.notation = f.into();
    }
    let opts = HtmlOptions {
        view: match a.view {
            ViewArg::Black => Color::Black,
            ViewArg::White => Color::White,
        },
        values,
        source: Some(source(&a, index, n)),
    };
    let page = html::render_game(&rec, &opts)
        .with_context(|| format!("{} game index {index}", a.record.display()))?;
    write_page(&a, &games, &page, rec.moves.len())
}
