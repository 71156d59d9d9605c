//! `crumble book`: opening books grown from an agent's searches
//! (`crumble_selfplay::book`), for every game of the registry.
//!
//! * `crumble book grow --book FILE [--config C] [--agent A] [--positions N | --hours H]
//!   [--threads T] [--seed S] [--save-every SECS]`: grows the book in FILE (a new one from
//!   the config's game and `[book]` section, or the one there, with the settings it was
//!   started with), on all cores, with a progress line and an ETA, until it holds N
//!   positions, H hours have passed, nothing is left to add, or Ctrl-C. The book is saved
//!   whole every `--save-every` seconds and at the end; a killed build loses only the steps
//!   since, and grows on to the very book an uninterrupted build makes.
//! * `crumble book json --book FILE [--games FILE|DIR ...] [--out F]`: the whole graph as
//!   JSON; with `--games`, the results of those games at every position and move.
//! * `crumble book suite --book FILE --band LO:HI [--turns A:B] [--count N] [--out F]`: an
//!   opening suite for `crumble match --openings`: the live positions A to B moves deep
//!   whose book value (the first player's view) lies in LO..HI, one per canonical key.
//! * `crumble book html --book FILE --out DIR [--games FILE|DIR ...] [--force]`: the book
//!   as a static site, a page a position (`crumble_selfplay::book::html`).
//! * `crumble book check --book FILE [--positions N] [--factor F]`: the book's best moves
//!   against its agent's searches F times deeper (`crumble_selfplay::book::check`).

mod check;
mod grow;

use super::output::{check_output, write_output};
use anyhow::{Context as _, bail};
use crumble_core::render::Pictures;
use crumble_selfplay::book::{Book, Evidence, file};
use crumble_selfplay::record::{self, GameRecord};
use crumble_train::games::TrainGame;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, clap::Subcommand)]
pub enum BookCommand {
    /// Grow an opening book (a new one, or the one in --book) from an agent's searches.
    Grow(grow::GrowArgs),
    /// Write a book as JSON: every position with its values, moves and other moves.
    Json(JsonArgs),
    /// Write an opening suite for `crumble match --openings`: positions in a value band.
    Suite(SuiteArgs),
    /// Write the book as a static site: a page a position with its board and moves.
    Html(HtmlArgs),
    /// Check the book's choices against deeper searches of its agent.
    Check(check::CheckArgs),
}

#[derive(Debug, clap::Args)]
pub struct HtmlArgs {
    #[arg(long, value_name = "FILE")]
    book: PathBuf,
    /// Record files of played games (`*.crsp`: self-play, matches), or folders of them:
    /// their results are counted at every book position and move they pass through and shown
    /// beside the search values, by source (repeat for several sources).
    #[arg(long, value_name = "FILE|DIR")]
    games: Vec<PathBuf>,
    /// The folder to write (created; an existing one only with --force).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Write into --out even if it exists (its pages are replaced).
    #[arg(long)]
    force: bool,
}

#[derive(Debug, clap::Args)]
pub struct JsonArgs {
    #[arg(long, value_name = "FILE")]
    book: PathBuf,
    /// Record files of played games (`*.crsp`: self-play, matches), or folders of them:
    /// their results are counted at every book position and move they pass through and shown
    /// beside the search values, by source (repeat for several sources).
    #[arg(long, value_name = "FILE|DIR")]
    games: Vec<PathBuf>,
    /// Write here instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace --out if it exists.
    #[arg(long, requires = "out")]
    force: bool,
}

#[derive(Debug, clap::Args)]
pub struct SuiteArgs {
    #[arg(long, value_name = "FILE")]
    book: PathBuf,
    /// The band of book values (the first player's view, −1 to 1): `-0.2:0.2` balanced,
    /// `0.3:0.6` a clear edge for the first player.
    #[arg(long, value_name = "LO:HI", value_parser = band_arg, allow_hyphen_values = true)]
    band: (f32, f32),
    /// Positions this many moves from the start: `A:B`, or `A` alone.
    #[arg(long, value_name = "A:B", default_value = "1:1000", value_parser = turns_arg)]
    turns: (usize, usize),
    /// At most this many openings.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = crate::cli::positive::<usize>)]
    count: usize,
    /// Write here instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace --out if it exists.
    #[arg(long, requires = "out")]
    force: bool,
}

/// `LO:HI` with −1 ≤ LO ≤ HI ≤ 1.
fn band_arg(s: &str) -> Result<(f32, f32), String> {
    let bad = || format!("`{s}` is not a band LO:HI of values from -1 to 1 (LO <= HI)");
    let (lo, hi) = s.split_once(':').ok_or_else(bad)?;
    let (lo, hi): (f32, f32) = (
        lo.trim().parse().map_err(|_| bad())?,
        hi.trim().parse().map_err(|_| bad())?,
    );
    if !(-1.0..=1.0).contains(&lo) || !(-1.0..=1.0).contains(&hi) || lo > hi {
        return Err(bad());
    }
    Ok((lo, hi))
}

/// `A:B` or `A` with A ≤ B.
fn turns_arg(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{s}` is not a range of moves A:B (whole numbers, A <= B)");
    let (a, b) = s.split_once(':').unwrap_or((s, s));
    let (a, b): (usize, usize) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a > b {
        return Err(bad());
    }
    Ok((a, b))
}

pub fn run(b: BookCommand) -> anyhow::Result<ExitCode> {
    match b {
        BookCommand::Grow(a) => grow::grow(a),
        BookCommand::Json(a) => {
            if let Some(out) = &a.out {
                check_output("--out", out, &[&a.book], a.force)?;
            }
            let games = read_games(&a.games)?;
            let text = with_book(&a.book, |b| book_json(b, &games))?;
            emit(a.out.as_deref(), &a.book, a.force, &text)
        }
        BookCommand::Html(a) => html(&a),
        BookCommand::Check(a) => {
            let game = book_game(&a.book)?;
            crumble_train::for_game!(game.as_str(), G => check::check::<G>(&a))
        }
        BookCommand::Suite(a) => {
            if let Some(out) = &a.out {
                check_output("--out", out, &[&a.book], a.force)?;
            }
            let text = with_book(&a.book, |b| book_suite(b, &a))?;
            emit(a.out.as_deref(), &a.book, a.force, &text)
        }
    }
}

fn emit(out: Option<&Path>, book: &Path, force: bool, text: &str) -> anyhow::Result<ExitCode> {
    match out {
        Some(p) => write_output("--out", p, &[book], force, text.as_bytes())?,
        None => crate::cli::print(text)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The game a book file is of (read from its header).
fn book_game(path: &Path) -> anyhow::Result<String> {
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read book {}", path.display()))?;
    let game = file::peek_game(&bytes).with_context(|| format!("book {}", path.display()))?;
    if !crumble_train::games::GAMES.contains(&game.as_str()) {
        bail!(
            "book {}: a book of {game:?}, a game this build does not know",
            path.display()
        );
    }
    Ok(game)
}

/// Runs `f` on the book at `path`, whatever its game.
fn with_book(path: &Path, f: impl FnOnce(&dyn BookText) -> String) -> anyhow::Result<String> {
    let game = book_game(path)?;
    crumble_train::for_game!(game.as_str(), G => {
        let book: Book<G> = file::load(path).with_context(|| format!("book {}", path.display()))?;
        Ok(f(&book))
    })
}

/// Writes the site of `book html`.
fn html(a: &HtmlArgs) -> anyhow::Result<ExitCode> {
    if a.out.exists() && !a.force {
        bail!(
            "--out {}: the folder exists; pass --force to write into it",
            a.out.display()
        );
    }
    let games = read_games(&a.games)?;
    let mut pages = Vec::new();
    with_book(&a.book, |b| {
        pages = b.pages(&games);
        String::new()
    })?;
    std::fs::create_dir_all(a.out.join("p"))
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    for (name, text) in &pages {
        let path = a.out.join(name);
        crumble_selfplay::files::write_atomic(&path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    eprintln!(
        "book html: {} pages in {}; open {}",
        pages.len(),
        a.out.display(),
        a.out.join("index.html").display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The games of each `--games` source, labelled by the path as given: a record file, or
/// every `*.crsp` file in a folder (in name order).
fn read_games(sources: &[PathBuf]) -> anyhow::Result<Vec<(String, Vec<GameRecord>)>> {
    let mut out = Vec::new();
    for src in sources {
        let files: Vec<PathBuf> = if src.is_dir() {
            let mut f: Vec<PathBuf> = std::fs::read_dir(src)
                .with_context(|| format!("--games {}: cannot read the folder", src.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "crsp"))
                .collect();
            f.sort();
            if f.is_empty() {
                bail!(
                    "--games {}: no *.crsp record files in the folder",
                    src.display()
                );
            }
            f
        } else {
            vec![src.clone()]
        };
        let mut games = Vec::new();
        for f in &files {
            games.extend(record::read_file(f).with_context(|| format!("--games {}", f.display()))?);
        }
        out.push((src.display().to_string(), games));
    }
    Ok(out)
}

/// Played games by source, as `book json` and `book html` take them.
type Sources = [(String, Vec<GameRecord>)];

/// The evidence of every source over `book`.
fn evidence<G: TrainGame>(book: &Book<G>, games: &Sources) -> Vec<Evidence> {
    games
        .iter()
        .map(|(source, g)| {
            let ev = book.evidence(source, g);
            eprintln!(
                "book: {} of the {} games in {source} pass through the book",
                ev.games - ev.outside,
                ev.games
            );
            ev
        })
        .collect()
}

/// What `json`, `suite` and `html` need of a book of any game.
trait BookText {
    fn pages(&self, games: &Sources) -> Vec<(String, String)>;
    fn json(&self, games: &Sources) -> serde_json::Value;
    fn suite(&self, band: (f32, f32), turns: (usize, usize), count: usize) -> (usize, String);
}

impl<G: TrainGame + Pictures> BookText for Book<G> {
    fn pages(&self, games: &Sources) -> Vec<(String, String)> {
        self.html_pages(&evidence(self, games))
    }
    fn json(&self, games: &Sources) -> serde_json::Value {
        self.to_json(&evidence(self, games))
    }
    fn suite(&self, band: (f32, f32), turns: (usize, usize), count: usize) -> (usize, String) {
        let ids = Book::suite(self, band.0, band.1, turns.0, turns.1, count);
        (ids.len(), self.suite_text(&ids))
    }
}

fn book_json(b: &dyn BookText, games: &Sources) -> String {
    let mut s = serde_json::to_string_pretty(&b.json(games)).expect("JSON values serialise");
    s.push('\n');
    s
}

fn book_suite(b: &dyn BookText, a: &SuiteArgs) -> String {
    let (n, text) = b.suite(a.band, a.turns, a.count);
    eprintln!(
        "book suite: {n} openings with values in [{}, {}], {} to {} moves deep",
        a.band.0, a.band.1, a.turns.0, a.turns.1
    );
    text
}
