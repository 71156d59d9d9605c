//! Growing a book: each step adds the cheapest moves outside the book, then searches the new
//! positions and the positions that gained a move, all at once with their leaves batched.
//!
//! A search of a node plays one turn as an agent does (a search per decision with a real
//! choice, the most visited decision each time, the tree kept between them), on the node's
//! position with its book moves barred ([`Restricted`]). The first search of the turn is the
//! node's evidence: its root value (the visits of the lines it tried, those ending in the
//! book left out) and its proof. The searches run in rounds: each runs until it needs an evaluation (all
//! in parallel), then one evaluator call answers them all.

use super::minimax::sign;
use super::restrict::{Restricted, RestrictedEvaluator};
use super::{Book, BookError, Other};
use crate::SearchConfig;
use crate::evaluator::{Evaluation, Evaluator, Leaf, mix};
use crate::mcts::{Line, Search, Step};
use crumble_core::GameText;
use crumble_core::game::Negamax;
use crumble_core::game::symmetry::canonical;
use crumble_core::{Decision, GameState, Player};
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::Arc;

/// The agent a book is grown from: its evaluator (the network, or rollouts for tests); the
/// simulations and search settings are the book's ([`super::BookHeader`]).
pub type BookAgent<G> = Box<dyn Evaluator<G>>;

/// What one [`Builder::step`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepReport {
    /// Moves added, and of them the ones that reached a new position.
    pub moves: usize,
    pub nodes: usize,
    /// Searches run and their simulations.
    pub searches: usize,
    pub simulations: u64,
    /// Time spent in the searches (and the evaluator calls for the moves' priors); the rest
    /// of a step is the book's own work (adding moves, minimax, costs).
    pub search_time: std::time::Duration,
    /// Nothing is left to add: every node's moves are all in the book.
    pub finished: bool,
}

/// Grows a [`Book`] with an evaluator.
#[derive(Debug)]
pub struct Builder<G: GameText> {
    pub book: Book<G>,
    evaluator: RestrictedEvaluator<G>,
    search: SearchConfig,
    simulations: u32,
    /// The exact solver, for the games small enough ([`GameText::SOLVABLE`]).
    solver: Option<Negamax<G>>,
}

/// What a search of one node found.
struct Found {
    /// The move played (the search's choice, with forced decisions).
    turn: Vec<Decision>,
    /// The first search of the turn: root value and proof (the mover's view), and the
    /// lines it tried; `None` when every decision was forced.
    first: Option<(f32, Option<f32>, Vec<Line>)>,
    simulations: u64,
}

/// One node's search in progress.
struct Job<G: GameState> {
    game: Restricted<G>,
    search: Search<Restricted<G>>,
    searching: bool,
    pending: Option<usize>,
    needs: bool,
    done: bool,
    found: Found,
    legal: Vec<Decision>,
}

impl<G: GameState> Job<G> {
    fn play(&mut self, d: Decision) {
        self.game.apply_unchecked(d);
        self.search.advance(d);
        self.found.turn.push(d);
    }

    /// Runs until the search needs an evaluation or the turn is over.
    fn step(&mut self, simulations: u32, outs: &[Evaluation]) {
        if let Some(j) = self.pending.take() {
            self.search.provide(&outs[j]);
        }
        self.needs = false;
        loop {
            if self.searching {
                if self.search.run() == Step::NeedsEval {
                    self.needs = true;
                    return;
                }
                self.searching = false;
                let (value, proven) = {
                    let out = self.search.finish();
                    (out.value, out.proven)
                };
                if self.found.first.is_none() {
                    let lines = self.search.candidate_lines(usize::MAX);
                    self.found.first = Some((value, proven, lines));
                }
                let d = self.search.pick(0.0);
                self.play(d);
                continue;
            }
            let g = self.game.inner();
            if !self.found.turn.is_empty() && (g.at_turn_start() || g.is_over()) {
                self.done = true;
                return;
            }
            self.game.legal_decisions_into(&mut self.legal);
            match self.legal.len() {
                0 => {
                    // A barred position: the search had nothing else to play.
                    self.done = true;
                    return;
                }
                1 => {
                    let d = self.legal[0];
                    self.play(d);
                }
                _ => {
                    self.search.begin(&self.game, simulations, false);
                    self.searching = true;
                }
            }
        }
    }
}

impl<G: GameText> Builder<G> {
    /// A builder of `book` (whose header names the simulations and search settings) with
    /// `evaluator`, the evaluator of the header's agent.
    pub fn new(book: Book<G>, evaluator: BookAgent<G>) -> Result<Builder<G>, BookError> {
        let search = SearchConfig::from_toml_str(&book.header.search, "the book's [search]")
            .map_err(|e| BookError::Header(e.to_string()))?
            .for_play();
        let simulations = book.header.simulations;
        if simulations == 0 {
            return Err(BookError::Header("0 simulations a search".into()));
        }
        let mut builder = Builder {
            book,
            evaluator: RestrictedEvaluator(evaluator),
            search,
            simulations,
            solver: G::SOLVABLE.then(Negamax::new),
        };
        let ids: Vec<u32> = (0..builder.book.nodes().len() as u32).collect();
        builder.solve(&ids);
        builder.book.recompute();
        Ok(builder)
    }

    /// The builder without the exact solver (tests of what the searches alone prove).
    pub fn without_solver(mut self) -> Builder<G> {
        self.solver = None;
        for id in 0..self.book.nodes().len() as u32 {
            let n = self.book.node_mut(id);
            n.exact = n
                .state
                .game_result()
                .map(|r| r.value_for(Player::First) as i8);
        }
        self.book.recompute();
        self
    }

    /// The exact values of nodes `ids`, for a game the solver plays.
    fn solve(&mut self, ids: &[u32]) {
        let Some(solver) = self.solver.as_mut() else {
            return;
        };
        for &id in ids {
            let v = solver.value_for(&self.book.node(id).state, Player::First);
            self.book.node_mut(id).exact = Some(v);
        }
    }

    /// One step: the root's first search, or the `batch` cheapest expansions with the
    /// searches they call for (module docs). Then the book's values and costs are fresh.
    pub fn step(&mut self) -> Result<StepReport, BookError> {
        let mut report = StepReport::default();
        let root = self.book.node(0);
        let mut jobs: Vec<u32> = Vec::new();
        if root.searches == 0 && !root.is_over() {
            jobs.push(0);
        } else {
            let picks = self.book.next_expansions(self.book.header.config.batch);
            if picks.is_empty() {
                report.finished = true;
                return Ok(report);
            }
            let mut fresh = Vec::new();
            for &p in &picks {
                let other = self
                    .book
                    .node(p)
                    .other
                    .clone()
                    .expect("picked nodes have one");
                let (child, new) =
                    self.book
                        .add_move(p, &other.turn, other.prior)
                        .ok_or_else(|| BookError::Replay {
                            node: p,
                            what: format!("its other move {:?} is not a legal move", other.turn),
                        })?;
                report.moves += 1;
                if new {
                    report.nodes += 1;
                    fresh.push(child);
                }
            }
            self.solve(&fresh);
            jobs.extend(picks);
            jobs.extend(fresh.into_iter().filter(|&c| !self.book.node(c).is_over()));
        }
        let t0 = std::time::Instant::now();
        let found = self.search_nodes(&jobs)?;
        let priors = self.priors(&jobs, &found)?;
        report.search_time = t0.elapsed();
        for ((&id, f), prior) in jobs.iter().zip(found).zip(priors) {
            report.simulations += f.simulations;
            self.record(id, f, prior);
        }
        report.searches = jobs.len();
        self.book.searches += jobs.len() as u64;
        self.book.recompute();
        Ok(report)
    }

    /// Searches nodes `ids`, each restricted to its moves outside the book, together.
    fn search_nodes(&mut self, ids: &[u32]) -> Result<Vec<Found>, BookError> {
        let mut jobs: Vec<Job<G>> = ids
            .iter()
            .enumerate()
            .map(|(k, &id)| {
                let barred: Arc<[u64]> = self.book.barred(id).into();
                let seed = mix(self.book.header.seed ^ mix(self.book.searches + k as u64));
                Job {
                    game: Restricted::new(self.book.node(id).state.clone(), barred),
                    search: Search::new(self.search.clone(), seed),
                    searching: false,
                    pending: None,
                    needs: false,
                    done: false,
                    found: Found {
                        turn: Vec::new(),
                        first: None,
                        simulations: 0,
                    },
                    legal: Vec::new(),
                }
            })
            .collect();
        let mut outs: Vec<Evaluation> = Vec::new();
        let sims = self.simulations;
        loop {
            {
                let outs = &outs;
                jobs.par_iter_mut()
                    .filter(|j| !j.done)
                    .for_each(|j| j.step(sims, outs));
            }
            let waiting: Vec<usize> = (0..jobs.len()).filter(|&k| jobs[k].needs).collect();
            if waiting.is_empty() {
                break;
            }
            outs.resize(waiting.len(), Evaluation::default());
            let leaves: Vec<Leaf<'_, Restricted<G>>> = waiting
                .iter()
                .map(|&k| jobs[k].search.leaf().expect("a pending leaf"))
                .collect();
            self.evaluator.evaluate(&leaves, &mut outs)?;
            for (leaf, o) in leaves.iter().zip(&outs) {
                if o.priors.len() != leaf.legal.len() {
                    return Err(BookError::Evaluator(format!(
                        "{} priors for a leaf with {} legal decisions",
                        o.priors.len(),
                        leaf.legal.len()
                    )));
                }
            }
            drop(leaves);
            for (j, &k) in waiting.iter().enumerate() {
                jobs[k].pending = Some(j);
            }
        }
        Ok(jobs
            .into_iter()
            .map(|mut j| {
                j.found.simulations = j.search.total_simulations;
                j.found
            })
            .collect())
    }

    /// The prior of each search's move: the product of the evaluator's priors of its
    /// decisions (forced ones count 1), in one evaluator call.
    fn priors(&mut self, ids: &[u32], found: &[Found]) -> Result<Vec<f32>, BookError> {
        let mut states: Vec<(usize, Restricted<G>, Vec<Decision>, Decision)> = Vec::new();
        for (k, (&id, f)) in ids.iter().zip(found).enumerate() {
            let mut s = Restricted::new(self.book.node(id).state.clone(), Arc::from([]));
            for &d in &f.turn {
                let mut legal = Vec::new();
                s.legal_decisions_into(&mut legal);
                if legal.len() > 1 {
                    states.push((k, s.clone(), legal, d));
                }
                s.apply_unchecked(d);
            }
        }
        let mut priors = vec![1.0f32; ids.len()];
        if states.is_empty() {
            return Ok(priors);
        }
        let leaves: Vec<Leaf<'_, Restricted<G>>> = states
            .iter()
            .map(|(_, s, legal, _)| Leaf { game: s, legal })
            .collect();
        let mut outs = vec![Evaluation::default(); leaves.len()];
        self.evaluator.evaluate(&leaves, &mut outs)?;
        for ((k, _, legal, d), o) in states.iter().zip(&outs) {
            let p = legal
                .iter()
                .position(|x| x == d)
                .and_then(|i| o.priors.get(i))
                .copied()
                .ok_or_else(|| BookError::Evaluator("a prior per legal decision".into()))?;
            priors[*k] *= p.clamp(0.0, 1.0);
        }
        Ok(priors)
    }

    /// Writes what the search of node `id` found into its other-moves entry.
    fn record(&mut self, id: u32, f: Found, prior: f32) {
        let node = self.book.node(id);
        let s = sign(node.mover());
        let mut after = node.state.clone();
        for &d in &f.turn {
            after.apply_unchecked(d);
        }
        let in_book: HashSet<u64> = node
            .edges
            .iter()
            .map(|e| self.book.node(e.child).key)
            .collect();
        let barred = in_book.contains(&canonical(&after).key);
        let other = if barred {
            // The search had to play a book move: nothing outside the book, or only losses.
            self.outside_move(id, &in_book).map(|turn| Other {
                turn,
                prior: 0.0,
                value: -s,
                visits: self.simulations,
                proven: Some(-s as i8),
            })
        } else {
            Some(match &f.first {
                None => Other {
                    turn: f.turn.clone(),
                    prior,
                    value: 0.0,
                    visits: 0,
                    proven: after
                        .game_result()
                        .map(|r| r.value_for(Player::First) as i8),
                },
                Some((root_value, proven, lines)) => {
                    // The root's mean over the moves outside the book: each barred move
                    // the search tried cost it one visit valued as a loss, so the lines
                    // the search tried are averaged by their visits, those ending in the
                    // book left out.
                    let in_book_line = |l: &Line| {
                        let mut t = node.state.clone();
                        l.complete
                            && l.decisions.iter().all(|&d| t.apply(d).is_ok())
                            && in_book.contains(&canonical(&t).key)
                    };
                    let (mut sum, mut n) = (0.0f64, 0u64);
                    for l in lines.iter().filter(|l| l.visits > 0 && !in_book_line(l)) {
                        sum += f64::from(l.value) * f64::from(l.visits);
                        n += u64::from(l.visits);
                    }
                    let (value, visits) = if n > 0 {
                        ((sum / n as f64) as f32, n.min(u64::from(u32::MAX)) as u32)
                    } else {
                        (*root_value, self.simulations)
                    };
                    Other {
                        turn: f.turn.clone(),
                        prior,
                        value: s * value.clamp(-1.0, 1.0),
                        visits,
                        proven: proven.map(|p| (s * p) as i8),
                    }
                }
            })
        };
        let exact_other = other
            .as_ref()
            .and_then(|_| self.exact_outside(id, &in_book));
        let node = self.book.node_mut(id);
        node.searches += 1;
        node.visits += f.simulations;
        node.other = other.map(|mut o| {
            if exact_other.is_some() {
                o.proven = exact_other;
            }
            o
        });
    }

    /// A move of node `id` reaching no position in `in_book` (keys), if there is one.
    fn outside_move(&self, id: u32, in_book: &HashSet<u64>) -> Option<Vec<Decision>> {
        crumble_core::game::perft::find_turn(&self.book.node(id).state, &mut |after, _| {
            !in_book.contains(&canonical(after).key)
        })
    }

    /// The solver's value of the best move of node `id` outside the book (first player's
    /// view), for the games it plays.
    fn exact_outside(&mut self, id: u32, in_book: &HashSet<u64>) -> Option<i8> {
        let solver = self.solver.as_mut()?;
        let state = self.book.node(id).state.clone();
        let s = sign(state.decider()) as i8;
        let mut best: Option<i8> = None;
        crumble_core::game::perft::find_turn(&state, &mut |after, _| {
            if !in_book.contains(&canonical(after).key) {
                let v = solver.value_for(after, Player::First);
                if best.is_none_or(|b| s * v > s * b) {
                    best = Some(v);
                }
            }
            false
        });
        best
    }
}
