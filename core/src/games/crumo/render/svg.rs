//! A Crumo board as an SVG image: the hexagon's points joined by the grid lines of the
//! triangular grid, one disc per stack filled in its owner's colour with its height written
//! on it (class `stack <colour>`), the last move's points ringed, rank numbers at the left
//! of each row and file letters under each file's lowest point, then status lines. Sized by
//! its `viewBox` only, so it scales cleanly.
//!
//! Units: neighbouring points are 60 user units apart; `y` grows downwards as SVG wants,
//! so rank 1 is the bottom row.

use super::{CrumoHighlight, score_line};
use crate::game::Color;
use crate::games::crumo::{Crumo, DIRECTIONS, Point};
use crate::render::svg::{
    BACKGROUND, BLACK_FILL, WHITE_FILL, escape, num, status_disc, text_width,
};
use crate::render::{PictureStyle, Pictures};
use std::fmt::Write as _;

const STEP: f64 = 60.0;
const PAD: f64 = 50.0;
const LINE: f64 = 32.0;
const STATUS: f64 = 2.0 * LINE + 16.0;

/// The distance between neighbouring points in the picture's units.
pub const POINT_STEP: f64 = STEP;

/// Where point `p` of `game` is in the picture [`render`] draws (so that a page can place
/// things on the picture).
pub fn point_at(game: &Crumo, p: Point) -> (f64, f64) {
    let n = f64::from(game.size());
    let rows = 2.0 * n - 1.0;
    let h3 = 3f64.sqrt() / 2.0;
    // Rule 1.2: (q, r) at (q + r/2, r·√3/2) on paper, shifted so the board starts at PAD.
    let (q, r) = game.geometry().coords(p);
    let (q, r) = (f64::from(q), f64::from(r));
    (
        PAD + STEP * (q + r / 2.0 - (n - 1.0) / 2.0),
        PAD + STEP * h3 * (rows - 1.0 - r),
    )
}

/// Draws the position (see the module documentation).
pub fn render(game: &Crumo, opts: &PictureStyle<CrumoHighlight>) -> String {
    let n = f64::from(game.size());
    let rows = 2.0 * n - 1.0;
    let h3 = 3f64.sqrt() / 2.0;
    // As wide as the board, or as the status lines where they are wider (small boards).
    let status_w =
        text_width(&status_text(game, opts), 18.0).max(text_width(&score_line(game), 18.0));
    let width = (2.0 * PAD + STEP * (rows - 1.0)).max(PAD + 20.0 + status_w + PAD);
    let board_h = 2.0 * PAD + STEP * h3 * (rows - 1.0);
    let height = board_h + STATUS;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" font-family="sans-serif">"#,
        num(width),
        num(height)
    );
    let _ = write!(
        s,
        r#"<rect width="{}" height="{}" fill="{BACKGROUND}"/>"#,
        num(width),
        num(height)
    );
    grid(&mut s, game);
    debug_assert_eq!(DIRECTIONS[0], (1, 0));
    if opts.coords {
        coords(&mut s, game);
    }
    for p in 0..game.geometry().points() as Point {
        point(&mut s, game, opts, p);
    }
    status(&mut s, game, opts, board_h + LINE * 0.5);
    s.push_str("</svg>\n");
    s
}

/// The grid lines: each point to its east, north-east and north-west neighbours.
fn grid(s: &mut String, game: &Crumo) {
    let geo = game.geometry();
    s.push_str(r##"<g stroke="#8c8371" stroke-width="1.5">"##);
    for p in 0..geo.points() as Point {
        for d in 0..3 {
            if let Some(t) = geo.step(p, d, 1) {
                let ((x1, y1), (x2, y2)) = (point_at(game, p), point_at(game, t));
                let _ = write!(
                    s,
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
                    num(x1),
                    num(y1),
                    num(x2),
                    num(y2)
                );
            }
        }
    }
    s.push_str("</g>");
}

/// The rank number left of each row's first point and the file letter under each file's
/// lowest point.
fn coords(s: &mut String, game: &Crumo) {
    let geo = game.geometry();
    let font = r##"font-size="16" fill="#5b5447" text-anchor="middle""##;
    for r in 0..geo.points() as Point {
        let (q, rr) = geo.coords(r);
        // The first point of each row takes the rank; the lowest point of each file the letter.
        let row_first = q == 0 || geo.point_at(i32::from(q) - 1, i32::from(rr)).is_none();
        let file_lowest = geo.point_at(i32::from(q), i32::from(rr) - 1).is_none();
        let (x, y) = point_at(game, r);
        if row_first {
            let _ = write!(
                s,
                r#"<text x="{}" y="{}" {font}>{}</text>"#,
                num(x - 0.6 * STEP),
                num(y + 5.0),
                u32::from(rr) + 1
            );
        }
        if file_lowest {
            let _ = write!(
                s,
                r#"<text x="{}" y="{}" {font}>{}</text>"#,
                num(x - 0.3 * STEP),
                num(y + 0.55 * STEP),
                char::from(b'a' + q)
            );
        }
    }
}

/// Point `p`: ringed when the last move touched it, then its stack (a disc with its height)
/// or, when empty, a dot.
fn point(s: &mut String, game: &Crumo, opts: &PictureStyle<CrumoHighlight>, p: Point) {
    let (x, y) = point_at(game, p);
    let hot = opts.highlight.as_ref().is_some_and(|h| h.has(p));
    if hot {
        let _ = write!(
            s,
            r##"<circle class="last-move" cx="{}" cy="{}" r="{}" fill="none" stroke="#e66101" stroke-width="5"/>"##,
            num(x),
            num(y),
            num(0.44 * STEP)
        );
    }
    match game.stack(p) {
        None => {
            let _ = write!(
                s,
                r##"<circle cx="{}" cy="{}" r="4" fill="#8c8371"/>"##,
                num(x),
                num(y)
            );
        }
        Some(st) => {
            let (fill, ink, class) = match st.color {
                Color::Black => (BLACK_FILL, WHITE_FILL, "black"),
                Color::White => (WHITE_FILL, BLACK_FILL, "white"),
            };
            let _ = write!(
                s,
                r##"<circle class="stack {class}" cx="{}" cy="{}" r="{}" fill="{fill}" stroke="#262626" stroke-width="1.5"/><text x="{}" y="{}" font-size="22" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"##,
                num(x),
                num(y),
                num(0.36 * STEP),
                num(x),
                num(y + 8.0),
                st.height
            );
        }
    }
}

/// The first status line: the status, with the last move.
fn status_text(game: &Crumo, opts: &PictureStyle<CrumoHighlight>) -> String {
    let mut status = game.status_line();
    if let Some(m) = &opts.last_move {
        status += &format!("; last move {m}");
    }
    status
}

/// The status lines from height `y0`: a disc in the colour of the side to move (or the
/// winner), the status with the last move, then the score.
fn status(s: &mut String, game: &Crumo, opts: &PictureStyle<CrumoHighlight>, y0: f64) {
    let status = status_text(game, opts);
    let disc = game
        .outcome()
        .map_or(game.to_move(), |o| o.winner.unwrap_or(game.to_move()));
    s.push_str(&status_disc(PAD, y0, disc));
    let _ = write!(
        s,
        r##"<text x="{}" y="{}" font-size="18" fill="#262626">{}</text>"##,
        num(PAD + 20.0),
        num(y0 + 6.0),
        escape(&status)
    );
    let _ = write!(
        s,
        r##"<text x="{}" y="{}" font-size="18" fill="#262626">{}</text>"##,
        num(PAD),
        num(y0 + LINE + 6.0),
        escape(&score_line(game))
    );
}
