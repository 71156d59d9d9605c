//! The board of rules 1–4: points of a hexagon of size `n` in axial coordinates, the 12
//! directions, steps along them, stacks (one colour, any height) and guarding.
//!
//! # Point indices
//!
//! The `P = 3n(n−1)+1` points are numbered by rank, then file: the order of `(r, q)`, the
//! order of rule 12.1's `stacks`. On size 5, `e1` is 0, `i1` is 4, `d2` is 5, `a5` is 26,
//! `e5` (the centre) is 30 and `e9` is 60.

use crate::game::Color;

/// The smallest size supported (rule 1.1 allows 2 as an option).
pub const MIN_SIZE: u8 = 2;
/// The largest size supported: 13, where the file letters `a`–`y` of rule 1.3 end.
pub const MAX_SIZE: u8 = 13;
/// Points of the largest board: bounds per-point arrays kept on the stack.
pub const MAX_POINTS: usize = 3 * 13 * 12 + 1;
/// Rows of the largest board.
const MAX_ROWS: usize = 2 * 13 - 1;

/// A point index (see the module documentation for the order).
pub type Point = u16;

/// The 12 unit vectors `(dq, dr)` of rule 1.4: the six orthogonal ones (east, north-east,
/// north-west, west, south-west, south-east), then the six diagonal ones, each the sum of
/// its two neighbouring orthogonal ones, in the same counter-clockwise order.
pub const DIRECTIONS: [(i8, i8); 12] = [
    (1, 0),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (1, -1),
    (1, 1),
    (-1, 2),
    (-2, 1),
    (-1, -1),
    (1, -2),
    (2, -1),
];

/// Is `size` one the engine supports (rule 1.1)?
#[inline]
pub fn size_ok(size: u8) -> bool {
    (MIN_SIZE..=MAX_SIZE).contains(&size)
}

/// The fixed tables of one size: computed at compile time, shared by every game.
#[derive(Debug)]
pub struct Geometry {
    size: u8,
    points: u16,
    /// Index of the first point of each row `r`.
    row_start: [u16; MAX_ROWS + 1],
    /// `(q, r)` of each point.
    coords: [(u8, u8); MAX_POINTS],
}

const fn q_min(n: i32, r: i32) -> i32 {
    if n - 1 - r > 0 { n - 1 - r } else { 0 }
}

const fn q_max(n: i32, r: i32) -> i32 {
    if 3 * n - 3 - r < 2 * n - 2 {
        3 * n - 3 - r
    } else {
        2 * n - 2
    }
}

const fn build(size: u8) -> Geometry {
    let n = size as i32;
    let mut g = Geometry {
        size,
        points: 0,
        row_start: [0; MAX_ROWS + 1],
        coords: [(0, 0); MAX_POINTS],
    };
    let mut r = 0;
    let mut i = 0usize;
    while r < 2 * n - 1 {
        g.row_start[r as usize] = i as u16;
        let mut q = q_min(n, r);
        while q <= q_max(n, r) {
            g.coords[i] = (q as u8, r as u8);
            i += 1;
            q += 1;
        }
        r += 1;
    }
    g.row_start[(2 * n - 1) as usize] = i as u16;
    g.points = i as u16;
    g
}

static GEOMETRIES: [Geometry; (MAX_SIZE - MIN_SIZE + 1) as usize] = [
    build(2),
    build(3),
    build(4),
    build(5),
    build(6),
    build(7),
    build(8),
    build(9),
    build(10),
    build(11),
    build(12),
    build(13),
];

/// The tables of a supported size; `None` outside rule 1.1's range.
#[inline]
pub fn geometry(size: u8) -> Option<&'static Geometry> {
    size_ok(size).then(|| &GEOMETRIES[usize::from(size - MIN_SIZE)])
}

impl Geometry {
    /// The size `n`: points per side.
    #[inline]
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The number of points `P = 3n(n−1)+1`.
    #[inline]
    pub fn points(&self) -> usize {
        usize::from(self.points)
    }

    /// `D = 2(n−1)`: the longest line, and the largest placement height (rule 5.2).
    #[inline]
    pub fn max_height(&self) -> u32 {
        2 * (u32::from(self.size) - 1)
    }

    /// Axial coordinates `(q, r)` of a point.
    #[inline]
    pub fn coords(&self, p: Point) -> (u8, u8) {
        self.coords[usize::from(p)]
    }

    /// The point at axial `(q, r)`, if it is on the board (rule 1.2).
    #[inline]
    pub fn point_at(&self, q: i32, r: i32) -> Option<Point> {
        let n = i32::from(self.size);
        if q < 0 || r < 0 || q > 2 * n - 2 || r > 2 * n - 2 || q + r < n - 1 || q + r > 3 * n - 3 {
            return None;
        }
        Some(self.row_start[r as usize] + (q - q_min(n, r)) as u16)
    }

    /// The point `k` steps from `p` in direction `dir` (an index into [`DIRECTIONS`]).
    #[inline]
    pub fn step(&self, p: Point, dir: usize, k: u32) -> Option<Point> {
        let (q, r) = self.coords(p);
        let (dq, dr) = DIRECTIONS[dir];
        // Steps beyond the longest line are off the board; the bound keeps the products small.
        if k > self.max_height() {
            return None;
        }
        let k = k as i32;
        self.point_at(
            i32::from(q) + k * i32::from(dq),
            i32::from(r) + k * i32::from(dr),
        )
    }

    /// The direction and distance from `s` to `t` when `t` is `k ≥ 1` steps from `s` along
    /// one of the 12 lines (rule 1.5); unique, as no displacement is a multiple of two
    /// different unit vectors.
    pub fn line_between(&self, s: Point, t: Point) -> Option<(usize, u32)> {
        let (sq, sr) = self.coords(s);
        let (tq, tr) = self.coords(t);
        let (dq, dr) = (i32::from(tq) - i32::from(sq), i32::from(tr) - i32::from(sr));
        if (dq, dr) == (0, 0) {
            return None;
        }
        DIRECTIONS.iter().enumerate().find_map(|(i, &(uq, ur))| {
            let (uq, ur) = (i32::from(uq), i32::from(ur));
            // k = the displacement's length along (uq, ur), if it is a positive multiple.
            let k = if uq != 0 { dq / uq } else { dr / ur };
            (k > 0 && k * uq == dq && k * ur == dr).then_some((i, k as u32))
        })
    }

    /// The longest line from `p`: the largest `h` with a point at distance `h` (rule 5.2 a).
    pub fn longest_line(&self, p: Point) -> u32 {
        (0..12)
            .map(|d| {
                let mut k = 0;
                while self.step(p, d, k + 1).is_some() {
                    k += 1;
                }
                k
            })
            .max()
            .unwrap_or(0)
    }

    /// The name of a point (rule 1.3): `e5`.
    pub fn name(&self, p: Point) -> String {
        let (q, r) = self.coords(p);
        format!("{}{}", char::from(b'a' + q), u32::from(r) + 1)
    }
}

/// A stack: its colour and its height (`≥ 1`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Stack {
    pub color: Color,
    pub height: u64,
}

/// A cell's content as one signed number: `+h` a black stack of height `h`, `−h` a white
/// one, `0` empty. One word per point keeps boards cheap to copy and compare.
#[inline]
pub(crate) fn cell_of(stack: Option<Stack>) -> i64 {
    match stack {
        None => 0,
        Some(Stack {
            color: Color::Black,
            height,
        }) => height as i64,
        Some(Stack {
            color: Color::White,
            height,
        }) => -(height as i64),
    }
}

#[inline]
pub(crate) fn stack_of(cell: i64) -> Option<Stack> {
    match cell {
        0 => None,
        c if c > 0 => Some(Stack {
            color: Color::Black,
            height: c as u64,
        }),
        c => Some(Stack {
            color: Color::White,
            height: c.unsigned_abs(),
        }),
    }
}

/// Is this cell a stack of colour `c`?
#[inline]
pub(crate) fn is_color(cell: i64, c: Color) -> bool {
    match c {
        Color::Black => cell > 0,
        Color::White => cell < 0,
    }
}

/// Something that says what is on each point: the board, or the board as a move would leave
/// it (to judge a move before making it).
pub(crate) trait Cells {
    fn geometry(&self) -> &'static Geometry;
    fn cell(&self, p: Point) -> i64;

    /// `[G_black(x), G_white(x)]` (rule 3.2): the stacks that guard `x`. A stack on `y`
    /// guards `x` iff `x` is at distance `height(y)` from `y`, that is `y = x + k·d` with
    /// `k = height(y)` for one of the 12 directions (the set is closed under negation).
    fn guards(&self, x: Point) -> [u32; 2] {
        let geo = self.geometry();
        let mut g = [0u32; 2];
        let own = self.cell(x);
        if own != 0 {
            g[usize::from(own < 0)] += 1;
        }
        let (q, r) = geo.coords(x);
        let (q, r) = (i32::from(q), i32::from(r));
        for &(dq, dr) in &DIRECTIONS {
            let (dq, dr) = (i32::from(dq), i32::from(dr));
            let mut k = 1i32;
            while let Some(y) = geo.point_at(q + k * dq, r + k * dr) {
                let c = self.cell(y);
                if c.unsigned_abs() == k as u64 {
                    g[usize::from(c < 0)] += 1;
                }
                k += 1;
            }
        }
        g
    }

    /// Is the stack on `x` dead (rule 4.2): attack greater than defence? `false` on an
    /// empty point.
    fn is_dead(&self, x: Point) -> bool {
        let c = self.cell(x);
        if c == 0 {
            return false;
        }
        let g = self.guards(x);
        let (own, enemy) = if c > 0 { (g[0], g[1]) } else { (g[1], g[0]) };
        enemy > own
    }
}

/// The board as a move `s → t` of `k` pieces would leave it, before any removal.
pub(crate) struct AfterMovement<'a> {
    pub cells: &'a [i64],
    pub geo: &'static Geometry,
    pub s: Point,
    pub s_cell: i64,
    pub t: Point,
    pub t_cell: i64,
}

impl Cells for AfterMovement<'_> {
    #[inline]
    fn geometry(&self) -> &'static Geometry {
        self.geo
    }
    #[inline]
    fn cell(&self, p: Point) -> i64 {
        if p == self.s {
            self.s_cell
        } else if p == self.t {
            self.t_cell
        } else {
            self.cells[usize::from(p)]
        }
    }
}

/// A board's cells with their geometry.
pub(crate) struct BoardView<'a> {
    pub cells: &'a [i64],
    pub geo: &'static Geometry,
}

impl Cells for BoardView<'_> {
    #[inline]
    fn geometry(&self) -> &'static Geometry {
        self.geo
    }
    #[inline]
    fn cell(&self, p: Point) -> i64 {
        self.cells[usize::from(p)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_counts_and_indices_follow_rank_then_file() {
        for n in MIN_SIZE..=MAX_SIZE {
            let g = geometry(n).unwrap();
            let n32 = usize::from(n);
            assert_eq!(g.points(), 3 * n32 * (n32 - 1) + 1);
            for p in 0..g.points() as Point {
                let (q, r) = g.coords(p);
                assert_eq!(g.point_at(i32::from(q), i32::from(r)), Some(p));
            }
        }
        let g = geometry(5).unwrap();
        assert_eq!(g.name(0), "e1");
        assert_eq!(g.name(4), "i1");
        assert_eq!(g.name(5), "d2");
        assert_eq!(g.name(26), "a5");
        assert_eq!(g.name(30), "e5");
        assert_eq!(g.name(60), "e9");
        assert!(geometry(1).is_none() && geometry(14).is_none());
    }

    #[test]
    fn lines_are_found_in_both_directions() {
        let g = geometry(5).unwrap();
        let e5 = g.point_at(4, 4).unwrap();
        let mut found = 0;
        for d in 0..12 {
            for k in 1..=8 {
                if let Some(t) = g.step(e5, d, k) {
                    assert_eq!(g.line_between(e5, t), Some((d, k)));
                    found += 1;
                }
            }
        }
        // 4 steps along each orthogonal line, 2 along each diagonal one (rule 1.5).
        assert_eq!(found, 6 * 4 + 6 * 2);
        assert_eq!(g.longest_line(e5), 4);
        assert_eq!(g.longest_line(0), 8);
    }
}
