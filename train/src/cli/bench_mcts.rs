//! `crumble bench mcts [--json]`: search speed on the standard 6×6 board at R = 8.
//!
//! Simulations per second from the start position with the uniform and the rollout
//! evaluator (1 playout, 200-turn cap), on one thread (one search at a time) and on all
//! cores: for the rollout evaluator many searches at once, their leaves batched per round as
//! in self-play; for the uniform evaluator, which needs no batching, one worker per core with
//! a few searches each, so that no per-round synchronisation between cores is measured. Each
//! search has `--sims` simulations on a fresh tree. Then games per hour of rollout self-play
//! (`mcts:rollout:SIMS` with `--selfplay-sims`, default settings, all cores, turn limit 200).
//! Then the exact one-turn lookahead (`[search] lookahead`): microseconds per check at the
//! start and in the mid-game position of `core/data/midgame-6x6.json`, then uniform-evaluator
//! simulations per second on one thread and rollout self-play games per hour with the root
//! checked (`lookahead = "root"`), every turn-start node checked at its creation (1) or its
//! second visit (2), and the default setting (each figure also as a ratio of the same figure
//! with the lookahead off, the figures above). Then the exact two-turn lookahead of matches
//! and play (`[search] play_forcing_budget`): milliseconds per check at the start, in the
//! mid-game position, over turn starts of random games (mean and largest) and over the
//! built-in `win2` tactics (how many it solves within the budget).
//! Only meaningful in a release build.

use anyhow::bail;
use crumble_core::game::GameState;
use crumble_core::games::crumble::Crumble;
use crumble_selfplay::bench::{
    ForcingCost, forcing_micros, lookahead_micros, rollout_selfplay_games_per_hour,
    search_throughput,
};
use crumble_selfplay::driver::with_threads;
use crumble_selfplay::games::crumble::tactics::{Kind, Suite};
use crumble_selfplay::{Lookahead, RolloutEvaluator, SearchConfig, UniformEvaluator};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print one JSON object with the keys cores, uniform_sims_per_sec_1,
    /// uniform_sims_per_sec_all, rollout_sims_per_sec_1, rollout_sims_per_sec_all,
    /// rollout_games_per_hour (these four with the lookahead off), lookahead_us_start,
    /// lookahead_us_midgame, and lookahead: a list of {setting, uniform_sims_per_sec_1,
    /// rollout_games_per_hour} for `lookahead = "root"`, 1, 2 and the default; forcing: the
    /// two-turn lookahead's {budget, start, midgame, random, win2}, each {checks, found,
    /// mean_ms, max_ms}.
    #[arg(long)]
    json: bool,
    /// Seconds of each search measurement.
    #[arg(long, default_value_t = 3.0, value_parser = crate::cli::seconds_arg)]
    seconds: f64,
    /// Simulations per search in the search measurements.
    #[arg(long, default_value_t = 800, value_parser = crate::cli::positive::<u32>)]
    sims: u32,
    /// Simulations per decision in the self-play measurement.
    #[arg(long, default_value_t = 32, value_parser = crate::cli::positive::<u32>)]
    selfplay_sims: u32,
    /// Self-play games of the games-per-hour measurement (played at once on all cores).
    #[arg(long, default_value_t = 8, value_parser = crate::cli::positive::<u64>)]
    selfplay_games: u64,
}

/// Searches per core in the uniform all-cores measurement.
const UNIFORM_SEARCHES_PER_CORE: usize = 4;

/// Runs `work` on `cores` threads at once and returns the summed simulations per second.
fn per_core_throughput<F>(cores: usize, work: F) -> anyhow::Result<f64>
where
    F: Fn(usize) -> Result<(u64, f64), crumble_selfplay::EvalError> + Sync,
{
    let results: Vec<Result<(u64, f64), crumble_selfplay::EvalError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..cores)
            .map(|i| {
                let w = &work;
                s.spawn(move || w(i))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a bench worker panicked"))
            .collect()
    });
    let mut total = 0.0;
    for r in results {
        let (n, secs) = r?;
        total += n as f64 / secs;
    }
    Ok(total)
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if !(a.seconds.is_finite() && a.seconds > 0.0 && a.seconds <= 3600.0) {
        bail!(
            "--seconds must be a positive number of seconds (at most an hour), not {}",
            a.seconds
        );
    }
    super::bench::warn_if_unoptimised();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let start = crumble_core::games::crumble::Crumble::new(6, 8)?;
    let cfg = SearchConfig {
        lookahead: Lookahead::Off,
        ..SearchConfig::default()
    };
    let d = Duration::from_secs_f64(a.seconds);
    let rate = |(n, s): (u64, f64)| n as f64 / s;
    let many = 64 * cores;
    let u1 = rate(with_threads(1, || {
        search_throughput(&start, &cfg, &mut UniformEvaluator, 1, a.sims, d)
    })?);
    // The uniform evaluator needs no batching across threads: one worker per core, each with
    // its own searches (batched per worker) and no per-round synchronisation between cores.
    let ua = per_core_throughput(cores, |_| {
        with_threads(1, || {
            search_throughput(
                &start,
                &cfg,
                &mut UniformEvaluator,
                UNIFORM_SEARCHES_PER_CORE,
                a.sims,
                d,
            )
        })
    })?;
    let mut r = RolloutEvaluator::new(cfg.rollout.clone(), 1);
    let r1 = rate(with_threads(1, || {
        search_throughput(&start, &cfg, &mut r, 1, a.sims, d)
    })?);
    let ra = rate(with_threads(0, || {
        search_throughput(&start, &cfg, &mut r, many, a.sims, d)
    })?);
    // Rollout self-play games per hour.
    let gph = with_threads(0, || {
        rollout_selfplay_games_per_hour(&start, &cfg, a.selfplay_sims, a.selfplay_games)
    })?;
    // The lookahead: cost per check, and the search and self-play rates with it on.
    let midgame = crumble_core::games::crumble::position::from_json(include_str!(
        "../../../core/data/midgame-6x6.json"
    ))?;
    let (la_start, _) = lookahead_micros(&start, d.min(Duration::from_secs(1)));
    let (la_mid, mid_win) = lookahead_micros(&midgame, d.min(Duration::from_secs(1)));
    let m = Measured {
        cores,
        many,
        u1,
        ua,
        r1,
        ra,
        gph,
        la_start,
        la_mid,
        mid_win,
        with_la: lookahead_rates(&a, &start, &cfg, d)?,
        forcing: forcing_costs()?,
    };
    if a.json {
        super::print(&format!("{}\n", m.json()))?;
    } else {
        super::print(&m.text(&a))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One-thread uniform search rates and rollout self-play rates with the lookahead on: at
/// the root only, at every turn-start node's creation, at its second visit, and the default
/// if it is none of these.
fn lookahead_rates(
    a: &Args,
    start: &Crumble,
    cfg: &SearchConfig,
    d: Duration,
) -> anyhow::Result<Vec<(Lookahead, f64, f64)>> {
    let rate = |(n, s): (u64, f64)| n as f64 / s;
    let mut settings = vec![
        Lookahead::Root,
        Lookahead::AtVisit(1),
        Lookahead::AtVisit(2),
    ];
    let default = SearchConfig::default().lookahead;
    if default.is_on() && !settings.contains(&default) {
        settings.push(default);
    }
    let mut with_la = Vec::new();
    for lookahead in settings {
        let cfg_la = SearchConfig {
            lookahead,
            ..cfg.clone()
        };
        let u1_la = rate(with_threads(1, || {
            search_throughput(start, &cfg_la, &mut UniformEvaluator, 1, a.sims, d)
        })?);
        let gph_la = with_threads(0, || {
            rollout_selfplay_games_per_hour(start, &cfg_la, a.selfplay_sims, a.selfplay_games)
        })?;
        with_la.push((lookahead, u1_la, gph_la));
    }
    Ok(with_la)
}

/// Everything the benchmark measured (rates in simulations per second, games per hour,
/// lookahead checks in microseconds).
struct Measured {
    cores: usize,
    /// Searches at once of the rollout evaluator on all cores.
    many: usize,
    u1: f64,
    ua: f64,
    r1: f64,
    ra: f64,
    gph: f64,
    la_start: f64,
    la_mid: f64,
    mid_win: bool,
    with_la: Vec<(Lookahead, f64, f64)>,
    forcing: ForcingCosts,
}

impl Measured {
    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "cores": self.cores,
            "uniform_sims_per_sec_1": self.u1,
            "uniform_sims_per_sec_all": self.ua,
            "rollout_sims_per_sec_1": self.r1,
            "rollout_sims_per_sec_all": self.ra,
            "rollout_games_per_hour": self.gph,
            "lookahead_us_start": self.la_start,
            "lookahead_us_midgame": self.la_mid,
            "lookahead": self.with_la.iter().map(|&(l, u, g)| serde_json::json!({
                "setting": l.to_string(),
                "uniform_sims_per_sec_1": u,
                "rollout_games_per_hour": g,
            })).collect::<Vec<_>>(),
            "forcing": self.forcing.to_json(),
        })
    }

    fn text(&self, a: &Args) -> String {
        let Measured {
            cores,
            many,
            u1,
            ua,
            r1,
            ra,
            gph,
            la_start,
            la_mid,
            mid_win,
            ..
        } = *self;
        let build = super::bench::build_kind();
        let mut text = format!(
            "crumble bench mcts: 6x6 board, R = 8, start position, {} sims per search, {build}, machine with {cores} cores\n\
             uniform evaluator  {u1:>10.0} sims/s on 1 thread, {ua:>10.0} sims/s on all cores ({UNIFORM_SEARCHES_PER_CORE} searches per core, {:.2}x)\n\
             rollout evaluator  {r1:>10.0} sims/s on 1 thread, {ra:>10.0} sims/s on all cores ({many} searches at once, {:.2}x)\n\
             rollout self-play  {gph:>10.1} games/hour (mcts:rollout:{}, {} games at once, turn limit 200)\n\
             lookahead check    {la_start:>10.1} us at the start, {la_mid:>10.1} us in core/data/midgame-6x6.json (mover {} win at once)\n",
            a.sims,
            ua / u1,
            ra / r1,
            a.selfplay_sims,
            a.selfplay_games,
            if mid_win { "can" } else { "cannot" },
        );
        for &(l, u1_la, gph_la) in &self.with_la {
            text += &format!(
                "lookahead = {:<7}{u1_la:>10.0} uniform sims/s on 1 thread ({:.2}x of off), {gph_la:>10.1} rollout self-play games/hour ({:.2}x of off)\n",
                l.to_string(),
                u1_la / u1,
                gph_la / gph,
            );
        }
        text += &self.forcing.to_text();
        text
    }
}

/// Random games whose turn starts the two-turn lookahead is timed on, and every how many
/// turns a position is taken (about 100 positions).
const FORCING_GAMES: u64 = 5;
const FORCING_EVERY: u32 = 5;

/// The two-turn lookahead's cost with the default play budget.
struct ForcingCosts {
    budget: u64,
    start: ForcingCost,
    midgame: ForcingCost,
    random: ForcingCost,
    win2: ForcingCost,
}

fn forcing_costs() -> anyhow::Result<ForcingCosts> {
    use rand::SeedableRng;
    let budget = SearchConfig::default().play_forcing_budget;
    let start = crumble_core::games::crumble::Crumble::new(6, 8)?;
    let midgame = crumble_core::games::crumble::position::from_json(include_str!(
        "../../../core/data/midgame-6x6.json"
    ))?;
    let mut random = Vec::new();
    for seed in 0..FORCING_GAMES {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut g = start.clone();
        g.set_max_turns(200);
        while !g.is_over() {
            if g.turns_played() % FORCING_EVERY == 0 {
                random.push(g.clone());
            }
            g.play_random_turn(&mut rng);
        }
    }
    let win2: Vec<_> = Suite::builtin()?
        .tactics
        .into_iter()
        .filter(|t| t.kind == Kind::Win2)
        .map(|t| t.position)
        .collect();
    Ok(ForcingCosts {
        budget,
        start: forcing_micros(&[start], budget),
        midgame: forcing_micros(&[midgame], budget),
        random: forcing_micros(&random, budget),
        win2: forcing_micros(&win2, budget),
    })
}

impl ForcingCosts {
    fn parts(&self) -> [(&'static str, &ForcingCost); 4] {
        [
            ("start", &self.start),
            ("midgame", &self.midgame),
            ("random", &self.random),
            ("win2", &self.win2),
        ]
    }

    fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({ "budget": self.budget });
        for (name, c) in self.parts() {
            v[name] = serde_json::json!({
                "checks": c.checks,
                "found": c.found,
                "mean_ms": c.mean_us / 1e3,
                "max_ms": c.max_us / 1e3,
            });
        }
        v
    }

    fn to_text(&self) -> String {
        let mut text = format!(
            "two-turn lookahead (play_forcing_budget = {} states), ms per check:
",
            self.budget
        );
        for (name, c) in self.parts() {
            text += &format!(
                "  {name:<8} {:>4} positions, mean {:>8.2}, max {:>8.2}, forcing move found in {}
",
                c.checks,
                c.mean_us / 1e3,
                c.max_us / 1e3,
                c.found,
            );
        }
        text
    }
}
