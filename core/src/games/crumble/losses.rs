//! The other half of the two-turn lookahead: which of the mover's decisions lose at once.
//!
//! A decision loses at once when every end of the turn it can lead to is lost for the mover
//! right away: the opponent has won, or the opponent, to move at the next turn's start, can
//! win within that turn ([`WinCheck`], exact). Such decisions are proven losses, so a search
//! need not spend simulations on them and never plays one while another is left: that is a
//! defence against a threatened win, found however few moves hold it.
//!
//! [`LossCheck::losing`] answers it for each legal decision of a live state in any phase of
//! a turn, by a depth-first search for a safe end (one that is neither) from the state after
//! the decision. As in [`WinCheck`], each swap state is visited once: the loop guard (RULES.md
//! 4.3.4) forbids only states of the path so far, which the search has seen, so the states
//! it reaches are exactly those a legal path reaches, and a safe end is found whenever one is
//! reachable. The answers are exact; the search stops at the first safe end, and a stop is
//! tried before the steps (it ends the turn at once), so a decision that does not lose costs
//! little. The states seen while a sibling was found losing are losing too (everything they
//! reach was searched), so at a swap state they are not searched again.
//!
//! When the automatic draw (RULES.md 5.2) could fall at this turn's end, whether an end is a
//! draw depends on the path that reaches it, so no answer is given then.

use crate::game::{Color, Decision};
use crate::games::crumble::game::{Crumble, Phase};
use crate::games::crumble::lookahead::{StateSet, WinCheck, grow_to_depth, seat_root};

/// The loss check with its reusable buffers; one per thread.
#[derive(Debug, Default)]
pub struct LossCheck {
    /// `games[d]`: the state at depth `d` of the current path.
    games: Vec<Crumble>,
    bufs: Vec<Vec<Decision>>,
    seen: StateSet,
    win: WinCheck,
    nodes: u64,
    /// The node count at which the current call gives up.
    limit: u64,
}

impl LossCheck {
    pub fn new() -> LossCheck {
        LossCheck::default()
    }

    /// Game states visited so far, the opponent's win checks' included (a measure of work).
    pub fn nodes(&self) -> u64 {
        self.nodes + self.win.nodes()
    }

    /// For each of `legal` (legal decisions of `game`, in any order): does it lose at once?
    /// `None` when the game is over, when the automatic draw could fall at this turn's end,
    /// or when more than `budget` states were visited first (an answer is exact or absent).
    pub fn losing(&mut self, game: &Crumble, legal: &[Decision], budget: u64) -> Option<Vec<bool>> {
        if game.is_over() || !game.draw_candidates().is_empty() {
            return None;
        }
        self.limit = self.nodes().saturating_add(budget);
        let mover = game.to_move();
        let turn = game.turns_played();
        seat_root(&mut self.games, game);
        self.seen.clear();
        // Siblings at a swap state share the tiling, so their seen states carry over.
        let shared = matches!(game.phase(), Phase::Swap);
        let mut out = Vec::with_capacity(legal.len());
        grow_to_depth(&mut self.games, &mut self.bufs, 0);
        for &d in legal {
            let (parent, child) = self.games.split_at_mut(1);
            child[0].clone_from(&parent[0]);
            child[0].apply_unchecked(d);
            if !shared {
                self.seen.clear();
            }
            let safe = self.safe_from(1, turn, mover)?;
            if safe && shared {
                // Only a failed search leaves every state it saw known to lose.
                self.seen.clear();
            }
            out.push(!safe);
        }
        Some(out)
    }

    /// Is an end of the turn safe for `mover`: not lost, and no win at once for the opponent?
    fn safe_end(win: &mut WinCheck, end: &Crumble, mover: Color) -> bool {
        match end.outcome() {
            Some(o) => o.winner != Some(mover.opposite()),
            None => !win.can_win(end),
        }
    }

    /// Can `mover` reach a safe end of the turn from `games[depth]`? `None` when the budget
    /// ran out.
    fn safe_from(&mut self, depth: usize, turn: u32, mover: Color) -> Option<bool> {
        self.nodes += 1;
        if self.nodes() > self.limit {
            return None;
        }
        let game = &self.games[depth];
        if game.is_over() || game.turns_played() != turn {
            return Some(LossCheck::safe_end(&mut self.win, game, mover));
        }
        if let Some((key, swapper, bits)) = game.swap_state()
            && !self.seen.insert(key, u64::from(swapper), bits)
        {
            // Searched already, here or by a sibling found losing: no safe end through it.
            return Some(false);
        }
        grow_to_depth(&mut self.games, &mut self.bufs, depth);
        let mut buf = std::mem::take(&mut self.bufs[depth]);
        self.games[depth].legal_decisions_into(&mut buf);
        let stop = Decision::stop(self.games[depth].grid_size());
        // A stop ends the turn at once: the cheapest way to a safe end, so first.
        if let Some(i) = buf.iter().position(|&d| d == stop) {
            buf[..=i].rotate_right(1);
        }
        // A new split or join: a new tiling, so the seen states of the last one never recur.
        let new_base = matches!(self.games[depth].phase(), Phase::Extent { .. });
        let mut found = Some(false);
        for &d in &buf {
            let (parent, child) = self.games.split_at_mut(depth + 1);
            child[0].clone_from(&parent[depth]);
            child[0].apply_unchecked(d);
            if new_base {
                self.seen.clear();
            }
            match self.safe_from(depth + 1, turn, mover) {
                Some(false) => {}
                other => {
                    found = other;
                    break;
                }
            }
        }
        self.bufs[depth] = buf;
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crumble::ends::TurnEnds;
    use crate::games::crumble::for_random_states;
    use std::ops::ControlFlow;

    /// Every answer, at turn starts and mid-turn, agrees with a walk over all the ends of the
    /// turn: a decision loses exactly when no end after it is safe. States of random games of
    /// two sizes, where threats are common; every legal decision asked at once, so the
    /// states carried over between siblings are checked too.
    #[test]
    fn agrees_with_every_end_of_the_turn() {
        let mut check = LossCheck::new();
        let mut ends = TurnEnds::new();
        let mut win = WinCheck::new();
        let (mut decisions, mut losing, mut mid_turn) = (0, 0, 0);
        let sizes = [(4, 2), (4, 4), (4, 4)];
        for_random_states(0..12, &sizes, 60, true, |seed, g| {
            let legal = g.legal_decisions();
            let Some(got) = check.losing(g, &legal, u64::MAX) else {
                assert!(!g.draw_candidates().is_empty(), "no budget: an answer");
                return;
            };
            let mover = g.to_move();
            let mut safe = |end: &Crumble| match end.outcome() {
                Some(o) => o.winner != Some(mover.opposite()),
                None => !win.can_win(end),
            };
            // Each decision on its own: does any end of the turn after it hold?
            let holds: Vec<bool> = legal
                .iter()
                .map(|&d| {
                    let mut after = g.clone();
                    after.apply_unchecked(d);
                    if after.is_over() || after.turns_played() != g.turns_played() {
                        return safe(&after);
                    }
                    ends.walk(&after, &mut |_, end| {
                        if safe(end) {
                            ControlFlow::Break(())
                        } else {
                            ControlFlow::Continue(())
                        }
                    })
                    .is_break()
                })
                .collect();
            for (i, (&lost, &held)) in got.iter().zip(&holds).enumerate() {
                let turn = g.turns_played();
                assert_eq!(lost, !held, "seed {seed} turn {turn} decision {i}");
            }
            decisions += got.len();
            losing += got.iter().filter(|&&l| l).count();
            mid_turn += usize::from(!g.at_turn_start());
        });
        // Both answers, and mid-turn states, must occur for the test to mean anything.
        assert!(losing >= 500, "{losing} losing of {decisions}");
        assert!(decisions - losing >= 2000, "{losing} losing of {decisions}");
        assert!(mid_turn >= 200, "{mid_turn} mid-turn states");
    }

    #[test]
    fn a_small_budget_gives_no_answer() {
        let g = Crumble::new(6, 8).unwrap();
        let legal = g.clone().legal_decisions();
        assert!(LossCheck::new().losing(&g, &legal, 10).is_none());
        let all = LossCheck::new().losing(&g, &legal, u64::MAX).unwrap();
        assert!(all.iter().all(|&l| !l), "nothing loses at the start");
    }
}
