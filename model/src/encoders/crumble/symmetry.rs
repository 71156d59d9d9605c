//! The square's 8 symmetries on Crumble's planes and training targets. The maps themselves
//! (points, pieces, directions, decisions, positions and moves) are the rules crate's
//! ([`crumble_core::games::crumble::symmetry`], re-exported here), whose numbering the
//! encoder shares with the game interface's symmetries.
//!
//! **Training targets.** Swap-phase targets map decision by decision under all 8 transforms.
//! Choose-phase targets are built from the recorded joint (choose, extent) distribution: map
//! each pair with [`map_base`] and sum the mass by the new choose decision. Extent-phase
//! samples are augmented only with the transforms exact for their pending choice
//! ([`exact_syms`]); the sampler draws among those (so an extent sample is never mislabelled,
//! and still gets 2 or 4 of the 8 views). Rasterising commutes with every exact transform:
//! `planes(T(s)) = T(planes(s))`, the plane permutation ([`plane_perm`]) included.

use crate::encoders::crumble::planes::{self, PLANES};
use crumble_core::Decision;
pub use crumble_core::games::crumble::symmetry::{
    Sym, exact_syms, legal_bases, map_base, map_decision,
};
use crumble_core::games::crumble::{Crumble, Dir};
use ndarray::{ArrayView3, ArrayViewMut3};

/// `perm[c]` is the plane that input plane `c` becomes under `sym`.
pub fn plane_perm(sym: Sym) -> [usize; PLANES] {
    let mut perm: [usize; PLANES] = std::array::from_fn(|c| c);
    let side = |d: Dir| match d {
        Dir::W => 0,
        Dir::E => 1,
        Dir::S => 2,
        Dir::N => 3,
    };
    for d in Dir::ALL {
        let k = side(d);
        let k2 = side(sym.dir(d));
        perm[planes::SIDE + k] = planes::SIDE + k2;
        perm[planes::OWN_CHAIN + k] = planes::OWN_CHAIN + k2;
        perm[planes::OPP_CHAIN + k] = planes::OPP_CHAIN + k2;
    }
    // Corners SW, SE, NW, NE as (east?, north?) bits.
    for k in 0..4usize {
        let (dx, dy) = sym.vector(
            if k & 1 != 0 { 1 } else { -1 },
            if k & 2 != 0 { 1 } else { -1 },
        );
        perm[planes::CORNER + k] = planes::CORNER + usize::from(dx > 0) + 2 * usize::from(dy > 0);
    }
    if sym.transposes() {
        perm[planes::WIDE] = planes::TALL;
        perm[planes::TALL] = planes::WIDE;
        perm[planes::PENDING_SPLIT_H] = planes::PENDING_SPLIT_V;
        perm[planes::PENDING_SPLIT_V] = planes::PENDING_SPLIT_H;
    }
    perm
}

/// Writes the planes of `src` transformed by `sym` into `dst` (both `[PLANES, G, G]`):
/// `dst[perm[c], T(cell)] = src[c, cell]`.
pub fn transform_planes(sym: Sym, src: ArrayView3<'_, f32>, mut dst: ArrayViewMut3<'_, f32>) {
    let g = src.shape()[1];
    assert_eq!(src.shape(), [PLANES, g, g], "source planes shape");
    assert_eq!(dst.shape(), [PLANES, g, g], "destination planes shape");
    let perm = plane_perm(sym);
    let gs = g as u16;
    for c in 0..PLANES {
        for y in 0..g {
            for x in 0..g {
                let (tx, ty) = sym.cell(x as u16, y as u16, gs);
                dst[[perm[c], usize::from(ty), usize::from(tx)]] = src[[c, y, x]];
            }
        }
    }
}

/// The choose-phase policy target of the transformed state: each (choose, extent, mass) of
/// the joint distribution mapped with [`map_base`], mass summed by the new choose decision;
/// sorted by decision. Pairs that do not map (not of this state) are skipped.
pub fn transform_choose_target(
    game: &Crumble,
    joint: &[(Decision, Decision, f32)],
    sym: Sym,
) -> Vec<(Decision, f32)> {
    let mut out: Vec<(Decision, f32)> = Vec::with_capacity(joint.len());
    for &(c, e, m) in joint {
        if let Some((c2, _)) = map_base(game, c, e, sym) {
            out.push((c2, m));
        }
    }
    out.sort_unstable_by_key(|&(d, _)| d);
    out.dedup_by(|b, a| {
        if a.0 == b.0 {
            a.1 += b.1;
            true
        } else {
            false
        }
    });
    out
}
