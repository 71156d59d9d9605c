//! The board as an SVG image: one `<rect class="piece black|white">` per piece with a thin
//! outline, optional edge coordinates, the last move (cut line or join outline, and the swap
//! path as arrows from piece to piece), and a status line with the side to move or the
//! result. Sized by its `viewBox` only, so it scales cleanly to any size.
//!
//! Units: one cell is 100 user units; the board's lower-left corner (in the chosen view) is
//! at `(MARGIN_LEFT, MARGIN_TOP + 100·N)` with `y` growing downwards as SVG wants.

use super::{BaseMark, Highlight, edge_labels, status_line, view_pieces};
use crate::game::Color;
use crate::games::crumble::game::Crumble;
use crate::games::crumble::geom::{Piece, Rect};
use crate::render::PictureStyle;
use crate::render::svg::{
    self, ARROW_MARKER, BACKGROUND, BLACK_FILL, WHITE_FILL, escape, num, status_disc,
};
use std::fmt::Write as _;

const CELL: f64 = 100.0;
const PAD: f64 = 24.0;
const GUTTER: f64 = 44.0;
const STATUS: f64 = 84.0;

/// Grid units (the view's coordinates, `y` up) to SVG user units (`y` down).
#[derive(Clone, Copy)]
struct Scale {
    /// The board's left edge.
    left: f64,
    /// The board's side.
    side: f64,
    /// One grid unit.
    unit: f64,
}

impl Scale {
    fn x(self, x: u16) -> f64 {
        self.left + f64::from(x) * self.unit
    }
    fn y(self, y: u16) -> f64 {
        PAD + self.side - f64::from(y) * self.unit
    }
    fn len(self, l: u16) -> f64 {
        f64::from(l) * self.unit
    }
    /// The centre of `rc`.
    fn centre(self, rc: Rect) -> (f64, f64) {
        (
            (self.x(rc.x) + self.x(rc.right())) / 2.0,
            (self.y(rc.y) + self.y(rc.top())) / 2.0,
        )
    }
}

/// Draws the position (see the module documentation).
pub fn render(game: &Crumble, opts: &PictureStyle<Highlight>) -> String {
    let b = game.board();
    let (n, r, g) = (b.board_size(), b.resolution(), b.grid_size());
    let unit = CELL / f64::from(r);
    let side = CELL * f64::from(n);
    let left = if opts.coords { GUTTER } else { PAD };
    let bottom_gap = if opts.coords { GUTTER } else { PAD };
    let (width, height) = (left + side + PAD, PAD + side + bottom_gap + STATUS);
    let at = Scale { left, side, unit };
    let pieces = view_pieces(game, opts.view);
    let smallest = pieces
        .iter()
        .map(|p| p.rect.w.min(p.rect.h))
        .min()
        .unwrap_or(r);
    // Thin outlines, thinner still when pieces are tiny.
    let stroke = (f64::from(smallest) * unit * 0.06).clamp(0.4, 1.6);

    let mut s = String::new();
    head(&mut s, game, (width, height), stroke);
    board(&mut s, &pieces, at, g, stroke);
    if let Some(hl) = opts.highlight.as_ref().map(|h| h.in_view(opts.view, g)) {
        last_move(&mut s, &hl, at);
    }
    if opts.coords {
        coords(&mut s, &pieces, at);
    }
    status(&mut s, game, opts, at, PAD + side + bottom_gap + 14.0);
    s += "</svg>\n";
    s
}

/// The opening tag, title, arrow marker, style sheet (outlines `stroke` wide) and
/// background of a `width` × `height` picture.
fn head(s: &mut String, game: &Crumble, (width, height): (f64, f64), stroke: f64) {
    let b = game.board();
    let (n, r) = (b.board_size(), b.resolution());
    let title = format!("Crumble {n}x{n} R={r}: {}", status_line(game));
    svg::open(s, (width, height), &title);
    *s += "<defs>\n";
    *s += ARROW_MARKER;
    *s += "\n</defs>\n";
    let _ = writeln!(
        s,
        "<style>.piece{{stroke:#8a8a8a;stroke-width:{}}} .black{{fill:{BLACK_FILL}}} .white{{fill:{WHITE_FILL}}} .label{{font-size:22px;fill:#555}} .status{{font-size:26px;fill:#222}} .cut{{stroke:#f08c00;stroke-width:{};stroke-linecap:round;fill:none}} .step{{stroke:#d7301f;stroke-width:{};stroke-linecap:round;fill:none}} .start{{fill:#d7301f}}</style>",
        num(stroke),
        num((stroke * 4.0).max(3.0)),
        num((stroke * 3.0).max(3.0))
    );
    let _ = writeln!(
        s,
        r#"<rect class="background" x="0" y="0" width="{}" height="{}" fill="{BACKGROUND}"/>"#,
        num(width),
        num(height)
    );
}

/// One rectangle per piece, then the board's frame (`g` grid units a side).
fn board(s: &mut String, pieces: &[Piece], at: Scale, g: u16, stroke: f64) {
    *s += "<g class=\"pieces\">\n";
    for p in pieces {
        let rc = p.rect;
        let _ = writeln!(
            s,
            r#"<rect class="piece {}" x="{}" y="{}" width="{}" height="{}"/>"#,
            p.color.name(),
            num(at.x(rc.x)),
            num(at.y(rc.top())),
            num(at.len(rc.w)),
            num(at.len(rc.h))
        );
    }
    *s += "</g>\n";
    let _ = writeln!(
        s,
        r##"<rect class="frame" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#444" stroke-width="{}"/>"##,
        num(at.x(0)),
        num(at.y(g)),
        num(at.side),
        num(at.side),
        num(stroke * 2.0)
    );
}

/// The last move (in the view's frame): its cut line or join outline, and the swap path as
/// a dot on its start and an arrow per step.
fn last_move(s: &mut String, hl: &Highlight, at: Scale) {
    *s += "<g class=\"last-move\">\n";
    match hl.base {
        BaseMark::Cut { from, to } => {
            let _ = writeln!(
                s,
                r#"<line class="cut" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
                num(at.x(from.0)),
                num(at.y(from.1)),
                num(at.x(to.0)),
                num(at.y(to.1))
            );
        }
        BaseMark::Outline(o) => {
            let _ = writeln!(
                s,
                r#"<rect class="cut" x="{}" y="{}" width="{}" height="{}"/>"#,
                num(at.x(o.x)),
                num(at.y(o.top())),
                num(at.len(o.w)),
                num(at.len(o.h))
            );
        }
    }
    if let Some(&first) = hl.path.first() {
        let (cx, cy) = at.centre(first);
        let rad = (f64::from(first.w.min(first.h)) * at.unit * 0.12).clamp(2.0, 8.0);
        let _ = writeln!(
            s,
            r#"<circle class="start" cx="{}" cy="{}" r="{}"/>"#,
            num(cx),
            num(cy),
            num(rad)
        );
    }
    for pair in hl.path.windows(2) {
        let (a, b2) = (at.centre(pair[0]), at.centre(pair[1]));
        // Stop a little short of the target's centre so the arrow head stays inside.
        let (dx, dy) = (b2.0 - a.0, b2.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let short = (len * 0.15).min(8.0);
        let _ = writeln!(
            s,
            r#"<line class="step" x1="{}" y1="{}" x2="{}" y2="{}" marker-end="url(#arrow)"/>"#,
            num(a.0),
            num(a.1),
            num(b2.0 - dx / len * short),
            num(b2.1 - dy / len * short)
        );
    }
    *s += "</g>\n";
}

/// The coordinates along the bottom and left edges, skipping a label that would overlap
/// the one before it.
fn coords(s: &mut String, pieces: &[Piece], at: Scale) {
    *s += "<g class=\"coords\">\n";
    let (bottom, leftl) = edge_labels(pieces);
    let mut free = f64::NEG_INFINITY;
    for (x, k) in bottom {
        let cx = at.x(x);
        if cx < free {
            continue;
        }
        let _ = writeln!(
            s,
            r#"<text class="label" x="{}" y="{}" text-anchor="middle">{k}</text>"#,
            num(cx),
            num(at.y(0) + 28.0)
        );
        free = cx + 26.0;
    }
    let mut free = f64::INFINITY;
    for (y, k) in leftl {
        let cy = at.y(y);
        if cy > free {
            continue;
        }
        let _ = writeln!(
            s,
            r#"<text class="label" x="{}" y="{}" text-anchor="end">{k}</text>"#,
            num(at.x(0) - 8.0),
            num(cy + 8.0)
        );
        free = cy - 22.0;
    }
    *s += "</g>\n";
}

/// The status at height `ty`: a disc in the colour of the side to move (or the winner), the
/// status text, and the last move on a second line.
fn status(s: &mut String, game: &Crumble, opts: &PictureStyle<Highlight>, at: Scale, ty: f64) {
    let mut text = status_line(game);
    if opts.view == Color::White {
        text += "; White's view";
    }
    let disc = match game.outcome() {
        Some(o) => o.winner,
        None => Some(game.to_move()),
    };
    let mut tx = at.x(0);
    if let Some(c) = disc {
        *s += &status_disc(tx + 11.0, ty, c);
        tx += 30.0;
    }
    let _ = writeln!(
        s,
        r#"<text class="status" x="{}" y="{}" dominant-baseline="middle">{}</text>"#,
        num(tx),
        num(ty),
        escape(&text)
    );
    if let Some(m) = &opts.last_move {
        let _ = writeln!(
            s,
            r#"<text class="label" x="{}" y="{}" dominant-baseline="middle">last move {}</text>"#,
            num(tx),
            num(ty + 34.0),
            escape(m)
        );
    }
}
