//! The root of a search: Dirichlet noise and forced playouts (PUCT), or the Gumbel root
//! (Gumbel top-k with sequential halving over the considered visits, completed-Q targets).

use super::*;

impl<G: GameState> Search<G> {
    /// Forced playouts: a root child below `sqrt(k·P·N)` visits is taken first.
    pub(super) fn forced_playout(&self) -> Option<usize> {
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
    pub(super) fn prepare_root(&mut self) {
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
    pub(super) fn completed_q(&mut self) -> u32 {
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

    pub(super) fn gumbel_select(&mut self) -> usize {
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
