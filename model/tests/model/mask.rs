//! The board mask of a network whose board does not fill its grid (Crumo's hexagon): what
//! lies off the board must not reach the board's logits or the value, and global pooling
//! averages over the board alone.

use burn::tensor::{Tensor, TensorData};
use crumble_model::{NetConfig, default_device};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const PLANES: usize = 5;
const MASK: usize = 4;
const G: usize = 7;

fn masked_net(mask: Option<usize>) -> crumble_model::CrumbleNet {
    NetConfig::new()
        .with_resolution(1)
        .with_cell_pixels(1)
        .with_channels(8)
        .with_blocks(2)
        .with_gpool_every(1)
        .with_value_hidden(8)
        .with_input_planes(PLANES)
        .with_policy_planes(2)
        .with_policy_extra(1)
        .with_mask_plane(mask)
        .with_seed(5)
        .init(&default_device())
        .unwrap()
}

/// A hexagon-like board: cell (x, y) of the G × G grid is on it when |x - y| <= G / 2.
fn on_board(x: usize, y: usize) -> bool {
    x.abs_diff(y) <= G / 2
}

/// Two positions with random values on the board and `junk` (or zeros) off it; the mask
/// plane is 1 exactly on the board.
fn planes(rng: &mut ChaCha8Rng, junk: bool) -> Vec<f32> {
    let mut v = vec![0.0; 2 * PLANES * G * G];
    for b in 0..2 {
        for p in 0..PLANES {
            for y in 0..G {
                for x in 0..G {
                    let i = ((b * PLANES + p) * G + y) * G + x;
                    let r: f32 = rng.random_range(0.0..1.0);
                    v[i] = match (p == MASK, on_board(x, y)) {
                        (true, on) => f32::from(u8::from(on)),
                        (false, true) => f32::from(u8::from(r < 0.4)),
                        (false, false) if junk => 5.0 * r - 2.0,
                        (false, false) => 0.0,
                    };
                }
            }
        }
    }
    v
}

fn run(net: &crumble_model::CrumbleNet, v: Vec<f32>) -> (Vec<f32>, Vec<f32>) {
    let x = Tensor::from_data(TensorData::new(v, [2, PLANES, G, G]), &default_device());
    let o = net.forward(x);
    (
        o.logits.into_data().try_to_vec::<f32>().unwrap(),
        o.value.into_data().try_to_vec::<f32>().unwrap(),
    )
}

/// The board's logits, the extra logit and the value of a masked net are the same whatever
/// lies off the board; an unmasked net's are not (so the test measures the mask).
#[test]
fn off_board_cells_reach_neither_the_board_nor_the_value() {
    let seeds = [1u64, 2, 3];
    for (net, masked) in [(masked_net(Some(MASK)), true), (masked_net(None), false)] {
        let mut differs = false;
        for s in seeds {
            let clean = planes(&mut ChaCha8Rng::seed_from_u64(s), false);
            let junk = planes(&mut ChaCha8Rng::seed_from_u64(s), true);
            let (la, va) = run(&net, clean);
            let (lb, vb) = run(&net, junk);
            let per = 2 * G * G + 1;
            for b in 0..2 {
                for i in 0..per {
                    let cell = i % (G * G);
                    let board_logit = i == per - 1 || on_board(cell % G, cell / G);
                    let (x, y) = (la[b * per + i], lb[b * per + i]);
                    if board_logit {
                        if masked {
                            assert!((x - y).abs() < 1e-5, "position {b}, logit {i}: {x} vs {y}");
                        }
                        differs |= (x - y).abs() > 1e-4;
                    }
                }
                if masked {
                    assert!(
                        (va[b] - vb[b]).abs() < 1e-5,
                        "value {b}: {} vs {}",
                        va[b],
                        vb[b]
                    );
                }
                differs |= (va[b] - vb[b]).abs() > 1e-4;
            }
        }
        assert_eq!(differs, !masked, "masked: {masked}");
    }
}

/// A mask plane outside the input planes is refused, and a checkpoint keeps the mask.
#[test]
fn the_mask_plane_is_checked_and_saved() {
    let bad = NetConfig::new()
        .with_input_planes(3)
        .with_mask_plane(Some(3));
    let e = bad.validate().unwrap_err().to_string();
    assert!(e.contains("mask_plane 3"), "{e}");
    let cfg = NetConfig::new()
        .with_resolution(1)
        .with_channels(4)
        .with_blocks(1)
        .with_input_planes(PLANES)
        .with_policy_planes(2)
        .with_mask_plane(Some(MASK));
    let net = cfg.init(&default_device()).unwrap();
    let bytes = crumble_model::checkpoint::encode(&cfg, &net).unwrap();
    let (back, _) = crumble_model::checkpoint::decode(&bytes, "test", &default_device()).unwrap();
    assert_eq!(back.mask_plane, Some(MASK));
}
