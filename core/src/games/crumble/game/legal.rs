//! The legal decisions of each phase of the turn: the splits and joins to choose, their
//! extents, and the swap steps with their loop guard (rule 4.3).

use super::*;

impl Crumble {
    /// The legal decisions, sorted ascending; never empty while the game goes on.
    pub fn legal_decisions(&mut self) -> Vec<Decision> {
        let mut v = Vec::new();
        self.legal_decisions_into(&mut v);
        v
    }

    /// [`Crumble::legal_decisions`] into a caller's buffer (cleared first), without allocating
    /// once the buffer is large enough.
    pub fn legal_decisions_into(&mut self, out: &mut Vec<Decision>) {
        out.clear();
        let g = self.board.grid_size();
        let color = self.to_move;
        match self.state {
            State::Over => {}
            State::Choose => {
                for p in self.board.slots_of(color) {
                    let r = self.board.rect(p);
                    if r.h_midline().is_some() {
                        out.push(Decision::encode(
                            DecisionKind::Split {
                                cut: Cut::H,
                                x: r.x,
                                y: r.y,
                            },
                            g,
                        ));
                    }
                    if r.v_midline().is_some() {
                        out.push(Decision::encode(
                            DecisionKind::Split {
                                cut: Cut::V,
                                x: r.x,
                                y: r.y,
                            },
                            g,
                        ));
                    }
                    let mut join = false;
                    Crumble::joins_from(&self.board, &mut self.s, p, color, |_| {
                        join = true;
                        false
                    });
                    if join {
                        out.push(Decision::encode(DecisionKind::Join { x: r.x, y: r.y }, g));
                    }
                }
                out.sort_unstable();
            }
            State::Extent {
                kind: ChoiceKind::Split(cut),
                start,
            } => {
                let c = self
                    .board
                    .rect(start)
                    .midline(cut)
                    .expect("pending split has a midline");
                let mut q = start;
                loop {
                    let r = self.board.rect(q);
                    out.push(Decision::encode(DecisionKind::End { x: r.x, y: r.y }, g));
                    match Crumble::run_next(&self.board, cut, c, Crumble::run_end(r, cut), color) {
                        Some(n) => q = n,
                        None => break,
                    }
                }
                out.sort_unstable();
            }
            State::Extent {
                kind: ChoiceKind::Join,
                start,
            } => {
                Crumble::joins_from(&self.board, &mut self.s, start, color, |o| {
                    out.push(Decision::encode(
                        DecisionKind::End {
                            x: o.right() - 1,
                            y: o.top() - 1,
                        },
                        g,
                    ));
                    true
                });
                out.sort_unstable();
            }
            State::Swap => {
                // Computed when the swap state was entered; stop is the largest index.
                #[cfg(debug_assertions)]
                {
                    let mut fresh = std::mem::take(&mut self.s.check);
                    fresh.clear();
                    self.push_steps(&mut fresh);
                    fresh.sort_unstable();
                    debug_assert_eq!(fresh, self.steps, "stale cached swap steps");
                    self.s.check = fresh;
                }
                out.extend_from_slice(&self.steps);
                out.push(Decision::stop(g));
            }
        }
    }

    /// The legal swap steps (without stop), unsorted.
    pub(crate) fn push_steps(&mut self, out: &mut Vec<Decision>) {
        let g = self.board.grid_size();
        if self.swapper == NO_SLOT {
            for i in 0..self.fresh.len() {
                let f = self.fresh[i];
                let r = self.board.rect(f);
                for dir in Dir::ALL {
                    // A first step never recreates the state before it: the swapper changes.
                    if self.target(f, dir).is_some() {
                        out.push(Decision::encode(
                            DecisionKind::Step {
                                dir,
                                x: r.x,
                                y: r.y,
                            },
                            g,
                        ));
                    }
                }
            }
        } else {
            let s = self.swapper;
            let r = self.board.rect(s);
            for dir in Dir::ALL {
                if self.guarded_target(s, dir).is_some() {
                    out.push(Decision::encode(
                        DecisionKind::Step {
                            dir,
                            x: r.x,
                            y: r.y,
                        },
                        g,
                    ));
                }
            }
        }
    }

    /// An opponent two-point neighbour of `s` in `dir` (rule 4.3.2), ignoring the loop guard.
    #[inline]
    fn target(&self, s: u32, dir: Dir) -> Option<u32> {
        let t = self.board.two_point_neighbour(s, dir)?;
        (self.board.color(t) != self.to_move).then_some(t)
    }

    /// [`Crumble::target`] that also passes the loop guard (rule 4.3.4).
    fn guarded_target(&mut self, s: u32, dir: Dir) -> Option<u32> {
        let t = self.target(s, dir)?;
        if self.guard.iter().any(|e| e.swapper == t) {
            // Only a state with the same swapper can be recreated: simulate and undo.
            self.s.flips.clear();
            self.flip_step(s, t);
            let repeat = self.guard_contains(t);
            for i in (0..self.s.flips.len()).rev() {
                let p = self.s.flips[i];
                self.board.flip(p);
            }
            if repeat {
                return None;
            }
        }
        Some(t)
    }

    /// Colours of one step: `s` to the opponent, `t` to the mover, then captures.
    pub(super) fn flip_step(&mut self, s: u32, t: u32) -> bool {
        let mover = self.to_move;
        self.board.set_color(s, mover.opposite());
        self.board.set_color(t, mover);
        self.s.flips.push(s);
        self.s.flips.push(t);
        self.resolve_after_step(s, t)
    }

    fn guard_key(&self, swapper: u32) -> u64 {
        self.board.hash() ^ mix64(rect_key(self.board.rect(swapper)) ^ 0x6a09_e667)
    }

    /// The current swap state as the loop guard keys it (colouring after captures and the
    /// swapper's slot), for searches that visit each state of a turn once; `None` before the
    /// first step or outside a swap. Slots are stable within a turn, so within one turn two
    /// states are equal iff their swapper slots and `black_bits` are.
    pub(crate) fn swap_state(&self) -> Option<(u64, u32, &[u64])> {
        (self.state == State::Swap && self.swapper != NO_SLOT).then(|| {
            (
                self.guard_key(self.swapper),
                self.swapper,
                self.board.black_bits(),
            )
        })
    }

    fn guard_contains(&self, swapper: u32) -> bool {
        let key = self.guard_key(swapper);
        let bits = self.board.black_bits();
        self.guard.iter().any(|e| {
            e.swapper == swapper && e.key == key && {
                let o = e.offset as usize;
                &self.guard_bits[o..o + bits.len()] == bits
            }
        })
    }

    pub(super) fn guard_push(&mut self, swapper: u32) {
        let key = self.guard_key(swapper);
        let offset = self.guard_bits.len() as u32;
        self.guard_bits.extend_from_slice(self.board.black_bits());
        self.guard.push(GuardEntry {
            key,
            swapper,
            offset,
        });
    }
}
