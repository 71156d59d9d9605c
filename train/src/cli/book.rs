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

use super::output::{check_output, write_output};
use anyhow::{Context as _, bail};
use crumble_core::render::Pictures;
use crumble_selfplay::agent::build_evaluator;
use crumble_selfplay::book::{Book, BookHeader, Builder, Evidence, file};
use crumble_selfplay::driver::with_threads;
use crumble_selfplay::record::{self, GameRecord};
use crumble_selfplay::{AgentSpec, SearchConfig};
use crumble_train::config::TrainConfig;
use crumble_train::games::TrainGame;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Debug, clap::Subcommand)]
pub enum BookCommand {
    /// Grow an opening book (a new one, or the one in --book) from an agent's searches.
    Grow(GrowArgs),
    /// Write a book as JSON: every position with its values, moves and other moves.
    Json(JsonArgs),
    /// Write an opening suite for `crumble match --openings`: positions in a value band.
    Suite(SuiteArgs),
    /// Write the book as a static site: a page a position with its board and moves.
    Html(HtmlArgs),
    /// Check the book's choices against deeper searches of its agent.
    Check(CheckArgs),
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    #[arg(long, value_name = "FILE")]
    book: PathBuf,
    /// Positions to check: the live book positions with book moves, cheapest to reach
    /// first.
    #[arg(long, value_name = "N", default_value_t = 50, value_parser = crate::cli::positive::<usize>)]
    positions: usize,
    /// The deeper search has this many times the book's simulations a decision.
    #[arg(long, value_name = "F", default_value_t = 10, value_parser = crate::cli::positive::<u32>)]
    factor: u32,
    /// Searches at once (their network calls batched).
    #[arg(long, value_name = "C", default_value_t = 16, value_parser = crate::cli::positive::<usize>)]
    concurrency: usize,
    /// Worker threads (0 = one per core).
    #[arg(long, value_name = "T", default_value_t = 0, value_parser = crate::cli::threads_arg)]
    threads: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
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
pub struct GrowArgs {
    /// The book file (`*.crbook`): grown on if it exists, else started.
    #[arg(long, value_name = "FILE")]
    book: PathBuf,
    /// TOML config of a new book: [game] (the game and its start), [search], [book],
    /// selfplay.max_turns (the turn limit) and selfplay.seed. A book grows on with its own.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The agent of a new book: bot[:SIMS] (the built-in network, Crumble's default),
    /// ckpt:PATH[:SIMS] or mcts:rollout:SIMS (the other games' default: 200); it must search.
    #[arg(long, value_name = "AGENT")]
    agent: Option<String>,
    /// Stop once the book holds this many positions.
    #[arg(long, value_name = "N", value_parser = crate::cli::positive::<usize>)]
    positions: Option<usize>,
    /// Stop after this many hours.
    #[arg(long, value_name = "H", value_parser = crate::cli::seconds_arg)]
    hours: Option<f64>,
    /// Worker threads (0 = one per core).
    #[arg(long, value_name = "T", default_value_t = 0, value_parser = crate::cli::threads_arg)]
    threads: usize,
    /// The seed of a new book's searches (default: selfplay.seed).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Save the book every this many seconds (and at the end).
    #[arg(long, value_name = "SECS", default_value_t = 60.0, value_parser = crate::cli::seconds_arg)]
    save_every: f64,
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
        BookCommand::Grow(a) => grow(a),
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
            crumble_train::for_game!(game.as_str(), G => check::<G>(&a))
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

/// Set by the first Ctrl-C: the build stops after its step and saves.
static STOP: AtomicBool = AtomicBool::new(false);

fn grow(a: GrowArgs) -> anyhow::Result<ExitCode> {
    let book_path = a.book.display().to_string();
    ctrlc::set_handler(move || {
        if STOP.swap(true, Ordering::SeqCst) {
            eprintln!("\ninterrupted: {book_path} holds the book as last saved");
            std::process::exit(130);
        }
        eprintln!("\nstopping after this step to save the book (Ctrl-C again: stop now)");
    })
    .map_err(|e| anyhow::anyhow!("cannot catch Ctrl-C: {e}"))?;
    if a.book.exists() {
        let game = book_game(&a.book)?;
        crumble_train::for_game!(game.as_str(), G => grow_game::<G>(&a, None))
    } else {
        let cfg = match &a.config {
            Some(p) => TrainConfig::load(p)?,
            None => TrainConfig::default(),
        };
        crumble_train::for_game!(cfg.game.name.as_str(), G => grow_game::<G>(&a, Some(&cfg)))
    }
}

/// A new book of game `G` from `cfg` and the flags.
fn new_book<G: TrainGame>(a: &GrowArgs, cfg: &TrainConfig) -> anyhow::Result<Book<G>> {
    let spec = AgentSpec::parse(a.agent.as_deref().unwrap_or(G::DEFAULT_AGENT))?;
    let Some(simulations) = spec.simulations(&cfg.search) else {
        bail!(
            "agent `{spec}` does not search: a book needs bot[:SIMS], ckpt:PATH[:SIMS] or mcts:EVAL:SIMS"
        );
    };
    let start = G::standard_start(cfg)?;
    let header = BookHeader {
        game: G::NAME.into(),
        start: crumble_selfplay::record::start_json::<G>(&start.to_start()),
        agent: spec.to_string(),
        simulations,
        search: cfg.search.to_toml_string(),
        config: cfg.book.clone(),
        max_turns: cfg.selfplay.max_turns,
        seed: a.seed.unwrap_or(cfg.selfplay.seed),
    };
    Ok(Book::new(header, start))
}

/// A book grown on refuses flags that would change it: it keeps its own settings.
fn check_same(a: &GrowArgs, h: &BookHeader) -> anyhow::Result<()> {
    let differs = |what: &str, given: String, kept: &str| {
        anyhow::anyhow!(
            "book {} was started with {what} {kept}, not {given}: a book grows on with its own \
             settings (leave the flag out, or start a new book file)",
            a.book.display()
        )
    };
    if let Some(agent) = &a.agent {
        let spec = AgentSpec::parse(agent)?;
        if spec.to_string() != h.agent {
            return Err(differs("agent", spec.to_string(), &h.agent));
        }
    }
    if let Some(seed) = a.seed.filter(|&s| s != h.seed) {
        return Err(differs("seed", seed.to_string(), &h.seed.to_string()));
    }
    if let Some(p) = &a.config {
        let cfg = TrainConfig::load(p)?;
        if cfg.game.name != h.game {
            return Err(differs("the game", cfg.game.name, &h.game));
        }
        let search = cfg.search.to_toml_string();
        if search != h.search || cfg.book != h.config || cfg.selfplay.max_turns != h.max_turns {
            return Err(differs(
                "the [search], [book] and selfplay.max_turns of",
                p.display().to_string(),
                "others",
            ));
        }
    }
    Ok(())
}

fn grow_game<G: TrainGame>(a: &GrowArgs, cfg: Option<&TrainConfig>) -> anyhow::Result<ExitCode> {
    let book: Book<G> = match cfg {
        Some(cfg) => new_book(a, cfg)?,
        None => {
            let b: Book<G> =
                file::load(&a.book).with_context(|| format!("book {}", a.book.display()))?;
            check_same(a, &b.header)?;
            b
        }
    };
    let spec = AgentSpec::parse(&book.header.agent)?;
    let search = SearchConfig::from_toml_str(&book.header.search, "the book's [search]")?;
    let loader = crumble_model::NetLoader::for_encoder(G::Encoder::default());
    let Some(evaluator) = build_evaluator(&spec, &search, book.header.seed, &loader)? else {
        bail!("agent `{spec}` does not search");
    };
    let mut builder = Builder::new(book, evaluator)?;
    let t0 = Instant::now();
    let deadline = a.hours.map(|h| Duration::from_secs_f64(h * 3600.0));
    let start_positions = builder.book.nodes().len();
    let (mut last_print, mut last_save) = (Instant::now(), Instant::now());
    let (mut simulations, mut searches) = (0u64, 0usize);
    let mut search_time = Duration::ZERO;
    eprintln!(
        "book: {} ({}), {} positions, agent {} at {} simulations, {}",
        a.book.display(),
        G::NAME,
        start_positions,
        builder.book.header.agent,
        builder.book.header.simulations,
        match (a.positions, a.hours) {
            (Some(n), _) => format!("to {n} positions"),
            (None, Some(h)) => format!("for {h} hours"),
            (None, None) => "until Ctrl-C".into(),
        }
    );
    let reason = with_threads(a.threads, || -> anyhow::Result<&'static str> {
        loop {
            if a.positions.is_some_and(|n| builder.book.nodes().len() >= n) {
                return Ok("positions reached");
            }
            if deadline.is_some_and(|d| t0.elapsed() >= d) {
                return Ok("time is up");
            }
            if STOP.load(Ordering::SeqCst) {
                return Ok("stopped");
            }
            let r = builder.step()?;
            simulations += r.simulations;
            searches += r.searches;
            search_time += r.search_time;
            if r.finished {
                return Ok("every move is in the book");
            }
            if last_save.elapsed().as_secs_f64() >= a.save_every {
                file::save(&builder.book, &a.book)?;
                last_save = Instant::now();
            }
            if last_print.elapsed() >= Duration::from_secs(5) {
                last_print = Instant::now();
                eprintln!(
                    "book: {}",
                    progress(&builder.book, a, t0, start_positions, simulations)
                );
            }
        }
    })?;
    file::save(&builder.book, &a.book)?;
    let b = &builder.book;
    let root = b.node(0).values;
    eprintln!(
        "book: {reason}: {} positions, {} moves, {searches} searches ({simulations} simulations) \
         in {:.1} s ({:.1}% of it searching); root value {:.3} [{:.3}, {:.3}]{}, principal line \
         {} moves; saved {}",
        b.nodes().len(),
        b.edge_count(),
        t0.elapsed().as_secs_f64(),
        100.0 * search_time.as_secs_f64() / t0.elapsed().as_secs_f64().max(1e-9),
        root.value,
        root.lower,
        root.upper,
        root.proven
            .map_or(String::new(), |p| format!(" proven {p}")),
        b.principal_line(1000).len(),
        a.book.display()
    );
    Ok(if reason == "stopped" {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// `book check`: the book's best moves against searches `--factor` times deeper.
fn check<G: TrainGame>(a: &CheckArgs) -> anyhow::Result<ExitCode> {
    let book: Book<G> =
        file::load(&a.book).with_context(|| format!("book {}", a.book.display()))?;
    let sims = book
        .header
        .simulations
        .checked_mul(a.factor)
        .filter(|&n| n <= 10_000_000)
        .with_context(|| format!("--factor {}: too many simulations", a.factor))?;
    let spec = match AgentSpec::parse(&book.header.agent)? {
        AgentSpec::Mcts { evaluator, .. } => AgentSpec::Mcts {
            evaluator,
            simulations: Some(sims),
        },
        other => bail!("the book's agent `{other}` does not search"),
    };
    let search = SearchConfig::from_toml_str(&book.header.search, "the book's [search]")?;
    let loader = crumble_model::NetLoader::for_encoder(G::Encoder::default());
    let pool = crumble_selfplay::arena::Pool::<G>::new(
        std::slice::from_ref(&spec),
        &search.for_play(),
        &loader,
    )?;
    let ids = crumble_selfplay::book::check::positions_to_check(&book, a.positions);
    eprintln!(
        "book check: {} positions of {}, the book's {} against {spec}",
        ids.len(),
        a.book.display(),
        book.header.agent
    );
    let t0 = Instant::now();
    let rows = with_threads(a.threads, || book.check_deeper(&ids, &pool, a.concurrency))?;
    let agree = rows.iter().filter(|r| r.agree).count();
    let diffs: Vec<f32> = rows
        .iter()
        .filter_map(|r| r.values.map(|(b, d)| d - b))
        .collect();
    let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len().max(1) as f32;
    if a.json {
        let rows: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "node": r.node, "book_move": r.book_move, "book_value": r.book_value,
                    "other": r.other, "deep_move": r.deep_move, "deep_root": r.deep_root,
                    "agree": r.agree,
                    "deep_value_of_book_move": r.values.map(|v| v.0),
                    "deep_value_of_deep_move": r.values.map(|v| v.1),
                })
            })
            .collect();
        let out = serde_json::json!({
            "book": a.book.display().to_string(), "agent": spec.to_string(),
            "positions": rows.len(), "agree": agree,
            "mean_value_gap": mean(&diffs), "seconds": t0.elapsed().as_secs_f64(), "rows": rows,
        });
        crate::cli::print(&format!("{out}\n"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = String::from(
        "node  book move (value)  deeper move (root)  agree  deeper values: book's, its own\n",
    );
    for r in &rows {
        let values = r
            .values
            .map_or(String::new(), |(b, d)| format!("{b:+.3}, {d:+.3}"));
        out.push_str(&format!(
            "{:>5}  {}{} ({:+.3})  {} ({:+.3})  {}  {values}\n",
            r.node,
            r.book_move,
            if r.other { " [other]" } else { "" },
            r.book_value,
            r.deep_move,
            r.deep_root,
            if r.agree { "yes" } else { "no" },
        ));
    }
    out.push_str(&format!(
        "agreement: {agree} of {} ({:.0}%); where they differ, the deeper search values its own \
         move {:+.3} above the book's on average ({} positions); {:.0} s\n",
        rows.len(),
        100.0 * agree as f64 / rows.len().max(1) as f64,
        mean(&diffs),
        diffs.len(),
        t0.elapsed().as_secs_f64()
    ));
    crate::cli::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// One progress line: size, rates and the ETA of the goal.
fn progress<G: TrainGame>(
    b: &Book<G>,
    a: &GrowArgs,
    t0: Instant,
    start_positions: usize,
    simulations: u64,
) -> String {
    let secs = t0.elapsed().as_secs_f64().max(1e-9);
    let added = b.nodes().len() - start_positions;
    let rate = added as f64 / secs;
    let eta = match (a.positions, a.hours) {
        (Some(n), _) if rate > 0.0 => {
            format!(
                ", ETA {:.0} s",
                n.saturating_sub(b.nodes().len()) as f64 / rate
            )
        }
        (None, Some(h)) => format!(", ETA {:.0} s", (h * 3600.0 - secs).max(0.0)),
        _ => String::new(),
    };
    format!(
        "{} positions, {} moves, {:.2} positions/s, {:.0} simulations/s, root {:.3}, line {} \
         moves{eta}",
        b.nodes().len(),
        b.edge_count(),
        rate,
        simulations as f64 / secs,
        b.node(0).values.value,
        b.principal_line(1000).len()
    )
}
