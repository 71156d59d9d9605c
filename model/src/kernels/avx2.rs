//! AVX2 + FMA kernels for CPUs without AVX-512: one register-blocked micro-kernel serves every
//! product of the network, the 3×3 convolutions read their input in place (an indirect
//! convolution: a table of row pointers, a zero row for the padding) instead of an im2col.
//!
//! The micro-kernel keeps an `MR × 8·NV` block of the output in registers (6 × 16, or 8 × 8
//! when the output is 8 wide: twelve or eight accumulators, the weight vectors and a
//! broadcast, within AVX2's sixteen registers) and runs over the reduction with one broadcast per row and one fused
//! multiply-add per accumulator. The right-hand matrix is packed once per call into panels
//! of 16 (or 8) columns, zero-padded, so its loads are contiguous and the tail needs no
//! special case; the left-hand rows are read where they lie. Products whose left-hand side
//! is transposed (the weight gradients, a long sum over the batch's pixels) stay with `gemm`,
//! whose packing of both sides reads them in order: gathering the columns here ran at a third
//! of its speed.
//!
//! Only [`super`] calls this module, and only after checking the CPU's features.

#![allow(unsafe_code)] // every function here runs AVX2 intrinsics; each says why it is sound

use super::MatRef;
use std::arch::x86_64::{
    __m256, _mm256_add_ps, _mm256_broadcast_ss, _mm256_fmadd_ps, _mm256_loadu_ps, _mm256_max_ps,
    _mm256_setzero_ps, _mm256_storeu_ps,
};

/// Lanes of an AVX2 vector of `f32`.
const LANES: usize = 8;
/// Reduction values per pass over a block of rows in a dense product: a 16-column panel of
/// this many rows (16 KiB) stays in L1 while every row block reads it.
const KC: usize = 256;
/// Rows of a group whose outputs stay in cache while the reduction runs block by block.
const MC: usize = 48;
/// Rows per parallel task when a product splits over rayon's threads.
const ROWS_PER_TASK: usize = 48;

/// The right-hand matrix `[k × n]` in panels: for each panel of `width` columns (16, or 8 for
/// a last remainder of at most 8), its `k` rows of `width` values, padding columns zero.
#[derive(Debug)]
pub struct Packed {
    k: usize,
    n: usize,
    data: Vec<f32>,
}

/// The panels of `n` columns: `(first column, width)`.
fn panels(n: usize) -> impl Iterator<Item = (usize, usize)> {
    let full = n / 16;
    let rest = n % 16;
    (0..full)
        .map(|p| (p * 16, 16))
        .chain((rest > 0).then_some((full * 16, if rest <= 8 { 8 } else { 16 })))
}

impl Packed {
    /// Packs the matrix `[k × n]` whose element `(p, j)` is `f(p, j)`.
    pub fn from_fn(k: usize, n: usize, f: impl Fn(usize, usize) -> f32) -> Packed {
        let len: usize = panels(n).map(|(_, w)| w * k).sum();
        let mut data = vec![0.0; len];
        let mut at = 0;
        for (j0, width) in panels(n) {
            let cols = width.min(n - j0);
            for p in 0..k {
                for (j, v) in data[at + p * width..][..cols].iter_mut().enumerate() {
                    *v = f(p, j0 + j);
                }
            }
            at += width * k;
        }
        Packed { k, n, data }
    }

    /// Each panel: `(first column, width, its k × width values)`.
    fn panels(&self) -> impl Iterator<Item = (usize, usize, &[f32])> {
        let mut at = 0;
        panels(self.n).map(move |(j0, width)| {
            let w = &self.data[at..at + width * self.k];
            at += width * self.k;
            (j0, width, w)
        })
    }
}

/// What happens to a block of the output after the products: accumulate into what `dst`
/// holds, add a bias per column, clamp at zero.
#[derive(Clone, Copy, Debug, Default)]
pub struct Epilogue<'a> {
    pub accumulate: bool,
    pub bias: Option<&'a [f32]>,
    pub relu: bool,
}

/// Where each output row reads its values: `taps` segments of `seg` consecutive values,
/// segment `t` of row `r` starting at `ptrs[t·MR + r]`.
#[derive(Clone, Copy)]
struct Source<'a> {
    ptrs: &'a [*const f32],
    taps: usize,
    seg: usize,
}

/// `dst[MR rows × cols]` (row stride `ldo`) from the rows of `src` times a packed panel of
/// `8·NV` columns (`w`, `taps·seg` rows), then the epilogue (the bias from the panel's
/// first column).
///
/// # Safety
/// The CPU has AVX2 and FMA; every pointer of `src` addresses `seg` values; `w`
/// holds `taps·seg·8·NV` values; `dst` holds `MR` rows of `cols ≤ 8·NV` values `ldo` apart;
/// `bias`, when given, holds `cols` values.
// Plain indices over the accumulators: with iterators over the array LLVM kept it in memory
// and stored every accumulator on every step (a third of the speed).
#[allow(clippy::needless_range_loop)]
#[target_feature(enable = "avx2,fma")]
unsafe fn tile<const MR: usize, const NV: usize>(
    src: Source,
    w: *const f32,
    dst: *mut f32,
    ldo: usize,
    cols: usize,
    epi: Epilogue,
) {
    let mut acc = [[_mm256_setzero_ps(); NV]; MR];
    let mut wp = w;
    for t in 0..src.taps {
        let rows: [*const f32; MR] = std::array::from_fn(|r| src.ptrs[t * MR + r]);
        // SAFETY: forwarded: the rows hold `seg` values, the panel `seg` more rows.
        acc = unsafe { reduce::<MR, NV>(acc, rows, src.seg, wp) };
        // SAFETY: still within (or one past) the panel.
        wp = unsafe { wp.add(src.seg * NV * LANES) };
    }
    let mut bias = [_mm256_setzero_ps(); NV];
    let mut buf = [0.0f32; 16];
    if let Some(b) = epi.bias {
        buf[..cols].copy_from_slice(&b[..cols]);
        for (v, bv) in bias.iter_mut().enumerate() {
            // SAFETY: `buf` holds 16 ≥ 8·NV values.
            *bv = unsafe { _mm256_loadu_ps(buf.as_ptr().add(v * LANES)) };
        }
    }
    let zero = _mm256_setzero_ps();
    for r in 0..MR {
        // SAFETY: `dst` holds `MR` rows `ldo` apart.
        let out = unsafe { dst.add(r * ldo) };
        if cols == NV * LANES {
            for v in 0..NV {
                let mut a = acc[r][v];
                if epi.accumulate {
                    // SAFETY: the row holds `8·NV` values.
                    a = _mm256_add_ps(a, unsafe { _mm256_loadu_ps(out.add(v * LANES)) });
                }
                a = _mm256_add_ps(a, bias[v]);
                if epi.relu {
                    a = _mm256_max_ps(a, zero);
                }
                // SAFETY: as above.
                unsafe { _mm256_storeu_ps(out.add(v * LANES), a) };
            }
        } else {
            let mut tmp = [0.0f32; 16];
            for v in 0..NV {
                // SAFETY: `tmp` holds 16 ≥ 8·NV values.
                unsafe { _mm256_storeu_ps(tmp.as_mut_ptr().add(v * LANES), acc[r][v]) };
            }
            for (j, t) in tmp[..cols].iter().enumerate() {
                // SAFETY: the row holds `cols` values.
                let o = unsafe { &mut *out.add(j) };
                let mut x = t + buf[j];
                if epi.accumulate {
                    x += *o;
                }
                if epi.relu {
                    x = x.max(0.0);
                }
                *o = x;
            }
        }
    }
}

/// `acc += rows[.., 0..seg] · w[0..seg, ..]`: the micro-kernel's inner loop, one broadcast
/// per row and `NV` fused multiply-adds per broadcast, the accumulators in registers.
///
/// # Safety
/// As [`tile`], for one segment.
#[inline(always)]
unsafe fn reduce<const MR: usize, const NV: usize>(
    mut acc: [[__m256; NV]; MR],
    rows: [*const f32; MR],
    seg: usize,
    w: *const f32,
) -> [[__m256; NV]; MR] {
    let mut wp = w;
    for c in 0..seg {
        // SAFETY: the panel holds `seg` rows of `8·NV` values.
        let b: [__m256; NV] =
            std::array::from_fn(|v| unsafe { _mm256_loadu_ps(wp.add(v * LANES)) });
        for r in 0..MR {
            // SAFETY: row `r`'s segment holds `seg` values.
            let a = unsafe { _mm256_broadcast_ss(&*rows[r].add(c)) };
            for v in 0..NV {
                // SAFETY: the caller runs with AVX2 and FMA.
                acc[r][v] = unsafe { _mm256_fmadd_ps(a, b[v], acc[r][v]) };
            }
        }
        // SAFETY: still within (or one past) the panel.
        wp = unsafe { wp.add(NV * LANES) };
    }
    acc
}

/// Runs the micro-kernel of `NV` vectors on `rows` rows (at most 6 for two vectors, 8 for one).
///
/// # Safety
/// As [`tile`], with `src.ptrs` holding `taps·rows` pointers.
#[target_feature(enable = "avx2,fma")]
unsafe fn tile_rows<const NV: usize>(
    rows: usize,
    src: Source,
    w: *const f32,
    dst: *mut f32,
    ldo: usize,
    cols: usize,
    epi: Epilogue,
) {
    // SAFETY: forwarded; each arm's `MR` is `rows`.
    unsafe {
        match rows {
            1 => tile::<1, NV>(src, w, dst, ldo, cols, epi),
            2 => tile::<2, NV>(src, w, dst, ldo, cols, epi),
            3 => tile::<3, NV>(src, w, dst, ldo, cols, epi),
            4 => tile::<4, NV>(src, w, dst, ldo, cols, epi),
            5 => tile::<5, NV>(src, w, dst, ldo, cols, epi),
            6 => tile::<6, NV>(src, w, dst, ldo, cols, epi),
            7 if NV == 1 => tile::<7, NV>(src, w, dst, ldo, cols, epi),
            8 if NV == 1 => tile::<8, NV>(src, w, dst, ldo, cols, epi),
            _ => unreachable!("{rows} rows for {NV} vectors"),
        }
    }
}

/// How the rows of the left-hand side are found.
#[derive(Clone, Copy, Debug)]
pub enum Lhs<'a> {
    /// A matrix `[m × k]` with unit column stride (rows of consecutive values).
    Matrix(MatRef<'a>),
    /// The 3×3 zero-padded neighbourhoods of channels-last images `[b, h, w, c]`: row
    /// `(b, y, x)` reads its nine neighbours' `c` values in (ky, kx) order (`k = 9c`).
    Conv3x3 {
        x: &'a [f32],
        h: usize,
        w: usize,
        c: usize,
    },
}

/// `dst[m×n] (row-major) = lhs[m×k] · b` (+ the epilogue), on rayon's threads when
/// `threads` and the product is large.
///
/// # Panics
/// If a matrix does not fit in its slice or `b` is not `k × n`.
pub fn product(m: usize, lhs: Lhs, b: &Packed, dst: &mut [f32], epi: Epilogue, threads: bool) {
    let (k, n) = (b.k, b.n);
    assert!(dst.len() >= m * n, "product output length");
    if let Some(bias) = epi.bias {
        assert_eq!(bias.len(), n, "bias length");
    }
    match lhs {
        Lhs::Matrix(a) => assert!(a.col_stride == 1 && a.fits(m, k), "product left-hand shape"),
        Lhs::Conv3x3 { x, h, w, c } => {
            assert!(
                k == 9 * c && h * w > 0 && m.is_multiple_of(h * w) && x.len() >= m * c,
                "indirect convolution shapes"
            );
        }
    }
    if m == 0 || n == 0 {
        return;
    }
    let dst = &mut dst[..m * n];
    let par = threads && m * n * k >= super::PARALLEL_MACS && super::may_split();
    if !par || m <= ROWS_PER_TASK {
        rows_block(0, m, lhs, b, dst, epi);
        return;
    }
    use rayon::prelude::*;
    dst.par_chunks_mut(ROWS_PER_TASK * n)
        .enumerate()
        .for_each(|(t, out)| {
            let first = t * ROWS_PER_TASK;
            rows_block(first, out.len() / n, lhs, b, out, epi);
        });
}

/// Output rows `first..first + count` of [`product`] into `dst` (`count × n`).
fn rows_block(first: usize, count: usize, lhs: Lhs, b: &Packed, dst: &mut [f32], epi: Epilogue) {
    // Six rows for 16-column panels, eight when the only panel is 8 wide.
    let step = if b.n <= 8 { 8 } else { 6 };
    match lhs {
        Lhs::Matrix(a) => matrix_rows(first, count, a, b, dst, epi, step),
        Lhs::Conv3x3 { x, h, w, c } => {
            let zeros = vec![0.0f32; c];
            let mut ptrs: Vec<*const f32> = Vec::with_capacity(9 * step);
            for (r, rows) in blocks(count, step) {
                ptrs.clear();
                neighbour_rows(x, h, w, c, first + r, rows, &zeros, &mut ptrs);
                let src = Source {
                    ptrs: &ptrs,
                    taps: 9,
                    seg: c,
                };
                // SAFETY: `product`'s caller checked the CPU's features; each pointer
                // addresses `c` values inside `x` or `zeros`, and the panels hold `9c` rows.
                unsafe { panels_tile(b, 0, src, rows, &mut dst[r * b.n..], epi) };
            }
        }
    }
}

/// [`rows_block`] of a matrix with unit column stride, in groups of [`MC`] rows: within a
/// group the reduction runs in blocks of [`KC`], so a panel's block stays in L1 while the
/// group's row blocks read it and the group's outputs stay in L2 between blocks.
fn matrix_rows(
    first: usize,
    count: usize,
    a: MatRef,
    b: &Packed,
    dst: &mut [f32],
    epi: Epilogue,
    step: usize,
) {
    let (k, n) = (b.k, b.n);
    let mut ptrs: Vec<*const f32> = Vec::with_capacity(step);
    for (g, group) in blocks(count, MC) {
        for (k0, kl) in blocks(k, KC) {
            let last = k0 + kl == k;
            let block_epi = Epilogue {
                accumulate: epi.accumulate || k0 > 0,
                bias: if last { epi.bias } else { None },
                relu: epi.relu && last,
            };
            for (r, rows) in blocks(group, step) {
                let r = g + r;
                ptrs.clear();
                let row0 = first + r;
                for i in 0..rows {
                    ptrs.push(a.data[(row0 + i) * a.row_stride + k0..].as_ptr());
                }
                let src = Source {
                    ptrs: &ptrs,
                    taps: 1,
                    seg: kl,
                };
                // SAFETY: `product`'s caller checked the CPU's features; each pointer addresses
                // `kl` values (`product` checked the matrix), and the panels' rows from `k0` hold
                // `kl` more.
                unsafe { panels_tile(b, k0, src, rows, &mut dst[r * n..], block_epi) };
            }
        }
    }
}

/// One row block through every panel of `b` from panel row `k0`: `dst` (row stride `b.n`)
/// gets `rows` rows.
///
/// # Safety
/// The CPU has AVX2 and FMA; `src` holds `rows` rows of `taps` segments of `seg` values and
/// every panel of `b` at least `k0 + taps·seg` rows.
unsafe fn panels_tile(
    b: &Packed,
    k0: usize,
    src: Source,
    rows: usize,
    dst: &mut [f32],
    epi: Epilogue,
) {
    let n = b.n;
    assert!(dst.len() >= rows * n, "tile output rows");
    for (j0, width, w) in b.panels() {
        let cols = width.min(n - j0);
        let epi = Epilogue {
            bias: epi.bias.map(|b| &b[j0..j0 + cols]),
            ..epi
        };
        let wp = w[k0 * width..].as_ptr();
        let out = dst[j0..].as_mut_ptr();
        // SAFETY: the caller's conditions, and `dst` holds `rows` rows of `n` values, of which
        // the tile writes columns `j0..j0 + cols`.
        unsafe {
            if width == 16 {
                tile_rows::<2>(rows, src, wp, out, n, cols, epi);
            } else {
                tile_rows::<1>(rows, src, wp, out, n, cols, epi);
            }
        }
    }
}

/// `0..count` in blocks of at most `step`: `(first, length)`.
fn blocks(count: usize, step: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..count)
        .step_by(step)
        .map(move |r| (r, step.min(count - r)))
}

/// The pointers of an indirect 3×3 convolution for output rows `first..first + rows` of
/// images `[_, h, w, c]`: tap-major (`ptrs[t·rows + i]`), `zeros` for a neighbour off the
/// image.
#[allow(clippy::too_many_arguments)]
fn neighbour_rows(
    x: &[f32],
    h: usize,
    w: usize,
    c: usize,
    first: usize,
    rows: usize,
    zeros: &[f32],
    ptrs: &mut Vec<*const f32>,
) {
    // (image, y, x) of each row, found once: no division per tap.
    let mut at = [(0usize, 0usize, 0usize); 8];
    for (i, a) in at[..rows].iter_mut().enumerate() {
        let p = first + i;
        *a = (p / (h * w), p / w % h, p % w);
    }
    for t in 0..9 {
        let (dy, dx) = (t / 3, t % 3);
        for &(img, y, xx) in &at[..rows] {
            let (sy, sx) = (y + dy, xx + dx);
            if sy < 1 || sy > h || sx < 1 || sx > w {
                ptrs.push(zeros.as_ptr());
            } else {
                let at = ((img * h + sy - 1) * w + sx - 1) * c;
                ptrs.push(x[at..at + c].as_ptr());
            }
        }
    }
}
