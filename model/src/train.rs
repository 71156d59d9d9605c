//! The losses and one optimiser step: what the training loop, the overfitting test and
//! `crumble bench net` share.
//!
//! Policy loss: cross-entropy of the target distribution against the softmax of the logits
//! over **legal decisions only** (illegal logits are pushed to `-1e9` before the
//! log-softmax, so they get neither probability nor gradient). Value loss: mean squared error
//! of the value against the game result from the deciding player's view.

use crate::net::CrumbleNet;
use crate::planes::PLANES;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Tensor, TensorData};

/// One training batch on a device.
#[derive(Debug, Clone)]
pub struct TrainBatch {
    /// `[B, n, n, s, s, PLANES]` rasterised states in the cell layout
    /// ([`crate::planes::to_cells`]).
    pub input: Tensor<6>,
    /// `[B, 8·G·G + 1]` policy targets (0 at illegal decisions, summing to 1), in the cell
    /// order of the net's logits ([`crate::action::cell_order`]).
    pub policy: Tensor<2>,
    /// `[B, 8·G·G + 1]` legal mask (1 legal, 0 illegal), in cell order.
    pub mask: Tensor<2>,
    /// `[B]` value targets in `[-1, 1]`.
    pub value: Tensor<1>,
}

impl TrainBatch {
    /// Builds a batch from host buffers (row-major, lengths `B·PLANES·G·G`, `B·A`, `B·A`, `B`
    /// with `A = 8·G·G + 1`); `planes` in the rasteriser's layout, reordered here into the
    /// cell layout of a net with stem stride `s`, and `policy` and `mask` (action order) into
    /// the cell order of its logits. Panics on inconsistent lengths.
    pub fn from_host(
        g: usize,
        s: usize,
        planes: Vec<f32>,
        policy: Vec<f32>,
        mask: Vec<f32>,
        value: Vec<f32>,
        device: &Device,
    ) -> TrainBatch {
        let b = value.len();
        let a = 8 * g * g + 1;
        assert_eq!(planes.len(), b * PLANES * g * g, "planes length");
        assert_eq!(policy.len(), b * a, "policy length");
        assert_eq!(mask.len(), b * a, "mask length");
        let per = PLANES * g * g;
        let mut cells = vec![0.0; planes.len()];
        for (src, dst) in planes.chunks_exact(per).zip(cells.chunks_exact_mut(per)) {
            crate::planes::to_cells(src, g, s, dst);
        }
        let order = crate::action::cell_order(g, s);
        let reorder = |v: Vec<f32>| {
            let mut out = vec![0.0; v.len()];
            for (src, dst) in v.chunks_exact(a).zip(out.chunks_exact_mut(a)) {
                for (i, &t) in order.iter().enumerate() {
                    dst[t as usize] = src[i];
                }
            }
            out
        };
        let (policy, mask) = (reorder(policy), reorder(mask));
        let n = g / s;
        TrainBatch {
            input: Tensor::from_data(TensorData::new(cells, [b, n, n, s, s, PLANES]), device),
            policy: Tensor::from_data(TensorData::new(policy, [b, a]), device),
            mask: Tensor::from_data(TensorData::new(mask, [b, a]), device),
            value: Tensor::from_data(TensorData::new(value, [b]), device),
        }
    }
}

/// Both losses of a batch, as scalar tensors `[1]` (still attached to the graph).
#[derive(Debug, Clone)]
pub struct Losses {
    pub policy: Tensor<1>,
    pub value: Tensor<1>,
}

/// Computes the losses of `net` on `batch`.
pub fn losses(net: &CrumbleNet, batch: &TrainBatch) -> Losses {
    let out = net.forward_cells(batch.input.clone());
    let masked = out.logits + (batch.mask.clone() - 1.0) * 1e9; // [B, A]
    let logp = log_softmax(masked, 1);
    let policy = (batch.policy.clone() * logp).sum_dim(1).neg().mean(); // [1]
    let diff = out.value - batch.value.clone();
    let value = (diff.clone() * diff).mean(); // [1]
    Losses { policy, value }
}

/// Adam with PyTorch's epsilon (burn's default is 1e-5).
pub fn adam() -> ModuleOptimizer {
    AdamConfig::new().with_epsilon(1e-8).init()
}

/// One step: forward, losses, backward, optimiser update. `net` must live on an autodiff
/// device. Returns the updated net and the (policy, value) losses before the step.
pub fn step(
    net: CrumbleNet,
    optim: &mut ModuleOptimizer,
    batch: &TrainBatch,
    lr: f64,
) -> (CrumbleNet, f32, f32) {
    let l = losses(&net, batch);
    let pl = scalar(&l.policy);
    let vl = scalar(&l.value);
    let total = l.policy + l.value;
    let grads = GradientsParams::from_grads(total.backward(), &net);
    let net = optim.step(lr, net, grads);
    (net, pl, vl)
}

/// The value of a one-element tensor.
pub fn scalar(t: &Tensor<1>) -> f32 {
    t.clone()
        .into_data()
        .as_slice::<f32>()
        .map(|s| s[0])
        .unwrap_or(f32::NAN)
}
