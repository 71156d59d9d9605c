//! What a finished search gives: the policy target (visits, pruned visits or completed Q),
//! the value, the decision to play (by visits, temperature or lower confidence bound) and the
//! joint choice of a turn's first two decisions.

use super::*;

impl<G: GameState> Search<G> {
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
}
