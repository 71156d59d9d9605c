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
//!   only when the game's state hash equals the root's.
//! - **Root.** PUCT with Dirichlet noise and forced playouts, or Gumbel AlphaZero (Gumbel
//!   top-k with sequential halving, completed-Q target). Interior nodes always use PUCT with
//!   first-play urgency.
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
mod proof;
mod refine;

pub use inspect::Line;

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

    /// Forced playouts: a root child below `sqrt(k·P·N)` visits is taken first.
    fn forced_playout(&self) -> Option<usize> {
        let nd = self.nodes[self.root as usize];
        let range = nd.edges as usize..(nd.edges + nd.n_edges) as usize;
        let total: u32 = self.edges[range.clone()]
            .iter()
            .map(|e| {
                if e.child == NONE {
                    0
                } else {
                    self.nodes[e.child as usize].n
                }
            })
            .sum();
        let mut best = None;
        let mut best_gap = 0.0f32;
        for i in range {
            let e = self.edges[i];
            let n = if e.child == NONE {
                0
            } else {
                self.nodes[e.child as usize].n
            };
            let forced = (self.cfg.forced_playouts.k * e.prior * total as f32).sqrt();
            let gap = forced - n as f32;
            let proven = e.child != NONE && self.nodes[e.child as usize].proof != UNPROVEN;
            if e.prior > 0.0 && gap > best_gap && !proven {
                best_gap = gap;
                best = Some(i);
            }
        }
        best
    }

    /// Root preparation once its priors are known: Dirichlet noise or the Gumbel state.
    fn prepare_root(&mut self) {
        self.prepared = true;
        let nd = self.nodes[self.root as usize];
        let range = nd.edges as usize..(nd.edges + nd.n_edges) as usize;
        if self.cfg.gumbel.enabled {
            let m = (self.cfg.gumbel.sampled_actions as usize)
                .min(range.len())
                .max(1);
            let scale = self.cfg.gumbel.noise_scale;
            let mut st = GumbelState::default();
            for i in range {
                let u: f64 = self.rng.random_range(1e-12..1.0);
                st.g.push(scale * (-(-u.ln()).ln()) as f32);
                st.logits.push(self.edges[i].prior.max(1e-30).ln());
                st.visits.push(0);
            }
            st.table = considered_visits(m, (self.budget - self.done) as usize);
            self.gumbel = Some(st);
            return;
        }
        if self.full && self.cfg.noise.enabled && range.len() > 1 {
            self.noised = true;
            // The priors as the network gave them come back in `finish`.
            self.noise_backup.clear();
            self.noise_backup
                .extend(self.edges[range.clone()].iter().map(|e| e.prior));
            let mut tempered = std::mem::take(&mut self.scratch);
            tempered.clear();
            tempered.extend_from_slice(&self.noise_backup);
            refine::temper_priors(&mut tempered, self.cfg.noise.root_policy_temperature);
            let alpha = (self.cfg.noise.total_alpha / range.len() as f32).max(1e-3);
            let gamma = Gamma::new(f64::from(alpha), 1.0).expect("alpha is positive");
            let mut noise = std::mem::take(&mut self.dirichlet);
            noise.clear();
            noise.extend(range.clone().map(|_| gamma.sample(&mut self.rng)));
            let sum: f64 = noise.iter().sum();
            let eps = if sum > 0.0 {
                self.cfg.noise.epsilon
            } else {
                0.0
            };
            for (k, i) in range.enumerate() {
                let dir = if sum > 0.0 {
                    noise[k] as f32 / sum as f32
                } else {
                    0.0
                };
                self.edges[i].prior = (1.0 - eps) * tempered[k] + eps * dir;
            }
            self.scratch = tempered;
            self.dirichlet = noise;
        }
    }

    /// Completed Q of every root edge (root decider's view) into `self.scratch`, and the
    /// largest child visit count.
    fn completed_q(&mut self) -> u32 {
        let nd = self.nodes[self.root as usize];
        let s = f32::from(nd.sign);
        let range = nd.edges as usize..(nd.edges + nd.n_edges) as usize;
        let (mut sum_n, mut sum_p, mut sum_pq, mut max_n) = (0u32, 0.0f32, 0.0f32, 0u32);
        for e in &self.edges[range.clone()] {
            if let Some(q) = self.child_q(s, e.child) {
                let n = self.nodes[e.child as usize].n;
                sum_n += n;
                max_n = max_n.max(n);
                sum_p += e.prior;
                sum_pq += e.prior * q;
            }
        }
        let v_mix = if sum_p > 0.0 {
            (nd.net_value + sum_n as f32 * (sum_pq / sum_p)) / (sum_n as f32 + 1.0)
        } else {
            nd.net_value
        };
        self.scratch.clear();
        for i in range {
            let q = self.child_q(s, self.edges[i].child).unwrap_or(v_mix);
            self.scratch.push(q);
        }
        // Rescale to [0, 1] by the min and max (mctx's `rescale_values`).
        let (lo, hi) = self
            .scratch
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), &q| {
                (l.min(q), h.max(q))
            });
        let width = (hi - lo).max(1e-6);
        let sigma = (self.cfg.gumbel.c_visit + max_n as f32) * self.cfg.gumbel.c_scale;
        for q in &mut self.scratch {
            *q = sigma * (*q - lo) / width;
        }
        max_n
    }

    fn gumbel_select(&mut self) -> usize {
        self.completed_q();
        let base = self.nodes[self.root as usize].edges as usize;
        let st = self.gumbel.as_mut().expect("gumbel state");
        let want = st.table.get(st.next).copied();
        st.next += 1;
        let mut best = None;
        let mut best_score = f32::NEG_INFINITY;
        let min_visits = st.visits.iter().copied().min().unwrap_or(0);
        for k in 0..st.g.len() {
            let ok = match want {
                Some(w) => st.visits[k] == w,
                None => st.visits[k] == min_visits,
            };
            let score = st.g[k] + st.logits[k] + self.scratch[k];
            if ok && score > best_score {
                best_score = score;
                best = Some(k);
            }
        }
        // Falls back to the best-scoring edge with the fewest visits of this search.
        let k = best.unwrap_or_else(|| {
            (0..st.g.len())
                .filter(|&k| st.visits[k] == min_visits)
                .max_by(|&a, &b| (st.g[a] + st.logits[a]).total_cmp(&(st.g[b] + st.logits[b])))
                .unwrap_or(0)
        });
        st.visits[k] += 1;
        base + k
    }

    /// Finishes the search: computes the output (target, value, visits) and restores root
    /// priors changed by noise.
    pub fn finish(&mut self) -> &SearchOutput {
        assert!(
            self.root != NONE && self.pending == NONE && self.waiting == 0,
            "finish() after run() returned Done"
        );
        let nd = self.nodes[self.root as usize];
        let range = nd.edges as usize..(nd.edges + nd.n_edges) as usize;
        let s = f32::from(nd.sign);
        let out = &mut self.out;
        out.legal.clear();
        out.visits.clear();
        out.target.clear();
        out.prior.clear();
        out.full = self.full;
        out.root_visits = nd.n;
        out.value = if nd.n > 0 {
            s * (nd.w / f64::from(nd.n)) as f32
        } else {
            0.0
        };
        out.gumbel_choice = None;
        out.proven = (nd.proof != UNPROVEN).then(|| f32::from(nd.sign * nd.proof));
        if self.noise_backup.is_empty() {
            out.prior
                .extend(self.edges[range.clone()].iter().map(|e| e.prior));
        } else {
            out.prior.extend_from_slice(&self.noise_backup);
        }
        for e in &self.edges[range.clone()] {
            out.legal.push(e.decision);
            out.visits.push(if e.child == NONE {
                0
            } else {
                self.nodes[e.child as usize].n
            });
        }
        if self.gumbel.is_some() {
            self.completed_q();
            let st = self.gumbel.as_ref().expect("gumbel state");
            let out = &mut self.out;
            // Improved policy: softmax(logits + sigma(completed q)).
            let mut mx = f32::NEG_INFINITY;
            for k in 0..st.g.len() {
                mx = mx.max(st.logits[k] + self.scratch[k]);
            }
            let mut sum = 0.0f32;
            for k in 0..st.g.len() {
                let x = (st.logits[k] + self.scratch[k] - mx).exp();
                out.target.push(x);
                sum += x;
            }
            for t in &mut out.target {
                *t /= sum;
            }
            let maxv = st.visits.iter().copied().max().unwrap_or(0);
            let mut best = 0;
            let mut best_score = f32::NEG_INFINITY;
            for k in 0..st.g.len() {
                let score = st.g[k] + st.logits[k] + self.scratch[k];
                if st.visits[k] == maxv && score > best_score {
                    best_score = score;
                    best = k;
                }
            }
            out.gumbel_choice = Some(out.legal[best]);
        } else {
            let mut visits: Vec<f32> = out.visits.iter().map(|&v| v as f32).collect();
            if self.full && self.cfg.forced_playouts.enabled && self.cfg.forced_playouts.prune {
                self.prune(&mut visits);
            }
            let out = &mut self.out;
            let sum: f32 = visits.iter().sum();
            if sum > 0.0 {
                out.target.extend(visits.iter().map(|v| v / sum));
            } else {
                let p = 1.0 / out.legal.len().max(1) as f32;
                out.target.resize(out.legal.len(), p);
            }
        }
        self.apply_proofs_to_output();
        if !self.noise_backup.is_empty() {
            for (k, i) in range.enumerate() {
                self.edges[i].prior = self.noise_backup[k];
            }
            self.noise_backup.clear();
        }
        &self.out
    }

    /// KataGo's policy target pruning: each child but the most visited loses up to its forced
    /// playouts as long as its PUCT score stays below the best child's; a child left with one
    /// visit or less is pruned to zero. Never negative.
    fn prune(&self, visits: &mut [f32]) {
        let nd = self.nodes[self.root as usize];
        let s = f32::from(nd.sign);
        let range = nd.edges as usize..(nd.edges + nd.n_edges) as usize;
        let total: f32 = visits.iter().sum();
        if total <= 0.0 {
            return;
        }
        let Some(best) = (0..visits.len()).max_by(|&a, &b| visits[a].total_cmp(&visits[b])) else {
            return;
        };
        let explore = self.c_puct_at(&nd) * total.sqrt();
        let edges = &self.edges[range];
        let puct = |k: usize, n: f32| {
            let q = self.child_q(s, edges[k].child).unwrap_or(0.0);
            q + explore * edges[k].prior / (1.0 + n)
        };
        let best_score = puct(best, visits[best]);
        for k in 0..visits.len() {
            if k == best || visits[k] <= 0.0 {
                continue;
            }
            let n = visits[k];
            let forced = (self.cfg.forced_playouts.k * edges[k].prior * total).sqrt();
            let q = self.child_q(s, edges[k].child).unwrap_or(0.0);
            // Smallest n' with q + explore·P/(1+n') <= best_score.
            let gap = best_score - q;
            let needed = if gap > 0.0 {
                explore * edges[k].prior / gap - 1.0
            } else {
                f32::INFINITY
            };
            let reduced = needed.ceil().max(n - forced).min(n).max(0.0);
            visits[k] = if reduced <= 1.0 { 0.0 } else { reduced };
        }
    }

    /// Picks the decision to play from the last [`Search::finish`]: the Gumbel survivor, else
    /// sampled from `visits^(1/T)` (`T = 0`: the most visited, ties to the higher prior).
    ///
    /// Proofs come first: a proven win is always played (the most visited of them), and a
    /// proven loss never while another decision is not proven lost.
    pub fn pick(&mut self, temperature: f32) -> Decision {
        let out = &self.out;
        if let Some(d) = out.gumbel_choice {
            return d;
        }
        if let Some(k) = self.proven_choice() {
            return self.out.legal[k];
        }
        let lost = self.lost_mask();
        let avoid = |k: usize| lost[k];
        let out = &self.out;
        let nd = self.nodes[self.root as usize];
        if temperature <= 1e-3 && self.cfg.lcb.enabled && self.cfg.playing {
            let s = f32::from(nd.sign);
            let children: Vec<refine::ChildStats> = (0..out.legal.len())
                .map(|k| {
                    let child = self.edges[nd.edges as usize + k].child;
                    refine::ChildStats {
                        visits: out.visits[k],
                        q: self.child_q(s, child).unwrap_or(0.0),
                        w2: if child == NONE {
                            0.0
                        } else {
                            self.nodes[child as usize].w2
                        },
                    }
                })
                .collect();
            if let Some(k) = refine::lcb_choice(&self.cfg.lcb, &children, avoid) {
                return out.legal[k];
            }
        }
        if temperature <= 1e-3 || out.legal.len() == 1 {
            let mut best = (0..out.legal.len()).find(|&k| !avoid(k)).unwrap_or(0);
            for k in 0..out.legal.len() {
                if avoid(k) {
                    continue;
                }
                let (a, b) = (out.visits[k], out.visits[best]);
                let (pa, pb) = (
                    self.edges[nd.edges as usize + k].prior,
                    self.edges[nd.edges as usize + best].prior,
                );
                if a > b || (a == b && pa > pb) {
                    best = k;
                }
            }
            return out.legal[best];
        }
        let maxv = out.visits.iter().copied().max().unwrap_or(0).max(1) as f64;
        let inv = 1.0 / f64::from(temperature);
        let weights: Vec<f64> = out
            .visits
            .iter()
            .enumerate()
            .map(|(k, &v)| {
                if avoid(k) {
                    0.0
                } else {
                    (f64::from(v) / maxv).powf(inv)
                }
            })
            .collect();
        let none_left = weights.iter().all(|&w| w <= 0.0);
        let sum: f64 = weights.iter().sum();
        if none_left || sum <= 0.0 {
            let ok: Vec<usize> = (0..out.legal.len()).filter(|&k| !avoid(k)).collect();
            let k = if ok.is_empty() {
                self.rng.random_range(0..out.legal.len())
            } else {
                ok[self.rng.random_range(0..ok.len())]
            };
            return out.legal[k];
        }
        let mut x = self.rng.random_range(0.0..sum);
        for (k, w) in weights.iter().enumerate() {
            if x < *w {
                return out.legal[k];
            }
            x -= w;
        }
        out.legal[out.legal.len() - 1]
    }

    /// For a search whose root is at the start of a turn: the joint distribution over the
    /// turn's first two decisions (Crumble's choose and extent), `target(first) ×
    /// P(second | first)`, where the conditional is the visit distribution of the first
    /// decision's child; with no second decision visited yet, its priors; for an unexpanded
    /// child, uniform over the legal second decisions; a forced second decision gets all of
    /// it. A first decision after which the turn does not go on (the game ends, or the other
    /// player decides) has no pair, so for a game whose turns are single decisions the list is
    /// empty. Pairs with zero mass are left out; the masses sum to the target mass of the
    /// first decisions that have pairs.
    pub fn joint_first_two(&mut self, out: &mut Vec<(Decision, Decision, f32)>) {
        out.clear();
        let Some(root_game) = self.root_game.as_ref() else {
            return;
        };
        if !root_game.at_turn_start() || self.root == NONE {
            return;
        }
        let decider = root_game.decider();
        let nd = self.nodes[self.root as usize];
        let mut probe = root_game.clone();
        let mut legal = Vec::new();
        for k in 0..nd.n_edges as usize {
            let t = self.out.target.get(k).copied().unwrap_or(0.0);
            if t <= 0.0 {
                continue;
            }
            let e = self.edges[nd.edges as usize + k];
            let first = e.decision;
            probe.clone_from(root_game);
            probe.apply_unchecked(first);
            if probe.at_turn_start() || probe.is_over() || probe.decider() != decider {
                continue;
            }
            if e.child != NONE {
                let c = self.nodes[e.child as usize];
                if c.n_forced > 0 {
                    out.push((first, self.forced[c.forced as usize], t));
                    continue;
                }
                if c.state == NodeState::Expanded {
                    let ce = &self.edges[c.edges as usize..(c.edges + c.n_edges) as usize];
                    let visits = |x: &Edge| {
                        if x.child == NONE {
                            0
                        } else {
                            self.nodes[x.child as usize].n
                        }
                    };
                    let n: u32 = ce.iter().map(visits).sum();
                    for x in ce {
                        let w = if n > 0 {
                            visits(x) as f32 / n as f32
                        } else {
                            x.prior
                        };
                        if w > 0.0 {
                            out.push((first, x.decision, t * w));
                        }
                    }
                    continue;
                }
            }
            probe.legal_decisions_into(&mut legal);
            let w = 1.0 / legal.len().max(1) as f32;
            for &x in &legal {
                out.push((first, x, t * w));
            }
        }
    }

    /// The decision `d` was played in the game this tree follows: move the root along it
    /// (tree reuse), or drop the tree when it has no such child.
    pub fn advance(&mut self, d: Decision) {
        self.release_batch();
        if self.root == NONE {
            return;
        }
        if !self.cfg.tree_reuse {
            self.clear();
            return;
        }
        if !self.to_skip.is_empty() {
            if self.to_skip[0] == d {
                self.to_skip.remove(0);
            } else {
                self.clear();
            }
            return;
        }
        let nd = self.nodes[self.root as usize];
        if nd.state != NodeState::Expanded {
            self.clear();
            return;
        }
        let found = self.edges[nd.edges as usize..(nd.edges + nd.n_edges) as usize]
            .iter()
            .find(|e| e.decision == d)
            .map(|e| e.child);
        match found {
            Some(c) if c != NONE && self.nodes[c as usize].state == NodeState::Expanded => {
                let skip: Vec<Decision> = {
                    let cn = self.nodes[c as usize];
                    self.forced[cn.forced as usize..(cn.forced + u32::from(cn.n_forced)) as usize]
                        .to_vec()
                };
                self.compact(c);
                self.to_skip = skip;
            }
            _ => self.clear(),
        }
    }

    /// Keeps only the subtree of `new_root`, which becomes node 0.
    fn compact(&mut self, new_root: u32) {
        let (mut nn, mut ne, mut nf) = std::mem::take(&mut self.spare);
        nn.clear();
        ne.clear();
        nf.clear();
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        nn.push(self.nodes[new_root as usize]);
        nn[0].forced = 0;
        nn[0].n_forced = 0;
        stack.push((new_root, 0));
        while let Some((old, new)) = stack.pop() {
            let on = self.nodes[old as usize];
            if old != new_root {
                nn[new as usize].forced = nf.len() as u32;
                nf.extend_from_slice(
                    &self.forced[on.forced as usize..(on.forced + u32::from(on.n_forced)) as usize],
                );
            }
            if on.state == NodeState::Expanded {
                nn[new as usize].edges = ne.len() as u32;
                for i in on.edges..on.edges + on.n_edges {
                    let mut e = self.edges[i as usize];
                    if e.child != NONE {
                        nn.push(self.nodes[e.child as usize]);
                        let id = (nn.len() - 1) as u32;
                        stack.push((e.child, id));
                        e.child = id;
                    }
                    ne.push(e);
                }
            }
        }
        self.spare = (
            std::mem::replace(&mut self.nodes, nn),
            std::mem::replace(&mut self.edges, ne),
            std::mem::replace(&mut self.forced, nf),
        );
        self.stack = stack;
        self.root = 0;
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

/// Sequential halving schedule (mctx `get_sequence_of_considered_visits`): entry `i` is the
/// visit count (in this search) a root edge must have to receive simulation `i`.
pub fn considered_visits(m: usize, sims: usize) -> Vec<u32> {
    if m <= 1 {
        return (0..sims as u32).collect();
    }
    let log2max = (m as f64).log2().ceil() as usize;
    let mut seq = Vec::with_capacity(sims);
    let mut visits = vec![0u32; m];
    let mut considered = m;
    while seq.len() < sims {
        let extra = (sims / (log2max * considered)).max(1);
        for _ in 0..extra {
            seq.extend_from_slice(&visits[..considered]);
            for v in &mut visits[..considered] {
                *v += 1;
            }
        }
        considered = (considered / 2).max(2);
    }
    seq.truncate(sims);
    seq
}
