//! The 8 symmetries of the square on Crumble's positions, complete moves and decisions.
//!
//! A [`Sym`] maps a grid point `(x, y)`, `0 <= x, y <= G`, by an optional transpose
//! `(x, y) -> (y, x)` followed by optional mirrors `x -> G - x` and `y -> G - y`. A piece (a
//! rectangle) maps to the rectangle spanned by its mapped corners, a unit cell likewise, a step
//! direction to the mapped direction. Every rule of Crumble is invariant under these maps: a
//! position and its image have the same legal *complete* moves, mapped. So all 8 are exact
//! for every position between turns ([`image`], [`image_turn`]: the game interface's
//! symmetries); the encoder maps its planes with the same numbering.
//!
//! # Exactness per (phase, transform)
//!
//! Decisions are anchored at a piece's lower-left cell and splits run from their *first*
//! piece (leftmost for `H`, lowest for `V`). A transform that mirrors the axis a split runs
//! along turns its first piece into its last, and one that mirrors either axis turns a join
//! outline's lower-left corner into another corner. So, for a state `s` and a transform `T`:
//!
//! | phase | transforms that are exact decision by decision | otherwise |
//! | --- | --- | --- |
//! | swap | all 8 | — |
//! | choose | all 8 **on complete (choose, extent) pairs** ([`map_base`]): the legal pairs of `T(s)` are the mapped legal pairs of `s` | single choose decisions: only transforms keeping the direction of that split / the join corner ([`map_decision`] returns `None` otherwise) |
//! | extent, pending split `H` | `T` with `T(+x)` in {`+x`, `+y`}: identity, mirror y, transpose, rotate 90° anticlockwise | — (the image state would have to start the cut at its other end: it does not exist) |
//! | extent, pending split `V` | `T` with `T(+y)` in {`+x`, `+y`}: identity, mirror x, transpose, rotate 90° clockwise | — |
//! | extent, pending join | identity, transpose | — |
//!
//! "Exact" means: the legal decisions of `T(s)` are exactly the mapped legal decisions of
//! `s`. The encoder's tests also check that rasterising commutes with `T`, and the generic
//! conformance test that playing then mapping equals mapping then playing, turn by turn.

use crate::Decision;
use crate::game::GameState as _;
use crate::game::symmetry::numbered;
use crate::games::crumble::{ChoiceKind, Crumble, Cut, DecisionKind, Dir, Phase, Rect};

/// One of the 8 symmetries: transpose first (bit 2), then mirror x (bit 0), mirror y (bit 1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Sym(u8);

impl Sym {
    pub const IDENTITY: Sym = Sym(0);
    /// `x -> G - x` (west and east swap).
    pub const MIRROR_X: Sym = Sym(1);
    /// `y -> G - y` (south and north swap).
    pub const MIRROR_Y: Sym = Sym(2);
    pub const ROT180: Sym = Sym(3);
    pub const TRANSPOSE: Sym = Sym(4);
    /// `(x, y) -> (G - y, x)`: rotation by 90° anticlockwise.
    pub const ROT90: Sym = Sym(5);
    /// `(x, y) -> (y, G - x)`: rotation by 90° clockwise.
    pub const ROT270: Sym = Sym(6);
    /// `(x, y) -> (G - y, G - x)`.
    pub const ANTI_TRANSPOSE: Sym = Sym(7);

    pub const ALL: [Sym; 8] = numbered!(Sym; 8);

    /// The symmetry with index `i` (`0..8`, the order of [`Sym::ALL`]).
    pub fn from_index(i: usize) -> Option<Sym> {
        (i < 8).then_some(Sym(i as u8))
    }
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
    pub fn transposes(self) -> bool {
        self.0 & 4 != 0
    }
    fn mirror_x(self) -> bool {
        self.0 & 1 != 0
    }
    fn mirror_y(self) -> bool {
        self.0 & 2 != 0
    }
    pub fn name(self) -> &'static str {
        [
            "identity",
            "mirror-x",
            "mirror-y",
            "rot180",
            "transpose",
            "rot90",
            "rot270",
            "anti-transpose",
        ][self.index()]
    }

    /// The inverse transform.
    pub fn inverse(self) -> Sym {
        if self.transposes() {
            // (F∘S)⁻¹ = S∘F = F'∘S with the mirrors exchanged.
            Sym(4 | (self.0 & 1) << 1 | (self.0 & 2) >> 1)
        } else {
            self
        }
    }

    /// Maps a grid point `(x, y)` with `0 <= x, y <= g`.
    #[inline]
    pub fn point(self, x: u16, y: u16, g: u16) -> (u16, u16) {
        let (mut x, mut y) = if self.transposes() { (y, x) } else { (x, y) };
        if self.mirror_x() {
            x = g - x;
        }
        if self.mirror_y() {
            y = g - y;
        }
        (x, y)
    }

    /// Maps a unit cell `(x, y)` with `0 <= x, y < g`.
    #[inline]
    pub fn cell(self, x: u16, y: u16, g: u16) -> (u16, u16) {
        let r = self.rect(Rect::new(x, y, 1, 1), g);
        (r.x, r.y)
    }

    /// Maps a rectangle.
    #[inline]
    pub fn rect(self, r: Rect, g: u16) -> Rect {
        let (ax, ay) = self.point(r.x, r.y, g);
        let (bx, by) = self.point(r.right(), r.top(), g);
        Rect::new(ax.min(bx), ay.min(by), ax.abs_diff(bx), ay.abs_diff(by))
    }

    /// Maps a unit vector `(dx, dy)`.
    #[inline]
    pub fn vector(self, dx: i8, dy: i8) -> (i8, i8) {
        let (mut dx, mut dy) = if self.transposes() {
            (dy, dx)
        } else {
            (dx, dy)
        };
        if self.mirror_x() {
            dx = -dx;
        }
        if self.mirror_y() {
            dy = -dy;
        }
        (dx, dy)
    }

    /// Maps a step direction.
    pub fn dir(self, d: Dir) -> Dir {
        let v = match d {
            Dir::N => (0, 1),
            Dir::E => (1, 0),
            Dir::S => (0, -1),
            Dir::W => (-1, 0),
        };
        match self.vector(v.0, v.1) {
            (0, 1) => Dir::N,
            (1, 0) => Dir::E,
            (0, -1) => Dir::S,
            _ => Dir::W,
        }
    }

    /// Maps a cut line (a transpose turns horizontal cuts into vertical ones).
    pub fn cut(self, c: Cut) -> Cut {
        match (c, self.transposes()) {
            (Cut::H, false) | (Cut::V, true) => Cut::H,
            _ => Cut::V,
        }
    }

    /// Does the run of a split along `cut` keep its direction (first piece stays first)?
    pub fn keeps_run(self, cut: Cut) -> bool {
        let (dx, dy) = match cut {
            Cut::H => self.vector(1, 0),
            Cut::V => self.vector(0, 1),
        };
        dx + dy > 0
    }

    /// Does a join outline's lower-left corner stay lower-left (identity, transpose)?
    pub fn keeps_join(self) -> bool {
        !self.mirror_x() && !self.mirror_y()
    }
}

/// The rectangle of the piece whose lower-left cell is `(x, y)`.
fn piece_at_corner(game: &Crumble, x: u16, y: u16) -> Option<Rect> {
    game.board().piece_with_corner(x, y).map(|p| p.rect)
}

/// Maps one decision of `game` (legal or not, but anchored at a piece of `game` where it
/// needs one) to the decision of the transformed state, when that is exact decision by
/// decision (see the module docs); `None` otherwise or when no piece is at its anchor.
pub fn map_decision(game: &Crumble, d: Decision, sym: Sym) -> Option<Decision> {
    let g = game.grid_size();
    let kind = d.decode(g)?;
    let ll = |r: Rect| {
        let t = sym.rect(r, g);
        (t.x, t.y)
    };
    let k = match (kind, game.phase()) {
        (DecisionKind::Stop, _) => DecisionKind::Stop,
        (DecisionKind::Step { dir, x, y }, _) => {
            let (x, y) = ll(piece_at_corner(game, x, y)?);
            DecisionKind::Step {
                dir: sym.dir(dir),
                x,
                y,
            }
        }
        (DecisionKind::Split { cut, x, y }, _) => {
            if !sym.keeps_run(cut) {
                return None;
            }
            let (x, y) = ll(piece_at_corner(game, x, y)?);
            DecisionKind::Split {
                cut: sym.cut(cut),
                x,
                y,
            }
        }
        (DecisionKind::Join { x, y }, _) => {
            if !sym.keeps_join() {
                return None;
            }
            let (x, y) = ll(piece_at_corner(game, x, y)?);
            DecisionKind::Join { x, y }
        }
        (
            DecisionKind::End { x, y },
            Phase::Extent {
                kind: ChoiceKind::Split(cut),
                ..
            },
        ) => {
            if !sym.keeps_run(cut) {
                return None;
            }
            let (x, y) = ll(piece_at_corner(game, x, y)?);
            DecisionKind::End { x, y }
        }
        (
            DecisionKind::End { x, y },
            Phase::Extent {
                kind: ChoiceKind::Join,
                ..
            },
        ) => {
            if !sym.keeps_join() {
                return None;
            }
            let (x, y) = sym.cell(x, y, g);
            DecisionKind::End { x, y }
        }
        (DecisionKind::End { .. }, _) => return None,
    };
    Some(Decision::encode(k, g))
}

/// Maps a complete (choose, extent) pair of a turn-start state of `game` to the pair of the
/// transformed state. Exact for all 8 transforms. `None` when the pair does not decode to a
/// split or join anchored at pieces of `game`.
pub fn map_base(
    game: &Crumble,
    choose: Decision,
    extent: Decision,
    sym: Sym,
) -> Option<(Decision, Decision)> {
    let g = game.grid_size();
    let DecisionKind::End { x: ex, y: ey } = extent.decode(g)? else {
        return None;
    };
    match choose.decode(g)? {
        DecisionKind::Split { cut, x, y } => {
            let a = sym.rect(piece_at_corner(game, x, y)?, g);
            let b = sym.rect(piece_at_corner(game, ex, ey)?, g);
            let cut2 = sym.cut(cut);
            let a_first = match cut2 {
                Cut::H => a.x <= b.x,
                Cut::V => a.y <= b.y,
            };
            let (first, last) = if a_first { (a, b) } else { (b, a) };
            Some((
                Decision::encode(
                    DecisionKind::Split {
                        cut: cut2,
                        x: first.x,
                        y: first.y,
                    },
                    g,
                ),
                Decision::encode(
                    DecisionKind::End {
                        x: last.x,
                        y: last.y,
                    },
                    g,
                ),
            ))
        }
        DecisionKind::Join { x, y } => {
            if ex < x || ey < y {
                return None;
            }
            let o = sym.rect(Rect::new(x, y, ex + 1 - x, ey + 1 - y), g);
            Some((
                Decision::encode(DecisionKind::Join { x: o.x, y: o.y }, g),
                Decision::encode(
                    DecisionKind::End {
                        x: o.right() - 1,
                        y: o.top() - 1,
                    },
                    g,
                ),
            ))
        }
        _ => None,
    }
}

/// The transforms exact decision by decision in this state (see the module docs); always
/// contains the identity. For a turn-start state this lists all 8: its targets are mapped
/// through the joint distribution.
pub fn exact_syms(game: &Crumble) -> Vec<Sym> {
    match game.phase() {
        Phase::Extent {
            kind: ChoiceKind::Split(cut),
            ..
        } => Sym::ALL.into_iter().filter(|s| s.keeps_run(cut)).collect(),
        Phase::Extent {
            kind: ChoiceKind::Join,
            ..
        } => Sym::ALL.into_iter().filter(|s| s.keeps_join()).collect(),
        _ => Sym::ALL.to_vec(),
    }
}

/// Every legal complete (choose, extent) pair of a turn-start state, sorted.
pub fn legal_bases(game: &Crumble) -> Vec<(Decision, Decision)> {
    let mut out = Vec::new();
    if !game.at_turn_start() || game.is_over() {
        return out;
    }
    let mut g = game.clone();
    for c in g.legal_decisions() {
        let mut h = game.clone();
        h.apply_unchecked(c);
        for e in h.legal_decisions() {
            out.push((c, e));
        }
    }
    out.sort_unstable();
    out
}

/// The image of a position between turns (or of a finished game) under `sym`: pieces and
/// the draw rule's window mapped, the player to move, turn count, turn limit and result kept;
/// `None` within a turn (the game interface maps positions between turns only).
pub fn image(game: &Crumble, sym: Sym) -> Option<Crumble> {
    let g = game.grid_size();
    game.mapped(&|r| sym.rect(r, g))
}

/// The image under `sym` of the complete turn `turn` (its decisions, from the turn start
/// `game`): the decisions of the mapped turn in [`image`]`(game, sym)`. `None` when `game` is
/// not at a turn start or `turn` is not a legal complete turn of it.
pub fn image_turn(game: &Crumble, sym: Sym, turn: &[Decision]) -> Option<Vec<Decision>> {
    if !game.at_turn_start() {
        return None;
    }
    let (&c, &e) = (turn.first()?, turn.get(1)?);
    let (c2, e2) = map_base(game, c, e, sym)?;
    let mut out = vec![c2, e2];
    let mut s = game.clone();
    s.apply(c).ok()?;
    s.apply(e).ok()?;
    for &d in &turn[2..] {
        // Swap steps and stop map one by one under all 8 (the module docs' table).
        if s.at_turn_start() || s.is_over() {
            return None;
        }
        out.push(map_decision(&s, d, sym)?);
        s.apply(d).ok()?;
    }
    (s.at_turn_start() || s.is_over()).then_some(out)
}
