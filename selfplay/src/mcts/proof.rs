//! Proven results in the tree (MCTS-solver). A node's proof is its exact value in Black's
//! view; read from a parent it is multiplied by the parent decider's sign, exactly like the
//! backed-up values, so one rule covers both kinds of edges: inside a turn (same decider) a
//! child proven won for its decider proves the parent won, and across a turn's end (the
//! decider changes) a child proven lost for its decider proves the parent won. A node whose
//! children are all proven (every legal decision has a child node) takes the best of them
//! for its decider; a draw is never a win. Forced decisions skipped by an edge change nothing:
//! the child's proof is about the state after them.

use super::{NONE, Search};
use crumble_core::GameState;

/// The `proof` of a node not (yet) proven.
pub(super) const UNPROVEN: i8 = i8::MIN;

impl<G: GameState> Search<G> {
    /// Is `child`, read from a parent whose decider has sign `parent_sign`, proven lost for
    /// that decider?
    #[inline]
    pub(super) fn proven_lost(&self, parent_sign: i8, child: u32) -> bool {
        child != NONE && {
            let p = self.nodes[child as usize].proof;
            p != UNPROVEN && parent_sign * p == -1
        }
    }

    /// After a simulation ended in a proven node (the last of `path`): proves its ancestors as
    /// far as the proof carries.
    pub(super) fn propagate_proof(&mut self) {
        for i in (0..self.path.len().saturating_sub(1)).rev() {
            let (parent, child) = (self.path[i], self.path[i + 1]);
            if self.nodes[parent as usize].proof != UNPROVEN {
                break; // proven before: nothing above changes
            }
            let cp = self.nodes[child as usize].proof;
            if cp == UNPROVEN {
                break;
            }
            match self.proof_from_children(parent, cp) {
                Some(p) => self.nodes[parent as usize].proof = p,
                None => break,
            }
        }
    }

    /// The proof of `node` given that one of its children was just proven `child_proof`, or
    /// `None` when it is not proven yet.
    fn proof_from_children(&self, node: u32, child_proof: i8) -> Option<i8> {
        let nd = self.nodes[node as usize];
        let s = nd.sign;
        if s * child_proof == 1 {
            return Some(s);
        }
        let mut best = -1i8;
        for e in &self.edges[nd.edges as usize..(nd.edges + nd.n_edges) as usize] {
            if e.child == NONE {
                return None;
            }
            let p = self.nodes[e.child as usize].proof;
            if p == UNPROVEN {
                return None;
            }
            best = best.max(s * p);
        }
        (nd.n_edges > 0).then_some(s * best)
    }

    /// The lookahead on a node's configured visit (`lookahead = N`, N ≥ 2): the simulation
    /// game holds `node`'s state. A node that begins a turn whose decider can win at once
    /// becomes a proven win; any node is looked at once.
    pub(super) fn check_on_visit(&mut self, node: u32) {
        let nd = &mut self.nodes[node as usize];
        nd.checked = true;
        if nd.proof != UNPROVEN {
            return;
        }
        let sim = self.sim.as_mut().expect("a simulation is running");
        if sim.at_turn_start() && sim.win_this_turn(&mut self.check).is_some() {
            self.nodes[node as usize].proof = super::sign_of(sim.decider());
        }
    }

    /// Is `node` proven won for its decider by the lookahead alone, with no child proven won
    /// (a turn-start node checked in the tree, or a root's planted child that became the root)?
    pub(super) fn won_without_proving_child(&self, node: u32) -> bool {
        let nd = self.nodes[node as usize];
        nd.proof != UNPROVEN
            && nd.sign * nd.proof == 1
            && self.edges[nd.edges as usize..(nd.edges + nd.n_edges) as usize]
                .iter()
                .all(|e| !(e.child != NONE && self.nodes[e.child as usize].proof == nd.proof))
    }

    /// With `lookahead` on or a `forcing_budget`, once per search: if the root's decider can
    /// win within the current turn (or force a win by their next turn), proves the first
    /// decision of a winning path (creating its child if needed) and so the root. A root
    /// already proven won without a proving child gets one the same way, so the decision
    /// played and the policy target follow the win. The simulation game must
    /// hold the root's state; returns whether it planted
    /// (the simulation game is then changed).
    pub(super) fn plant_root_win(&mut self) -> bool {
        let root = self.root;
        let nd = self.nodes[root as usize];
        if nd.n_edges == 0 || (nd.proof != UNPROVEN && !self.won_without_proving_child(root)) {
            return false;
        }
        let sim = self.sim.as_mut().expect("a simulation is running");
        let win = if self.cfg.lookahead.is_on() {
            sim.win_this_turn(&mut self.check)
                .and_then(|p| p.first().copied())
        } else {
            None
        };
        let Some(first) = win.or_else(|| self.forcing_first()) else {
            return false;
        };
        let sim = self.sim.as_mut().expect("a simulation is running");
        let range = nd.edges as usize..(nd.edges + nd.n_edges) as usize;
        let Some(i) = range.clone().find(|&i| self.edges[i].decision == first) else {
            debug_assert!(false, "a winning decision is legal");
            return false;
        };
        let mut c = self.edges[i].child;
        if c == NONE {
            sim.apply_unchecked(first);
            c = self.new_node();
            self.edges[i].child = c;
        }
        // The rest of the path wins (within the turn, or on the next turn whatever the reply):
        // the child is won for the root's decider, whoever decides there.
        let cn = &mut self.nodes[c as usize];
        if cn.proof == UNPROVEN {
            cn.proof = nd.sign;
        }
        debug_assert_eq!(cn.proof, nd.sign, "a planted win is a win");
        self.nodes[root as usize].proof = nd.sign;
        true
    }

    /// With `loss_check` and a `forcing_budget`, once per search: the root's decisions that
    /// lose at once (the game's [`GameState::losing_decisions`]) become proven losses,
    /// creating their children where needed, so no simulation is spent on them and none is played while another is
    /// left: a defence is found however few decisions hold. Nothing is marked when every
    /// decision loses (the root is lost whatever is played). The simulation game must hold
    /// the root's state; returns whether it marked any (the simulation game is then changed).
    pub(super) fn mark_root_losses(&mut self) -> bool {
        let root = self.root;
        let nd = self.nodes[root as usize];
        if !self.cfg.loss_check
            || self.cfg.forcing_budget == 0
            || nd.n_edges < 2
            || nd.proof != UNPROVEN
        {
            return false;
        }
        let range = nd.edges as usize..(nd.edges + nd.n_edges) as usize;
        self.legal.clear();
        self.legal
            .extend(self.edges[range.clone()].iter().map(|e| e.decision));
        let sim = self.sim.as_ref().expect("a simulation is running");
        let Some(lost) =
            sim.losing_decisions(&mut self.forcing, self.cfg.forcing_budget, &self.legal)
        else {
            return false;
        };
        if lost.iter().all(|&l| l) || !lost.iter().any(|&l| l) {
            return false;
        }
        for (i, &l) in range.zip(&lost) {
            if !l {
                continue;
            }
            let mut c = self.edges[i].child;
            if c == NONE {
                self.sim_at_root();
                let sim = self.sim.as_mut().expect("set above");
                sim.apply_unchecked(self.edges[i].decision);
                c = self.new_node();
                self.edges[i].child = c;
            }
            let cn = &mut self.nodes[c as usize];
            if cn.proof == UNPROVEN {
                cn.proof = -nd.sign;
            }
            debug_assert_eq!(
                cn.proof, -nd.sign,
                "a losing decision is not proven otherwise"
            );
        }
        true
    }

    /// Does the search plant proven wins at its root (the one-turn or the two-turn lookahead)?
    pub(super) fn plants_root_wins(&self) -> bool {
        self.cfg.lookahead.is_on() || self.cfg.forcing_budget > 0
    }

    /// The first decision of a rest of the root's turn that forces a win by the decider's next
    /// turn: the plan's, when the root's state is on it; else, at a turn start and with a
    /// `forcing_budget`, the game's two-turn lookahead's, which becomes the plan. The
    /// simulation game holds the root's state and is left unchanged.
    fn forcing_first(&mut self) -> Option<crumble_core::Decision> {
        let sim = self.sim.as_ref().expect("a simulation is running");
        let hash = sim.state_hash();
        if let Some(&(_, d)) = self.plan.iter().find(|&&(h, _)| h == hash) {
            return Some(d);
        }
        if self.cfg.forcing_budget == 0 || !sim.at_turn_start() {
            return None;
        }
        let path = sim.forcing_turn(&mut self.forcing, self.cfg.forcing_budget)?;
        self.plan.clear();
        let mut g = sim.clone();
        for &d in &path {
            self.plan.push((g.state_hash(), d));
            g.apply_unchecked(d);
        }
        path.first().copied()
    }

    /// Index (among the root's edges) of a decision proven won for the root's decider, the
    /// most visited of them (ties to the higher prior); `None` if there is none.
    pub(super) fn proven_choice(&self) -> Option<usize> {
        let nd = self.nodes[self.root as usize];
        let edges = &self.edges[nd.edges as usize..(nd.edges + nd.n_edges) as usize];
        let mut best: Option<(usize, u32, f32)> = None;
        for (k, e) in edges.iter().enumerate() {
            if e.child == NONE {
                continue;
            }
            let c = self.nodes[e.child as usize];
            if c.proof == UNPROVEN || nd.sign * c.proof != 1 {
                continue;
            }
            if best.is_none_or(|(_, n, p)| c.n > n || (c.n == n && e.prior > p)) {
                best = Some((k, c.n, e.prior));
            }
        }
        best.map(|b| b.0)
    }

    /// The proof of each root decision's child from the root decider's view (+1 won, 0 drawn,
    /// -1 lost, `None` unproven or not yet created), in the order of the root's (sorted) legal
    /// decisions; empty before the root is expanded. For tests and diagnostics.
    pub fn root_proofs(&self) -> Vec<Option<f32>> {
        if self.root == NONE {
            return Vec::new();
        }
        let nd = self.nodes[self.root as usize];
        self.edges[nd.edges as usize..(nd.edges + nd.n_edges) as usize]
            .iter()
            .map(|e| {
                (e.child != NONE && self.nodes[e.child as usize].proof != UNPROVEN)
                    .then(|| f32::from(nd.sign * self.nodes[e.child as usize].proof))
            })
            .collect()
    }

    /// Which root decisions to avoid: the proven losses, unless every decision is one.
    pub(super) fn lost_mask(&self) -> Vec<bool> {
        let nd = self.nodes[self.root as usize];
        let edges = &self.edges[nd.edges as usize..(nd.edges + nd.n_edges) as usize];
        let mut mask: Vec<bool> = edges
            .iter()
            .map(|e| self.proven_lost(nd.sign, e.child))
            .collect();
        if mask.iter().all(|&m| m) {
            mask.fill(false);
        }
        mask
    }

    /// The proofs' say in the output of [`Search::finish`]: Gumbel's choice becomes a proven
    /// win when there is one (and never stays a proven loss with another choice left), and a
    /// root proven won or drawn gets the target uniform over the decisions that achieve it.
    pub(super) fn apply_proofs_to_output(&mut self) {
        let nd = self.nodes[self.root as usize];
        let base = nd.edges as usize;
        if self.out.gumbel_choice.is_some() {
            let k = self.proven_choice().or_else(|| {
                let lost = self.lost_mask();
                let chosen = self
                    .out
                    .legal
                    .iter()
                    .position(|&d| Some(d) == self.out.gumbel_choice)?;
                if !lost[chosen] {
                    return None;
                }
                // The most visited decision not proven lost, ties to the higher prior.
                (0..lost.len()).filter(|&k| !lost[k]).max_by(|&a, &b| {
                    (self.out.visits[a], self.edges[base + a].prior)
                        .partial_cmp(&(self.out.visits[b], self.edges[base + b].prior))
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
            });
            if let Some(k) = k {
                self.out.gumbel_choice = Some(self.out.legal[k]);
            }
        }
        if nd.proof == UNPROVEN || nd.sign * nd.proof == -1 {
            return;
        }
        let want = nd.sign * nd.proof;
        let out = &mut self.out;
        out.target.clear();
        let mut count = 0usize;
        for i in base..base + nd.n_edges as usize {
            let c = self.edges[i].child;
            let hit = c != NONE && {
                let p = self.nodes[c as usize].proof;
                p != UNPROVEN && nd.sign * p == want
            };
            out.target.push(if hit { 1.0 } else { 0.0 });
            count += usize::from(hit);
        }
        debug_assert!(count > 0, "a proven root has a proving child");
        if count == 0 {
            let p = 1.0 / out.target.len().max(1) as f32;
            out.target.fill(p);
        } else {
            for t in &mut out.target {
                *t /= count as f32;
            }
        }
    }
}
