//! The network: a residual tower at a coarse grid with KataGo-style global pooling, a fully
//! convolutional policy head back at the fine grid, a stop logit and a value head.
//!
//! ```text
//! input [B, I, G, G]                          G = N·R fine grid (the encoder's I planes)
//!  └ stem: conv k=s, stride s, + ReLU       -> [B, n, n, C]    s = R / cell_pixels, n = N·cell_pixels
//!  └ blocks × (pre-activation residual: x + α·conv3(relu(conv3(relu x)))), every
//!    gpool_every-th block adds a channel bias from [mean, max] pooling of its middle
//!  └ h = relu(x)                             -> [B, n, n, C]
//!  policy: conv1x1(h) -> [B, P·s², n, n] -depth-to-space-> [B, P, G, G]
//!          + conv1x1(input) (fine-grid skip: piece corners and phase at full resolution)
//!          flattened -> [B, P·G·G], then E extra logits from pooled h -> [B, P·G·G + E]
//!  value:  pooled h [B, 2C] -> linear -> ReLU -> linear -> tanh -> [B]
//!  ownership (optional, training only): conv1x1(h) -> [B, s², n, n] -depth-to-space->
//!          tanh -> [B, G, G]: what each fine cell holds at the game's end (KataGo's
//!          auxiliary target; the encoder says what, [`crate::Encoder::ownership`])
//!  short-term value (optional, training only): the value head's hidden layer -> linear ->
//!          tanh -> [B]: the discounted mean of the next turns' search values (KataGo's)
//!  soft policy (optional, training only): the policy head with its own conv1x1(h), sharing
//!          the fine skip and the extra logits: the policy target to the power 1/4 (KataGo's)
//! ```
//!
//! The shapes `I`, `P` and `E` come from the game's encoder ([`crate::encoder`]; Crumble: 33
//! rasteriser planes, 8 policy planes and `Stop`), so every game uses this one network.
//! One set of weights evaluates any board size `N` at the resolution `R` it was built for:
//! every layer is convolutional or reads pooled features. There is no normalisation layer;
//! each residual branch is scaled by a learned scalar `α` (initialised small, as in
//! SkipInit/Fixup), so inference and training compute the same function and nothing but
//! the parameters is state.
//!
//! The tower is channels-last (`[B, n, n, C]`): its 3×3 convolutions are
//! [`crate::cpu_ops`], burn's CPU backend's fast operation with its own backward pass, and
//! burn's `conv2d` on every other backend. The same module and the same weights serve
//! training and the search's evaluator on every device.

use crate::cpu_ops::{dense, patch_dense};
use burn::config::Config;
use burn::module::{Module, ModuleMapper, Param, ParamId};
use burn::tensor::activation::{relu, tanh};
use burn::tensor::module::conv2d;
use burn::tensor::ops::ConvOptions;
use burn::tensor::{Device, Tensor, TensorData};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Sizes of the network. A checkpoint stores this next to the weights.
///
/// The defaults are the net of `configs/default.toml` (what `crumble train` and
/// `crumble bench net` use), sized for self-play on a 2-core CPU; bigger machines set
/// bigger nets in their config (`configs/large.toml`).
#[derive(Config, Debug, PartialEq)]
pub struct NetConfig {
    /// Resolution `R` (grid units per board cell) of the positions this net reads.
    #[config(default = 8)]
    pub resolution: usize,
    /// Tower pixels per board cell (must divide `resolution`): the stem is a convolution
    /// with kernel and stride `resolution / cell_pixels`.
    #[config(default = 1)]
    pub cell_pixels: usize,
    /// Channels of the residual tower.
    #[config(default = 32)]
    pub channels: usize,
    /// Residual blocks.
    #[config(default = 4)]
    pub blocks: usize,
    /// Every `gpool_every`-th block (1-based) is a global-pooling block; 0 for none.
    #[config(default = 2)]
    pub gpool_every: usize,
    /// Hidden units of the value head.
    #[config(default = 48)]
    pub value_hidden: usize,
    /// Seed of the initial weights.
    #[config(default = 0)]
    pub seed: u64,
    /// Input planes `I` (the encoder's; default: Crumble's rasteriser).
    #[config(default = 33)]
    pub input_planes: usize,
    /// Policy planes `P` on the fine grid (the encoder's; default: Crumble's 8).
    #[config(default = 8)]
    pub policy_planes: usize,
    /// Extra policy logits from pooled features (the encoder's; default: Crumble's `Stop`).
    #[config(default = 1)]
    pub policy_extra: usize,
    /// The input plane that marks the board's cells, for a game whose board does not fill
    /// its square grid (Crumo's hexagon): cells off the board are zeroed after the stem and
    /// every convolution, and global pooling reads only the board. `None` (Crumble, Splinter):
    /// every cell counts.
    pub mask_plane: Option<usize>,
    /// An ownership head (KataGo's auxiliary target): trained where the run weights it
    /// (`[optim] ownership_weight`), never read by the search.
    #[config(default = false)]
    pub ownership: bool,
    /// A short-term value head (KataGo's auxiliary target: the discounted mean of the search
    /// values of the next turns), trained where the run weights it (`[optim]
    /// short_value_weight`), never read by the search.
    #[config(default = false)]
    pub short_value: bool,
    /// A soft policy head (KataGo's auxiliary target: the policy target raised to the power
    /// 1/4 and normalised, which teaches the ranking of the moves the search liked less),
    /// trained where the run weights it (`[optim] soft_policy_weight`), never read by the
    /// search. Its own coarse 1×1 convolution; it shares the fine skip and the extra logits
    /// with the policy.
    #[config(default = false)]
    pub soft_policy: bool,
}

/// Why a configuration cannot build a network.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("net config: {0}")]
    Invalid(String),
}

impl NetConfig {
    /// This config with the input and policy shapes of a game's encoder.
    pub fn with_encoder<G: crumble_core::GameState, E: crate::encoder::Encoder<G>>(
        self,
        encoder: &E,
    ) -> NetConfig {
        self.with_input_planes(E::INPUT_PLANES)
            .with_policy_planes(E::POLICY_PLANES)
            .with_policy_extra(E::POLICY_EXTRA)
            .with_mask_plane(encoder.board_mask_plane())
    }

    /// Does this net read and write the encoder's shapes?
    pub fn fits<G: crumble_core::GameState, E: crate::encoder::Encoder<G>>(
        &self,
        encoder: &E,
    ) -> Result<(), String> {
        let want = (E::INPUT_PLANES, E::POLICY_PLANES, E::POLICY_EXTRA);
        let have = (self.input_planes, self.policy_planes, self.policy_extra);
        if want == have && self.mask_plane != encoder.board_mask_plane() {
            Err(format!(
                "the network masks the board with input plane {:?}; this game's encoder with {:?}",
                self.mask_plane,
                encoder.board_mask_plane()
            ))
        } else if want == have {
            Ok(())
        } else {
            Err(format!(
                "the network reads {} planes and writes {} policy planes and {} extra logits; \
                 this game needs {}, {} and {}",
                have.0, have.1, have.2, want.0, want.1, want.2
            ))
        }
    }

    /// Stem kernel and stride: `resolution / cell_pixels`.
    pub fn stride(&self) -> usize {
        self.resolution / self.cell_pixels.max(1)
    }

    /// Checks the sizes (all positive, `cell_pixels` divides `resolution`, nothing huge).
    pub fn validate(&self) -> Result<(), ConfigError> {
        let bad = |m: String| Err(ConfigError::Invalid(m));
        if self.resolution == 0 || self.resolution > 64 {
            return bad(format!("resolution {} is not in 1..=64", self.resolution));
        }
        if self.cell_pixels == 0 || !self.resolution.is_multiple_of(self.cell_pixels) {
            return bad(format!(
                "cell_pixels {} must be positive and divide resolution {}",
                self.cell_pixels, self.resolution
            ));
        }
        if self.channels == 0 || self.channels > 1024 {
            return bad(format!("channels {} is not in 1..=1024", self.channels));
        }
        if self.blocks > 64 {
            return bad(format!("blocks {} is more than 64", self.blocks));
        }
        if self.input_planes == 0 || self.input_planes > 1024 {
            return bad(format!(
                "input_planes {} is not in 1..=1024",
                self.input_planes
            ));
        }
        if self.policy_planes == 0 || self.policy_planes > 64 {
            return bad(format!(
                "policy_planes {} is not in 1..=64",
                self.policy_planes
            ));
        }
        if self.policy_extra > 64 {
            return bad(format!(
                "policy_extra {} is more than 64",
                self.policy_extra
            ));
        }
        if let Some(m) = self.mask_plane
            && m >= self.input_planes
        {
            return bad(format!(
                "mask_plane {m} is not one of the {} input planes",
                self.input_planes
            ));
        }
        if self.value_hidden == 0 || self.value_hidden > 4096 {
            return bad(format!(
                "value_hidden {} is not in 1..=4096",
                self.value_hidden
            ));
        }
        Ok(())
    }

    /// Number of parameters (weights and biases, all `f32`) of the net this config builds:
    /// what [`NetConfig::init`] allocates. A checkpoint's weights must be at least four bytes
    /// per parameter, which lets the loader refuse a config that claims a huge net before
    /// allocating it. Saturates instead of overflowing for absurd sizes.
    pub fn parameter_count(&self) -> u64 {
        let c = self.channels as u64;
        let s = self.stride() as u64;
        let p = self.input_planes as u64;
        let q = self.policy_planes as u64;
        let e = self.policy_extra as u64;
        let h = self.value_hidden as u64;
        let conv = |cin: u64, cout: u64, k: u64| {
            cout.saturating_mul(cin)
                .saturating_mul(k * k)
                .saturating_add(cout)
        };
        let dense = |din: u64, dout: u64| din.saturating_mul(dout).saturating_add(dout);
        let mut n = conv(p, c, s);
        for b in 0..self.blocks {
            n = n
                .saturating_add(2u64.saturating_mul(conv(c, c, 3)))
                .saturating_add(1); // + alpha
            if self.gpool_every > 0 && (b + 1) % self.gpool_every == 0 {
                n = n.saturating_add(dense(2 * c, c));
            }
        }
        let extra = if e > 0 { dense(2 * c, e) } else { 0 };
        let ownership = if self.ownership { conv(c, s * s, 1) } else { 0 };
        let short = if self.short_value { dense(h, 1) } else { 0 };
        let soft = if self.soft_policy {
            conv(c, q.saturating_mul(s * s), 1)
        } else {
            0
        };
        n.saturating_add(conv(c, q.saturating_mul(s * s), 1))
            .saturating_add(conv(p, q, 1))
            .saturating_add(extra)
            .saturating_add(dense(2 * c, h))
            .saturating_add(dense(h, 1))
            .saturating_add(ownership)
            .saturating_add(short)
            .saturating_add(soft)
    }

    /// Floating-point operations (multiply and add counted separately) of one forward pass
    /// for an `n × n` board: convolutions, linear layers, pooling and the depth-to-space are
    /// counted; activations are not.
    pub fn flops_per_position(&self, n: usize) -> u64 {
        let c = self.channels as u64;
        let s = self.stride() as u64;
        let tn = (n * self.cell_pixels) as u64; // tower side
        let g = (n * self.resolution) as u64; // fine side
        let px = tn * tn;
        let (p, q) = (self.input_planes as u64, self.policy_planes as u64);
        let mut f = 2 * px * c * p * s * s; // stem
        for b in 0..self.blocks {
            f += 2 * 2 * px * c * c * 9;
            if self.gpool_every > 0 && (b + 1) % self.gpool_every == 0 {
                f += 2 * px * c + 2 * (2 * c) * c;
            }
        }
        f += 2 * px * c * q * s * s; // policy 1x1 to P·s² channels
        f += 2 * g * g * p * q; // fine skip
        f += 2 * px * c; // head pooling
        f += 2 * 2 * c * self.policy_extra as u64; // extra logits
        f += 2 * 2 * c * self.value_hidden as u64 + 2 * self.value_hidden as u64; // value
        if self.ownership {
            f += 2 * px * c * s * s; // ownership 1x1 to s² channels
        }
        if self.short_value {
            f += 2 * self.value_hidden as u64;
        }
        if self.soft_policy {
            f += 2 * px * c * q * s * s; // its own policy 1x1
        }
        f
    }
}

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

fn const_param<const D: usize>(shape: [usize; D], value: f32, device: &Device) -> Param<Tensor<D>> {
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
struct ConvShape {
    cin: usize,
    cout: usize,
    k: usize,
    stride: usize,
    padding: usize,
}

impl ConvShape {
    fn new(cin: usize, cout: usize, k: usize, stride: usize, padding: usize) -> ConvShape {
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
    fn new(shape: ConvShape, gain: f32, rng: &mut ChaCha8Rng, device: &Device) -> Conv {
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
    fn new(din: usize, dout: usize, gain: f32, rng: &mut ChaCha8Rng, device: &Device) -> Dense {
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
fn pool(x: Tensor<4>, mask: Option<&BoardMask>) -> Tensor<2> {
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
struct BoardMask {
    /// `[B, n, n, 1]`: 1 on the board, 0 off it.
    on_board: Tensor<4>,
    /// `[B, 1]`: board cells per position (at least 1, so an empty mask cannot divide by 0).
    cells: Tensor<2>,
}

impl BoardMask {
    /// From plane `plane` of the cell-layout input `[B, n, n, s, s, I]`: a tower cell is on
    /// the board when its first fine cell is.
    fn new(input: &Tensor<6>, plane: usize) -> BoardMask {
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
fn masked(x: Tensor<4>, mask: Option<&BoardMask>) -> Tensor<4> {
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
    fn forward_on(&self, x: Tensor<4>, mask: Option<&BoardMask>) -> Tensor<4> {
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

/// The Crumble network.
#[derive(Module, Debug)]
pub struct CrumbleNet {
    pub stem: Conv,
    pub blocks: Vec<ResBlock>,
    /// 1×1 convolution to `P·s²` channels, then depth-to-space to the `P` fine planes.
    pub policy: Conv,
    /// 1×1 convolution of the input planes to the `P` fine planes.
    pub policy_fine: Conv,
    /// The extra policy logits from pooled features (Crumble's `Stop`); none when `E = 0`.
    pub stop: Option<Dense>,
    pub value1: Dense,
    pub value2: Dense,
    /// 1×1 convolution to `s²` channels, then depth-to-space to the ownership plane; none
    /// without [`NetConfig::ownership`]. Last, so that nets without it keep their weights
    /// and parameter numbers.
    pub ownership: Option<Conv>,
    /// The short-term value from the value head's hidden layer; none without
    /// [`NetConfig::short_value`]. After `ownership` for the same reason.
    pub short_value: Option<Dense>,
    /// The soft policy's coarse 1×1 convolution (like `policy`); none without
    /// [`NetConfig::soft_policy`]. After `short_value` for the same reason.
    pub soft_policy: Option<Conv>,
    stride: usize,
    /// The input plane of the board mask ([`NetConfig::mask_plane`]).
    mask_plane: Option<usize>,
}

/// What one forward pass returns.
#[derive(Debug, Clone)]
pub struct NetOutput {
    /// `[B, P·G·G + E]` policy logits (policy-index order).
    pub logits: Tensor<2>,
    /// `[B]` values in `(-1, 1)` from the deciding player's view.
    pub value: Tensor<1>,
    /// `[B, G·G]` ownership in `(-1, 1)` (the same cell order as the policy planes), when
    /// the net has the head.
    pub ownership: Option<Tensor<2>>,
    /// `[B]` short-term values in `(-1, 1)`, when the net has the head.
    pub short_value: Option<Tensor<1>>,
    /// `[B, P·G·G + E]` soft policy logits, in the order of `logits`, when the net has the
    /// head.
    pub soft_logits: Option<Tensor<2>>,
}

impl NetConfig {
    /// Builds the network with weights drawn from `seed` (deterministic, independent of
    /// burn's global RNG).
    pub fn init(&self, device: &Device) -> Result<CrumbleNet, ConfigError> {
        self.build(device, false)
    }

    /// [`NetConfig::init`] with the output layers of the policy and value heads at zero (the
    /// rest drawn alike), so the untrained net gives uniform priors and value 0 everywhere
    /// and a run's first search is the uniform search. With random outputs the first
    /// self-play follows the random net's arbitrary preferences, which Crumo's training
    /// never unlearned (its policy collapsed on one stack height). An initialisation, not
    /// an architecture: checkpoints do not record it.
    pub fn init_zero_outputs(&self, device: &Device) -> Result<CrumbleNet, ConfigError> {
        self.build(device, true)
    }

    fn build(&self, device: &Device, zero_outputs: bool) -> Result<CrumbleNet, ConfigError> {
        self.validate()?;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let c = self.channels;
        let s = self.stride();
        let (p, q) = (self.input_planes, self.policy_planes);
        let out_gain = if zero_outputs { 0.0 } else { 0.1 };
        let stem = Conv::new(ConvShape::new(p, c, s, s, 0), 1.0, &mut rng, device);
        let blocks = (0..self.blocks)
            .map(|b| ResBlock {
                conv1: Conv::new(ConvShape::new(c, c, 3, 1, 1), 1.0, &mut rng, device),
                conv2: Conv::new(ConvShape::new(c, c, 3, 1, 1), 1.0, &mut rng, device),
                gpool: (self.gpool_every > 0 && (b + 1) % self.gpool_every == 0)
                    .then(|| Dense::new(2 * c, c, 0.5, &mut rng, device)),
                alpha: const_param([1], 0.2, device),
            })
            .collect();
        let net = CrumbleNet {
            stem,
            blocks,
            policy: Conv::new(
                ConvShape::new(c, q * s * s, 1, 1, 0),
                out_gain,
                &mut rng,
                device,
            ),
            policy_fine: Conv::new(ConvShape::new(p, q, 1, 1, 0), out_gain, &mut rng, device),
            stop: (self.policy_extra > 0)
                .then(|| Dense::new(2 * c, self.policy_extra, out_gain, &mut rng, device)),
            value1: Dense::new(2 * c, self.value_hidden, 1.0, &mut rng, device),
            value2: Dense::new(self.value_hidden, 1, out_gain, &mut rng, device),
            ownership: self.ownership.then(|| {
                Conv::new(
                    ConvShape::new(c, s * s, 1, 1, 0),
                    out_gain,
                    &mut rng,
                    device,
                )
            }),
            short_value: self
                .short_value
                .then(|| Dense::new(self.value_hidden, 1, out_gain, &mut rng, device)),
            soft_policy: self.soft_policy.then(|| {
                Conv::new(
                    ConvShape::new(c, q * s * s, 1, 1, 0),
                    out_gain,
                    &mut rng,
                    device,
                )
            }),
            stride: s,
            mask_plane: self.mask_plane,
        };
        Ok(net.map(&mut NumberParams(0)))
    }
}

/// A coarse policy 1×1 convolution's weight `[C, s·s·P]` and bias `[s·s·P]` reordered for the
/// cell layout: its output channel `k·s² + iy·s + ix` goes to fine cell (iy, ix), plane k.
fn depth_to_space_weights(conv: &Conv, q: usize, s: usize, c: usize) -> (Tensor<2>, Tensor<1>) {
    let w = conv
        .weight
        .val()
        .reshape([q, s, s, c])
        .permute([1, 2, 0, 3]) // [s, s, P, C]
        .reshape([s * s * q, c])
        .transpose(); // [C, s·s·P]
    let bias = conv
        .bias
        .val()
        .reshape([q, s, s])
        .permute([1, 2, 0])
        .reshape([s * s * q]);
    (w, bias)
}

/// Gives the parameters fixed ids in visiting order. burn draws parameter ids at random, and
/// checkpoints and optimiser states store them: fixed ids make two runs of one config write
/// the same files, byte for byte (a killed and resumed run is compared with that).
struct NumberParams(u64);

impl ModuleMapper for NumberParams {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        self.0 += 1;
        let (_, value, mapper) = param.consume();
        Param::from_mapped_value(ParamId::from(0xC4_0000_0000 + self.0), value, mapper)
    }
}

impl CrumbleNet {
    /// Forward pass on planes in the encoder's layout: reorders them into the cell layout on
    /// the device and runs [`CrumbleNet::forward_cells`] (which is faster to feed directly:
    /// [`crate::Layout::to_cells`] does the reordering on the host).
    ///
    /// # Shapes
    /// - input: `[B, I, G, G]` with `G` a multiple of the stem stride
    /// - logits: `[B, P·G·G + E]` (policy-index order), value: `[B]`
    pub fn forward(&self, input: Tensor<4>) -> NetOutput {
        let [b, p, g, _] = input.dims();
        let (s, q, e) = (self.stride, self.policy_planes(), self.policy_extra());
        let n = g / s;
        let cells = input
            .reshape([b, p, n, s, n, s])
            .permute([0, 2, 4, 3, 5, 1]); // [B, n, n, s, s, I]
        let o = self.forward_cells(cells);
        let index_order = |cell_order: Tensor<2>| {
            let planes = cell_order
                .clone()
                .slice([0..b, 0..q * g * g])
                .reshape([b, n, n, s, s, q])
                .permute([0, 5, 1, 3, 2, 4]) // [B, P, n, s, n, s]
                .reshape([b, q * g * g]);
            if e > 0 {
                let extra = cell_order.slice([0..b, q * g * g..q * g * g + e]);
                Tensor::cat(vec![planes, extra], 1)
            } else {
                planes
            }
        };
        let logits = index_order(o.logits);
        let soft_logits = o.soft_logits.map(index_order);
        let ownership = o.ownership.map(|t| {
            t.reshape([b, n, n, s, s])
                .permute([0, 1, 3, 2, 4]) // [B, n, s, n, s]
                .reshape([b, g * g])
        });
        NetOutput {
            logits,
            value: o.value,
            ownership,
            short_value: o.short_value,
            soft_logits,
        }
    }

    /// Forward pass on planes in the cell layout ([`crate::Layout::to_cells`]): element
    /// `[b, cy, cx, iy, ix, c]` is plane `c` at fine cell `(cx·s + ix, cy·s + iy)`. In this
    /// layout the stem (kernel = stride = `s`) and the fine policy skip (1×1) are plain
    /// matrix multiplies with no reordering.
    ///
    /// The policy logits come out in the same cell order (`[B, n, n, s, s, P]` flattened,
    /// then the extra logits), not in policy-index order: [`crate::Layout::cell_order`] maps
    /// between them on the host.
    ///
    /// # Shapes
    /// - input: `[B, n, n, s, s, I]` with `s` the stem stride, `G = n·s`
    /// - logits: `[B, P·G·G + E]` (cell order), value: `[B]`
    pub fn forward_cells(&self, input: Tensor<6>) -> NetOutput {
        let [b, n, _, s, _, p] = input.dims();
        assert_eq!(s, self.stride, "cell side must be the stem stride");
        let g = n * s;
        let q = self.policy_planes();
        let c = self.stem.weight.dims()[0];
        // Stem: each cell's s·s·I values, in (iy, ix, I) order, times the convolution.
        let mask = self.mask_plane.map(|m| BoardMask::new(&input, m));
        let mask = mask.as_ref();
        let rows = input.clone().reshape([b * n * n, s * s * p]);
        let w = self.stem.weight.val();
        let stem = patch_dense(rows, w, self.stem.bias.val(), true).reshape([b, n, n, c]);
        let mut x = masked(stem, mask);
        for block in &self.blocks {
            x = block.forward_on(x, mask);
        }
        let h = relu(x); // [B, n, n, C]
        let pooled = pool(h.clone(), mask); // [B, 2C]

        // Policy in the cell layout [B, n, n, s, s, P].
        let (wp, bp) = depth_to_space_weights(&self.policy, q, s, c);
        let hc = h.reshape([b * n * n, c]); // [B·n·n, C]
        // The soft policy's coarse part, like the policy's below.
        let soft_coarse = self.soft_policy.as_ref().map(|sp| {
            let (w, bias) = depth_to_space_weights(sp, q, s, c);
            dense(hc.clone(), w, bias, false).reshape([b, n, n, s, s, q])
        });
        // Ownership in the cell layout [B, n, n, s, s]: channel `iy·s + ix` to fine cell
        // (iy, ix).
        let ownership = self.ownership.as_ref().map(|o| {
            let w = o.weight.val().reshape([s * s, c]).transpose(); // [C, s·s]
            let own = dense(hc.clone(), w, o.bias.val(), false);
            tanh(own).reshape([b, g * g])
        });
        let coarse = dense(hc, wp, bp, false).reshape([b, n, n, s, s, q]);
        let wf = self.policy_fine.weight.val().reshape([q, p]).transpose(); // [I, P]
        let fine = dense(
            input.reshape([b * g * g, p]),
            wf,
            self.policy_fine.bias.val(),
            false,
        )
        .reshape([b, n, n, s, s, q]);
        let extra = self.stop.as_ref().map(|stop| stop.forward(pooled.clone()));
        let with_extra = |planes: Tensor<6>| {
            let planes = planes.reshape([b, q * g * g]); // cell order
            match &extra {
                // [B, P·G·G + E]
                Some(x) => Tensor::cat(vec![planes, x.clone()], 1),
                None => planes,
            }
        };
        let soft_logits = soft_coarse.map(|sc| with_extra(sc + fine.clone()));
        let logits = with_extra(coarse + fine);

        let v = self.value1.forward_relu(pooled); // [B, hidden]
        let short_value = self
            .short_value
            .as_ref()
            .map(|d| tanh(d.forward(v.clone())).reshape([b]));
        let value = tanh(self.value2.forward(v)).reshape([b]); // [B]
        NetOutput {
            logits,
            value,
            ownership,
            short_value,
            soft_logits,
        }
    }

    /// Input planes `I`.
    pub fn input_planes(&self) -> usize {
        self.policy_fine.weight.dims()[1]
    }

    /// Policy planes `P`.
    pub fn policy_planes(&self) -> usize {
        self.policy_fine.weight.dims()[0]
    }

    /// Extra policy logits `E`.
    pub fn policy_extra(&self) -> usize {
        self.stop.as_ref().map_or(0, |d| d.weight.dims()[1])
    }

    /// Stem stride `R / cell_pixels`: the fine grid side must be a multiple of it.
    pub fn stride(&self) -> usize {
        self.stride
    }
}
