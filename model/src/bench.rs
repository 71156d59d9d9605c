//! `crumble bench net`: FLOPs, inference throughput (the host-side [`crate::fast::FastNet`]
//! that [`crate::NetEvaluator`] runs, or burn's own forward pass on the device for
//! comparison) and training throughput (burn) of a network on real positions (from seeded
//! random games), the numbers `scripts/bench_torch.py` prints for the identical PyTorch
//! network.

use crate::action;
use crate::net::NetConfig;
use crate::planes::{PLANES, Rasteriser};
use crate::train::{self, TrainBatch};
use burn::module::Module;
use burn::tensor::{Device, Tensor, TensorData};
use crumble_core::{Game, random};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// The figures of one benchmark run; the JSON keys are the field names.
#[derive(Debug, Clone, serde::Serialize)]
pub struct NetBench {
    pub cores: usize,
    pub flops_per_pos: u64,
    pub infer_pos_per_sec_b1: f64,
    pub infer_pos_per_sec_b16: f64,
    pub infer_pos_per_sec_b64: f64,
    pub infer_pos_per_sec_b256: f64,
    pub train_samples_per_sec_b128: f64,
}

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    pub config: NetConfig,
    /// Board size `N` of the positions (grid `N·R`).
    pub board: u16,
    /// Minimum measuring time per figure, seconds (after one warm-up pass).
    pub seconds: f64,
    /// The device of training, and of inference when `inference` is [`Inference::Burn`].
    pub device: Device,
    pub inference: Inference,
}

/// Which forward pass the inference figures time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inference {
    /// [`crate::fast::FastNet`] on the host, as [`crate::NetEvaluator`] runs it.
    Host,
    /// burn's [`crate::CrumbleNet::forward_cells`] on the device, results read back to the
    /// host: what inference would cost without the host path.
    Burn,
}

/// `count` positions from seeded random games (decision by decision, so every phase occurs),
/// each live with at least two legal decisions.
pub fn sample_positions(board: u16, resolution: u16, count: usize, seed: u64) -> Vec<Game> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut legal = Vec::new();
    let mut game = Game::new(board, resolution).expect("board size");
    game.set_max_turns(120);
    while out.len() < count {
        if game.is_over() {
            game = Game::new(board, resolution).expect("board size");
            game.set_max_turns(120);
        }
        game.legal_decisions_into(&mut legal);
        if legal.len() > 1 && rand::Rng::random_bool(&mut rng, 0.3) {
            out.push(game.clone());
        }
        if game.at_turn_start() && rand::Rng::random_bool(&mut rng, 0.5) {
            random::play_random_turn(&mut game, &mut rng);
        } else {
            let d = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
            game.apply_unchecked(d);
        }
    }
    out
}

/// Rasterised planes of `games`, `[B·PLANES·G·G]`.
pub fn rasterise_all(games: &[Game]) -> Vec<f32> {
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

/// Positions per second of the host-side forward pass at batch `b` (positions from seeded
/// random games on a board of `board`), measured for at least `seconds`.
pub fn host_inference_rate(
    net: &crate::CrumbleNet,
    cfg: &NetConfig,
    board: u16,
    b: usize,
    seconds: f64,
) -> f64 {
    let b = b.max(1);
    let g = usize::from(board) * cfg.resolution;
    let planes = rasterise_all(&sample_positions(board, cfg.resolution as u16, b, 1));
    let per = PLANES * g * g;
    let layout = crate::Layout::of(cfg);
    let mut cells = vec![0.0; planes.len()];
    for (src, dst) in planes.chunks_exact(per).zip(cells.chunks_exact_mut(per)) {
        layout.to_cells(src, g, dst);
    }
    let fast = crate::fast::FastNet::new(net);
    let mut scratch = crate::fast::Scratch::default();
    let (mut logits, mut values) = (Vec::new(), Vec::new());
    let n = g / layout.stride;
    rate(seconds, || {
        fast.forward(&cells, b, n, &mut scratch, &mut logits, &mut values);
    }) * b as f64
}

/// Measures the network of `opts.config`.
pub fn run(opts: &BenchOptions) -> Result<NetBench, crate::net::ConfigError> {
    let cfg = &opts.config;
    let r = cfg.resolution as u16;
    let g = usize::from(opts.board) * cfg.resolution;
    let games = sample_positions(opts.board, r, 256, 1);
    let planes = rasterise_all(&games);
    let per = PLANES * g * g;
    let layout = crate::Layout::of(cfg);
    let s = layout.stride;
    let n = g / s;
    let mut cells = vec![0.0; planes.len()];
    for (src, dst) in planes.chunks_exact(per).zip(cells.chunks_exact_mut(per)) {
        layout.to_cells(src, g, dst);
    }
    let net = cfg.init(&opts.device)?.valid();

    let mut infer = [0.0; 4];
    match opts.inference {
        // As NetEvaluator runs it: the host-side forward pass (crate::fast).
        Inference::Host => {
            let fast = crate::fast::FastNet::new(&net);
            let mut scratch = crate::fast::Scratch::default();
            let (mut logits, mut values) = (Vec::new(), Vec::new());
            for (k, &b) in [1usize, 16, 64, 256].iter().enumerate() {
                let x = &cells[..b * per];
                let calls = rate(opts.seconds, || {
                    fast.forward(x, b, n, &mut scratch, &mut logits, &mut values);
                });
                infer[k] = calls * b as f64;
            }
        }
        // Host buffer -> device tensor -> forward -> both outputs back on the host.
        Inference::Burn => {
            for (k, &b) in [1usize, 16, 64, 256].iter().enumerate() {
                let x = &cells[..b * per];
                let calls = rate(opts.seconds, || {
                    let input = Tensor::<6>::from_data(
                        TensorData::new(x.to_vec(), [b, n, n, s, s, PLANES]),
                        &opts.device,
                    );
                    let out = net.forward_cells(input);
                    std::hint::black_box((out.logits.into_data(), out.value.into_data()));
                });
                infer[k] = calls * b as f64;
            }
        }
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
    let mut tnet = Some(cfg.init(&ad)?);
    let mut optim = train::adam();
    let steps = rate(opts.seconds, || {
        let (n, _, _) = train::step(tnet.take().expect("net"), &mut optim, &batch, 1e-4);
        tnet = Some(n);
    });

    Ok(NetBench {
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        flops_per_pos: cfg.flops_per_position(usize::from(opts.board)),
        infer_pos_per_sec_b1: infer[0],
        infer_pos_per_sec_b16: infer[1],
        infer_pos_per_sec_b64: infer[2],
        infer_pos_per_sec_b256: infer[3],
        train_samples_per_sec_b128: steps * b as f64,
    })
}
