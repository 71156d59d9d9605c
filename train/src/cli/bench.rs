//! `crumble bench rules [--json]`: speed of the rules engine on one thread (6×6, R = 8).
//!
//! Figures: random complete games per second (random play, turn limit 200, games ending at the
//! limit count) with the mean turns per game; decisions per second in those games; the time
//! to list the legal decisions of the start position and of the fixed mid-game position
//! (`core/data/midgame-6x6.json`); the time of one full capture resolution on the mid-game
//! position. Only meaningful in a release build.
//!
//! With `--game NAME` for any other game of the registry: random complete games per second
//! on one thread (the game's random play and random-game turn limit: Splinter rule 8.8, 300
//! turns, on 15 × 18 or `--width`/`--height`; Crumo rule 10.4, 200 turns, on size 5 or
//! `--size N`), complete moves and decisions per second, mean turns per game; the loop is
//! `crumble_selfplay::bench::random_games`.

use super::PositionArgs;
use super::game_args::GameArgs;
use anyhow::{Context as _, bail};
use crumble_core::games::crumble::Crumble;
use crumble_core::games::crumble::position;
use crumble_core::{GameState, GameText};
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
    ///
    /// On the CPU the products run in this project's AVX2 kernels on x86 CPUs with AVX2 and
    /// FMA but without AVX-512, in `gemm`'s elsewhere; the environment variable
    /// `CRUMBLE_KERNELS=avx2` or `=gemm` picks them (for every command) to compare the two.
    Net(super::bench_net::Args),
    /// Self-play with a fresh network: simulations/s, the network alone at self-play's mean
    /// batch, and the shares of time in the network, encoding and tree work.
    Selfplay(super::bench_selfplay::Args),
}

#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    /// Print one JSON object with the keys cores, games_per_sec_per_core, mean_turns,
    /// decisions_per_sec, legal_start_us, legal_mid_us, capture_us. With another --game:
    /// game, the keys of its start (Splinter: width, height; Crumo: size), turn_limit, cores,
    /// games, games_per_sec_per_core, moves_per_sec_per_core (complete moves),
    /// decisions_per_sec_per_core, mean_turns.
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
    if a.game.game != Crumble::NAME {
        let name = a.game.game.clone();
        return crumble_train::for_game!(name.as_str(), G => game_rules::<G>(&a, budget));
    }
    a.game.options.refuse_foreign::<Crumble>()?;
    if !a.game.options.given.is_empty() {
        bail!(
            "Crumble's rules benchmark plays its own 6x6 board at R = 8: leave out the board options"
        );
    }
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

/// Every game but Crumble (whose figures are its own, above): random complete games per
/// second on one thread (the game's random play and its random-game turn limit) on the
/// standard start of the game's flags, complete moves and decisions per second, mean turns.
fn game_rules<G: GameText>(a: &RulesArgs, budget: Duration) -> anyhow::Result<ExitCode> {
    let turn_limit = G::RANDOM_GAME_TURNS;
    let setup = a.game.setup(&PositionArgs::none(), turn_limit, &[])?;
    warn_if_unoptimised();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let start: G = setup.start()?;
    let m = crumble_selfplay::bench::random_games(&start, turn_limit, budget, 0);
    if a.json {
        let mut json = serde_json::Map::new();
        json.insert("game".into(), G::NAME.into());
        // The start's own keys (Splinter's width and height, Crumo's size).
        if let serde_json::Value::Object(spec) = serde_json::to_value(start.to_start())? {
            json.extend(spec.into_iter().filter(|(_, v)| !v.is_null()));
        }
        json.insert("turn_limit".into(), turn_limit.into());
        json.insert("cores".into(), cores.into());
        json.insert("games".into(), m.games.into());
        json.insert("games_per_sec_per_core".into(), m.games_per_sec().into());
        json.insert("moves_per_sec_per_core".into(), m.moves_per_sec().into());
        json.insert(
            "decisions_per_sec_per_core".into(),
            m.decisions_per_sec().into(),
        );
        json.insert("mean_turns".into(), m.mean_turns().into());
        super::print(&format!("{}\n", serde_json::Value::Object(json)))?;
    } else {
        super::print(&format!(
            "crumble bench rules --game {}: {}, one thread, {}, machine with {cores} cores\n\
             random games        {:>12.1} games/s per core ({} games, mean {:.1} turns, turn limit {turn_limit})\n\
             complete moves      {:>12.0} moves/s per core\n\
             decisions           {:>12.0} decisions/s per core\n",
            G::NAME,
            start.board_text(),
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
    let mut game = Crumble::new(6, 8)?;
    game.set_max_turns(TURN_LIMIT);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    let (mut games, mut turns, mut decisions) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    while games == 0 || start.elapsed() < budget {
        game.reset_standard();
        decisions += game.play_random_game(&mut rng);
        turns += u64::from(game.turns_played());
        games += 1;
    }
    let secs = start.elapsed().as_secs_f64();

    // Micro-benchmarks.
    let micro = budget / 10;
    let mut buf = Vec::new();
    let mut start_game = Crumble::new(6, 8)?;
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
