//! [`FastNet`]: the inference forward pass of a [`CrumbleNet`] in plain Rust on host buffers,
//! every layer one large matrix multiply (`gemm`, both cores) on channels-last activations.
//! It computes the function of [`CrumbleNet::forward_cells`] (same input layout, same
//! cell-order logits) about twice as fast as burn's CPU backend, whose small per-position
//! convolutions and generic copies dominate at this net's 6×6 tower. [`crate::NetEvaluator`]
//! and the inference figures of `crumble bench net` use it; training stays in burn.

use crate::net::{Conv, CrumbleNet, Dense};

fn host<const D: usize>(t: burn::tensor::Tensor<D>) -> Vec<f32> {
    t.into_data()
        .convert::<f32>()
        .try_to_vec::<f32>()
        .expect("f32 weights")
}

/// `c[m×n] = a[m×k] · b[k×n]` (row-major), then `+ bias` on every row if given.
#[allow(unsafe_code)]
#[allow(clippy::too_many_arguments)]
fn matmul(
    m: usize,
    k: usize,
    n: usize,
    a: &[f32],
    b: &[f32],
    bias: Option<&[f32]>,
    c: &mut [f32],
    threads: bool,
) {
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n);
    let par = if threads && m * n * k >= 1 << 18 {
        gemm::Parallelism::Rayon(0)
    } else {
        gemm::Parallelism::None
    };
    // SAFETY: the slices hold the row-major matrices the strides describe (checked above).
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            c.as_mut_ptr(),
            1,
            n as isize,
            false,
            a.as_ptr(),
            1,
            k as isize,
            b.as_ptr(),
            1,
            n as isize,
            0.0f32,
            1.0f32,
            false,
            false,
            false,
            par,
        );
    }
    if let Some(bias) = bias {
        for row in c[..m * n].chunks_exact_mut(n) {
            for (v, b) in row.iter_mut().zip(bias) {
                *v += b;
            }
        }
    }
}

struct Lin {
    /// `[in, out]` row-major.
    w: Vec<f32>,
    b: Vec<f32>,
    din: usize,
    dout: usize,
}

impl Lin {
    fn dense(d: &Dense) -> Lin {
        let [din, dout] = d.weight.dims();
        Lin {
            w: host(d.weight.val()),
            b: host(d.bias.val()),
            din,
            dout,
        }
    }

    /// A 3×3 (or any k×k) convolution as a `[k·k·in, out]` matrix, rows in (ky, kx, in) order.
    fn conv(c: &Conv) -> Lin {
        let [cout, cin, kh, kw] = c.weight.dims();
        let w = host(c.weight.val()); // [out, in, kh, kw]
        let kk = kh * kw;
        let mut m = vec![0.0; kk * cin * cout];
        for o in 0..cout {
            for i in 0..cin {
                for k in 0..kk {
                    m[(k * cin + i) * cout + o] = w[(o * cin + i) * kk + k];
                }
            }
        }
        Lin {
            w: m,
            b: host(c.bias.val()),
            din: kk * cin,
            dout: cout,
        }
    }

    fn apply(&self, rows: usize, x: &[f32], out: &mut Vec<f32>, threads: bool) {
        out.resize(rows * self.dout, 0.0);
        matmul(
            rows,
            self.din,
            self.dout,
            x,
            &self.w,
            Some(&self.b),
            out,
            threads,
        );
    }
}

struct Block {
    conv1: Lin,
    conv2: Lin,
    gpool: Option<Lin>,
    alpha: f32,
}

/// The host-side inference copy of a [`CrumbleNet`] (see the module docs).
pub struct FastNet {
    s: usize,
    c: usize,
    /// Input planes `I`, policy planes `P` and extra logits `E`.
    p: usize,
    q: usize,
    e: usize,
    stem: Lin,
    blocks: Vec<Block>,
    /// `[C, s·s·P]`, columns in cell order (iy, ix, plane).
    policy: Lin,
    /// `[I, P]`.
    fine: Lin,
    /// `[2C, E]`; none when `E = 0`.
    stop: Option<Lin>,
    value1: Lin,
    value2: Lin,
}

impl std::fmt::Debug for FastNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FastNet")
            .field("stride", &self.s)
            .field("channels", &self.c)
            .field("blocks", &self.blocks.len())
            .finish()
    }
}

/// `[B·n·n, C]` rows of `b` positions -> `[B, 2C]` channel means then maxima.
fn pool(x: &[f32], b: usize, px: usize, c: usize, out: &mut [f32]) {
    for k in 0..b {
        let (mean, max) = out[k * 2 * c..(k + 1) * 2 * c].split_at_mut(c);
        mean.fill(0.0);
        max.fill(f32::NEG_INFINITY);
        for row in x[k * px * c..(k + 1) * px * c].chunks_exact(c) {
            for j in 0..c {
                mean[j] += row[j];
                max[j] = max[j].max(row[j]);
            }
        }
        for m in mean.iter_mut() {
            *m /= px as f32;
        }
    }
}

/// 3×3 zero-padded im2col of channels-last `[B, n, n, C]`: `[B·n·n, 9·C]`, (ky, kx, C) order.
fn im2col3(x: &[f32], b: usize, n: usize, c: usize, out: &mut Vec<f32>) {
    out.clear();
    out.resize(b * n * n * 9 * c, 0.0);
    for k in 0..b {
        let img = &x[k * n * n * c..(k + 1) * n * n * c];
        for y in 0..n {
            for xx in 0..n {
                let row = ((k * n + y) * n + xx) * 9 * c;
                for ky in 0..3 {
                    let sy = y + ky;
                    if sy < 1 || sy > n {
                        continue;
                    }
                    for kx in 0..3 {
                        let sx = xx + kx;
                        if sx < 1 || sx > n {
                            continue;
                        }
                        let src = ((sy - 1) * n + (sx - 1)) * c;
                        let dst = row + (ky * 3 + kx) * c;
                        out[dst..dst + c].copy_from_slice(&img[src..src + c]);
                    }
                }
            }
        }
    }
}

fn relu_into(x: &[f32], out: &mut Vec<f32>) {
    out.clear();
    out.extend(x.iter().map(|v| v.max(0.0)));
}

/// Reusable buffers of [`FastNet::forward`].
#[derive(Debug, Default)]
pub struct Scratch {
    x: Vec<f32>,
    t: Vec<f32>,
    cols: Vec<f32>,
    h: Vec<f32>,
    pooled: Vec<f32>,
    bias: Vec<f32>,
    coarse: Vec<f32>,
    fine: Vec<f32>,
    small: Vec<f32>,
    hidden: Vec<f32>,
}

/// Positions per chunk of a large batch (see [`FastNet::forward`]).
const CHUNK: usize = 16;

std::thread_local! {
    /// Per-thread buffers of the chunks of a large batch.
    static CHUNK_SCRATCH: std::cell::RefCell<(Scratch, Vec<f32>, Vec<f32>)> =
        std::cell::RefCell::default();
}

impl FastNet {
    /// Copies the weights of `net` (on any device) into host matrices.
    pub fn new(net: &CrumbleNet) -> FastNet {
        let s = net.stride();
        let stem = Lin::conv(&net.stem); // rows (iy, ix, plane): the cell layout's order
        let c = stem.dout;
        let (np, nq) = (net.input_planes(), net.policy_planes());
        let pw = host(net.policy.weight.val()); // [P·s·s, C]: channel k·s² + iy·s + ix
        let pb = host(net.policy.bias.val());
        let ss = s * s;
        let mut w = vec![0.0; c * ss * nq];
        let mut b = vec![0.0; ss * nq];
        for k in 0..nq {
            for q in 0..ss {
                b[q * nq + k] = pb[k * ss + q];
                for i in 0..c {
                    w[i * ss * nq + q * nq + k] = pw[(k * ss + q) * c + i];
                }
            }
        }
        let fw = host(net.policy_fine.weight.val()); // [P, I]
        let mut fine = vec![0.0; np * nq];
        for k in 0..nq {
            for p in 0..np {
                fine[p * nq + k] = fw[k * np + p];
            }
        }
        FastNet {
            s,
            c,
            p: np,
            q: nq,
            e: net.policy_extra(),
            stem,
            blocks: net
                .blocks
                .iter()
                .map(|bl| Block {
                    conv1: Lin::conv(&bl.conv1),
                    conv2: Lin::conv(&bl.conv2),
                    gpool: bl.gpool.as_ref().map(Lin::dense),
                    alpha: host(bl.alpha.val())[0],
                })
                .collect(),
            policy: Lin {
                w,
                b,
                din: c,
                dout: ss * nq,
            },
            fine: Lin {
                w: fine,
                b: host(net.policy_fine.bias.val()),
                din: np,
                dout: nq,
            },
            stop: net.stop.as_ref().map(Lin::dense),
            value1: Lin::dense(&net.value1),
            value2: Lin::dense(&net.value2),
        }
    }

    /// Stem stride `s`.
    pub fn stride(&self) -> usize {
        self.s
    }

    /// Policy length on fine grid side `g`: `P·g·g + E`.
    pub fn policy_len(&self, g: usize) -> usize {
        self.q * g * g + self.e
    }

    /// The forward pass of `b` positions in the cell layout (`input`: `[B, n, n, s, s, I]`,
    /// see [`crate::planes::to_cells`]): writes `[B, P·G·G + E]` cell-order logits
    /// (as [`CrumbleNet::forward_cells`]) into `logits` and `[B]` values into `value`.
    pub fn forward(
        &self,
        input: &[f32],
        b: usize,
        n: usize,
        sc: &mut Scratch,
        logits: &mut Vec<f32>,
        value: &mut Vec<f32>,
    ) {
        let threads = rayon::current_num_threads();
        if b < 16 || threads < 2 {
            return self.forward_part(input, b, n, sc, logits, value, true);
        }
        // Large batches: chunks of CHUNK positions spread over the threads, each chunk
        // single-threaded throughout (element-wise work and im2col run in parallel too, and
        // a chunk's buffers stay in cache).
        use rayon::prelude::*;
        let per = input.len() / b;
        let a = self.policy_len(n * self.s);
        logits.clear();
        logits.resize(b * a, 0.0);
        value.clear();
        value.resize(b, 0.0);
        let chunk = CHUNK.min(b.div_ceil(threads));
        input
            .par_chunks(chunk * per)
            .zip(logits.par_chunks_mut(chunk * a))
            .zip(value.par_chunks_mut(chunk))
            .for_each(|((x, l), v)| {
                CHUNK_SCRATCH.with(|cs| {
                    let mut cs = cs.borrow_mut();
                    let (sc, ol, ov) = &mut *cs;
                    let m = v.len();
                    self.forward_part(x, m, n, sc, ol, ov, false);
                    l.copy_from_slice(&ol[..m * a]);
                    v.copy_from_slice(&ov[..m]);
                });
            });
    }

    #[allow(clippy::too_many_arguments)]
    fn forward_part(
        &self,
        input: &[f32],
        b: usize,
        n: usize,
        sc: &mut Scratch,
        logits: &mut Vec<f32>,
        value: &mut Vec<f32>,
        threads: bool,
    ) {
        let (s, c) = (self.s, self.c);
        let g = n * s;
        let px = n * n;
        let rows = b * px;
        assert_eq!(input.len(), b * g * g * self.p, "input length");
        self.stem.apply(rows, input, &mut sc.t, threads);
        relu_into(&sc.t, &mut sc.x); // residual stream [B·n·n, C]
        sc.pooled.resize(b * 2 * c, 0.0);
        for bl in &self.blocks {
            relu_into(&sc.x, &mut sc.t);
            im2col3(&sc.t, b, n, c, &mut sc.cols);
            bl.conv1.apply(rows, &sc.cols, &mut sc.h, threads);
            for v in sc.h.iter_mut() {
                *v = v.max(0.0);
            }
            if let Some(gp) = &bl.gpool {
                pool(&sc.h, b, px, c, &mut sc.pooled);
                gp.apply(b, &sc.pooled, &mut sc.bias, threads);
                for (k, img) in sc.h.chunks_exact_mut(px * c).enumerate() {
                    let bias = &sc.bias[k * c..(k + 1) * c];
                    for row in img.chunks_exact_mut(c) {
                        for (v, bb) in row.iter_mut().zip(bias) {
                            *v += bb;
                        }
                    }
                }
            }
            im2col3(&sc.h, b, n, c, &mut sc.cols);
            bl.conv2.apply(rows, &sc.cols, &mut sc.t, threads);
            for (x, h) in sc.x.iter_mut().zip(&sc.t) {
                *x += bl.alpha * h;
            }
        }
        relu_into(&sc.x, &mut sc.t); // h [B·n·n, C]
        pool(&sc.t, b, px, c, &mut sc.pooled);
        self.policy.apply(rows, &sc.t, &mut sc.coarse, threads); // [B, n, n, s, s, P]
        self.fine.apply(b * g * g, input, &mut sc.fine, threads); // [B, n, n, s, s, P]
        let e = self.e;
        if let Some(stop) = &self.stop {
            stop.apply(b, &sc.pooled, &mut sc.small, threads); // [B, E]
        }
        let planes = self.q * g * g;
        let a = planes + e;
        logits.clear();
        logits.resize(b * a, 0.0);
        for k in 0..b {
            let out = &mut logits[k * a..(k + 1) * a];
            let (co, fi) = (
                &sc.coarse[k * planes..(k + 1) * planes],
                &sc.fine[k * planes..(k + 1) * planes],
            );
            for ((o, x), y) in out[..planes].iter_mut().zip(co).zip(fi) {
                *o = x + y;
            }
            out[planes..].copy_from_slice(&sc.small[k * e..(k + 1) * e]);
        }
        self.value1.apply(b, &sc.pooled, &mut sc.hidden, threads);
        for v in sc.hidden.iter_mut() {
            *v = v.max(0.0);
        }
        self.value2.apply(b, &sc.hidden, &mut sc.small, threads);
        value.clear();
        value.extend(sc.small[..b].iter().map(|v| v.tanh()));
    }
}
