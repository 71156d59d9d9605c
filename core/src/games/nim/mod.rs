//! Nim with turns of two decisions: choose a heap, then how many objects to take from it
//! (at least one). Whoever takes the last object wins (normal play); a player with nothing to
//! take has lost. The first player wins exactly when the heaps' XOR is not zero.
//!
//! It is here for its turns: like Crumble's, a turn is several decisions by one player, so
//! generic code that treats every decision as a turn fails on it.
//!
//! The action space of a start with `H` heaps, the largest `M`: `i` chooses heap `i`
//! (`0 .. H`), `H + k − 1` takes `k` (`1 ..= M`). Random play chooses a non-empty heap
//! uniformly, then a count uniformly.

pub mod text;

use crate::game::Decision;
use crate::game::hash::mix64;
use crate::game::progress::{Progress, progress_methods};
use crate::game::state::{DecisionLog, GameResult, GameState, Player};
use rand::Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Most heaps a start may have.
pub const MAX_HEAPS: usize = 8;
/// Most objects a heap may start with.
pub const MAX_HEAP: u8 = 15;

/// A game of Nim in progress.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Nim {
    heaps: [u8; MAX_HEAPS],
    heap_count: u8,
    /// The largest heap of the start: the action space's take decisions.
    max_take: u8,
    /// The heap chosen this turn, before the count is.
    chosen: Option<u8>,
    progress: Progress,
}

/// Where a Nim game starts: the heap sizes, the first player to move.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NimStart {
    pub heaps: Vec<u8>,
    /// The second player moves first from here (a start taken from a game in progress).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub second_to_move: bool,
    /// The largest take of the action space (0: the largest heap), so that a start taken from
    /// a game in progress keeps that game's action space.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub max_take: u8,
}

fn is_zero(x: &u8) -> bool {
    *x == 0
}

impl Default for NimStart {
    fn default() -> Self {
        NimStart {
            heaps: vec![1, 3, 5],
            second_to_move: false,
            max_take: 0,
        }
    }
}

/// Why a [`NimStart`] cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NimStartError {
    #[error("{0} heaps; a start has 1 to {MAX_HEAPS}")]
    HeapCount(usize),
    #[error("heap {index} holds {size}; at most {MAX_HEAP}")]
    HeapSize { index: usize, size: u8 },
    #[error("max_take {max_take} is below the largest heap, {largest}")]
    MaxTake { max_take: u8, largest: u8 },
}

impl Nim {
    /// The heap sizes.
    pub fn heaps(&self) -> &[u8] {
        &self.heaps[..usize::from(self.heap_count)]
    }

    /// The heap chosen this turn, while its count is awaited.
    pub fn chosen_heap(&self) -> Option<usize> {
        self.chosen.map(usize::from)
    }

    /// The largest take of the action space (the start's largest heap, or its `max_take`).
    pub fn max_take(&self) -> usize {
        usize::from(self.max_take)
    }

    fn take_offset(&self) -> u32 {
        u32::from(self.heap_count)
    }

    fn is_legal(&self, d: Decision) -> bool {
        if self.progress.result.is_some() {
            return false;
        }
        match self.chosen {
            None => d.0 < self.take_offset() && self.heaps[d.0 as usize] > 0,
            Some(h) => {
                d.0.checked_sub(self.take_offset())
                    .is_some_and(|k| k < u32::from(self.heaps[usize::from(h)]))
            }
        }
    }
}

impl GameState for Nim {
    const NAME: &'static str = "nim";
    type Start = NimStart;
    type StartError = NimStartError;

    fn from_start(start: &NimStart) -> Result<Nim, NimStartError> {
        let n = start.heaps.len();
        if n == 0 || n > MAX_HEAPS {
            return Err(NimStartError::HeapCount(n));
        }
        let mut heaps = [0; MAX_HEAPS];
        for (index, (&size, heap)) in start.heaps.iter().zip(&mut heaps).enumerate() {
            if size > MAX_HEAP {
                return Err(NimStartError::HeapSize { index, size });
            }
            *heap = size;
        }
        let empty = heaps.iter().all(|&h| h == 0);
        let largest = heaps.iter().copied().max().unwrap_or(0).max(1);
        if start.max_take != 0 && start.max_take < largest {
            return Err(NimStartError::MaxTake {
                max_take: start.max_take,
                largest,
            });
        }
        let to_move = if start.second_to_move {
            Player::Second
        } else {
            Player::First
        };
        Ok(Nim {
            heaps,
            heap_count: n as u8,
            max_take: if start.max_take == 0 {
                largest
            } else {
                start.max_take.min(MAX_HEAP)
            },
            chosen: None,
            // Nothing to take: the player to move has lost.
            progress: Progress::new(
                to_move,
                empty.then_some(GameResult::Win(to_move.opponent())),
            ),
        })
    }

    fn to_start(&self) -> NimStart {
        NimStart {
            heaps: self.heaps().to_vec(),
            second_to_move: self.progress.to_move == Player::Second,
            max_take: self.max_take,
        }
    }

    type WinCheck = ();
    type ForcingCheck = ();

    #[inline]
    fn action_count(&self) -> u32 {
        self.take_offset() + u32::from(self.max_take)
    }

    // Who moves, the result, the turn clock.
    progress_methods!();

    fn legal_decisions_into(&mut self, out: &mut Vec<Decision>) {
        out.clear();
        if self.progress.result.is_some() {
            return;
        }
        match self.chosen {
            None => out.extend(
                (0..self.take_offset())
                    .filter(|&i| self.heaps[i as usize] > 0)
                    .map(Decision),
            ),
            Some(h) => {
                let offset = self.take_offset();
                out.extend(
                    (0..u32::from(self.heaps[usize::from(h)])).map(|k| Decision(offset + k)),
                );
            }
        }
    }

    fn refusal(&mut self, decision: Decision) -> Option<String> {
        (!self.is_legal(decision)).then(|| match self.chosen {
            None => format!("{} does not choose a non-empty heap", decision.0),
            Some(h) => format!("{} does not take from heap {h}", decision.0),
        })
    }

    fn apply_unchecked(&mut self, decision: Decision) {
        debug_assert!(self.is_legal(decision), "illegal {decision:?}");
        let Some(h) = self.chosen else {
            self.chosen = Some(decision.0 as u8);
            return;
        };
        let take = decision.0 - self.take_offset() + 1;
        self.heaps[usize::from(h)] -= take as u8;
        self.chosen = None;
        // Taking the last object wins.
        let won = self.heaps.iter().all(|&x| x == 0);
        let mover = self.progress.to_move;
        self.progress
            .end_turn(won.then_some(GameResult::Win(mover)));
    }

    fn state_hash(&self) -> u64 {
        // Heaps are 4 bits each (at most 15) in the low 32 bits.
        let heaps = self.heaps.iter().fold(0u64, |h, &x| h << 4 | u64::from(x));
        let chosen = self.chosen.map_or(0, |h| u64::from(h) + 1);
        let result = match self.progress.result {
            None => 0u64,
            Some(GameResult::Draw) => 1,
            Some(GameResult::Win(p)) => 2 + p.index() as u64,
        };
        let key = heaps
            | chosen << 32
            | (self.progress.to_move.index() as u64) << 36
            | result << 37
            | u64::from(self.heap_count) << 40
            | u64::from(self.max_take) << 48;
        let turns = self.progress.turns;
        mix64(key) ^ mix64(u64::from(turns.played) << 32 | u64::from(turns.limit))
    }

    #[inline]
    fn at_turn_start(&self) -> bool {
        self.progress.result.is_none() && self.chosen.is_none()
    }

    /// Uniformly among the non-empty heaps, then uniformly among the amounts to take.
    fn random_turn<R: Rng + ?Sized>(&mut self, rng: &mut R, mut log: DecisionLog) -> u32 {
        if self.progress.result.is_some() {
            return 0;
        }
        let mut decisions = 0;
        if self.chosen.is_none() {
            let live = self.heaps().iter().filter(|&&h| h > 0).count();
            let k = rng.random_range(0..live);
            let heap = (0..self.heaps().len())
                .filter(|&i| self.heaps[i] > 0)
                .nth(k)
                .expect("k counts non-empty heaps");
            let d = Decision(heap as u32);
            self.apply_unchecked(d);
            if let Some(p) = log.as_deref_mut() {
                p.push(d);
            }
            decisions += 1;
        }
        let heap = usize::from(self.chosen.expect("a heap is chosen"));
        let take = rng.random_range(1..=u32::from(self.heaps[heap]));
        let d = Decision(self.take_offset() + take - 1);
        self.apply_unchecked(d);
        if let Some(p) = log {
            p.push(d);
        }
        decisions + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::DecisionError;
    use crate::game::negamax::Negamax;

    fn nim(heaps: &[u8]) -> Nim {
        Nim::from_start(&NimStart {
            heaps: heaps.to_vec(),
            ..NimStart::default()
        })
        .unwrap()
    }

    #[test]
    fn a_turn_is_a_heap_then_a_count() {
        let mut g = nim(&[1, 3]);
        assert_eq!(g.action_count(), 2 + 3);
        assert_eq!(
            g.apply(Decision(2)).unwrap_err(),
            DecisionError::Illegal("2 does not choose a non-empty heap".into())
        );
        g.apply(Decision(1)).unwrap(); // heap 1
        assert!(!g.at_turn_start());
        assert_eq!(g.decider(), Some(Player::First));
        let mut legal = Vec::new();
        g.legal_decisions_into(&mut legal);
        assert_eq!(legal, [Decision(2), Decision(3), Decision(4)]);
        g.apply(Decision(4)).unwrap(); // take 3
        assert_eq!(
            (g.heaps(), g.decider()),
            (&[1, 0][..], Some(Player::Second))
        );
        g.apply(Decision(0)).unwrap();
        g.apply(Decision(2)).unwrap();
        assert_eq!(g.game_result(), Some(GameResult::Win(Player::Second)));
    }

    #[test]
    fn bad_starts_are_refused() {
        let refuse = |heaps: Vec<u8>| {
            Nim::from_start(&NimStart {
                heaps,
                ..NimStart::default()
            })
            .unwrap_err()
        };
        assert_eq!(refuse(vec![]), NimStartError::HeapCount(0));
        assert_eq!(refuse(vec![1; 9]), NimStartError::HeapCount(9));
        assert_eq!(
            refuse(vec![1, 16]),
            NimStartError::HeapSize { index: 1, size: 16 }
        );
    }

    #[test]
    fn solver_agrees_with_the_xor_rule() {
        for a in 0..=4u8 {
            for b in 0..=3u8 {
                for c in 0..=2u8 {
                    let g = nim(&[a, b, c]);
                    let expected = if a ^ b ^ c != 0 { 1 } else { -1 };
                    let mut solver = Negamax::new();
                    assert_eq!(
                        solver.value_for(&g, Player::First),
                        expected,
                        "heaps {a} {b} {c}"
                    );
                }
            }
        }
        // The winning first decisions of 1, 3, 5 (XOR 7): only heap 2 (take 3 leaves 1, 3, 2).
        let mut solver = Negamax::new();
        let mut best = Vec::new();
        solver.best_decisions(&nim(&[1, 3, 5]), &mut best);
        assert_eq!(best, [Decision(2)]);
    }
}
