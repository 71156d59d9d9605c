//! The words of a position besides its stacks (rule 12.1–12.2): the pie state, the kind of
//! the previous turn, and a finished game's result with its reason and scores.

use crate::game::Color;
use crate::game::named::named_enum;

named_enum! {
    /// The pie state of rule 12.1.
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    pub enum Pie {
        /// Turn 1: Black must place.
        First,
        /// Turn 2: the second seat may swap.
        Choice,
        Over,
    }
}

named_enum! {
    /// What the previous turn was, for rules 6.5 and 7.2 (a swap leaves it unchanged).
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    pub enum Previous {
        CompleteMove,
        Pass,
        /// A placement, a partial move, or no turn yet.
        Other,
    }
}

named_enum! {
    /// Why a game ended (rule 12.2).
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    pub enum Reason {
        TwoPasses,
        TurnLimit,
        Resignation,
        Agreement,
    }
}

impl Reason {
    /// Does this reason come with scores (rule 12.2)?
    pub fn is_scored(self) -> bool {
        matches!(self, Reason::TwoPasses | Reason::TurnLimit)
    }
}

/// A finished game's result. Scores are kept in half points (`[black, white]`), so they
/// compare exactly; `None` for resignation and agreement.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: Reason,
    pub score_halves: Option<[u64; 2]>,
}

impl Outcome {
    /// A scored result: the higher score wins, equal scores draw (rule 9.3, 10.1).
    pub fn scored(reason: Reason, halves: [u64; 2]) -> Outcome {
        let winner = match halves[0].cmp(&halves[1]) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        };
        Outcome {
            winner,
            reason,
            score_halves: Some(halves),
        }
    }
    /// A colour's score in points (`6.0`, `3.5`), if the result is scored.
    pub fn score(&self, c: Color) -> Option<f64> {
        self.score_halves.map(|h| h[c as usize] as f64 / 2.0)
    }
}
