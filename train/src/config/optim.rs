//! `[optim]`: the training steps of a generation.

use serde::{Deserialize, Serialize};

/// The optimiser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimizerKind {
    Adam,
    Sgd,
}

/// `[optim]`: the training steps of a generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OptimConfig {
    pub optimizer: OptimizerKind,
    /// Base learning rate (before warm-up and the schedule).
    pub lr: f64,
    /// `[[generation, factor], ...]`: from that generation on, the rate is `lr · factor`.
    pub lr_schedule: Vec<(u32, f64)>,
    /// Steps of linear warm-up at the start of the run.
    pub warmup_steps: u64,
    /// SGD momentum (ignored by Adam).
    pub momentum: f64,
    /// L2 coefficient `c`: the loss gains `c · Σ w²` over all parameters.
    pub l2: f64,
    /// Gradient clipping: each parameter tensor's gradient is scaled down to this L2 norm
    /// (0 = off).
    pub grad_clip_norm: f32,
    pub batch_size: usize,
    /// Steps per generation; 0 derives it from `sample_reuse`.
    pub steps_per_generation: u64,
    /// With `steps_per_generation = 0`: steps = new training positions · reuse / batch size.
    pub sample_reuse: f64,
    /// Weight of the value loss in the total.
    pub value_weight: f64,
    /// Weight of the ownership loss (KataGo's auxiliary target: what each cell holds at the
    /// game's end, [`crumble_model::Encoder::ownership`]); above 0 the net gets the head. 0 =
    /// off; only for games whose encoder has the target.
    pub ownership_weight: f64,
    /// Weight of the short-term value loss (KataGo's auxiliary target: the discounted mean
    /// of the next turns' search values, `crate::replay`); above 0 the net gets the head.
    pub short_value_weight: f64,
    /// The short-term value's horizon in turns: turn `k` ahead weighs `(1 − 1/h)^k`.
    pub short_value_horizon: f64,
    /// Weight of the soft policy loss (KataGo's auxiliary target: the policy target to the
    /// power 1/4, normalised); above 0 the net gets the head.
    pub soft_policy_weight: f64,
}

impl Default for OptimConfig {
    fn default() -> Self {
        OptimConfig {
            optimizer: OptimizerKind::Adam,
            lr: 1e-3,
            lr_schedule: Vec::new(),
            warmup_steps: 50,
            momentum: 0.9,
            l2: 3e-5,
            grad_clip_norm: 5.0,
            batch_size: 128,
            steps_per_generation: 0,
            sample_reuse: 4.0,
            value_weight: 1.0,
            ownership_weight: 0.0,
            short_value_weight: 0.0,
            short_value_horizon: 6.0,
            soft_policy_weight: 0.0,
        }
    }
}

impl OptimConfig {
    /// The learning rate of `step` (counted over the whole run) in `generation`.
    pub fn lr_at(&self, generation: u32, step: u64) -> f64 {
        let mut factor = 1.0;
        for &(g, f) in &self.lr_schedule {
            if generation >= g {
                factor = f;
            }
        }
        let warm = if self.warmup_steps == 0 {
            1.0
        } else {
            ((step + 1) as f64 / self.warmup_steps as f64).min(1.0)
        };
        self.lr * factor * warm
    }
}
