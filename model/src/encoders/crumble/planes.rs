//! The rasteriser: a [`Crumble`] to `[PLANES, G, G]` f32 planes on the fine grid, written into
//! an `ndarray` buffer the caller owns.
//!
//! Layout: `out[[c, y, x]]` is plane `c` at grid cell `(x, y)`, absolute frame (origin at
//! Black's lower-left corner, `y` up, so row 0 is the south edge). The board is **not**
//! rotated for White; "own" and "opponent" are the colours of the player who decides in the
//! state ([`Crumble::decider`]; after the game is over, the player to move). The policy uses the
//! same cell layout (see [`crate::encoders::crumble::action`]).
//!
//! # Planes
//!
//! | plane | name | value at a cell |
//! | --- | --- | --- |
//! | 0 | `OWN` | 1 if an own piece covers the cell |
//! | 1 | `OPP` | 1 if an opponent piece covers the cell |
//! | 2–5 | `SIDE_W/E/S/N` | 1 if a piece side runs along the cell's west / east / south / north side (piece boundary or board edge) |
//! | 6–9 | `CORNER_SW/SE/NW/NE` | 1 if the cell is its piece's lower-left / lower-right / upper-left / upper-right cell (choose and step decisions live at lower-left cells, join ends at upper-right cells) |
//! | 10–12 | `SQUARE/WIDE/TALL` | shape class of the covering piece: square, `w = 2h`, `h = 2w` |
//! | 13 | `LOG_SIZE` | `log2(w·h) / 12` of the covering piece (`w, h` in grid units) |
//! | 14–16 | `PHASE_CHOOSE/EXTENT/SWAP` | 1 everywhere in the state's decision phase (all 0 when the game is over) |
//! | 17 | `FRESH` | 1 on the turn's fresh pieces (swap phase) |
//! | 18 | `SWAPPER` | 1 on the current swapper (swap phase, after a first step) |
//! | 19–21 | `PENDING_SPLIT_H/SPLIT_V/JOIN` | extent phase: 1 on the start piece of the pending horizontal split, vertical split, or join |
//! | 22–25 | `OWN_CHAIN_W/E/S/N` | own cells: 1 if the cell's chain (pieces of one colour joined through shared edges) touches the west / east / south / north board side |
//! | 26–29 | `OPP_CHAIN_W/E/S/N` | the same for opponent cells |
//! | 30 | `GROUP_EDGE` | 1 if the cell's group (pieces of one colour joined through edges or corner points) touches a board side |
//! | 31 | `BLACK_DECIDES` | 1 everywhere when the deciding player is Black |
//! | 32 | `ONES` | 1 everywhere (marks the board against the network's zero padding) |
//!
//! Under the 8 symmetries of the square ([`crate::encoders::crumble::symmetry`]) the planes move with their cells,
//! and the direction-bearing planes (sides, corners, wide/tall, pending split H/V, chain sides)
//! are permuted among themselves: [`crate::encoders::crumble::symmetry::plane_perm`].

use crumble_core::Color;
use crumble_core::games::crumble::{ChoiceKind, Crumble, Cut, Phase, Piece, Rect};
use ndarray::ArrayViewMut3;

/// Number of input planes.
pub const PLANES: usize = 33;

pub const OWN: usize = 0;
pub const OPP: usize = 1;
/// West, east, south, north piece sides: `SIDE + k` with `k` in W, E, S, N order.
pub const SIDE: usize = 2;
/// Corner cells: `CORNER + k` with `k` in SW, SE, NW, NE order.
pub const CORNER: usize = 6;
pub const SQUARE: usize = 10;
pub const WIDE: usize = 11;
pub const TALL: usize = 12;
pub const LOG_SIZE: usize = 13;
pub const PHASE_CHOOSE: usize = 14;
pub const PHASE_EXTENT: usize = 15;
pub const PHASE_SWAP: usize = 16;
pub const FRESH: usize = 17;
pub const SWAPPER: usize = 18;
pub const PENDING_SPLIT_H: usize = 19;
pub const PENDING_SPLIT_V: usize = 20;
pub const PENDING_JOIN: usize = 21;
/// Own chain touches side `k` (W, E, S, N): `OWN_CHAIN + k`.
pub const OWN_CHAIN: usize = 22;
/// Opponent chain touches side `k` (W, E, S, N): `OPP_CHAIN + k`.
pub const OPP_CHAIN: usize = 26;
pub const GROUP_EDGE: usize = 30;
pub const BLACK_DECIDES: usize = 31;
pub const ONES: usize = 32;

/// Short names of the planes, in order (for docs, debugging and golden-test failures).
pub const PLANE_NAMES: [&str; PLANES] = [
    "own",
    "opp",
    "side_w",
    "side_e",
    "side_s",
    "side_n",
    "corner_sw",
    "corner_se",
    "corner_nw",
    "corner_ne",
    "square",
    "wide",
    "tall",
    "log_size",
    "phase_choose",
    "phase_extent",
    "phase_swap",
    "fresh",
    "swapper",
    "pending_split_h",
    "pending_split_v",
    "pending_join",
    "own_chain_w",
    "own_chain_e",
    "own_chain_s",
    "own_chain_n",
    "opp_chain_w",
    "opp_chain_e",
    "opp_chain_s",
    "opp_chain_n",
    "group_edge",
    "black_decides",
    "ones",
];

/// Why a state could not be rasterised.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RasterError {
    #[error(
        "plane buffer has shape {got:?}; expected [{PLANES}, {g}, {g}] for a grid of {g} units"
    )]
    Shape { got: Vec<usize>, g: usize },
    #[error("plane buffer is not contiguous in standard (row-major) layout")]
    NotContiguous,
}

/// Rasterises states; holds scratch buffers so that repeated calls do not allocate (beyond
/// the piece list the rules engine hands out).
#[derive(Debug, Default, Clone)]
pub struct Rasteriser {
    /// Offsets of each row and column in the cell layout ([`Rasteriser::rasterise_cells`]).
    cell_rows: Vec<usize>,
    cell_cols: Vec<usize>,
    ids: Vec<u32>,
    chain: Vec<u32>,
    group: Vec<u32>,
    chain_mask: Vec<u8>,
    group_mask: Vec<u8>,
}

fn find(uf: &mut [u32], mut a: u32) -> u32 {
    while uf[a as usize] != a {
        let p = uf[uf[a as usize] as usize];
        uf[a as usize] = p;
        a = p;
    }
    a
}

fn union(uf: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(uf, a), find(uf, b));
    if ra != rb {
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        uf[hi as usize] = lo;
    }
}

/// Where the rasteriser writes: the standard `[PLANES, G, G]` planes, or the network's cell
/// layout ([`crate::Layout::to_cells`]).
trait Target {
    /// Fills the cells of `r` in plane `c` with `v`.
    fn fill_rect(&self, p: &mut [f32], c: usize, r: Rect, v: f32);
    /// Sets plane `c` at cell `(x, y)` to 1.
    fn set(&self, p: &mut [f32], c: usize, x: u16, y: u16);
}

/// `[PLANES, G, G]`.
struct Planes {
    g: usize,
}

impl Target for Planes {
    #[inline]
    fn fill_rect(&self, p: &mut [f32], c: usize, r: Rect, v: f32) {
        let g = self.g;
        let base = c * g * g;
        for y in usize::from(r.y)..usize::from(r.top()) {
            let row = base + y * g;
            p[row + usize::from(r.x)..row + usize::from(r.right())].fill(v);
        }
    }

    #[inline]
    fn set(&self, p: &mut [f32], c: usize, x: u16, y: u16) {
        p[c * self.g * self.g + usize::from(y) * self.g + usize::from(x)] = 1.0;
    }
}

/// The cell layout: cell `(x, y)` of plane `c` at `rows[y] + cols[x] + c`.
struct Cells<'a> {
    rows: &'a [usize],
    cols: &'a [usize],
}

impl Target for Cells<'_> {
    #[inline]
    fn fill_rect(&self, p: &mut [f32], c: usize, r: Rect, v: f32) {
        let cols = &self.cols[usize::from(r.x)..usize::from(r.right())];
        for &row in &self.rows[usize::from(r.y)..usize::from(r.top())] {
            for &col in cols {
                p[row + col + c] = v;
            }
        }
    }

    #[inline]
    fn set(&self, p: &mut [f32], c: usize, x: u16, y: u16) {
        p[self.rows[usize::from(y)] + self.cols[usize::from(x)] + c] = 1.0;
    }
}

impl Rasteriser {
    pub fn new() -> Rasteriser {
        Rasteriser::default()
    }

    /// Writes the planes of `game` into `out`, which must have shape `[PLANES, G, G]` in
    /// standard layout. Every element is written.
    pub fn rasterise(
        &mut self,
        game: &Crumble,
        mut out: ArrayViewMut3<'_, f32>,
    ) -> Result<(), RasterError> {
        let g = usize::from(game.grid_size());
        if out.shape() != [PLANES, g, g] {
            return Err(RasterError::Shape {
                got: out.shape().to_vec(),
                g,
            });
        }
        let p = out.as_slice_mut().ok_or(RasterError::NotContiguous)?;
        self.rasterise_slice(game, p);
        Ok(())
    }

    /// [`Rasteriser::rasterise`] into a flat slice of length `PLANES·G·G` (panics otherwise).
    pub fn rasterise_slice(&mut self, game: &Crumble, p: &mut [f32]) {
        let g = usize::from(game.grid_size());
        self.rasterise_to(game, p, &Planes { g });
    }

    /// The planes of `game` straight in the network's cell layout for stem stride `s`
    /// (`[n, n, s, s, PLANES]` with `n = G / s`, as [`crate::Layout::to_cells`] would reorder
    /// them), into a slice of length `PLANES·G·G` (panics otherwise, or if `s` does not
    /// divide `G`).
    pub fn rasterise_cells(&mut self, game: &Crumble, s: usize, p: &mut [f32]) {
        let g = usize::from(game.grid_size());
        assert!(
            s > 0 && g.is_multiple_of(s),
            "cell side {s} must divide grid {g}"
        );
        let n = g / s;
        // Cell (x, y) = (cx·s + ix, cy·s + iy) sits at (((cy·n + cx)·s + iy)·s + ix)·PLANES.
        let mut rows = std::mem::take(&mut self.cell_rows);
        let mut cols = std::mem::take(&mut self.cell_cols);
        rows.clear();
        rows.extend((0..g).map(|y| ((y / s) * n * s + y % s) * s * PLANES));
        cols.clear();
        cols.extend((0..g).map(|x| ((x / s) * s * s + x % s) * PLANES));
        self.rasterise_to(
            game,
            p,
            &Cells {
                rows: &rows,
                cols: &cols,
            },
        );
        self.cell_rows = rows;
        self.cell_cols = cols;
    }

    fn rasterise_to(&mut self, game: &Crumble, p: &mut [f32], to: &impl Target) {
        let gs = game.grid_size();
        let g = usize::from(gs);
        assert_eq!(p.len(), PLANES * g * g, "plane buffer length");
        p.fill(0.0);
        let me = game.decider().unwrap_or(game.to_move());
        let pieces: Vec<Piece> = game.board().sorted_pieces();
        let n = pieces.len();

        // Piece index of every cell.
        self.ids.clear();
        self.ids.resize(g * g, 0);
        for (i, pc) in pieces.iter().enumerate() {
            let r = pc.rect;
            for y in usize::from(r.y)..usize::from(r.top()) {
                self.ids[y * g + usize::from(r.x)..y * g + usize::from(r.right())].fill(i as u32);
            }
        }
        // Chains (edge-connected) and groups (edge- or corner-connected) of one colour.
        self.chain.clear();
        self.chain.extend(0..n as u32);
        self.group.clear();
        self.group.extend(0..n as u32);
        let ids = &self.ids;
        let same = |a: u32, b: u32| a != b && pieces[a as usize].color == pieces[b as usize].color;
        for y in 0..g {
            for x in 0..g {
                let a = ids[y * g + x];
                if x + 1 < g {
                    let b = ids[y * g + x + 1];
                    if same(a, b) {
                        union(&mut self.chain, a, b);
                        union(&mut self.group, a, b);
                    }
                }
                if y + 1 < g {
                    let b = ids[(y + 1) * g + x];
                    if same(a, b) {
                        union(&mut self.chain, a, b);
                        union(&mut self.group, a, b);
                    }
                    if x + 1 < g {
                        let b = ids[(y + 1) * g + x + 1];
                        if same(a, b) {
                            union(&mut self.group, a, b);
                        }
                    }
                    if x > 0 {
                        let b = ids[(y + 1) * g + x - 1];
                        if same(a, b) {
                            union(&mut self.group, a, b);
                        }
                    }
                }
            }
        }
        self.chain_mask.clear();
        self.chain_mask.resize(n, 0);
        self.group_mask.clear();
        self.group_mask.resize(n, 0);
        for (i, pc) in pieces.iter().enumerate() {
            let m = pc.rect.side_mask(gs);
            let c = find(&mut self.chain, i as u32) as usize;
            self.chain_mask[c] |= m;
            let gr = find(&mut self.group, i as u32) as usize;
            self.group_mask[gr] |= m;
        }

        for (i, pc) in pieces.iter().enumerate() {
            let r = pc.rect;
            let own = pc.color == me;
            to.fill_rect(p, if own { OWN } else { OPP }, r, 1.0);
            // Sides: west and east columns, south and north rows of the piece.
            to.fill_rect(p, SIDE, Rect::new(r.x, r.y, 1, r.h), 1.0);
            to.fill_rect(p, SIDE + 1, Rect::new(r.right() - 1, r.y, 1, r.h), 1.0);
            to.fill_rect(p, SIDE + 2, Rect::new(r.x, r.y, r.w, 1), 1.0);
            to.fill_rect(p, SIDE + 3, Rect::new(r.x, r.top() - 1, r.w, 1), 1.0);
            to.set(p, CORNER, r.x, r.y);
            to.set(p, CORNER + 1, r.right() - 1, r.y);
            to.set(p, CORNER + 2, r.x, r.top() - 1);
            to.set(p, CORNER + 3, r.right() - 1, r.top() - 1);
            let shape = if r.w == r.h {
                SQUARE
            } else if r.w > r.h {
                WIDE
            } else {
                TALL
            };
            to.fill_rect(p, shape, r, 1.0);
            to.fill_rect(p, LOG_SIZE, r, (r.area() as f32).log2() / 12.0);
            let cm = self.chain_mask[find(&mut self.chain, i as u32) as usize];
            let base = if own { OWN_CHAIN } else { OPP_CHAIN };
            for k in 0..4 {
                if cm & (1 << k) != 0 {
                    to.fill_rect(p, base + k, r, 1.0);
                }
            }
            if self.group_mask[find(&mut self.group, i as u32) as usize] != 0 {
                to.fill_rect(p, GROUP_EDGE, r, 1.0);
            }
        }

        let whole = Rect::new(0, 0, gs, gs);
        match game.phase() {
            Phase::Choose => to.fill_rect(p, PHASE_CHOOSE, whole, 1.0),
            Phase::Extent { kind, start } => {
                to.fill_rect(p, PHASE_EXTENT, whole, 1.0);
                let c = match kind {
                    ChoiceKind::Split(Cut::H) => PENDING_SPLIT_H,
                    ChoiceKind::Split(Cut::V) => PENDING_SPLIT_V,
                    ChoiceKind::Join => PENDING_JOIN,
                };
                to.fill_rect(p, c, start, 1.0);
            }
            Phase::Swap => {
                to.fill_rect(p, PHASE_SWAP, whole, 1.0);
                for r in game.fresh_pieces() {
                    to.fill_rect(p, FRESH, r, 1.0);
                }
                if let Some(r) = game.swapper_piece() {
                    to.fill_rect(p, SWAPPER, r, 1.0);
                }
            }
            Phase::Over => {}
        }
        if me == Color::Black {
            to.fill_rect(p, BLACK_DECIDES, whole, 1.0);
        }
        to.fill_rect(p, ONES, whole, 1.0);
    }
}
