//! The layers of the tower and heads: convolutions, dense layers, residual blocks, the
//! global pooling and the board mask, with their deterministic initialisation.

use crate::cpu_ops::dense;
use burn::module::{Module, Param};
use burn::tensor::module::conv2d;
use burn::tensor::ops::ConvOptions;
use burn::tensor::{Device, Tensor, TensorData};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

fn uniform_param<const D: usize>(
    shape: [usize; D],
    bound: f32,
    rng: &mut ChaCha8Rng,
    device: &Device,
) -> Param<Tensor<D>> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|_| rng.random_range(-bound..=bound)).collect();
    Param::from_tensor(Tensor::from_data(TensorData::new(v, shape), device))
}

pub(super) fn const_param<const D: usize>(
    shape: [usize; D],
    value: f32,
    device: &Device,
) -> Param<Tensor<D>> {
    let n: usize = shape.iter().product();
    Param::from_tensor(Tensor::from_data(
        TensorData::new(vec![value; n], shape),
        device,
    ))
}

/// A 2-D convolution with bias (weights `[out, in, k, k]`).
#[derive(Module, Debug)]
pub struct Conv {
    pub weight: Param<Tensor<4>>,
    pub bias: Param<Tensor<1>>,
    stride: usize,
    padding: usize,
}

/// The shape of a convolution: channels in and out, a `k × k` kernel, stride and padding.
#[derive(Clone, Copy, Debug)]
pub(super) struct ConvShape {
    cin: usize,
    cout: usize,
    k: usize,
    stride: usize,
    padding: usize,
}

impl ConvShape {
    pub(super) fn new(
        cin: usize,
        cout: usize,
        k: usize,
        stride: usize,
        padding: usize,
    ) -> ConvShape {
        ConvShape {
            cin,
            cout,
            k,
            stride,
            padding,
        }
    }
}

impl Conv {
    /// He-uniform weights scaled by `gain`, zero bias.
    pub(super) fn new(shape: ConvShape, gain: f32, rng: &mut ChaCha8Rng, device: &Device) -> Conv {
        let ConvShape {
            cin,
            cout,
            k,
            stride,
            padding,
        } = shape;
        let bound = gain * (6.0 / (cin * k * k) as f32).sqrt();
        Conv {
            weight: uniform_param([cout, cin, k, k], bound, rng, device),
            bias: const_param([cout], 0.0, device),
            stride,
            padding,
        }
    }

    /// # Shapes
    /// `[B, in, H, W]` -> `[B, out, H', W']`
    pub fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let opts = ConvOptions::new([self.stride; 2], [self.padding; 2], [1, 1], 1);
        conv2d(x, self.weight.val(), Some(self.bias.val()), opts)
    }

    /// This 3×3, padding-1 convolution on channels-last activations, with a ReLU before
    /// and/or after ([`crate::cpu_ops::conv3x3`]).
    ///
    /// # Shapes
    /// `[B, H, W, in]` -> `[B, H, W, out]`
    pub fn forward_3x3(&self, x: Tensor<4>, relu_in: bool, relu_out: bool) -> Tensor<4> {
        let [_, _, kh, kw] = self.weight.dims();
        assert!(
            kh == 3 && kw == 3 && self.stride == 1 && self.padding == 1,
            "forward_3x3 needs a 3×3, stride-1, padding-1 convolution"
        );
        crate::cpu_ops::conv3x3(x, self.weight.val(), self.bias.val(), relu_in, relu_out)
    }
}

/// A dense layer (weights `[in, out]`).
#[derive(Module, Debug)]
pub struct Dense {
    pub weight: Param<Tensor<2>>,
    pub bias: Param<Tensor<1>>,
}

impl Dense {
    pub(super) fn new(
        din: usize,
        dout: usize,
        gain: f32,
        rng: &mut ChaCha8Rng,
        device: &Device,
    ) -> Dense {
        let bound = gain * (6.0 / din as f32).sqrt();
        Dense {
            weight: uniform_param([din, dout], bound, rng, device),
            bias: const_param([dout], 0.0, device),
        }
    }

    /// # Shapes
    /// `[B, in]` -> `[B, out]`
    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        dense(x, self.weight.val(), self.bias.val(), false)
    }

    /// `relu(forward(x))` in one operation.
    pub fn forward_relu(&self, x: Tensor<2>) -> Tensor<2> {
        dense(x, self.weight.val(), self.bias.val(), true)
    }
}

/// `[B, H, W, C]` -> `[B, 2C]`: channel means then channel maxima. The callers pool
/// activations after a ReLU, so with a board mask (off-board cells already zero) the maxima
/// are the board's and only the means need the board's cell count.
pub(super) fn pool(x: Tensor<4>, mask: Option<&BoardMask>) -> Tensor<2> {
    let [b, h, w, c] = x.dims();
    let x = x.reshape([b, h * w, c]); // one reduced dimension: flex reduces it much faster
    let mean = match mask {
        None => x.clone().mean_dim(1).reshape([b, c]),
        Some(m) => x.clone().sum_dim(1).reshape([b, c]) / m.cells.clone(),
    };
    let max = x.max_dim(1).reshape([b, c]);
    Tensor::cat(vec![mean, max], 1)
}

/// The board cells of a batch at the tower's grid, for a net with a mask plane.
pub(super) struct BoardMask {
    /// `[B, n, n, 1]`: 1 on the board, 0 off it.
    on_board: Tensor<4>,
    /// `[B, 1]`: board cells per position (at least 1, so an empty mask cannot divide by 0).
    cells: Tensor<2>,
}

impl BoardMask {
    /// From plane `plane` of the cell-layout input `[B, n, n, s, s, I]`: a tower cell is on
    /// the board when its first fine cell is.
    pub(super) fn new(input: &Tensor<6>, plane: usize) -> BoardMask {
        let [b, n, _, _, _, _] = input.dims();
        let on_board = input
            .clone()
            .slice([0..b, 0..n, 0..n, 0..1, 0..1, plane..plane + 1])
            .reshape([b, n, n, 1]);
        let cells = on_board
            .clone()
            .reshape([b, n * n])
            .sum_dim(1)
            .clamp_min(1.0);
        BoardMask { on_board, cells }
    }

    fn apply(&self, x: Tensor<4>) -> Tensor<4> {
        x * self.on_board.clone()
    }
}

/// `x` masked to the board, or `x` itself without a mask.
pub(super) fn masked(x: Tensor<4>, mask: Option<&BoardMask>) -> Tensor<4> {
    match mask {
        Some(m) => m.apply(x),
        None => x,
    }
}

/// A pre-activation residual block, optionally with global pooling.
#[derive(Module, Debug)]
pub struct ResBlock {
    pub conv1: Conv,
    pub conv2: Conv,
    /// Global pooling: `[mean, max]` of the middle activations -> a bias per channel.
    pub gpool: Option<Dense>,
    /// Scale of the residual branch (learned).
    pub alpha: Param<Tensor<1>>,
}

impl ResBlock {
    /// # Shapes
    /// `[B, n, n, C]` -> `[B, n, n, C]` (channels-last)
    pub fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.forward_on(x, None)
    }

    /// [`ResBlock::forward`] with the activations kept to the board.
    pub(super) fn forward_on(&self, x: Tensor<4>, mask: Option<&BoardMask>) -> Tensor<4> {
        let h = masked(self.conv1.forward_3x3(x.clone(), true, true), mask); // relu(conv(relu x))
        let h = match &self.gpool {
            Some(d) => {
                let [b, _, _, c] = h.dims();
                let bias = d.forward(pool(h.clone(), mask)).reshape([b, 1, 1, c]);
                masked(h + bias, mask)
            }
            None => h,
        };
        let h = masked(self.conv2.forward_3x3(h, false, false), mask);
        x + h * self.alpha.val().reshape([1, 1, 1, 1])
    }
}
