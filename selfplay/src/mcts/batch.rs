//! Leaf batching within one search, with virtual loss: [`Search::run_batch`] runs
//! simulations until several leaves wait for an evaluation, and the caller evaluates them in
//! one network call ([`Search::batch_leaf`], [`Search::provide_batch`]). A single position
//! searched alone (the board's analysis) so runs the network at a batch size where it is
//! several times faster per position than one leaf at a time.
//!
//! Each simulation that parks a leaf leaves a virtual visit on every node of its path
//! (`in_flight`), read as a loss for the decider choosing that node, so the next simulations
//! of the batch go elsewhere; one that reaches a leaf already waiting ends the gathering
//! early. The visits are removed before the real values are backed up, so once a batch is
//! answered the tree holds exactly the statistics of its simulations. A batch of one is the
//! sequential search ([`Search::run`]) step for step.

use super::{NONE, Search, Sim};
use crate::evaluator::{EvalError, Evaluation, Evaluator, Leaf};
use crate::mcts::SearchOutput;
use crumble_core::{Decision, GameState};

/// A leaf of the batch being gathered: its node, the path to it, its state and legal
/// decisions (the buffers are kept between batches).
#[derive(Debug)]
pub(super) struct Parked<G> {
    node: u32,
    path: Vec<u32>,
    game: Option<G>,
    legal: Vec<Decision>,
}

impl<G: GameState> Search<G> {
    /// Gathers up to `max` leaves that need an evaluation (at least one a call while the
    /// budget lasts). Returns how many wait: read them with [`Search::batch_leaf`] and answer
    /// them all with [`Search::provide_batch`] before the next call; 0 means the search is
    /// done. Fewer than `max` wait when the budget runs out, the root is proven, or a
    /// simulation reaches a leaf already waiting.
    pub fn run_batch(&mut self, max: usize) -> usize {
        assert!(
            self.pending == NONE && self.waiting == 0,
            "answer the waiting batch first"
        );
        let max = max.max(1);
        while self.waiting < max && self.done + (self.waiting as u32) < self.budget {
            match self.simulate() {
                Sim::BackedUp => {}
                Sim::Leaf => self.park(),
                Sim::Stop | Sim::Collision => break,
            }
        }
        self.waiting
    }

    /// Leaf `i` of the waiting batch (`i` below what [`Search::run_batch`] returned).
    pub fn batch_leaf(&self, i: usize) -> Leaf<'_, G> {
        assert!(i < self.waiting, "leaf {i} of a batch of {}", self.waiting);
        let p = &self.parked[i];
        Leaf {
            game: p.game.as_ref().expect("a parked leaf has its state"),
            legal: &p.legal,
        }
    }

    /// Answers the waiting batch, `evals[i]` for leaf `i`: removes the virtual visits, then
    /// expands each leaf and backs up its value in order.
    pub fn provide_batch(&mut self, evals: &[Evaluation]) {
        assert_eq!(evals.len(), self.waiting, "one evaluation per waiting leaf");
        self.release_batch();
        for (i, eval) in evals.iter().enumerate() {
            let p = &mut self.parked[i];
            std::mem::swap(&mut self.path, &mut p.path);
            std::mem::swap(&mut self.legal, &mut p.legal);
            self.pending = p.node;
            self.provide(eval);
            let p = &mut self.parked[i];
            std::mem::swap(&mut self.path, &mut p.path);
            std::mem::swap(&mut self.legal, &mut p.legal);
        }
    }

    /// A whole search of a single position, its leaves evaluated `batch` at a time: the
    /// batched [`Search::search_with`].
    pub fn search_batched(
        &mut self,
        game: &G,
        simulations: u32,
        full: bool,
        batch: usize,
        evaluator: &mut dyn Evaluator<G>,
    ) -> Result<&SearchOutput, EvalError> {
        self.begin(game, simulations, full);
        let mut evals = Vec::new();
        loop {
            let n = self.run_batch(batch);
            if n == 0 {
                break;
            }
            evals.resize_with(n, Evaluation::default);
            {
                let leaves: Vec<Leaf<'_, G>> = (0..n).map(|i| self.batch_leaf(i)).collect();
                evaluator.evaluate(&leaves, &mut evals[..n])?;
            }
            self.provide_batch(&evals[..n]);
        }
        Ok(self.finish())
    }

    /// Moves the leaf just found (pending) into the batch and puts its virtual visits on
    /// its path.
    pub(super) fn park(&mut self) {
        let i = self.waiting;
        if self.parked.len() == i {
            self.parked.push(Parked {
                node: NONE,
                path: Vec::new(),
                game: None,
                legal: Vec::new(),
            });
        }
        let sim = self.sim.as_ref().expect("a simulation is running");
        let p = &mut self.parked[i];
        p.node = self.pending;
        std::mem::swap(&mut p.path, &mut self.path);
        std::mem::swap(&mut p.legal, &mut self.legal);
        match &mut p.game {
            Some(g) => g.clone_from(sim),
            None => p.game = Some(sim.clone()),
        }
        for &n in &p.path {
            self.nodes[n as usize].in_flight += 1;
        }
        self.pending = NONE;
        self.waiting += 1;
    }

    /// Removes the waiting batch's virtual visits and forgets the batch (its leaves stay
    /// unexpanded; a later simulation that reaches one evaluates it).
    pub(super) fn release_batch(&mut self) {
        for p in &self.parked[..self.waiting] {
            for &n in &p.path {
                let nd = &mut self.nodes[n as usize];
                nd.in_flight -= 1;
            }
        }
        self.waiting = 0;
    }

    /// After choosing root edge `e` by Gumbel's schedule for a simulation that ends in a
    /// collision: gives the schedule its step back, since no visit happened.
    pub(super) fn unselect_root_edge(&mut self, node: u32, e: usize) {
        if node != self.root {
            return;
        }
        let base = self.nodes[node as usize].edges as usize;
        if let Some(st) = self.gumbel.as_mut() {
            st.visits[e - base] -= 1;
            st.next -= 1;
        }
    }
}
