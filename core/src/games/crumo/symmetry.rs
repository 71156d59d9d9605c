//! The 12 symmetries of the hexagon (rule 13), numbered as rule 13.2 fixes: symmetry `i` is
//! `rot^i` for `i < 6` and `rot^(i−6) ∘ refl` (the reflection first) for `i ≥ 6`, where
//! `rot: (x, z) → (−z, x+z)` and `refl: (x, z) → (z, x)` in centred axial coordinates.
//! They map points, decisions, moves and whole games; colours, the player to move and the
//! rest of the state stay.

use super::board::{Geometry, Point};
use super::game::{Action, Crumo};
use super::notation::CrumoMove;
use crate::game::Decision;
use crate::game::symmetry::numbered;

/// One of the 12 symmetries, by its number in rule 13.2.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Symmetry(u8);

impl Symmetry {
    pub const IDENTITY: Symmetry = Symmetry(0);
    pub const ALL: [Symmetry; 12] = numbered!(Symmetry; 12);

    /// Symmetry number `i` (`0..12`).
    pub fn new(i: u8) -> Option<Symmetry> {
        (i < 12).then_some(Symmetry(i))
    }

    #[inline]
    pub fn index(self) -> u8 {
        self.0
    }

    /// The symmetry that undoes this one: `rot^(6−i)` for a rotation; a reflection is its
    /// own inverse.
    pub fn inverse(self) -> Symmetry {
        if self.0 < 6 {
            Symmetry((6 - self.0) % 6)
        } else {
            self
        }
    }

    /// The map of rule 13.2's table on centred coordinates `(x, z)`.
    #[inline]
    pub fn map_centred(self, x: i32, z: i32) -> (i32, i32) {
        let (x, z) = if self.0 >= 6 { (z, x) } else { (x, z) };
        let mut v = (x, z);
        for _ in 0..self.0 % 6 {
            v = (-v.1, v.0 + v.1);
        }
        v
    }

    /// The image of a point on a board of this geometry.
    #[inline]
    pub fn map_point(self, geo: &Geometry, p: Point) -> Point {
        let c = i32::from(geo.size()) - 1;
        let (q, r) = geo.coords(p);
        let (x, z) = self.map_centred(i32::from(q) - c, i32::from(r) - c);
        geo.point_at(x + c, z + c)
            .expect("the symmetries map the hexagon onto itself")
    }

    /// The image of a decision of `game`'s action space: its points mapped, heights kept.
    pub fn map_decision(self, game: &Crumo, d: Decision) -> Decision {
        let geo = game.geometry();
        let action = match game.decode(d) {
            Some(Action::Place { point, height }) => Action::Place {
                point: self.map_point(geo, point),
                height,
            },
            Some(Action::From { point }) => Action::From {
                point: self.map_point(geo, point),
            },
            Some(Action::To { point }) => Action::To {
                point: self.map_point(geo, point),
            },
            Some(a) => a,
            None => return d,
        };
        game.encode(action)
    }

    /// The image of a complete move.
    pub fn map_move(self, geo: &Geometry, mv: &CrumoMove) -> CrumoMove {
        match *mv {
            CrumoMove::Place { point, height } => CrumoMove::Place {
                point: self.map_point(geo, point),
                height,
            },
            CrumoMove::Move { from, to } => CrumoMove::Move {
                from: self.map_point(geo, from),
                to: self.map_point(geo, to),
            },
            other => other,
        }
    }

    /// The game with its stacks (and a pending source) moved by this symmetry; everything
    /// else, the turn count and limit included, unchanged.
    pub fn apply(self, game: &Crumo) -> Crumo {
        let geo = game.geometry();
        let mut out = game.clone();
        for (p, &c) in game.cells.iter().enumerate() {
            out.cells[usize::from(self.map_point(geo, p as Point))] = c;
        }
        out.pending = game.pending.map(|p| self.map_point(geo, p));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::geometry;
    use super::*;

    #[test]
    fn rule_13_2_examples_and_inverses() {
        let g = geometry(5).unwrap();
        let name = |p| g.name(p);
        let at = |q, r| g.point_at(q, r).unwrap();
        let (f5, e5, g3) = (at(5, 4), at(4, 4), at(6, 2));
        assert_eq!(name(Symmetry(1).map_point(g, f5)), "e6");
        assert_eq!(Symmetry(1).map_point(g, e5), e5);
        assert_eq!(name(Symmetry(6).map_point(g, f5)), "e6");
        assert_eq!(name(Symmetry(6).map_point(g, g3)), "c7");
        // The table of rule 13.2, row by row, on one off-centre point (x, z) = (1, 2).
        let table = [
            (1, 2),
            (-2, 3),
            (-3, 1),
            (-1, -2),
            (2, -3),
            (3, -1),
            (2, 1),
            (-1, 3),
            (-3, 2),
            (-2, -1),
            (1, -3),
            (3, -2),
        ];
        for (s, want) in Symmetry::ALL.iter().zip(table) {
            assert_eq!(s.map_centred(1, 2), want, "symmetry {}", s.0);
        }
        for s in Symmetry::ALL {
            for p in 0..g.points() as Point {
                assert_eq!(s.inverse().map_point(g, s.map_point(g, p)), p);
            }
        }
    }
}
