//! `crumble book check`: the book's best moves against deeper searches of its agent.

use anyhow::{Context as _, bail};
use crumble_selfplay::book::{Book, file};
use crumble_selfplay::driver::with_threads;
use crumble_selfplay::{AgentSpec, SearchConfig};
use crumble_train::games::TrainGame;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    #[arg(long, value_name = "FILE")]
    pub(super) book: PathBuf,
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

/// `book check`: the book's best moves against searches `--factor` times deeper.
pub(super) fn check<G: TrainGame>(a: &CheckArgs) -> anyhow::Result<ExitCode> {
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
    let mut last = Instant::now();
    let mut report = |phase: u8, done: usize, total: usize| {
        if last.elapsed().as_secs() >= 5 || done == total {
            last = Instant::now();
            let what = if phase == 1 {
                "positions searched"
            } else {
                "disagreements valued"
            };
            eprintln!(
                "book check: {done}/{total} {what}, {:.0} s",
                t0.elapsed().as_secs_f64()
            );
        }
    };
    let rows = with_threads(a.threads, || {
        book.check_deeper(&ids, &pool, a.concurrency, &mut report)
    })?;
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
