//! Captures and the win (RULES.md 3.1–3.5): which groups reach a side, what a swap step
//! captures, and whether a chain touches all four sides.

use super::*;

impl Crumble {
    /// BFS of the group (touching, same colour) of `seed`. Returns true as soon as it reaches a
    /// side of the board or a piece already known safe under stamp `safe_id`; then every piece
    /// visited is marked safe. Otherwise the whole group is left in `s.group`.
    fn group_reaches_side(&mut self, seed: u32, safe_id: u32) -> bool {
        let b = &self.board;
        let s = &mut self.s;
        let g = b.grid_size();
        let id = s.stamp(b.slot_limit());
        let color = b.color(seed);
        // The seed's last anchor, if it still touches the seed with its colour and a side.
        if let Some(&a) = s.anchor.get(seed as usize)
            && (a as usize) < b.slot_capacity()
            && b.is_live(a)
            && b.color(a) == color
            && b.rect(a).touches_side(g)
            && b.rect(a).touches(b.rect(seed))
        {
            s.safe[seed as usize] = safe_id;
            return true;
        }
        s.group.clear();
        s.stack.clear();
        s.stack.push(seed);
        s.mark[seed as usize] = id;
        let mut found = false;
        while let Some(p) = s.stack.pop() {
            s.group.push(p);
            if b.rect(p).touches_side(g) {
                found = true;
                break;
            }
            // A neighbour on a side (or known safe) settles it before it is even pushed.
            let mut hit_safe = false;
            b.for_each_touching(p, |q| {
                if b.color(q) == color {
                    if b.rect(q).touches_side(g) {
                        if p == seed {
                            if s.anchor.len() <= p as usize {
                                s.anchor.resize(p as usize + 1, NO_SLOT);
                            }
                            s.anchor[p as usize] = q;
                        }
                        hit_safe = true;
                    } else if s.safe[q as usize] == safe_id {
                        hit_safe = true;
                    } else if s.mark[q as usize] != id {
                        s.mark[q as usize] = id;
                        s.stack.push(q);
                    }
                }
            });
            if hit_safe {
                found = true;
                break;
            }
        }
        if found {
            for &p in &s.group {
                s.safe[p as usize] = safe_id;
            }
        }
        found
    }

    /// Captures after a step that flipped `a` and `b`: only groups touching them can have lost
    /// their contact with the sides. Returns whether anything was captured.
    pub(super) fn resolve_after_step(&mut self, a: u32, b: u32) -> bool {
        let safe_id = self.s.stamp(self.board.slot_limit());
        let mut seeds = std::mem::take(&mut self.s.seeds);
        seeds.clear();
        seeds.push(a);
        seeds.push(b);
        self.board.for_each_touching(a, |q| seeds.push(q));
        self.board.for_each_touching(b, |q| seeds.push(q));
        // A surrounded group found is flipped at once, and the groups touching it are looked
        // at again (only they can have changed); any order of flips gives the same result.
        // Groups found safe stay safe: flips only ever grow side-touching groups.
        let mut captured = false;
        let mut i = 0;
        while i < seeds.len() {
            let seed = seeds[i];
            i += 1;
            if self.s.safe[seed as usize] == safe_id || self.group_reaches_side(seed, safe_id) {
                continue;
            }
            captured = true;
            let group = std::mem::take(&mut self.s.group);
            for &p in &group {
                self.board.flip(p);
                self.s.flips.push(p);
            }
            for &p in &group {
                seeds.push(p);
                self.board.for_each_touching(p, |q| seeds.push(q));
            }
            self.s.group = group;
        }
        self.s.seeds = seeds;
        captured
    }

    /// Resolves every surrounded group (rule 3.3) of the current colouring; returns whether
    /// anything was captured. Positions reached by play are always resolved already, so this
    /// is for benchmarks and checks.
    pub fn resolve_captures(&mut self) -> bool {
        self.s.flips.clear();
        self.resolve_all()
    }

    /// The capture rule (3.3) from scratch: while some group touches no side, flip it. All
    /// surrounded groups of a pass flip together; the result is the same in any order.
    pub(crate) fn resolve_all(&mut self) -> bool {
        let mut any = false;
        loop {
            let id = self.s.stamp(self.board.slot_limit());
            self.s.to_flip.clear();
            let g = self.board.grid_size();
            for p in 0..self.board.slot_capacity() as u32 {
                if !self.board.is_live(p) || self.s.mark[p as usize] == id {
                    continue;
                }
                let color = self.board.color(p);
                let b = &self.board;
                let s = &mut self.s;
                s.group.clear();
                s.stack.clear();
                s.stack.push(p);
                s.mark[p as usize] = id;
                let mut side = false;
                while let Some(x) = s.stack.pop() {
                    s.group.push(x);
                    side |= b.rect(x).touches_side(g);
                    b.for_each_touching(x, |q| {
                        if b.color(q) == color && s.mark[q as usize] != id {
                            s.mark[q as usize] = id;
                            s.stack.push(q);
                        }
                    });
                }
                if !side {
                    s.to_flip.extend_from_slice(&s.group);
                }
            }
            if self.s.to_flip.is_empty() {
                return any;
            }
            any = true;
            for i in 0..self.s.to_flip.len() {
                let p = self.s.to_flip[i];
                self.board.flip(p);
                self.s.flips.push(p);
            }
        }
    }

    /// Sides (mask, see [`Rect::side_mask`]) touched by the chain (edge-neighbours, same colour)
    /// of `seed`; stops early once all four are found.
    pub(super) fn chain_sides(&mut self, seed: u32, id: u32) -> u8 {
        let b = &self.board;
        let s = &mut self.s;
        let g = b.grid_size();
        let color = b.color(seed);
        s.stack.clear();
        s.stack.push(seed);
        s.mark[seed as usize] = id;
        let mut mask = 0u8;
        while let Some(p) = s.stack.pop() {
            mask |= b.rect(p).side_mask(g);
            if mask == 15 {
                break;
            }
            b.for_each_edge_neighbour(p, |q| {
                if b.color(q) == color && s.mark[q as usize] != id {
                    s.mark[q as usize] = id;
                    s.stack.push(q);
                }
            });
        }
        mask
    }

    /// Labels the chains for the turn's swaps ([`SwapChains`]), for a search about to try many
    /// splits and joins from here: each child copies the labels instead of making its own.
    /// Only before the turn's first step; nothing otherwise.
    pub(crate) fn label_chains(&mut self) {
        if self.swapper == NO_SLOT && !self.is_over() {
            self.chains.label(&self.board, &mut self.s.stack);
        }
    }

    /// Could the chain of colour `color` through `pieces` touch all four sides after this
    /// step ([`SwapChains::may_win`])? Debug builds check every "no" against the walk.
    pub(super) fn may_win(&mut self, pieces: &[u32], color: Color) -> bool {
        let may = self.chains.may_win(&self.board, pieces, color);
        #[cfg(debug_assertions)]
        if !may {
            let id = self.s.stamp(self.board.slot_limit());
            debug_assert!(
                self.chain_sides(pieces[0], id) != 15,
                "the swap's chains ruled out a four-side chain that is there"
            );
        }
        may
    }

    /// Rule 3.1 over the whole board: a winning chain must contain a piece on the west side.
    pub(crate) fn winner_full(&mut self) -> Option<Color> {
        let id = self.s.stamp(self.board.slot_limit());
        let mut winner = None;
        let mut y = 0;
        while y < self.board.grid_size() {
            let p = self.board.slot_at(0, y);
            y = self.board.rect(p).top();
            if self.s.mark[p as usize] == id {
                continue;
            }
            if self.chain_sides(p, id) == 15 {
                let c = self.board.color(p);
                debug_assert!(
                    winner.is_none_or(|w| w == c),
                    "both players have a four-side chain"
                );
                winner = Some(c);
            }
        }
        winner
    }
}
