//! Nim's encoder, for tests of the generic pipeline on turns of two decisions: heaps as
//! columns of a square grid, the heap choice and the count as two policy planes.

use crate::encoder::Encoder;
use crumble_core::Decision;
use crumble_core::games::nim::Nim;

/// Nim's encoder: on a `g × g` grid (`g` the larger of the heap count and the largest take),
/// heap `h` is column `x = h` with one object a cell from the bottom. Input planes: the
/// objects, the column of the heap chosen this turn, a plane of ones. Policy planes: choose
/// heap `h` at `(h, 0)`; take `k` from the chosen heap `c` at `(c, k − 1)`. No symmetry (the
/// action space names heaps by their place).
#[derive(Clone, Copy, Debug, Default)]
pub struct NimEncoder;

impl Encoder<Nim> for NimEncoder {
    type Scratch = ();

    const INPUT_PLANES: usize = 3;
    const POLICY_PLANES: usize = 2;
    fn grid(&self, state: &Nim) -> usize {
        state.heaps().len().max(state.max_take())
    }
    fn encode(&self, state: &Nim, _scratch: &mut (), out: &mut [f32]) {
        let g = self.grid(state);
        out.fill(0.0);
        for (x, &n) in state.heaps().iter().enumerate() {
            for y in 0..usize::from(n) {
                out[y * g + x] = 1.0;
            }
        }
        if let Some(c) = state.chosen_heap() {
            for y in 0..g {
                out[g * g + y * g + c] = 1.0;
            }
        }
        out[2 * g * g..3 * g * g].fill(1.0);
    }
    fn policy_index(&self, state: &Nim, d: Decision) -> usize {
        let g = self.grid(state);
        let heaps = state.heaps().len();
        match state.chosen_heap() {
            None => d.0 as usize,
            Some(c) => g * g + (d.0 as usize - heaps) * g + c,
        }
    }
    fn symmetries(&self, _state: &Nim) -> Vec<usize> {
        vec![0]
    }
    fn map_planes(&self, sym: usize, _g: usize, src: &[f32], dst: &mut [f32]) {
        debug_assert_eq!(sym, 0, "Nim has only the identity");
        dst.copy_from_slice(src);
    }
    fn mapped_policy_index(&self, state: &Nim, sym: usize, d: Decision) -> Result<usize, String> {
        if sym != 0 {
            return Err(format!("symmetry {sym}: Nim has only the identity"));
        }
        Ok(self.policy_index(state, d))
    }
}
