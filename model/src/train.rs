//! The losses and one optimiser step: what the training loop, the overfitting test and
//! `crumble bench net` share.
//!
//! Policy loss: cross-entropy of the target distribution against the softmax of the logits
//! over **legal decisions only** (illegal logits are pushed to `-1e9` before the
//! log-softmax, so they get neither probability nor gradient). Value loss: mean squared error
//! of the value against the game result from the deciding player's view. Ownership loss
//! (when the batch has ownership targets and the net the head): mean squared error per fine
//! cell, over the samples that have a target. Short-term value loss (likewise): mean squared
//! error of the short-term value head. Soft policy loss (when the net has the head): the
//! policy loss of the soft logits against the policy target raised to the power 1/4 and
//! normalised (KataGo's), over the same legal decisions.

use crate::layout::Layout;
use crate::net::CrumbleNet;
use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::optim::decay::WeightDecayConfig;
use burn::optim::grad_clipping::GradientClippingConfig;
use burn::optim::momentum::MomentumConfig;
use burn::optim::{AdamConfig, GradientsParams, SgdConfig};

/// The optimiser of the training net, with its state (moments, step counts).
pub use burn::optim::ModuleOptimizer as Optimizer;
use burn::optim::ModuleOptimizer;
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Int, Tensor, TensorData};

/// One training batch on a device. The policy is stored at the legal decisions only: a
/// position has at most a few hundred of them among the tens of thousands of logits, and the
/// softmax over the legal ones is the whole loss (illegal logits get neither probability nor
/// gradient), so gathering them first spares the loss a pass over every logit.
#[derive(Debug, Clone)]
pub struct TrainBatch {
    /// `[B, n, n, s, s, I]` encoded states in the cell layout ([`Layout::to_cells`]).
    pub input: Tensor<6>,
    /// `[B, L]` each sample's legal decisions as indices into the net's logits (cell order,
    /// [`Layout::cell_order`]), padded to the batch's most legal decisions `L` with index 0.
    pub legal: Tensor<2, Int>,
    /// `[B, L]` 0 at a legal decision, `-1e9` at padding (added to the gathered logits).
    pub pad: Tensor<2>,
    /// `[B, L]` policy targets at the legal decisions (0 at padding), summing to 1.
    pub policy: Tensor<2>,
    /// `[B]` value targets in `[-1, 1]`.
    pub value: Tensor<1>,
    /// Ownership targets ([`TrainBatch::with_ownership`]).
    pub ownership: Option<OwnershipTargets>,
    /// `[B]` short-term value targets in `[-1, 1]` ([`TrainBatch::with_short_values`]).
    pub short_value: Option<Tensor<1>>,
}

/// A batch's ownership targets, in the cell order of the net's ownership output.
#[derive(Debug, Clone)]
pub struct OwnershipTargets {
    /// `[B, G·G]` in `[-1, 1]` (0 for a sample without a target).
    pub target: Tensor<2>,
    /// `[B, 1]` 1 for a sample with a target, 0 without.
    pub has: Tensor<2>,
    /// Samples with a target (at least 1, to divide by).
    pub count: f32,
}

impl TrainBatch {
    /// Builds a batch from host buffers (row-major, lengths `B·I·G·G`, `B·A`, `B·A`, `B` with
    /// `A = P·G·G + E`); `planes` in the encoder's layout, reordered here into the cell layout
    /// of a net of `layout`, and `policy` and `mask` (policy-index order, mask 1 at legal
    /// decisions) into the legal decisions' cell-order indices. Panics on inconsistent
    /// lengths.
    pub fn from_host(
        layout: &Layout,
        g: usize,
        planes: Vec<f32>,
        policy: Vec<f32>,
        mask: Vec<f32>,
        value: Vec<f32>,
        device: &Device,
    ) -> TrainBatch {
        let b = value.len();
        let (a, per, s) = (layout.policy_len(g), layout.input_len(g), layout.stride);
        assert_eq!(planes.len(), b * per, "planes length");
        assert_eq!(policy.len(), b * a, "policy length");
        assert_eq!(mask.len(), b * a, "mask length");
        let mut cells = vec![0.0; planes.len()];
        for (src, dst) in planes.chunks_exact(per).zip(cells.chunks_exact_mut(per)) {
            layout.to_cells(src, g, dst);
        }
        let order = layout.cell_order(g);
        let legal_of = |k: usize| {
            let m = &mask[k * a..(k + 1) * a];
            (0..a).filter(move |&i| m[i] > 0.0)
        };
        let l = (0..b)
            .map(|k| legal_of(k).count())
            .max()
            .unwrap_or(0)
            .max(1);
        let mut legal = vec![0i64; b * l];
        let mut pad = vec![-1e9f32; b * l];
        let mut target = vec![0f32; b * l];
        for k in 0..b {
            for (j, i) in legal_of(k).enumerate() {
                legal[k * l + j] = i64::from(order[i]);
                pad[k * l + j] = 0.0;
                target[k * l + j] = policy[k * a + i];
            }
        }
        let n = g / s;
        TrainBatch {
            input: Tensor::from_data(
                TensorData::new(cells, [b, n, n, s, s, layout.input_planes]),
                device,
            ),
            legal: Tensor::from_data(TensorData::new(legal, [b, l]), device),
            pad: Tensor::from_data(TensorData::new(pad, [b, l]), device),
            policy: Tensor::from_data(TensorData::new(target, [b, l]), device),
            value: Tensor::from_data(TensorData::new(value, [b]), device),
            ownership: None,
            short_value: None,
        }
    }

    /// The batch with short-term value targets (`B` values in `[-1, 1]`).
    pub fn with_short_values(mut self, targets: Vec<f32>, device: &Device) -> TrainBatch {
        let b = targets.len();
        self.short_value = Some(Tensor::from_data(TensorData::new(targets, [b]), device));
        self
    }

    /// The batch with ownership targets: `target` (`B·G·G` values in the encoder's cell
    /// layout, as [`crate::Encoder::ownership`] writes them) and `has` (`B` flags). Panics
    /// on inconsistent lengths.
    pub fn with_ownership(
        mut self,
        layout: &Layout,
        g: usize,
        target: &[f32],
        has: &[f32],
        device: &Device,
    ) -> TrainBatch {
        let b = has.len();
        let area = g * g;
        assert_eq!(target.len(), b * area, "ownership length");
        // One plane: the policy's cell order of plane 0 is the fine cell's position.
        let order = layout.cell_order(g);
        let q = layout.policy_planes;
        let mut cells = vec![0.0f32; b * area];
        for (src, dst) in target.chunks_exact(area).zip(cells.chunks_exact_mut(area)) {
            for (i, &v) in src.iter().enumerate() {
                dst[order[i] as usize / q] = v;
            }
        }
        self.ownership = Some(OwnershipTargets {
            target: Tensor::from_data(TensorData::new(cells, [b, area]), device),
            has: Tensor::from_data(TensorData::new(has.to_vec(), [b, 1]), device),
            count: has.iter().sum::<f32>().max(1.0),
        });
        self
    }
}

/// Both losses of a batch, as scalar tensors `[1]` (still attached to the graph), and the
/// log-probabilities of the legal decisions.
#[derive(Debug, Clone)]
pub struct Losses {
    pub policy: Tensor<1>,
    pub value: Tensor<1>,
    /// `[B, L]` log-softmax over each sample's legal decisions (`-1e9` or less at padding).
    pub logp: Tensor<2>,
    /// `[B]` the value head's output.
    pub predicted: Tensor<1>,
    /// The ownership loss, when the batch has targets and the net the head.
    pub ownership: Option<Tensor<1>>,
    /// The short-term value loss, likewise.
    pub short_value: Option<Tensor<1>>,
    /// The soft policy loss, when the net has the head.
    pub soft_policy: Option<Tensor<1>>,
}

/// Computes the losses of `net` on `batch`.
pub fn losses(net: &CrumbleNet, batch: &TrainBatch) -> Losses {
    let out = net.forward_cells(batch.input.clone());
    let legal = out.logits.gather(1, batch.legal.clone()) + batch.pad.clone(); // [B, L]
    let logp = log_softmax(legal, 1);
    let policy = cross_entropy(batch.policy.clone(), logp.clone());
    let soft_policy = out.soft_logits.map(|soft| {
        let legal = soft.gather(1, batch.legal.clone()) + batch.pad.clone();
        let target = batch.policy.clone().powf_scalar(SOFT_POLICY_POWER);
        let target = target.clone() / target.sum_dim(1).clamp_min(1e-12);
        cross_entropy(target, log_softmax(legal, 1))
    });
    let diff = out.value.clone() - batch.value.clone();
    let value = (diff.clone() * diff).mean(); // [1]
    let ownership = match (&batch.ownership, out.ownership) {
        (Some(t), Some(o)) => {
            let [_, area] = o.dims();
            let d = (o - t.target.clone()) * t.has.clone();
            Some((d.clone() * d).sum().div_scalar(t.count * area as f32))
        }
        _ => None,
    };
    let short_value = match (&batch.short_value, out.short_value) {
        (Some(t), Some(s)) => {
            let d = s - t.clone();
            Some((d.clone() * d).mean())
        }
        _ => None,
    };
    Losses {
        policy,
        value,
        logp,
        predicted: out.value,
        ownership,
        short_value,
        soft_policy,
    }
}

/// The power the soft policy target raises the policy target to (KataGo's 1/4).
pub const SOFT_POLICY_POWER: f32 = 0.25;

/// Mean over the batch of the cross-entropy of `target` rows against log-probabilities.
fn cross_entropy(target: Tensor<2>, logp: Tensor<2>) -> Tensor<1> {
    (target * logp).sum_dim(1).neg().mean()
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
    let (net, _) = flush_subnormal_weights(optim.step(lr, net, grads));
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

/// How [`optimizer`] builds the optimiser of a training run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OptimizerSettings {
    /// `None` for Adam, `Some(momentum)` for SGD with momentum.
    pub sgd_momentum: Option<f64>,
    /// L2 coefficient `c` of the loss term `c · Σ w²` (every parameter): applied as weight
    /// decay, i.e. `2c · w` added to each gradient.
    pub l2: f64,
    /// Each parameter tensor's gradient is scaled down to this L2 norm (`None` = off).
    pub grad_clip_norm: Option<f32>,
}

/// The optimiser of [`OptimizerSettings`] (Adam with PyTorch's epsilon, or SGD with
/// momentum and no dampening, as PyTorch's).
/// The optimiser state as bytes (burn's record format), to resume training exactly.
pub fn optimizer_state_bytes(optim: &ModuleOptimizer) -> Result<Vec<u8>, String> {
    optim
        .to_record()
        .into_bytes()
        .map(|b| b.to_vec())
        .map_err(|e| e.to_string())
}

/// `optim` with the state `bytes` ([`optimizer_state_bytes`]) loaded into it.
pub fn load_optimizer_state(
    optim: ModuleOptimizer,
    bytes: Vec<u8>,
) -> Result<ModuleOptimizer, String> {
    let record =
        burn::optim::OptimizerRecord::from_bytes(burn::tensor::Bytes::from_bytes_vec(bytes))
            .map_err(|e| e.to_string())?;
    Ok(optim.load_record(record))
}

pub fn optimizer(s: &OptimizerSettings) -> ModuleOptimizer {
    let decay = (s.l2 > 0.0).then(|| WeightDecayConfig::new(2.0 * s.l2 as f32));
    let clip = s.grad_clip_norm.map(GradientClippingConfig::Norm);
    match s.sgd_momentum {
        None => AdamConfig::new()
            .with_epsilon(1e-8)
            .with_weight_decay(decay)
            .with_grad_clipping(clip)
            .init(),
        Some(m) => SgdConfig::new()
            .with_weight_decay(decay)
            .with_momentum(Some(
                MomentumConfig::new().with_momentum(m).with_dampening(0.0),
            ))
            .with_gradient_clipping(clip)
            .init(),
    }
}

/// How many weights of `net` are NaN or infinite (a network that must never be saved,
/// promoted or played).
pub fn non_finite_weights(net: &CrumbleNet) -> u64 {
    struct Count(u64);
    impl ModuleVisitor for Count {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            let data = param.val().into_data();
            if let Ok(v) = data.as_slice::<f32>() {
                self.0 += v.iter().filter(|x| !x.is_finite()).count() as u64;
            }
        }
    }
    let mut c = Count(0);
    net.visit(&mut c);
    c.0
}

/// `net` with every subnormal weight (non-zero, below `f32::MIN_POSITIVE` in magnitude) set
/// to zero, and how many there were. Weight decay leaves unused weights on their way to zero
/// (7% of the built-in network's were subnormal): they change no output, but x86 CPUs
/// multiply subnormals in slow microcode, and on an Intel Xeon they made the built-in
/// network's inference three times slower. Applied after every training step and to every
/// checkpoint read.
pub fn flush_subnormal_weights(net: CrumbleNet) -> (CrumbleNet, u64) {
    struct Flush(u64);
    impl ModuleMapper for Flush {
        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            let (id, value, mapper) = param.consume();
            let data = value.to_data();
            let Ok(v) = data.as_slice::<f32>() else {
                return Param::from_mapped_value(id, value, mapper);
            };
            let n = v.iter().filter(|x| x.is_subnormal()).count() as u64;
            if n == 0 {
                return Param::from_mapped_value(id, value, mapper);
            }
            self.0 += n;
            let flushed: Vec<f32> = v
                .iter()
                .map(|&x| if x.is_subnormal() { 0.0 } else { x })
                .collect();
            let mut t = Tensor::from_data(TensorData::new(flushed, value.dims()), &value.device());
            if value.is_require_grad() {
                t = t.require_grad();
            }
            Param::from_mapped_value(id, t, mapper)
        }
    }
    let mut f = Flush(0);
    let net = net.map(&mut f);
    (net, f.0)
}

/// `Σ w²` over every parameter of `net`.
pub fn sum_of_squares(net: &CrumbleNet) -> f64 {
    struct Squares(f64);
    impl ModuleVisitor for Squares {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            let data = param.val().into_data();
            if let Ok(v) = data.as_slice::<f32>() {
                self.0 += v.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>();
            }
        }
    }
    let mut s = Squares(0.0);
    net.visit(&mut s);
    s.0
}

/// What one training step measured (all before the update, on its batch).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepStats {
    pub policy_loss: f32,
    pub value_loss: f32,
    /// Mean entropy (nats) of the net's policy over the legal decisions.
    pub policy_entropy: f32,
    /// Fraction of the decisive samples (target ≠ 0) whose predicted value has the target's
    /// sign.
    pub value_sign_agreement: f32,
    /// The ownership loss (NaN without one).
    pub ownership_loss: f32,
    /// The short-term value loss (NaN without one).
    pub short_value_loss: f32,
    /// The soft policy loss (NaN without one).
    pub soft_policy_loss: f32,
}

/// The weights of the losses beside the policy's (which weighs 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossWeights {
    pub value: f64,
    /// Ignored without ownership targets in the batch.
    pub ownership: f64,
    /// Ignored without short-term value targets in the batch.
    pub short_value: f64,
    /// Ignored without the soft policy head.
    pub soft_policy: f64,
}

/// One step with weighted losses: forward, losses, backward, optimiser update (the L2 term
/// is the optimiser's weight decay). `net` must live on an autodiff device.
pub fn train_step(
    net: CrumbleNet,
    optim: &mut ModuleOptimizer,
    batch: &TrainBatch,
    lr: f64,
    weights: LossWeights,
) -> (CrumbleNet, StepStats) {
    let Losses {
        policy,
        value,
        logp,
        predicted,
        ownership,
        short_value,
        soft_policy,
    } = losses(&net, batch);
    // Diagnostics from detached copies (no gradient flows through them). Padding adds
    // nothing: exp(-1e9) is 0.
    let logp_d = logp.detach();
    let entropy = (logp_d.clone().exp() * logp_d).sum_dim(1).neg().mean();
    let pred = predicted.detach().into_data();
    let targ = batch.value.clone().into_data();
    let (mut agree, mut decisive) = (0u32, 0u32);
    if let (Ok(p), Ok(t)) = (pred.as_slice::<f32>(), targ.as_slice::<f32>()) {
        for (&p, &t) in p.iter().zip(t) {
            if t != 0.0 {
                decisive += 1;
                agree += u32::from((p > 0.0) == (t > 0.0));
            }
        }
    }
    let stats = StepStats {
        policy_loss: scalar(&policy),
        value_loss: scalar(&value),
        policy_entropy: scalar(&entropy),
        value_sign_agreement: if decisive == 0 {
            f32::NAN
        } else {
            agree as f32 / decisive as f32
        },
        ownership_loss: ownership.as_ref().map_or(f32::NAN, scalar),
        short_value_loss: short_value.as_ref().map_or(f32::NAN, scalar),
        soft_policy_loss: soft_policy.as_ref().map_or(f32::NAN, scalar),
    };
    let mut total = policy + value * weights.value;
    if let Some(o) = ownership {
        total = total + o * weights.ownership;
    }
    if let Some(s) = short_value {
        total = total + s * weights.short_value;
    }
    if let Some(s) = soft_policy {
        total = total + s * weights.soft_policy;
    }
    let grads = GradientsParams::from_grads(total.backward(), &net);
    // No step leaves a subnormal weight: the network trains and plays at full speed, and a
    // run resumed from a checkpoint (read with the same flush) continues exactly.
    let (net, _) = flush_subnormal_weights(optim.step(lr, net, grads));
    (net, stats)
}
