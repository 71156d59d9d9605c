//! Monte-Carlo tree search over the rules engine's atomic decisions.
//!
//! One [`Search`] owns one tree. It never calls an evaluator itself: [`Search::run`] plays
//! simulations until one reaches a state that needs an evaluation and then returns
//! [`Step::NeedsEval`]; the caller gathers such leaves from many searches into one batch, and
//! hands each answer back with [`Search::provide`]. So one search works alone (see
//! [`Search::search_with`]) and many work together (the self-play driver).
//!
//! Design points:
//! - **Values.** A node stores the sum of backed-up values in the first player's view; a node
//!   read from its parent's view is multiplied by the parent decider's sign (+1 the first
//!   player, -1 the second). So
//!   the sign flips exactly where the deciding player changes and never inside a turn.
//! - **Terminal states** are scored exactly (+1/-1 for the winner, 0 for a draw) on every
//!   visit, never evaluated.
//! - **Single legal decision.** When a new state has exactly one legal decision it is
//!   applied at once, without a node or an evaluation; the edge leads to the first state with
//!   a real choice (or the end) and the node keeps the forced decisions it skipped.
//! - **Tree reuse.** [`Search::advance`] moves the root to the child of the decision played
//!   (and through its forced decisions) and compacts the tree; [`Search::begin`] reuses it
//!   only when the game's state hash equals the root's (`mcts/reuse.rs`).
//! - **Root.** PUCT with Dirichlet noise and forced playouts, or Gumbel AlphaZero (Gumbel
//!   top-k with sequential halving, completed-Q target). Interior nodes always use PUCT with
//!   first-play urgency. The root's own machinery is in `mcts/root.rs`; what a finished
//!   search returns, the target and the decision to play, in `mcts/output.rs`.
//! - **Proofs (MCTS-solver)**, in `mcts/proof.rs`: terminal nodes are proven; proofs carry up the
//!   tree during backup; a proven node is never evaluated or descended into again (its exact
//!   value is backed up at once), proven-lost children are not selected while an alternative
//!   remains, and a search whose root is proven stops early. With `lookahead` on, new nodes
//!   at a turn start are proven wins when their decider can win at once, and the root's own
//!   win in the current turn is found exactly. The root's chosen decision is a proven win
//!   whenever one exists, never a proven loss while another choice exists.
//!   **Policy target at a proven root:** when the root is proven won (or drawn, all its
//!   children proven), the target is uniform over the decisions that achieve that value, and
//!   [`SearchOutput::proven`] holds the exact value; at a root proven lost the normal target
//!   (visits, pruned visits or Gumbel's completed Q) is kept.

mod batch;
mod inspect;
mod output;
mod proof;
mod refine;
mod reuse;
mod root;

pub use inspect::Line;
pub use root::considered_visits;

use crate::config::SearchConfig;
use crate::evaluator::{Evaluation, Leaf};
use crumble_core::{Decision, GameState, Player};
use proof::UNPROVEN;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Gamma};

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NodeState {
    /// Created; its evaluation is pending.
    Unexpanded,
    Expanded,
    Terminal,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    hash: u64,
    /// Sum of backed-up values, the first player's view.
    w: f64,
    n: u32,
    /// Sum of the squared backed-up values (their spread: stdev exploration, LCB choice).
    w2: f32,
    edges: u32,
    n_edges: u32,
    forced: u32,
    n_forced: u16,
    /// Simulations of the batch being gathered that passed through this node and wait for
    /// their leaf's evaluation (virtual visits, each counted as a loss for the decider above;
    /// see `mcts/batch.rs`). Zero outside [`Search::run_batch`].
    in_flight: u16,
    /// +1 the first player decides here, -1 the second, 0 the game is over.
    sign: i8,
    state: NodeState,
    /// The evaluator's value, decider's view.
    net_value: f32,
    /// Exact value in the first player's view (-1, 0, +1) once proven, else [`UNPROVEN`].
    proof: i8,
    /// Has the one-turn lookahead looked at this node (only nodes that begin a turn)?
    checked: bool,
}

// The node stays within 48 bytes (the search's hot loop walks them).
const _: () = assert!(std::mem::size_of::<Node>() <= 48);

#[derive(Clone, Copy, Debug)]
struct Edge {
    decision: Decision,
    prior: f32,
    child: u32,
}

/// What [`Search::run`] stopped for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A leaf waits for an evaluation: read it with [`Search::leaf`], answer with
    /// [`Search::provide`], then call `run` again.
    NeedsEval,
    /// The simulation budget is spent.
    Done,
}

/// How one simulation ended ([`Search::simulate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sim {
    /// It reached a proven node and backed up its exact value.
    BackedUp,
    /// It reached a leaf that needs an evaluation, now pending.
    Leaf,
    /// The root is proven: no simulation is needed.
    Stop,
    /// It reached a leaf already waiting in the batch being gathered.
    Collision,
}

#[derive(Clone, Debug, Default)]
struct GumbelState {
    /// Gumbel noise and log-prior of each root edge.
    g: Vec<f32>,
    logits: Vec<f32>,
    /// Visits of each root edge in this search.
    visits: Vec<u32>,
    /// Sequential halving: the visit count a root edge must have to be chosen at step i.
    table: Vec<u32>,
    next: usize,
}

/// The result of a finished search, over the root's legal decisions (sorted).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchOutput {
    pub legal: Vec<Decision>,
    /// Visits of each legal decision's child (including visits kept from tree reuse).
    pub visits: Vec<u32>,
    /// The policy target: visit distribution, pruned visits (forced playouts), or the Gumbel
    /// completed-Q policy; non-negative, sums to 1.
    pub target: Vec<f32>,
    /// The network's prior of each legal decision, as it gave it (before root noise and
    /// temperature): with `target`, how much the search surprised the network.
    pub prior: Vec<f32>,
    /// Root value from the view of the root's decider: mean of the backed-up values.
    pub value: f32,
    /// Visits of the root.
    pub root_visits: u32,
    /// The decision Gumbel sequential halving picked (Gumbel searches only), replaced by a
    /// proven win when there is one (and a proven loss by a better choice).
    pub gumbel_choice: Option<Decision>,
    /// The root's exact value from its decider's view (+1 won, 0 drawn, -1 lost) when the
    /// search proved it; the target then points at the proving decisions (module docs).
    pub proven: Option<f32>,
    /// Was this a full search (noise, forced playouts; a training target)?
    pub full: bool,
}

/// One search tree and its settings; see the module docs.
#[derive(Debug)]
pub struct Search<G: GameState> {
    cfg: SearchConfig,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    forced: Vec<Decision>,
    spare: (Vec<Node>, Vec<Edge>, Vec<Decision>),
    stack: Vec<(u32, u32)>,
    root: u32,
    root_game: Option<G>,
    sim: Option<G>,
    /// Forced decisions still to be played (by [`Search::advance`]) to reach the root.
    to_skip: Vec<Decision>,
    budget: u32,
    done: u32,
    full: bool,
    prepared: bool,
    path: Vec<u32>,
    pending: u32,
    /// The leaves of the batch being gathered ([`Search::run_batch`]): the first `waiting`.
    parked: Vec<batch::Parked<G>>,
    waiting: usize,
    legal: Vec<Decision>,
    noise_backup: Vec<f32>,
    /// The root's Dirichlet samples, kept between searches so a search allocates none.
    dirichlet: Vec<f64>,
    /// Did this search put noise on the root's priors (a full search with noise on)?
    noised: bool,
    gumbel: Option<GumbelState>,
    rng: ChaCha8Rng,
    out: SearchOutput,
    scratch: Vec<f32>,
    /// The one-turn win check's buffers (used only with `lookahead` on).
    check: G::WinCheck,
    /// The two-turn lookahead's buffers (used only with a `forcing_budget`).
    forcing: G::ForcingCheck,
    /// The forcing rest of a turn the two-turn lookahead found last: each decision with the
    /// hash of the state it is played from, so the roots that follow within the turn play it
    /// on without solving again.
    plan: Vec<(u64, Decision)>,
    /// Simulations completed over the search's life (for rates).
    pub total_simulations: u64,
}

#[inline]
fn sign_of(p: Option<Player>) -> i8 {
    match p {
        Some(Player::First) => 1,
        Some(Player::Second) => -1,
        None => 0,
    }
}

fn terminal_value<G: GameState>(game: &G) -> f32 {
    game.game_result()
        .map_or(0.0, |r| r.value_for(Player::First))
}

impl<G: GameState> Search<G> {
    pub fn new(cfg: SearchConfig, seed: u64) -> Search<G> {
        Search {
            cfg,
            nodes: Vec::new(),
            edges: Vec::new(),
            forced: Vec::new(),
            spare: (Vec::new(), Vec::new(), Vec::new()),
            stack: Vec::new(),
            root: NONE,
            root_game: None,
            sim: None,
            to_skip: Vec::new(),
            budget: 0,
            done: 0,
            full: true,
            prepared: false,
            path: Vec::new(),
            pending: NONE,
            parked: Vec::new(),
            waiting: 0,
            legal: Vec::new(),
            noise_backup: Vec::new(),
            dirichlet: Vec::new(),
            noised: false,
            gumbel: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
            out: SearchOutput::default(),
            scratch: Vec::new(),
            check: G::WinCheck::default(),
            forcing: G::ForcingCheck::default(),
            plan: Vec::new(),
            total_simulations: 0,
        }
    }

    pub fn config(&self) -> &SearchConfig {
        &self.cfg
    }

    /// Restarts the random stream (for a new game) and drops the tree.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.clear();
    }

    /// Drops the tree.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.forced.clear();
        self.to_skip.clear();
        self.root = NONE;
        self.pending = NONE;
        self.waiting = 0;
    }

    /// Number of nodes in the tree.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Visits of the root (including visits kept from tree reuse).
    pub fn root_visits(&self) -> u32 {
        if self.root == NONE {
            0
        } else {
            self.nodes[self.root as usize].n
        }
    }

    /// Starts a search of `simulations` simulations from `game` (live). `full` selects the
    /// full search of playout cap randomisation (root noise and forced playouts, as
    /// configured). Reuses the tree when its root is this state.
    pub fn begin(&mut self, game: &G, simulations: u32, full: bool) {
        assert!(!game.is_over(), "search needs a live game");
        self.release_batch();
        let h = game.state_hash();
        let reuse = self.cfg.tree_reuse
            && self.root != NONE
            && self.to_skip.is_empty()
            && self.nodes[self.root as usize].hash == h
            && self.nodes[self.root as usize].state == NodeState::Expanded;
        if !reuse {
            self.clear();
            self.nodes.push(Node {
                hash: h,
                w: 0.0,
                n: 0,
                w2: 0.0,
                edges: 0,
                n_edges: 0,
                forced: 0,
                n_forced: 0,
                in_flight: 0,
                sign: sign_of(game.decider()),
                state: NodeState::Unexpanded,
                net_value: 0.0,
                proof: UNPROVEN,
                checked: false,
            });
            self.root = 0;
        }
        match &mut self.root_game {
            Some(g) => g.clone_from(game),
            None => self.root_game = Some(game.clone()),
        }
        self.budget = simulations.max(1);
        self.done = 0;
        self.full = full;
        self.prepared = false;
        self.pending = NONE;
        self.gumbel = None;
        self.noise_backup.clear();
        self.noised = false;
    }

    /// Sets the simulation game to the root's state.
    fn sim_at_root(&mut self) {
        let root_game = self.root_game.as_ref().expect("begin() first");
        match &mut self.sim {
            Some(s) => s.clone_from(root_game),
            None => self.sim = Some(root_game.clone()),
        }
    }

    /// Plays simulations until one needs an evaluation or the budget is spent.
    pub fn run(&mut self) -> Step {
        debug_assert!(
            self.pending == NONE && self.waiting == 0,
            "provide the pending evaluation first"
        );
        while self.done < self.budget {
            match self.simulate() {
                Sim::BackedUp => {}
                Sim::Leaf => return Step::NeedsEval,
                Sim::Stop => break,
                Sim::Collision => unreachable!("no leaf waits outside run_batch"),
            }
        }
        Step::Done
    }

    /// One simulation from the root: down the tree to a leaf that needs an evaluation (left
    /// pending), or to a proven node whose exact value it backs up.
    fn simulate(&mut self) -> Sim {
        let root = self.root;
        if self.nodes[root as usize].proof != UNPROVEN {
            // Nothing left to learn: the root's value is exact. A win the lookahead proved
            // (in an earlier search, with the root then below) still needs its decision.
            if self.plants_root_wins() && self.won_without_proving_child(root) {
                self.sim_at_root();
                self.plant_root_win();
            }
            return Sim::Stop;
        }
        self.sim_at_root();
        self.path.clear();
        self.path.push(root);
        if self.nodes[root as usize].state == NodeState::Unexpanded {
            if self.nodes[root as usize].in_flight > 0 {
                return Sim::Collision;
            }
            let sim = self.sim.as_mut().expect("set above");
            sim.legal_decisions_into(&mut self.legal);
            self.pending = root;
            return Sim::Leaf;
        }
        if !self.prepared {
            self.prepare_root();
            if self.plants_root_wins() && self.plant_root_win() {
                return Sim::BackedUp; // the root is proven; the simulation game was used
            }
            if self.mark_root_losses() {
                self.sim_at_root();
            }
        }
        let mut node = root;
        loop {
            let p = self.nodes[node as usize].proof;
            if p != UNPROVEN {
                // Terminal or proven: the exact value, without descending further.
                self.backup(f64::from(p));
                self.propagate_proof();
                return Sim::BackedUp;
            }
            let e = self.select_edge(node);
            let edge = self.edges[e];
            let sim = self.sim.as_mut().expect("set above");
            sim.apply_unchecked(edge.decision);
            if edge.child == NONE {
                let c = self.new_node();
                self.edges[e].child = c;
                self.path.push(c);
                let p = self.nodes[c as usize].proof;
                if p != UNPROVEN {
                    self.backup(f64::from(p));
                    self.propagate_proof();
                    return Sim::BackedUp;
                }
                self.pending = c;
                return Sim::Leaf;
            }
            let ch = self.nodes[edge.child as usize];
            if ch.state == NodeState::Unexpanded && ch.in_flight > 0 {
                // A leaf of the batch being gathered: its value is not known yet.
                self.unselect_root_edge(node, e);
                return Sim::Collision;
            }
            for i in ch.forced..ch.forced + u32::from(ch.n_forced) {
                sim.apply_unchecked(self.forced[i as usize]);
            }
            self.path.push(edge.child);
            node = edge.child;
            if ch.state == NodeState::Unexpanded {
                // Left unanswered by a search that stopped early: evaluated now.
                sim.legal_decisions_into(&mut self.legal);
                self.pending = node;
                return Sim::Leaf;
            }
            if !ch.checked && self.cfg.lookahead.visit().is_some_and(|v| ch.n + 1 >= v) {
                self.check_on_visit(node);
            }
        }
    }

    /// The leaf waiting for an evaluation (after [`Step::NeedsEval`]).
    pub fn leaf(&self) -> Option<Leaf<'_, G>> {
        (self.pending != NONE).then(|| Leaf {
            game: self.sim.as_ref().expect("a pending leaf"),
            legal: &self.legal,
        })
    }

    /// State hash of the pending leaf (the evaluation cache's key).
    pub fn leaf_hash(&self) -> Option<u64> {
        (self.pending != NONE).then(|| self.nodes[self.pending as usize].hash)
    }

    /// Answers the pending leaf: expands it with the priors and backs up the value.
    /// `eval.priors` must have one entry per legal decision of the leaf.
    pub fn provide(&mut self, eval: &Evaluation) {
        let c = self.pending;
        assert!(c != NONE, "no leaf is pending");
        assert_eq!(
            eval.priors.len(),
            self.legal.len(),
            "one prior per legal decision"
        );
        self.pending = NONE;
        let start = self.edges.len() as u32;
        for (&d, &p) in self.legal.iter().zip(&eval.priors) {
            let p = if p.is_finite() && p > 0.0 { p } else { 0.0 };
            self.edges.push(Edge {
                decision: d,
                prior: p,
                child: NONE,
            });
        }
        let value = if eval.value.is_finite() {
            eval.value.clamp(-1.0, 1.0)
        } else {
            0.0
        };
        let node = &mut self.nodes[c as usize];
        node.edges = start;
        node.n_edges = self.legal.len() as u32;
        node.state = NodeState::Expanded;
        node.net_value = value;
        let v = f64::from(value) * f64::from(node.sign);
        self.backup(v);
    }

    fn backup(&mut self, v_black: f64) {
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.n += 1;
            node.w += v_black;
            node.w2 += (v_black * v_black) as f32;
        }
        self.done += 1;
        self.total_simulations += 1;
    }

    /// Creates the node of the simulation game's state after playing its forced decisions.
    fn new_node(&mut self) -> u32 {
        let sim = self.sim.as_mut().expect("a simulation is running");
        let fstart = self.forced.len() as u32;
        loop {
            if sim.is_over() {
                break;
            }
            sim.legal_decisions_into(&mut self.legal);
            if self.legal.len() != 1 {
                break;
            }
            let d = self.legal[0];
            sim.apply_unchecked(d);
            self.forced.push(d);
        }
        let over = sim.is_over();
        let check_now = !over && self.cfg.lookahead.visit() == Some(1) && sim.at_turn_start();
        let proof = if over {
            terminal_value(sim) as i8
        } else if check_now && sim.win_this_turn(&mut self.check).is_some() {
            sign_of(sim.decider())
        } else {
            UNPROVEN
        };
        self.nodes.push(Node {
            hash: sim.state_hash(),
            w: 0.0,
            n: 0,
            w2: 0.0,
            edges: 0,
            n_edges: 0,
            forced: fstart,
            n_forced: u16::try_from(self.forced.len() as u32 - fstart)
                .expect("a chain of forced decisions is shorter than 65,536"),
            in_flight: 0,
            sign: sign_of(sim.decider()),
            state: if over {
                NodeState::Terminal
            } else {
                NodeState::Unexpanded
            },
            net_value: 0.0,
            proof,
            checked: self.cfg.lookahead.visit() == Some(1),
        });
        (self.nodes.len() - 1) as u32
    }

    #[inline]
    fn child_q(&self, parent_sign: f32, child: u32) -> Option<f32> {
        if child == NONE {
            return None;
        }
        let c = &self.nodes[child as usize];
        if c.proof != UNPROVEN {
            return Some(parent_sign * f32::from(c.proof));
        }
        if c.in_flight > 0 {
            // Virtual loss: each simulation waiting below counts as a loss for the parent's
            // decider, so the batch being gathered spreads over other lines.
            let n = f64::from(c.n) + f64::from(c.in_flight);
            return Some(((f64::from(parent_sign) * c.w - f64::from(c.in_flight)) / n) as f32);
        }
        (c.n > 0).then(|| parent_sign * (c.w / f64::from(c.n)) as f32)
    }

    /// Visits of a node, counting the simulations of a batch waiting below it.
    #[inline]
    fn visits(nd: &Node) -> u32 {
        nd.n + u32::from(nd.in_flight)
    }

    /// The exploration constant at node `nd`: `c_puct`, scaled by the spread of its values
    /// when `stdev_exploration` is on.
    #[inline]
    fn c_puct_at(&self, nd: &Node) -> f32 {
        self.cfg.c_puct * refine::exploration_scale(&self.cfg.stdev_exploration, nd.n, nd.w, nd.w2)
    }

    fn select_edge(&mut self, node: u32) -> usize {
        let nd = self.nodes[node as usize];
        if node == self.root {
            if self.gumbel.is_some() {
                return self.gumbel_select();
            }
            if self.full
                && self.cfg.forced_playouts.enabled
                && let Some(e) = self.forced_playout()
            {
                return e;
            }
        }
        let s = f32::from(nd.sign);
        let parent_q = s * (nd.w / f64::from(nd.n.max(1))) as f32;
        let mut mass = 0.0f32;
        for e in &self.edges[nd.edges as usize..(nd.edges + nd.n_edges) as usize] {
            if e.child != NONE && Self::visits(&self.nodes[e.child as usize]) > 0 {
                mass += e.prior;
            }
        }
        let reduction = if node == self.root && self.noised && !self.cfg.noise.fpu_at_root {
            0.0
        } else {
            self.cfg.fpu_reduction
        };
        let fpu = parent_q - reduction * mass.sqrt();
        let explore = self.c_puct_at(&nd) * (Self::visits(&nd) as f32).sqrt();
        let mut best = nd.edges as usize;
        let mut best_score = f32::NEG_INFINITY;
        for i in nd.edges as usize..(nd.edges + nd.n_edges) as usize {
            let e = self.edges[i];
            if self.proven_lost(nd.sign, e.child) {
                continue; // nothing to gain there; the node itself is proven once all are
            }
            let (q, n) = match self.child_q(s, e.child) {
                Some(q) => (q, Self::visits(&self.nodes[e.child as usize])),
                None => (fpu, 0),
            };
            let score = q + explore * e.prior / (1.0 + n as f32);
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    /// Runs a whole search with one evaluator (one leaf per call): the simple way to search a
    /// single position. Returns the output of [`Search::finish`].
    pub fn search_with(
        &mut self,
        game: &G,
        simulations: u32,
        full: bool,
        evaluator: &mut dyn crate::Evaluator<G>,
    ) -> Result<&SearchOutput, crate::EvalError> {
        self.begin(game, simulations, full);
        let mut eval = [Evaluation::default()];
        while self.run() == Step::NeedsEval {
            {
                let leaf = self.leaf().expect("pending leaf");
                evaluator.evaluate(&[leaf], &mut eval)?;
            }
            self.provide(&eval[0]);
        }
        Ok(self.finish())
    }

    /// Plays one whole turn from `game` (a turn start): a search of `simulations` for each
    /// decision that is not forced, the most visited one played. Returns the turn's decisions
    /// and the first search's value (`None` when every decision was forced). The tree follows
    /// the turn; clear it first when the game went on without it.
    pub fn search_turn(
        &mut self,
        game: &G,
        simulations: u32,
        evaluator: &mut dyn crate::Evaluator<G>,
    ) -> Result<(Vec<Decision>, Option<f32>), crate::EvalError> {
        let mut g = game.clone();
        let (mut path, mut legal, mut value) = (Vec::new(), Vec::new(), None);
        loop {
            g.legal_decisions_into(&mut legal);
            let d = if legal.len() == 1 {
                legal[0]
            } else {
                let out = self.search_with(&g, simulations, false, evaluator)?;
                // The first search of the turn judges the position the move starts from.
                value.get_or_insert(out.value);
                self.pick(0.0)
            };
            self.advance(d);
            g.apply_unchecked(d);
            path.push(d);
            if g.is_over() || g.at_turn_start() {
                return Ok((path, value));
            }
        }
    }

    /// Mean value (the first player's view) and visits of the node reached from the root by
    /// `path` (decisions, forced ones included or not), for tests and diagnostics.
    pub fn node_stats(&self, path: &[Decision]) -> Option<(f64, u32, Option<Player>)> {
        let mut node = self.root;
        if node == NONE {
            return None;
        }
        let mut i = 0;
        while i < path.len() {
            let nd = self.nodes[node as usize];
            let e = self.edges[nd.edges as usize..(nd.edges + nd.n_edges) as usize]
                .iter()
                .find(|e| e.decision == path[i])?;
            if e.child == NONE {
                return None;
            }
            node = e.child;
            i += 1;
            let c = self.nodes[node as usize];
            for f in &self.forced[c.forced as usize..(c.forced + u32::from(c.n_forced)) as usize] {
                if i < path.len() && path[i] == *f {
                    i += 1;
                }
            }
        }
        let nd = self.nodes[node as usize];
        let decider = match nd.sign {
            1 => Some(Player::First),
            -1 => Some(Player::Second),
            _ => None,
        };
        Some((
            if nd.n > 0 {
                nd.w / f64::from(nd.n)
            } else {
                0.0
            },
            nd.n,
            decider,
        ))
    }
}
