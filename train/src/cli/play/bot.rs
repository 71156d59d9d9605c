//! An agent that plays whole moves, for `crumble play` (the opponent's moves and the hints).
//!
//! The search works on atomic decisions (choose, extent, swap steps, stop), so a move is
//! played decision by decision: a search at each decision with more than one legal choice,
//! the most visited decision played (match settings: no noise, temperature 0), the tree
//! kept for the next decision of the same turn. The decisions then make one move of the game
//! (a Crumble split with its swaps, a Splinter move with its splinter choice). A `book:`
//! agent plays its book's move instead while it has one.

use anyhow::Context as _;
use crumble_core::{Decision, GameState, GameText};
use crumble_selfplay::driver::SharedOpening;
use crumble_selfplay::{
    AgentKind, AgentSpec, CheckpointLoader, Evaluator, Search, SearchConfig, selfplay,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// One agent with its evaluator and search tree.
#[derive(Debug)]
pub struct Bot<G: GameState> {
    /// The agent string (`mcts:rollout:200`).
    pub name: String,
    kind: Kind<G>,
    /// A `book:` agent's book: its moves come first.
    book: SharedOpening<G>,
}

#[derive(Debug)]
enum Kind<G: GameState> {
    Random(Box<ChaCha8Rng>),
    Search {
        search: Box<Search<G>>,
        evaluator: Box<dyn Evaluator<G>>,
        simulations: u32,
    },
}

impl<G: GameText> Bot<G> {
    /// The agent of `spec` for game `G`, whose networks `loader` loads.
    pub fn with_loader(
        spec: &AgentSpec,
        cfg: &SearchConfig,
        seed: u64,
        loader: &dyn CheckpointLoader<G>,
    ) -> anyhow::Result<Bot<G>> {
        let player = selfplay::make_agent(spec, cfg, seed, loader, true)?;
        let kind = match player.kind {
            AgentKind::Random => Kind::Random(Box::new(ChaCha8Rng::seed_from_u64(seed))),
            // `make_agent` refuses the solver for the games it cannot solve.
            AgentKind::Solver => anyhow::bail!("the solver agent does not play {}", G::NAME),
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
        Ok(Bot {
            name: player.name,
            kind,
            book: player.book,
        })
    }

    /// Evaluates `game` once, so that an agent that cannot play it (a network for another
    /// resolution) is refused before the session starts, not at its first move after the
    /// person has played (and a record has been written).
    pub fn check(&mut self, game: &G) -> anyhow::Result<()> {
        if let Kind::Search { evaluator, .. } = &mut self.kind {
            let mut g = game.clone();
            if g.is_over() {
                return Ok(());
            }
            let mut legal = Vec::new();
            g.legal_decisions_into(&mut legal);
            let mut out = vec![crumble_selfplay::evaluator::Evaluation::default()];
            evaluator
                .evaluate(
                    &[crumble_selfplay::evaluator::Leaf {
                        game: &g,
                        legal: &legal,
                    }],
                    &mut out,
                )
                .with_context(|| format!("agent {} cannot play this position", self.name))?;
        }
        Ok(())
    }

    /// The decisions of the agent's turn in `game` (a live game at the start of a turn), and
    /// the search's value of the position (mover's view; `None` for random play).
    pub fn choose_turn(&mut self, game: &G) -> anyhow::Result<(Vec<Decision>, Option<f32>)> {
        anyhow::ensure!(
            !game.is_over() && game.at_turn_start(),
            "internal error: the agent was asked to move in a finished game or mid-turn"
        );
        if let Some(turn) = self.book.as_ref().and_then(|b| b.legal_turn(game)) {
            return Ok((turn, None));
        }
        let mut g = game.clone();
        let mut path = Vec::new();
        let mut value = None;
        match &mut self.kind {
            Kind::Random(rng) => {
                g.play_random_turn_recorded(&mut **rng, &mut path);
            }
            Kind::Search {
                search,
                evaluator,
                simulations,
            } => {
                // The tree of the agent's previous turn did not follow the other side's move.
                search.clear();
                (path, value) = search
                    .search_turn(&g, *simulations, evaluator.as_mut())
                    .with_context(|| format!("agent {}", self.name))?;
            }
        }
        Ok((path, value))
    }
}
