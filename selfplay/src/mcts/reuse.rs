//! Tree reuse: the root moves along the decision played and the tree is compacted to what
//! lies under it.

use super::*;

impl<G: GameState> Search<G> {
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
}
