//! A Splinter board as an SVG image: a checkerboard of squares, one shape per piece filled
//! in its owner's colour — the seed's star for a king, a square for a rook, a cross (`×`)
//! for a bishop and a circle for a pawn (rule 1.2), each with the class
//! `piece <colour> <type>` — the file letters and rank numbers on the edges, the last move
//! (the squares of the pieces it moved, the square it left and an arrow in its direction)
//! and status lines (side to move or result, last move, knockouts). Sized by its `viewBox`
//! only, so it scales cleanly to any size.
//!
//! Units: one square is 60 user units; `y` grows downwards as SVG wants, so rank 1 is the
//! bottom row.

use super::{SplinterHighlight, score_line};
use crate::games::splinter::{Board, PieceType, Splinter, Square};
use crate::render::svg::{
    self, ARROW_MARKER, BACKGROUND, BLACK_FILL, WHITE_FILL, escape, num, status_disc, text_width,
};
use crate::render::{PictureStyle, Pictures};
use std::fmt::Write as _;

const CELL: f64 = 60.0;
const PAD: f64 = 20.0;
const GUTTER: f64 = 36.0;
const LINE: f64 = 32.0;
const STATUS: f64 = 3.0 * LINE + 12.0;

/// The shape of a piece of type `kind` centred on `(cx, cy)`, with its classes.
fn piece_shape(kind: PieceType, class: &str, cx: f64, cy: f64) -> String {
    let points = |pts: &[(f64, f64)]| {
        pts.iter()
            .map(|&(x, y)| format!("{},{}", num(cx + x), num(cy + y)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    match kind {
        PieceType::King => {
            // A five-pointed star, one point up.
            let (outer, inner) = (0.42 * CELL, 0.18 * CELL);
            let pts: Vec<(f64, f64)> = (0..10)
                .map(|i| {
                    let r = if i % 2 == 0 { outer } else { inner };
                    let a = std::f64::consts::PI * f64::from(i) / 5.0;
                    (r * a.sin(), -r * a.cos())
                })
                .collect();
            format!(r#"<polygon class="{class}" points="{}"/>"#, points(&pts))
        }
        PieceType::Rook => {
            let side = 0.58 * CELL;
            format!(
                r#"<rect class="{class}" x="{}" y="{}" width="{}" height="{}"/>"#,
                num(cx - side / 2.0),
                num(cy - side / 2.0),
                num(side),
                num(side)
            )
        }
        PieceType::Bishop => {
            // A plus of arm half-width `a` and half-length `l`, turned by 45°.
            let (a, l) = (0.09 * CELL, 0.38 * CELL);
            let plus = [
                (a, l),
                (a, a),
                (l, a),
                (l, -a),
                (a, -a),
                (a, -l),
                (-a, -l),
                (-a, -a),
                (-l, -a),
                (-l, a),
                (-a, a),
                (-a, l),
            ];
            let k = std::f64::consts::FRAC_1_SQRT_2;
            let turned: Vec<(f64, f64)> = plus
                .iter()
                .map(|&(x, y)| (k * (x - y), k * (x + y)))
                .collect();
            format!(r#"<polygon class="{class}" points="{}"/>"#, points(&turned))
        }
        PieceType::Pawn => format!(
            r#"<circle class="{class}" cx="{}" cy="{}" r="{}"/>"#,
            num(cx),
            num(cy),
            num(0.27 * CELL)
        ),
    }
}

/// The side of a square in the picture's units.
pub const SQUARE: f64 = CELL;

/// The top-left corner of square `s` in the picture [`render`] draws of a game on `board`
/// with `coords` as in its options (so that a page can place things on the picture).
pub fn square_corner(board: &Board, s: Square, coords: bool) -> (f64, f64) {
    let left = if coords { GUTTER } else { PAD };
    let (x, y) = board.xy(s);
    (
        left + f64::from(x) * CELL,
        PAD + f64::from(board.height() - 1 - y) * CELL,
    )
}

/// The centre of square `s` (see [`square_corner`]).
fn square_centre(board: &Board, s: Square, coords: bool) -> (f64, f64) {
    let (x, y) = square_corner(board, s, coords);
    (x + CELL / 2.0, y + CELL / 2.0)
}

/// Square `s` as a rectangle of class `class`.
fn square_rect(board: &Board, s: Square, coords: bool, class: &str) -> String {
    let (x, y) = square_corner(board, s, coords);
    format!(
        r#"<rect class="{class}" x="{}" y="{}" width="{}" height="{}"/>"#,
        num(x),
        num(y),
        num(CELL),
        num(CELL)
    )
}

/// Draws the position (see the module documentation).
pub fn render(game: &Splinter, opts: &PictureStyle<SplinterHighlight>) -> String {
    let b = game.board();
    let left = if opts.coords { GUTTER } else { PAD };
    let bottom_gap = if opts.coords { GUTTER } else { PAD };
    let (bw, bh) = (CELL * f64::from(b.width()), CELL * f64::from(b.height()));
    // As wide as the board, or as the status lines where they are wider (small boards).
    let status_w = status_lines(game, opts)
        .iter()
        .enumerate()
        .map(|(i, t)| text_width(t, if i == 0 { 24.0 } else { 22.0 }))
        .fold(0.0, f64::max);
    let width = (left + bw + PAD).max(left + 30.0 + status_w + PAD);
    let height = PAD + bh + bottom_gap + STATUS;

    let mut s = String::new();
    head(&mut s, game, width, height);
    s += "<g class=\"squares\">\n";
    for sq in 0..b.square_count() as Square {
        let (x, y) = b.xy(sq);
        // a1 is dark, as on a chessboard.
        let class = if (x + y) % 2 == 0 { "dark" } else { "light" };
        s += &square_rect(b, sq, opts.coords, &format!("square {class}"));
        s.push('\n');
    }
    s += "</g>\n";
    let hl = opts.highlight.as_ref();
    if let Some(hl) = hl {
        s += "<g class=\"last-move\">\n";
        for &m in &hl.moved {
            s += &square_rect(b, m, opts.coords, "moved");
            s.push('\n');
        }
        if let Some(from) = hl.from {
            s += &square_rect(b, from, opts.coords, "left");
            s.push('\n');
        }
        s += "</g>\n";
    }
    s += "<g class=\"pieces\">\n";
    for (sq, p) in b.pieces() {
        let (cx, cy) = square_centre(b, sq, opts.coords);
        let class = format!("piece {} {}", p.color.name(), p.kind.name());
        s += &piece_shape(p.kind, &class, cx, cy);
        s.push('\n');
    }
    s += "</g>\n";
    if let Some(hl) = hl {
        direction(&mut s, b, opts.coords, hl);
    }
    let _ = writeln!(
        s,
        r##"<rect class="frame" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#444" stroke-width="2"/>"##,
        num(left),
        num(PAD),
        num(bw),
        num(bh)
    );
    if opts.coords {
        coords(&mut s, b, left);
    }
    status(&mut s, game, opts, left, PAD + bh + bottom_gap + LINE / 2.0);
    s += "</svg>\n";
    s
}

/// The opening tag, title, arrow marker, style sheet and background of a `width` ×
/// `height` picture.
fn head(s: &mut String, game: &Splinter, width: f64, height: f64) {
    let b = game.board();
    let (w, h) = (b.width(), b.height());
    let title = format!("Splinter {w}x{h}: {}", game.status_line());
    svg::open(s, (width, height), &title);
    let _ = writeln!(s, "<defs>\n{ARROW_MARKER}\n</defs>");
    let _ = writeln!(
        s,
        "<style>.light{{fill:#efe8d8}} .dark{{fill:#ddd2bb}} .piece{{stroke:#555;stroke-width:2;stroke-linejoin:round}} .black{{fill:{BLACK_FILL}}} .white{{fill:{WHITE_FILL}}} .moved{{fill:#f5b56b}} .left{{fill:#fbe0bd;stroke:#d7301f;stroke-width:3;stroke-dasharray:7 5}} .step{{stroke:#d7301f;stroke-width:5;stroke-linecap:round;fill:none}} .label{{font-size:22px;fill:#555}} .status{{font-size:24px;fill:#222}}</style>"
    );
    let _ = writeln!(
        s,
        r#"<rect class="background" x="0" y="0" width="{}" height="{}" fill="{BACKGROUND}"/>"#,
        num(width),
        num(height)
    );
}

/// The last move's direction: the step from the square left to the destination, or, with
/// only the position's `last_move`, a short arrow through each moved square.
fn direction(s: &mut String, b: &Board, coords: bool, hl: &SplinterHighlight) {
    let (dx, dy) = hl.dir.delta();
    let (ux, uy) = (f64::from(dx), -f64::from(dy));
    let len = (ux * ux + uy * uy).sqrt();
    let (ux, uy) = (ux / len, uy / len);
    let arrows: Vec<((f64, f64), (f64, f64))> = match hl.from {
        Some(from) => {
            let (ax, ay) = square_centre(b, from, coords);
            // Into the destination square, short of its piece's centre.
            let reach = CELL * len * 0.62;
            vec![((ax, ay), (ax + ux * reach, ay + uy * reach))]
        }
        None => hl
            .moved
            .iter()
            .map(|&m| {
                let (cx, cy) = square_centre(b, m, coords);
                let r = 0.32 * CELL;
                ((cx - ux * r, cy - uy * r), (cx + ux * r, cy + uy * r))
            })
            .collect(),
    };
    *s += "<g class=\"last-move-direction\">\n";
    for ((x1, y1), (x2, y2)) in arrows {
        let _ = writeln!(
            s,
            r#"<line class="step" x1="{}" y1="{}" x2="{}" y2="{}" marker-end="url(#arrow)"/>"#,
            num(x1),
            num(y1),
            num(x2),
            num(y2)
        );
    }
    *s += "</g>\n";
}

/// The file letters under the board and the rank numbers left of it (the board's left
/// edge at `left`).
fn coords(s: &mut String, b: &Board, left: f64) {
    let (w, h) = (b.width(), b.height());
    let bh = CELL * f64::from(h);
    *s += "<g class=\"coords\">\n";
    for x in 0..w {
        let _ = writeln!(
            s,
            r#"<text class="label" x="{}" y="{}" text-anchor="middle">{}</text>"#,
            num(left + (f64::from(x) + 0.5) * CELL),
            num(PAD + bh + 26.0),
            char::from(b'a' + x)
        );
    }
    for y in 0..h {
        let _ = writeln!(
            s,
            r#"<text class="label" x="{}" y="{}" text-anchor="end">{}</text>"#,
            num(left - 6.0),
            num(PAD + (f64::from(h - 1 - y) + 0.5) * CELL + 8.0),
            u32::from(y) + 1
        );
    }
    *s += "</g>\n";
}

/// The status lines: the side to move or the result, the last move, the knockouts and pieces.
fn status_lines(game: &Splinter, opts: &PictureStyle<SplinterHighlight>) -> Vec<String> {
    let last = match (&opts.last_move, opts.highlight.as_ref()) {
        (Some(m), _) => Some(format!("last move {m}")),
        (None, Some(h)) => Some(format!("last move direction {}", h.dir.name())),
        (None, None) => None,
    };
    [Some(game.status_line()), last, Some(score_line(game))]
        .into_iter()
        .flatten()
        .collect()
}

/// The status from (`left`, `ty`): a disc in the colour of the side to move (or the
/// winner) and the status text, then the last move, then the knockouts and pieces.
fn status(
    s: &mut String,
    game: &Splinter,
    opts: &PictureStyle<SplinterHighlight>,
    left: f64,
    ty: f64,
) {
    let disc = match game.outcome() {
        Some(o) => o.winner,
        None => Some(game.to_move()),
    };
    let mut tx = left;
    if let Some(c) = disc {
        *s += &status_disc(tx + 11.0, ty, c);
        tx += 30.0;
    }
    for (i, text) in status_lines(game, opts).iter().enumerate() {
        let class = if i == 0 { "status" } else { "label" };
        let _ = writeln!(
            s,
            r#"<text class="{class}" x="{}" y="{}" dominant-baseline="middle">{}</text>"#,
            num(tx),
            num(ty + LINE * i as f64),
            escape(text)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::splinter::render::tests::after;

    #[test]
    fn every_piece_has_its_type_shape_and_colour() {
        let (g, _) = after(&[]);
        let svg = render(
            &g,
            &PictureStyle {
                coords: true,
                ..Default::default()
            },
        );
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        let count = |t: &str| svg.matches(t).count();
        assert_eq!(count("<g"), count("</g>"));
        for (tag, kind, n) in [
            ("polygon", "king", 1),
            ("rect", "rook", 2),
            ("polygon", "bishop", 3),
            ("circle", "pawn", 9),
        ] {
            for colour in ["black", "white"] {
                let mark = format!(r#"<{tag} class="piece {colour} {kind}""#);
                assert_eq!(count(&mark), n, "{mark}");
            }
        }
        assert_eq!(count("class=\"square "), 15 * 18);
        assert_eq!(count("class=\"label\""), 15 + 18 + 1);
        assert!(svg.contains(">a</text>") && svg.contains(">o</text>"));
        assert!(svg.contains(">18</text>"));
        assert!(svg.contains("Black to move (turn 1)"));
        assert!(!svg.contains("class=\"moved\""));
        // The king's star and the bishop's cross are different polygons.
        let points = |kind: &str| {
            let at = svg.find(&format!("black {kind}\" points=\"")).unwrap();
            svg[at..].split('"').nth(2).unwrap().split(' ').count()
        };
        assert_eq!((points("king"), points("bishop")), (10, 12));
    }

    #[test]
    fn the_last_move_is_marked() {
        let (g, hl) = after(&["h9-h10", "g11-g10"]);
        let svg = render(
            &g,
            &PictureStyle {
                coords: false,
                highlight: hl,
                last_move: Some("g11-g10 (white)".into()),
                ..Default::default()
            },
        );
        assert_eq!(svg.matches("<rect class=\"moved\"").count(), 5, "{svg}");
        assert_eq!(svg.matches("<rect class=\"left\"").count(), 1);
        assert_eq!(svg.matches("marker-end=\"url(#arrow)\"").count(), 1);
        assert!(svg.contains("last move g11-g10 (white)"));
        assert!(!svg.contains("class=\"label\" x=\"14\""), "no coordinates");
        // With only the position's no-return state: one arrow per moved square.
        let own = SplinterHighlight::of_last_move(&g);
        let svg = render(
            &g,
            &PictureStyle {
                coords: true,
                highlight: own,
                ..Default::default()
            },
        );
        assert_eq!(svg.matches("marker-end=\"url(#arrow)\"").count(), 5);
        assert_eq!(svg.matches("<rect class=\"left\"").count(), 0);
        assert!(svg.contains("last move direction s"));
    }

    #[test]
    fn text_is_escaped() {
        let (g, _) = after(&[]);
        let svg = render(
            &g,
            &PictureStyle {
                last_move: Some("<&>".into()),
                ..Default::default()
            },
        );
        assert!(svg.contains("last move &lt;&amp;&gt;"));
    }
}
