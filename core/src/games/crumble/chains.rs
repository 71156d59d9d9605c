//! The chains as they stood when a swap began, to rule out a win after a step without walking
//! the stepped pieces' chains (most of a swap step's work once the board is full).
//!
//! While a swap has captured nothing, its steps only move colour along the path: the mover's
//! pieces are those at the swap's start less the first swapper, plus the current target `t`;
//! the opponent's are theirs at the start less `t`, plus the first swapper. So after a step,
//! `t`'s chain is `t` joined to parts of the start's mover chains that edge-touch `t`, and the
//! swapper's chain lies inside the swapper, the first swapper, and the start's opponent chains
//! that edge-touch those two. The sides those can reach bound the sides the real chains
//! touch: when the bound is not all four, the step cannot have won and the walk is skipped.
//! Splits and joins change no colour, so the start's chains are those of the turn's start
//! with the fresh pieces in them: a search that tries many splits and joins from one turn
//! start labels the chains once there ([`Crumble::label_chains`]) and every child inherits
//! them (a split's halves and a join's piece take the chain of the pieces they replace).
//! Plain play labels nothing (one swap a turn would not repay the labelling: random play
//! ran a fifth slower). After a capture the bound no longer holds, and the engine walks the
//! chains as before until the turn ends.

use crate::game::Color;
use crate::games::crumble::board::{Board, NO_SLOT};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Known {
    /// Not labelled yet in this turn.
    #[default]
    No,
    /// Labelled in this turn before any step, and nothing captured since.
    Yes,
    /// Something was captured in this turn: no bound.
    Stale,
}

/// The chains at the start of the current swap: a chain index per slot and the sides each
/// chain touches.
#[derive(Debug, Default)]
pub(crate) struct SwapChains {
    chain: Vec<u32>,
    sides: Vec<u8>,
    known: Known,
    /// The swap's first swapper.
    origin: u32,
}

impl Clone for SwapChains {
    fn clone(&self) -> SwapChains {
        let mut c = SwapChains::default();
        c.clone_from(self);
        c
    }

    /// Reuses the buffers (search copies games once per simulation).
    fn clone_from(&mut self, src: &SwapChains) {
        self.known = src.known;
        self.origin = src.origin;
        if src.known == Known::Yes {
            self.chain.clone_from(&src.chain);
            self.sides.clone_from(&src.sides);
        }
    }
}

impl SwapChains {
    /// A new turn: nothing known.
    pub(crate) fn reset(&mut self) {
        self.known = Known::No;
        self.origin = NO_SLOT;
    }

    /// At a swap's first step: remembers the first swapper.
    pub(crate) fn begin(&mut self, origin: u32) {
        self.origin = origin;
    }

    /// The chain of the piece in `slot`, before a split or join replaces it (`None` when
    /// nothing is known).
    pub(crate) fn chain_of(&self, slot: u32) -> Option<u32> {
        (self.known == Known::Yes).then(|| self.chain[slot as usize])
    }

    /// A split's half or a join's piece, new in `slot`, is in `chain` (from
    /// [`SwapChains::chain_of`] of a piece it replaces).
    pub(crate) fn inherit(&mut self, slot: u32, chain: Option<u32>) {
        if let Some(c) = chain {
            let i = slot as usize;
            if self.chain.len() <= i {
                self.chain.resize(i + 1, u32::MAX);
            }
            self.chain[i] = c;
        }
    }

    /// Labels the chains of `board` (between a turn's start and its first step), unless
    /// they are known or stale.
    pub(crate) fn label(&mut self, board: &Board, stack: &mut Vec<u32>) {
        if self.known != Known::No {
            return;
        }
        let g = board.grid_size();
        let n = board.slot_capacity();
        self.chain.clear();
        self.chain.resize(n, u32::MAX);
        self.sides.clear();
        for p in 0..n as u32 {
            if !board.is_live(p) || self.chain[p as usize] != u32::MAX {
                continue;
            }
            let id = self.sides.len() as u32;
            let color = board.color(p);
            let mut mask = 0u8;
            stack.clear();
            stack.push(p);
            self.chain[p as usize] = id;
            while let Some(q) = stack.pop() {
                mask |= board.rect(q).side_mask(g);
                board.for_each_edge_neighbour(q, |r| {
                    if self.chain[r as usize] == u32::MAX && board.color(r) == color {
                        self.chain[r as usize] = id;
                        stack.push(r);
                    }
                });
            }
            self.sides.push(mask);
        }
        self.known = Known::Yes;
    }

    /// A capture happened: the bound no longer holds in this turn.
    pub(crate) fn captured(&mut self) {
        self.known = Known::Stale;
    }

    /// After a step with nothing captured in the swap so far: could the chain through the
    /// `pieces` (now of colour `color`: the target, or the swapper and the first swapper)
    /// touch all four sides? `true` when nothing is known.
    pub(crate) fn may_win(&self, board: &Board, pieces: &[u32], color: Color) -> bool {
        if self.known != Known::Yes {
            return true;
        }
        let g = board.grid_size();
        let mut mask = 0u8;
        for &p in pieces {
            if p == NO_SLOT || board.color(p) != color {
                continue;
            }
            mask |= board.rect(p).side_mask(g);
            board.for_each_edge_neighbour(p, |q| {
                if board.color(q) == color && !pieces.contains(&q) {
                    mask |= self.sides[self.chain[q as usize] as usize];
                }
            });
        }
        mask == 15
    }

    /// The swap's first swapper (`NO_SLOT` before its first step).
    pub(crate) fn origin(&self) -> u32 {
        self.origin
    }
}
