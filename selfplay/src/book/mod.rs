//! The opening book: a graph of positions grown from an agent's searches, in the manner of
//! KataGo's `genbook`, for every game of the game interface.
//!
//! **Nodes** are positions between turns keyed by their canonical key (the least position
//! hash over the game's symmetric images, [`crumble_core::game::symmetry`]), so mirror
//! images and transpositions are one node. The position hash leaves out history the rules
//! keep only for a draw rule ([`GameState::position_hash`]: Crumble's window of the last six
//! turns), so lines that reach one position in different orders merge; a node keeps the
//! history of the line that reached it first, and its searches see that one. A node stores
//! its position in the canonical orientation (the image with that least hash). **Edges** are complete moves (turns) in the parent's
//! canonical orientation; each records the symmetry that takes the position it reaches to
//! the child's canonical orientation. A line is shown in its own orientation by
//! [`Book::moves_as_seen`].
//!
//! **Evidence.** Every search of a node is restricted to the moves not yet in the book
//! ([`restrict`]): its root value is the value of the node's best move *outside* the book,
//! and the move it picks is the next one to add. That is the node's **other moves** entry
//! ([`Other`]): the move, its prior (the product of the network's priors along the turn),
//! the search value and visits, and a proof when the search found one. A game small enough
//! for the exact solver ([`GameText::SOLVABLE`](crumble_core::GameText::SOLVABLE)) gets every node's exact value too.
//!
//! **Minimax** ([`Book::recompute`]). In the first player's view, a node's value and its
//! lower and upper bounds are the best (for its mover) of its options' — its book moves'
//! children and its other-moves entry, whose interval is the search value
//! `± error_factor/√visits` clamped to [−1, 1]. Proofs carry up: a proven win for the mover
//! among the options, or every option proven (the other-moves entry's proof covers every
//! move outside the book), proves the node; a proven value has no width. Bounds are monotone: each node's `lower ≤ value ≤ upper`
//! and each is the mover's best over the options' same bounds.
//!
//! **Expansion** is best-first by a cost ([`BookConfig`] documents each weight). Each move
//! costs `cost_per_move`, plus `cost_per_value_loss` times what it gives up against the
//! node's best option at their optimistic bounds, plus `cost_per_log_prior · (−ln prior)`,
//! less a bonus for the width of its interval (uncertain lines are cheaper) and a bonus on
//! the best option while its value is undecided; a node's cost is the cheapest sum along a
//! line from the root. Adding a node's other move costs the node's cost plus that move's,
//! plus `cost_per_move_expanded` per move the node has in the book. So the book goes deep
//! where the best line is close and uncertain, and stays shallow where moves lose clearly
//! or the network finds them unlikely. Each step adds the `batch` cheapest moves, searches
//! the new positions and searches their parents again (restricted to the moves still
//! outside the book), then recomputes the minimax and the costs.
//!
//! **Exports** ([`export`], [`html`]): the whole graph as JSON, opening suites by value
//! band for matches, and a static site with a page a position; both can show the results of
//! played games beside the search values ([`evidence`]), never mixed into them.
//!
//! **Determinism.** A search's seed is the book's seed and the number of searches before
//! it, the order of expansions is fixed (cost, then node number), and an evaluator's answer
//! depends on its position alone: the same book, settings and step count give the same
//! book, byte for byte, however the work is split over threads or runs ([`file`](mod@file)).

pub mod build;
pub mod check;
pub mod config;
pub mod evidence;
pub mod export;
pub mod file;
pub mod html;
mod minimax;
#[cfg(test)]
mod play_tests;
pub mod restrict;
#[cfg(test)]
mod tests;

pub use build::{BookAgent, Builder, StepReport};
pub use config::BookConfig;
pub use evidence::Evidence;
pub use file::BookError;

use crate::agent::{AgentError, AgentSpec};
use crate::driver::SharedOpening;
use crumble_core::game::symmetry::{canonical, canonical_state, orientations};
use crumble_core::{Decision, GameState, Player};
use std::collections::HashMap;

/// A value with its interval and proof, in the first player's view (+1 the first player
/// wins, −1 the second does).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Values {
    pub value: f32,
    pub lower: f32,
    pub upper: f32,
    /// The exact value (−1, 0 or +1) when proven.
    pub proven: Option<i8>,
}

impl Values {
    /// An exact value.
    pub fn exact(v: i8) -> Values {
        let x = f32::from(v);
        Values {
            value: x,
            lower: x,
            upper: x,
            proven: Some(v),
        }
    }

    /// The same values from the view of `p` (`None`, a finished game: the first player's).
    pub fn for_player(&self, p: Option<Player>) -> Values {
        if p != Some(Player::Second) {
            return *self;
        }
        Values {
            value: -self.value,
            lower: -self.upper,
            upper: -self.lower,
            proven: self.proven.map(|q| -q),
        }
    }

    /// Nothing known: value 0 in [−1, 1].
    pub const UNKNOWN: Values = Values {
        value: 0.0,
        lower: -1.0,
        upper: 1.0,
        proven: None,
    };
}

/// The best move outside the book at a node, from the node's last search (restricted to
/// those moves).
#[derive(Clone, Debug, PartialEq)]
pub struct Other {
    /// The move the search picked, in the node's canonical orientation: the next to add.
    pub turn: Vec<Decision>,
    /// Its prior: the product of the evaluator's priors of its decisions.
    pub prior: f32,
    /// The search's value of the node over the moves outside the book, first player's view.
    pub value: f32,
    /// The search's simulations (0 when every decision of the move was forced: no search).
    pub visits: u32,
    /// The exact value of the best move outside the book, when proven (first player's view).
    pub proven: Option<i8>,
}

impl Other {
    /// The entry's values: the search value `± error_factor/√visits`, or exact.
    pub fn values(&self, error_factor: f32) -> Values {
        if let Some(p) = self.proven {
            return Values::exact(p);
        }
        if self.visits == 0 {
            return Values::UNKNOWN;
        }
        let half = error_factor / (self.visits as f32).sqrt();
        Values {
            value: self.value,
            lower: (self.value - half).max(-1.0),
            upper: (self.value + half).min(1.0),
            proven: None,
        }
    }
}

/// A move in the book.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    /// The move's decisions, in the parent's canonical orientation.
    pub turn: Vec<Decision>,
    /// The node it leads to.
    pub child: u32,
    /// The symmetry from the position the move reaches to the child's canonical orientation.
    pub sym: u16,
    /// The move's prior (the product of the evaluator's priors of its decisions).
    pub prior: f32,
}

/// One position of the book.
#[derive(Clone, Debug)]
pub struct Node<G> {
    /// The canonical key ([`crumble_core::game::symmetry::canonical`]).
    pub key: u64,
    /// The position in its canonical orientation.
    pub state: G,
    /// The parent and edge by which the book first reached this node (`None`: the root).
    pub via: Option<(u32, u32)>,
    pub edges: Vec<Edge>,
    /// The best move outside the book; `None` when there is none (every move is in the
    /// book, or the game is over).
    pub other: Option<Other>,
    /// The exact value from the solver (games small enough), first player's view.
    pub exact: Option<i8>,
    /// Searches of this node, and their simulations.
    pub searches: u32,
    pub visits: u64,
    /// Derived by [`Book::recompute`]: minimaxed values.
    pub values: Values,
    /// Derived: the cheapest cost of a line from the root to here.
    pub cost: f64,
    /// Derived: the cost of each edge (the move's own part, without `cost`).
    pub edge_costs: Vec<f64>,
    /// Derived: the cost of adding `other` (infinite when there is none).
    pub other_cost: f64,
}

impl<G: GameState> Node<G> {
    fn new(key: u64, state: G, via: Option<(u32, u32)>) -> Node<G> {
        Node {
            key,
            state,
            via,
            edges: Vec::new(),
            other: None,
            exact: None,
            searches: 0,
            visits: 0,
            values: Values::UNKNOWN,
            cost: f64::INFINITY,
            edge_costs: Vec::new(),
            other_cost: f64::INFINITY,
        }
    }

    /// The player to move (`None`: the game is over).
    pub fn mover(&self) -> Option<Player> {
        self.state.decider()
    }

    /// Is the game over here?
    pub fn is_over(&self) -> bool {
        self.state.is_over()
    }
}

/// A `book:` spec's book and the agent that plays after it (the spec's, else the book's
/// own); any other spec as it is, without a book.
pub fn open_agent<G: GameState>(
    spec: &AgentSpec,
) -> Result<(AgentSpec, SharedOpening<G>), AgentError> {
    let AgentSpec::Book { path, then } = spec else {
        return Ok((spec.clone(), None));
    };
    let refused = |message: String| AgentError::Book {
        spec: spec.to_string(),
        path: path.display().to_string(),
        message,
    };
    let book = file::load::<G>(path).map_err(|e| refused(e.to_string()))?;
    let then = match then {
        Some(t) => (**t).clone(),
        None => AgentSpec::parse(&book.header.agent).map_err(|e| refused(e.to_string()))?,
    };
    Ok((then, Some(std::sync::Arc::new(book))))
}

/// `state` without a turn limit, so that its position hash leaves out the turns played
/// (a game's limit makes the turn count part of its state).
fn without_turns<G: GameState>(state: &G) -> G {
    let mut s = state.clone();
    s.set_turn_limit(0);
    s
}

/// The canonical key of `state` without its turn count and limit: how [`Book::lookup`]
/// finds a position.
fn position_key<G: GameState>(state: &G) -> u64 {
    canonical(&without_turns(state)).key
}

/// What a book was built with: stored in its file, used again when it grows further.
#[derive(Clone, Debug, PartialEq)]
pub struct BookHeader {
    /// The game's name ([`GameState::NAME`]).
    pub game: String,
    /// The start specification as JSON ([`GameState::Start`]).
    pub start: String,
    /// The agent string of the searches (`bot:64`, `ckpt:PATH:400`, ...).
    pub agent: String,
    /// Simulations of every search.
    pub simulations: u32,
    /// The `[search]` settings of the searches, as TOML.
    pub search: String,
    pub config: BookConfig,
    /// The turn limit of the game (0 = none), counted from the start.
    pub max_turns: u32,
    /// The seed every search's seed derives from.
    pub seed: u64,
}

/// An opening book (see the module docs).
#[derive(Clone, Debug)]
pub struct Book<G> {
    pub header: BookHeader,
    /// The start position as given (the root node holds its canonical image).
    pub start: G,
    nodes: Vec<Node<G>>,
    index: HashMap<u64, u32>,
    /// The first node of each position without its turn count and limit ([`position_key`]):
    /// what a game that reached it otherwise finds it by.
    by_position: HashMap<u64, u32>,
    /// Searches made so far (the next search's seed index).
    pub searches: u64,
}

/// Where a node's options stand in its minimax, for costs and displays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionRef {
    Edge(u32),
    Other,
}

impl<G: GameState> Book<G> {
    /// An empty book from `start` (its turn limit set to `header.max_turns`): the root
    /// alone, not yet searched.
    pub fn new(header: BookHeader, mut start: G) -> Book<G> {
        start.set_turn_limit(header.max_turns);
        let (root, c) = canonical_state(&start);
        let mut book = Book {
            header,
            start,
            nodes: Vec::new(),
            index: HashMap::new(),
            by_position: HashMap::new(),
            searches: 0,
        };
        book.push_node(Node::new(c.key, root, None));
        book
    }

    fn push_node(&mut self, mut node: Node<G>) -> u32 {
        let id = self.nodes.len() as u32;
        if let Some(r) = node.state.game_result() {
            node.exact = Some(r.value_for(Player::First) as i8);
        }
        self.index.insert(node.key, id);
        self.by_position
            .entry(position_key(&node.state))
            .or_insert(id);
        self.nodes.push(node);
        id
    }

    pub fn nodes(&self) -> &[Node<G>] {
        &self.nodes
    }

    pub fn node(&self, id: u32) -> &Node<G> {
        &self.nodes[id as usize]
    }

    pub(crate) fn node_mut(&mut self, id: u32) -> &mut Node<G> {
        &mut self.nodes[id as usize]
    }

    /// The node of canonical key `key`.
    pub fn find(&self, key: u64) -> Option<u32> {
        self.index.get(&key).copied()
    }

    /// The node of a position, in any orientation, however many turns the game took to
    /// reach it and whatever its turn limit: a game started from an opening position
    /// (counting its turns from there) or under another limit finds the book's positions.
    pub fn lookup(&self, state: &G) -> Option<u32> {
        self.by_position.get(&position_key(state)).copied()
    }

    /// The symmetry that shows node `id` (stored in its canonical orientation) as `state`
    /// has it; `None` when `state` is not the node's position.
    pub fn orientation_of(&self, id: u32, state: &G) -> Option<usize> {
        orientations(
            &without_turns(&self.nodes[id as usize].state),
            &without_turns(state),
        )
        .first()
        .copied()
    }

    /// Moves in the book.
    pub fn edge_count(&self) -> usize {
        self.nodes.iter().map(|n| n.edges.len()).sum()
    }

    /// Adds the move `turn` (in `parent`'s canonical orientation, with its prior) to the
    /// book: an edge to the node of the position it reaches, a new node when that position
    /// is new. Returns the child and whether it is new. `None` when the move is illegal.
    pub fn add_move(&mut self, parent: u32, turn: &[Decision], prior: f32) -> Option<(u32, bool)> {
        let mut s = self.nodes[parent as usize].state.clone();
        for &d in turn {
            s.apply(d).ok()?;
        }
        if !(s.at_turn_start() || s.is_over()) {
            return None;
        }
        let (canon, c) = canonical_state(&s);
        let edge_index = self.nodes[parent as usize].edges.len() as u32;
        let (child, new) = match self.find(c.key) {
            Some(id) => (id, false),
            None => (
                self.push_node(Node::new(c.key, canon, Some((parent, edge_index)))),
                true,
            ),
        };
        let node = &mut self.nodes[parent as usize];
        if node.edges.iter().any(|e| e.child == child) {
            return Some((child, false)); // a second way to the same node: one move
        }
        node.edges.push(Edge {
            turn: turn.to_vec(),
            child,
            sym: c.sym as u16,
            prior,
        });
        Some((child, new))
    }

    /// [`Book::add_move`] for a move as seen in `state`, an orientation of a book position
    /// (a line being browsed or played): the move is mapped to the node's orientation first.
    /// `None` when `state` is not in the book or the move is illegal there.
    pub fn add_move_seen(
        &mut self,
        state: &G,
        turn: &[Decision],
        prior: f32,
    ) -> Option<(u32, bool)> {
        let id = self.lookup(state)?;
        let canon = without_turns(&self.nodes[id as usize].state);
        let seen = without_turns(state);
        let v = seen.symmetries().into_iter().find(|&v| {
            seen.symmetry_image(v)
                .is_some_and(|t| t.position_hash() == canon.position_hash())
        })?;
        let mapped = seen.symmetry_turn(v, turn)?;
        self.add_move(id, &mapped, prior)
    }

    /// The sorted hashes of every orientation of every position `id`'s book moves reach:
    /// what its next search bars ([`restrict::Restricted`]).
    pub fn barred(&self, id: u32) -> Vec<u64> {
        let mut out = Vec::new();
        for e in &self.nodes[id as usize].edges {
            let child = &self.nodes[e.child as usize].state;
            for sym in child.symmetries() {
                if let Some(t) = child.symmetry_image(sym) {
                    out.push(t.position_hash());
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The moves of node `id` as seen in `state`, an orientation of its position (the line
    /// being browsed): each book move mapped by the symmetry that shows the node as `state`.
    /// `None` when `state` is not the node's position.
    pub fn moves_as_seen(&self, id: u32, state: &G) -> Option<Vec<Vec<Decision>>> {
        let node = &self.nodes[id as usize];
        let u = self.orientation_of(id, state)?;
        node.edges
            .iter()
            .map(|e| node.state.symmetry_turn(u, &e.turn))
            .collect()
    }
}
