//! Helpers shared by the selfplay test binaries: test positions and the test evaluators.

#![allow(dead_code)]

use crumble_core::games::crumble::{Crumble, position};
use crumble_core::{Decision, GameState as _};
use crumble_selfplay::mcts::Search;
use crumble_selfplay::{EvalError, Evaluation, Evaluator, Leaf, UniformEvaluator};
use std::fmt;

/// A position of `tests/data/` (absolute-frame position JSON).
pub fn load(name: &str) -> Crumble {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    position::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// The uniform evaluator (uniform priors, value 0) with `adjust` applied to its output: each
/// test evaluator is uniform but for one twist (a value, a favoured decision, a count).
pub struct UniformThen<F> {
    name: &'static str,
    adjust: F,
}

pub fn uniform_then<F>(name: &'static str, adjust: F) -> UniformThen<F>
where
    F: FnMut(&[Leaf<'_, Crumble>], &mut [Evaluation]) + Send,
{
    UniformThen { name, adjust }
}

impl<F> fmt::Debug for UniformThen<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "UniformThen({})", self.name)
    }
}

impl<F> Evaluator<Crumble> for UniformThen<F>
where
    F: FnMut(&[Leaf<'_, Crumble>], &mut [Evaluation]) + Send,
{
    fn name(&self) -> String {
        self.name.into()
    }
    fn evaluate(
        &mut self,
        leaves: &[Leaf<'_, Crumble>],
        out: &mut [Evaluation],
    ) -> Result<(), EvalError> {
        UniformEvaluator.evaluate(leaves, out)?;
        (self.adjust)(leaves, out);
        Ok(())
    }
}

/// Plays `d` in `g` and in the search tree `s` (tree reuse), then the forced decisions after
/// it (a single legal one), which play makes without search.
pub fn advance_past_forced(g: &mut Crumble, s: &mut Search<Crumble>, d: Decision) {
    g.apply(d).unwrap();
    s.advance(d);
    let mut legal = g.legal_decisions();
    while legal.len() == 1 {
        g.apply(legal[0]).unwrap();
        s.advance(legal[0]);
        legal = g.legal_decisions();
    }
}
