//! The action space: a turn as a sequence of atomic decisions on the fine grid.
//!
//! Every decision is one integer in `0 .. 8·G·G + 1` (`G = N·R`), laid out as eight planes of
//! `G × G` grid cells (absolute frame, cell index `y·G + x`) and one extra index:
//!
//! | plane | decision | cell |
//! | --- | --- | --- |
//! | 0 `SplitH` | choose: a horizontal cut whose first piece (leftmost) is this piece | the piece's lower-left cell |
//! | 1 `SplitV` | choose: a vertical cut whose first piece (lowest) is this piece | the piece's lower-left cell |
//! | 2 `Join` | choose: a join whose outline has its lower-left corner here | the outline's lower-left cell |
//! | 3 `End` | extent: the last piece of the cut, or the join outline's upper-right cell | that cell |
//! | 4–7 `Step N/E/S/W` | swap: step from this piece (a fresh piece for the first step, then the swapper) | the piece's lower-left cell |
//! | `8·G·G` | `Stop`: end the swap and the turn | — |
//!
//! A turn is `choose, extent, step*, [stop]`. The stop is a decision only while a step is
//! still possible: when no legal target is left, the swapper is captured, or a step wins, the
//! turn ends by itself. So every complete move has exactly one decision path.

use super::geom::{Cut, Dir};
use crate::game::Decision;
use std::fmt;

/// A decoded [`Decision`]. Coordinates are grid cells in the absolute frame.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DecisionKind {
    Split { cut: Cut, x: u16, y: u16 },
    Join { x: u16, y: u16 },
    End { x: u16, y: u16 },
    Step { dir: Dir, x: u16, y: u16 },
    Stop,
}

const PLANE_SPLIT_H: u32 = 0;
const PLANE_SPLIT_V: u32 = 1;
const PLANE_JOIN: u32 = 2;
const PLANE_END: u32 = 3;
const PLANE_STEP: u32 = 4;

/// Number of distinct decisions on a grid of `g` units a side: `8·g·g + 1`.
#[inline]
pub const fn action_count(g: u16) -> u32 {
    8 * (g as u32) * (g as u32) + 1
}

impl Decision {
    #[inline]
    pub fn stop(g: u16) -> Decision {
        Decision(8 * u32::from(g) * u32::from(g))
    }

    #[inline]
    fn at(plane: u32, x: u16, y: u16, g: u16) -> Decision {
        let g = u32::from(g);
        Decision(plane * g * g + u32::from(y) * g + u32::from(x))
    }

    #[inline]
    pub fn encode(kind: DecisionKind, g: u16) -> Decision {
        match kind {
            DecisionKind::Split { cut: Cut::H, x, y } => Decision::at(PLANE_SPLIT_H, x, y, g),
            DecisionKind::Split { cut: Cut::V, x, y } => Decision::at(PLANE_SPLIT_V, x, y, g),
            DecisionKind::Join { x, y } => Decision::at(PLANE_JOIN, x, y, g),
            DecisionKind::End { x, y } => Decision::at(PLANE_END, x, y, g),
            DecisionKind::Step { dir, x, y } => {
                Decision::at(PLANE_STEP + dir.index() as u32, x, y, g)
            }
            DecisionKind::Stop => Decision::stop(g),
        }
    }

    /// Decodes an index of the action space of grid size `g`; `None` when out of range.
    #[inline]
    pub fn decode(self, g: u16) -> Option<DecisionKind> {
        let gg = u32::from(g) * u32::from(g);
        if self.0 == 8 * gg {
            return Some(DecisionKind::Stop);
        }
        if self.0 > 8 * gg {
            return None;
        }
        let plane = self.0 / gg;
        let cell = self.0 % gg;
        let x = (cell % u32::from(g)) as u16;
        let y = (cell / u32::from(g)) as u16;
        Some(match plane {
            PLANE_SPLIT_H => DecisionKind::Split { cut: Cut::H, x, y },
            PLANE_SPLIT_V => DecisionKind::Split { cut: Cut::V, x, y },
            PLANE_JOIN => DecisionKind::Join { x, y },
            PLANE_END => DecisionKind::End { x, y },
            p => DecisionKind::Step {
                dir: Dir::ALL[(p - PLANE_STEP) as usize],
                x,
                y,
            },
        })
    }
}

impl fmt::Display for DecisionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DecisionKind::Split { cut, x, y } => {
                write!(f, "split {} at cell ({x}, {y})", cut.letter())
            }
            DecisionKind::Join { x, y } => write!(f, "join from cell ({x}, {y})"),
            DecisionKind::End { x, y } => write!(f, "end at cell ({x}, {y})"),
            DecisionKind::Step { dir, x, y } => {
                write!(f, "step {} from cell ({x}, {y})", dir.letter())
            }
            DecisionKind::Stop => f.write_str("stop"),
        }
    }
}
