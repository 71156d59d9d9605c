//! Helpers shared by the model tests.

use crumble_core::games::crumble::Crumble;
use crumble_core::games::crumble::symmetry;
use crumble_core::{Decision, GameState};
use crumble_model::encoder::Encoder;
use crumble_model::{NetConfig, NetEvaluator, Sym};
use crumble_selfplay::SearchRecord;
use crumble_selfplay::evaluator::{Evaluation, Evaluator as _, Leaf};

/// Positions from seeded random games in every phase (see `bench::sample_positions`).
pub fn positions(board: u16, resolution: u16, count: usize, seed: u64) -> Vec<Crumble> {
    crumble_model::bench::sample_positions(board, resolution, count, seed)
}

/// The image of a turn-start state under `sym` (the rules crate's map of positions).
pub fn transformed(game: &Crumble, sym: Sym) -> Crumble {
    symmetry::image(game, sym).expect("a turn start has an image under every symmetry")
}

/// The input planes `e` writes for `s`.
pub fn planes<G: GameState, E: Encoder<G>>(e: &E, s: &G) -> Vec<f32> {
    let g = e.grid(s);
    let mut out = vec![f32::NAN; E::INPUT_PLANES * g * g];
    e.encode(s, &mut E::Scratch::default(), &mut out);
    out
}

/// Holds `e`'s symmetries of `s` to the engine's: for each symmetry `k`, the mapped planes of
/// `s` are the planes of `image(k)` (the engine's image of `s`), and the policy target of a
/// uniform search through `k` is 1 at the policy index of every legal decision of the image,
/// with as many legal decisions marked as `s` has. `what` names the case in messages.
pub fn check_symmetries<G: GameState, E: Encoder<G>>(
    e: &E,
    s: &G,
    image: impl Fn(usize) -> G,
    what: &str,
) {
    let g = e.grid(s);
    let p = planes(e, s);
    let mut legal = Vec::new();
    s.clone().legal_decisions_into(&mut legal);
    let uniform = SearchRecord {
        value: 0.0,
        full: true,
        proven: None,
        policy: legal.iter().map(|&d| (d, 1.0)).collect(),
        prior: Vec::new(),
        joint: Vec::new(),
    };
    for k in e.symmetries(s) {
        let a = e.policy_len(g);
        let (mut target, mut mask) = (vec![0.0; a], vec![0.0; a]);
        e.policy_target(s, &uniform, k, &mut target, &mut mask)
            .unwrap();
        let ts = image(k);
        let mut mapped = vec![f32::NAN; p.len()];
        e.map_planes(k, g, &p, &mut mapped);
        assert_eq!(mapped, planes(e, &ts), "{what} symmetry {k}");
        let mut legal_t = Vec::new();
        ts.clone().legal_decisions_into(&mut legal_t);
        assert_eq!(legal_t.len(), legal.len(), "{what} symmetry {k}");
        for &d in &legal_t {
            assert_eq!(target[e.policy_index(&ts, d)], 1.0, "{what} symmetry {k}");
        }
        assert_eq!(mask.iter().filter(|&&m| m > 0.0).count(), legal.len());
    }
}

/// A small network's settings for the shapes of encoder `e`.
pub fn small_net_config<G: GameState, E: Encoder<G>>(e: &E) -> NetConfig {
    NetConfig::new()
        .with_channels(8)
        .with_blocks(1)
        .with_value_hidden(8)
        .with_resolution(1)
        .with_cell_pixels(1)
        .with_encoder(e)
}

/// A small network built from encoder `e`'s shapes evaluates each of `states`: a prior per
/// legal decision, summing to 1, and a value in [-1, 1].
pub fn check_net_evaluates<G: GameState, E: Encoder<G>>(name: &str, e: E, states: &[G]) {
    let cfg = small_net_config(&e);
    let device = crumble_model::default_device();
    let net = cfg.init(&device).unwrap();
    let mut ev = NetEvaluator::with_encoder(name, e, cfg, net, device);
    for s in states {
        let mut legal: Vec<Decision> = Vec::new();
        s.clone().legal_decisions_into(&mut legal);
        let mut out = vec![Evaluation::default()];
        ev.evaluate(
            &[Leaf {
                game: s,
                legal: &legal,
            }],
            &mut out,
        )
        .unwrap();
        assert_eq!(out[0].priors.len(), legal.len());
        assert!((out[0].priors.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!((-1.0..=1.0).contains(&out[0].value));
    }
}

/// The ownership target of `end` for `view` (asserting the encoder has one), and through
/// every symmetry of `end` the target of the mapped position.
pub fn ownership_seen_through_symmetries<G: GameState, E: Encoder<G>>(
    e: &E,
    end: &G,
    view: crumble_core::Player,
) -> Vec<f32> {
    let g = e.grid(end);
    let target = |s: &G, sym: usize| {
        let mut out = vec![0.0; g * g];
        assert!(
            e.ownership(s, view, sym, &mut out),
            "the encoder has a target"
        );
        out
    };
    for sym in end.symmetries() {
        let image = end.symmetry_image(sym).unwrap();
        assert_eq!(target(end, sym), target(&image, 0), "symmetry {sym}");
    }
    target(end, 0)
}
