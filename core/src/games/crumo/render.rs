//! Pictures of a Crumo position (`games/crumo/RULES.md`): [`term`] draws it for a terminal
//! (colour or plain ASCII), [`svg`] as an SVG image. Both return a `String` (core does no
//! I/O), draw the hexagon as rule 1.3's diagram does (rank 1 at the bottom, each row half a
//! point to the right of the one above it below the middle), show every stack's colour and
//! height, label ranks and files with the notation's names, and can highlight the last move's
//! points. Their [`Pictures`] impl gives them to `play`, `show` and the
//! page of a recorded game (`crate::render::record_page`).

#[cfg(test)]
mod html;
pub mod svg;
pub mod term;

use crate::game::Color;
use crate::game::CompleteMoves;
use crate::games::crumo::{Crumo, CrumoMove, Point};
use crate::render::picture::{LastMove, PictureStyle, Pictures};

/// The points the last move touched: the placed stack, or a move's source and target.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CrumoHighlight {
    pub points: Vec<Point>,
}

impl CrumoHighlight {
    /// The highlight of `mv` (pass and swap touch no point).
    pub fn of(mv: &CrumoMove) -> Option<CrumoHighlight> {
        match *mv {
            CrumoMove::Place { point, .. } => Some(CrumoHighlight {
                points: vec![point],
            }),
            CrumoMove::Move { from, to } => Some(CrumoHighlight {
                points: vec![from, to],
            }),
            CrumoMove::Pass | CrumoMove::Swap => None,
        }
    }

    fn has(&self, p: Point) -> bool {
        self.points.contains(&p)
    }
}

/// Captures, and the scores once the game is scored, e.g.
/// `captures: Black 3, White 0; score: Black 6.0, White 3.5`.
pub fn score_line(game: &Crumo) -> String {
    use Color::{Black, White};
    let mut s = format!(
        "captures: Black {}, White {}",
        game.captures(Black),
        game.captures(White)
    );
    if let Some(o) = game.outcome()
        && let (Some(b), Some(w)) = (o.score(Black), o.score(White))
    {
        s += &format!("; score: Black {b:.1}, White {w:.1}");
    }
    if game.swapped() {
        s += "; swapped: the second seat plays Black";
    }
    s
}

/// A stack's label: its colour letter and height (`B3`, `W12`), heights over 99 as `>99`.
fn label(c: Color, height: u64) -> String {
    let letter = if c == Color::Black { 'B' } else { 'W' };
    if height > 99 {
        format!("{letter}>99")
    } else {
        format!("{letter}{height}")
    }
}

impl Pictures for Crumo {
    fn term_picture(&self, last: LastMove<'_, Crumo>, style: &PictureStyle) -> String {
        term::render(self, &style.with_highlight(highlight(last)))
    }

    fn svg_picture(&self, last: LastMove<'_, Crumo>, style: &PictureStyle) -> Option<String> {
        Some(svg::render(self, &style.with_highlight(highlight(last))))
    }

    /// The pie state while it matters (rules 8.1, 8.2).
    fn status_note(&self) -> &'static str {
        match self.pie() {
            crate::games::crumo::Pie::First => ", first turn: Black places",
            crate::games::crumo::Pie::Choice => ", White may swap",
            crate::games::crumo::Pie::Over => "",
        }
    }

    fn picture_legend() -> &'static str {
        "Orange rings: the points the last move placed on, left or reached."
    }

    /// The status line and the score.
    fn page_status(&self) -> String {
        format!("{}; {}", self.status_line(), score_line(self))
    }
}

/// The highlight of the last move, when it is one whole move.
fn highlight(last: LastMove<'_, Crumo>) -> Option<CrumoHighlight> {
    let (before, turn) = last?;
    CrumoHighlight::of(&before.move_of_turn(turn)?)
}
