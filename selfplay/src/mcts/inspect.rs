//! Reading a search tree while it grows, for analysis displays: the distinct rests of the
//! root's turn the search has tried (its candidate moves) and its principal variation.
//! Read-only: the tree may be inspected between [`Search::run`] and [`Search::provide`]
//! calls, so a display can follow a search that is still running.

use super::{NONE, Search};
use crumble_core::{Decision, GameState};

/// One rest of the root's turn the search has visited.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The decisions from the root, forced ones included, to the end of the turn (or to the
    /// deepest visited node when `complete` is false).
    pub decisions: Vec<Decision>,
    /// Visits of the line's last node.
    pub visits: u32,
    /// Mean value of the line's last node from the root decider's view (−1 to +1).
    pub value: f32,
    /// The product of the priors along the line.
    pub prior: f32,
    /// Does the line end the turn (or the game)?
    pub complete: bool,
}

impl<G: GameState> Search<G> {
    /// The rests of the root's turn the search has visited, most visited first, at most
    /// `max` of them; empty before the first [`Search::begin`].
    pub fn candidate_lines(&self, max: usize) -> Vec<Line> {
        let (Some(game), true) = (self.root_game.as_ref(), self.root != NONE) else {
            return Vec::new();
        };
        let sign = f32::from(self.nodes[self.root as usize].sign);
        let mut out = Vec::new();
        // Depth-first over the visited edges inside the turn: (node, game, path, prior).
        let mut stack = vec![(self.root, game.clone(), Vec::new(), 1.0f32)];
        while let Some((node, g, path, prior)) = stack.pop() {
            let nd = self.nodes[node as usize];
            for e in &self.edges[nd.edges as usize..(nd.edges + nd.n_edges) as usize] {
                if e.child == NONE || self.nodes[e.child as usize].n == 0 {
                    continue;
                }
                let ch = self.nodes[e.child as usize];
                let mut g = g.clone();
                let mut path = path.clone();
                if g.apply(e.decision).is_err() {
                    continue;
                }
                path.push(e.decision);
                for &f in
                    &self.forced[ch.forced as usize..(ch.forced + u32::from(ch.n_forced)) as usize]
                {
                    if g.apply(f).is_err() {
                        break;
                    }
                    path.push(f);
                }
                let p = prior * e.prior;
                let complete = g.is_over() || g.at_turn_start();
                let has_visited_child = self.edges
                    [ch.edges as usize..(ch.edges + ch.n_edges) as usize]
                    .iter()
                    .any(|c| c.child != NONE && self.nodes[c.child as usize].n > 0);
                if complete || !has_visited_child {
                    out.push(Line {
                        decisions: path,
                        visits: ch.n,
                        value: sign * (ch.w / f64::from(ch.n)) as f32,
                        prior: p,
                        complete,
                    });
                } else {
                    stack.push((e.child, g, path, p));
                }
            }
        }
        out.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.prior.total_cmp(&a.prior)));
        out.truncate(max);
        out
    }

    /// The principal variation: from the root, the most visited child again and again (forced
    /// decisions included), at most `max` decisions.
    pub fn principal_variation(&self, max: usize) -> Vec<Decision> {
        let mut out = Vec::new();
        if self.root == NONE {
            return out;
        }
        let mut node = self.root;
        while out.len() < max {
            let nd = self.nodes[node as usize];
            let best = self.edges[nd.edges as usize..(nd.edges + nd.n_edges) as usize]
                .iter()
                .filter(|e| e.child != NONE && self.nodes[e.child as usize].n > 0)
                .max_by_key(|e| self.nodes[e.child as usize].n);
            let Some(e) = best else { break };
            out.push(e.decision);
            let ch = self.nodes[e.child as usize];
            out.extend_from_slice(
                &self.forced[ch.forced as usize..(ch.forced + u32::from(ch.n_forced)) as usize],
            );
            node = e.child;
        }
        out.truncate(max);
        out
    }
}
