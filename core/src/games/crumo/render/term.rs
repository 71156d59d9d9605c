//! A Crumo board for a terminal, laid out as rule 1.3's diagram: four characters a point,
//! each row shifted by half a point, rank numbers on the left, the file letters of each
//! row's first point on the right; then the status and captures.
//!
//! - **Plain ASCII** (`color: false`): a stack is its colour letter and height (`B3`,
//!   `W1`), an empty point `.`; the last move's points stand in brackets (`[B3]`, `[.]`).
//! - **Colour** (`color: true`, ANSI 256-colour codes): a stack's height on a dark (Black)
//!   or light (White) patch, empty points `·`, the last move's points on orange.

use super::{CrumoHighlight, label, score_line};
use crate::game::Color;
use crate::games::crumo::{Crumo, Point};
use crate::render::term::{BG_BLACK, BG_HOT, BG_WHITE, FG_HOT, sgr};
use crate::render::{PictureStyle, Pictures};
use std::fmt::Write as _;

const FG_ON_BLACK: u8 = 252;
const FG_ON_WHITE: u8 = 235;
const BG_EMPTY: u8 = 187;
const FG_EMPTY: u8 = 244;

/// Draws the position (see the module documentation) with status lines under it.
pub fn render(game: &Crumo, opts: &PictureStyle<CrumoHighlight>) -> String {
    let geo = game.geometry();
    let n = i32::from(game.size());
    let hot = |p: Point| opts.highlight.as_ref().is_some_and(|h| h.has(p));
    let mut out = String::new();
    for r in (0..2 * n - 1).rev() {
        let mut line = String::new();
        if opts.coords {
            let _ = write!(line, "{:>2}  ", r + 1);
        }
        // Rule 1.2: point (q, r) sits at x = q + r/2; two characters per half point.
        let first = (0..2 * n - 1)
            .find(|&q| geo.point_at(q, r).is_some())
            .unwrap_or(0);
        line.push_str(&" ".repeat((4 * first + 2 * r - 2 * (n - 1)).max(0) as usize));
        let mut last_q = first;
        for q in first..2 * n - 1 {
            let Some(p) = geo.point_at(q, r) else { break };
            last_q = q;
            let stack = game.stack(p);
            if opts.color {
                let (fg, bg, text) = match stack {
                    _ if hot(p) => (
                        FG_HOT,
                        BG_HOT,
                        stack.map_or("·".into(), |s| s.height.to_string()),
                    ),
                    Some(s) if s.color == Color::Black => {
                        (FG_ON_BLACK, BG_BLACK, s.height.to_string())
                    }
                    Some(s) => (FG_ON_WHITE, BG_WHITE, s.height.to_string()),
                    None => (FG_EMPTY, BG_EMPTY, "·".into()),
                };
                sgr(&mut line, Some(fg), bg);
                let _ = write!(line, "{text:^3}");
                line.push_str("\x1b[0m ");
            } else {
                let text = stack.map_or(".".into(), |s| label(s.color, s.height));
                let text = if hot(p) { format!("[{text}]") } else { text };
                let _ = write!(line, "{text:^4}");
            }
        }
        if opts.coords {
            let name = |q: i32| char::from(b'a' + q as u8);
            let _ = write!(line, "  {}-{}", name(first), name(last_q));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&game.status_line());
    if let Some(m) = &opts.last_move {
        let _ = write!(out, "; last move {m}");
    }
    out.push('\n');
    out.push_str(&score_line(game));
    out.push('\n');
    out
}
