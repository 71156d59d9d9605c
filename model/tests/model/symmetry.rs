//! The 8 symmetries: exactness exactly as `symmetry`'s module docs claim it.

use super::common::{positions, transformed};
use crumble_core::Decision;
use crumble_core::GameState as _;
use crumble_core::games::crumble::{Crumble, Phase, Rect};
use crumble_model::encoders::crumble::planes::{PLANES, Rasteriser};
use crumble_model::encoders::crumble::symmetry::{
    self, Sym, exact_syms, legal_bases, map_base, map_decision,
};
use ndarray::Array3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn planes(game: &Crumble) -> Array3<f32> {
    let g = usize::from(game.grid_size());
    let mut a = Array3::zeros((PLANES, g, g));
    Rasteriser::new().rasterise(game, a.view_mut()).unwrap();
    a
}

/// Rasterising commutes with `sym` between `s` and its image `t`.
fn assert_planes_commute(s: &Crumble, t: &Crumble, sym: Sym, what: &str) {
    let a = planes(s);
    let mut ta = Array3::zeros(a.raw_dim());
    symmetry::transform_planes(sym, a.view(), ta.view_mut());
    assert!(
        ta == planes(t),
        "{what}: planes do not commute with {}",
        sym.name()
    );
}

/// The legal decisions of the image are exactly the mapped legal decisions.
fn assert_legal_commute(s: &mut Crumble, t: &mut Crumble, sym: Sym, what: &str) {
    let mut mapped: Vec<Decision> = s
        .legal_decisions()
        .iter()
        .map(|&d| map_decision(s, d, sym).unwrap_or_else(|| panic!("{what}: {d:?} does not map")))
        .collect();
    mapped.sort_unstable();
    assert_eq!(
        mapped,
        t.legal_decisions(),
        "{what}: legal decisions under {}",
        sym.name()
    );
}

fn turn_starts(count: usize, seed: u64) -> Vec<Crumble> {
    let mut v: Vec<Crumble> = positions(6, 8, count * 4, seed)
        .into_iter()
        .filter(|g| g.at_turn_start())
        .take(count)
        .collect();
    v.extend(
        positions(4, 4, count * 4, seed + 1)
            .into_iter()
            .filter(|g| g.at_turn_start())
            .take(count / 2),
    );
    v.push(Crumble::new(6, 8).unwrap());
    v
}

#[test]
fn transforms_form_the_group_of_the_square() {
    let g = 48;
    for s in Sym::ALL {
        assert_eq!(s.inverse().inverse(), s);
        let r = Rect::new(3, 5, 16, 8);
        assert_eq!(s.inverse().rect(s.rect(r, g), g), r, "{}", s.name());
        for d in crumble_core::games::crumble::Dir::ALL {
            assert_eq!(s.inverse().dir(s.dir(d)), d);
        }
        let perm = symmetry::plane_perm(s);
        let mut seen = perm.to_vec();
        seen.sort_unstable();
        assert_eq!(
            seen,
            (0..PLANES).collect::<Vec<_>>(),
            "{} permutes the planes",
            s.name()
        );
    }
    assert_eq!(
        Sym::ROT90.rect(Rect::new(0, 0, 2, 1), 10),
        Rect::new(9, 0, 1, 2)
    );
    assert_eq!(
        Sym::ROT90.dir(crumble_core::games::crumble::Dir::E),
        crumble_core::games::crumble::Dir::N
    );
    assert_eq!(
        Sym::ROT270.dir(crumble_core::games::crumble::Dir::E),
        crumble_core::games::crumble::Dir::S
    );
}

#[test]
fn exact_sets_are_as_documented() {
    use crumble_core::games::crumble::Cut;
    let names = |f: &dyn Fn(Sym) -> bool| {
        Sym::ALL
            .into_iter()
            .filter(|&s| f(s))
            .map(Sym::name)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(&|s| s.keeps_run(Cut::H)),
        ["identity", "mirror-y", "transpose", "rot90"]
    );
    assert_eq!(
        names(&|s| s.keeps_run(Cut::V)),
        ["identity", "mirror-x", "transpose", "rot270"]
    );
    assert_eq!(names(&|s| s.keeps_join()), ["identity", "transpose"]);
}

/// Turn start: for every transform, planes commute and the complete (choose, extent) pairs map
/// onto the image's pairs; single choose decisions map exactly where `map_decision` allows.
#[test]
fn choose_phase_is_exact_on_complete_pairs_for_all_eight() {
    for (k, s) in turn_starts(12, 3).into_iter().enumerate() {
        let mut s = s;
        let bases = legal_bases(&s);
        let legal = s.legal_decisions();
        for sym in Sym::ALL {
            let what = format!("position {k}");
            let mut t = transformed(&s, sym);
            assert_planes_commute(&s, &t, sym, &what);
            let mut mapped: Vec<(Decision, Decision)> = bases
                .iter()
                .map(|&(c, e)| map_base(&s, c, e, sym).unwrap())
                .collect();
            mapped.sort_unstable();
            assert_eq!(
                mapped,
                legal_bases(&t),
                "{what}: complete pairs under {}",
                sym.name()
            );
            // The image's choose decisions are the first decisions of the mapped pairs.
            let mut firsts: Vec<Decision> = mapped.iter().map(|p| p.0).collect();
            firsts.dedup();
            assert_eq!(firsts, t.legal_decisions());
            let tl = t.legal_decisions();
            for &d in &legal {
                if let Some(d2) = map_decision(&s, d, sym) {
                    assert!(
                        tl.binary_search(&d2).is_ok(),
                        "{what}: {d:?} maps to an illegal decision under {}",
                        sym.name()
                    );
                }
            }
            if sym.keeps_join() {
                assert_legal_commute(&mut s, &mut t, sym, &what);
            }
            // The joint target maps to a choose target that sums to the same mass.
            let joint: Vec<(Decision, Decision, f32)> = bases
                .iter()
                .map(|&(c, e)| (c, e, 1.0 / bases.len() as f32))
                .collect();
            let target = symmetry::transform_choose_target(&s, &joint, sym);
            assert!((target.iter().map(|x| x.1).sum::<f32>() - 1.0).abs() < 1e-5);
            assert_eq!(
                target.iter().map(|x| x.0).collect::<Vec<_>>(),
                t.legal_decisions()
            );
        }
    }
}

/// Play a random turn in `s` and, mapped, in its image; check every state on the way where
/// the docs claim exactness (extent phase for `exact_syms`, swap phase for all 8).
#[test]
fn extent_and_swap_phases_are_exact_where_claimed() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut extent_checks, mut swap_checks) = (0, 0);
    for (k, s0) in turn_starts(24, 5).into_iter().enumerate() {
        for sym in Sym::ALL {
            let what = format!("position {k}");
            let mut s = s0.clone();
            let mut t = transformed(&s, sym);
            let bases = legal_bases(&s);
            let (c, e) = bases[rng.random_range(0..bases.len())];
            let (c2, e2) = map_base(&s, c, e, sym).unwrap();
            s.apply(c).unwrap();
            if exact_syms(&s).contains(&sym) {
                // The image state exists: same pending choice, mapped.
                assert_eq!(map_decision(&s0, c, sym), Some(c2));
                t.apply(c2).unwrap();
                assert!(matches!(t.phase(), Phase::Extent { .. }));
                assert_planes_commute(&s, &t, sym, &what);
                assert_legal_commute(&mut s, &mut t, sym, &what);
                assert_eq!(map_decision(&s, e, sym), Some(e2));
                extent_checks += 1;
                t.apply(e2).unwrap();
            } else {
                assert_eq!(map_decision(&s0, c, sym), None);
                t.apply(c2).unwrap();
                t.apply(e2).unwrap();
            }
            s.apply(e).unwrap();
            // Swap phase, step by step, until the turn ends.
            while !s.at_turn_start() && !s.is_over() {
                assert!(matches!(s.phase(), Phase::Swap));
                assert_planes_commute(&s, &t, sym, &what);
                assert_legal_commute(&mut s, &mut t, sym, &what);
                swap_checks += 1;
                let legal = s.legal_decisions();
                let d = legal[rng.random_range(0..legal.len())];
                let d2 = map_decision(&s, d, sym).unwrap();
                s.apply(d).unwrap();
                t.apply(d2).unwrap();
            }
            // Both turns are over; a win is a win in both (draws by the turn limit or the
            // draw rule depend on history the image does not have).
            assert!(t.at_turn_start() || t.is_over());
            let win = |g: &Crumble| g.outcome().and_then(|o| o.winner.map(|_| o.reason));
            if win(&s).is_some() || win(&t).is_some() {
                assert_eq!(
                    s.outcome().and_then(|o| o.winner),
                    t.outcome().and_then(|o| o.winner)
                );
            }
        }
    }
    assert!(
        extent_checks > 100 && swap_checks > 100,
        "{extent_checks} extent, {swap_checks} swap checks"
    );
}

#[test]
fn non_exact_pairs_are_refused() {
    // An extent state of a horizontal split: mirror-x is not exact and maps no End decision.
    let mut g = Crumble::new(6, 8).unwrap();
    let c = g
        .legal_decisions()
        .into_iter()
        .find(|d| {
            matches!(
                d.decode(48),
                Some(crumble_core::games::crumble::DecisionKind::Split {
                    cut: crumble_core::games::crumble::Cut::H,
                    ..
                })
            )
        })
        .unwrap();
    g.apply(c).unwrap();
    assert!(!exact_syms(&g).contains(&Sym::MIRROR_X));
    for d in g.legal_decisions() {
        assert_eq!(map_decision(&g, d, Sym::MIRROR_X), None);
        assert!(map_decision(&g, d, Sym::TRANSPOSE).is_some());
    }
}
