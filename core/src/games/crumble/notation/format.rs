//! Printing a complete move in a frame (RULES.md section 6).

use super::*;

/// Prints moves of one position; reuses the view and its staircase map across moves.
#[derive(Debug)]
pub struct Formatter {
    view: View,
    style: PositionStyle,
}

impl Formatter {
    pub fn new(game: &Crumble, frame: Frame) -> Formatter {
        Formatter {
            view: View::new(game, frame),
            style: PositionStyle::Staircase,
        }
    }
    pub fn with_style(mut self, style: PositionStyle) -> Formatter {
        self.style = style;
        self
    }

    fn pos(&mut self, x: u16, y: u16) -> String {
        match self.style {
            PositionStyle::Staircase => self.view.staircase_of((x, y)),
            PositionStyle::Fraction => fraction_of(self.view.g, x, y),
        }
    }

    /// Canonical notation of a legal move (absolute frame) of the player to move; `abs` is
    /// the game the formatter was made for. Returns `None` if the move is not legal there.
    pub fn format(&mut self, abs: &Crumble, mv: &Move) -> Option<String> {
        let vm = self.view.convert(abs, mv)?;
        let mut out = String::new();
        match vm.base {
            Base::Split { cut, first, count } => {
                out += &self.pos(first.x, first.y);
                out.push(cut.letter());
                if count >= 2 {
                    out += &count.to_string();
                }
                if let Some(swap) = &vm.swap {
                    let pieces = self.view.game.split_pieces(cut, first, count).ok()?;
                    let idx = pieces.iter().position(|p| p.overlap_area(swap.from) > 0)?;
                    let (lo, _) = pieces[idx].halves(cut);
                    let half = match (cut, swap.from == lo) {
                        (Cut::H, true) => 'S',
                        (Cut::H, false) => 'N',
                        (Cut::V, true) => 'W',
                        (Cut::V, false) => 'E',
                    };
                    if count >= 2 {
                        out += &format!("-{}{half}-", idx + 1);
                    } else if self.first_step_takers(&vm, swap.steps[0])? > 1 {
                        out.push(half);
                        out.push('-');
                    }
                }
            }
            Base::Join { outline } => {
                out += &self.pos(outline.x, outline.y);
                let a = self.view.count((outline.x, outline.y), false, outline.w);
                let b = self
                    .view
                    .count((outline.right(), outline.y), true, outline.h);
                out += &format!("J{a},{b}");
            }
        }
        if let Some(swap) = &vm.swap {
            out.extend(swap.steps.iter().map(|d| d.letter()));
        }
        // Check the move really is legal before handing out a string for it.
        self.view.game.move_decisions(&vm).ok()?;
        Some(out)
    }

    /// Fresh pieces that could take a first step in `dir` just after the base of `vm`.
    fn first_step_takers(&self, vm: &Move, dir: Dir) -> Option<usize> {
        let mut g = self.view.game.clone();
        g.play_move(&Move {
            base: vm.base,
            swap: None,
        })
        .ok()?;
        // The split is done but the turn ended there; count from the board instead.
        let fresh = split_halves(&self.view.game, &vm.base)?;
        let b = g.board();
        Some(
            fresh
                .iter()
                .filter(|f| {
                    let slot = b.slot_with_corner(f.x, f.y).expect("fresh piece");
                    b.two_point_neighbour(slot, dir)
                        .is_some_and(|t| b.color(t) != self.view.game.to_move())
                })
                .count(),
        )
    }
}

/// The fresh pieces of a split base.
pub(super) fn split_halves(game: &Crumble, base: &Base) -> Option<Vec<Rect>> {
    match *base {
        Base::Split { cut, first, count } => {
            let pieces = game.split_pieces(cut, first, count).ok()?;
            Some(
                pieces
                    .iter()
                    .flat_map(|p| {
                        let (a, b) = p.halves(cut);
                        [a, b]
                    })
                    .collect(),
            )
        }
        Base::Join { outline } => Some(vec![outline]),
    }
}

/// Canonical notation of a legal move (absolute frame) in `frame`, staircase positions.
/// Returns `None` if the move is not legal in `game`.
pub fn format_move(game: &Crumble, mv: &Move, frame: Frame) -> Option<String> {
    Formatter::new(game, frame).format(game, mv)
}
