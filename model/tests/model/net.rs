//! The network, its evaluator and checkpoints.

use super::common::positions;
use burn::module::Module;
use burn::tensor::{Tensor, TensorData};
use crumble_core::games::crumble::Crumble;
use crumble_core::{Decision, GameState as _};
use crumble_model::bench::rasterise_all;
use crumble_model::checkpoint::{self, CheckpointError};
use crumble_model::encoders::crumble::action;
use crumble_model::encoders::crumble::planes::PLANES;
use crumble_model::train::{self, TrainBatch};
use crumble_model::{CrumbleNet, NetConfig, NetEvaluator, NetLoader, default_device};
use crumble_selfplay::evaluator::{Evaluation, Evaluator, Leaf};

fn tiny() -> NetConfig {
    NetConfig::new()
        .with_channels(8)
        .with_blocks(2)
        .with_gpool_every(2)
        .with_value_hidden(8)
        .with_seed(3)
}

fn input(games: &[Crumble]) -> Tensor<4> {
    let g = usize::from(games[0].grid_size());
    Tensor::from_data(
        TensorData::new(rasterise_all(games), [games.len(), PLANES, g, g]),
        &default_device(),
    )
}

fn outputs(net: &CrumbleNet, games: &[Crumble]) -> (Vec<f32>, Vec<f32>) {
    let o = net.forward(input(games));
    (
        o.logits.into_data().try_to_vec::<f32>().unwrap(),
        o.value.into_data().try_to_vec::<f32>().unwrap(),
    )
}

/// A training batch with one-hot policy targets on a pseudo-random legal decision and
/// alternating results.
/// `s`: the stem stride of the net the batch is for.
/// A batch of `games` whose policy target is one legal decision each.
fn batch(games: &[Crumble], s: usize, device: &burn::tensor::Device) -> TrainBatch {
    batch_of(games, s, device, |k, legal| {
        vec![(legal[(k * 7) % legal.len()], 1.0)]
    })
}

/// A batch of `games` with the policy targets `target(k, legal decisions of game k)` gives.
fn batch_of(
    games: &[Crumble],
    s: usize,
    device: &burn::tensor::Device,
    target: impl Fn(usize, &[Decision]) -> Vec<(Decision, f32)>,
) -> TrainBatch {
    let g = usize::from(games[0].grid_size());
    let a = action::policy_len(g as u16);
    let (mut policy, mut mask) = (vec![0.0; games.len() * a], vec![0.0; games.len() * a]);
    for (k, game) in games.iter().enumerate() {
        let legal = game.clone().legal_decisions();
        action::legal_mask(&legal, &mut mask[k * a..(k + 1) * a]);
        for (d, p) in target(k, &legal) {
            policy[k * a + action::index(d)] = p;
        }
    }
    let value = (0..games.len())
        .map(|k| if k % 2 == 0 { 1.0 } else { -1.0 })
        .collect();
    let layout = crumble_model::Layout {
        stride: s,
        ..crumble_model::Layout::of(&NetConfig::new())
    };
    TrainBatch::from_host(
        &layout,
        g,
        rasterise_all(games),
        policy,
        mask,
        value,
        device,
    )
}

fn trained(config: &NetConfig, games: &[Crumble], steps: usize) -> CrumbleNet {
    let ad = default_device().autodiff();
    let b = batch(games, config.stride(), &ad);
    let mut net = config.init(&ad).unwrap();
    let mut optim = train::adam();
    for _ in 0..steps {
        net = train::step(net, &mut optim, &b, 1e-3).0;
    }
    net.valid()
}

#[test]
fn one_net_runs_on_6x6_and_8x8() {
    let net = tiny().init(&default_device()).unwrap();
    for n in [6u16, 8] {
        let games = positions(n, 8, 3, 1);
        let (logits, values) = outputs(&net, &games);
        let g = usize::from(n) * 8;
        assert_eq!(logits.len(), 3 * (8 * g * g + 1));
        assert!(logits.iter().all(|v| v.is_finite()));
        assert!(values.iter().all(|v| v.abs() < 1.0));
    }
}

#[test]
fn same_batch_twice_gives_the_same_numbers() {
    let games = positions(6, 8, 5, 2);
    let net = tiny().init(&default_device()).unwrap();
    let a = outputs(&net, &games);
    let b = outputs(&net, &games);
    assert_eq!(a, b);
    // The same config builds the same weights.
    let net2 = tiny().init(&default_device()).unwrap();
    assert_eq!(outputs(&net2, &games), a);
}

#[test]
fn zero_init_outputs_start_flat_and_still_learn() {
    let games = positions(6, 8, 4, 5);
    let config = tiny();
    let net = config.init_zero_outputs(&default_device()).unwrap();
    let (logits, values) = outputs(&net, &games);
    assert!(logits.iter().all(|&v| v == 0.0), "uniform priors");
    assert!(values.iter().all(|&v| v == 0.0), "value 0");
    // Only the output layers differ: the tower is the random-output net's.
    let random = tiny().init(&default_device()).unwrap();
    assert_eq!(
        net.stem.weight.val().into_data(),
        random.stem.weight.val().into_data()
    );
    assert_ne!(outputs(&random, &games).1, values);
    // Training moves both heads away from zero.
    let ad = default_device().autodiff();
    let b = batch(&games, config.stride(), &ad);
    let mut trained = config.init_zero_outputs(&ad).unwrap();
    let mut optim = train::adam();
    for _ in 0..20 {
        trained = train::step(trained, &mut optim, &b, 1e-3).0;
    }
    let trained = trained.valid();
    let (logits, values) = outputs(&trained, &games);
    assert!(logits.iter().any(|&v| v != 0.0));
    assert!(values.iter().any(|&v| v != 0.0));
}

#[test]
fn checkpoint_round_trip_is_bit_identical() {
    let games = positions(6, 8, 4, 3);
    let cfg = tiny();
    let net = trained(&cfg, &games, 2);
    let dir = std::env::temp_dir().join(format!("crumble-model-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.crnet");
    checkpoint::save(&path, &cfg, &net).unwrap();
    let (cfg2, net2) = checkpoint::load(&path, &default_device()).unwrap();
    assert_eq!(cfg2, cfg);
    let (a, b) = (outputs(&net, &games), outputs(&net2, &games));
    assert_eq!(
        a.0.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        b.0.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    assert_eq!(
        a.1.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        b.1.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    // Trained weights differ from the initial ones (the reload did not just re-initialise).
    assert_ne!(
        outputs(&cfg.init(&default_device()).unwrap(), &games).1,
        b.1
    );

    // The ckpt: agent goes through the loader.
    use crumble_selfplay::agent::{AgentSpec, build_evaluator};
    let spec = AgentSpec::parse(&format!("ckpt:{}:10", path.display())).unwrap();
    let mut ev = build_evaluator(&spec, &Default::default(), 0, &NetLoader::new())
        .unwrap()
        .unwrap();
    let mut g0 = games[0].clone();
    let legal = g0.legal_decisions();
    let mut out = vec![Evaluation::default()];
    ev.evaluate(
        &[Leaf {
            game: &games[0],
            legal: &legal,
        }],
        &mut out,
    )
    .unwrap();
    assert_eq!(out[0].priors.len(), legal.len());
    let missing = AgentSpec::parse("ckpt:/nonexistent/x.crnet").unwrap();
    let err = build_evaluator(&missing, &Default::default(), 0, &NetLoader::new())
        .unwrap_err()
        .to_string();
    assert!(err.contains("/nonexistent/x.crnet"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn damaged_checkpoints_are_refused_clearly() {
    let cfg = tiny();
    let dev = default_device();
    let net = cfg.init(&dev).unwrap();
    let bytes = checkpoint::encode(&cfg, &net).unwrap();
    let load = |b: &[u8]| {
        checkpoint::decode(b, "x.crnet", &dev)
            .map(|_| ())
            .unwrap_err()
    };
    for cut in [0, 5, 12, 40, bytes.len() / 2, bytes.len() - 1] {
        let e = load(&bytes[..cut]);
        assert!(
            matches!(
                e,
                CheckpointError::Truncated { .. } | CheckpointError::Magic { .. }
            ),
            "cut at {cut}: {e}"
        );
        assert!(e.to_string().starts_with("x.crnet:"), "{e}");
    }
    let mut b = bytes.clone();
    b[0] = b'X';
    assert!(matches!(load(&b), CheckpointError::Magic { .. }));
    let mut b = bytes.clone();
    b[8] = 9;
    assert!(matches!(
        load(&b),
        CheckpointError::Version { found: 9, .. }
    ));
    let mut b = bytes.clone();
    let mid = b.len() - 100;
    b[mid] ^= 0x40;
    assert!(matches!(load(&b), CheckpointError::Checksum { .. }));
    let mut b = bytes.clone();
    b.push(0);
    assert!(matches!(load(&b), CheckpointError::Trailing { .. }));

    // Config and weights that disagree (consistent checksum): 8 channels, weights of 16.
    let other = checkpoint::encode(
        &tiny().with_channels(16),
        &tiny().with_channels(16).init(&dev).unwrap(),
    )
    .unwrap();
    let e = load(&splice_config(&bytes, &other));
    assert!(matches!(e, CheckpointError::Mismatch { .. }), "{e}");
    // 16 channels, weights of 8: too few bytes for the net, refused from the lengths.
    let e = load(&splice_config(&other, &bytes));
    assert!(matches!(e, CheckpointError::TooSmall { .. }), "{e}");
    // An unknown config key.
    let json = r#"{"resolution": 8, "channels": 8, "colour": 1}"#;
    let e = load(&with_config(json, &bytes));
    assert!(
        matches!(e, CheckpointError::Config { .. }) && e.to_string().contains("colour"),
        "{e}"
    );
}

/// A small file whose config claims a huge net (1024 channels × 64 blocks, ~1.2 G
/// parameters) is refused from its lengths: building the net first would allocate and fill
/// gigabytes before the weights are found not to match.
#[test]
fn checkpoint_claiming_a_huge_net_is_refused_before_allocating() {
    let cfg = tiny();
    let dev = default_device();
    let bytes = checkpoint::encode(&cfg, &cfg.init(&dev).unwrap()).unwrap();
    let json = r#"{"resolution": 8, "cell_pixels": 1, "channels": 1024, "blocks": 64,
        "gpool_every": 2, "value_hidden": 48, "seed": 0}"#;
    let e = checkpoint::decode(&with_config(json, &bytes), "bomb.crnet", &dev)
        .map(|_| ())
        .unwrap_err();
    assert!(matches!(e, CheckpointError::TooSmall { .. }), "{e}");
    let msg = e.to_string();
    assert!(
        msg.starts_with("bomb.crnet:") && msg.contains("parameters"),
        "{msg}"
    );
}

/// A tensor stored with an integer dtype is refused with a message; burn panicked loading
/// it (found by the `checkpoint` fuzz target).
#[test]
fn checkpoint_with_a_non_float_tensor_is_refused() {
    let cfg = tiny();
    let dev = default_device();
    let bytes = checkpoint::encode(&cfg, &cfg.init(&dev).unwrap()).unwrap();
    let (json, mut weights) = parts(&bytes);
    let at = weights
        .windows(4)
        .position(|w| w == b"cF32")
        .expect("a dtype in the record's metadata");
    weights[at + 1] = b'I';
    let e = checkpoint::decode(&assemble(&json, &weights), "int.crnet", &dev)
        .map(|_| ())
        .unwrap_err();
    assert!(matches!(e, CheckpointError::Mismatch { .. }), "{e}");
    assert!(e.to_string().contains("I32"), "{e}");
}

/// The count the loader checks against is exactly what `init` builds.
#[test]
fn parameter_count_matches_the_built_net() {
    let dev = default_device();
    for cfg in [
        tiny(),
        tiny().with_gpool_every(0),
        tiny().with_blocks(3).with_gpool_every(1),
        NetConfig::new().with_resolution(4).with_cell_pixels(2),
        NetConfig::new().with_blocks(0).with_value_hidden(3),
    ] {
        let net = cfg.init(&dev).unwrap();
        assert_eq!(cfg.parameter_count(), net.num_params() as u64, "{cfg:?}");
    }
    let huge = NetConfig::new().with_channels(1024).with_blocks(64);
    assert!(huge.parameter_count() > 1_000_000_000);
}

/// Parts of a checkpoint: (config json, weights).
fn parts(b: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let clen = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
    let json = b[16..16 + clen].to_vec();
    let wlen = u64::from_le_bytes(b[16 + clen..24 + clen].try_into().unwrap()) as usize;
    (json, b[24 + clen..24 + clen + wlen].to_vec())
}

fn assemble(json: &[u8], weights: &[u8]) -> Vec<u8> {
    let mut b = checkpoint::MAGIC.to_vec();
    b.extend_from_slice(&checkpoint::VERSION.to_le_bytes());
    b.extend_from_slice(&(json.len() as u32).to_le_bytes());
    b.extend_from_slice(json);
    b.extend_from_slice(&(weights.len() as u64).to_le_bytes());
    b.extend_from_slice(weights);
    let h = crumble_core::game::hash::fnv1a(&b);
    b.extend_from_slice(&h.to_le_bytes());
    b
}

/// The config of `a` with the weights of `b`.
fn splice_config(a: &[u8], b: &[u8]) -> Vec<u8> {
    assemble(&parts(a).0, &parts(b).1)
}

fn with_config(json: &str, b: &[u8]) -> Vec<u8> {
    assemble(json.as_bytes(), &parts(b).1)
}

#[test]
fn evaluator_batches_mixed_sizes_like_single_calls() {
    let cfg = tiny();
    let net = cfg.init(&default_device()).unwrap();
    let mut ev = NetEvaluator::new("test", cfg, net, default_device());
    let mut games = positions(6, 8, 3, 4);
    games.extend(positions(8, 8, 2, 5));
    games.swap(1, 3);
    let legal: Vec<_> = games.iter().map(|g| g.clone().legal_decisions()).collect();
    let leaves: Vec<Leaf<'_, Crumble>> = games
        .iter()
        .zip(&legal)
        .map(|(g, l)| Leaf { game: g, legal: l })
        .collect();
    let mut out = vec![Evaluation::default(); leaves.len()];
    ev.evaluate(&leaves, &mut out).unwrap();
    for (i, leaf) in leaves.iter().enumerate() {
        assert_eq!(out[i].priors.len(), leaf.legal.len());
        assert!((out[i].priors.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        let mut one = vec![Evaluation::default()];
        ev.evaluate(std::slice::from_ref(leaf), &mut one).unwrap();
        assert!((one[0].value - out[i].value).abs() < 1e-5);
        for (p, q) in one[0].priors.iter().zip(&out[i].priors) {
            assert!((p - q).abs() < 1e-5);
        }
    }
    // A position of another resolution is an error, not a panic.
    let g4 = Crumble::new(6, 4).unwrap();
    let l4 = g4.clone().legal_decisions();
    assert!(
        ev.evaluate(
            &[Leaf {
                game: &g4,
                legal: &l4
            }],
            &mut out[..1]
        )
        .is_err()
    );
}

#[test]
fn a_tiny_net_overfits_a_handful_of_positions() {
    let t = std::time::Instant::now();
    let games = positions(4, 4, 8, 6);
    let cfg = NetConfig::new()
        .with_resolution(4)
        .with_channels(16)
        .with_blocks(2)
        .with_gpool_every(2)
        .with_value_hidden(16);
    let ad = default_device().autodiff();
    let b = batch(&games, cfg.stride(), &ad);
    let mut net = cfg.init(&ad).unwrap();
    let mut optim = train::adam();
    let mut first = None;
    let mut last = 0.0;
    for _ in 0..300 {
        let (n, p, v) = train::step(net, &mut optim, &b, 3e-3);
        net = n;
        first.get_or_insert(p + v);
        last = p + v;
        if last < 0.05 * first.unwrap() {
            break;
        }
    }
    let first = first.unwrap();
    assert!(last < 0.1 * first, "loss {first} -> {last}");
    eprintln!(
        "overfit: loss {first:.3} -> {last:.4} in {:.1} s",
        t.elapsed().as_secs_f64()
    );
}

/// The forward pass (stem and policy as matrix multiplies on the cell layout) computes the
/// function of the plain convolutional formulation: strided stem convolution, 1×1 policy
/// convolution with depth-to-space, fine 1×1 skip.
#[test]
fn matrix_multiply_forward_matches_the_convolutions() {
    use burn::tensor::activation::relu;
    let games = positions(3, 8, 5, 11);
    let cfg = tiny().with_cell_pixels(2);
    let net = cfg.init(&default_device()).unwrap();
    let x = input(&games);
    let [b, _, g, _] = x.dims();
    let s = cfg.stride();
    let n = g / s;
    let mut h = relu(net.stem.forward(x.clone())).permute([0, 2, 3, 1]); // channels-last
    for block in &net.blocks {
        h = block.forward(h);
    }
    let h = relu(h).permute([0, 3, 1, 2]);
    let coarse = net
        .policy
        .forward(h)
        .reshape([b, 8, s, s, n, n])
        .permute([0, 1, 4, 2, 5, 3])
        .reshape([b, 8 * g * g]);
    let fine = net.policy_fine.forward(x).reshape([b, 8 * g * g]);
    let want = (coarse + fine).into_data().try_to_vec::<f32>().unwrap();
    let (got, _) = outputs(&net, &games);
    let a = 8 * g * g;
    for k in 0..b {
        for i in 0..a {
            let (w, o) = (want[k * a + i], got[k * (a + 1) + i]);
            assert!(
                (w - o).abs() < 1e-4 * (1.0 + w.abs()),
                "position {k}, logit {i}: {o} vs {w}"
            );
        }
    }
}

/// The network with the fast CPU operations computes the function of the same network with
/// burn's own operations: same cell-order logits and values, for the tiny net at two pixels
/// per cell, the default net, and a net without global pooling.
#[test]
fn fast_operations_compute_the_function_of_burns_own() {
    let configs = [
        (tiny().with_cell_pixels(2), 3u16),
        (NetConfig::new(), 6),
        (tiny().with_gpool_every(0), 4),
    ];
    for (cfg, board) in configs {
        let games = positions(board, 8, 20, 12);
        let net = cfg.init(&default_device()).unwrap();
        let (fast_l, fast_v) = outputs(&net, &games);
        let (want_l, want_v) = crumble_model::cpu_ops::with_burn_ops(|| outputs(&net, &games));
        assert_eq!(fast_l.len(), want_l.len());
        for (i, (a, w)) in fast_l.iter().zip(&want_l).enumerate() {
            assert!(
                (a - w).abs() < 1e-4 * (1.0 + w.abs()),
                "{cfg:?} logit {i}: {a} vs {w}"
            );
        }
        for (a, w) in fast_v.iter().zip(&want_v) {
            assert!((a - w).abs() < 1e-4, "value {a} vs {w}");
        }
    }
}

/// The gradient of `t` in `grads`, as host values.
fn grad_values<const D: usize>(t: Tensor<D>, grads: &burn::tensor::Gradients) -> Vec<f32> {
    t.grad(grads)
        .unwrap()
        .into_data()
        .try_to_vec::<f32>()
        .unwrap()
}

/// The gradients of both losses with respect to every kind of parameter (stem, convolutions,
/// pooling layer, residual scale, policy heads, value head) are the same with the fast CPU
/// operations as with burn's own.
#[test]
fn fast_operations_give_burns_gradients() {
    let ad = default_device().autodiff();
    for cfg in [tiny(), NetConfig::new().with_blocks(2)] {
        let games = positions(6, 8, 6, 21);
        let net = cfg.init(&ad).unwrap();
        let b = batch(&games, cfg.stride(), &ad);
        let grads_of = |net: &CrumbleNet| {
            let l = train::losses(net, &b);
            let grads = (l.policy + l.value).backward();
            let g = |t: Tensor<4>| grad_values(t, &grads);
            let g2 = |t: Tensor<2>| grad_values(t, &grads);
            let g1 = |t: Tensor<1>| grad_values(t, &grads);
            let block = &net.blocks[1];
            vec![
                ("stem", g(net.stem.weight.val())),
                ("conv1", g(block.conv1.weight.val())),
                ("conv2 bias", g1(block.conv2.bias.val())),
                ("gpool", g2(block.gpool.as_ref().unwrap().weight.val())),
                ("alpha", g1(block.alpha.val())),
                ("policy", g(net.policy.weight.val())),
                ("policy_fine", g(net.policy_fine.weight.val())),
                ("stop", g2(net.stop.as_ref().unwrap().weight.val())),
                ("value1", g2(net.value1.weight.val())),
            ]
        };
        let fast = grads_of(&net);
        let want = crumble_model::cpu_ops::with_burn_ops(|| grads_of(&net));
        for ((name, f), (_, w)) in fast.iter().zip(&want) {
            let scale = w.iter().fold(1e-3f32, |m, v| m.max(v.abs()));
            for (i, (a, b)) in f.iter().zip(w).enumerate() {
                assert!(
                    (a - b).abs() <= 1e-3 * scale,
                    "{cfg:?} {name}[{i}]: {a} vs {b}"
                );
            }
        }
    }
}

/// The encoders' part of the conformance test: declared shapes, one policy index per legal
/// decision, and symmetries that permute planes and map legal decisions onto legal ones.
#[test]
fn encoders_pass_the_encoder_conformance_test() {
    use crumble_core::GameState;
    use crumble_core::games::tictactoe::TicTacToe;
    use crumble_model::encoder::check_encoder;
    use crumble_model::{CrumbleEncoder, TicTacToeEncoder};
    let ttt = TicTacToe::from_start(&Default::default()).unwrap();
    let n = check_encoder(&TicTacToeEncoder, &ttt, 200, 1).unwrap_or_else(|v| panic!("{v}"));
    assert!(n > 1000, "{n} states checked");
    let nim = crumble_core::games::nim::Nim::from_start(&Default::default()).unwrap();
    let n =
        check_encoder(&crumble_model::NimEncoder, &nim, 200, 1).unwrap_or_else(|v| panic!("{v}"));
    assert!(n > 1000, "{n} states checked");
    for (board, res) in [(3, 2), (4, 2)] {
        let mut start = Crumble::new(board, res).unwrap();
        start.set_max_turns(30);
        let n = check_encoder(&CrumbleEncoder, &start, 6, 2).unwrap_or_else(|v| panic!("{v}"));
        assert!(n > 20, "{n} states checked");
    }
}

/// The encoder check holds an encoder's symmetry numbers to the game's: an encoder whose
/// planes map symmetry 1 as the game maps symmetry 2 is caught at the first turn start.
#[test]
fn the_encoder_check_catches_symmetries_numbered_apart_from_the_game() {
    use crumble_core::Decision;
    use crumble_core::GameState;
    use crumble_core::games::tictactoe::TicTacToe;
    use crumble_model::TicTacToeEncoder;
    use crumble_model::encoder::{Encoder, check_encoder};
    #[derive(Debug)]
    struct Swapped;
    impl Encoder<TicTacToe> for Swapped {
        type Scratch = ();
        const INPUT_PLANES: usize = 3;
        const POLICY_PLANES: usize = 1;
        fn grid(&self, _: &TicTacToe) -> usize {
            3
        }
        fn encode(&self, s: &TicTacToe, scratch: &mut (), out: &mut [f32]) {
            TicTacToeEncoder.encode(s, scratch, out)
        }
        fn policy_index(&self, s: &TicTacToe, d: Decision) -> usize {
            TicTacToeEncoder.policy_index(s, d)
        }
        fn symmetries(&self, s: &TicTacToe) -> Vec<usize> {
            TicTacToeEncoder.symmetries(s)
        }
        fn map_planes(&self, sym: usize, g: usize, src: &[f32], dst: &mut [f32]) {
            let other = [0, 2, 1, 3, 4, 5, 6, 7][sym];
            TicTacToeEncoder.map_planes(other, g, src, dst)
        }
        fn mapped_policy_index(
            &self,
            s: &TicTacToe,
            sym: usize,
            d: Decision,
        ) -> Result<usize, String> {
            TicTacToeEncoder.mapped_policy_index(s, sym, d)
        }
    }
    let ttt = TicTacToe::from_start(&Default::default()).unwrap();
    let e = check_encoder(&Swapped, &ttt, 20, 1).unwrap_err();
    assert!(e.to_string().contains("symmetry 1"), "{e}");
}

/// A network built from the tic-tac-toe encoder's shapes evaluates tic-tac-toe positions
/// (three planes in, one policy plane out, no extra logit), through the same code as
/// Crumble's.
#[test]
fn one_network_definition_serves_another_game() {
    use crumble_core::GameState;
    use crumble_core::games::tictactoe::TicTacToe;
    use crumble_model::TicTacToeEncoder;
    let cfg = tiny()
        .with_resolution(1)
        .with_cell_pixels(1)
        .with_encoder(&TicTacToeEncoder);
    let net = cfg.init(&default_device()).unwrap();
    assert_eq!(
        (net.input_planes(), net.policy_planes(), net.policy_extra()),
        (3, 1, 0)
    );
    let mut ev = NetEvaluator::with_encoder("ttt", TicTacToeEncoder, cfg, net, default_device());
    let mut g = TicTacToe::from_start(&Default::default()).unwrap();
    g.apply(crumble_core::Decision(4)).unwrap();
    let mut legal = Vec::new();
    g.legal_decisions_into(&mut legal);
    let mut out = vec![Evaluation::default()];
    ev.evaluate(
        &[Leaf {
            game: &g,
            legal: &legal,
        }],
        &mut out,
    )
    .unwrap();
    assert_eq!(out[0].priors.len(), 8);
    assert!((out[0].priors.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    assert!((-1.0..=1.0).contains(&out[0].value));
}

/// The policy loss over the gathered legal logits equals the cross-entropy of a softmax over
/// the legal decisions of the full logits (what masking every illegal logit computes), and
/// the value loss the mean squared error.
#[test]
fn policy_loss_over_the_legal_logits_is_the_masked_softmax_loss() {
    let games = positions(6, 8, 6, 21);
    let cfg = tiny();
    let net = cfg.init(&default_device()).unwrap();
    let (logits, values) = outputs(&net, &games);
    let g = usize::from(games[0].grid_size());
    let a = action::policy_len(g as u16);
    let (mut policy, mut value) = (0.0f64, 0.0f64);
    for (k, game) in games.iter().enumerate() {
        let legal = game.clone().legal_decisions();
        let row = &logits[k * a..(k + 1) * a];
        let max = legal
            .iter()
            .map(|&d| row[action::index(d)])
            .fold(f32::NEG_INFINITY, f32::max);
        let sum: f64 = legal
            .iter()
            .map(|&d| f64::from(row[action::index(d)] - max).exp())
            .sum();
        let chosen = row[action::index(legal[(k * 7) % legal.len()])];
        policy -= f64::from(chosen - max) - sum.ln();
        let z = if k % 2 == 0 { 1.0 } else { -1.0 };
        value += (f64::from(values[k]) - z).powi(2);
    }
    let n = games.len() as f64;
    let l = train::losses(&net, &batch(&games, cfg.stride(), &default_device()));
    let (got_p, got_v) = (
        f64::from(train::scalar(&l.policy)),
        f64::from(train::scalar(&l.value)),
    );
    assert!(
        (got_p - policy / n).abs() < 1e-4 * (1.0 + policy / n),
        "{got_p} vs {}",
        policy / n
    );
    assert!((got_v - value / n).abs() < 1e-5, "{got_v} vs {}", value / n);
}

/// `bench selfplay` plays its games and accounts for its time: shares between 0 and 1 that
/// add up to the whole, a mean batch no larger than the games played at once.
#[test]
fn selfplay_bench_plays_its_games_and_splits_its_time() {
    use crumble_selfplay::config::{SearchConfig, SelfPlayConfig};
    let search = SearchConfig {
        simulations: 8,
        ..SearchConfig::default()
    };
    let sp = SelfPlayConfig {
        max_turns: 12,
        parallel_games: 3,
        ..SelfPlayConfig::default()
    };
    let net = tiny();
    let dir = std::env::temp_dir().join(format!(
        "crumble-selfplay-bench-test-{}",
        std::process::id()
    ));
    let standard = Crumble::new(4, 8).unwrap();
    let b = crumble_model::selfplay_bench::run(&search, &sp, &net, &standard, 3, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    let b = b.unwrap();
    assert_eq!(b.games, 3);
    assert!(b.selfplay_sims_per_sec > 0.0 && b.net_pos_per_sec_at_mean_batch > 0.0);
    assert!(
        (1.0..=3.0).contains(&b.mean_batch),
        "mean batch {}",
        b.mean_batch
    );
    for share in [b.share_net, b.share_encode, b.share_tree] {
        assert!((0.0..=1.0).contains(&share), "{b:?}");
    }
    assert!(
        (b.share_net + b.share_encode + b.share_tree - 1.0).abs() < 1e-9 || b.share_tree == 0.0
    );
}

/// End to end: the evaluator's priors over each leaf's legal decisions (in the order of the
/// legal list) and its values are the softmax of burn's own forward pass at those decisions'
/// policy indices and its value, for the tiny net, the default net and a net without global
/// pooling.
#[test]
fn evaluator_priors_and_values_match_burns_forward_pass() {
    let games = positions(6, 8, 12, 5);
    for cfg in [tiny(), NetConfig::new(), tiny().with_gpool_every(0)] {
        let net = cfg.init(&default_device()).unwrap();
        // The reference: burn's own operations on the encoder's layout, in policy-index order.
        let (logits, values) = crumble_model::cpu_ops::with_burn_ops(|| outputs(&net, &games));
        let a = logits.len() / games.len();
        let mut ev = NetEvaluator::new("t", cfg.clone(), net, default_device());
        let legal: Vec<Vec<_>> = games.iter().map(|g| g.clone().legal_decisions()).collect();
        let leaves: Vec<Leaf<'_, Crumble>> = games
            .iter()
            .zip(&legal)
            .map(|(game, legal)| Leaf { game, legal })
            .collect();
        let mut out = vec![Evaluation::default(); games.len()];
        ev.evaluate(&leaves, &mut out).unwrap();
        for (k, legal) in legal.iter().enumerate() {
            let mut want = Vec::new();
            action::legal_softmax(&logits[k * a..(k + 1) * a], legal, &mut want);
            assert_eq!(out[k].priors.len(), legal.len());
            for (p, q) in out[k].priors.iter().zip(&want) {
                assert!((p - q).abs() < 1e-4, "{cfg:?} position {k}: {p} vs {q}");
            }
            assert!((out[k].value - values[k].clamp(-1.0, 1.0)).abs() < 1e-4);
        }
    }
}

/// Subnormal weights are flushed to zero when a checkpoint is read, counted, and change no
/// output; the built-in network (7% of whose stored weights are subnormal) loads without one.
#[test]
fn subnormal_weights_are_flushed_on_load_without_changing_outputs() {
    use burn::module::{ModuleMapper, ModuleVisitor, Param};
    /// Sets the first weight of every tensor to a subnormal value.
    struct Spoil(u64);
    impl ModuleMapper for Spoil {
        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            let (id, value, mapper) = param.consume();
            let mut v = value.to_data().try_to_vec::<f32>().unwrap();
            v[0] = 1e-40 * if self.0.is_multiple_of(2) { 1.0 } else { -1.0 };
            self.0 += 1;
            let t = Tensor::from_data(TensorData::new(v, value.dims()), &value.device());
            Param::from_mapped_value(id, t, mapper)
        }
    }
    struct Subnormals(u64);
    impl ModuleVisitor for Subnormals {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            let v = param.val().into_data().try_to_vec::<f32>().unwrap();
            self.0 += v.iter().filter(|x| x.is_subnormal()).count() as u64;
        }
    }
    let count = |net: &CrumbleNet| {
        let mut c = Subnormals(0);
        net.visit(&mut c);
        c.0
    };
    let games = positions(6, 8, 4, 3);
    let cfg = tiny();
    let mut spoil = Spoil(0);
    let net = cfg.init(&default_device()).unwrap().map(&mut spoil);
    assert_eq!(count(&net), spoil.0);
    let (flushed, n) = train::flush_subnormal_weights(net.clone());
    assert_eq!((n, count(&flushed)), (spoil.0, 0));
    let bytes = checkpoint::encode(&cfg, &net).unwrap();
    let (_, loaded) = checkpoint::decode(&bytes, "x.crnet", &default_device()).unwrap();
    assert_eq!(count(&loaded), 0);
    assert_eq!(outputs(&loaded, &games), outputs(&net, &games));
    let builtin = <crumble_model::CrumbleEncoder as crumble_model::Encoder<Crumble>>::BUILTIN
        .unwrap()
        .load(&default_device())
        .unwrap()
        .1;
    assert_eq!(count(&builtin), 0);
}

/// The network compiled into the program loads through the `bot` agent, fits Crumble, is
/// refused for a game without one (Nim), and its search plays a legal move from the
/// standard start.
#[test]
fn builtin_network_loads_and_plays_a_move() {
    use crumble_model::NimEncoder;
    use crumble_selfplay::agent::{AgentSpec, build_evaluator};
    use crumble_selfplay::{Search, SearchConfig};
    let spec = AgentSpec::parse("bot:16").unwrap();
    let cfg = SearchConfig::default();
    let mut ev = build_evaluator::<Crumble>(&spec, &cfg, 0, &NetLoader::new())
        .unwrap()
        .unwrap();
    let mut game = Crumble::new(6, 8).unwrap();
    let mut search = Search::new(cfg.for_play(), 0);
    let out = search.search_with(&game, 16, false, ev.as_mut()).unwrap();
    assert!(out.value.is_finite() && out.value.abs() <= 1.0);
    let d = search.pick(0.0);
    assert!(game.legal_decisions().contains(&d));
    game.apply(d).unwrap();
    // Nim has no built-in network: refused with the reason, not a panic.
    let loader = NetLoader::for_encoder(NimEncoder);
    let err = build_evaluator::<crumble_core::games::nim::Nim>(&spec, &cfg, 0, &loader)
        .unwrap_err()
        .to_string();
    assert!(err.contains("built-in"), "{err}");
}

/// The ownership head: `forward`'s grid-order output against targets in the encoder's
/// layout gives exactly the loss `losses` computes in the cell order (so the cell order of
/// targets and outputs agree), samples without a target add nothing, and training on it
/// lowers it. A net without the head has no ownership output and no such loss.
#[test]
fn the_ownership_loss_is_the_grid_cells_squared_error_and_trains() {
    use crumble_model::{CrumbleEncoder, Encoder};
    let games = positions(6, 8, 6, 5);
    let cfg = tiny().with_ownership(true);
    let device = default_device();
    let net = cfg.init(&device).unwrap();
    let g = usize::from(games[0].grid_size());
    let area = g * g;
    // Targets: each game's own colours for its decider; the last sample has none.
    let mut target = vec![0.0f32; games.len() * area];
    let mut has = vec![1.0f32; games.len()];
    for (k, game) in games.iter().enumerate() {
        let view = game.decider().unwrap().into();
        assert!(CrumbleEncoder.ownership(game, view, 0, &mut target[k * area..(k + 1) * area]));
    }
    has[games.len() - 1] = 0.0;
    let layout = crumble_model::Layout {
        stride: cfg.stride(),
        ..crumble_model::Layout::of(&NetConfig::new())
    };
    let with = |b: TrainBatch| b.with_ownership(&layout, g, &target, &has, &device);
    let own = net.forward(input(&games)).ownership.unwrap();
    let own = own.into_data().try_to_vec::<f32>().unwrap();
    assert_eq!(own.len(), games.len() * area);
    let mut want = 0.0f64;
    for k in 0..games.len() - 1 {
        for i in 0..area {
            want += f64::from(own[k * area + i] - target[k * area + i]).powi(2);
        }
    }
    want /= ((games.len() - 1) * area) as f64;
    let l = train::losses(&net, &with(batch(&games, cfg.stride(), &device)));
    let got = f64::from(train::scalar(&l.ownership.unwrap()));
    assert!((got - want).abs() < 1e-5, "{got} vs {want}");
    // Training on the ownership loss alone lowers it.
    let ad = device.clone().autodiff();
    let b = batch(&games, cfg.stride(), &ad).with_ownership(&layout, g, &target, &has, &ad);
    let weights = train::LossWeights {
        ownership: 1.0,
        ..only_policy()
    };
    halves_in_training(&cfg, &b, weights, |l| l.ownership.unwrap());
    // Without the head: no output, no loss, even with targets.
    let plain = tiny().init(&device).unwrap();
    assert!(plain.forward(input(&games)).ownership.is_none());
    let l = train::losses(&plain, &with(batch(&games, tiny().stride(), &device)));
    assert!(l.ownership.is_none());
}

/// The short-term value head: its loss is the mean squared error of its output, training on
/// it lowers it, and a net without the head has neither.
#[test]
fn the_short_term_value_loss_is_its_squared_error_and_trains() {
    let games = positions(6, 8, 6, 9);
    let cfg = tiny().with_short_value(true);
    let device = default_device();
    let targets: Vec<f32> = (0..games.len()).map(|k| 0.8 - 0.3 * k as f32).collect();
    let net = cfg.init(&device).unwrap();
    let out = net.forward(input(&games)).short_value.unwrap();
    let out = out.into_data().try_to_vec::<f32>().unwrap();
    let want = out
        .iter()
        .zip(&targets)
        .map(|(o, t)| f64::from(o - t).powi(2))
        .sum::<f64>()
        / games.len() as f64;
    let b = batch(&games, cfg.stride(), &device).with_short_values(targets.clone(), &device);
    let got = f64::from(train::scalar(&train::losses(&net, &b).short_value.unwrap()));
    assert!((got - want).abs() < 1e-5, "{got} vs {want}");
    let ad = device.clone().autodiff();
    let b = batch(&games, cfg.stride(), &ad).with_short_values(targets, &ad);
    let weights = train::LossWeights {
        short_value: 1.0,
        ..only_policy()
    };
    halves_in_training(&cfg, &b, weights, |l| l.short_value.unwrap());
    let plain = tiny().init(&device).unwrap();
    assert!(plain.forward(input(&games)).short_value.is_none());
}

/// The soft policy head: its loss is the cross-entropy of its logits over the legal decisions
/// against the policy target to the power 1/4, normalised (computed here by hand from
/// `forward`'s logits in policy-index order), training on it lowers it, and a net without
/// the head has neither.
#[test]
fn the_soft_policy_loss_is_against_the_quartic_root_target_and_trains() {
    let games = positions(6, 8, 6, 13);
    let cfg = tiny().with_soft_policy(true);
    let device = default_device();
    // The first three legal decisions (or fewer) share the target 7 : 2 : 1.
    let shares = |legal: &[Decision]| {
        let p = &[0.7f32, 0.2, 0.1][..legal.len().min(3)];
        p.iter()
            .map(|x| x / p.iter().sum::<f32>())
            .collect::<Vec<_>>()
    };
    let target = |_: usize, legal: &[Decision]| legal.iter().copied().zip(shares(legal)).collect();
    let net = cfg.init(&device).unwrap();
    let soft = net.forward(input(&games)).soft_logits.unwrap();
    let [b, a] = soft.dims();
    let soft = soft.into_data().try_to_vec::<f32>().unwrap();
    let mut want = 0.0f64;
    for (k, game) in games.iter().enumerate() {
        let legal = game.clone().legal_decisions();
        let roots: Vec<f64> = shares(&legal)
            .iter()
            .map(|&p| f64::from(p).powf(0.25))
            .collect();
        let logit = |d: Decision| f64::from(soft[k * a + action::index(d)]);
        let lse = legal.iter().map(|&d| logit(d).exp()).sum::<f64>().ln();
        for (i, root) in roots.iter().enumerate() {
            want -= root / roots.iter().sum::<f64>() * (logit(legal[i]) - lse);
        }
    }
    want /= b as f64;
    let l = train::losses(&net, &batch_of(&games, cfg.stride(), &device, target));
    let got = f64::from(train::scalar(&l.soft_policy.unwrap()));
    assert!((got - want).abs() < 1e-4, "{got} vs {want}");
    let ad = device.clone().autodiff();
    let weights = train::LossWeights {
        soft_policy: 1.0,
        ..only_policy()
    };
    let b = batch_of(&games, cfg.stride(), &ad, target);
    halves_in_training(&cfg, &b, weights, |l| l.soft_policy.unwrap());
    let plain = tiny().init(&device).unwrap();
    assert!(plain.forward(input(&games)).soft_logits.is_none());
    assert!(
        train::losses(&plain, &batch(&games, tiny().stride(), &device))
            .soft_policy
            .is_none()
    );
}

/// Loss weights that train the policy alone (the heads under test add their own).
fn only_policy() -> train::LossWeights {
    train::LossWeights {
        value: 0.0,
        ownership: 0.0,
        short_value: 0.0,
        soft_policy: 0.0,
    }
}

/// 30 steps of training `cfg`'s net on `b` with `weights` at least halve the loss `pick`
/// reads (an auxiliary head learns its target).
fn halves_in_training(
    cfg: &NetConfig,
    b: &TrainBatch,
    weights: train::LossWeights,
    pick: impl Fn(train::Losses) -> burn::tensor::Tensor<1>,
) {
    let mut net = cfg.init(&b.value.device()).unwrap();
    let mut optim = train::adam();
    let first = train::scalar(&pick(train::losses(&net, b)));
    for _ in 0..30 {
        net = train::train_step(net, &mut optim, b, 0.01, weights).0;
    }
    let last = train::scalar(&pick(train::losses(&net, b)));
    assert!(last < 0.5 * first, "{first} -> {last}");
}
