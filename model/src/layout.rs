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
        let n = g / s;
        for y in 0..g {
            let (cy, iy) = (y / s, y % s);
            for x in 0..g {
                let (cx, ix) = (x / s, x % s);
                let o = (((cy * n + cx) * s + iy) * s + ix) * c;
                let i = y * g + x;
                for (k, v) in dst[o..o + c].iter_mut().enumerate() {
                    *v = src[k * g * g + i];
                }
            }
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
