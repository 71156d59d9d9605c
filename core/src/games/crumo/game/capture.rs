//! A move's consequences on the board (rules 6.2 to 6.4): the pieces travel, dead stacks
//! are removed, captures are counted; `game.rs` applies the decisions that call for them.

use super::Crumo;
use crate::game::Color;
use crate::games::crumo::board::{Cells, MAX_POINTS, Point, is_color};

impl Crumo {
    /// Moves `k = dist(s, t)` pieces from `s` to `t` (rule 6.2), then removes the dead
    /// stacks (rule 6.3) and counts the captures (6.4). Returns whether it was a
    /// complete-stack move.
    pub(super) fn move_pieces(&mut self, s: Point, t: Point) -> bool {
        let me = self.to_move;
        let (_, k) = self
            .geometry()
            .line_between(s, t)
            .expect("a legal target is on a line");
        let sc = self.cells[usize::from(s)];
        let complete = sc.unsigned_abs() == u64::from(k);
        let moved = if me == Color::Black {
            i64::from(k)
        } else {
            -i64::from(k)
        };
        self.cells[usize::from(s)] = sc - moved;
        self.cells[usize::from(t)] += moved;
        let enemy = me.opposite();
        let taken = self.remove_dead(enemy);
        self.captures[me as usize] += taken;
        let lost = self.remove_dead(me);
        self.captures[enemy as usize] += lost;
        complete
    }

    /// One phase of rule 6.3: while some stack of colour `c` is dead, removes all of `c`'s
    /// dead stacks at once. Returns the pieces removed.
    fn remove_dead(&mut self, c: Color) -> u64 {
        let mut removed = 0;
        let mut dead = [0 as Point; MAX_POINTS];
        loop {
            let mut count = 0;
            let view = self.view();
            for p in 0..self.points() as Point {
                if is_color(view.cell(p), c) && view.is_dead(p) {
                    dead[count] = p;
                    count += 1;
                }
            }
            if count == 0 {
                return removed;
            }
            for &p in &dead[..count] {
                removed += self.cells[usize::from(p)].unsigned_abs();
                self.cells[usize::from(p)] = 0;
            }
        }
    }
}
