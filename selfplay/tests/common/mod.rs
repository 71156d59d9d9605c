//! Helpers shared by the selfplay test binaries: test positions and the test evaluators.

#![allow(dead_code)]

use crumble_core::games::crumble::{Crumble, position};
use crumble_core::{Decision, GameState as _};
use crumble_selfplay::mcts::Search;
use crumble_selfplay::{
    EvalError, Evaluation, Evaluator, Leaf, RolloutConfig, RolloutEvaluator, SearchConfig,
    UniformEvaluator,
};
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

/// The random-playout evaluator, one playout a leaf, seeded.
pub fn rollout(seed: u64) -> RolloutEvaluator {
    RolloutEvaluator::new(
        RolloutConfig {
            playouts: 1,
            max_turns: 200,
        },
        seed,
    )
}

/// Plays the rest of the current turn by search: one search of `sims` per decision that is
/// not forced, with tree reuse, its leaves evaluated `batch` at a time (1: the sequential
/// search); returns the decisions played.
pub fn search_turn(
    game: &mut Crumble,
    cfg: &SearchConfig,
    sims: u32,
    batch: usize,
    eval: &mut dyn Evaluator<Crumble>,
    seed: u64,
) -> Vec<Decision> {
    let mut search = Search::new(cfg.clone(), seed);
    let turn = game.turns_played();
    let mut played = Vec::new();
    while !game.is_over() && game.turns_played() == turn {
        let legal = game.legal_decisions();
        let d = if legal.len() == 1 {
            legal[0]
        } else {
            if batch == 1 {
                search.search_with(game, sims, false, eval).unwrap();
            } else {
                search
                    .search_batched(game, sims, false, batch, eval)
                    .unwrap();
            }
            search.pick(0.0)
        };
        game.apply(d).unwrap();
        search.advance(d);
        played.push(d);
    }
    played
}
