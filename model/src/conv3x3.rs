//! The residual tower's 3×3 convolution as one burn operation on channels-last activations,
//! with an optional ReLU before and after: `y = relu?(conv3x3_pad1(relu?(x)) + b)`.
//!
//! On burn's CPU backend (`flex`, with or without autodiff) it is a backend extension with its
//! own forward **and backward** passes ([`ConvExt`]): one im2col and one `gemm` per pass on
//! both cores, the im2col kept from forward for the weight gradient, and no NCHW↔NHWC copies.
//! flex's generic convolution (and its transposed convolution for the input gradient) is
//! several times slower at the tower's 6×6 images. Every other backend (`tch`, `wgpu`,
//! `cuda`) runs [`conv3x3_reference`]: burn's own `conv2d` between two permutes, which is
//! also what the tests hold the fast path to.

use crate::kernels::{MatRef, conv3_matrix, conv3_weights, im2col3, matmul, matmul_at_b};
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
use burn::tensor::module::conv2d;
use burn::tensor::ops::ConvOptions;
use burn::tensor::{DType, Device, Shape, Tensor};
use std::sync::Arc;

/// The fast convolution, implemented for flex and autodiff over flex.
#[backend_extension(Flex, Autodiff)]
pub trait ConvExt: Backend {
    /// `x [B, H, W, Cin]`, `w [Cout, Cin, 3, 3]`, `b [Cout]` -> `[B, H, W, Cout]`.
    fn conv3x3_nhwc(
        x: FloatTensor<Self>,
        w: FloatTensor<Self>,
        b: FloatTensor<Self>,
        relu_in: bool,
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

/// `relu?(conv3x3_pad1(relu?(x)) + b)` on channels-last `x [B, H, W, Cin]` with burn's
/// weights `w [Cout, Cin, 3, 3]`: the fast operation on flex (`f32`), burn's own elsewhere.
pub fn conv3x3(
    x: Tensor<4>,
    w: Tensor<4>,
    b: Tensor<1>,
    relu_in: bool,
    relu_out: bool,
) -> Tensor<4> {
    let f32s = [x.dtype(), w.dtype(), b.dtype()]
        .iter()
        .all(|d| *d == DType::F32);
    if !(f32s && on_flex(&x.device())) {
        return conv3x3_reference(x, w, b, relu_in, relu_out);
    }
    Tensor::from_dispatch(<Dispatch as ConvExt>::conv3x3_nhwc(
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

/// The sizes of one call.
#[derive(Clone, Copy, Debug)]
struct Dims {
    b: usize,
    h: usize,
    w: usize,
    cin: usize,
    cout: usize,
}

impl Dims {
    fn of(x: &FlexTensor, w: &FlexTensor, b: &FlexTensor) -> Dims {
        let xs = x.shape();
        let ws = w.shape();
        assert!(
            xs.num_dims() == 4 && ws.num_dims() == 4 && ws[2] == 3 && ws[3] == 3,
            "conv3x3: x must be [B, H, W, Cin] and w [Cout, Cin, 3, 3], got {xs:?} and {ws:?}"
        );
        assert_eq!(xs[3], ws[1], "conv3x3: x has {} channels, w reads {}", xs[3], ws[1]);
        assert_eq!(b.shape().num_elements(), ws[0], "conv3x3: bias length");
        Dims {
            b: xs[0],
            h: xs[1],
            w: xs[2],
            cin: ws[1],
            cout: ws[0],
        }
    }

    fn rows(&self) -> usize {
        self.b * self.h * self.w
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

/// The forward pass; also returns the im2col of the (rectified) input for the weight gradient.
fn forward(
    x: &FlexTensor,
    w: &FlexTensor,
    b: &FlexTensor,
    relu_in: bool,
    relu_out: bool,
) -> (FlexTensor, Vec<f32>) {
    let d = Dims::of(x, w, b);
    let (x, w, bias) = (host(x), host(w), host(b));
    let mut cols = Vec::new();
    im2col3(slice(&x), d.b, d.h, d.w, d.cin, relu_in, &mut cols);
    let wmat = conv3_matrix(slice(&w), d.cout, d.cin, false);
    let m = d.rows();
    let mut y = vec![0.0; m * d.cout];
    let k = 9 * d.cin;
    matmul(
        m,
        k,
        d.cout,
        MatRef::rows(&cols, k),
        MatRef::rows(&wmat, d.cout),
        &mut y,
        false,
        true,
    );
    let bias = slice(&bias);
    for row in y.chunks_exact_mut(d.cout) {
        for (v, bb) in row.iter_mut().zip(bias) {
            *v += bb;
            if relu_out {
                *v = v.max(0.0);
            }
        }
    }
    (tensor(y, [d.b, d.h, d.w, d.cout]), cols)
}

impl ConvExt for Flex {
    fn conv3x3_nhwc(
        x: FlexTensor,
        w: FlexTensor,
        b: FlexTensor,
        relu_in: bool,
        relu_out: bool,
    ) -> FlexTensor {
        forward(&x, &w, &b, relu_in, relu_out).0
    }
}

/// What the backward pass reads: the input before its ReLU (for the mask), the weights, the
/// forward im2col, and the output after its ReLU (for its mask).
#[derive(Clone)]
struct Saved {
    x: FlexTensor,
    w: FlexTensor,
    cols: Arc<Vec<f32>>,
    y: Option<FlexTensor>,
    dims: Dims,
    relu_in: bool,
}

impl std::fmt::Debug for Saved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Saved")
            .field("dims", &self.dims)
            .field("relu_in", &self.relu_in)
            .field("relu_out", &self.y.is_some())
            .finish()
    }
}

#[derive(Debug)]
struct Conv3x3Backward;

impl Backward<Flex, 3> for Conv3x3Backward {
    type State = Saved;

    fn backward(self, ops: Ops<Saved, 3>, grads: &mut Gradients, _: &mut Checkpointer) {
        let [node_x, node_w, node_b] = ops.parents;
        let s = ops.state;
        let d = s.dims;
        let m = d.rows();
        let g = host(&grads.consume::<Flex>(&ops.node));
        let mut g = slice(&g).to_vec(); // [M, Cout]
        if let Some(y) = &s.y {
            for (gv, yv) in g.iter_mut().zip(slice(&host(y))) {
                if *yv <= 0.0 {
                    *gv = 0.0;
                }
            }
        }
        if let Some(node) = node_b {
            let mut db = vec![0.0; d.cout];
            for row in g.chunks_exact(d.cout) {
                for (a, v) in db.iter_mut().zip(row) {
                    *a += v;
                }
            }
            grads.register::<Flex>(node.id, tensor(db, [d.cout]));
        }
        if let Some(node) = node_w {
            let k = 9 * d.cin;
            let mut dmat = vec![0.0; k * d.cout];
            matmul_at_b(k, m, d.cout, &s.cols, &g, &mut dmat);
            let dw = conv3_weights(&dmat, d.cout, d.cin);
            grads.register::<Flex>(node.id, tensor(dw, [d.cout, d.cin, 3, 3]));
        }
        if let Some(node) = node_x {
            let mut gcols = Vec::new();
            im2col3(&g, d.b, d.h, d.w, d.cout, false, &mut gcols);
            let wflip = conv3_matrix(slice(&host(&s.w)), d.cout, d.cin, true);
            let k = 9 * d.cout;
            let mut dx = vec![0.0; m * d.cin];
            matmul(
                m,
                k,
                d.cin,
                MatRef::rows(&gcols, k),
                MatRef::rows(&wflip, d.cin),
                &mut dx,
                false,
                true,
            );
            if s.relu_in {
                for (gv, xv) in dx.iter_mut().zip(slice(&host(&s.x))) {
                    if *xv <= 0.0 {
                        *gv = 0.0;
                    }
                }
            }
            grads.register::<Flex>(node.id, tensor(dx, [d.b, d.h, d.w, d.cin]));
        }
    }
}

impl<C: CheckpointStrategy> ConvExt for Autodiff<Flex, C> {
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
                let (y, cols) = forward(&xp, &wp, &bp, relu_in, relu_out);
                let saved = Saved {
                    dims: Dims::of(&xp, &wp, &bp),
                    x: xp,
                    w: wp,
                    cols: Arc::new(cols),
                    y: relu_out.then(|| y.clone()),
                    relu_in,
                };
                prep.finish(saved, y)
            }
            OpsKind::UnTracked(prep) => {
                let (xp, wp, bp) = (x.into_primitive(), w.into_primitive(), b.into_primitive());
                prep.finish(forward(&xp, &wp, &bp, relu_in, relu_out).0)
            }
        }
    }
}
