//! The symmetries of rule 11: maps of the board onto itself (4 on a `W × H` board, 8 on a
//! square one), acting on squares, directions, positions and decisions; and the colour
//! exchange of rule 11.3.

use super::board::{Board, Dir, Piece, Square, SquareSet};
use super::game::{Action, LastMove, Outcome, Splinter};
use super::moves::SplinterMove;
use crate::game::Decision;

/// A map of the board onto itself.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Symmetry {
    Identity,
    /// `x → W − 1 − x`.
    FlipLeftRight,
    /// `y → H − 1 − y`.
    FlipUpDown,
    Rotate180,
    /// `(x, y) → (y, x)` (square boards only).
    Transpose,
    /// `(x, y) → (N − 1 − y, N − 1 − x)` (square boards only).
    AntiTranspose,
    /// A quarter turn anticlockwise: `(x, y) → (N − 1 − y, x)` (square boards only).
    Rotate90,
    /// `(x, y) → (y, N − 1 − x)` (square boards only).
    Rotate270,
}

impl Symmetry {
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipLeftRight,
        Symmetry::FlipUpDown,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// The maps of a `W × H` board (rule 11.1): 4, or 8 when it is square.
    pub fn of_board(width: u8, height: u8) -> &'static [Symmetry] {
        if width == height {
            &Symmetry::ALL
        } else {
            &Symmetry::ALL[..4]
        }
    }

    /// The image of a vector `(dx, dy)` (the linear part of the map).
    fn vector(self, dx: i32, dy: i32) -> (i32, i32) {
        match self {
            Symmetry::Identity => (dx, dy),
            Symmetry::FlipLeftRight => (-dx, dy),
            Symmetry::FlipUpDown => (dx, -dy),
            Symmetry::Rotate180 => (-dx, -dy),
            Symmetry::Transpose => (dy, dx),
            Symmetry::AntiTranspose => (-dy, -dx),
            Symmetry::Rotate90 => (-dy, dx),
            Symmetry::Rotate270 => (dy, -dx),
        }
    }

    pub fn dir(self, d: Dir) -> Dir {
        let (dx, dy) = d.delta();
        let (x, y) = self.vector(dx, dy);
        Dir::from_delta(x, y).expect("a map sends directions to directions")
    }

    /// The image of a square of `board` (whose map must be one of `of_board`).
    pub fn square(self, board: &Board, s: Square) -> Square {
        let (x, y) = board.xy(s);
        let (nx, ny) = self.xy(board.width(), board.height(), x, y);
        board.square(nx, ny)
    }

    /// The image of the square at `(x, y)` of a `width × height` board (whose map must be
    /// one of `of_board`), as coordinates.
    pub fn xy(self, width: u8, height: u8, x: u8, y: u8) -> (u8, u8) {
        let (w, h) = (width - 1, height - 1);
        match self {
            Symmetry::Identity => (x, y),
            Symmetry::FlipLeftRight => (w - x, y),
            Symmetry::FlipUpDown => (x, h - y),
            Symmetry::Rotate180 => (w - x, h - y),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (h - y, w - x),
            Symmetry::Rotate90 => (h - y, x),
            Symmetry::Rotate270 => (y, w - x),
        }
    }

    fn board(self, board: &Board) -> Board {
        let mut out = Board::empty(board.width(), board.height());
        for (s, p) in board.pieces() {
            out.put(self.square(board, s), Some(p));
        }
        out
    }

    fn set(self, board: &Board, set: &SquareSet) -> SquareSet {
        let mut out = SquareSet::default();
        for s in set.iter() {
            out.insert(self.square(board, s));
        }
        out
    }

    /// The image of a position between turns (rule 11.1): pieces, `last_move`'s squares and
    /// direction; the player to move, result and turn counts unchanged.
    pub fn position(self, game: &Splinter) -> Splinter {
        debug_assert!(!game.is_pending(), "a position exists only between turns");
        let b = game.board();
        let last = game.last_move().map(|l| LastMove {
            dir: self.dir(l.dir),
            moved: self.set(b, &l.moved),
        });
        game.rebuilt(self.board(b), game.to_move(), last, game.outcome())
    }

    /// The image of a decision legal in `game`. A `Keep` maps to the image group's anchor,
    /// recomputed (rule 11.2).
    pub fn decision(self, game: &Splinter, d: Decision) -> Decision {
        let b = game.board();
        match game.decode(d).expect("a decision of the action space") {
            Action::Move { from, dir } => game.encode(Action::Move {
                from: self.square(b, from),
                dir: self.dir(dir),
            }),
            Action::Keep { square } => {
                let groups = b.groups();
                let g = groups.label[usize::from(square)];
                let anchor = (0..b.square_count() as Square)
                    .filter(|&s| groups.label[usize::from(s)] == g)
                    .map(|s| self.square(b, s))
                    .min()
                    .expect("a group has a square");
                game.encode(Action::Keep { square: anchor })
            }
        }
    }

    /// The image of a legal complete move of `game`, in canonical form.
    pub fn complete_move(self, game: &Splinter, mv: &SplinterMove) -> SplinterMove {
        let b = game.board();
        let mapped = SplinterMove {
            from: self.square(b, mv.from),
            dir: self.dir(mv.dir),
            keep: None,
        };
        let Some(keep) = mv.keep else {
            return mapped;
        };
        // The kept group's squares after the push, mapped; its new anchor is their minimum.
        let mut after = b.clone();
        if after.push(mv.from, mv.dir).is_none() {
            return mapped;
        }
        let groups = after.groups();
        let g = groups.label[usize::from(keep)];
        let anchor = (0..after.square_count() as Square)
            .filter(|&s| groups.label[usize::from(s)] == g)
            .map(|s| self.square(&after, s))
            .min();
        SplinterMove {
            keep: anchor,
            ..mapped
        }
    }
}

/// The position with the colours of all pieces, the player to move and the winner exchanged
/// (rule 11.3).
pub fn swap_colors(game: &Splinter) -> Splinter {
    debug_assert!(!game.is_pending(), "a position exists only between turns");
    let b = game.board();
    let mut out = Board::empty(b.width(), b.height());
    for (s, p) in b.pieces() {
        out.put(
            s,
            Some(Piece {
                color: p.color.opposite(),
                ..p
            }),
        );
    }
    let result = game.outcome().map(|o| Outcome {
        winner: o.winner.map(|c| c.opposite()),
        ..o
    });
    game.rebuilt(
        out,
        game.to_move().opposite(),
        game.last_move().copied(),
        result,
    )
}
