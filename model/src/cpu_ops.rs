//! The network's two heavy operations on burn's CPU backend, as a backend extension with
//! their own forward **and backward** passes ([`CpuOps`]):
//! - [`conv3x3`]: the tower's 3×3 convolution on channels-last activations with an optional
//!   ReLU before and after, `y = relu?(conv3x3_pad1(relu?(x)) + b)`, in the kernels of
//!   [`crate::kernels`], no NCHW↔NHWC copies;
//! - [`dense`]: `y = relu?(x·w + b)`, every matrix multiply of the stem, the heads and the
//!   global pooling: the weight gradient sums over the long batch dimension on both cores.
//!
//! flex's generic convolution (and its transposed convolution for the input gradient) is
//! several times slower at the tower's 6×6 images, and its matrix multiply copies transposed
//! operands. On every other backend (`tch`, `wgpu`, `cuda`), and for other float types, the
//! same functions run burn's own operations ([`conv3x3_reference`], [`dense_reference`]),
//! which the tests hold the fast path to.

use crate::kernels::{
    self, MatRef, Weights, conv_matrix, conv_weights, im2col3, matmul, matmul_at_b,
};
use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::flex::{FlexTensor, Layout};
use burn::backend::tensor::FloatTensor;
use burn::backend::{
    Autodiff, Backend, Bytes, Dispatch, DispatchDevice, Flex, TensorMetadata, backend_extension,
};
use burn::tensor::activation::relu;
use burn::tensor::module::{conv2d, linear};
use burn::tensor::ops::ConvOptions;
use burn::tensor::{DType, Device, Shape, Tensor};

/// The fast operations, implemented for flex and autodiff over flex.
#[backend_extension(Flex, Autodiff)]
pub trait CpuOps: Backend {
    /// `x [B, H, W, Cin]`, `w [Cout, Cin, 3, 3]`, `b [Cout]` -> `[B, H, W, Cout]`.
    fn conv3x3_nhwc(
        x: FloatTensor<Self>,
        w: FloatTensor<Self>,
        b: FloatTensor<Self>,
        relu_in: bool,
        relu_out: bool,
    ) -> FloatTensor<Self>;

    /// `x [M, K]`, `b [N]`, and `w [K, N]` or convolution weights `w [N, I, k, k]` with
    /// `K = k·k·I` read in (ky, kx, I) order -> `[M, N]`.
    fn dense(
        x: FloatTensor<Self>,
        w: FloatTensor<Self>,
        b: FloatTensor<Self>,
        relu_out: bool,
    ) -> FloatTensor<Self>;
}

/// Is `device` burn's CPU backend (with or without autodiff)?
pub fn on_flex(device: &Device) -> bool {
    #[allow(unreachable_patterns)]
    match device.as_dispatch() {
        DispatchDevice::Flex(_) => true,
        DispatchDevice::Autodiff(inner) => matches!(&**inner, DispatchDevice::Flex(_)),
        _ => false,
    }
}

std::thread_local! {
    static BURN_OPS_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with burn's own operations in place of the fast ones on this thread: the tests'
/// reference for the network's function on flex.
pub fn with_burn_ops<R>(f: impl FnOnce() -> R) -> R {
    let before = BURN_OPS_ONLY.with(|c| c.replace(true));
    let r = f();
    BURN_OPS_ONLY.with(|c| c.set(before));
    r
}

/// Do the fast operations apply: `f32` tensors on flex (and not [`with_burn_ops`])?
fn fast_path<const D: usize, const E: usize>(x: &Tensor<D>, w: &Tensor<E>, b: &Tensor<1>) -> bool {
    [x.dtype(), w.dtype(), b.dtype()]
        .iter()
        .all(|d| *d == DType::F32)
        && on_flex(&x.device())
        && !BURN_OPS_ONLY.with(|c| c.get())
}

/// `relu?(conv3x3_pad1(relu?(x)) + b)` on channels-last `x [B, H, W, Cin]` with burn's
/// weights `w [Cout, Cin, 3, 3]`: the fast operation on flex (`f32`), burn's own elsewhere.
pub fn conv3x3(
    x: Tensor<4>,
    w: Tensor<4>,
    b: Tensor<1>,
    relu_in: bool,
    relu_out: bool,
) -> Tensor<4> {
    if !fast_path(&x, &w, &b) {
        return conv3x3_reference(x, w, b, relu_in, relu_out);
    }
    Tensor::from_dispatch(<Dispatch as CpuOps>::conv3x3_nhwc(
        x.into_dispatch(),
        w.into_dispatch(),
        b.into_dispatch(),
        relu_in,
        relu_out,
    ))
}

/// [`conv3x3`] with burn's own operations, on any backend.
pub fn conv3x3_reference(
    x: Tensor<4>,
    w: Tensor<4>,
    b: Tensor<1>,
    relu_in: bool,
    relu_out: bool,
) -> Tensor<4> {
    let x = if relu_in { relu(x) } else { x };
    let opts = ConvOptions::new([1, 1], [1, 1], [1, 1], 1);
    let y = conv2d(x.permute([0, 3, 1, 2]), w, Some(b), opts).permute([0, 2, 3, 1]);
    if relu_out { relu(y) } else { y }
}

/// `relu?(x·w + b)` for `x [M, K]`, `w [K, N]`, `b [N]`: the fast operation on flex (`f32`),
/// burn's own elsewhere.
pub fn dense(x: Tensor<2>, w: Tensor<2>, b: Tensor<1>, relu_out: bool) -> Tensor<2> {
    if !fast_path(&x, &w, &b) {
        return dense_reference(x, w, b, relu_out);
    }
    fast_dense(x, w, b, relu_out)
}

/// [`CpuOps::dense`] through burn's dispatch, for weights `[K, N]` or `[N, I, k, k]`.
fn fast_dense<const D: usize>(
    x: Tensor<2>,
    w: Tensor<D>,
    b: Tensor<1>,
    relu_out: bool,
) -> Tensor<2> {
    Tensor::from_dispatch(<Dispatch as CpuOps>::dense(
        x.into_dispatch(),
        w.into_dispatch(),
        b.into_dispatch(),
        relu_out,
    ))
}

/// [`dense`] with burn's own operations, on any backend.
pub fn dense_reference(x: Tensor<2>, w: Tensor<2>, b: Tensor<1>, relu_out: bool) -> Tensor<2> {
    let y = linear(x, w, Some(b));
    if relu_out { relu(y) } else { y }
}

/// A `k × k`, stride-`k` convolution on patches laid out as rows: `relu?(x·W + b)` for
/// `x [M, k·k·I]` (each row a patch in (ky, kx, I) order) and burn's convolution weights
/// `w [N, I, k, k]`. The fast operation reorders the weights in its own loop (flex's generic
/// permute of the stem's weights cost a tenth of an inference pass).
pub fn patch_dense(x: Tensor<2>, w: Tensor<4>, b: Tensor<1>, relu_out: bool) -> Tensor<2> {
    if !fast_path(&x, &w, &b) {
        return patch_dense_reference(x, w, b, relu_out);
    }
    fast_dense(x, w, b, relu_out)
}

/// [`patch_dense`] with burn's own operations, on any backend.
pub fn patch_dense_reference(
    x: Tensor<2>,
    w: Tensor<4>,
    b: Tensor<1>,
    relu_out: bool,
) -> Tensor<2> {
    let [n, i, kh, kw] = w.dims();
    let w = w.permute([2, 3, 1, 0]).reshape([kh * kw * i, n]);
    dense_reference(x, w, b, relu_out)
}

/// The sizes of a 3×3 convolution call: images `[b, h, w, cin]`, weights `[cout, cin, 3, 3]`.
#[derive(Clone, Copy, Debug)]
struct Dims {
    b: usize,
    h: usize,
    w: usize,
    cin: usize,
    cout: usize,
}

impl Dims {
    fn rows(&self) -> usize {
        self.b * self.h * self.w
    }
}

/// The sizes of a convolution call, checked.
fn conv_dims(x: &FlexTensor, w: &FlexTensor, b: &FlexTensor) -> Dims {
    let xs = x.shape();
    let ws = w.shape();
    assert!(
        xs.num_dims() == 4 && ws.num_dims() == 4 && ws[2] == 3 && ws[3] == 3,
        "conv3x3: x must be [B, H, W, Cin] and w [Cout, Cin, 3, 3], got {xs:?} and {ws:?}"
    );
    assert_eq!(
        xs[3], ws[1],
        "conv3x3: x has {} channels, w reads {}",
        xs[3], ws[1]
    );
    assert_eq!(b.shape().num_elements(), ws[0], "conv3x3: bias length");
    Dims {
        b: xs[0],
        h: xs[1],
        w: xs[2],
        cin: ws[1],
        cout: ws[0],
    }
}

/// A contiguous `f32` copy-free view (a copy only if `t` is strided).
fn host(t: &FlexTensor) -> FlexTensor {
    assert_eq!(t.dtype(), DType::F32, "conv3x3 runs on f32 tensors");
    t.to_contiguous()
}

fn slice(t: &FlexTensor) -> &[f32] {
    t.as_slice::<f32>().expect("a contiguous f32 tensor")
}

fn tensor(v: Vec<f32>, shape: impl Into<Shape>) -> FlexTensor {
    let shape = shape.into();
    assert_eq!(v.len(), shape.num_elements(), "conv3x3: output length");
    FlexTensor::new(Bytes::from_elems(v), Layout::contiguous(shape), DType::F32)
}

/// The convolution's forward pass.
fn conv_forward(
    x: &FlexTensor,
    w: &FlexTensor,
    b: &FlexTensor,
    relu_in: bool,
    relu_out: bool,
) -> FlexTensor {
    let d = conv_dims(x, w, b);
    let weights = prepared(w, As::Conv);
    let (x, bias) = (host(x), host(b));
    let image = [d.b, d.h, d.w];
    let y = kernels::conv3x3(
        slice(&x),
        image,
        &weights,
        Some(slice(&bias)),
        relu_in,
        relu_out,
    );
    tensor(y, [d.b, d.h, d.w, d.cout])
}

/// How a weight tensor is read: as a matrix `[K, N]`, or as burn's convolution weights
/// `[N, I, k, k]` ([`Weights::conv`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum As {
    Matrix,
    Conv,
}

mod prepared;
use prepared::prepared;

/// Zeroes `g` where `by` is not positive (the gradient through a ReLU, read at its input or
/// output: both are positive at the same places).
fn relu_mask(g: &mut [f32], by: &FlexTensor) {
    for (gv, v) in g.iter_mut().zip(slice(&host(by))) {
        if *v <= 0.0 {
            *gv = 0.0;
        }
    }
}

/// The gradient at an operation's output as a host vector, through its output ReLU (`y`, the
/// output after it) when it has one.
fn output_gradient(g: FlexTensor, y: Option<&FlexTensor>) -> Vec<f32> {
    let mut g = slice(&host(&g)).to_vec();
    if let Some(y) = y {
        relu_mask(&mut g, y);
    }
    g
}

/// Sums of the rows of `g` (`n` columns): a bias gradient.
fn column_sums(g: &[f32], n: usize) -> Vec<f32> {
    let mut sums = vec![0.0; n];
    for row in g.chunks_exact(n) {
        for (a, v) in sums.iter_mut().zip(row) {
            *a += v;
        }
    }
    sums
}

/// The dense layer's weights as a `[K, N]` matrix: as given, or reordered from convolution
/// weights `[N, I, k, k]`.
fn dense_matrix(w: &FlexTensor) -> (usize, usize, Vec<f32>) {
    let ws = w.shape();
    let w = host(w);
    match ws.num_dims() {
        2 => (ws[0], ws[1], slice(&w).to_vec()),
        4 => {
            let taps = ws[2] * ws[3];
            let m = conv_matrix(slice(&w), ws[0], ws[1], taps, false);
            (taps * ws[1], ws[0], m)
        }
        _ => panic!("dense: weights must be [K, N] or [N, I, k, k], got {ws:?}"),
    }
}

/// The dense layer's forward pass.
fn dense_forward(x: &FlexTensor, w: &FlexTensor, b: &FlexTensor, relu_out: bool) -> FlexTensor {
    let xs = x.shape();
    let read_as = if w.shape().num_dims() == 4 {
        As::Conv
    } else {
        As::Matrix
    };
    let weights = prepared(w, read_as);
    let (k, n) = (weights.k(), weights.n());
    assert!(
        xs.num_dims() == 2 && xs[1] == k,
        "dense: x must be [M, {k}], got {xs:?}"
    );
    let m = xs[0];
    assert_eq!(b.shape().num_elements(), n, "dense: bias length");
    let (x, bias) = (host(x), host(b));
    let y = kernels::dense(slice(&x), m, &weights, Some(slice(&bias)), relu_out);
    tensor(y, [m, n])
}

impl CpuOps for Flex {
    fn conv3x3_nhwc(
        x: FlexTensor,
        w: FlexTensor,
        b: FlexTensor,
        relu_in: bool,
        relu_out: bool,
    ) -> FlexTensor {
        conv_forward(&x, &w, &b, relu_in, relu_out)
    }

    fn dense(x: FlexTensor, w: FlexTensor, b: FlexTensor, relu_out: bool) -> FlexTensor {
        dense_forward(&x, &w, &b, relu_out)
    }
}

/// What the convolution's backward pass reads: the input before its ReLU (for the mask and
/// the weight gradient's im2col), the weights, and the output after its ReLU (for its mask).
#[derive(Clone)]
struct ConvSaved {
    x: FlexTensor,
    w: FlexTensor,
    y: Option<FlexTensor>,
    dims: Dims,
    relu_in: bool,
}

impl std::fmt::Debug for ConvSaved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConvSaved")
            .field("dims", &self.dims)
            .field("relu_in", &self.relu_in)
            .field("relu_out", &self.y.is_some())
            .finish()
    }
}

#[derive(Debug)]
struct Conv3x3Backward;

impl Backward<Flex, 3> for Conv3x3Backward {
    type State = ConvSaved;

    fn backward(self, ops: Ops<ConvSaved, 3>, grads: &mut Gradients, _: &mut Checkpointer) {
        let [node_x, node_w, node_b] = ops.parents;
        let s = ops.state;
        let d = s.dims;
        let m = d.rows();
        let g = output_gradient(grads.consume::<Flex>(&ops.node), s.y.as_ref()); // [M, Cout]
        if let Some(node) = node_b {
            grads.register::<Flex>(node.id, tensor(column_sums(&g, d.cout), [d.cout]));
        }
        if let Some(node) = node_w {
            let k = 9 * d.cin;
            let mut cols = Vec::new();
            im2col3(
                slice(&host(&s.x)),
                d.b,
                d.h,
                d.w,
                d.cin,
                s.relu_in,
                &mut cols,
            );
            let mut dmat = vec![0.0; k * d.cout];
            matmul_at_b(k, m, d.cout, &cols, &g, &mut dmat);
            let dw = conv_weights(&dmat, d.cout, d.cin, 9);
            grads.register::<Flex>(node.id, tensor(dw, [d.cout, d.cin, 3, 3]));
        }
        if let Some(node) = node_x {
            let flipped = Weights::conv(slice(&host(&s.w)), d.cout, d.cin, 9, true);
            let mut dx = kernels::conv3x3(&g, [d.b, d.h, d.w], &flipped, None, false, false);
            if s.relu_in {
                relu_mask(&mut dx, &s.x);
            }
            grads.register::<Flex>(node.id, tensor(dx, [d.b, d.h, d.w, d.cin]));
        }
    }
}

impl<C: CheckpointStrategy> CpuOps for Autodiff<Flex, C> {
    fn conv3x3_nhwc(
        x: FloatTensor<Self>,
        w: FloatTensor<Self>,
        b: FloatTensor<Self>,
        relu_in: bool,
        relu_out: bool,
    ) -> FloatTensor<Self> {
        let guards = [x.node(), w.node(), b.node()];
        match Conv3x3Backward
            .prepare::<C>(guards)
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => {
                let (xp, wp, bp) = (x.into_primitive(), w.into_primitive(), b.into_primitive());
                let y = conv_forward(&xp, &wp, &bp, relu_in, relu_out);
                let saved = ConvSaved {
                    dims: conv_dims(&xp, &wp, &bp),
                    x: xp,
                    w: wp,
                    y: relu_out.then(|| y.clone()),
                    relu_in,
                };
                prep.finish(saved, y)
            }
            OpsKind::UnTracked(prep) => {
                let (xp, wp, bp) = (x.into_primitive(), w.into_primitive(), b.into_primitive());
                prep.finish(conv_forward(&xp, &wp, &bp, relu_in, relu_out))
            }
        }
    }

    fn dense(
        x: FloatTensor<Self>,
        w: FloatTensor<Self>,
        b: FloatTensor<Self>,
        relu_out: bool,
    ) -> FloatTensor<Self> {
        let guards = [x.node(), w.node(), b.node()];
        let (xp, wp, bp) = (x.into_primitive(), w.into_primitive(), b.into_primitive());
        let y = dense_forward(&xp, &wp, &bp, relu_out);
        match DenseBackward
            .prepare::<C>(guards)
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => {
                let saved = DenseSaved {
                    x: xp,
                    w: wp,
                    y: relu_out.then(|| y.clone()),
                };
                prep.finish(saved, y)
            }
            OpsKind::UnTracked(prep) => prep.finish(y),
        }
    }
}

/// What the dense layer's backward pass reads.
#[derive(Clone)]
struct DenseSaved {
    x: FlexTensor,
    w: FlexTensor,
    y: Option<FlexTensor>,
}

impl std::fmt::Debug for DenseSaved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DenseSaved")
            .field("x", &self.x.shape())
            .field("w", &self.w.shape())
            .field("relu_out", &self.y.is_some())
            .finish()
    }
}

#[derive(Debug)]
struct DenseBackward;

impl Backward<Flex, 3> for DenseBackward {
    type State = DenseSaved;

    fn backward(self, ops: Ops<DenseSaved, 3>, grads: &mut Gradients, _: &mut Checkpointer) {
        let [node_x, node_w, node_b] = ops.parents;
        let s = ops.state;
        let m = s.x.shape()[0];
        let ws = s.w.shape();
        let (k, n, wmat) = dense_matrix(&s.w);
        let g = output_gradient(grads.consume::<Flex>(&ops.node), s.y.as_ref()); // [M, N]
        if let Some(node) = node_b {
            grads.register::<Flex>(node.id, tensor(column_sums(&g, n), [n]));
        }
        if let Some(node) = node_w {
            let x = host(&s.x);
            let mut dw = vec![0.0; k * n];
            matmul_at_b(k, m, n, slice(&x), &g, &mut dw);
            let dw = if ws.num_dims() == 4 {
                conv_weights(&dw, n, ws[1], ws[2] * ws[3])
            } else {
                dw
            };
            grads.register::<Flex>(node.id, tensor(dw, ws.clone()));
        }
        if let Some(node) = node_x {
            let mut dx = vec![0.0; m * k];
            let wt = MatRef::transposed(&wmat, n);
            matmul([m, n, k], MatRef::rows(&g, n), wt, &mut dx, false, true);
            grads.register::<Flex>(node.id, tensor(dx, [m, k]));
        }
    }
}
