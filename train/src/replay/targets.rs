//! What a sample is drawn and trained for beyond the search's policy and the game's
//! result: its policy surprise (the draw's weight) and the auxiliary targets (KataGo's
//! short-term value; the ownership target is the encoder's).

use super::ReplayError;
use crumble_core::{GameState, Player};
use crumble_selfplay::record::{GameRecord, SearchRecord};

/// How much the search's policy target at a sample surprised the network: the
/// Kullback–Leibler divergence of the target from the prior, in nats; `None` without priors.
pub fn policy_surprise(search: &SearchRecord) -> Option<f64> {
    if search.prior.len() != search.policy.len() || search.prior.is_empty() {
        return None;
    }
    let kl = search
        .policy
        .iter()
        .zip(&search.prior)
        .filter(|((_, t), _)| *t > 0.0)
        .map(|(&(_, t), &p)| {
            let t = f64::from(t);
            t * (t / f64::from(p).max(1e-6)).ln()
        })
        .sum::<f64>();
    Some(kl.max(0.0))
}

/// The sampling weights of a generation's samples, `(1 − w) + w · surprise / mean surprise`
/// (the mean over the samples with priors; the others and a generation with no surprise at
/// all keep weight 1), so the weights average 1 over the samples with priors.
pub fn surprise_weights(surprises: &[Option<f64>], w: f64) -> Vec<f64> {
    let known: Vec<f64> = surprises.iter().flatten().copied().collect();
    let mean = known.iter().sum::<f64>() / known.len().max(1) as f64;
    surprises
        .iter()
        .map(|s| match s {
            Some(s) if mean > 0.0 => (1.0 - w) + w * s / mean,
            _ => 1.0,
        })
        .collect()
}

/// The auxiliary targets a batch carries.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AuxTargets {
    pub ownership: bool,
    /// The short-term value's horizon in turns, when it is trained.
    pub short_value_horizon: Option<f64>,
}

/// A game replayed to its end: the end position and, for each turn from the start's, the
/// first search of the turn (its decider and root value), if one was made.
pub(super) struct WholeGame<G> {
    pub(super) end: G,
    pub(super) first_turn: u32,
    pub(super) turn_values: Vec<Option<(Player, f32)>>,
}

impl<G: GameState> WholeGame<G> {
    pub(super) fn of(rec: &GameRecord, start: &G) -> Result<WholeGame<G>, ReplayError> {
        let mut end = start.clone();
        let first_turn = start.turns_played();
        let mut turn_values = Vec::new();
        for (at, s) in rec.steps.iter().enumerate() {
            let t = (end.turns_played() - first_turn) as usize;
            if turn_values.len() <= t {
                turn_values.resize(t + 1, None);
            }
            if let (None, Some(search), Some(p)) = (turn_values[t], &s.search, end.decider()) {
                turn_values[t] = Some((p, search.value));
            }
            end.apply(s.decision).map_err(|e| ReplayError::Replay {
                index: rec.index,
                what: format!("decision {at} refused: {e}"),
            })?;
        }
        Ok(WholeGame {
            end,
            first_turn,
            turn_values,
        })
    }
}

/// The short-term value target of KataGo: for the player `me` deciding now with search
/// value `now = u₀`, `(1 − λ) Σₖ λᵏ uₖ + λᴷ z` over the `K` turns from this one to the end,
/// where `uₖ` (k ≥ 1) is the first search value of the `k`-th `later` turn from `me`'s view
/// (the last one seen for a turn without a search), `z` the game's result for `me` and
/// `λ = 1 − 1/horizon`.
pub fn short_value_target(
    later: &[Option<(Player, f32)>],
    me: Player,
    now: f32,
    z: f32,
    horizon: f64,
) -> f32 {
    let lambda = 1.0 - 1.0 / horizon.max(1.0);
    let now = f64::from(now);
    let (mut acc, mut w, mut last) = ((1.0 - lambda) * now, (1.0 - lambda) * lambda, now);
    for t in later {
        if let Some((p, v)) = *t {
            last = f64::from(if p == me { v } else { -v });
        }
        acc += w * last;
        w *= lambda;
    }
    // The weight left, λᴷ, goes to the result (all of it when λ = 0 and no turn is left).
    let rest = if lambda < 1.0 {
        w / (1.0 - lambda)
    } else {
        1.0
    };
    (acc + rest * f64::from(z)).clamp(-1.0, 1.0) as f32
}
