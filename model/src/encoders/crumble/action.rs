//! Decisions <-> policy indices, the legal mask, and the softmax over legal decisions.
//!
//! The policy head emits `8·G·G + 1` logits, exactly the rules engine's action space
//! ([`crumble_core::games::crumble::decision`]): logit `i` belongs to `Decision(i)`. The first `8·G·G` are
//! the planes `[8, G, G]` flattened with the cell layout of the rasteriser (`plane·G·G +
//! y·G + x`, `y` up, absolute frame); the last one is `Stop`.
//!
//! A complete move is a path of decisions (choose, extent, steps, stop); its prior is the
//! product of the priors of its decisions along the path ([`move_prior`]), a forced decision
//! (the only legal one) contributing 1.

use crumble_core::Decision;
use crumble_core::games::crumble::{Crumble, DecisionKind, action_count};

/// Number of policy logits for a grid of `g` units a side.
pub fn policy_len(g: u16) -> usize {
    action_count(g) as usize
}

/// Policy index of a decision (the decision's own number).
#[inline]
pub fn index(d: Decision) -> usize {
    d.index() as usize
}

/// The decision at a policy index, if the index is in range for grid size `g`.
#[inline]
pub fn decision(i: usize, g: u16) -> Option<Decision> {
    (i < policy_len(g)).then_some(Decision(i as u32))
}

/// Where a decision's logit sits in the `[8, G, G]` policy planes: `(plane, y, x)`;
/// `None` for `Stop` (the extra logit) and for out-of-range indices.
pub fn plane_cell(d: Decision, g: u16) -> Option<(usize, usize, usize)> {
    let gg = usize::from(g) * usize::from(g);
    match d.decode(g)? {
        DecisionKind::Stop => None,
        _ => {
            let i = index(d);
            Some((i / gg, (i % gg) / usize::from(g), i % usize::from(g)))
        }
    }
}

/// Writes the legal mask (`1.0` legal, `0.0` not) into `mask`, which must have length
/// `8·G·G + 1`.
pub fn legal_mask(legal: &[Decision], mask: &mut [f32]) {
    mask.fill(0.0);
    for &d in legal {
        mask[index(d)] = 1.0;
    }
}

/// Numerically stable softmax of `logits` restricted to the `legal` decisions: `out[i]` is
/// the probability of `legal[i]` (out is resized to `legal.len()`). Non-finite logits count
/// as `-inf`; if every legal logit is `-inf` (or NaN) the result is uniform.
pub fn legal_softmax(logits: &[f32], legal: &[Decision], out: &mut Vec<f32>) {
    softmax_by(logits, legal.len(), |i| index(legal[i]), out);
}

/// [`legal_softmax`] for any game: the softmax of the logits at policy indices `at` (the
/// encoder's indices of the legal decisions), `out[i]` for `at[i]`.
pub fn softmax_at(logits: &[f32], at: &[usize], out: &mut Vec<f32>) {
    softmax_by(logits, at.len(), |i| at[i], out);
}

fn softmax_by(logits: &[f32], n: usize, at: impl Fn(usize) -> usize, out: &mut Vec<f32>) {
    out.clear();
    let max = (0..n)
        .map(|i| logits[at(i)])
        .filter(|v| v.is_finite())
        .fold(f32::NEG_INFINITY, f32::max);
    if !max.is_finite() {
        out.resize(n, 1.0 / n.max(1) as f32);
        return;
    }
    let mut sum = 0.0f64;
    for i in 0..n {
        let v = logits[at(i)];
        let e = if v.is_finite() { (v - max).exp() } else { 0.0 };
        sum += f64::from(e);
        out.push(e);
    }
    let inv = (1.0 / sum) as f32;
    for p in out.iter_mut() {
        *p *= inv;
    }
}

/// Full-length softmax over legal decisions: `probs[i]` for every index of the action space,
/// 0 at illegal indices.
pub fn legal_softmax_full(logits: &[f32], legal: &[Decision], probs: &mut [f32]) {
    let mut tmp = Vec::with_capacity(legal.len());
    legal_softmax(logits, legal, &mut tmp);
    probs.fill(0.0);
    for (&d, p) in legal.iter().zip(tmp) {
        probs[index(d)] = p;
    }
}

/// Prior of a complete move given as its decision path from `game`: the product of the
/// priors of its decisions, where `priors(state, legal)` returns the prior of each legal
/// decision (in the order of `legal`); a state with one legal decision contributes 1 without
/// a call. Returns `None` if a decision of the path is illegal.
pub fn move_prior(
    game: &Crumble,
    path: &[Decision],
    mut priors: impl FnMut(&Crumble, &[Decision]) -> Vec<f32>,
) -> Option<f64> {
    let mut g = game.clone();
    let mut legal = Vec::new();
    let mut p = 1.0f64;
    for &d in path {
        g.legal_decisions_into(&mut legal);
        let k = legal.binary_search(&d).ok()?;
        if legal.len() > 1 {
            p *= f64::from(priors(&g, &legal)[k]);
        }
        g.apply_unchecked(d);
    }
    Some(p)
}
