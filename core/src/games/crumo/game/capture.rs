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
            // One table of guard counts for all of `c`'s stacks: cheaper than a walk of the
            // 12 lines from each of them.
            let table = self.view().guard_table();
            let (own, enemy) = (c as usize, c.opposite() as usize);
            for p in 0..self.points() as Point {
                let g = table.get(p);
                if is_color(self.cells[usize::from(p)], c) && g[enemy] > g[own] {
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

#[cfg(test)]
mod tests {
    use crate::game::CompleteMoves;
    use crate::game::{Color, GameState};
    use crate::games::crumo::board::{Cells, Geometry, Point, is_color};
    use crate::games::crumo::game::Crumo;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The board as a move `s → t` leaves it before any removal: the rule's own reading.
    struct AfterMovement<'a> {
        cells: &'a [i64],
        geo: &'static Geometry,
        s: Point,
        t: Point,
        t_cell: i64,
    }

    impl Cells for AfterMovement<'_> {
        fn geometry(&self) -> &'static Geometry {
            self.geo
        }
        fn cell(&self, p: Point) -> i64 {
            match p {
                p if p == self.s => 0,
                p if p == self.t => self.t_cell,
                p => self.cells[usize::from(p)],
            }
        }
    }

    /// Rule 6.5's test done directly: make the movement, then look for a dead enemy stack.
    fn captures_by_movement(g: &Crumo, s: Point, t: Point) -> bool {
        let (sc, tc) = (g.cells[usize::from(s)], g.cells[usize::from(t)]);
        let view = AfterMovement {
            cells: &g.cells,
            geo: g.geometry(),
            s,
            t,
            t_cell: tc + sc,
        };
        let enemy = if sc > 0 { Color::White } else { Color::Black };
        (0..g.points() as Point).any(|y| {
            let (c, guards) = (view.cell(y), view.guards(y));
            // Rule 4.2: attack greater than defence.
            is_color(c, enemy) && guards[usize::from(c > 0)] > guards[usize::from(c < 0)]
        })
    }

    /// The fast test (only the enemy stacks the moved stack guards, counts updated for the
    /// two stacks that moved) against the direct one, on every complete move of the player
    /// to move at every turn start of random games on three sizes, from both the walk and
    /// the table of guard counts.
    #[test]
    fn complete_move_captures_agrees_with_making_the_movement() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (mut moves, mut captures) = (0, 0);
        for game in 0..60 {
            let mut g = Crumo::standard([3, 4, 5][game % 3]).unwrap();
            g.set_turn_limit(100);
            while g.play_random_move(&mut rng).is_some() {
                let geo = g.geometry();
                let table = g.view().guard_table();
                for s in 0..g.points() as Point {
                    let cell = g.cells[usize::from(s)];
                    if !is_color(cell, g.to_move()) {
                        continue;
                    }
                    let h = cell.unsigned_abs() as u32;
                    for d in (0..12).filter(|&d| h <= geo.ray_len(s, d)) {
                        let t = geo.step_on_board(s, d, h);
                        if is_color(g.cells[usize::from(t)], g.to_move().opposite()) {
                            continue;
                        }
                        let want = captures_by_movement(&g, s, t);
                        assert_eq!(g.complete_move_captures(s, t), want);
                        assert_eq!(g.complete_move_captures_by(s, t, &|y| table.get(y)), want);
                        moves += 1;
                        captures += u32::from(want);
                    }
                }
            }
        }
        assert!(
            moves > 10_000 && captures > 100,
            "{moves} moves, {captures} capture"
        );
    }
}
