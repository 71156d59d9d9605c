//! The network's data layout, one place for it: how the encoder's planes become the cell
//! layout the network reads, and where each policy index sits among the logits it writes.
//!
//! A network with stem stride `s` on fine grid side `G = n·s` reads its input in the **cell
//! layout** `[n, n, s, s, I]`: element `[cy, cx, iy, ix, c]` is plane `c` at fine cell
//! `(cx·s + ix, cy·s + iy)`. In this layout the stem (kernel = stride = `s`) and the fine
//! policy skip (1×1) are plain matrix multiplies. Its policy logits come out in the same
//! cell order (`[n, n, s, s, P]` flattened), then the `E` extra logits.

use crate::net::NetConfig;

/// The shapes that fix a network's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Input planes `I`.
    pub input_planes: usize,
    /// Policy planes `P`.
    pub policy_planes: usize,
    /// Extra policy logits `E`.
    pub policy_extra: usize,
    /// Stem stride `s`.
    pub stride: usize,
}

impl Layout {
    /// The layout of the networks `config` builds.
    pub fn of(config: &NetConfig) -> Layout {
        Layout {
            input_planes: config.input_planes,
            policy_planes: config.policy_planes,
            policy_extra: config.policy_extra,
            stride: config.stride(),
        }
    }

    /// Input values of one position on grid side `g`: `I·g·g`.
    pub fn input_len(&self, g: usize) -> usize {
        self.input_planes * g * g
    }

    /// Policy logits of one position on grid side `g`: `P·g·g + E`.
    pub fn policy_len(&self, g: usize) -> usize {
        self.policy_planes * g * g + self.policy_extra
    }

    /// Reorders one position's planes from the encoder's layout `[I, g, g]` (`src`) into the
    /// cell layout (`dst`). Panics unless both have length `I·g·g` and the stride divides `g`.
    pub fn to_cells(&self, src: &[f32], g: usize, dst: &mut [f32]) {
        let (c, s) = (self.input_planes, self.stride);
        assert_eq!(src.len(), c * g * g, "source planes length");
        assert_eq!(dst.len(), c * g * g, "destination planes length");
        assert!(
            s > 0 && g.is_multiple_of(s),
            "cell side {s} must divide grid {g}"
        );
        // A hot loop of self-play's evaluation: with the plane count a constant the copy of
        // one cell's planes unrolls, which makes it about a third faster; Crumble's count is
        // the one that matters.
        if c == crate::encoders::crumble::planes::PLANES {
            cells_of::<{ crate::encoders::crumble::planes::PLANES }>(src, g, s, dst);
        } else {
            cells_any(src, c, g, s, dst);
        }
    }

    /// Where each policy index sits among the logits (cell order) on grid side `g`: entry
    /// `i` is the logit position of policy index `i`. Plane `k` at fine cell `(x, y)` =
    /// `(cx·s + ix, cy·s + iy)` sits at `(((cy·n + cx)·s + iy)·s + ix)·P + k` with `n = g / s`;
    /// the extra logits stay last.
    pub fn cell_order(&self, g: usize) -> Vec<u32> {
        let (q, s) = (self.policy_planes, self.stride);
        assert!(
            s > 0 && g.is_multiple_of(s),
            "cell side {s} must divide grid {g}"
        );
        let n = g / s;
        let mut t = Vec::with_capacity(self.policy_len(g));
        for k in 0..q {
            for y in 0..g {
                let (cy, iy) = (y / s, y % s);
                for x in 0..g {
                    let (cx, ix) = (x / s, x % s);
                    t.push(((((cy * n + cx) * s + iy) * s + ix) * q + k) as u32);
                }
            }
        }
        t.extend((0..self.policy_extra).map(|e| (q * g * g + e) as u32));
        t
    }
}

/// [`Layout::to_cells`] for `C` planes.
fn cells_of<const C: usize>(src: &[f32], g: usize, s: usize, dst: &mut [f32]) {
    let (n, gg) = (g / s, g * g);
    for y in 0..g {
        let (cy, iy) = (y / s, y % s);
        for x in 0..g {
            let (cx, ix) = (x / s, x % s);
            let o = (((cy * n + cx) * s + iy) * s + ix) * C;
            let out: &mut [f32; C] = (&mut dst[o..o + C]).try_into().expect("C values");
            let i = y * g + x;
            for (k, v) in out.iter_mut().enumerate() {
                *v = src[k * gg + i];
            }
        }
    }
}

/// [`Layout::to_cells`] for any number of planes.
fn cells_any(src: &[f32], c: usize, g: usize, s: usize, dst: &mut [f32]) {
    let (n, gg) = (g / s, g * g);
    for y in 0..g {
        let (cy, iy) = (y / s, y % s);
        for x in 0..g {
            let (cx, ix) = (x / s, x % s);
            let o = (((cy * n + cx) * s + iy) * s + ix) * c;
            let i = y * g + x;
            for (v, &x) in dst[o..o + c].iter_mut().zip(src[i..].iter().step_by(gg)) {
                *v = x;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `to_cells` puts plane `k` at fine cell `(x, y)` where the cell layout says, and
    /// `cell_order` is a permutation that agrees with it on the policy planes.
    #[test]
    fn to_cells_and_cell_order_follow_the_cell_layout() {
        for (c, q, e, g, s) in [
            (33, 8, 1, 24, 8),
            (3, 1, 0, 3, 1),
            (5, 2, 2, 8, 4),
            (2, 1, 1, 6, 2),
        ] {
            let layout = Layout {
                input_planes: c,
                policy_planes: q,
                policy_extra: e,
                stride: s,
            };
            let src: Vec<f32> = (0..c * g * g).map(|i| i as f32).collect();
            let mut dst = vec![-1.0; src.len()];
            layout.to_cells(&src, g, &mut dst);
            let n = g / s;
            for k in 0..c {
                for y in 0..g {
                    for x in 0..g {
                        let (cy, iy, cx, ix) = (y / s, y % s, x / s, x % s);
                        let o = (((cy * n + cx) * s + iy) * s + ix) * c + k;
                        assert_eq!(dst[o], src[k * g * g + y * g + x], "c {c} g {g} s {s}");
                    }
                }
            }
            let order = layout.cell_order(g);
            let mut seen = vec![false; layout.policy_len(g)];
            for &t in &order {
                assert!(!std::mem::replace(&mut seen[t as usize], true));
            }
            assert_eq!(order.len(), q * g * g + e);
        }
    }
}
