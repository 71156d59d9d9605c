//! `crumble book grow`: a book grown on all cores with progress, saved as it goes, stopped by
//! its goal or Ctrl-C.

use super::book_game;
use crate::cli::ticker::Ticker;
use anyhow::{Context as _, bail};
use crumble_selfplay::agent::build_evaluator;
use crumble_selfplay::book::{Book, BookHeader, Builder, file};
use crumble_selfplay::driver::with_threads;
use crumble_selfplay::{AgentSpec, SearchConfig};
use crumble_train::config::TrainConfig;
use crumble_train::games::TrainGame;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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

/// Set by the first Ctrl-C: the build stops after its step and saves.
static STOP: AtomicBool = AtomicBool::new(false);

pub(super) fn grow(a: GrowArgs) -> anyhow::Result<ExitCode> {
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
    let (mut printer, mut last_save) = (Ticker::every(5), Instant::now());
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
            if printer.due() {
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
