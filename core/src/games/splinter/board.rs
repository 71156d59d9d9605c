//! The Splinter board: squares, directions, pieces, the start block (rules 1–2), pushes
//! (rule 4) and groups (rule 6). Fixed-size arrays only, so a board is copied, never
//! allocated.

use crate::game::Color;
use crate::game::named::named_enum;
use std::fmt;

/// Largest file and rank counts (rule 2.1).
pub const MAX_WIDTH: u8 = 26;
pub const MAX_HEIGHT: u8 = 26;
/// Smallest file and rank counts (rule 2.1).
pub const MIN_WIDTH: u8 = 5;
pub const MIN_HEIGHT: u8 = 6;
/// Squares of the largest board: the size of every per-square array.
pub const MAX_SQUARES: usize = MAX_WIDTH as usize * MAX_HEIGHT as usize;
/// Pieces a side has at the start (rule 1.2), and on the board at most (rule 1.3).
pub const PIECES_PER_SIDE: usize = 15;
pub const MAX_PIECES: usize = 2 * PIECES_PER_SIDE;

/// A square as its index `y · W + x`: index order is the canonical order of rule 2.4.
pub type Square = u16;

named_enum! {
    /// The four piece types (rule 1.2), with their counts at the start; named in lower case
    /// in the position JSON (rule 10.1).
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
    pub enum PieceType {
        King,
        Rook,
        Bishop,
        Pawn,
    }
}

impl PieceType {
    /// How many of this type each player has at the start (rule 1.2).
    pub fn start_count(self) -> u8 {
        match self {
            PieceType::King => 1,
            PieceType::Rook => 2,
            PieceType::Bishop => 3,
            PieceType::Pawn => 9,
        }
    }
}

/// A piece: its owner's colour and its type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceType,
}

impl Piece {
    /// Non-zero cell code: `1 + 4 · colour + type` (0 is an empty square).
    #[inline]
    fn code(self) -> u8 {
        1 + 4 * (self.color as u8) + self.kind as u8
    }

    #[inline]
    fn from_code(code: u8) -> Option<Piece> {
        let c = code.checked_sub(1)?;
        let color = if c / 4 == 0 {
            Color::Black
        } else {
            Color::White
        };
        Some(Piece {
            color,
            kind: PieceType::ALL[usize::from(c % 4)],
        })
    }
}

named_enum! {
    /// The eight directions of rule 2.3, in its order.
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
    pub enum Dir {
        N,
        Ne,
        E,
        Se,
        S,
        Sw,
        W,
        Nw,
    }
}

impl Dir {
    /// `(Δx, Δy)` of rule 2.3.
    #[inline]
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::N => (0, 1),
            Dir::Ne => (1, 1),
            Dir::E => (1, 0),
            Dir::Se => (1, -1),
            Dir::S => (0, -1),
            Dir::Sw => (-1, -1),
            Dir::W => (-1, 0),
            Dir::Nw => (-1, 1),
        }
    }

    #[inline]
    pub fn from_delta(dx: i32, dy: i32) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.delta() == (dx, dy))
    }

    /// The direction with both components negated.
    #[inline]
    pub fn opposite(self) -> Dir {
        Dir::ALL[(self as usize + 4) % 8]
    }
}

/// A set of squares as a bit set over the largest board (the no-return state's `M`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct SquareSet([u64; MAX_SQUARES.div_ceil(64)]);

impl SquareSet {
    #[inline]
    pub fn insert(&mut self, s: Square) {
        self.0[usize::from(s) / 64] |= 1 << (s % 64);
    }
    #[inline]
    pub fn remove(&mut self, s: Square) {
        self.0[usize::from(s) / 64] &= !(1 << (s % 64));
    }
    #[inline]
    pub fn contains(&self, s: Square) -> bool {
        self.0[usize::from(s) / 64] >> (s % 64) & 1 == 1
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// The squares in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            (0..64u16)
                .filter(move |b| w >> b & 1 == 1)
                .map(move |b| i as u16 * 64 + b)
        })
    }
    pub(crate) fn words(&self) -> &[u64] {
        &self.0
    }
}

/// The pieces on a `W × H` board.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    width: u8,
    height: u8,
    cells: [u8; MAX_SQUARES],
}

/// What a push did (rule 4.3): where the moved pieces stand now, and what left the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Push {
    /// The destination `t`: the moved pieces stand on `t, t + d, …` (`moved` of them).
    pub to: Square,
    pub dir: Dir,
    /// The moving piece and the pieces of its run still on the board.
    pub moved: u8,
    /// The piece pushed off the board, if any.
    pub off_board: Option<Piece>,
}

/// The groups of the pieces on a board (rule 6.1), labelled `1 ..= count` in the order of
/// their anchors.
#[derive(Clone, Debug)]
pub struct Groups {
    pub label: [u8; MAX_SQUARES],
    pub count: u8,
    pub size: [u8; MAX_PIECES + 1],
    pub anchor: [Square; MAX_PIECES + 1],
}

impl Groups {
    /// The size of the largest groups and how many groups have it.
    pub fn largest(&self) -> (u8, u8) {
        let sizes = &self.size[1..=usize::from(self.count)];
        let max = sizes.iter().copied().max().unwrap_or(0);
        (max, sizes.iter().filter(|&&s| s == max).count() as u8)
    }

    /// Is group `g` one of the largest?
    pub fn is_largest(&self, g: u8) -> bool {
        g >= 1 && g <= self.count && self.size[usize::from(g)] == self.largest().0
    }
}

impl Board {
    /// An empty board; the size must be in range (checked by the callers that take input).
    pub fn empty(width: u8, height: u8) -> Board {
        debug_assert!(size_ok(width, height));
        Board {
            width,
            height,
            cells: [0; MAX_SQUARES],
        }
    }

    /// The start of rules 2.5–2.6.
    pub fn standard(width: u8, height: u8) -> Board {
        const BLOCK: [[PieceType; 5]; 6] = {
            use PieceType::{Bishop as B, King as K, Pawn as P, Rook as R};
            [
                [P, P, P, P, P],
                [P, R, B, R, P],
                [P, B, K, B, P],
                [P, B, K, B, P],
                [P, R, B, R, P],
                [P, P, P, P, P],
            ]
        };
        let mut b = Board::empty(width, height);
        let (x0, y0) = ((width - 5) / 2, (height - 6) / 2);
        for (j, row) in BLOCK.iter().enumerate() {
            for (i, &kind) in row.iter().enumerate() {
                let color = if (i + j) % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let s = b.square(x0 + i as u8, y0 + j as u8);
                b.put(s, Some(Piece { color, kind }));
            }
        }
        b
    }

    #[inline]
    pub fn width(&self) -> u8 {
        self.width
    }
    #[inline]
    pub fn height(&self) -> u8 {
        self.height
    }
    #[inline]
    pub fn square_count(&self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }
    #[inline]
    pub fn square(&self, x: u8, y: u8) -> Square {
        u16::from(y) * u16::from(self.width) + u16::from(x)
    }
    #[inline]
    pub fn xy(&self, s: Square) -> (u8, u8) {
        let w = u16::from(self.width);
        ((s % w) as u8, (s / w) as u8)
    }

    /// The square one step from `s` in direction `d`, if it is on the board.
    #[inline]
    pub fn step(&self, s: Square, d: Dir) -> Option<Square> {
        let (x, y) = self.xy(s);
        let (dx, dy) = d.delta();
        let (nx, ny) = (i32::from(x) + dx, i32::from(y) + dy);
        (nx >= 0 && ny >= 0 && nx < i32::from(self.width) && ny < i32::from(self.height))
            .then(|| self.square(nx as u8, ny as u8))
    }

    #[inline]
    pub fn get(&self, s: Square) -> Option<Piece> {
        Piece::from_code(self.cells[usize::from(s)])
    }
    #[inline]
    pub fn is_occupied(&self, s: Square) -> bool {
        self.cells[usize::from(s)] != 0
    }
    #[inline]
    pub fn put(&mut self, s: Square, p: Option<Piece>) {
        self.cells[usize::from(s)] = p.map_or(0, Piece::code);
    }

    /// Every piece with its square, in canonical order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        (0..self.square_count() as Square).filter_map(|s| self.get(s).map(|p| (s, p)))
    }

    pub fn piece_count(&self) -> usize {
        self.cells[..self.square_count()]
            .iter()
            .filter(|&&c| c != 0)
            .count()
    }

    /// Pieces per colour and type: `counts[colour][type]`.
    pub fn type_counts(&self) -> [[u8; 4]; 2] {
        let mut counts = [[0u8; 4]; 2];
        for &c in &self.cells[..self.square_count()] {
            if let Some(p) = Piece::from_code(c) {
                counts[p.color as usize][p.kind as usize] += 1;
            }
        }
        counts
    }

    /// The squares of the run of a move from `from` in direction `d` (rule 4.2), starting at
    /// the destination; `None` when the destination is off the board (rule 4.1). The
    /// callback sees each run square in order.
    #[inline]
    pub fn run_len(&self, from: Square, d: Dir, mut each: impl FnMut(Square)) -> Option<u8> {
        let mut at = self.step(from, d)?;
        let mut k = 0u8;
        loop {
            if !self.is_occupied(at) {
                return Some(k);
            }
            each(at);
            k += 1;
            match self.step(at, d) {
                Some(next) => at = next,
                None => return Some(k),
            }
        }
    }

    /// Plays the push of a move (rule 4.3): the piece on `from` and its run shift one square
    /// in `d`; the last piece of the run leaves the board if its next square is off it.
    /// `None`, and nothing changed, when `from` is empty or off the board or the destination
    /// is off the board (rule 4.1).
    pub fn push(&mut self, from: Square, d: Dir) -> Option<Push> {
        if usize::from(from) >= self.square_count() || !self.is_occupied(from) {
            return None;
        }
        let to = self.step(from, d)?;
        // Walk to the end of the run, then shift back to front.
        let mut end = to;
        let mut squares = 1u8; // the moving piece
        let mut off_board = None;
        while self.is_occupied(end) {
            squares += 1;
            match self.step(end, d) {
                Some(next) => end = next,
                None => {
                    off_board = self.get(end);
                    break;
                }
            }
        }
        // `end` is now the empty square after the run, or the run's last square when the run
        // reaches the edge (its piece is the one pushed off).
        let back = d.opposite();
        let mut at = end;
        while at != from {
            let prev = self.step(at, back).expect("the run lies on the board");
            self.cells[usize::from(at)] = self.cells[usize::from(prev)];
            at = prev;
        }
        self.cells[usize::from(from)] = 0;
        let moved = if off_board.is_some() {
            squares - 1
        } else {
            squares
        };
        Some(Push {
            to,
            dir: d,
            moved,
            off_board,
        })
    }

    /// A cheap sufficient test that the push `(from, d)` leaves the pieces one group, given
    /// that they are one group now (true at every turn start). The push empties `from` and
    /// fills one square `e` (the square after the run, unless it is off the board); all other
    /// squares keep their occupancy. If the pieces around `from` stay connected inside its
    /// 3 × 3 box, every path through `from` can go round it; then the group holds if `e`
    /// touches it. `false` means "unknown": the caller floods the board.
    pub fn push_keeps_one_group(&self, from: Square, d: Dir) -> bool {
        let Some(to) = self.step(from, d) else {
            return false;
        };
        let mut end = Some(to);
        while let Some(at) = end {
            if !self.is_occupied(at) {
                break;
            }
            end = self.step(at, d);
        }
        // Occupancy after the push, without making it.
        let occupied_after = |q: Square| q != from && (self.is_occupied(q) || Some(q) == end);
        let (fx, fy) = self.xy(from);
        let mut ring = [(0i32, 0i32); 8];
        let mut n = 0;
        for dir in Dir::ALL {
            if let Some(q) = self.step(from, dir)
                && occupied_after(q)
            {
                let (x, y) = self.xy(q);
                ring[n] = (i32::from(x) - i32::from(fx), i32::from(y) - i32::from(fy));
                n += 1;
            }
        }
        if n == 0 {
            return false;
        }
        // Connected components of the ring squares (8-adjacency), by a tiny flood fill.
        let mut reached = 1u8;
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..n {
                if reached >> i & 1 == 1 {
                    continue;
                }
                let touches = (0..n).any(|j| {
                    reached >> j & 1 == 1
                        && (ring[i].0 - ring[j].0).abs() <= 1
                        && (ring[i].1 - ring[j].1).abs() <= 1
                });
                if touches {
                    reached |= 1 << i;
                    changed = true;
                }
            }
        }
        if u32::from(reached).count_ones() as usize != n {
            return false;
        }
        // The filled square must touch a piece other than itself (inside the box it does).
        match end {
            None => true,
            Some(e) => Dir::ALL
                .into_iter()
                .any(|dir| self.step(e, dir).is_some_and(occupied_after)),
        }
    }

    /// The groups of the pieces (rule 6.1): an 8-neighbour flood fill in canonical order,
    /// so group labels follow their anchors.
    pub fn groups(&self) -> Groups {
        let mut g = Groups {
            label: [0; MAX_SQUARES],
            count: 0,
            size: [0; MAX_PIECES + 1],
            anchor: [0; MAX_PIECES + 1],
        };
        // Each piece is pushed once, and a board holds at most 30 (rule 1.3).
        let mut stack = [0 as Square; MAX_PIECES];
        for s in 0..self.square_count() as Square {
            if !self.is_occupied(s) || g.label[usize::from(s)] != 0 {
                continue;
            }
            // A valid board has at most 30 pieces; saturate rather than overflow otherwise.
            g.count = g.count.saturating_add(1).min(MAX_PIECES as u8);
            let id = g.count;
            g.anchor[usize::from(id)] = s;
            g.label[usize::from(s)] = id;
            let mut top = 1;
            stack[0] = s;
            while top > 0 {
                top -= 1;
                let at = stack[top];
                g.size[usize::from(id)] += 1;
                for d in Dir::ALL {
                    if let Some(n) = self.step(at, d)
                        && self.is_occupied(n)
                        && g.label[usize::from(n)] == 0
                        && top < MAX_PIECES
                    {
                        g.label[usize::from(n)] = id;
                        stack[top] = n;
                        top += 1;
                    }
                }
            }
        }
        g
    }

    /// Removes every piece outside group `keep`.
    pub fn keep_only(&mut self, groups: &Groups, keep: u8) {
        for s in 0..self.square_count() {
            if groups.label[s] != keep {
                self.cells[s] = 0;
            }
        }
    }

    pub(crate) fn cells(&self) -> &[u8] {
        &self.cells[..self.square_count()]
    }
}

/// Is `W × H` a size of rule 2.1?
pub fn size_ok(width: u8, height: u8) -> bool {
    (MIN_WIDTH..=MAX_WIDTH).contains(&width) && (MIN_HEIGHT..=MAX_HEIGHT).contains(&height)
}

impl fmt::Debug for Board {
    /// The diagram of rule 2.7: ranks from the top, `bK`, `wP`, `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}x{}", self.width, self.height)?;
        for y in (0..self.height).rev() {
            write!(f, "{:>2} ", y + 1)?;
            for x in 0..self.width {
                match self.get(self.square(x, y)) {
                    None => write!(f, "  .")?,
                    Some(p) => {
                        let c = if p.color == Color::Black { 'b' } else { 'w' };
                        let t = ['K', 'R', 'B', 'P'][p.kind as usize];
                        write!(f, " {c}{t}")?;
                    }
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
