//! The training steps of one generation: batches drawn from the replay window, one optimiser
//! step each, and the loss columns of the ledger row.

use super::{Event, Run, TrainError};
use crate::config::OptimConfig;
use crate::games::TrainGame;
use crate::ledger::Row;
use crate::replay::{AuxTargets, HostBatch};
use crumble_model::Layout;
use crumble_model::train::{self as mtrain, StepStats, TrainBatch};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// The sums of the step figures of one generation, for their means.
#[derive(Default)]
struct StepSums {
    policy: f64,
    value: f64,
    entropy: f64,
    /// Over the steps whose batch had decisive samples.
    sign_agreement: PartialMean,
    ownership: PartialMean,
    short_value: PartialMean,
    soft_policy: PartialMean,
}

/// The mean of a figure over the steps that have it (a finite value).
#[derive(Default)]
struct PartialMean {
    sum: f64,
    n: u32,
}

impl PartialMean {
    fn add(&mut self, x: f32) {
        if x.is_finite() {
            self.sum += f64::from(x);
            self.n += 1;
        }
    }

    fn mean(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum / f64::from(self.n))
    }

    /// An auxiliary loss: its mean into its ledger column and, weighted, into the total.
    fn fill_loss(&self, column: &mut f64, total: &mut f64, weight: f64) {
        if let Some(m) = self.mean() {
            *column = m;
            *total += weight * m;
        }
    }
}

impl StepSums {
    fn add(&mut self, stats: &StepStats) {
        self.policy += f64::from(stats.policy_loss);
        self.value += f64::from(stats.value_loss);
        self.entropy += f64::from(stats.policy_entropy);
        self.sign_agreement.add(stats.value_sign_agreement);
        self.ownership.add(stats.ownership_loss);
        self.short_value.add(stats.short_value_loss);
        self.soft_policy.add(stats.soft_policy_loss);
    }

    /// Fills the loss columns with the means over `steps` steps and the `l2` term.
    fn fill(&self, row: &mut Row, steps: u64, l2: f64, o: &OptimConfig) {
        let n = steps.max(1) as f64;
        row.policy_loss = self.policy / n;
        row.value_loss = self.value / n;
        row.l2_loss = l2;
        let mut total = self.policy / n + o.value_weight * self.value / n + l2;
        let w = (
            o.ownership_weight,
            o.short_value_weight,
            o.soft_policy_weight,
        );
        self.ownership
            .fill_loss(&mut row.ownership_loss, &mut total, w.0);
        self.short_value
            .fill_loss(&mut row.short_value_loss, &mut total, w.1);
        self.soft_policy
            .fill_loss(&mut row.soft_policy_loss, &mut total, w.2);
        row.total_loss = total;
        row.policy_entropy = self.entropy / n;
        if let Some(m) = self.sign_agreement.mean() {
            row.value_sign_agreement = m;
        }
    }
}

/// The training steps of a generation that brought `new_positions` positions: a fixed
/// count, or enough to sample each new position `sample_reuse` times (at least one).
fn steps_for(o: &OptimConfig, new_positions: u64) -> u64 {
    if o.steps_per_generation > 0 {
        o.steps_per_generation
    } else {
        ((new_positions as f64 * o.sample_reuse / o.batch_size as f64).ceil() as u64).max(1)
    }
}

impl<G: TrainGame> Run<G> {
    /// Step 3 of generation `g`: trains the net on the window and fills the training
    /// columns. Refuses non-finite losses or weights before anything of `g` is saved.
    pub(super) fn train_generation(
        &mut self,
        g: u32,
        new_positions: u64,
        row: &mut Row,
        on_event: &mut (dyn FnMut(Event) + Send),
    ) -> Result<(), TrainError> {
        let t1 = Instant::now();
        let steps = steps_for(&self.cfg.optim, new_positions);
        let steps_before = self.history.last.as_ref().map_or(0.0, |r| r.steps_total) as u64;
        let mut rng = ChaCha8Rng::seed_from_u64(self.cfg.selfplay.seed ^ (u64::from(g) << 32));
        let mut host = HostBatch::default();
        let mut sums = StepSums::default();
        let mut lr = 0.0;
        for step in 0..steps {
            if self.window.is_empty() {
                break;
            }
            // A trainer taken over (found by its heartbeat) stops within a step.
            if let Some(d) = &self.dist {
                d.fenced()?;
            }
            let batch = self.next_batch(&mut rng, &mut host)?;
            lr = self.cfg.optim.lr_at(g, steps_before + step);
            let stats = self.step(&batch, lr);
            // A non-finite loss poisons the weights: stop before anything is written.
            if !(stats.policy_loss.is_finite() && stats.value_loss.is_finite()) {
                return Err(non_finite_loss(g, step, steps, &stats));
            }
            sums.add(&stats);
            on_event(Event::Train {
                generation: g,
                step: step + 1,
                steps,
                stats: &stats,
            });
        }
        let l2 = self.checked_l2(g, steps)?;
        let o = &self.cfg.optim;
        let train_s = t1.elapsed().as_secs_f64();
        row.steps = steps as f64;
        row.steps_total = (steps_before + steps) as f64;
        row.samples_per_s = (steps as usize * o.batch_size) as f64 / train_s.max(1e-9);
        row.lr = lr;
        sums.fill(row, steps, l2, o);
        row.train_s = train_s;
        Ok(())
    }

    /// Draws a batch from the window and builds it (augmentation, targets) on the device.
    fn next_batch(
        &self,
        rng: &mut ChaCha8Rng,
        host: &mut HostBatch,
    ) -> Result<TrainBatch, TrainError> {
        let refs = self.window.draw(self.cfg.optim.batch_size, rng);
        let o = &self.cfg.optim;
        let ownership = o.ownership_weight > 0.0;
        let aux = AuxTargets {
            ownership,
            short_value_horizon: (o.short_value_weight > 0.0).then_some(o.short_value_horizon),
        };
        self.window
            .build::<G>(&refs, &self.cfg.replay, aux, rng, host)?;
        let layout = Layout::of(&self.net_config);
        let batch = TrainBatch::from_host(
            &layout,
            host.grid,
            std::mem::take(&mut host.planes),
            std::mem::take(&mut host.policy),
            std::mem::take(&mut host.mask),
            std::mem::take(&mut host.value),
            &self.device,
        );
        let batch = if ownership {
            batch.with_ownership(
                &layout,
                host.grid,
                &host.ownership,
                &host.has_ownership,
                &self.device,
            )
        } else {
            batch
        };
        Ok(if aux.short_value_horizon.is_some() {
            batch.with_short_values(std::mem::take(&mut host.short_value), &self.device)
        } else {
            batch
        })
    }

    /// One optimiser step on `batch` at learning rate `lr`.
    fn step(&mut self, batch: &TrainBatch, lr: f64) -> StepStats {
        let net = self.net.take().expect("the training net is always there");
        let weights = mtrain::LossWeights {
            value: self.cfg.optim.value_weight,
            ownership: self.cfg.optim.ownership_weight,
            short_value: self.cfg.optim.short_value_weight,
            soft_policy: self.cfg.optim.soft_policy_weight,
        };
        let (net, stats) = mtrain::train_step(net, &mut self.optim, batch, lr, weights);
        self.net = Some(net);
        stats
    }

    /// The L2 term of the trained net's weights, after refusing weights that are not all
    /// finite (a loss can stay finite while a weight overflows).
    fn checked_l2(&self, g: u32, steps: u64) -> Result<f64, TrainError> {
        let net = self.net.as_ref().expect("the training net is always there");
        let bad = mtrain::non_finite_weights(net);
        if bad > 0 {
            return Err(TrainError::NonFinite {
                generation: g,
                what: format!("after {steps} training steps, {bad} weights are NaN or infinite"),
            });
        }
        Ok(self.cfg.optim.l2 * mtrain::sum_of_squares(net))
    }
}

fn non_finite_loss(g: u32, step: u64, steps: u64, stats: &StepStats) -> TrainError {
    TrainError::NonFinite {
        generation: g,
        what: format!(
            "training step {} of {steps}: policy loss {}, value loss {}",
            step + 1,
            stats.policy_loss,
            stats.value_loss
        ),
    }
}
