//! The one interface between search and whatever judges positions: a batch-first
//! [`Evaluator`], with two evaluators that need no network ([`UniformEvaluator`],
//! [`RolloutEvaluator`]) and one that mixes playouts into another's values
//! ([`MixedEvaluator`]).
//!
//! # Sign convention
//!
//! Every value is **one scalar in `[-1, 1]` from the point of view of the player who decides
//! in that state** ([`GameState::decider`]): `+1` means that player wins, `-1` that they lose, `0`
//! a draw. A turn is several decisions by the same player, so consecutive states often share
//! their decider; search flips the sign only where the decider changes.

use crumble_core::{Decision, GameState, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::fmt;

/// One state to evaluate: a live game and its legal decisions (sorted, at least two: search
/// never asks about a state with a single legal decision).
#[derive(Debug)]
pub struct Leaf<'a, G> {
    pub game: &'a G,
    pub legal: &'a [Decision],
}

// Not derived: a derive would ask `G: Copy`, and a leaf only holds references.
impl<G> Clone for Leaf<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G> Copy for Leaf<'_, G> {}

/// What an evaluator says about one [`Leaf`]. The caller owns it and reuses it across calls.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// Value in `[-1, 1]` from the view of the leaf's decider (see the module docs).
    pub value: f32,
    /// Prior probability of each legal decision, in the order of [`Leaf::legal`]: the
    /// evaluator resizes it to `legal.len()`; non-negative, summing to 1.
    pub priors: Vec<f32>,
}

/// Why an evaluation failed.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("evaluator {evaluator}: {message}")]
    Failed { evaluator: String, message: String },
    #[error("evaluator {evaluator}: {source}")]
    Backend {
        evaluator: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// A batch-first position evaluator (the network, a rollout, a uniform dummy).
///
/// `evaluate` gets many leaves at once (from many games) and fills `out[i]` for `leaves[i]`
/// (`out.len() == leaves.len()`). Values follow the sign convention of this module: from the
/// view of the player who decides in that leaf. Implementations may keep buffers in `self`,
/// but a leaf's answer must be a function of the leaf alone (its position), whatever else is
/// in the batch and whatever calls came before: the evaluation cache (keyed by the state
/// hash) relies on it, and so does a killed and resumed run, whose batches hold other games
/// than the uninterrupted run's did.
pub trait Evaluator<G: GameState>: Send + fmt::Debug {
    /// A short name for logs and errors (`uniform`, `rollout`, a checkpoint path).
    fn name(&self) -> String;
    fn evaluate(&mut self, leaves: &[Leaf<'_, G>], out: &mut [Evaluation])
    -> Result<(), EvalError>;
}

impl<G: GameState> Evaluator<G> for Box<dyn Evaluator<G>> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn evaluate(
        &mut self,
        leaves: &[Leaf<'_, G>],
        out: &mut [Evaluation],
    ) -> Result<(), EvalError> {
        (**self).evaluate(leaves, out)
    }
}

fn uniform(legal: &[Decision], priors: &mut Vec<f32>) {
    let p = 1.0 / legal.len().max(1) as f32;
    priors.clear();
    priors.resize(legal.len(), p);
}

/// Uniform priors and value 0: search with it is pure tree search on exact terminal values.
/// The dummy backend for tests and the search benchmark.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformEvaluator;

impl<G: GameState> Evaluator<G> for UniformEvaluator {
    fn name(&self) -> String {
        "uniform".into()
    }
    fn evaluate(
        &mut self,
        leaves: &[Leaf<'_, G>],
        out: &mut [Evaluation],
    ) -> Result<(), EvalError> {
        // Cheap per leaf, but done for every leaf of every round: spread it over the cores so
        // it does not become the serial part of a batched search.
        let fill = |(leaf, o): (&Leaf<'_, G>, &mut Evaluation)| {
            uniform(leaf.legal, &mut o.priors);
            o.value = 0.0;
        };
        if leaves.len() >= 64 {
            leaves
                .par_iter()
                .zip(out.par_iter_mut())
                .with_min_len(32)
                .for_each(fill);
        } else {
            leaves.iter().zip(out.iter_mut()).for_each(fill);
        }
        Ok(())
    }
}

/// Settings of the [`RolloutEvaluator`]: the `[search.rollout]` section of a config.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RolloutConfig {
    /// Random playouts per evaluated leaf; the value is their mean score.
    pub playouts: u32,
    /// Each playout stops after this many further turns (counted from the leaf); a playout
    /// stopped there scores 0, as a draw does.
    pub max_turns: u32,
}

impl Default for RolloutConfig {
    fn default() -> Self {
        RolloutConfig {
            playouts: 1,
            max_turns: 200,
        }
    }
}

/// Uniform priors and, as value, the mean result of random playouts (random play as
/// each game defines it, [`GameState::play_random_turn`]) from the leaf: `+1` a win for the leaf's
/// decider, `-1` a loss, `0` a draw or a playout stopped at its turn cap.
///
/// Leaves of one batch are played out in parallel (rayon); each leaf's RNG is seeded from the
/// evaluator's seed and the leaf's state hash alone, so a leaf's answer depends neither on the
/// number of threads nor on the batch it came in or the calls before it: a run that is
/// killed and resumed (other games in the batches, an empty evaluation cache) plays the same
/// games as one that was not.
#[derive(Debug)]
pub struct RolloutEvaluator {
    config: RolloutConfig,
    seed: u64,
}

impl RolloutEvaluator {
    pub fn new(config: RolloutConfig, seed: u64) -> RolloutEvaluator {
        RolloutEvaluator { config, seed }
    }
}

pub use crumble_core::game::hash::mix64 as mix;

/// Mean score of `playouts` random playouts from `game` for `me`, each capped at `cap` turns.
pub fn rollout_value<G: GameState>(
    game: &G,
    me: Player,
    playouts: u32,
    cap: u32,
    rng: &mut ChaCha8Rng,
) -> f32 {
    if playouts == 0 {
        return 0.0;
    }
    let mut sum = 0i64;
    let mut g = game.clone();
    for i in 0..playouts {
        if i > 0 {
            g = game.clone();
        }
        let limit = g.turns_played().saturating_add(cap.max(1));
        let limit = if g.turn_limit() > 0 {
            limit.min(g.turn_limit())
        } else {
            limit
        };
        g.set_turn_limit(limit);
        g.play_random_game(rng);
        if let Some(w) = g.game_result().and_then(|r| r.winner()) {
            sum += if w == me { 1 } else { -1 };
        }
    }
    sum as f32 / playouts as f32
}

impl RolloutEvaluator {
    /// Plays each leaf's playouts (in parallel for a batch) and hands `write` the output slot
    /// and the playout value, `None` for a finished game. The RNG of a leaf depends only on
    /// the seed and the leaf's state hash (see the type's docs).
    fn play_out<G: GameState>(
        &self,
        leaves: &[Leaf<'_, G>],
        out: &mut [Evaluation],
        write: impl Fn(&Leaf<'_, G>, &mut Evaluation, Option<f32>) + Sync,
    ) {
        let base = mix(self.seed);
        let cfg = &self.config;
        let work = |(leaf, o): (&Leaf<'_, G>, &mut Evaluation)| {
            let value = leaf.game.decider().map(|me| {
                let mut rng = ChaCha8Rng::seed_from_u64(mix(base ^ leaf.game.state_hash()));
                rollout_value(leaf.game, me, cfg.playouts, cfg.max_turns, &mut rng)
            });
            write(leaf, o, value);
        };
        if leaves.len() > 1 {
            leaves.par_iter().zip(out.par_iter_mut()).for_each(work);
        } else {
            leaves.iter().zip(out.iter_mut()).for_each(work);
        }
    }
}

impl<G: GameState> Evaluator<G> for RolloutEvaluator {
    fn name(&self) -> String {
        format!(
            "rollout({} playouts, {} turns)",
            self.config.playouts, self.config.max_turns
        )
    }
    fn evaluate(
        &mut self,
        leaves: &[Leaf<'_, G>],
        out: &mut [Evaluation],
    ) -> Result<(), EvalError> {
        self.play_out(leaves, out, |leaf, o, value| {
            uniform(leaf.legal, &mut o.priors);
            o.value = value.unwrap_or(0.0);
        });
        Ok(())
    }
}

/// A network's priors with a value mixed from the network and random playouts:
/// `(1 − w) · v_net + w · v_rollout` (AlphaGo's leaf evaluation, λ = `w`).
///
/// Training uses it in the first generations, while the network's value is still noise:
/// playouts make those games' searches, and so their results and search values, informative
/// from the start, and the network's value takes over as `w` falls to 0.
#[derive(Debug)]
pub struct MixedEvaluator<E> {
    net: E,
    rollout: RolloutEvaluator,
    rollout_weight: f32,
}

impl<E> MixedEvaluator<E> {
    /// `rollout_weight` in [0, 1] is the playouts' share of the value; the playouts are the
    /// ones a [`RolloutEvaluator`] with `rollout` and `seed` would play.
    pub fn new(net: E, rollout: RolloutConfig, rollout_weight: f32, seed: u64) -> Self {
        MixedEvaluator {
            net,
            rollout: RolloutEvaluator::new(rollout, seed),
            rollout_weight: rollout_weight.clamp(0.0, 1.0),
        }
    }
}

impl<G: GameState, E: Evaluator<G>> Evaluator<G> for MixedEvaluator<E> {
    fn name(&self) -> String {
        format!(
            "{} + {} x {}",
            self.net.name(),
            self.rollout_weight,
            Evaluator::<G>::name(&self.rollout)
        )
    }
    fn evaluate(
        &mut self,
        leaves: &[Leaf<'_, G>],
        out: &mut [Evaluation],
    ) -> Result<(), EvalError> {
        self.net.evaluate(leaves, out)?;
        let w = self.rollout_weight;
        if w > 0.0 {
            self.rollout.play_out(leaves, out, |_, o, value| {
                if let Some(r) = value {
                    o.value = (1.0 - w) * o.value + w * r;
                }
            });
        }
        Ok(())
    }
}
