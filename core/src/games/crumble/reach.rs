//! What the mover can reach within one turn: a bound that rules out a win without trying
//! the turn's moves (the exact one-turn check's first question, asked at every turn start
//! of a search and after every reply in the two-turn check).
//!
//! A turn changes colours only by its swap's steps and their captures. Let `M` be the
//! mover's pieces at the turn's start (a split or join changes no colour, so the fresh
//! pieces are in `M`) and `O` the opponent's. After any step, the mover's pieces lie in
//! `M ∪ P ∪ {t}`, where `t` is the step's target and `P` the opponent's **pockets**: the
//! pieces of `O` that some single piece of `O` cuts off from every side (in `O`'s touching
//! graph, the subtrees below an articulation piece in a depth-first search from the sides).
//! By induction over the steps: a piece `q` of `O` outside `P` has a path to a side in `O`
//! that avoids the current target; every other piece of `O` that is the mover's now is in
//! `P` (the induction), and a simple path cannot pass through a pocket (its only way in and
//! out is the one piece that cuts it off, and the path would have to use it twice); so the
//! whole path is still the opponent's and `q` is not captured. Earlier targets are the
//! opponent's again once the swapper moves on, and the opponent's pieces that were the
//! mover's only add paths.
//!
//! So a win needs a chain of `M ∪ P ∪ {t}` touching all four sides for some piece `t` of
//! `O`: a component of `M ∪ P` (by edge-neighbourhood) touching all four, or a piece of `O`
//! whose sides together with those of the components it edge-touches make four. When
//! neither exists, the mover cannot win this turn. The test is a few walks over the board;
//! the exact check it saves visits every swap state of the turn.

use crate::game::Color;
use crate::games::crumble::board::Board;

const NONE: u32 = u32::MAX;

/// The bound's buffers, reused between calls (one per exact check).
#[derive(Debug, Default)]
pub(crate) struct Reach {
    /// By slot: depth-first discovery time (0: not seen), then the component in `M ∪ P`.
    order: Vec<u32>,
    low: Vec<u32>,
    /// Preorder position of each slot and the preorder list itself.
    pre: Vec<u32>,
    preorder: Vec<u32>,
    /// Pockets as ranges of preorder positions (a subtree is the range from its root's
    /// position to the end of the list when the root is left).
    pockets: Vec<(u32, u32)>,
    depth: Vec<i32>,
    in_reach: Vec<bool>,
    /// Touching opponent neighbours of each opponent slot (`adj[start[p]..start[p + 1]]`).
    start: Vec<u32>,
    adj: Vec<u32>,
    stack: Vec<(u32, u32)>,
    comp: Vec<u32>,
    sides: Vec<u8>,
    walk: Vec<u32>,
}

impl Reach {
    /// Could `mover` (to move, at a turn start of a position with every group touching a
    /// side) win within this turn? `false` is exact; `true` means "perhaps".
    pub(crate) fn may_win(&mut self, board: &Board, mover: Color) -> bool {
        self.mark_pockets(board, mover.opposite());
        self.label_components(board);
        if self.sides.contains(&15) {
            return true;
        }
        let g = board.grid_size();
        let (comp, sides) = (&self.comp, &self.sides);
        board.slots_of(mover.opposite()).any(|t| {
            if self.in_reach[t as usize] {
                return false;
            }
            let mut mask = board.rect(t).side_mask(g);
            board.for_each_edge_neighbour(t, |q| {
                let c = comp[q as usize];
                if c != NONE {
                    mask |= sides[c as usize];
                }
            });
            mask == 15
        })
    }

    /// `in_reach[p]`: `p` is the mover's or in one of the opponent's (`opp`'s) pockets.
    fn mark_pockets(&mut self, board: &Board, opp: Color) {
        let n = board.slot_capacity();
        let g = board.grid_size();
        self.in_reach.clear();
        self.in_reach.resize(n, false);
        for p in 0..n as u32 {
            self.in_reach[p as usize] = board.is_live(p) && board.color(p) != opp;
        }
        self.touching_graph(board, opp);
        // Depth-first from a virtual root joined to every piece on a side (time 0). A child
        // `c` of a piece `t` whose subtree reaches nothing earlier than `t` is cut off from
        // the sides by `t` alone: its subtree is a pocket.
        self.order.clear();
        self.order.resize(n, 0);
        self.low.clear();
        self.low.resize(n, 0);
        self.pre.clear();
        self.pre.resize(n, 0);
        self.preorder.clear();
        self.pockets.clear();
        let mut time = 0u32;
        for root in board.slots_of(opp) {
            if self.order[root as usize] != 0 || !board.rect(root).touches_side(g) {
                continue;
            }
            self.enter(root, &mut time, g, board);
            while let Some(&(p, i)) = self.stack.last() {
                let end = self.start[p as usize + 1];
                let at = self.start[p as usize] + i;
                if at < end {
                    self.stack.last_mut().expect("not empty").1 += 1;
                    let q = self.adj[at as usize];
                    if self.order[q as usize] == 0 {
                        self.enter(q, &mut time, g, board);
                    } else {
                        let o = self.order[q as usize];
                        let l = &mut self.low[p as usize];
                        *l = (*l).min(o);
                    }
                    continue;
                }
                self.stack.pop();
                let Some(&(parent, _)) = self.stack.last() else {
                    break;
                };
                let low = self.low[p as usize];
                if low >= self.order[parent as usize] {
                    self.pockets
                        .push((self.pre[p as usize], self.preorder.len() as u32));
                }
                let l = &mut self.low[parent as usize];
                *l = (*l).min(low);
            }
        }
        // Opponent pieces not reached touch no side through the opponent: none at a turn
        // start (every group touches a side), but a pocket if there were.
        for p in board.slots_of(opp) {
            if self.order[p as usize] == 0 {
                self.in_reach[p as usize] = true;
            }
        }
        self.depth.clear();
        self.depth.resize(self.preorder.len() + 1, 0);
        for &(lo, hi) in &self.pockets {
            self.depth[lo as usize] += 1;
            self.depth[hi as usize] -= 1;
        }
        let mut depth = 0;
        for (i, &p) in self.preorder.iter().enumerate() {
            depth += self.depth[i];
            if depth > 0 {
                self.in_reach[p as usize] = true;
            }
        }
    }

    /// The touching graph of `opp`'s pieces, as lists (`adj[start[p]..start[p + 1]]`).
    fn touching_graph(&mut self, board: &Board, opp: Color) {
        let n = board.slot_capacity();
        self.start.clear();
        self.start.resize(n + 1, 0);
        self.adj.clear();
        for p in 0..n as u32 {
            self.start[p as usize] = self.adj.len() as u32;
            if board.is_live(p) && board.color(p) == opp {
                let adj = &mut self.adj;
                board.for_each_touching(p, |q| {
                    if q != p && board.color(q) == opp {
                        adj.push(q);
                    }
                });
            }
        }
        self.start[n] = self.adj.len() as u32;
    }

    fn enter(&mut self, p: u32, time: &mut u32, g: u16, board: &Board) {
        *time += 1;
        self.order[p as usize] = *time;
        // A piece on a side reaches the virtual root.
        self.low[p as usize] = if board.rect(p).touches_side(g) {
            0
        } else {
            *time
        };
        self.pre[p as usize] = self.preorder.len() as u32;
        self.preorder.push(p);
        self.stack.push((p, 0));
    }

    /// Components of the pieces in reach by edge-neighbourhood, with the sides each touches.
    fn label_components(&mut self, board: &Board) {
        let n = board.slot_capacity();
        let g = board.grid_size();
        self.comp.clear();
        self.comp.resize(n, NONE);
        self.sides.clear();
        for p in 0..n as u32 {
            if !self.in_reach[p as usize] || self.comp[p as usize] != NONE {
                continue;
            }
            let id = self.sides.len() as u32;
            let mut mask = 0u8;
            self.walk.clear();
            self.walk.push(p);
            self.comp[p as usize] = id;
            while let Some(q) = self.walk.pop() {
                mask |= board.rect(q).side_mask(g);
                let (comp, walk, in_reach) = (&mut self.comp, &mut self.walk, &self.in_reach);
                board.for_each_edge_neighbour(q, |r| {
                    if in_reach[r as usize] && comp[r as usize] == NONE {
                        comp[r as usize] = id;
                        walk.push(r);
                    }
                });
            }
            self.sides.push(mask);
        }
    }
}

// Tested against the exhaustive solver with the one-turn check that uses it
// (`lookahead.rs`: exact_checks_agree_with_the_solver_on_random_turn_starts).
