//! The book's derived values: minimax of values, bounds and proofs up the graph, and the
//! costs of best-first expansion ([`crate::book`]'s docs say what each means).

use super::{Book, OptionRef, Values};
use crate::driver::OpeningSource;
use crumble_core::{Decision, GameState, Player};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// `+1` for the first player (and a finished game), `−1` for the second: values in the
/// first player's view times this are the mover's.
pub(super) fn sign(p: Option<Player>) -> f32 {
    match p {
        Some(Player::Second) => -1.0,
        _ => 1.0,
    }
}

/// The option with the best value for the mover of sign `s` (the first on a tie).
pub(super) fn best_option(s: f32, options: &[(OptionRef, Values)]) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (k, (_, v)) in options.iter().enumerate() {
        if best.is_none_or(|(_, b)| s * v.value > b) {
            best = Some((k, s * v.value));
        }
    }
    best.map(|b| b.0)
}

impl<G: GameState> Book<G> {
    /// Recomputes the derived parts: minimax values ([`Book::recompute_values`]) and costs.
    pub fn recompute(&mut self) {
        self.recompute_values();
        self.recompute_costs();
    }

    /// The options of node `id` with their values (book moves first, then other moves).
    pub fn options(&self, id: u32) -> Vec<(OptionRef, Values)> {
        let node = &self.nodes[id as usize];
        let mut out: Vec<(OptionRef, Values)> = node
            .edges
            .iter()
            .enumerate()
            .map(|(k, e)| {
                (
                    OptionRef::Edge(k as u32),
                    self.nodes[e.child as usize].values,
                )
            })
            .collect();
        if let Some(o) = &node.other {
            out.push((OptionRef::Other, o.values(self.header.config.error_factor)));
        }
        out
    }

    /// Minimax of values, bounds and proofs from the leaves up (module docs), in post-order
    /// from the root; an edge back into the line being computed (a cycle) counts for nothing.
    pub fn recompute_values(&mut self) {
        let n = self.nodes.len();
        // 0 not seen, 1 on the stack, 2 done.
        let mut mark = vec![0u8; n];
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        mark[0] = 1;
        while let Some(&mut (id, ref mut next)) = stack.last_mut() {
            let edges = &self.nodes[id as usize].edges;
            if *next < edges.len() {
                let child = edges[*next].child;
                *next += 1;
                if mark[child as usize] == 0 {
                    mark[child as usize] = 1;
                    stack.push((child, 0));
                }
                continue;
            }
            stack.pop();
            let values = self.minimax(id, &mark);
            let node = &mut self.nodes[id as usize];
            node.values = values;
            mark[id as usize] = 2;
        }
    }

    /// Node `id`'s values from its options whose children are done (`mark` 2).
    fn minimax(&self, id: u32, mark: &[u8]) -> Values {
        let node = &self.nodes[id as usize];
        if let Some(v) = node.exact {
            return Values::exact(v);
        }
        let s = sign(node.mover());
        let ef = self.header.config.error_factor;
        let mut options: Vec<Values> = node
            .edges
            .iter()
            .filter(|e| mark[e.child as usize] == 2)
            .map(|e| self.nodes[e.child as usize].values)
            .collect();
        // The options cover every move (the other-moves entry stands for all the moves
        // outside the book) unless a cycle left an edge out.
        let complete = options.len() == node.edges.len();
        if let Some(o) = &node.other {
            options.push(o.values(ef));
        }
        if options.is_empty() {
            return Values::UNKNOWN;
        }
        // The mover's best of each quantity (the first player maximises, the second
        // minimises, all in the first player's view).
        let best = |f: &dyn Fn(&Values) -> f32| {
            options
                .iter()
                .map(|v| s * f(v))
                .fold(f32::NEG_INFINITY, f32::max)
                * s
        };
        let win = options
            .iter()
            .any(|v| v.proven.is_some_and(|p| s * f32::from(p) == 1.0));
        let all_proven = complete && options.iter().all(|v| v.proven.is_some());
        if win || all_proven {
            let p = best(&|v| v.proven.map_or(-s, f32::from)) as i8;
            return Values::exact(p);
        }
        // The max of values lies between the max of lowers and the max of uppers (the min
        // likewise): bounds stay monotone.
        Values {
            value: best(&|v| v.value),
            lower: best(&|v| v.lower),
            upper: best(&|v| v.upper),
            proven: None,
        }
    }

    /// Each option's own cost at node `id` (module docs), by [`Book::options`]' order.
    fn option_costs(&self, id: u32) -> Vec<f64> {
        let cfg = &self.header.config;
        let node = &self.nodes[id as usize];
        let s = sign(node.mover());
        let options = self.options(id);
        let optimistic = |v: &Values| if s > 0.0 { v.upper } else { -v.lower };
        let best_upper = options
            .iter()
            .map(|(_, v)| optimistic(v))
            .fold(f32::NEG_INFINITY, f32::max);
        let best = best_option(s, &options);
        options
            .iter()
            .enumerate()
            .map(|(k, (r, v))| {
                let prior = match r {
                    OptionRef::Edge(e) => node.edges[*e as usize].prior,
                    OptionRef::Other => node.other.as_ref().map_or(1.0, |o| o.prior),
                };
                let loss = f64::from((best_upper - optimistic(v)).max(0.0));
                let mut c = f64::from(cfg.cost_per_move)
                    + f64::from(cfg.cost_per_value_loss) * loss
                    + f64::from(cfg.cost_per_log_prior) * -f64::from(prior.max(1e-6)).ln();
                if *r == OptionRef::Other {
                    c += f64::from(cfg.cost_per_move_expanded) * node.edges.len() as f64;
                }
                let width = f64::from(v.upper - v.lower);
                c -= (f64::from(cfg.bonus_per_uncertainty) * width).min(0.75 * c);
                if best == Some(k) {
                    let undecided = 1.0 - f64::from(v.value) * f64::from(v.value);
                    c -= c * (f64::from(cfg.bonus_for_best) * undecided).tanh();
                }
                c.max(0.0)
            })
            .collect()
    }

    /// Costs from the root (Dijkstra over the book's moves; ties by node number), and each
    /// node's cost of adding its other move.
    pub fn recompute_costs(&mut self) {
        for id in 0..self.nodes.len() {
            let costs = self.option_costs(id as u32);
            let node = &mut self.nodes[id];
            let k = node.edges.len();
            node.other_cost = if node.other.is_some() && !node.is_over() {
                costs[k]
            } else {
                f64::INFINITY
            };
            node.edge_costs = costs[..k].to_vec();
            node.cost = f64::INFINITY;
        }
        #[derive(PartialEq)]
        struct Item(f64, u32);
        impl Eq for Item {}
        impl Ord for Item {
            fn cmp(&self, o: &Item) -> Ordering {
                // A min-heap: the least cost first, then the least node number.
                o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
            }
        }
        impl PartialOrd for Item {
            fn partial_cmp(&self, o: &Item) -> Option<Ordering> {
                Some(self.cmp(o))
            }
        }
        let mut heap = BinaryHeap::new();
        self.nodes[0].cost = 0.0;
        heap.push(Item(0.0, 0));
        while let Some(Item(c, id)) = heap.pop() {
            if c > self.nodes[id as usize].cost {
                continue;
            }
            for k in 0..self.nodes[id as usize].edges.len() {
                let child = self.nodes[id as usize].edges[k].child;
                let nc = c + self.nodes[id as usize].edge_costs[k];
                if nc < self.nodes[child as usize].cost {
                    self.nodes[child as usize].cost = nc;
                    heap.push(Item(nc, child));
                }
            }
        }
    }

    /// The (at most) `n` nodes whose other move is cheapest to add, cheapest first (ties by
    /// node number).
    pub fn next_expansions(&self, n: usize) -> Vec<u32> {
        let mut v: Vec<(f64, u32)> = self
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, node)| node.other.is_some() && !node.is_over())
            .map(|(id, node)| (node.cost + node.other_cost, id as u32))
            .filter(|(c, _)| c.is_finite())
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        v.truncate(n);
        v.into_iter().map(|(_, id)| id).collect()
    }

    /// The principal line from the root: the best option again and again while it is a book
    /// move (at most `max` moves), as node numbers after the root.
    pub fn principal_line(&self, max: usize) -> Vec<u32> {
        let mut out = Vec::new();
        let mut id = 0u32;
        while out.len() < max {
            let node = &self.nodes[id as usize];
            let options = self.options(id);
            let best = best_option(sign(node.mover()), &options).map(|k| options[k].0);
            match best {
                Some(OptionRef::Edge(k)) if !node.is_over() => {
                    id = node.edges[k as usize].child;
                    if out.contains(&id) {
                        break;
                    }
                    out.push(id);
                }
                _ => break,
            }
        }
        out
    }

    /// The best move of the position `state` (any orientation of a book position) when it is
    /// a book move, as seen in `state`; `None` when the position is not in the book, the game
    /// is over there, or the best option is a move outside the book.
    pub fn best_move_seen(&self, state: &G) -> Option<Vec<Decision>> {
        let id = self.lookup(state)?;
        let node = &self.nodes[id as usize];
        if node.is_over() {
            return None;
        }
        let options = self.options(id);
        let k = best_option(sign(node.mover()), &options)?;
        let OptionRef::Edge(e) = options[k].0 else {
            return None;
        };
        let u = self.orientation_of(id, state)?;
        node.state.symmetry_turn(u, &node.edges[e as usize].turn)
    }
}

impl<G: GameState> OpeningSource<G> for Book<G> {
    fn turn(&self, state: &G) -> Option<Vec<Decision>> {
        self.best_move_seen(state)
    }
}
