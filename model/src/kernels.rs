//! Host kernels of the CPU fast path ([`crate::cpu_ops`]): matrix multiplies with `gemm` on
//! both cores, and the 3×3 im2col of channels-last images. Plain slices in, plain slices out;
//! nothing here knows burn.

/// A row- or column-major view of a matrix in a slice: element `(i, j)` is at
/// `i·row_stride + j·col_stride`.
#[derive(Clone, Copy, Debug)]
pub struct MatRef<'a> {
    pub data: &'a [f32],
    pub row_stride: usize,
    pub col_stride: usize,
}

impl<'a> MatRef<'a> {
    /// A row-major matrix with `cols` columns.
    pub fn rows(data: &'a [f32], cols: usize) -> MatRef<'a> {
        MatRef {
            data,
            row_stride: cols,
            col_stride: 1,
        }
    }

    /// The transpose of a row-major matrix with `cols` columns.
    pub fn transposed(data: &'a [f32], cols: usize) -> MatRef<'a> {
        MatRef {
            data,
            row_stride: 1,
            col_stride: cols,
        }
    }

    /// Does an `m × n` matrix fit in the slice?
    fn fits(&self, m: usize, n: usize) -> bool {
        m == 0 || n == 0 || (m - 1) * self.row_stride + (n - 1) * self.col_stride < self.data.len()
    }
}

/// Below this many multiply-adds a product runs on one thread (splitting costs more).
const PARALLEL_MACS: usize = 1 << 18;

/// May a product split across rayon's threads? Not when it already runs on one of them (the
/// evaluator spreads a batch's chunks over the threads; each chunk stays on its thread).
fn may_split() -> bool {
    rayon::current_num_threads() > 1 && rayon::current_thread_index().is_none()
}

/// `dst[m×n] (row-major) = a[m×k] · b[k×n]`, or `+=` when `accumulate`; on both cores when
/// `threads` and the product is large.
///
/// # Panics
/// If a matrix does not fit in its slice.
#[allow(unsafe_code)]
pub fn matmul(
    [m, k, n]: [usize; 3],
    a: MatRef,
    b: MatRef,
    dst: &mut [f32],
    accumulate: bool,
    threads: bool,
) {
    assert!(
        a.fits(m, k) && b.fits(k, n) && dst.len() >= m * n,
        "matmul shapes"
    );
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        if !accumulate {
            dst[..m * n].fill(0.0);
        }
        return;
    }
    let par = if threads && m * n * k >= PARALLEL_MACS && may_split() {
        gemm::Parallelism::Rayon(0)
    } else {
        gemm::Parallelism::None
    };
    // SAFETY: `fits` checked that every element the strides address lies in its slice, and
    // `dst` holds the m×n row-major result.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            n as isize,
            accumulate,
            a.data.as_ptr(),
            a.col_stride as isize,
            a.row_stride as isize,
            b.data.as_ptr(),
            b.col_stride as isize,
            b.row_stride as isize,
            if accumulate { 1.0 } else { 0.0 },
            1.0,
            false,
            false,
            false,
            par,
        );
    }
}

/// `dst[m×n] = aᵀ · b` for row-major `a [k×m]` and `b [k×n]` with a long `k` (a weight
/// gradient summed over every position of a batch): gemm only splits the output, which is
/// small here, so the sum over `k` is split across the threads instead and the halves added.
pub fn matmul_at_b(m: usize, k: usize, n: usize, a: &[f32], b: &[f32], dst: &mut [f32]) {
    let threads = rayon::current_num_threads();
    if !may_split() || m * n * k < 4 * PARALLEL_MACS || k < 2 * threads {
        let at = MatRef::transposed(&a[..k * m], m);
        return matmul(
            [m, k, n],
            at,
            MatRef::rows(&b[..k * n], n),
            dst,
            false,
            true,
        );
    }
    let parts = threads.min(k / 64).max(2);
    let per = k.div_ceil(parts);
    use rayon::prelude::*;
    let partial: Vec<Vec<f32>> = (0..parts)
        .into_par_iter()
        .map(|p| {
            let (lo, hi) = (p * per, ((p + 1) * per).min(k));
            let mut out = vec![0.0; m * n];
            if hi > lo {
                let at = MatRef::transposed(&a[lo * m..hi * m], m);
                let bb = MatRef::rows(&b[lo * n..hi * n], n);
                matmul([m, hi - lo, n], at, bb, &mut out, false, false);
            }
            out
        })
        .collect();
    dst[..m * n].copy_from_slice(&partial[0]);
    for p in &partial[1..] {
        for (d, v) in dst.iter_mut().zip(p) {
            *d += v;
        }
    }
}

/// 3×3 zero-padded im2col of channels-last images `[B, H, W, C]`: `[B·H·W, 9·C]`, each row
/// in (ky, kx, C) order. With `relu`, negative inputs read as zero.
pub fn im2col3(x: &[f32], b: usize, h: usize, w: usize, c: usize, relu: bool, out: &mut Vec<f32>) {
    assert_eq!(x.len(), b * h * w * c, "im2col3 input length");
    out.clear();
    out.resize(b * h * w * 9 * c, 0.0);
    for k in 0..b {
        let img = &x[k * h * w * c..(k + 1) * h * w * c];
        for y in 0..h {
            for xx in 0..w {
                let row = ((k * h + y) * w + xx) * 9 * c;
                for ky in 0..3 {
                    let sy = y + ky;
                    if sy < 1 || sy > h {
                        continue;
                    }
                    for kx in 0..3 {
                        let sx = xx + kx;
                        if sx < 1 || sx > w {
                            continue;
                        }
                        let src = &img[((sy - 1) * w + (sx - 1)) * c..][..c];
                        let dst = &mut out[row + (ky * 3 + kx) * c..][..c];
                        if relu {
                            for (d, s) in dst.iter_mut().zip(src) {
                                *d = s.max(0.0);
                            }
                        } else {
                            dst.copy_from_slice(src);
                        }
                    }
                }
            }
        }
    }
}

/// burn's convolution weights `[out, in, k, k]` (`taps = k·k`) as the `[taps·in, out]` matrix
/// that multiplies rows in (ky, kx, in) order ([`im2col3`]'s, or a cell of the cell layout);
/// with `flip`, the kernel turned by 180° and in and out swapped (`[taps·out, in]`), which
/// maps an output gradient's im2col to the input gradient.
pub fn conv_matrix(w: &[f32], cout: usize, cin: usize, taps: usize, flip: bool) -> Vec<f32> {
    assert_eq!(w.len(), cout * cin * taps, "convolution weights length");
    let mut m = vec![0.0; w.len()];
    for o in 0..cout {
        for i in 0..cin {
            for k in 0..taps {
                let v = w[(o * cin + i) * taps + k];
                if flip {
                    m[((taps - 1 - k) * cout + o) * cin + i] = v;
                } else {
                    m[(k * cin + i) * cout + o] = v;
                }
            }
        }
    }
    m
}

/// The inverse of [`conv_matrix`] without flip: a `[taps·in, out]` matrix back to burn's
/// `[out, in, k, k]`.
pub fn conv_weights(m: &[f32], cout: usize, cin: usize, taps: usize) -> Vec<f32> {
    assert_eq!(m.len(), cout * cin * taps, "convolution matrix length");
    let mut w = vec![0.0; m.len()];
    for o in 0..cout {
        for i in 0..cin {
            for k in 0..taps {
                w[(o * cin + i) * taps + k] = m[(k * cin + i) * cout + o];
            }
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(m: usize, k: usize, n: usize, a: &[f32], b: &[f32]) -> Vec<f32> {
        let mut c = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                c[i * n + j] = (0..k).map(|t| a[i * k + t] * b[t * n + j]).sum();
            }
        }
        c
    }

    fn values(len: usize, seed: u32) -> Vec<f32> {
        (0..len)
            .map(|i| (((i as u32).wrapping_mul(2654435761) ^ seed) % 1000) as f32 / 500.0 - 1.0)
            .collect()
    }

    #[test]
    fn matmul_and_the_split_transposed_product_agree_with_the_naive_product() {
        for &(m, k, n) in &[(1, 1, 1), (3, 5, 2), (17, 4096, 9), (288, 4608, 32)] {
            let a = values(m * k, 1);
            let b = values(k * n, 2);
            let want = naive(m, k, n, &a, &b);
            let mut got = vec![7.0; m * n];
            matmul(
                [m, k, n],
                MatRef::rows(&a, k),
                MatRef::rows(&b, n),
                &mut got,
                false,
                true,
            );
            for (g, w) in got.iter().zip(&want) {
                assert!((g - w).abs() < 1e-3 * (1.0 + w.abs()), "{g} vs {w}");
            }
            // aᵀ stored as [k×m]
            let mut at = vec![0.0; k * m];
            for i in 0..m {
                for t in 0..k {
                    at[t * m + i] = a[i * k + t];
                }
            }
            let mut got = vec![7.0; m * n];
            matmul_at_b(m, k, n, &at, &b, &mut got);
            for (g, w) in got.iter().zip(&want) {
                assert!((g - w).abs() < 1e-3 * (1.0 + w.abs()), "{g} vs {w}");
            }
        }
    }

    #[test]
    fn conv_weights_undo_conv_matrix() {
        let w = values(5 * 3 * 9, 3);
        assert_eq!(conv_weights(&conv_matrix(&w, 5, 3, 9, false), 5, 3, 9), w);
        let w4 = values(2 * 7 * 64, 4);
        assert_eq!(
            conv_weights(&conv_matrix(&w4, 2, 7, 64, false), 2, 7, 64),
            w4
        );
        let flipped = conv_matrix(&w, 5, 3, 9, true);
        // kernel tap (ky, kx) of out 4, in 2 lands at tap (2-ky, 2-kx) of the swapped matrix
        assert_eq!(flipped[((8 - 1) * 5 + 4) * 3 + 2], w[(4 * 3 + 2) * 9 + 1]);
    }
}
