//! Applying a decision: the split or join, the swap's steps and what they capture, and the
//! end of the turn with its draws (RULES.md sections 4 and 5).

use super::*;

impl Crumble {
    /// Is `d` legal here?
    pub fn is_legal(&mut self, d: Decision) -> bool {
        let mut buf = std::mem::take(&mut self.s.legal);
        self.legal_decisions_into(&mut buf);
        let ok = buf.binary_search(&d).is_ok();
        self.s.legal = buf;
        ok
    }

    /// Applies a decision known to be legal (search's hot path); legality is only
    /// debug-asserted.
    pub fn apply_unchecked(&mut self, d: Decision) {
        debug_assert!(
            self.is_legal(d),
            "illegal decision {:?}",
            d.decode(self.grid_size())
        );
        let g = self.board.grid_size();
        let kind = d.decode(g).expect("decision in range");
        match (self.state, kind) {
            (State::Choose, DecisionKind::Split { cut, x, y }) => {
                let start = self
                    .board
                    .slot_with_corner(x, y)
                    .expect("piece at split start");
                self.state = State::Extent {
                    kind: ChoiceKind::Split(cut),
                    start,
                };
            }
            (State::Choose, DecisionKind::Join { x, y }) => {
                let start = self
                    .board
                    .slot_with_corner(x, y)
                    .expect("piece at join corner");
                self.state = State::Extent {
                    kind: ChoiceKind::Join,
                    start,
                };
            }
            (
                State::Extent {
                    kind: ChoiceKind::Split(cut),
                    start,
                },
                DecisionKind::End { x, y },
            ) => self.do_split(cut, start, x, y),
            (
                State::Extent {
                    kind: ChoiceKind::Join,
                    start,
                },
                DecisionKind::End { x, y },
            ) => {
                let r = self.board.rect(start);
                let outline = Rect::new(r.x, r.y, x + 1 - r.x, y + 1 - r.y);
                self.turn.region.clear();
                self.turn.region.push(outline);
                let chain = self.chains.chain_of(start);
                let slot = self.board.join(outline, self.to_move);
                self.chains.inherit(slot, chain);
                self.fresh.clear();
                self.fresh.push(slot);
                self.begin_swap();
            }
            (State::Swap, DecisionKind::Step { dir, x, y }) => {
                let s = if self.swapper == NO_SLOT {
                    self.board
                        .slot_with_corner(x, y)
                        .expect("fresh piece at step")
                } else {
                    self.swapper
                };
                self.do_step(s, dir);
            }
            (State::Swap, DecisionKind::Stop) => self.end_turn(),
            (state, kind) => panic!("decision {kind} does not fit state {state:?}"),
        }
    }

    fn do_split(&mut self, cut: Cut, start: u32, ex: u16, ey: u16) {
        let color = self.to_move;
        let c = self.board.rect(start).midline(cut).expect("midline");
        let mut run = std::mem::take(&mut self.s.run);
        run.clear();
        let mut q = start;
        loop {
            run.push(q);
            let r = self.board.rect(q);
            if r.x == ex && r.y == ey {
                break;
            }
            q = Crumble::run_next(&self.board, cut, c, Crumble::run_end(r, cut), color)
                .expect("end lies on the run");
        }
        self.turn.region.clear();
        self.fresh.clear();
        for &p in &run {
            self.turn.region.push(self.board.rect(p));
            let chain = self.chains.chain_of(p);
            let (lo, hi) = self.board.split(p, cut);
            self.chains.inherit(lo, chain);
            self.chains.inherit(hi, chain);
            self.fresh.push(lo);
            self.fresh.push(hi);
        }
        self.s.run = run;
        self.begin_swap();
    }

    fn begin_swap(&mut self) {
        self.state = State::Swap;
        self.swapper = NO_SLOT;
        self.guard.clear();
        self.guard_bits.clear();
        if !self.any_step() {
            self.end_turn();
        }
    }

    /// Computes the legal steps of the swap state just entered into `steps` (sorted), which
    /// stays valid until the next decision; returns whether there is any.
    fn any_step(&mut self) -> bool {
        let mut buf = std::mem::take(&mut self.steps);
        buf.clear();
        self.push_steps(&mut buf);
        buf.sort_unstable();
        let any = !buf.is_empty();
        self.steps = buf;
        any
    }

    /// The legal steps (without stop), sorted; only meaningful in the swap phase.
    #[inline]
    pub(crate) fn swap_steps(&self) -> &[Decision] {
        &self.steps
    }

    fn do_step(&mut self, s: u32, dir: Dir) {
        let t = self
            .board
            .two_point_neighbour(s, dir)
            .expect("target of a legal step");
        if self.swapper == NO_SLOT {
            self.guard_push(s);
            self.chains.begin(s);
        }
        self.s.flips.clear();
        let captured = self.flip_step(s, t);
        self.turn.targets.push(self.board.rect(t));
        let winner = if captured {
            self.chains.captured();
            self.winner_full()
        } else {
            let id = self.s.stamp(self.board.slot_limit());
            let (ct, cs) = (self.board.color(t), self.board.color(s));
            let wt = self.may_win(&[t], ct) && self.chain_sides(t, id) == 15;
            let ws = cs != ct
                && self.may_win(&[s, self.chains.origin()], cs)
                && self.chain_sides(s, id) == 15;
            debug_assert!(!(wt && ws), "both players have a four-side chain");
            if wt {
                Some(self.board.color(t))
            } else if ws {
                Some(self.board.color(s))
            } else {
                None
            }
        };
        if let Some(w) = winner {
            self.outcome = Some(Outcome {
                winner: Some(w),
                reason: Reason::FourSides,
            });
            self.end_turn();
            return;
        }
        if self.board.color(t) != self.to_move {
            self.end_turn(); // the swapper was captured (rule 4.3.3)
            return;
        }
        self.guard_push(t);
        self.swapper = t;
        if !self.any_step() {
            self.end_turn();
        }
    }

    fn end_turn(&mut self) {
        self.chains.reset();
        self.window.push(&self.turn);
        self.turn.clear();
        self.turns_played += 1;
        self.to_move = self.to_move.opposite();
        self.fresh.clear();
        self.swapper = NO_SLOT;
        self.guard.clear();
        self.guard_bits.clear();
        self.state = State::Choose;
        if self.outcome.is_some() {
            self.state = State::Over;
            return;
        }
        let outcome = if self.draw_rule() {
            Some(Outcome::draw(Reason::DrawRule))
        } else if !self.has_split_or_join(self.to_move) {
            Some(Outcome::draw(Reason::NoSplitOrJoin))
        } else if self.max_turns > 0 && self.turns_played >= self.max_turns {
            Some(Outcome::draw(Reason::TurnLimit))
        } else {
            None
        };
        if let Some(o) = outcome {
            self.finish(o);
        }
    }

    /// The swap targets of the turn in progress, in order; at a turn start (or once over),
    /// those of the turn just ended.
    pub(crate) fn turn_targets(&self) -> &[Rect] {
        match self.state {
            State::Choose | State::Over if self.window.len() > 0 => {
                &self.window.get(self.window.len() - 1).targets
            }
            _ => &self.turn.targets,
        }
    }
}
