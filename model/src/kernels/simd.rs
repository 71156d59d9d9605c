//! x86 kernels, one source for two vector widths ([`Isa`]): AVX2 + FMA (8 lanes, 16 registers)
//! and AVX-512 (16 lanes, 32 registers). One register-blocked micro-kernel serves every
//! product of the network, the 3×3 convolutions read their input in place (an indirect
//! convolution: a table of row pointers, a zero row for the padding) instead of an im2col.
//!
//! The micro-kernel keeps an `MR × L·NV` block of the output in registers (`L` lanes; AVX2:
//! 6 × 16, or 8 × 8 when the output is 8 wide, twelve or eight accumulators, the weight
//! vectors and a broadcast within its sixteen registers; AVX-512: 12 × 32 or 16 × 16 within
//! thirty-two) and runs over the reduction with one broadcast per row and one fused
//! multiply-add per accumulator. The right-hand matrix is packed once per call into panels
//! of `2L` (or `L`) columns, zero-padded, so its loads are contiguous and the tail needs no
//! special case; the left-hand rows are read where they lie. Products whose left-hand side
//! is transposed (the weight gradients, a long sum over the batch's pixels) stay with `gemm`,
//! whose packing of both sides reads them in order: gathering the columns here ran at a third
//! of its speed.
//!
//! Only [`super`] calls this module, and only after checking the CPU's features.

#![allow(unsafe_code)] // every function here runs vector intrinsics; each says why it is sound

use super::MatRef;
use std::arch::x86_64::{
    __m256, __m512, _mm256_add_ps, _mm256_fmadd_ps, _mm256_loadu_ps, _mm256_max_ps, _mm256_set1_ps,
    _mm256_setzero_ps, _mm256_storeu_ps, _mm512_add_ps, _mm512_fmadd_ps, _mm512_loadu_ps,
    _mm512_max_ps, _mm512_set1_ps, _mm512_setzero_ps, _mm512_storeu_ps,
};

/// One vector instruction set: its `f32` vector, its operations, and the micro-kernel's rows
/// for one and two vectors of columns.
///
/// # Safety
/// Every operation needs a CPU with the set, and a pointer that addresses a whole vector
/// (one value for [`Isa::splat`]).
// The contract above is every method's.
#[allow(clippy::missing_safety_doc)]
pub trait Isa: Copy + Send + Sync + 'static {
    type V: Copy;
    /// `f32` lanes of a vector.
    const LANES: usize;
    /// Rows of the micro-kernel over one vector of columns, and over two.
    const ROWS: [usize; 2];
    unsafe fn zero() -> Self::V;
    unsafe fn load(p: *const f32) -> Self::V;
    unsafe fn store(p: *mut f32, v: Self::V);
    unsafe fn splat(p: *const f32) -> Self::V;
    /// `a·b + c`, fused.
    unsafe fn fmadd(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V;
    unsafe fn max(a: Self::V, b: Self::V) -> Self::V;
    /// The micro-kernel (`tile`) compiled for this set: `dst[MR rows × cols]` from the rows
    /// of `src` times a packed panel of `LANES·NV` columns, then the epilogue.
    unsafe fn tile<const MR: usize, const NV: usize>(t: Tile);
}

/// AVX2 with FMA.
#[derive(Clone, Copy, Debug)]
pub struct Avx2;

/// AVX-512 (the foundation set).
#[derive(Clone, Copy, Debug)]
pub struct Avx512;

/// The [`Isa`] impl of a set and its micro-kernel compiled with the set enabled (`$tile`),
/// from the set's intrinsics: one template, so the two sets cannot drift apart.
macro_rules! isa {
    ($set:ident, $v:ty, $lanes:literal, $rows:expr, $feature:literal, $tile:ident,
     zero: $zero:ident, load: $load:ident, store: $store:ident, splat: $splat:ident,
     fmadd: $fmadd:ident, add: $add:ident, max: $max:ident) => {
        // SAFETY (every operation): the caller runs on a CPU with the set (the trait's
        // contract), and the pointers address a whole vector (one value for `splat`).
        impl Isa for $set {
            type V = $v;
            const LANES: usize = $lanes;
            const ROWS: [usize; 2] = $rows;
            #[inline(always)]
            unsafe fn zero() -> $v {
                unsafe { $zero() }
            }
            #[inline(always)]
            unsafe fn load(p: *const f32) -> $v {
                unsafe { $load(p) }
            }
            #[inline(always)]
            unsafe fn store(p: *mut f32, v: $v) {
                unsafe { $store(p, v) }
            }
            #[inline(always)]
            unsafe fn splat(p: *const f32) -> $v {
                unsafe { $splat(*p) }
            }
            #[inline(always)]
            unsafe fn fmadd(a: $v, b: $v, c: $v) -> $v {
                unsafe { $fmadd(a, b, c) }
            }
            #[inline(always)]
            unsafe fn add(a: $v, b: $v) -> $v {
                unsafe { $add(a, b) }
            }
            #[inline(always)]
            unsafe fn max(a: $v, b: $v) -> $v {
                unsafe { $max(a, b) }
            }
            #[inline(always)]
            unsafe fn tile<const MR: usize, const NV: usize>(t: Tile) {
                unsafe { $tile::<MR, NV>(t) }
            }
        }

        /// [`tile`] with the set enabled.
        ///
        /// # Safety
        /// As [`tile`] for this set.
        #[target_feature(enable = $feature)]
        unsafe fn $tile<const MR: usize, const NV: usize>(t: Tile) {
            unsafe { tile::<$set, MR, NV>(t) }
        }
    };
}

isa!(Avx2, __m256, 8, [8, 6], "avx2,fma", tile_avx2,
    zero: _mm256_setzero_ps, load: _mm256_loadu_ps, store: _mm256_storeu_ps,
    splat: _mm256_set1_ps, fmadd: _mm256_fmadd_ps, add: _mm256_add_ps, max: _mm256_max_ps);
isa!(Avx512, __m512, 16, [16, 12], "avx512f", tile_avx512,
    zero: _mm512_setzero_ps, load: _mm512_loadu_ps, store: _mm512_storeu_ps,
    splat: _mm512_set1_ps, fmadd: _mm512_fmadd_ps, add: _mm512_add_ps, max: _mm512_max_ps);

/// Reduction values per pass over a block of rows in a dense product: a panel of this many
/// rows (16 KiB of AVX2's 16 columns, 32 KiB of AVX-512's 32) stays in L1 while every row
/// block reads it.
const KC: usize = 256;
/// Rows of a group whose outputs stay in cache while the reduction runs block by block.
const MC: usize = 48;
/// Rows per parallel task when a product splits over rayon's threads.
const ROWS_PER_TASK: usize = 48;

/// The right-hand matrix `[k × n]` in panels for vectors of `lanes` lanes: for each panel of
/// `width` columns (`2·lanes`, or `lanes` for a last remainder of at most `lanes`), its `k`
/// rows of `width` values, padding columns zero.
#[derive(Debug)]
pub struct Packed {
    k: usize,
    n: usize,
    lanes: usize,
    data: Vec<f32>,
}

/// The panels of `n` columns for `lanes` lanes: `(first column, width)`.
fn panels(n: usize, lanes: usize) -> impl Iterator<Item = (usize, usize)> {
    let (full, rest) = (n / (2 * lanes), n % (2 * lanes));
    let last = if rest <= lanes { lanes } else { 2 * lanes };
    (0..full)
        .map(move |p| (p * 2 * lanes, 2 * lanes))
        .chain((rest > 0).then_some((full * 2 * lanes, last)))
}

impl Packed {
    /// Packs the matrix `[k × n]` whose element `(p, j)` is `f(p, j)` for the vectors of `S`.
    pub fn from_fn<S: Isa>(k: usize, n: usize, f: impl Fn(usize, usize) -> f32) -> Packed {
        let lanes = S::LANES;
        let len: usize = panels(n, lanes).map(|(_, w)| w * k).sum();
        let mut data = vec![0.0; len];
        let mut at = 0;
        for (j0, width) in panels(n, lanes) {
            let cols = width.min(n - j0);
            for p in 0..k {
                for (j, v) in data[at + p * width..][..cols].iter_mut().enumerate() {
                    *v = f(p, j0 + j);
                }
            }
            at += width * k;
        }
        Packed { k, n, lanes, data }
    }

    /// Each panel: `(first column, width, its k × width values)`.
    fn panels(&self) -> impl Iterator<Item = (usize, usize, &[f32])> {
        let mut at = 0;
        panels(self.n, self.lanes).map(move |(j0, width)| {
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
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    ptrs: &'a [*const f32],
    taps: usize,
    seg: usize,
}

/// One call of the micro-kernel: `dst`'s block (rows `ldo` apart, `cols ≤ L·NV` columns) from
/// the rows of `src` times the packed panel at `w`, then `epi`.
#[derive(Clone, Copy, Debug)]
pub struct Tile<'a> {
    src: Source<'a>,
    w: *const f32,
    dst: *mut f32,
    ldo: usize,
    cols: usize,
    epi: Epilogue<'a>,
}

/// `dst[MR rows × cols]` (row stride `ldo`) from the rows of `src` times a packed panel of
/// `L·NV` columns (`w`, `taps·seg` rows; `L` lanes), then the epilogue (the bias from the
/// panel's first column). Inlined into [`tile_avx2`] and [`tile_avx512`], which enable the
/// set.
///
/// # Safety
/// The CPU has the set `S`; every pointer of `src` addresses `seg` values; `w`
/// holds `taps·seg·L·NV` values; `dst` holds `MR` rows of `cols ≤ L·NV` values `ldo` apart;
/// `bias`, when given, holds `cols` values.
// Plain indices over the accumulators: with iterators over the array LLVM kept it in memory
// and stored every accumulator on every step (a third of the speed).
#[allow(clippy::needless_range_loop)]
#[inline(always)]
unsafe fn tile<S: Isa, const MR: usize, const NV: usize>(t: Tile) {
    let Tile {
        src,
        w,
        dst,
        ldo,
        cols,
        epi,
    } = t;
    let lanes = S::LANES;
    // SAFETY (every vector operation below): the caller runs with the set `S`.
    let zero = unsafe { S::zero() };
    let mut acc = [[zero; NV]; MR];
    let mut wp = w;
    for t in 0..src.taps {
        let rows: [*const f32; MR] = std::array::from_fn(|r| src.ptrs[t * MR + r]);
        // SAFETY: forwarded: the rows hold `seg` values, the panel `seg` more rows.
        acc = unsafe { reduce::<S, MR, NV>(acc, rows, src.seg, wp) };
        // SAFETY: still within (or one past) the panel.
        wp = unsafe { wp.add(src.seg * NV * lanes) };
    }
    let mut bias = [zero; NV];
    let mut buf = [0.0f32; 32];
    if let Some(b) = epi.bias {
        buf[..cols].copy_from_slice(&b[..cols]);
        for (v, bv) in bias.iter_mut().enumerate() {
            // SAFETY: `buf` holds 32 ≥ L·NV values.
            *bv = unsafe { S::load(buf.as_ptr().add(v * lanes)) };
        }
    }
    for r in 0..MR {
        // SAFETY: `dst` holds `MR` rows `ldo` apart.
        let out = unsafe { dst.add(r * ldo) };
        if cols == NV * lanes {
            for v in 0..NV {
                let mut a = acc[r][v];
                if epi.accumulate {
                    // SAFETY: the row holds `L·NV` values.
                    a = unsafe { S::add(a, S::load(out.add(v * lanes))) };
                }
                a = unsafe { S::add(a, bias[v]) };
                if epi.relu {
                    a = unsafe { S::max(a, zero) };
                }
                // SAFETY: as above.
                unsafe { S::store(out.add(v * lanes), a) };
            }
        } else {
            let mut tmp = [0.0f32; 32];
            for v in 0..NV {
                // SAFETY: `tmp` holds 32 ≥ L·NV values.
                unsafe { S::store(tmp.as_mut_ptr().add(v * lanes), acc[r][v]) };
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
unsafe fn reduce<S: Isa, const MR: usize, const NV: usize>(
    mut acc: [[S::V; NV]; MR],
    rows: [*const f32; MR],
    seg: usize,
    w: *const f32,
) -> [[S::V; NV]; MR] {
    let mut wp = w;
    for c in 0..seg {
        // SAFETY: the panel holds `seg` rows of `L·NV` values.
        let b: [S::V; NV] = std::array::from_fn(|v| unsafe { S::load(wp.add(v * S::LANES)) });
        for r in 0..MR {
            // SAFETY: row `r`'s segment holds `seg` values.
            let a = unsafe { S::splat(rows[r].add(c)) };
            for v in 0..NV {
                // SAFETY: the caller runs with the set `S`.
                acc[r][v] = unsafe { S::fmadd(a, b[v], acc[r][v]) };
            }
        }
        // SAFETY: still within (or one past) the panel.
        wp = unsafe { wp.add(NV * S::LANES) };
    }
    acc
}

/// Runs the micro-kernel of `NV` vectors on `rows` rows (at most `S::ROWS[NV - 1]`).
///
/// # Safety
/// As [`tile`], with `src.ptrs` holding `taps·rows` pointers.
unsafe fn tile_rows<S: Isa, const NV: usize>(rows: usize, t: Tile) {
    assert!(rows <= S::ROWS[NV - 1], "{rows} rows for {NV} vectors");
    // SAFETY: forwarded; each arm's `MR` is `rows`.
    unsafe {
        match rows {
            1 => S::tile::<1, NV>(t),
            2 => S::tile::<2, NV>(t),
            3 => S::tile::<3, NV>(t),
            4 => S::tile::<4, NV>(t),
            5 => S::tile::<5, NV>(t),
            6 => S::tile::<6, NV>(t),
            7 => S::tile::<7, NV>(t),
            8 => S::tile::<8, NV>(t),
            9 => S::tile::<9, NV>(t),
            10 => S::tile::<10, NV>(t),
            11 => S::tile::<11, NV>(t),
            12 => S::tile::<12, NV>(t),
            13 if NV == 1 => S::tile::<13, 1>(t),
            14 if NV == 1 => S::tile::<14, 1>(t),
            15 if NV == 1 => S::tile::<15, 1>(t),
            16 if NV == 1 => S::tile::<16, 1>(t),
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
    // The panels' width says which set packed them, and the caller checked the CPU has it.
    let run = if b.lanes == Avx2::LANES {
        rows_block::<Avx2>
    } else {
        rows_block::<Avx512>
    };
    if !par || m <= ROWS_PER_TASK {
        run(0, m, lhs, b, dst, epi);
        return;
    }
    use rayon::prelude::*;
    dst.par_chunks_mut(ROWS_PER_TASK * n)
        .enumerate()
        .for_each(|(t, out)| {
            let first = t * ROWS_PER_TASK;
            run(first, out.len() / n, lhs, b, out, epi);
        });
}

/// Output rows `first..first + count` of [`product`] into `dst` (`count × n`).
fn rows_block<S: Isa>(
    first: usize,
    count: usize,
    lhs: Lhs,
    b: &Packed,
    dst: &mut [f32],
    epi: Epilogue,
) {
    // The micro-kernel's rows for two-vector panels, or for one when the only panel is one
    // vector wide.
    let step = S::ROWS[usize::from(b.n > S::LANES)];
    match lhs {
        Lhs::Matrix(a) => matrix_rows::<S>(first, count, a, b, dst, epi, step),
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
                unsafe { panels_tile::<S>(b, 0, src, rows, &mut dst[r * b.n..], epi) };
            }
        }
    }
}

/// [`rows_block`] of a matrix with unit column stride, in groups of [`MC`] rows: within a
/// group the reduction runs in blocks of [`KC`], so a panel's block stays in L1 while the
/// group's row blocks read it and the group's outputs stay in L2 between blocks.
fn matrix_rows<S: Isa>(
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
                unsafe { panels_tile::<S>(b, k0, src, rows, &mut dst[r * n..], block_epi) };
            }
        }
    }
}

/// One row block through every panel of `b` from panel row `k0`: `dst` (row stride `b.n`)
/// gets `rows` rows.
///
/// # Safety
/// The CPU has the set `S`; `src` holds `rows` rows of `taps` segments of `seg` values and
/// every panel of `b` at least `k0 + taps·seg` rows.
unsafe fn panels_tile<S: Isa>(
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
        let t = Tile {
            src,
            w: wp,
            dst: dst[j0..].as_mut_ptr(),
            ldo: n,
            cols,
            epi,
        };
        // SAFETY: the caller's conditions, and `dst` holds `rows` rows of `n` values, of which
        // the tile writes columns `j0..j0 + cols`.
        unsafe {
            if width == 2 * S::LANES {
                tile_rows::<S, 2>(rows, t);
            } else {
                tile_rows::<S, 1>(rows, t);
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
    let mut at = [(0usize, 0usize, 0usize); 16];
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
