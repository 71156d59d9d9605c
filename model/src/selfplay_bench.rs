//! `crumble bench selfplay`: self-play with a freshly initialised network, and where its time
//! goes. The figures say how close self-play comes to the speed of the network alone: the
//! network's positions per second at the mean batch self-play used, beside self-play's
//! simulations per second, and the shares of the wall time spent in the forward passes, in
//! encoding positions and decoding priors, and in everything else (tree work, the rules
//! engine, the lookahead, thread hand-offs).

use crate::evaluator::NetEvaluator;
use crate::net::{ConfigError, NetConfig};
use crumble_core::games::crumble::Crumble;
use crumble_selfplay::config::{SearchConfig, SelfPlayConfig};
use crumble_selfplay::driver::{Agent, AgentKind};
use crumble_selfplay::selfplay::{self, SelfPlayError};
use std::path::Path;
use std::time::Instant;

/// The figures of one run; the JSON keys are the field names.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SelfplayBench {
    pub cores: usize,
    pub games: u64,
    pub seconds: f64,
    pub selfplay_sims_per_sec: f64,
    pub selfplay_games_per_hour: f64,
    /// Positions the network evaluated per second of self-play.
    pub selfplay_evals_per_sec: f64,
    pub mean_batch: f64,
    pub net_pos_per_sec_at_mean_batch: f64,
    pub share_net: f64,
    pub share_encode: f64,
    pub share_tree: f64,
}

/// Why the benchmark could not run.
#[derive(Debug, thiserror::Error)]
pub enum SelfplayBenchError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    SelfPlay(#[from] SelfPlayError),
}

/// Plays `games` self-play games of Crumble from `standard` with `search` and `sp` (records
/// into `dir`, which should be empty: games it holds already are not played again) with a
/// fresh network of `net`, on the current rayon pool, then times that network alone at the
/// mean batch.
pub fn run(
    search: &SearchConfig,
    sp: &SelfPlayConfig,
    net: &NetConfig,
    standard: &Crumble,
    games: u64,
    dir: &Path,
) -> Result<SelfplayBench, SelfplayBenchError> {
    let device = crate::default_device();
    let model = net.init(&device)?;
    let evaluator = NetEvaluator::new("fresh", net.clone(), model.clone(), device.clone());
    let timings = evaluator.timings();
    let agent = Agent {
        name: "fresh".into(),
        kind: AgentKind::Mcts {
            evaluator: Box::new(evaluator),
            simulations: search.simulations,
            config: search.clone(),
        },
        book: None,
    };
    let t0 = Instant::now();
    let (_, progress) = selfplay::run_selfplay(agent, sp, standard, dir, games, &mut |_| {})?;
    let secs = t0.elapsed().as_secs_f64().max(1e-9);
    let (encode, net_s, decode) = timings.seconds();
    let mean_batch = timings.mean_batch();
    let net_rate = crate::bench::inference_rate(
        &burn::module::Module::valid(&model),
        net,
        &device,
        standard.board().board_size(),
        mean_batch.round() as usize,
        2.0,
    );
    Ok(SelfplayBench {
        cores: rayon::current_num_threads(),
        games: progress.games_done,
        seconds: secs,
        selfplay_sims_per_sec: progress.simulations as f64 / secs,
        selfplay_games_per_hour: progress.games_done as f64 / secs * 3600.0,
        selfplay_evals_per_sec: progress.evaluations as f64 / secs,
        mean_batch,
        net_pos_per_sec_at_mean_batch: net_rate,
        share_net: net_s / secs,
        share_encode: (encode + decode) / secs,
        share_tree: (1.0 - (net_s + encode + decode) / secs).max(0.0),
    })
}
