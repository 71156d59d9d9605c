//! `crumble bench rules [--json]`: speed of the rules engine on one thread (6×6, R = 8).
//!
//! Figures: random complete games per second (random play, turn limit 200, games ending at the
//! limit count) with the mean turns per game; decisions per second in those games; the time
//! to list the legal decisions of the start position and of the fixed mid-game position
//! (`core/data/midgame-6x6.json`); the time of one full capture resolution on the mid-game
//! position. Only meaningful in a release build.
//!
//! With `--game splinter`: random complete games per second on one thread (rule 8.8's random
//! play, turn limit 300, on the default 15 × 18 board or `--width`/`--height`), complete
//! moves and decisions per second, mean turns per game; the loop is
//! `crumble_selfplay::bench::random_games`.
//!
//! With `--game crumo`: the same figures for Crumo (rule 10.4's random play, turn limit 200,
//! on size 5 or `--size N`).

use super::game_args::GameArgs;
use anyhow::{Context as _, bail};
use crumble_core::crumo::Crumo;
use crumble_core::splinter::Splinter;
use crumble_core::{Game, position, random};
use rand::SeedableRng;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Subcommand)]
pub enum Bench {
    /// Rules engine: random games, decisions, legal-decision listing, capture resolution
    /// (Splinter: random games, complete moves and decisions).
    Rules(RulesArgs),
    /// Search: simulations per second (uniform and rollout evaluators), self-play games/hour.
    Mcts(super::bench_mcts::Args),
    /// Network: FLOPs, inference positions/s (batch 1, 16, 64, 256), training samples/s.
    Net(super::bench_net::Args),
    /// Self-play with a fresh network: simulations/s, the network alone at self-play's mean
    /// batch, and the shares of time in the network, encoding and tree work.
    Selfplay(super::bench_selfplay::Args),
}

#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    /// Print one JSON object with the keys cores, games_per_sec_per_core, mean_turns,
    /// decisions_per_sec, legal_start_us, legal_mid_us, capture_us. With --game splinter:
    /// game, width, height, turn_limit, cores, games, games_per_sec_per_core,
    /// moves_per_sec_per_core (complete moves), decisions_per_sec_per_core, mean_turns. With
    /// --game crumo: the same with size in place of width and height.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    game: GameArgs,
    /// Wall time of the random-game measurement in seconds (each micro-benchmark takes a
    /// tenth of it).
    #[arg(long, hide = true, default_value_t = 3.0, value_parser = crate::cli::seconds_arg)]
    seconds: f64,
}

pub fn run(b: Bench) -> anyhow::Result<ExitCode> {
    match b {
        Bench::Rules(a) => rules(a),
        Bench::Mcts(a) => super::bench_mcts::run(a),
        Bench::Net(a) => super::bench_net::run(a),
        Bench::Selfplay(a) => super::bench_selfplay::run(a),
    }
}

const TURN_LIMIT: u32 = 200;

#[derive(Debug)]
struct Figures {
    cores: usize,
    games_per_sec: f64,
    mean_turns: f64,
    decisions_per_sec: f64,
    legal_start_us: f64,
    legal_mid_us: f64,
    capture_us: f64,
    games: u64,
}

fn rules(a: RulesArgs) -> anyhow::Result<ExitCode> {
    if !(a.seconds.is_finite() && a.seconds > 0.0 && a.seconds <= 86_400.0) {
        bail!(
            "--seconds must be a positive number of seconds (at most a day), not {}",
            a.seconds
        );
    }
    let budget = Duration::from_secs_f64(a.seconds);
    if a.game.is_splinter() {
        return splinter_rules(&a, budget);
    }
    if a.game.is_crumo() {
        return crumo_rules(&a, budget);
    }
    a.game.check_crumble(&[])?;
    warn_if_unoptimised();
    let f = measure(budget)?;
    if a.json {
        let mut m = serde_json::Map::new();
        m.insert("cores".into(), f.cores.into());
        m.insert("games_per_sec_per_core".into(), f.games_per_sec.into());
        m.insert("mean_turns".into(), f.mean_turns.into());
        m.insert("decisions_per_sec".into(), f.decisions_per_sec.into());
        m.insert("legal_start_us".into(), f.legal_start_us.into());
        m.insert("legal_mid_us".into(), f.legal_mid_us.into());
        m.insert("capture_us".into(), f.capture_us.into());
        super::print(&format!("{}\n", serde_json::Value::Object(m)))?;
    } else {
        let build = build_kind();
        super::print(&format!(
            "crumble bench rules: 6x6 board, R = 8, one thread, {build}, machine with {} cores\n\
             random games        {:>12.1} games/s per core ({} games, mean {:.1} turns, turn limit {TURN_LIMIT})\n\
             decisions           {:>12.0} decisions/s\n\
             legal decisions     {:>12.3} us at the start, {:.3} us in the mid-game position\n\
             capture resolution  {:>12.3} us (one full pass over the mid-game position)\n",
            f.cores,
            f.games_per_sec,
            f.games,
            f.mean_turns,
            f.decisions_per_sec,
            f.legal_start_us,
            f.legal_mid_us,
            f.capture_us
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Splinter's turn limit in the benchmark (rule 8.8 leaves it to the project; the reference
/// engine's default).
const SPLINTER_TURN_LIMIT: u32 = 300;

fn splinter_rules(a: &RulesArgs, budget: Duration) -> anyhow::Result<ExitCode> {
    let (width, height) = a.game.splinter_size()?;
    warn_if_unoptimised();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let start = Splinter::standard(width, height).context("the size was checked")?;
    let m = crumble_selfplay::bench::random_games(&start, SPLINTER_TURN_LIMIT, budget, 0);
    if a.json {
        let json = serde_json::json!({
            "game": "splinter",
            "width": width,
            "height": height,
            "turn_limit": SPLINTER_TURN_LIMIT,
            "cores": cores,
            "games": m.games,
            "games_per_sec_per_core": m.games_per_sec(),
            "moves_per_sec_per_core": m.moves_per_sec(),
            "decisions_per_sec_per_core": m.decisions_per_sec(),
            "mean_turns": m.mean_turns(),
        });
        super::print(&format!("{json}\n"))?;
    } else {
        super::print(&format!(
            "crumble bench rules --game splinter: {width}x{height} board, one thread, {}, machine with {cores} cores\n\
             random games        {:>12.1} games/s per core ({} games, mean {:.1} turns, turn limit {SPLINTER_TURN_LIMIT})\n\
             complete moves      {:>12.0} moves/s per core\n\
             decisions           {:>12.0} decisions/s per core\n",
            build_kind(),
            m.games_per_sec(),
            m.games,
            m.mean_turns(),
            m.moves_per_sec(),
            m.decisions_per_sec()
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Crumo's turn limit in the benchmark (rule 10.4's default for random games).
const CRUMO_TURN_LIMIT: u32 = 200;

fn crumo_rules(a: &RulesArgs, budget: Duration) -> anyhow::Result<ExitCode> {
    let size = a.game.crumo_size()?;
    warn_if_unoptimised();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let start = Crumo::standard(size).context("the size was checked")?;
    let m = crumble_selfplay::bench::random_games(&start, CRUMO_TURN_LIMIT, budget, 0);
    if a.json {
        let json = serde_json::json!({
            "game": "crumo",
            "size": size,
            "turn_limit": CRUMO_TURN_LIMIT,
            "cores": cores,
            "games": m.games,
            "games_per_sec_per_core": m.games_per_sec(),
            "moves_per_sec_per_core": m.moves_per_sec(),
            "decisions_per_sec_per_core": m.decisions_per_sec(),
            "mean_turns": m.mean_turns(),
        });
        super::print(&format!("{json}\n"))?;
    } else {
        super::print(&format!(
            "crumble bench rules --game crumo: size {size} ({} points), one thread, {}, machine with {cores} cores\n\
             random games        {:>12.1} games/s per core ({} games, mean {:.1} turns, turn limit {CRUMO_TURN_LIMIT})\n\
             complete moves      {:>12.0} moves/s per core\n\
             decisions           {:>12.0} decisions/s per core\n",
            start.points(),
            build_kind(),
            m.games_per_sec(),
            m.games,
            m.mean_turns(),
            m.moves_per_sec(),
            m.decisions_per_sec()
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn measure(budget: Duration) -> anyhow::Result<Figures> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());

    // Random complete games.
    let mut game = Game::new(6, 8)?;
    game.set_max_turns(TURN_LIMIT);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    let (mut games, mut turns, mut decisions) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    while games == 0 || start.elapsed() < budget {
        game.reset_standard();
        decisions += random::play_random_game(&mut game, &mut rng);
        turns += u64::from(game.turns_played());
        games += 1;
    }
    let secs = start.elapsed().as_secs_f64();

    // Micro-benchmarks.
    let micro = budget / 10;
    let mut buf = Vec::new();
    let mut start_game = Game::new(6, 8)?;
    let legal_start_us = time_per_call(micro, || {
        start_game.legal_decisions_into(&mut buf);
        black_box(&buf);
    });
    let mid =
        position::from_json(position::MIDGAME_6X6_JSON).context("the shipped mid-game position")?;
    let mut mid_game = mid.clone();
    let legal_mid_us = time_per_call(micro, || {
        mid_game.legal_decisions_into(&mut buf);
        black_box(&buf);
    });
    let mut capture_game = mid;
    let capture_us = time_per_call(micro, || {
        black_box(capture_game.resolve_captures());
    });

    Ok(Figures {
        cores,
        games_per_sec: games as f64 / secs,
        mean_turns: turns as f64 / games as f64,
        decisions_per_sec: decisions as f64 / secs,
        legal_start_us,
        legal_mid_us,
        capture_us,
        games,
    })
}

/// Mean microseconds per call of `f`, calling it in growing batches until `budget` is spent
/// (after one warm-up call).
/// Warns on stderr when the binary was built without optimisation (benchmarks mean little).
pub(super) fn warn_if_unoptimised() {
    if cfg!(debug_assertions) {
        eprintln!(
            "warning: this build has no optimisation (debug); the figures mean little. Use --release."
        );
    }
}

/// How the running binary was built, for benchmark headers.
pub(super) fn build_kind() -> &'static str {
    if cfg!(debug_assertions) {
        "debug build (unoptimised)"
    } else {
        "release build"
    }
}

fn time_per_call(budget: Duration, mut f: impl FnMut()) -> f64 {
    f();
    let start = Instant::now();
    let (mut calls, mut batch) = (0u64, 1u64);
    loop {
        for _ in 0..batch {
            f();
        }
        calls += batch;
        let elapsed = start.elapsed();
        if elapsed >= budget {
            return elapsed.as_secs_f64() * 1e6 / calls as f64;
        }
        batch = (batch * 2).min(1 << 16);
    }
}
