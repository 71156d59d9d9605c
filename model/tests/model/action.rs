//! Decisions <-> policy indices, legal masks, softmax, move priors.

use super::common::positions;
use crumble_core::Decision;
use crumble_core::GameState as _;
use crumble_core::games::crumble::{Crumble, DecisionKind};
use crumble_model::encoders::crumble::action;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn every_legal_decision_round_trips() {
    let mut checked = 0usize;
    for (n, r) in [(6u16, 8u16), (8, 8), (4, 2), (3, 4)] {
        for mut game in positions(n, r, 150, u64::from(n * 100 + r)) {
            let g = game.grid_size();
            let a = action::policy_len(g);
            assert_eq!(a, 8 * usize::from(g) * usize::from(g) + 1);
            let legal = game.legal_decisions();
            let mut mask = vec![0.0; a];
            action::legal_mask(&legal, &mut mask);
            assert_eq!(mask.iter().sum::<f32>() as usize, legal.len());
            for &d in &legal {
                let i = action::index(d);
                assert!(i < a);
                assert_eq!(mask[i], 1.0);
                assert_eq!(action::decision(i, g), Some(d));
                let kind = d.decode(g).unwrap();
                assert_eq!(Decision::encode(kind, g), d);
                match (kind, action::plane_cell(d, g)) {
                    (DecisionKind::Stop, None) => assert_eq!(i, a - 1),
                    (k, Some((plane, y, x))) => {
                        let (kx, ky, kp) = match k {
                            DecisionKind::Split { cut, x, y } => (
                                x,
                                y,
                                if cut == crumble_core::games::crumble::Cut::H {
                                    0
                                } else {
                                    1
                                },
                            ),
                            DecisionKind::Join { x, y } => (x, y, 2),
                            DecisionKind::End { x, y } => (x, y, 3),
                            DecisionKind::Step { dir, x, y } => (
                                x,
                                y,
                                4 + crumble_core::games::crumble::Dir::ALL
                                    .iter()
                                    .position(|&e| e == dir)
                                    .unwrap(),
                            ),
                            DecisionKind::Stop => unreachable!(),
                        };
                        assert_eq!((plane, y, x), (kp, usize::from(ky), usize::from(kx)), "{k}");
                        assert_eq!(
                            i,
                            plane * usize::from(g) * usize::from(g) + y * usize::from(g) + x
                        );
                    }
                    (k, None) => panic!("{k} has no cell"),
                }
                checked += 1;
            }
            assert_eq!(action::decision(a, g), None);
        }
    }
    assert!(checked > 5000, "only {checked} decisions checked");
}

#[test]
fn softmax_sums_to_one_over_legal_and_zero_elsewhere() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for mut game in positions(6, 8, 60, 9) {
        let legal = game.legal_decisions();
        let a = action::policy_len(game.grid_size());
        for scale in [0.0f32, 1.0, 30.0, 1e4, 1e30] {
            let logits: Vec<f32> = (0..a)
                .map(|_| rng.random_range(-1.0..1.0) * scale)
                .collect();
            let mut p = Vec::new();
            action::legal_softmax(&logits, &legal, &mut p);
            assert_eq!(p.len(), legal.len());
            assert!(p.iter().all(|v| v.is_finite() && *v >= 0.0));
            assert!(
                (p.iter().sum::<f32>() - 1.0).abs() < 1e-5,
                "sum {}",
                p.iter().sum::<f32>()
            );
            let mut full = vec![9.0; a];
            action::legal_softmax_full(&logits, &legal, &mut full);
            let mut on_legal = 0.0;
            for (i, v) in full.iter().enumerate() {
                if legal.binary_search(&Decision(i as u32)).is_ok() {
                    on_legal += v;
                } else {
                    assert_eq!(*v, 0.0);
                }
            }
            assert!((on_legal - 1.0f32).abs() < 1e-5);
            // Illegal logits do not matter.
            let mut l2 = logits.clone();
            for (i, v) in l2.iter_mut().enumerate() {
                if legal.binary_search(&Decision(i as u32)).is_err() {
                    *v = 1e38;
                }
            }
            let mut p2 = Vec::new();
            action::legal_softmax(&l2, &legal, &mut p2);
            assert_eq!(p, p2);
        }
    }
    // Non-finite logits: -inf gets 0, all non-finite is uniform.
    let legal = [Decision(0), Decision(1)];
    let mut p = Vec::new();
    action::legal_softmax(&[f32::NEG_INFINITY, 0.0], &legal, &mut p);
    assert_eq!(p, [0.0, 1.0]);
    action::legal_softmax(&[f32::NAN, f32::NEG_INFINITY], &legal, &mut p);
    assert_eq!(p, [0.5, 0.5]);
}

/// Every complete move from `game` (decision paths to the end of the turn), depth-first.
fn complete_moves(game: &Crumble, path: &mut Vec<Decision>, out: &mut Vec<Vec<Decision>>) {
    let mut g = game.clone();
    for d in g.legal_decisions() {
        let mut h = game.clone();
        h.apply_unchecked(d);
        path.push(d);
        if h.at_turn_start() || h.is_over() {
            out.push(path.clone());
        } else {
            complete_moves(&h, path, out);
        }
        path.pop();
    }
}

#[test]
fn move_priors_are_products_along_paths_and_sum_to_one() {
    // Any policy: a deterministic pseudo-random one keyed by the state and decision.
    let prior = |g: &Crumble, legal: &[Decision]| {
        let logits: Vec<f32> = (0..action::policy_len(g.grid_size()))
            .map(|i| ((g.hash() ^ (i as u64).wrapping_mul(0x9E37_79B9)) % 1000) as f32 / 300.0)
            .collect();
        let mut p = Vec::new();
        action::legal_softmax(&logits, legal, &mut p);
        p
    };
    for game in [
        Crumble::new(2, 2).unwrap(),
        positions(2, 4, 3, 1)
            .into_iter()
            .find(|g| g.at_turn_start())
            .unwrap_or(Crumble::new(2, 4).unwrap()),
    ] {
        let mut moves = Vec::new();
        complete_moves(&game, &mut Vec::new(), &mut moves);
        assert!(moves.len() > 3);
        let total: f64 = moves
            .iter()
            .map(|m| action::move_prior(&game, m, prior).unwrap())
            .sum();
        assert!(
            (total - 1.0).abs() < 1e-4,
            "{} moves, total prior {total}",
            moves.len()
        );
        // A path is the product of its decisions' priors.
        let m = &moves[moves.len() / 2];
        let mut g = game.clone();
        let mut want = 1.0f64;
        for &d in m {
            let legal = g.legal_decisions();
            if legal.len() > 1 {
                want *= f64::from(prior(&g, &legal)[legal.binary_search(&d).unwrap()]);
            }
            g.apply(d).unwrap();
        }
        assert_eq!(action::move_prior(&game, m, prior), Some(want));
    }
}
