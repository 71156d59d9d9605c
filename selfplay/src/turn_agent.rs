//! One agent playing whole turns of one game at a time, outside the batched driver: the
//! opponent and the hints of `crumble play`, the agent of `crumble serve`.
//!
//! Every kind of agent plays as it does in matches: a `book:` agent's book move first while
//! it has one; `random` a random turn; `solver` (the games small enough to solve) one of the
//! exactly best decisions at each decision of its turn, chosen at random among equals; a
//! search a search at every decision with more than one legal choice, the most visited
//! decision played (match settings: no noise, temperature 0), the tree kept for the next
//! decision of the same turn and cleared between turns (the other side's move is not in it).

use crate::agent::{AgentError, AgentSpec, CheckpointLoader};
use crate::driver::{AgentKind, SharedOpening};
use crate::evaluator::{Evaluation, Evaluator, Leaf};
use crate::mcts::Search;
use crate::{SearchConfig, selfplay};
use crumble_core::game::negamax::Negamax;
use crumble_core::{Decision, GameState, GameText};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Why a turn agent could not play.
#[derive(Debug, thiserror::Error)]
pub enum TurnError {
    /// A turn was asked of a finished game or in the middle of a turn.
    #[error("internal error: the agent was asked to move in a finished game or mid-turn")]
    NotATurnStart,
    /// The agent's network refused the position (a network of another board or game).
    #[error("agent {agent} cannot play this position: {message}")]
    Evaluator { agent: String, message: String },
}

/// One agent with its evaluator, search tree or solver (see the module documentation).
#[derive(Debug)]
pub struct TurnAgent<G: GameState> {
    /// The agent string (`mcts:rollout:200`).
    pub name: String,
    kind: Kind<G>,
    /// A `book:` agent's book: its moves come first.
    book: SharedOpening<G>,
    rng: ChaCha8Rng,
}

#[derive(Debug)]
enum Kind<G: GameState> {
    Random,
    Solver(Box<Negamax<G>>),
    Search {
        search: Box<Search<G>>,
        evaluator: Box<dyn Evaluator<G>>,
        simulations: u32,
    },
}

impl<G: GameText> TurnAgent<G> {
    /// The agent of `spec` at match settings; `seed` seeds its random choices and rollouts.
    pub fn new(
        spec: &AgentSpec,
        cfg: &SearchConfig,
        seed: u64,
        loader: &dyn CheckpointLoader<G>,
    ) -> Result<TurnAgent<G>, AgentError> {
        let agent = selfplay::make_agent(spec, cfg, seed, loader, true)?;
        let kind = match agent.kind {
            AgentKind::Random => Kind::Random,
            AgentKind::Solver => Kind::Solver(Box::new(Negamax::new())),
            AgentKind::Mcts {
                evaluator,
                simulations,
                config,
            } => Kind::Search {
                search: Box::new(Search::new(config, seed)),
                evaluator,
                simulations,
            },
        };
        Ok(TurnAgent {
            name: agent.name,
            kind,
            book: agent.book,
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }

    /// Evaluates `game` once, so that an agent that cannot play it (a network for another
    /// board) is refused before a session starts, not at its first move.
    pub fn check(&mut self, game: &G) -> Result<(), TurnError> {
        let Kind::Search { evaluator, .. } = &mut self.kind else {
            return Ok(());
        };
        if game.is_over() {
            return Ok(());
        }
        let mut g = game.clone();
        let mut legal = Vec::new();
        g.legal_decisions_into(&mut legal);
        let mut out = vec![Evaluation::default()];
        evaluator
            .evaluate(
                &[Leaf {
                    game: &g,
                    legal: &legal,
                }],
                &mut out,
            )
            .map_err(|e| TurnError::Evaluator {
                agent: self.name.clone(),
                message: e.to_string(),
            })
    }

    /// The decisions of the agent's turn in `game` (a live game at the start of a turn), and
    /// the search's value of the position (mover's view; `None` without a search).
    pub fn choose_turn(&mut self, game: &G) -> Result<(Vec<Decision>, Option<f32>), TurnError> {
        if game.is_over() || !game.at_turn_start() {
            return Err(TurnError::NotATurnStart);
        }
        if let Some(turn) = self.book.as_ref().and_then(|b| b.legal_turn(game)) {
            return Ok((turn, None));
        }
        let mut g = game.clone();
        let mut path = Vec::new();
        match &mut self.kind {
            Kind::Random => {
                g.play_random_turn_recorded(&mut self.rng, &mut path);
                Ok((path, None))
            }
            Kind::Solver(solver) => {
                let turn = g.turns_played();
                let mut best = Vec::new();
                while !g.is_over() && g.turns_played() == turn {
                    solver.best_decisions(&g, &mut best);
                    let d = best[self.rng.random_range(0..best.len())];
                    g.apply_unchecked(d);
                    path.push(d);
                }
                Ok((path, None))
            }
            Kind::Search {
                search,
                evaluator,
                simulations,
            } => {
                search.clear();
                search
                    .search_turn(&g, *simulations, evaluator.as_mut())
                    .map_err(|e| TurnError::Evaluator {
                        agent: self.name.clone(),
                        message: e.to_string(),
                    })
            }
        }
    }
}
