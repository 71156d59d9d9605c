//! Rectangles, directions, cuts and pieces: the exact integer geometry of Crumble's `1/R` grid.

use crate::game::Color;
use std::fmt;

/// An axis-aligned rectangle `[x, x+w] × [y, y+h]` in grid units (`1/R` cell), absolute frame.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Rect {
    pub x: u16,
    pub y: u16,
    pub w: u16,
    pub h: u16,
}

impl Rect {
    #[inline]
    pub const fn new(x: u16, y: u16, w: u16, h: u16) -> Rect {
        Rect { x, y, w, h }
    }
    #[inline]
    pub fn right(self) -> u16 {
        self.x + self.w
    }
    #[inline]
    pub fn top(self) -> u16 {
        self.y + self.h
    }
    /// The grid point just beyond this rectangle's side `dir`, at that side's left or bottom
    /// end, on a grid of side `g` (a point of the piece beside it there), or `None` at the
    /// board's edge.
    #[inline]
    pub fn beside(self, dir: Dir, g: u16) -> Option<(u16, u16)> {
        match dir {
            Dir::N if self.top() < g => Some((self.x, self.top())),
            Dir::S if self.y > 0 => Some((self.x, self.y - 1)),
            Dir::E if self.right() < g => Some((self.right(), self.y)),
            Dir::W if self.x > 0 => Some((self.x - 1, self.y)),
            _ => None,
        }
    }
    #[inline]
    pub fn area(self) -> u64 {
        u64::from(self.w) * u64::from(self.h)
    }
    /// A square or a 1:2 rectangle in either orientation (rule 2.1).
    #[inline]
    pub fn has_legal_shape(self) -> bool {
        self.w >= 1
            && self.h >= 1
            && (self.w == self.h
                || u32::from(self.w) == 2 * u32::from(self.h)
                || u32::from(self.h) == 2 * u32::from(self.w))
    }
    /// Area of the intersection of two rectangles (0 when they only touch).
    pub fn overlap_area(self, o: Rect) -> u64 {
        let x0 = self.x.max(o.x);
        let x1 = self.right().min(o.right());
        let y0 = self.y.max(o.y);
        let y1 = self.top().min(o.top());
        if x1 > x0 && y1 > y0 {
            u64::from(x1 - x0) * u64::from(y1 - y0)
        } else {
            0
        }
    }
    /// The y coordinate of this piece's legal horizontal cut (rule 4.1.1), if it has one whose
    /// halves lie on the grid (rule 4.1.5): a square of even side, or a tall 1:2 rectangle.
    #[inline]
    pub fn h_midline(self) -> Option<u16> {
        if (self.w == self.h && self.h.is_multiple_of(2))
            || u32::from(self.h) == 2 * u32::from(self.w)
        {
            Some(self.y + self.h / 2)
        } else {
            None
        }
    }
    /// The x coordinate of this piece's legal vertical cut, if any (see [`Rect::h_midline`]).
    #[inline]
    pub fn v_midline(self) -> Option<u16> {
        if (self.w == self.h && self.w.is_multiple_of(2))
            || u32::from(self.w) == 2 * u32::from(self.h)
        {
            Some(self.x + self.w / 2)
        } else {
            None
        }
    }
    #[inline]
    pub fn midline(self, cut: Cut) -> Option<u16> {
        match cut {
            Cut::H => self.h_midline(),
            Cut::V => self.v_midline(),
        }
    }
    /// The two halves of a legal cut: (south, north) for `H`, (west, east) for `V`.
    #[inline]
    pub fn halves(self, cut: Cut) -> (Rect, Rect) {
        match cut {
            Cut::H => {
                let h = self.h / 2;
                (
                    Rect::new(self.x, self.y, self.w, h),
                    Rect::new(self.x, self.y + h, self.w, h),
                )
            }
            Cut::V => {
                let w = self.w / 2;
                (
                    Rect::new(self.x, self.y, w, self.h),
                    Rect::new(self.x + w, self.y, w, self.h),
                )
            }
        }
    }
    /// Does this piece lie on one side of a `g`-unit board (rule 2.5)?
    #[inline]
    pub fn touches_side(self, g: u16) -> bool {
        self.x == 0 || self.y == 0 || self.right() == g || self.top() == g
    }
    /// Do the two rectangles share a point (an edge or a corner; rule 2.2's touching, for
    /// pieces of one tiling, which never overlap)?
    #[inline]
    pub fn touches(self, o: Rect) -> bool {
        self.x <= o.right() && o.x <= self.right() && self.y <= o.top() && o.y <= self.top()
    }
    /// Bit mask of the board sides this piece lies on: 1 west, 2 east, 4 south, 8 north.
    #[inline]
    pub fn side_mask(self, g: u16) -> u8 {
        u8::from(self.x == 0)
            | u8::from(self.right() == g) << 1
            | u8::from(self.y == 0) << 2
            | u8::from(self.top() == g) << 3
    }
    /// The same rectangle seen from the other side of the board (rotation by 180°).
    #[inline]
    pub fn rotated(self, g: u16) -> Rect {
        Rect::new(g - self.right(), g - self.top(), self.w, self.h)
    }
}

impl fmt::Display for Rect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} at ({}, {})", self.w, self.h, self.x, self.y)
    }
}

/// A compass direction of a swap step (absolute frame unless a notation frame says otherwise).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Dir {
    N,
    E,
    S,
    W,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];
    #[inline]
    pub fn opposite(self) -> Dir {
        match self {
            Dir::N => Dir::S,
            Dir::E => Dir::W,
            Dir::S => Dir::N,
            Dir::W => Dir::E,
        }
    }
    pub fn letter(self) -> char {
        match self {
            Dir::N => 'N',
            Dir::E => 'E',
            Dir::S => 'S',
            Dir::W => 'W',
        }
    }
    pub fn from_letter(c: char) -> Option<Dir> {
        match c {
            'N' => Some(Dir::N),
            'E' => Some(Dir::E),
            'S' => Some(Dir::S),
            'W' => Some(Dir::W),
            _ => None,
        }
    }
    #[inline]
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// The line of a split: `H` is a horizontal cut line, `V` a vertical one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Cut {
    H,
    V,
}

impl Cut {
    pub fn letter(self) -> char {
        match self {
            Cut::H => 'H',
            Cut::V => 'V',
        }
    }
}

/// A piece: a rectangle and its colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub rect: Rect,
    pub color: Color,
}

use crate::game::hash::mix64;

#[inline]
pub(crate) fn rect_key(r: Rect) -> u64 {
    u64::from(r.x) | u64::from(r.y) << 16 | u64::from(r.w) << 32 | u64::from(r.h) << 48
}

/// Hash of one coloured piece; a position hashes as the XOR of its pieces.
#[inline]
pub(crate) fn piece_hash(r: Rect, c: Color) -> u64 {
    mix64(
        rect_key(r)
            ^ if c == Color::Black {
                0x5bd1_e995_0000_0001
            } else {
                0x2545_f491_0000_0002
            },
    )
}
