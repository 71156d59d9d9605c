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
    /// `row_start[r] − q_min(r)`: the index of `(q, r)` is `row_base[r] + q` (on the board).
    row_base: [i16; MAX_ROWS],
    /// How many points lie beyond each point along each direction before the edge: a step
    /// of `k ≤ ray_len` stays on the board, so the walks of guarding and moving (the hot
    /// loops of every move) need no bounds test per step.
    ray_len: [[u8; 12]; MAX_POINTS],
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
        row_base: [0; MAX_ROWS],
        ray_len: [[0; 12]; MAX_POINTS],
    };
    let mut r = 0;
    let mut i = 0usize;
    while r < 2 * n - 1 {
        g.row_start[r as usize] = i as u16;
        g.row_base[r as usize] = i as i16 - q_min(n, r) as i16;
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
    let mut p = 0;
    while p < i {
        let (q, r) = (g.coords[p].0 as i32, g.coords[p].1 as i32);
        let mut d = 0;
        while d < 12 {
            let (dq, dr) = (DIRECTIONS[d].0 as i32, DIRECTIONS[d].1 as i32);
            let mut k = 0;
            while on_board(n, q + (k + 1) * dq, r + (k + 1) * dr) {
                k += 1;
            }
            g.ray_len[p][d] = k as u8;
            d += 1;
        }
        p += 1;
    }
    g
}

/// Is axial `(q, r)` a point of the board of size `n` (rule 1.2)?
const fn on_board(n: i32, q: i32, r: i32) -> bool {
    q >= 0 && r >= 0 && q <= 2 * n - 2 && r <= 2 * n - 2 && q + r >= n - 1 && q + r <= 3 * n - 3
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
        if !on_board(i32::from(self.size), q, r) {
            return None;
        }
        Some((i32::from(self.row_base[r as usize]) + q) as Point)
    }

    /// The point `k` steps from `p` in direction `dir` (an index into [`DIRECTIONS`]).
    #[inline]
    pub fn step(&self, p: Point, dir: usize, k: u32) -> Option<Point> {
        (k <= self.ray_len(p, dir)).then(|| self.step_on_board(p, dir, k))
    }

    /// How many steps from `p` along `dir` stay on the board.
    #[inline]
    pub fn ray_len(&self, p: Point, dir: usize) -> u32 {
        u32::from(self.ray_len[usize::from(p)][dir])
    }

    /// The point `k ≤ ray_len(p, dir)` steps from `p` along `dir`.
    #[inline]
    pub fn step_on_board(&self, p: Point, dir: usize, k: u32) -> Point {
        debug_assert!(k <= self.ray_len(p, dir), "{k} steps leave the board");
        let (q, r) = self.coords(p);
        let (dq, dr) = DIRECTIONS[dir];
        let k = k as i32;
        let r = i32::from(r) + k * i32::from(dr);
        (i32::from(self.row_base[r as usize]) + i32::from(q) + k * i32::from(dq)) as Point
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
        (0..12).map(|d| self.ray_len(p, d)).max().unwrap_or(0)
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
        for d in 0..12 {
            for k in 1..=geo.ray_len(x, d) {
                let c = self.cell(geo.step_on_board(x, d, k));
                if c.unsigned_abs() == u64::from(k) {
                    g[usize::from(c < 0)] += 1;
                }
            }
        }
        g
    }

    /// The guard counts of every point, from the stacks: a stack of height `h` guards its
    /// own point and the ≤ 12 points `h` steps away.
    fn guard_table(&self) -> GuardTable {
        let geo = self.geometry();
        let mut counts = [[0u16; 2]; MAX_POINTS];
        for y in 0..geo.points() as Point {
            let c = self.cell(y);
            if c == 0 {
                continue;
            }
            let (h, side) = (c.unsigned_abs(), usize::from(c < 0));
            counts[usize::from(y)][side] += 1;
            for d in 0..12 {
                if h <= u64::from(geo.ray_len(y, d)) {
                    counts[usize::from(geo.step_on_board(y, d, h as u32))][side] += 1;
                }
            }
        }
        GuardTable { counts }
    }
}

/// `[G_black(x), G_white(x)]` (rule 3.2) of every point of one board, for the many
/// legality tests of one turn.
pub(crate) struct GuardTable {
    counts: [[u16; 2]; MAX_POINTS],
}

impl GuardTable {
    #[inline]
    pub fn get(&self, x: Point) -> [u32; 2] {
        self.counts[usize::from(x)].map(u32::from)
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
    fn steps_agree_with_coordinates_on_every_size() {
        for n in MIN_SIZE..=MAX_SIZE {
            let g = geometry(n).unwrap();
            for p in 0..g.points() as Point {
                let (q, r) = g.coords(p);
                for (d, &(dq, dr)) in DIRECTIONS.iter().enumerate() {
                    let mut on = 0;
                    for k in 0..=2 * u32::from(MAX_SIZE) {
                        let ki = k as i32;
                        let want = g.point_at(
                            i32::from(q) + ki * i32::from(dq),
                            i32::from(r) + ki * i32::from(dr),
                        );
                        assert_eq!(g.step(p, d, k), want, "size {n}, {}, {d}, {k}", g.name(p));
                        on += u32::from(want.is_some() && k > 0);
                    }
                    assert_eq!(
                        g.ray_len(p, d),
                        on,
                        "size {n}, {}, direction {d}",
                        g.name(p)
                    );
                }
            }
        }
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
