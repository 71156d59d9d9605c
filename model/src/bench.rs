//! `crumble bench net`: FLOPs, inference throughput (the network on its device from host
//! buffers, exactly as [`crate::NetEvaluator`] runs it: [`crate::infer::forward_chunks`]) and
//! training throughput of a network on real positions (from seeded random games), the
//! numbers `scripts/bench_torch.py` prints for the identical PyTorch network; and the
//! machine's measured fp32 peak ([`crate::peak`]) with the share of it the network reaches.

use crate::encoders::crumble::action;
use crate::encoders::crumble::planes::{PLANES, Rasteriser};
use crate::net::NetConfig;
use crate::train::{self, TrainBatch};
use burn::module::Module;
use burn::tensor::Device;
use crumble_core::game::GameState;
use crumble_core::games::crumble::Crumble;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// The figures of one benchmark run; the JSON keys are the field names.
#[derive(Debug, Clone, serde::Serialize)]
pub struct NetBench {
    pub cores: usize,
    /// The kernels of the CPU path ([`crate::kernels::Kernels`]): `avx2` or `gemm`.
    pub kernels: &'static str,
    pub flops_per_pos: u64,
    pub infer_pos_per_sec_b1: f64,
    pub infer_pos_per_sec_b16: f64,
    pub infer_pos_per_sec_b64: f64,
    pub infer_pos_per_sec_b256: f64,
    pub train_samples_per_sec_b128: f64,
    /// The machine's measured fp32 FMA peak on all cores ([`crate::peak`]), GFLOP/s.
    pub peak_gflops: f64,
    /// The instruction set that reached it (`avx512`, `avx2`, `portable`).
    pub peak_isa: &'static str,
    /// The network's inference at batch 256: GFLOP/s and share of the peak.
    pub infer_gflops_b256: f64,
    pub infer_peak_share_b256: f64,
    /// Training at batch 128, counting a sample as three forward passes (forward, and a
    /// backward pass of about twice its work): GFLOP/s and share of the peak.
    pub train_gflops_b128: f64,
    pub train_peak_share_b128: f64,
}

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    pub config: NetConfig,
    /// Board size `N` of the positions (grid `N·R`).
    pub board: u16,
    /// Minimum measuring time per figure, seconds (after one warm-up pass).
    pub seconds: f64,
    /// The device of inference and training (with autodiff).
    pub device: Device,
    /// A trained network to measure instead of a fresh one of `config`.
    pub trained: Option<Trained>,
}

/// A trained Crumble network's checkpoint, read as every command reads one (subnormal weights
/// flushed): trained weights can be slower than fresh ones (subnormals are 3x slower on some
/// Intel CPUs), which a fresh network never shows.
#[derive(Debug, Clone)]
pub struct Trained {
    /// The checkpoint's name in errors (its path, or the built-in network's name).
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Why a benchmark could not run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Config(#[from] crate::net::ConfigError),
    #[error(transparent)]
    Checkpoint(#[from] crate::checkpoint::CheckpointError),
    /// The benchmark's positions are Crumble's: another game's network cannot read them.
    #[error(
        "{name}: not a Crumble network ({found} input planes, Crumble's have {PLANES}); bench net measures on Crumble positions"
    )]
    NotCrumble { name: String, found: usize },
}

impl Trained {
    /// Crumble's built-in network.
    pub fn builtin() -> Trained {
        let b = <crate::CrumbleEncoder as crate::Encoder<Crumble>>::BUILTIN
            .expect("Crumble has a built-in network");
        Trained {
            name: b.name.to_string(),
            bytes: b.bytes.to_vec(),
        }
    }

    /// The network and its config on `device`.
    fn load(&self, device: &Device) -> Result<(NetConfig, crate::CrumbleNet), BenchError> {
        let (cfg, net) = crate::checkpoint::decode(&self.bytes, &self.name, device)?;
        if cfg.input_planes != PLANES {
            return Err(BenchError::NotCrumble {
                name: self.name.clone(),
                found: cfg.input_planes,
            });
        }
        Ok((cfg, net))
    }
}

/// `count` positions from seeded random games (decision by decision, so every phase occurs),
/// each live with at least two legal decisions.
pub fn sample_positions(board: u16, resolution: u16, count: usize, seed: u64) -> Vec<Crumble> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut legal = Vec::new();
    let mut game = Crumble::new(board, resolution).expect("board size");
    game.set_max_turns(120);
    while out.len() < count {
        if game.is_over() {
            game = Crumble::new(board, resolution).expect("board size");
            game.set_max_turns(120);
        }
        game.legal_decisions_into(&mut legal);
        if legal.len() > 1 && rand::Rng::random_bool(&mut rng, 0.3) {
            out.push(game.clone());
        }
        if game.at_turn_start() && rand::Rng::random_bool(&mut rng, 0.5) {
            game.play_random_turn(&mut rng);
        } else {
            let d = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
            game.apply_unchecked(d);
        }
    }
    out
}

/// Rasterised planes of `games`, `[B·PLANES·G·G]`.
pub fn rasterise_all(games: &[Crumble]) -> Vec<f32> {
    let g = usize::from(games[0].grid_size());
    let per = PLANES * g * g;
    let mut v = vec![0.0; games.len() * per];
    let mut r = Rasteriser::new();
    for (k, game) in games.iter().enumerate() {
        r.rasterise_slice(game, &mut v[k * per..(k + 1) * per]);
    }
    v
}

/// Runs `f` once to warm up, then repeatedly for at least `seconds`; returns calls per second.
fn rate(seconds: f64, mut f: impl FnMut()) -> f64 {
    f();
    let t = Instant::now();
    let mut n = 0u32;
    while n < 2 || t.elapsed().as_secs_f64() < seconds {
        f();
        n += 1;
    }
    f64::from(n) / t.elapsed().as_secs_f64()
}

/// `count` positions of `board` in the cell layout of `cfg`'s net, one after another.
fn cell_inputs(cfg: &NetConfig, board: u16, count: usize) -> Vec<f32> {
    let g = usize::from(board) * cfg.resolution;
    let planes = rasterise_all(&sample_positions(board, cfg.resolution as u16, count, 1));
    let per = PLANES * g * g;
    let layout = crate::Layout::of(cfg);
    let mut cells = vec![0.0; planes.len()];
    for (src, dst) in planes.chunks_exact(per).zip(cells.chunks_exact_mut(per)) {
        layout.to_cells(src, g, dst);
    }
    cells
}

/// Positions per second of the evaluator's forward pass ([`crate::infer::forward_chunks`]) at
/// batch `b` on `device` (positions from seeded random games on a board of `board`), measured
/// for at least `seconds`.
pub fn inference_rate(
    net: &crate::CrumbleNet,
    cfg: &NetConfig,
    device: &Device,
    board: u16,
    b: usize,
    seconds: f64,
) -> f64 {
    let b = b.max(1);
    let cells = cell_inputs(cfg, board, b);
    let n = usize::from(board) * cfg.cell_pixels;
    rate(seconds, || forward(net, device, &cells, b, n)) * b as f64
}

/// One inference pass as the evaluator runs it, on `b` positions already in the cell layout
/// (copied chunk by chunk where the evaluator would encode them).
fn forward(net: &crate::CrumbleNet, device: &Device, cells: &[f32], b: usize, n: usize) {
    let per = cells.len() / b.max(1);
    crate::infer::forward_chunks(
        net,
        device,
        b,
        n,
        |first, buf| buf.copy_from_slice(&cells[first * per..first * per + buf.len()]),
        |_, logits, values, _| std::hint::black_box((logits, values)),
    );
}

/// Measures the network of `opts.config`, or the trained one of `opts.trained`.
pub fn run(opts: &BenchOptions) -> Result<NetBench, BenchError> {
    let (config, net) = match &opts.trained {
        Some(t) => t.load(&opts.device)?,
        None => (opts.config.clone(), opts.config.init(&opts.device)?),
    };
    let cfg = &config;
    let r = cfg.resolution as u16;
    let g = usize::from(opts.board) * cfg.resolution;
    let games = sample_positions(opts.board, r, 256, 1);
    let planes = rasterise_all(&games);
    let per = PLANES * g * g;
    let layout = crate::Layout::of(cfg);
    let cells = cell_inputs(cfg, opts.board, 256);
    let net = net.valid();

    let mut infer = [0.0; 4];
    let tower = usize::from(opts.board) * cfg.cell_pixels;
    for (k, &b) in [1usize, 16, 64, 256].iter().enumerate() {
        let x = &cells[..b * per];
        let calls = rate(opts.seconds, || forward(&net, &opts.device, x, b, tower));
        infer[k] = calls * b as f64;
    }

    // Training: batch 128 with uniform targets over the legal decisions and random results.
    let b = 128;
    let a = action::policy_len(g as u16);
    let mut policy = vec![0.0; b * a];
    let mut mask = vec![0.0; b * a];
    let mut legal = Vec::new();
    for (k, game) in games[..b].iter().enumerate() {
        let mut game = game.clone();
        game.legal_decisions_into(&mut legal);
        action::legal_mask(&legal, &mut mask[k * a..(k + 1) * a]);
        for &d in &legal {
            policy[k * a + action::index(d)] = 1.0 / legal.len() as f32;
        }
    }
    let value: Vec<f32> = (0..b)
        .map(|k| {
            if k % 3 == 0 {
                1.0
            } else if k % 3 == 1 {
                -1.0
            } else {
                0.0
            }
        })
        .collect();
    let ad = opts.device.clone().autodiff();
    let batch = TrainBatch::from_host(
        &layout,
        g,
        planes[..b * per].to_vec(),
        policy,
        mask,
        value,
        &ad,
    );
    let mut tnet = Some(match &opts.trained {
        Some(t) => t.load(&ad)?.1,
        None => cfg.init(&ad)?,
    });
    let mut optim = train::adam();
    let steps = rate(opts.seconds, || {
        let (n, _, _) = train::step(tnet.take().expect("net"), &mut optim, &batch, 1e-4);
        tnet = Some(n);
    });

    let peak = crate::peak::measure(opts.seconds.min(2.0));
    let flops = cfg.flops_per_position(usize::from(opts.board)) as f64;
    let infer_gflops = infer[3] * flops / 1e9;
    let train_gflops = steps * b as f64 * 3.0 * flops / 1e9;
    Ok(NetBench {
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        kernels: crate::kernels::current().name(),
        flops_per_pos: flops as u64,
        infer_pos_per_sec_b1: infer[0],
        infer_pos_per_sec_b16: infer[1],
        infer_pos_per_sec_b64: infer[2],
        infer_pos_per_sec_b256: infer[3],
        train_samples_per_sec_b128: steps * b as f64,
        peak_gflops: peak.gflops,
        peak_isa: peak.isa,
        infer_gflops_b256: infer_gflops,
        infer_peak_share_b256: infer_gflops / peak.gflops,
        train_gflops_b128: train_gflops,
        train_peak_share_b128: train_gflops / peak.gflops,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trained_network_is_read_as_checkpoints_are_and_another_games_is_refused() {
        let device = crate::default_device();
        let (cfg, _) = Trained::builtin().load(&device).unwrap();
        assert_eq!(cfg.input_planes, PLANES);
        let splinter = <crate::SplinterEncoder as crate::Encoder<
            crumble_core::games::splinter::Splinter,
        >>::BUILTIN
            .unwrap();
        let other = Trained {
            name: splinter.name.into(),
            bytes: splinter.bytes.to_vec(),
        };
        let e = other.load(&device).unwrap_err();
        assert!(matches!(e, BenchError::NotCrumble { .. }), "{e}");
        assert!(e.to_string().contains("not a Crumble network"), "{e}");
    }
}
