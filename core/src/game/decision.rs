//! Decisions: every game's moves as integers of its own fixed action space.
//!
//! A turn is one or more decisions by the same player; each is an index `0 .. action_count()`
//! of the game's action space (the policy head's size). Games give the indices their meaning
//! (Crumble's planes on the fine grid are in `games::crumble::decision`).

/// One atomic decision: an index into the action space of a `G × G` grid.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Decision(pub u32);

impl Decision {
    /// The index in the action space.
    #[inline]
    pub fn index(self) -> u32 {
        self.0
    }
}
