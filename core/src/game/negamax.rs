//! An exact solver for small games: negamax over the whole game tree, memoised by state hash.

use crate::game::Decision;
use crate::game::state::{GameState, Player};
use std::collections::HashMap;
use std::marker::PhantomData;

/// Exact game values of `G` under best play by both players: `1` a win, `0` a draw, `−1` a
/// loss. Turns of several decisions are handled: the sign flips only where the decider
/// changes. Made for games of a few hundred thousand states; it allocates as it goes.
#[derive(Debug)]
pub struct Negamax<G> {
    /// Value of a live state for its decider, by state hash (the contract makes equal hashes
    /// mean equal states).
    memo: HashMap<u64, i8>,
    game: PhantomData<fn() -> G>,
}

impl<G: GameState> Default for Negamax<G> {
    fn default() -> Self {
        Negamax {
            memo: HashMap::new(),
            game: PhantomData,
        }
    }
}

impl<G: GameState> Negamax<G> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Live states solved so far.
    pub fn solved_states(&self) -> usize {
        self.memo.len()
    }

    /// The exact value of `state` for `player`.
    pub fn value_for(&mut self, state: &G, player: Player) -> i8 {
        match state.decider() {
            None => {
                let result = state.game_result().expect("an over game has a result");
                result.value_for(player) as i8
            }
            Some(decider) => {
                let v = self.decider_value(state, decider);
                if decider == player { v } else { -v }
            }
        }
    }

    /// The decisions that keep the decider's exact value (its best ones), ascending, into
    /// `out` (cleared first); empty when the game is over.
    pub fn best_decisions(&mut self, state: &G, out: &mut Vec<Decision>) {
        out.clear();
        let Some(decider) = state.decider() else {
            return;
        };
        let best = self.decider_value(state, decider);
        let mut node = state.clone();
        let mut legal = Vec::new();
        node.legal_decisions_into(&mut legal);
        for d in legal {
            node.clone_from(state);
            node.apply_unchecked(d);
            if self.value_for(&node, decider) == best {
                out.push(d);
            }
        }
    }

    fn decider_value(&mut self, state: &G, decider: Player) -> i8 {
        let key = state.state_hash();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut node = state.clone();
        let mut legal = Vec::new();
        node.legal_decisions_into(&mut legal);
        let mut best = i8::MIN;
        for d in legal {
            node.clone_from(state);
            node.apply_unchecked(d);
            best = best.max(self.value_for(&node, decider));
            if best == 1 {
                break; // nothing beats a win
            }
        }
        self.memo.insert(key, best);
        best
    }
}
