//! `crumble openings (--games DIR | --agent A --games N) [--depth D] [--min-count K]
//! [--out DIR] [--top N] [--format markdown|json|csv]`: the tree of the first D moves of a
//! set of games (`crumble_selfplay::games::crumble::openings`): how often each line was played, its results
//! with 95% intervals, the mean game length, and with an agent that has an evaluator, the
//! network's prior of each move (the product of its decision priors,
//! `crumble_model::encoders::crumble::action::move_prior`) and the value of each position. Also Black's
//! overall score with its interval: the first-move advantage.
//!
//! `--games DIR` reads every `*.crsp` (self-play and match records) and `*.rec` (text game
//! records) file in DIR; with `--agent` too, the agent only annotates. `--agent A --games N`
//! plays N self-play games of A first (with its self-play settings: exploration noise and
//! temperature give varied openings). With `--out DIR`: `openings.md`, `openings.json`,
//! `openings.csv` and `openings.svg` (the most played first moves drawn on the board).

use super::output::{check_output, write_output};
use crate::cli::ticker::Ticker;
use anyhow::{Context as _, bail};
use crumble_core::games::crumble::Crumble;
use crumble_core::{Decision, GameState};
use crumble_selfplay::agent::build_evaluator;
use crumble_selfplay::driver::{RunOptions, Seating, run_games, with_threads};
use crumble_selfplay::evaluator::{Evaluation, Evaluator, Leaf};
use crumble_selfplay::games::crumble::openings::{self, Judge, Line, Tree};
use crumble_selfplay::{AgentSpec, ConfigFile, record, selfplay};
use crumble_train::games::TrainGame;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Markdown,
    Json,
    Csv,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A directory of games (*.crsp, *.rec), or with --agent, how many games to play.
    #[arg(long, value_name = "DIR|N")]
    games: String,
    /// An agent: plays the games (with --games N) and annotates the tree with its
    /// evaluator's priors and values (random has none).
    #[arg(long, value_name = "AGENT")]
    agent: Option<String>,
    /// Moves deep.
    #[arg(long, value_name = "D", default_value_t = 4, value_parser = crate::cli::positive::<usize>)]
    depth: usize,
    /// Keep lines played at least this many times.
    #[arg(long, value_name = "K", default_value_t = 5)]
    min_count: u64,
    /// First moves drawn in the SVG.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = crate::cli::positive::<usize>)]
    top: usize,
    /// Write openings.md, .json, .csv and .svg here.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Replace those files if they exist.
    #[arg(long, requires = "out")]
    force: bool,
    /// Format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    format: Format,
    /// TOML config: [search] for the agent, [game.start] and max_turns for
    /// played games.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Turn limit of played games (0 = none).
    #[arg(long, value_name = "T", default_value_t = 200)]
    max_turns: u32,
    /// Games played at once.
    #[arg(long, value_name = "C", default_value_t = 16, value_parser = crate::cli::positive::<usize>)]
    concurrency: usize,
    #[arg(long, value_name = "T", default_value_t = 0, value_parser = crate::cli::threads_arg)]
    threads: usize,
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
}

/// The agent's evaluator as a [`Judge`]: one leaf at a time (the tree is small).
struct EvalJudge {
    evaluator: Box<dyn Evaluator<Crumble>>,
    out: Vec<Evaluation>,
}

impl EvalJudge {
    fn eval(&mut self, game: &Crumble, legal: &[Decision]) -> Result<&Evaluation, String> {
        self.out.resize(1, Evaluation::default());
        self.evaluator
            .evaluate(&[Leaf { game, legal }], &mut self.out)
            .map_err(|e| e.to_string())?;
        Ok(&self.out[0])
    }
}

impl Judge for EvalJudge {
    fn value(&mut self, game: &Crumble) -> Result<f32, String> {
        let mut g = game.clone();
        let legal = g.legal_decisions();
        if legal.len() < 2 {
            // A forced decision: the value of the position after it is the mover's as well.
            return match legal.first() {
                Some(&d) => {
                    g.apply_unchecked(d);
                    if g.is_over() {
                        Ok(match g.outcome().and_then(|o| o.winner) {
                            Some(w) if w == game.to_move() => 1.0,
                            Some(_) => -1.0,
                            None => 0.0,
                        })
                    } else if g.to_move() == game.to_move() {
                        self.value(&g)
                    } else {
                        // The forced decision ended the turn: the value is the opponent's.
                        Ok(-self.value(&g)?)
                    }
                }
                None => Ok(0.0),
            };
        }
        Ok(self.eval(game, &legal)?.value)
    }

    fn move_prior(&mut self, game: &Crumble, path: &[Decision]) -> Result<f64, String> {
        let mut failure = None;
        let p =
            crumble_model::encoders::crumble::action::move_prior(game, path, |g, legal| match self
                .eval(g, legal)
            {
                Ok(e) => e.priors.clone(),
                Err(e) => {
                    failure.get_or_insert(e);
                    vec![0.0; legal.len()]
                }
            });
        if let Some(e) = failure {
            return Err(e);
        }
        p.ok_or_else(|| "the move is not legal".to_string())
    }
}

/// Lines of every game file in `dir`, and the games skipped (other starts, unfinished).
fn read_dir(dir: &Path, depth: usize) -> anyhow::Result<(Vec<Line>, (u16, u16), u64)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read games directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "crsp" || e == "rec"))
        .collect();
    files.sort();
    if files.is_empty() {
        bail!(
            "no game files in {} (expected *.crsp record files or *.rec game records)",
            dir.display()
        );
    }
    let mut lines = Vec::new();
    let mut size: Option<(u16, u16)> = None;
    let mut skipped = 0u64;
    let mut keep = |found: Option<(Line, (u16, u16))>| match found {
        Some((l, s)) if size.is_none_or(|z| z == s) => {
            size = Some(s);
            lines.push(l);
        }
        _ => skipped += 1,
    };
    for p in &files {
        if p.extension().is_some_and(|e| e == "crsp") {
            let games = record::read_file_checked::<Crumble>(p)
                .with_context(|| format!("{}", p.display()))?;
            for g in &games {
                keep(
                    openings::line_of_record(g, depth)
                        .with_context(|| format!("{}", p.display()))?,
                );
            }
        } else {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read {}", p.display()))?;
            let rec = crumble_core::game::record::Record::parse(&text)
                .map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
            keep(
                openings::line_of_text_record(&rec, depth)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?,
            );
        }
    }
    let Some(size) = size else {
        bail!(
            "none of the {skipped} games in {} is a finished game from the standard start",
            dir.display()
        );
    };
    Ok((lines, size, skipped))
}

fn play(
    spec: &AgentSpec,
    (cfg, start): (&ConfigFile, &Crumble),
    a: &Args,
    n: u64,
    depth: usize,
) -> anyhow::Result<Vec<Line>> {
    let player = selfplay::make_agent(
        spec,
        &cfg.search,
        a.seed,
        &crumble_model::NetLoader::new(),
        false,
    )?;
    let opts = RunOptions {
        start: start.clone(),
        max_turns: a.max_turns,
        parallel_games: a.concurrency.max(1),
        seed: a.seed,
        record_targets: false,
        stop_after_turns: 0,
    };
    let mut lines = Vec::new();
    let mut clock = Ticker::every(10);
    let mut players = [player];
    with_threads(a.threads, || {
        run_games(
            &mut players,
            Seating::SelfPlay,
            &opts,
            0..n,
            &mut |g| {
                let (line, _) = openings::line_of_record(&g, depth)
                    .map_err(Box::new)?
                    .expect("self-play starts at the standard start");
                lines.push(line);
                Ok(())
            },
            &mut |p| {
                if clock.due() {
                    eprintln!(
                        "openings: {}/{} games, {:.0} s",
                        p.games_done,
                        p.games_total,
                        clock.secs()
                    );
                }
            },
        )
    })
    .context("playing the games")?;
    Ok(lines)
}

/// The files `--out DIR` writes.
const OUT_FILES: [&str; 4] = [
    "openings.md",
    "openings.json",
    "openings.csv",
    "openings.svg",
];

/// The `--config` file's play settings and board (a Crumble config), or the defaults.
fn play_config(config: Option<&Path>) -> anyhow::Result<(ConfigFile, Crumble)> {
    Ok(match config {
        Some(p) => {
            let full = crumble_train::config::TrainConfig::load(p)?;
            if full.game.name != Crumble::NAME {
                bail!(
                    "crumble openings is Crumble's: {}'s [game] name is {}",
                    p.display(),
                    full.game.name
                );
            }
            (full.play_config(), Crumble::standard_start(&full)?)
        }
        None => (
            ConfigFile::default(),
            Crumble::from_start(&Default::default())?,
        ),
    })
}

/// Annotates `tree` with the priors and values of `spec`'s evaluator, if it has one;
/// returns the report's note saying which.
fn annotate(
    tree: &mut Tree,
    spec: &AgentSpec,
    cfg: &ConfigFile,
    seed: u64,
) -> anyhow::Result<String> {
    Ok(
        match build_evaluator(spec, &cfg.search, seed, &crumble_model::NetLoader::new())? {
            Some(evaluator) => {
                let mut judge = EvalJudge {
                    evaluator,
                    out: Vec::new(),
                };
                tree.annotate(&mut judge)?;
                format!(
                    "prior: {spec}'s prior of the complete move (product of its decision priors); value: its evaluator's value for the player to move"
                )
            }
            None => format!("{spec} has no evaluator: no priors or values"),
        },
    )
}

/// The report in every format ([`OUT_FILES`]) in `dir`, the Markdown one being `md`.
fn write_out(dir: &Path, a: &Args, inputs: &[&Path], tree: &Tree, md: &str) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let svg = tree
        .svg(a.top)
        .map_err(|e| anyhow::anyhow!("drawing the openings: {e}"))?;
    let texts = [
        md.to_string(),
        format!("{:#}\n", tree.json()),
        tree.csv(),
        svg,
    ];
    for (name, text) in OUT_FILES.iter().zip(&texts) {
        write_output("--out", &dir.join(name), inputs, a.force, text.as_bytes())?;
    }
    Ok(())
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    super::on_interrupt(
        "nothing was written (the report is written when every game is done); run the \
         command again"
            .into(),
    )?;
    if a.depth == 0 {
        bail!("--depth must be at least 1");
    }
    if a.top == 0 {
        bail!("--top must be at least 1");
    }
    if a.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    let inputs: Vec<&Path> = a.config.iter().map(|p| p.as_path()).collect();
    if let Some(dir) = &a.out {
        for name in OUT_FILES {
            check_output("--out", &dir.join(name), &inputs, a.force)?;
        }
    }
    let (cfg, start) = play_config(a.config.as_deref())?;
    let board = start.board();
    let spec = a.agent.as_deref().map(AgentSpec::parse).transpose()?;
    let count = a
        .games
        .parse::<u64>()
        .ok()
        .filter(|_| a.games.bytes().all(|b| b.is_ascii_digit()));
    let (lines, (board, resolution), skipped, source) = match (count, &spec) {
        (Some(0), _) => bail!("--games must be at least 1"),
        (Some(n), Some(spec)) => (
            play(spec, (&cfg, &start), &a, n, a.depth)?,
            (board.board_size(), board.resolution()),
            0,
            format!("{n} self-play games of {spec}"),
        ),
        (Some(_), None) if !Path::new(&a.games).is_dir() => {
            bail!(
                "--games {}: a number of games needs --agent AGENT to play them",
                a.games
            )
        }
        _ => {
            let dir = Path::new(&a.games);
            let (l, s, k) = read_dir(dir, a.depth)?;
            (l, s, k, format!("games in {}", dir.display()))
        }
    };
    let mut tree = Tree::build(&lines, board, resolution, a.depth);
    tree.prune(a.min_count);
    let mut notes = vec![format!("source: {source}")];
    if skipped > 0 {
        notes.push(format!(
            "{skipped} games skipped (another start, another board, or unfinished)"
        ));
    }
    if let Some(spec) = &spec {
        notes.push(annotate(&mut tree, spec, &cfg, a.seed)?);
    }
    let mut md = tree.markdown(a.min_count);
    for n in &notes {
        md.push_str(&format!("\n{n}.\n"));
    }
    if let Some(dir) = &a.out {
        write_out(dir, &a, &inputs, &tree, &md)?;
    }
    let text = match a.format {
        Format::Markdown => md,
        Format::Json => format!("{}\n", tree.json()),
        Format::Csv => tree.csv(),
    };
    super::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
