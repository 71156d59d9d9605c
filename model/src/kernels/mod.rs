//! Host kernels of the CPU fast path ([`crate::cpu_ops`]): matrix multiplies and the tower's
//! 3×3 convolution on channels-last images, on both cores. Three implementations, picked at
//! run time by the CPU's features ([`Kernels`]): this crate's x86 kernels ([`simd`]) for AVX2
//! or AVX-512, which convolve without an im2col, or `gemm`'s products after an im2col
//! (everywhere else). Plain slices in, plain slices out; nothing here knows burn.

#[cfg(target_arch = "x86_64")]
pub mod simd;

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

/// Which kernels run the products: this crate's ([`simd`]) on x86 CPUs with AVX2 and FMA, in
/// AVX-512 on Intel CPUs that have it, `gemm`'s elsewhere (on AMD's AVX-512 CPUs, where
/// `gemm`'s ran far ahead of PyTorch and this crate's are not measured). The environment variable
/// `CRUMBLE_KERNELS=gemm`, `=avx2` or `=avx512` overrides the choice (each only where the CPU
/// has it), to compare them on one machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernels {
    Avx2,
    Avx512,
    Gemm,
}

impl Kernels {
    /// Kernels' name as `CRUMBLE_KERNELS` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Kernels::Avx2 => "avx2",
            Kernels::Avx512 => "avx512",
            Kernels::Gemm => "gemm",
        }
    }

    /// Does this CPU run them?
    fn runs_here(self) -> bool {
        match self {
            Kernels::Avx2 => has_avx2(),
            Kernels::Avx512 => has_avx512(),
            Kernels::Gemm => true,
        }
    }
}

std::thread_local! {
    static FORCED: std::cell::Cell<Option<Kernels>> = const { std::cell::Cell::new(None) };
}

/// The kernels this thread runs: those of [`with_kernels`] inside it, else the process's
/// choice (made once).
pub fn current() -> Kernels {
    static CHOICE: std::sync::OnceLock<Kernels> = std::sync::OnceLock::new();
    FORCED.with(|f| f.get()).unwrap_or_else(|| {
        *CHOICE.get_or_init(|| {
            let forced = std::env::var("CRUMBLE_KERNELS").ok();
            let avx512 = has_avx512();
            choose(
                forced.as_deref(),
                has_avx2(),
                avx512 && is_intel(),
                avx512 && !is_intel(),
            )
        })
    })
}

/// Runs `f` with kernels `k` on this thread (the products it splits over rayon's threads
/// use them too), so the tests hold both to the same results on a CPU that has both.
///
/// # Panics
/// If the CPU lacks the instructions of `k`.
pub fn with_kernels<R>(k: Kernels, f: impl FnOnce() -> R) -> R {
    assert!(
        k.runs_here(),
        "this CPU cannot run the {} kernels",
        k.name()
    );
    let before = FORCED.with(|c| c.replace(Some(k)));
    let r = f();
    FORCED.with(|c| c.set(before));
    r
}

/// Every set of kernels this CPU runs.
pub fn available() -> Vec<Kernels> {
    [Kernels::Gemm, Kernels::Avx2, Kernels::Avx512]
        .into_iter()
        .filter(|k| k.runs_here())
        .collect()
}

/// The choice for a `CRUMBLE_KERNELS` value and the CPU's features: `avx512` says the CPU
/// runs [`simd`]'s AVX-512 kernels and they are the default on it (an Intel CPU), `amd512`
/// that it runs them but `gemm`'s are (an AMD CPU with AVX-512).
fn choose(forced: Option<&str>, avx2: bool, avx512: bool, amd512: bool) -> Kernels {
    match forced {
        Some("gemm") => Kernels::Gemm,
        Some("avx2") if avx2 => Kernels::Avx2,
        Some("avx512") if avx512 || amd512 => Kernels::Avx512,
        _ if avx512 => Kernels::Avx512,
        _ if avx2 && !amd512 => Kernels::Avx2,
        _ => Kernels::Gemm,
    }
}

/// Is the CPU Intel's? On Intel's AVX-512 CPUs [`simd`]'s AVX-512 kernels ran 1.1–1.2× `gemm`'s
/// (results, 2026-11-29).
fn is_intel() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let r = std::arch::x86_64::__cpuid(0);
        [r.ebx, r.edx, r.ecx]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .eq(*b"GenuineIntel")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Does the CPU run [`simd`]'s AVX2 kernels (AVX2 and FMA)?
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Does the CPU run [`simd`]'s AVX-512 kernels?
fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
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
pub fn matmul(
    dims: [usize; 3],
    a: MatRef,
    b: MatRef,
    dst: &mut [f32],
    accumulate: bool,
    threads: bool,
) {
    matmul_with(current(), dims, a, b, dst, accumulate, threads);
}

/// [`matmul`] with kernels `kind`.
#[allow(unsafe_code)]
fn matmul_with(
    kind: Kernels,
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
    #[cfg(target_arch = "x86_64")]
    if kind != Kernels::Gemm && a.col_stride == 1 {
        let epi = simd::Epilogue {
            accumulate,
            ..Default::default()
        };
        let packed = pack(kind, k, n, |p, j| {
            b.data[p * b.row_stride + j * b.col_stride]
        });
        return simd::product(m, simd::Lhs::Matrix(a), &packed, dst, epi, threads);
    }
    let _ = kind;
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
    let kind = current();
    let threads = rayon::current_num_threads();
    if !may_split() || m * n * k < 4 * PARALLEL_MACS || k < 2 * threads {
        let at = MatRef::transposed(&a[..k * m], m);
        return matmul_with(
            kind,
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
                matmul_with(kind, [m, hi - lo, n], at, bb, &mut out, false, false);
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

/// The matrix `[k × n]` whose element `(p, j)` is `f(p, j)` in the panels of the x86 kernels
/// `kind` (not [`Kernels::Gemm`]).
#[cfg(target_arch = "x86_64")]
fn pack(kind: Kernels, k: usize, n: usize, f: impl Fn(usize, usize) -> f32) -> simd::Packed {
    // At most 8 columns (the fine policy's 8 channels) fill an AVX2 vector but half an AVX-512
    // one: AVX2's panels (which every AVX-512 CPU runs) did that product at 44 GFLOP/s on one
    // core against 31 for a half-empty AVX-512 panel.
    match kind {
        Kernels::Avx512 if n > 8 => simd::Packed::from_fn::<simd::Avx512>(k, n, f),
        _ => simd::Packed::from_fn::<simd::Avx2>(k, n, f),
    }
}

/// A right-hand matrix `[k × n]` prepared for one set of kernels: in panels for
/// [`Kernels::Avx2`] and [`Kernels::Avx512`], row-major for [`Kernels::Gemm`]. Preparing reads every weight once, so a
/// caller whose weights do not change keeps it ([`crate::cpu_ops`] does, per weight tensor).
#[derive(Debug)]
pub struct Weights {
    k: usize,
    n: usize,
    inner: Prepared,
}

#[derive(Debug)]
enum Prepared {
    Rows(Vec<f32>),
    #[cfg(target_arch = "x86_64")]
    Packed(simd::Packed),
}

impl Weights {
    /// `w [k × n]`, for the kernels of this thread ([`current`]).
    ///
    /// # Panics
    /// If `w` does not fit in its slice.
    pub fn matrix(w: MatRef, k: usize, n: usize) -> Weights {
        assert!(w.fits(k, n), "weights shape");
        Weights::from_fn(k, n, |p, j| w.data[p * w.row_stride + j * w.col_stride])
    }

    /// burn's convolution weights `w [out, in, k, k]` (`taps = k·k`) as the `[taps·in, out]`
    /// matrix that multiplies rows in (ky, kx, in) order ([`im2col3`]'s, or a cell of the
    /// cell layout); with `flip`, the kernel turned by 180° and in and out swapped (`[taps·out,
    /// in]`), which maps an output gradient's neighbourhoods to the input gradient. The same
    /// matrices as [`conv_matrix`].
    pub fn conv(w: &[f32], cout: usize, cin: usize, taps: usize, flip: bool) -> Weights {
        let m = conv_matrix(w, cout, cin, taps, flip);
        let (k, n) = if flip {
            (taps * cout, cin)
        } else {
            (taps * cin, cout)
        };
        Weights::matrix(MatRef::rows(&m, n), k, n)
    }

    /// The matrix whose element `(p, j)` is `f(p, j)`.
    fn from_fn(k: usize, n: usize, f: impl Fn(usize, usize) -> f32) -> Weights {
        let inner = match current() {
            #[cfg(target_arch = "x86_64")]
            kind @ (Kernels::Avx2 | Kernels::Avx512) => Prepared::Packed(pack(kind, k, n, f)),
            _ => Prepared::Rows((0..k * n).map(|i| f(i / n, i % n)).collect()),
        };
        Weights { k, n, inner }
    }

    /// Rows `k` (the reduction).
    pub fn k(&self) -> usize {
        self.k
    }

    /// Columns `n` (the outputs).
    pub fn n(&self) -> usize {
        self.n
    }
}

/// `relu?(conv3x3_pad1(relu?(x)) + bias)` of `x [b, h, w, cin]` with `weights` (the
/// [`Weights::conv`] of burn's `[cout, cin, 3, 3]`): `[b, h, w, cout]`, on both cores for a
/// large batch. With flipped weights and no bias or ReLU, the input gradient of a convolution
/// from the gradient at its output (`x` then holds `cout` channels and the result `cin`).
///
/// # Panics
/// If the lengths disagree with `d` and `weights`.
pub fn conv3x3(
    x: &[f32],
    [b, h, w]: [usize; 3],
    weights: &Weights,
    bias: Option<&[f32]>,
    relu_in: bool,
    relu_out: bool,
) -> Vec<f32> {
    let (k, n) = (weights.k, weights.n);
    let (m, c) = (b * h * w, k / 9);
    assert!(k == 9 * c && x.len() == m * c, "conv3x3 input length");
    if let Some(bias) = bias {
        assert_eq!(bias.len(), n, "conv3x3 bias length");
    }
    let mut y = vec![0.0; m * n];
    match &weights.inner {
        #[cfg(target_arch = "x86_64")]
        Prepared::Packed(packed) => {
            let rectified;
            let x = if relu_in {
                rectified = x.iter().map(|v| v.max(0.0)).collect::<Vec<f32>>();
                &rectified[..]
            } else {
                x
            };
            let lhs = simd::Lhs::Conv3x3 { x, h, w, c };
            let epi = simd::Epilogue {
                accumulate: false,
                bias,
                relu: relu_out,
            };
            simd::product(m, lhs, packed, &mut y, epi, true);
        }
        Prepared::Rows(wmat) => {
            let mut cols = Vec::new();
            im2col3(x, b, h, w, c, relu_in, &mut cols);
            let (a, bm) = (MatRef::rows(&cols, k), MatRef::rows(wmat, n));
            matmul_with(Kernels::Gemm, [m, k, n], a, bm, &mut y, false, true);
            add_bias(&mut y, bias, relu_out);
        }
    }
    y
}

/// `relu?(x·w + bias)` for `x [m × k]` and `w [k × n]`: `[m × n]`, on both cores when large.
///
/// # Panics
/// If `x` is not `m × k`.
pub fn dense(x: &[f32], m: usize, w: &Weights, bias: Option<&[f32]>, relu: bool) -> Vec<f32> {
    let (k, n) = (w.k, w.n);
    assert_eq!(x.len(), m * k, "dense input length");
    if let Some(bias) = bias {
        assert_eq!(bias.len(), n, "dense bias length");
    }
    let mut y = vec![0.0; m * n];
    let a = MatRef::rows(x, k);
    match &w.inner {
        #[cfg(target_arch = "x86_64")]
        Prepared::Packed(packed) => {
            let epi = simd::Epilogue {
                accumulate: false,
                bias,
                relu,
            };
            simd::product(m, simd::Lhs::Matrix(a), packed, &mut y, epi, true);
        }
        Prepared::Rows(wmat) => {
            let bm = MatRef::rows(wmat, n);
            matmul_with(Kernels::Gemm, [m, k, n], a, bm, &mut y, false, true);
            add_bias(&mut y, bias, relu);
        }
    }
    y
}

/// Adds `bias` (if any) to every row of `y`, then the ReLU if asked.
fn add_bias(y: &mut [f32], bias: Option<&[f32]>, relu: bool) {
    if let Some(bias) = bias {
        for row in y.chunks_exact_mut(bias.len()) {
            for (v, b) in row.iter_mut().zip(bias) {
                *v += b;
            }
        }
    }
    if relu {
        for v in y.iter_mut() {
            *v = v.max(0.0);
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
mod tests;
