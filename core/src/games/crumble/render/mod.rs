//! Pictures of a position: [`term`] draws it for a terminal (colour or plain ASCII), [`svg`]
//! as a scalable SVG image. Both return a `String` (core does no I/O), draw the board from a
//! chosen player's side (White's view is rotated by 180°, as in the per-player notation
//! frame), label the edges with the notation's coordinates, and can highlight the last move.
//!
//! **Coordinates on the edges.** A notation position is a staircase of intersection counts
//! (RULES.md 6.1) from the writer's lower-left corner. Along the bottom edge the labels are
//! the counts `a` of the positions `a` (the corners met walking right from the origin), along
//! the left edge the counts `b` of the positions `0,b` (walking up). At the standard start they
//! are the cell numbers 0 to N.

pub mod html;
pub mod svg;
pub mod term;

use crate::game::Color;
use crate::games::crumble::game::Crumble;
use crate::games::crumble::geom::{Cut, Dir, Piece, Rect};
use crate::games::crumble::moves::{Base, Move};
use crate::render::picture::{LastMove, PictureStyle, Pictures};

/// What the last move did, in the absolute frame, for highlighting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Highlight {
    /// The split's cut line or the join's outline.
    pub base: BaseMark,
    /// The fresh pieces (the split halves or the joined piece).
    pub fresh: Vec<Rect>,
    /// The swap path: the fresh piece that started it, then every target in order; empty
    /// without a swap.
    pub path: Vec<Rect>,
    /// The step directions (absolute), one per target.
    pub steps: Vec<Dir>,
}

/// The base of the last move as a picture shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseMark {
    /// A cut line from one grid point to another (absolute frame).
    Cut { from: (u16, u16), to: (u16, u16) },
    /// A join outline.
    Outline(Rect),
}

impl Highlight {
    /// The highlight of `mv` played in `before` (a turn start); `None` if it is not legal.
    pub fn of(before: &Crumble, mv: &Move) -> Option<Highlight> {
        let (base, fresh) = match mv.base {
            Base::Split { cut, first, count } => {
                let pieces = before.split_pieces(cut, first, count).ok()?;
                let last = *pieces.last()?;
                let mark = match cut {
                    Cut::H => {
                        let y = first.h_midline()?;
                        BaseMark::Cut {
                            from: (first.x, y),
                            to: (last.right(), y),
                        }
                    }
                    Cut::V => {
                        let x = first.v_midline()?;
                        BaseMark::Cut {
                            from: (x, first.y),
                            to: (x, last.top()),
                        }
                    }
                };
                let fresh = pieces
                    .iter()
                    .flat_map(|p| {
                        let (a, b) = p.halves(cut);
                        [a, b]
                    })
                    .collect();
                (mark, fresh)
            }
            Base::Join { outline } => (BaseMark::Outline(outline), vec![outline]),
        };
        let mut after_base = before.clone();
        after_base
            .play_move(&Move {
                base: mv.base,
                swap: None,
            })
            .ok()?;
        let b = after_base.board();
        let g = b.grid_size();
        let mut path = Vec::new();
        let mut steps = Vec::new();
        if let Some(swap) = &mv.swap {
            let mut at = swap.from;
            path.push(at);
            for &d in &swap.steps {
                let (x, y) = at.beside(d, g)?;
                at = b.piece_at(x, y).rect;
                path.push(at);
                steps.push(d);
            }
        }
        Some(Highlight {
            base,
            fresh,
            path,
            steps,
        })
    }

    /// The same highlight seen from `view`'s side of a `g`-unit board.
    fn in_view(&self, view: Color, g: u16) -> Highlight {
        if view == Color::Black {
            return self.clone();
        }
        let p = |(x, y): (u16, u16)| (g - x, g - y);
        let base = match self.base {
            BaseMark::Cut { from, to } => BaseMark::Cut {
                from: p(to),
                to: p(from),
            },
            BaseMark::Outline(r) => BaseMark::Outline(r.rotated(g)),
        };
        Highlight {
            base,
            fresh: self.fresh.iter().map(|r| r.rotated(g)).collect(),
            path: self.path.iter().map(|r| r.rotated(g)).collect(),
            steps: self.steps.iter().map(|d| d.opposite()).collect(),
        }
    }
}

/// The pieces as `view` sees them (rotated by 180° for White), sorted by `(y, x)`.
fn view_pieces(game: &Crumble, view: Color) -> Vec<Piece> {
    let g = game.grid_size();
    let mut v: Vec<Piece> = game
        .board()
        .sorted_pieces()
        .into_iter()
        .map(|p| {
            if view == Color::White {
                Piece {
                    rect: p.rect.rotated(g),
                    color: p.color,
                }
            } else {
                p
            }
        })
        .collect();
    v.sort_unstable_by_key(|p| (p.rect.y, p.rect.x));
    v
}

/// Labels along one edge: (coordinate in grid units, intersection count).
type Labels = Vec<(u16, u32)>;

/// Edge labels in view coordinates: `(x, count)` along the bottom edge and `(y, count)` along
/// the left edge, the origin included with count 0.
fn edge_labels(pieces: &[Piece]) -> (Labels, Labels) {
    let mut xs: Vec<u16> = pieces
        .iter()
        .filter(|p| p.rect.y == 0)
        .flat_map(|p| [p.rect.x, p.rect.right()])
        .collect();
    let mut ys: Vec<u16> = pieces
        .iter()
        .filter(|p| p.rect.x == 0)
        .flat_map(|p| [p.rect.y, p.rect.top()])
        .collect();
    xs.sort_unstable();
    xs.dedup();
    ys.sort_unstable();
    ys.dedup();
    (
        xs.into_iter().zip(0..).collect(),
        ys.into_iter().zip(0..).collect(),
    )
}

/// One line saying whose turn it is or how the game ended, e.g. `Black to move (turn 3)` or
/// `1-0: Black wins (four-sides)`.
pub fn status_line(game: &Crumble) -> String {
    match game.outcome() {
        Some(o) => format!(
            "{}: {}",
            crate::game::record::result_token(o.winner),
            Pictures::status_line(game)
        ),
        None => Pictures::status_line(game),
    }
}

impl Pictures for Crumble {
    fn term_picture(&self, last: LastMove<'_, Crumble>, style: &PictureStyle) -> String {
        term::render(self, &style.with_highlight(highlight(last)))
    }

    fn svg_picture(&self, last: LastMove<'_, Crumble>, style: &PictureStyle) -> Option<String> {
        Some(svg::render(self, &style.with_highlight(highlight(last))))
    }
}

/// The highlight of the last move, when it is one whole move.
fn highlight(last: LastMove<'_, Crumble>) -> Option<Highlight> {
    let (before, turn) = last?;
    Highlight::of(before, &before.move_from_decisions(turn).ok()?)
}
