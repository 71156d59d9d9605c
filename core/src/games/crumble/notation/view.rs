//! The writer's view: the position rotated into the frame a move is written in, with the
//! corner and boundary maps that staircase positions and join extents count on.

use super::*;

/// The position seen from the writer's frame, with the boundary and corner maps that staircase
/// positions and join extents count on.
#[derive(Debug)]
pub struct View {
    pub(super) game: Crumble,
    rotated: bool,
    pub(super) g: u16,
    /// `corner[y * (g+1) + x]`: the grid point is a corner of some piece.
    corner: Vec<bool>,
    /// Canonical staircase of each point, computed on first use.
    stairs: Option<Vec<Option<Vec<u32>>>>,
}

impl View {
    /// The view of the player to move in `frame`.
    pub fn new(game: &Crumble, frame: Frame) -> View {
        let rotated = frame.rotates_for(game.to_move());
        let b = game.board();
        let g = b.grid_size();
        let vgame = if rotated {
            let pieces: Vec<Piece> = b
                .sorted_pieces()
                .into_iter()
                .map(|p| Piece {
                    rect: p.rect.rotated(g),
                    color: p.color,
                })
                .collect();
            let board = Board::from_valid_pieces(b.board_size(), b.resolution(), &pieces);
            Crumble::from_board(board, game.to_move(), game.outcome())
        } else {
            game.clone()
        };
        let gp = usize::from(g) + 1;
        let mut corner = vec![false; gp * gp];
        for p in vgame.board().sorted_pieces() {
            let r = p.rect;
            for (x, y) in [
                (r.x, r.y),
                (r.right(), r.y),
                (r.x, r.top()),
                (r.right(), r.top()),
            ] {
                corner[usize::from(y) * gp + usize::from(x)] = true;
            }
        }
        View {
            game: vgame,
            rotated,
            g,
            corner,
            stairs: None,
        }
    }

    #[inline]
    fn is_corner(&self, x: u16, y: u16) -> bool {
        self.corner[usize::from(y) * (usize::from(self.g) + 1) + usize::from(x)]
    }
    /// The unit segment from `(x, y)` to `(x+1, y)` lies on a piece side or the board edge.
    #[inline]
    fn h_open(&self, x: u16, y: u16) -> bool {
        let b = self.game.board();
        y == 0 || y == self.g || b.slot_at(x, y) != b.slot_at(x, y - 1)
    }
    /// The unit segment from `(x, y)` to `(x, y+1)` lies on a piece side or the board edge.
    #[inline]
    fn v_open(&self, x: u16, y: u16) -> bool {
        let b = self.game.board();
        x == 0 || x == self.g || b.slot_at(x, y) != b.slot_at(x - 1, y)
    }

    /// Walks `n` intersections from `(x, y)` rightwards or upwards along piece sides; `None`
    /// if the walk leaves the board or would cross the inside of a piece first.
    pub(super) fn walk(&self, (mut x, mut y): (u16, u16), up: bool, n: u32) -> Option<(u16, u16)> {
        let mut seen = 0;
        while seen < n {
            if up {
                if y >= self.g || !self.v_open(x, y) {
                    return None;
                }
                y += 1;
            } else {
                if x >= self.g || !self.h_open(x, y) {
                    return None;
                }
                x += 1;
            }
            if self.is_corner(x, y) {
                seen += 1;
            }
        }
        Some((x, y))
    }

    /// Intersections between `(x, y)` and the point `len` units further right or up.
    pub(super) fn count(&self, (x, y): (u16, u16), up: bool, len: u16) -> u32 {
        (1..=len)
            .filter(|&d| {
                if up {
                    self.is_corner(x, y + d)
                } else {
                    self.is_corner(x + d, y)
                }
            })
            .count() as u32
    }

    /// Canonical staircase (rule 6.1 Decision) of every point, by layers of path length: the
    /// first layer that reaches a point has the fewest numbers; within a layer the label with
    /// the smallest sum, then the smallest sequence, wins, and both orders are kept by
    /// extending paths, so the best label of each point per layer suffices.
    fn stairs(&mut self) -> &Vec<Option<Vec<u32>>> {
        if self.stairs.is_none() {
            let gp = usize::from(self.g) + 1;
            let mut best: Vec<Option<Vec<u32>>> = vec![None; gp * gp];
            let mut layer: Vec<Option<(u32, Vec<u32>)>> = vec![None; gp * gp];
            layer[0] = Some((0, vec![0]));
            // Layer 1: rightwards from the origin, the only move that may be 0.
            let mut n = 0;
            let mut p = (0u16, 0u16);
            while let Some(q) = self.walk(p, false, 1) {
                n += 1;
                layer[usize::from(q.1) * gp + usize::from(q.0)] = Some((n, vec![n]));
                p = q;
            }
            let mut remaining =
                self.corner.iter().filter(|&&c| c).count() + usize::from(!self.corner[0]);
            let mut up = true;
            for _ in 0..(4 * usize::from(self.g) + 4) {
                let mut any = false;
                for (i, l) in layer.iter().enumerate() {
                    if let Some((_, seq)) = l {
                        any = true;
                        if best[i].is_none() {
                            best[i] = Some(seq.clone());
                            remaining -= 1;
                        }
                    }
                }
                if !any || remaining == 0 {
                    break;
                }
                let mut next: Vec<Option<(u32, Vec<u32>)>> = vec![None; gp * gp];
                for (i, l) in layer.iter().enumerate() {
                    let Some((sum, seq)) = l else { continue };
                    let mut p = ((i % gp) as u16, (i / gp) as u16);
                    let mut k = 0;
                    while let Some(q) = self.walk(p, up, 1) {
                        k += 1;
                        p = q;
                        let j = usize::from(q.1) * gp + usize::from(q.0);
                        let cand_sum = sum + k;
                        let better = match &next[j] {
                            None => true,
                            Some((s2, q2)) => {
                                cand_sum < *s2
                                    || (cand_sum == *s2 && seq.iter().chain([&k]).lt(q2.iter()))
                            }
                        };
                        if better {
                            let mut s = seq.clone();
                            s.push(k);
                            next[j] = Some((cand_sum, s));
                        }
                    }
                }
                layer = next;
                up = !up;
            }
            self.stairs = Some(best);
        }
        self.stairs.as_ref().unwrap()
    }

    pub(super) fn staircase_of(&mut self, (x, y): (u16, u16)) -> String {
        let gp = usize::from(self.g) + 1;
        match &self.stairs()[usize::from(y) * gp + usize::from(x)] {
            Some(seq) => seq
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(","),
            None => fraction_of(self.g, x, y), // unreachable in a valid tiling; never lose the move
        }
    }

    /// Rotation by 180° is its own inverse: this maps view to absolute and back.
    fn to_abs(&self, r: Rect) -> Rect {
        if self.rotated { r.rotated(self.g) } else { r }
    }
    fn dir_to(&self, d: Dir) -> Dir {
        if self.rotated { d.opposite() } else { d }
    }

    /// Converts a move between the absolute frame and this view (`to_view` chooses the
    /// direction); `src` is the game in the move's current frame.
    pub(super) fn convert(&self, src: &Crumble, mv: &Move) -> Option<Move> {
        if !self.rotated {
            return Some(mv.clone());
        }
        let base = match mv.base {
            Base::Split { cut, first, count } => {
                let pieces = src.split_pieces(cut, first, count).ok()?;
                Base::Split {
                    cut,
                    first: self.to_abs(*pieces.last()?),
                    count,
                }
            }
            Base::Join { outline } => Base::Join {
                outline: self.to_abs(outline),
            },
        };
        let swap = mv.swap.as_ref().map(|s| Swap {
            from: self.to_abs(s.from),
            steps: s.steps.iter().map(|&d| self.dir_to(d)).collect(),
        });
        Some(Move { base, swap })
    }
}

pub(super) fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

pub(super) fn fraction(g: u16, v: u16) -> String {
    if v == 0 {
        return "0".into();
    }
    let d = gcd(u32::from(v), u32::from(g));
    format!("{}/{}", u32::from(v) / d, u32::from(g) / d)
}

pub(super) fn fraction_of(g: u16, x: u16, y: u16) -> String {
    if y == 0 {
        fraction(g, x)
    } else {
        format!("{},{}", fraction(g, x), fraction(g, y))
    }
}

pub(super) fn view_to_abs(view: &View, game: &Crumble, vm: &Move) -> Move {
    let _ = game;
    view.convert(&view.game, vm)
        .expect("a move legal in the view converts")
}

/// The move `mv` (absolute) as seen in the writer's view of `game` in `frame`; for tests.
pub fn to_view_move(game: &Crumble, mv: &Move, frame: Frame) -> Option<Move> {
    let view = View::new(game, frame);
    view.convert(game, mv)
}
