//! Complete moves (a split or join plus an optional swap), in the absolute frame, and their
//! one-to-one correspondence with decision paths.

use crate::game::Decision;
use crate::game::GameState as _;
use crate::games::crumble::decision::DecisionKind;
use crate::games::crumble::error::MoveError;
use crate::games::crumble::game::{ChoiceKind, Crumble, Phase};
use crate::games::crumble::geom::{Cut, Dir, Rect};

/// The split or join that starts every turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Base {
    /// One straight cut through `count` pieces, the first being `first` (leftmost for `H`,
    /// lowest for `V`, absolute frame).
    Split { cut: Cut, first: Rect, count: u16 },
    /// Join of every piece inside `outline`.
    Join { outline: Rect },
}

/// A swap: the fresh piece that starts it, and its steps.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Swap {
    pub from: Rect,
    pub steps: Vec<Dir>,
}

/// A complete turn.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move {
    pub base: Base,
    pub swap: Option<Swap>,
}

impl Crumble {
    /// The pieces of a split of `count` pieces starting at `first`, in order along the cut,
    /// or why there is no such split for the player to move.
    pub fn split_pieces(&self, cut: Cut, first: Rect, count: u16) -> Result<Vec<Rect>, MoveError> {
        let b = self.board();
        let p = b
            .piece_with_corner(first.x, first.y)
            .filter(|p| p.rect == first);
        let Some(p) = p else {
            return Err(MoveError::NoPieceAt(format!("({}, {})", first.x, first.y)));
        };
        if p.color != self.to_move() {
            return Err(MoveError::IllegalSplit(format!(
                "the piece {first} belongs to {}",
                p.color
            )));
        }
        let Some(c) = first.midline(cut) else {
            return Err(MoveError::IllegalSplit(format!(
                "the piece {first} has no legal {} cut on the grid",
                if cut == Cut::H {
                    "horizontal"
                } else {
                    "vertical"
                }
            )));
        };
        let mut out = vec![first];
        let mut slot = self
            .board()
            .slot_with_corner(first.x, first.y)
            .expect("piece found above");
        while out.len() < usize::from(count) {
            let r = b.rect(slot);
            let end = if cut == Cut::H { r.right() } else { r.top() };
            match Crumble::run_next(b, cut, c, end, self.to_move()) {
                Some(n) => {
                    slot = n;
                    out.push(b.rect(n));
                }
                None => {
                    return Err(MoveError::IllegalSplit(format!(
                        "the cut from {first} reaches only {} of the player's pieces before an edge or a piece it cannot split",
                        out.len()
                    )));
                }
            }
        }
        Ok(out)
    }

    /// The decision path of a complete move, checked step by step; the game is unchanged.
    pub fn move_decisions(&self, mv: &Move) -> Result<Vec<Decision>, MoveError> {
        let mut g = self.clone();
        let path = g.play_move_inner(mv)?;
        Ok(path)
    }

    /// Plays a complete move (checked); on error the game is unchanged. Returns the path.
    pub fn play_move(&mut self, mv: &Move) -> Result<Vec<Decision>, MoveError> {
        let mut g = self.clone();
        let path = g.play_move_inner(mv)?;
        *self = g;
        Ok(path)
    }

    fn play_move_inner(&mut self, mv: &Move) -> Result<Vec<Decision>, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if !self.at_turn_start() {
            return Err(MoveError::MidTurn);
        }
        let gs = self.grid_size();
        let turn = self.turns_played();
        let mut path = Vec::with_capacity(4);
        match mv.base {
            Base::Split { cut, first, count } => {
                if count == 0 {
                    return Err(MoveError::IllegalSplit(
                        "a split cuts at least one piece".into(),
                    ));
                }
                let pieces = self.split_pieces(cut, first, count)?;
                let last = *pieces.last().expect("count >= 1");
                path.push(Decision::encode(
                    DecisionKind::Split {
                        cut,
                        x: first.x,
                        y: first.y,
                    },
                    gs,
                ));
                path.push(Decision::encode(
                    DecisionKind::End {
                        x: last.x,
                        y: last.y,
                    },
                    gs,
                ));
            }
            Base::Join { outline } => {
                self.check_join(outline)?;
                path.push(Decision::encode(
                    DecisionKind::Join {
                        x: outline.x,
                        y: outline.y,
                    },
                    gs,
                ));
                path.push(Decision::encode(
                    DecisionKind::End {
                        x: outline.right() - 1,
                        y: outline.top() - 1,
                    },
                    gs,
                ));
            }
        }
        for &d in &path {
            self.apply(d).map_err(|e| match mv.base {
                Base::Split { .. } => MoveError::IllegalSplit(e.to_string()),
                Base::Join { .. } => MoveError::IllegalJoin(e.to_string()),
            })?;
        }
        if let Some(swap) = &mv.swap {
            if swap.steps.is_empty() {
                return Err(MoveError::IllegalSwap(
                    "a swap needs at least one step".into(),
                ));
            }
            let fresh = self.fresh_pieces();
            if !fresh.contains(&swap.from) {
                return Err(MoveError::IllegalSwap(format!(
                    "{} is not a fresh piece of this turn",
                    swap.from
                )));
            }
            let mover = self.to_move();
            let mut at = swap.from;
            for (i, &dir) in swap.steps.iter().enumerate() {
                if self.turns_played() != turn || self.is_over() {
                    let why = match self.outcome() {
                        Some(o) if o.winner.is_some() && o.reason == super::Reason::FourSides => {
                            "the game was already won".to_string()
                        }
                        Some(_) => "the game is over".to_string(),
                        None if self
                            .board()
                            .piece_with_corner(at.x, at.y)
                            .is_some_and(|p| p.color != mover) =>
                        {
                            "the swapper was captured".to_string()
                        }
                        None => format!(
                            "no legal target was left, so the swap ended ({})",
                            self.explain_step(at, dir, i, mover)
                        ),
                    };
                    return Err(MoveError::IllegalSwap(format!(
                        "step {} ({}) comes after the swap ended: {why}",
                        i + 1,
                        dir.letter()
                    )));
                }
                let d = Decision::encode(
                    DecisionKind::Step {
                        dir,
                        x: at.x,
                        y: at.y,
                    },
                    gs,
                );
                if !self.is_legal(d) {
                    return Err(MoveError::IllegalSwap(self.explain_step(at, dir, i, mover)));
                }
                self.apply_unchecked(d);
                path.push(d);
                at = step_target(at, dir, self.board());
            }
        }
        if self.turns_played() == turn && matches!(self.phase(), Phase::Swap) {
            let stop = Decision::stop(gs);
            self.apply_unchecked(stop);
            path.push(stop);
        }
        Ok(path)
    }

    fn explain_step(&self, at: Rect, dir: Dir, i: usize, mover: crate::Color) -> String {
        let b = self.board();
        let n = i + 1;
        let Some((cx, cy)) = at.beside(dir, b.grid_size()) else {
            return format!("step {n} ({}) would leave the board", dir.letter());
        };
        let t = b.piece_at(cx, cy);
        let two_point = match dir {
            Dir::N | Dir::S => t.rect.x == at.x && t.rect.w == at.w,
            Dir::E | Dir::W => t.rect.y == at.y && t.rect.h == at.h,
        };
        if !two_point {
            format!(
                "step {n} ({}): {} is not a two-point neighbour of the swapper {at}",
                dir.letter(),
                t.rect
            )
        } else if t.color == mover {
            format!(
                "step {n} ({}): {} is the mover's own piece",
                dir.letter(),
                t.rect
            )
        } else {
            format!(
                "step {n} ({}) into {} recreates a state of this turn (loop guard)",
                dir.letter(),
                t.rect
            )
        }
    }

    /// Why `outline` is not a legal join for the player to move, if it is not.
    pub fn check_join(&self, o: Rect) -> Result<(), MoveError> {
        let b = self.board();
        let g = b.grid_size();
        if !o.has_legal_shape() {
            return Err(MoveError::IllegalJoin(format!(
                "the outline {o} is neither a square nor a 1:2 rectangle"
            )));
        }
        if o.right() > g || o.top() > g {
            return Err(MoveError::IllegalJoin(format!(
                "the outline {o} leaves the board"
            )));
        }
        let mut count = 0;
        for p in b.sorted_pieces() {
            let inter = p.rect.overlap_area(o);
            if inter == 0 {
                continue;
            }
            if inter != p.rect.area() {
                return Err(MoveError::IllegalJoin(format!(
                    "the outline {o} cuts through the piece {}",
                    p.rect
                )));
            }
            if p.color != self.to_move() {
                return Err(MoveError::IllegalJoin(format!(
                    "the outline {o} holds the opponent's piece {}",
                    p.rect
                )));
            }
            count += 1;
        }
        if count < 2 {
            return Err(MoveError::IllegalJoin(format!(
                "the outline {o} holds only one piece; a join needs two or more"
            )));
        }
        Ok(())
    }

    /// The complete move a decision path makes from this state (which must be a turn start).
    pub fn move_from_decisions(&self, path: &[Decision]) -> Result<Move, MoveError> {
        let gs = self.grid_size();
        let mut g = self.clone();
        if !g.at_turn_start() {
            return Err(MoveError::MidTurn);
        }
        let bad = |e: crate::DecisionError| MoveError::IllegalSwap(e.to_string());
        let (Some(&c), Some(&e)) = (path.first(), path.get(1)) else {
            return Err(MoveError::IllegalSplit(
                "a path starts with a choose and an extent decision".into(),
            ));
        };
        let start = match c.decode(gs) {
            Some(DecisionKind::Split { x, y, .. } | DecisionKind::Join { x, y }) => {
                g.board().piece_with_corner(x, y)
            }
            _ => None,
        };
        g.apply(c).map_err(bad)?;
        let kind = match g.phase() {
            Phase::Extent { kind, .. } => kind,
            _ => unreachable!("a choose decision leads to the extent phase"),
        };
        let start = start.expect("legal choose has a piece").rect;
        let base = match (kind, e.decode(gs)) {
            (ChoiceKind::Split(cut), Some(DecisionKind::End { x, y })) => {
                let mut count = 1;
                let mut last = start;
                while (last.x, last.y) != (x, y) {
                    count += 1;
                    last = *g
                        .split_pieces(cut, start, count)
                        .map_err(|_| bad(crate::DecisionError::Illegal("extent".into())))?
                        .last()
                        .unwrap();
                }
                Base::Split {
                    cut,
                    first: start,
                    count,
                }
            }
            (ChoiceKind::Join, Some(DecisionKind::End { x, y })) => Base::Join {
                outline: Rect::new(start.x, start.y, x + 1 - start.x, y + 1 - start.y),
            },
            _ => return Err(bad(crate::DecisionError::Illegal("extent".into()))),
        };
        g.apply(e).map_err(bad)?;
        let mut swap: Option<Swap> = None;
        for (i, &d) in path[2..].iter().enumerate() {
            match d.decode(gs) {
                Some(DecisionKind::Step { dir, x, y }) => {
                    if swap.is_none() {
                        let from = g
                            .board()
                            .piece_with_corner(x, y)
                            .map(|p| p.rect)
                            .unwrap_or_default();
                        swap = Some(Swap {
                            from,
                            steps: Vec::new(),
                        });
                    }
                    swap.as_mut().unwrap().steps.push(dir);
                }
                Some(DecisionKind::Stop) if i + 3 == path.len() => {}
                _ => {
                    return Err(bad(crate::DecisionError::Illegal(format!(
                        "decision {} of the path",
                        i + 3
                    ))));
                }
            }
            g.apply(d).map_err(bad)?;
        }
        if !g.at_turn_start() && !g.is_over() {
            return Err(MoveError::IllegalSwap(
                "the path stops in the middle of a turn".into(),
            ));
        }
        Ok(Move { base, swap })
    }

    /// Every legal split and join of the player to move, as moves without a swap (none when
    /// the game is over or in the middle of a turn).
    pub fn base_moves(&mut self) -> Vec<Move> {
        if !self.at_turn_start() {
            return Vec::new();
        }
        let mut bases = Vec::new();
        self.collect_bases(&mut bases);
        let gs = self.grid_size();
        let mut out = Vec::with_capacity(bases.len());
        for (c, e) in bases {
            let (Some(ck), Some(DecisionKind::End { x: ex, y: ey })) = (c.decode(gs), e.decode(gs))
            else {
                unreachable!()
            };
            let base = match ck {
                DecisionKind::Split { cut, x, y } => {
                    let first = self.board().piece_with_corner(x, y).unwrap().rect;
                    let mut count = 1;
                    loop {
                        let pieces = self
                            .split_pieces(cut, first, count)
                            .expect("listed split is legal");
                        let l = pieces.last().unwrap();
                        if (l.x, l.y) == (ex, ey) {
                            break;
                        }
                        count += 1;
                    }
                    Base::Split { cut, first, count }
                }
                DecisionKind::Join { x, y } => Base::Join {
                    outline: Rect::new(x, y, ex + 1 - x, ey + 1 - y),
                },
                _ => unreachable!(),
            };
            out.push(Move { base, swap: None });
        }
        out
    }
}

/// The piece a step from `at` in `dir` went into (a two-point neighbour has `at`'s width or
/// height, so its rectangle follows from `at` and the board).
fn step_target(at: Rect, dir: Dir, b: &super::Board) -> Rect {
    let (x, y) = match dir {
        Dir::N => (at.x, at.top()),
        Dir::S => (at.x, at.y - 1),
        Dir::E => (at.right(), at.y),
        Dir::W => (at.x - 1, at.y),
    };
    b.piece_at(x, y).rect
}
