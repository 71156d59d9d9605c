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
use burn::module::{Module, ModuleMapper, Param, ParamId};
use burn::tensor::activation::{relu, tanh};
use burn::tensor::{Device, Tensor};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

mod config;
mod layers;

pub use config::{ConfigError, NetConfig};
use layers::{BoardMask, ConvShape, const_param, masked, pool};
pub use layers::{Conv, Dense, ResBlock};

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
