//! A Splinter board for a terminal: one cell per square, rank numbers on the left and file
//! letters under the board, then the status, the knockouts and a legend.
//!
//! - **Plain ASCII** (`color: false`), four characters a square as in rule 2.7's diagram: a
//!   piece is its colour and type letters (`bK` Black's king, `wP` a White pawn), an empty
//!   square `.`; the pieces the last move moved stand in brackets (`[wK]`) and the square
//!   it left holds its direction in parentheses (`( n)`, `(se)`).
//! - **Colour** (`color: true`, ANSI 256-colour codes), three characters a square: a piece
//!   is its type letter on a dark (Black) or light (White) square, empty squares are a
//!   checkerboard, the moved pieces' letters stand in orange brackets and the square the
//!   move left is orange with an arrow in its direction.
//!
//! The caller decides between the two (the CLI looks at `NO_COLOR` and whether stdout is a
//! terminal).

use super::{SplinterHighlight, score_line, type_letter};
use crate::game::Color;
use crate::games::splinter::{Dir, Piece, Splinter, Square};
use crate::render::term::{BG_BLACK, BG_HOT, BG_WHITE, FG_HOT, sgr};
use crate::render::{PictureStyle, Pictures};
use std::fmt::Write as _;

// Colours of the coloured drawing (ANSI 256-colour codes) besides the shared ones.
const FG_ON_BLACK: u8 = 252;
const FG_ON_WHITE: u8 = 235;
const FG_MOVED: u8 = 202;
const BG_EMPTY: [u8; 2] = [180, 187];

/// The arrow of a direction (colour drawing).
fn arrow(d: Dir) -> char {
    match d {
        Dir::N => '↑',
        Dir::Ne => '↗',
        Dir::E => '→',
        Dir::Se => '↘',
        Dir::S => '↓',
        Dir::Sw => '↙',
        Dir::W => '←',
        Dir::Nw => '↖',
    }
}

/// What a square shows.
enum Mark {
    Plain,
    Moved,
    Left(Dir),
}

fn mark(hl: Option<&SplinterHighlight>, s: Square) -> Mark {
    match hl {
        Some(h) if h.from == Some(s) => Mark::Left(h.dir),
        Some(h) if h.is_moved(s) => Mark::Moved,
        _ => Mark::Plain,
    }
}

/// A square in colour, three characters: `parity` picks the empty square's shade.
fn color_square(line: &mut String, piece: Option<Piece>, m: Mark, parity: u8) {
    let (fg, bg, text) = match (piece, m) {
        (_, Mark::Left(d)) => (Some(FG_HOT), BG_HOT, [' ', arrow(d), ' ']),
        (Some(p), m) => {
            let (fg, bg) = match p.color {
                Color::Black => (FG_ON_BLACK, BG_BLACK),
                Color::White => (FG_ON_WHITE, BG_WHITE),
            };
            let t = type_letter(p.kind);
            match m {
                Mark::Moved => (Some(FG_MOVED), bg, ['[', t, ']']),
                _ => (Some(fg), bg, [' ', t, ' ']),
            }
        }
        (None, _) => (None, BG_EMPTY[usize::from(parity)], [' '; 3]),
    };
    sgr(line, fg, bg);
    line.extend(text);
}

/// A square in plain ASCII, four characters.
fn ascii_square(line: &mut String, piece: Option<Piece>, m: Mark) {
    let token = match piece {
        Some(p) => {
            let c = if p.color == Color::Black { 'b' } else { 'w' };
            format!("{c}{}", type_letter(p.kind))
        }
        None => " .".to_string(),
    };
    let _ = match m {
        Mark::Plain => write!(line, " {token} "),
        Mark::Moved => write!(line, "[{token}]"),
        Mark::Left(d) => write!(line, "({:>2})", d.name()),
    };
}

/// Draws the position (see the module documentation) with status lines under it.
pub fn render(game: &Splinter, opts: &PictureStyle<SplinterHighlight>) -> String {
    let b = game.board();
    let (w, h) = (b.width(), b.height());
    let hl = opts.highlight.as_ref();
    let mut out = String::new();
    for y in (0..h).rev() {
        let mut line = String::new();
        if opts.coords {
            let _ = write!(line, "{:>2} ", u32::from(y) + 1);
        }
        for x in 0..w {
            let s = b.square(x, y);
            let piece = b.get(s);
            let m = mark(hl, s);
            if opts.color {
                color_square(&mut line, piece, m, (x + y) % 2);
            } else {
                ascii_square(&mut line, piece, m);
            }
        }
        if opts.color {
            line += "\x1b[0m";
        }
        out += line.trim_end();
        out.push('\n');
    }
    if opts.coords {
        let mut line = String::from("   ");
        for x in 0..w {
            let f = char::from(b'a' + x);
            let _ = if opts.color {
                write!(line, " {f} ")
            } else {
                write!(line, "  {f} ")
            };
        }
        out += line.trim_end();
        out.push('\n');
    }
    let indent = if opts.coords { "   " } else { "" };
    out += indent;
    out += &game.status_line();
    if let Some(m) = &opts.last_move {
        let _ = write!(out, "; last move {m}");
    } else if let Some(h) = hl {
        let _ = write!(out, "; last move direction {}", h.dir.name());
    }
    let _ = writeln!(out, "\n{indent}{}", score_line(game));
    out += indent;
    out += if opts.color {
        "dark Black, light White"
    } else {
        "b Black, w White"
    };
    out += "; K king, R rook, B bishop, P pawn";
    if hl.is_some() {
        out += if opts.color {
            "; [ ] moved by the last move, the arrow where it left"
        } else {
            "; [ ] moved by the last move, ( ) the square it left and its direction"
        };
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::splinter::render::tests::after;

    #[test]
    fn plain_start_is_rule_2_7s_diagram() {
        let (g, _) = after(&[]);
        let out = render(
            &g,
            &PictureStyle {
                coords: true,
                ..Default::default()
            },
        );
        assert!(out.is_ascii() && !out.contains('\x1b'), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        // 18 ranks, the file letters, status, knockouts, legend.
        assert_eq!(lines.len(), 18 + 4, "{out}");
        assert_eq!(
            lines[0],
            "18   .   .   .   .   .   .   .   .   .   .   .   .   .   .   ."
        );
        assert_eq!(
            lines[18 - 12],
            "12   .   .   .   .   .  wP  bP  wP  bP  wP   .   .   .   .   ."
        );
        assert_eq!(
            lines[18 - 9],
            " 9   .   .   .   .   .  bP  wB  bK  wB  bP   .   .   .   .   ."
        );
        assert_eq!(
            lines[18],
            "     a   b   c   d   e   f   g   h   i   j   k   l   m   n   o"
        );
        assert_eq!(lines[19], "   Black to move (turn 1)");
        assert_eq!(
            lines[20],
            "   knockouts: Black 0, White 0; pieces: Black 15, White 15"
        );
        for kind in ["bK", "bR", "bB", "bP", "wK", "wR", "wB", "wP"] {
            assert!(out.contains(kind), "{kind}: {out}");
        }
    }

    #[test]
    fn plain_highlights_the_moved_pieces_and_the_square_left() {
        let (g, hl) = after(&["h9-h10"]);
        let out = render(
            &g,
            &PictureStyle {
                coords: true,
                highlight: hl,
                last_move: Some("h9-h10 (black)".into()),
                ..Default::default()
            },
        );
        let rank = |r: usize| out.lines().nth(18 - r).unwrap().to_string();
        assert_eq!(
            rank(9),
            " 9   .   .   .   .   .  bP  wB ( n) wB  bP   .   .   .   .   ."
        );
        assert!(
            rank(10).contains("[bK]") && rank(11).contains("[wK]"),
            "{out}"
        );
        assert!(
            rank(12).contains("[bB]") && rank(13).contains("[wP]"),
            "{out}"
        );
        assert_eq!(
            out.matches('[').count(),
            4 + 1,
            "four pieces and the legend: {out}"
        );
        assert!(out.contains("White to move (turn 2); last move h9-h10 (black)"));
        // Without coordinates: no labels, no indent.
        let bare = render(
            &g,
            &PictureStyle {
                coords: false,
                ..Default::default()
            },
        );
        assert!(bare.starts_with("  .   ."), "{bare}");
        assert!(bare.lines().nth(18).unwrap().starts_with("White to move"));
    }

    #[test]
    fn colour_draws_letters_on_coloured_squares_and_an_arrow() {
        let (g, hl) = after(&["h9-h10", "g11-g10"]);
        let out = render(
            &g,
            &PictureStyle {
                color: true,
                coords: true,
                highlight: hl,
                ..Default::default()
            },
        );
        assert!(
            out.contains("\x1b[0;38;5;16;48;5;208m ↓ "),
            "the square left: {out}"
        );
        assert!(
            out.contains(&format!("\x1b[0;38;5;{FG_MOVED};48;5;{BG_WHITE}m[R]")),
            "White's moved rook: {out}"
        );
        assert!(out.contains(&format!("\x1b[0;38;5;{FG_ON_BLACK};48;5;{BG_BLACK}m K ")));
        for line in out.lines().take(18) {
            assert!(line.ends_with("\x1b[0m"), "{line:?}");
        }
        assert!(out.contains("last move direction s"), "{out}");
    }

    #[test]
    fn the_largest_board_fits_its_labels() {
        let g = Splinter::standard(26, 26).unwrap();
        let out = render(
            &g,
            &PictureStyle {
                coords: true,
                ..Default::default()
            },
        );
        assert!(out.starts_with("26   ."), "{out}");
        assert!(out.lines().nth(25).unwrap().starts_with(" 1   ."));
        assert!(out.lines().nth(26).unwrap().ends_with(" y   z"));
    }
}
