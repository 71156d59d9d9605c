//! Scoring (rule 9): controlled points, captures and the half point.

use super::board::{Point, stack_of};
use super::game::Crumo;
use crate::game::Color;

impl Crumo {
    /// The colour controlling a point (rule 9.1): a stack's colour, or for an empty point
    /// the only colour that could place a stack there; `None` for nobody.
    pub fn controller(&self, p: Point) -> Option<Color> {
        if let Some(s) = stack_of(self.cells[usize::from(p)]) {
            return Some(s.color);
        }
        match (
            self.could_place(Color::Black, p),
            self.could_place(Color::White, p),
        ) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        }
    }

    /// `[black, white]`: the points each colour controls (rule 9.1).
    pub fn controlled_points(&self) -> [u64; 2] {
        let mut counts = [0u64; 2];
        for p in 0..self.points() as Point {
            if let Some(c) = self.controller(p) {
                counts[c as usize] += 1;
            }
        }
        counts
    }

    /// `[black, white]` scores of rule 9.2 in half points: controlled points plus captures,
    /// plus the half point for `half_for` (the first of two final passers).
    pub fn score_halves(&self, half_for: Option<Color>) -> [u64; 2] {
        let points = self.controlled_points();
        let mut halves = [0u64; 2];
        for c in Color::BOTH {
            let i = c as usize;
            halves[i] = 2 * (points[i] + self.captures[i]) + u64::from(half_for == Some(c));
        }
        halves
    }
}
