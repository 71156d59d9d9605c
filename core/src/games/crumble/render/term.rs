//! The board for a terminal: piece boundaries as lines, pieces filled by colour, the edge
//! coordinates, the last move's cut line or join outline drawn heavier and its swap path as
//! arrows. With colour (ANSI 256-colour codes, box-drawing lines) or as plain ASCII (`+-|`
//! lines, Black's pieces filled with `#`, the last move's lines as `=`/`!`): the caller
//! decides (the CLI looks at `NO_COLOR` and whether stdout is a terminal).
//!
//! The drawing is not to scale where pieces are small: every piece gets at least one character
//! inside, and larger pieces keep their proportions (a cell is about 8×4 characters on boards
//! up to 6, 6×3 up to 8, 4×2 beyond).

use super::{BaseMark, Highlight, edge_labels, status_line, view_pieces};
use crate::game::Color;
use crate::games::crumble::game::Crumble;
use crate::games::crumble::geom::{Dir, Piece, Rect};
use crate::render::PictureStyle;
use crate::render::term::{BG_BLACK, BG_HOT, BG_WHITE, FG_HOT, sgr};
use std::fmt::Write as _;

const UP: u8 = 1;
const DOWN: u8 = 2;
const LEFT: u8 = 4;
const RIGHT: u8 = 8;

#[derive(Clone, Copy, Default)]
struct Cell {
    /// Line connections (`UP`, ...) of a boundary cell; 0 inside a piece.
    lines: u8,
    /// Highlighted connections (the last move's cut or outline).
    hot: u8,
    /// The piece colour filling an inside cell.
    fill: Option<Color>,
    /// A swap-path marker.
    mark: Option<char>,
}

/// Canvas positions of the sorted coordinates `cs` (which include every cell line `k·r`).
/// Each cell band gets about `per_cell` characters; a band holding small pieces is stretched
/// (up to 2.5 times) so that its pieces keep their proportions, and any interval still
/// shorter than two characters (a line and one character inside) is pushed to two.
fn layout(cs: &[u16], r: u16, per_cell: usize) -> Vec<usize> {
    let mut pos = vec![0usize; cs.len()];
    let mut i = 0;
    while i + 1 < cs.len() {
        // The band from cs[i] (a cell line) to the next cell line.
        let band_start = cs[i];
        let mut j = i + 1;
        while !cs[j].is_multiple_of(r) {
            j += 1;
        }
        let min_len = cs[i..=j].windows(2).map(|w| w[1] - w[0]).min().unwrap_or(r);
        let base = per_cell as f64 / f64::from(r);
        let scale = base.max(2.0 / f64::from(min_len)).min(2.5 * base);
        for k in i + 1..=j {
            let want = pos[i] + (f64::from(cs[k] - band_start) * scale).round() as usize;
            pos[k] = want.max(pos[k - 1] + 2);
        }
        i = j;
    }
    pos
}

fn index_of(cs: &[u16], v: u16) -> usize {
    cs.binary_search(&v).expect("a boundary coordinate")
}

const BG_LINE: u8 = 246;
const FG_LINE: u8 = 240;
const FG_MARK: u8 = 196;
const FG_MARK_ON_BLACK: u8 = 210;

/// The drawing surface: one [`Cell`] per character, row 0 at the top of the board, and the
/// canvas position of every boundary coordinate (`xs`, `ys`, in the view's grid units).
struct Canvas {
    cells: Vec<Cell>,
    w: usize,
    h: usize,
    xs: Vec<u16>,
    ys: Vec<u16>,
    px: Vec<usize>,
    py: Vec<usize>,
}

impl Canvas {
    /// An empty canvas laid out for `pieces` on an `n`×`n` board of resolution `r`.
    fn new(pieces: &[Piece], n: u16, r: u16) -> Canvas {
        let (cw, ch) = if n <= 6 {
            (8, 4)
        } else if n <= 8 {
            (6, 3)
        } else {
            (4, 2)
        };
        let mut xs: Vec<u16> = pieces
            .iter()
            .flat_map(|p| [p.rect.x, p.rect.right()])
            .collect();
        let mut ys: Vec<u16> = pieces
            .iter()
            .flat_map(|p| [p.rect.y, p.rect.top()])
            .collect();
        xs.extend((0..=n).map(|k| k * r));
        ys.extend((0..=n).map(|k| k * r));
        xs.sort_unstable();
        xs.dedup();
        ys.sort_unstable();
        ys.dedup();
        let px = layout(&xs, r, cw);
        let py = layout(&ys, r, ch);
        let (w, h) = (px[px.len() - 1] + 1, py[py.len() - 1] + 1);
        Canvas {
            cells: vec![Cell::default(); w * h],
            w,
            h,
            xs,
            ys,
            px,
            py,
        }
    }

    fn col(&self, x: u16) -> usize {
        self.px[index_of(&self.xs, x)]
    }

    fn row(&self, y: u16) -> usize {
        self.h - 1 - self.py[index_of(&self.ys, y)]
    }

    fn at(&self, c: usize, rw: usize) -> usize {
        rw * self.w + c
    }

    fn hline(&mut self, rw: usize, c0: usize, c1: usize, hot: bool) {
        for c in c0..=c1 {
            let i = self.at(c, rw);
            let cell = &mut self.cells[i];
            let bits = if c > c0 { LEFT } else { 0 } | if c < c1 { RIGHT } else { 0 };
            cell.lines |= bits;
            if hot {
                cell.hot |= bits;
            }
        }
    }

    /// `r0` is the top row (smaller index).
    fn vline(&mut self, c: usize, r0: usize, r1: usize, hot: bool) {
        for rw in r0..=r1 {
            let i = self.at(c, rw);
            let cell = &mut self.cells[i];
            let bits = if rw > r0 { UP } else { 0 } | if rw < r1 { DOWN } else { 0 };
            cell.lines |= bits;
            if hot {
                cell.hot |= bits;
            }
        }
    }

    /// The four sides of `rc`.
    fn outline(&mut self, rc: Rect, hot: bool) {
        let (c0, c1, top, bottom) = (
            self.col(rc.x),
            self.col(rc.right()),
            self.row(rc.top()),
            self.row(rc.y),
        );
        self.hline(top, c0, c1, hot);
        self.hline(bottom, c0, c1, hot);
        self.vline(c0, top, bottom, hot);
        self.vline(c1, top, bottom, hot);
    }

    /// A piece: its inside filled with its colour, its outline.
    fn piece(&mut self, p: &Piece) {
        let rc = p.rect;
        let (c0, c1, top, bottom) = (
            self.col(rc.x),
            self.col(rc.right()),
            self.row(rc.top()),
            self.row(rc.y),
        );
        for rw in top + 1..bottom {
            for c in c0 + 1..c1 {
                let i = self.at(c, rw);
                self.cells[i].fill = Some(p.color);
            }
        }
        self.outline(rc, false);
    }

    /// The last move (in the view's frame): its cut line or join outline drawn hot, and the
    /// swap path: `o` on the starting piece, then an arrow on every target showing the
    /// direction of the step into it.
    fn last_move(&mut self, hl: &Highlight, color: bool) {
        match hl.base {
            BaseMark::Cut { from, to } => {
                if from.1 == to.1 {
                    self.hline(
                        self.row(from.1),
                        self.col(from.0.min(to.0)),
                        self.col(from.0.max(to.0)),
                        true,
                    );
                } else {
                    self.vline(
                        self.col(from.0),
                        self.row(from.1.max(to.1)),
                        self.row(from.1.min(to.1)),
                        true,
                    );
                }
            }
            BaseMark::Outline(o) => self.outline(o, true),
        }
        for (i, rc) in hl.path.iter().enumerate() {
            let mark = if i == 0 {
                'o'
            } else {
                step_arrow(hl.steps[i - 1], color)
            };
            let c = (self.col(rc.x) + self.col(rc.right())) / 2;
            let rw = (self.row(rc.y) + self.row(rc.top())) / 2;
            let i = self.at(c, rw);
            self.cells[i].mark = Some(mark);
        }
    }

    /// The label of each row along the left edge (empty for most), skipping one too close
    /// to the label above it.
    fn left_labels(&self, labels: &[(u16, u32)]) -> Vec<String> {
        let mut left_text: Vec<String> = vec![String::new(); self.h];
        let mut last_row = usize::MAX;
        for &(y, k) in labels.iter().rev() {
            let rw = self.row(y);
            if last_row != usize::MAX && rw <= last_row + 1 && rw != self.h - 1 {
                continue; // too close to the label above
            }
            left_text[rw] = k.to_string();
            last_row = rw;
        }
        left_text
    }

    /// The canvas line by line, each after its left label when `left_text` is given, with
    /// colour codes when `color`.
    fn write_rows(&self, out: &mut String, left_text: Option<&[String]>, color: bool) {
        for rw in 0..self.h {
            if let Some(left_text) = left_text {
                let _ = write!(out, "{:>3} ", left_text[rw]);
            }
            let mut style: Option<(u8, Option<u8>)> = None;
            for c in 0..self.w {
                let cell = self.cells[self.at(c, rw)];
                let (ch_, fg, bg) = glyph(cell, color);
                if color && style != Some((bg, fg)) {
                    sgr(out, fg, bg);
                    style = Some((bg, fg));
                }
                out.push(ch_);
            }
            if color {
                *out += "\x1b[0m";
            }
            out.push('\n');
        }
    }

    /// The line of labels under the board, after a `gutter`, skipping one that would touch
    /// the label before it.
    fn write_bottom_labels(&self, out: &mut String, gutter: usize, labels: &[(u16, u32)]) {
        let mut line = " ".repeat(gutter + self.w + 4);
        let mut free_from = 0;
        for &(x, k) in labels {
            let text = k.to_string();
            let c = gutter + self.col(x);
            // Centre one-digit labels on the corner, start longer ones at it.
            let start = c.saturating_sub(text.len() / 2);
            if start < free_from {
                continue;
            }
            line.replace_range(start..start + text.len(), &text);
            free_from = start + text.len() + 1;
        }
        *out += line.trim_end();
        out.push('\n');
    }
}

/// The arrow of a swap step in direction `d`: a Unicode arrow with colour, else ASCII.
fn step_arrow(d: Dir, color: bool) -> char {
    match (d, color) {
        (Dir::N, true) => '↑',
        (Dir::E, true) => '→',
        (Dir::S, true) => '↓',
        (Dir::W, true) => '←',
        (Dir::N, false) => '^',
        (Dir::E, false) => '>',
        (Dir::S, false) => 'v',
        (Dir::W, false) => '<',
    }
}

/// Draws the position (see the module documentation) with status lines under it.
pub fn render(game: &Crumble, opts: &PictureStyle<Highlight>) -> String {
    let b = game.board();
    let (n, r, g) = (b.board_size(), b.resolution(), b.grid_size());
    let pieces = view_pieces(game, opts.view);
    let mut canvas = Canvas::new(&pieces, n, r);
    for p in &pieces {
        canvas.piece(p);
    }
    if let Some(hl) = opts.highlight.as_ref().map(|hl| hl.in_view(opts.view, g)) {
        canvas.last_move(&hl, opts.color);
    }

    // Edge labels.
    let gutter = if opts.coords { 4 } else { 0 };
    let (bottom_labels, left_labels) = edge_labels(&pieces);
    let left_text = opts.coords.then(|| canvas.left_labels(&left_labels));

    let mut out = String::new();
    canvas.write_rows(&mut out, left_text.as_deref(), opts.color);
    if opts.coords {
        canvas.write_bottom_labels(&mut out, gutter, &bottom_labels);
    }
    out += &" ".repeat(gutter);
    out += &status_line(game);
    if let Some(m) = &opts.last_move {
        let _ = write!(out, "; last move {m}");
    }
    if opts.view == Color::White {
        out += "; White's view";
    }
    out.push('\n');
    out
}

/// Character, foreground and background colour of one canvas cell.
fn glyph(cell: Cell, color: bool) -> (char, Option<u8>, u8) {
    if cell.lines != 0 {
        let hot = cell.hot != 0;
        let c = if color {
            box_char(cell.lines, hot)
        } else if hot {
            match cell.hot {
                b if b & (LEFT | RIGHT) != 0 && b & (UP | DOWN) == 0 => '=',
                b if b & (UP | DOWN) != 0 && b & (LEFT | RIGHT) == 0 => '!',
                _ => '*',
            }
        } else {
            match cell.lines {
                b if b & (LEFT | RIGHT) != 0 && b & (UP | DOWN) == 0 => '-',
                b if b & (UP | DOWN) != 0 && b & (LEFT | RIGHT) == 0 => '|',
                _ => '+',
            }
        };
        let (fg, bg) = if hot {
            (FG_HOT, BG_HOT)
        } else {
            (FG_LINE, BG_LINE)
        };
        return (c, Some(fg), bg);
    }
    let bg = match cell.fill {
        Some(Color::Black) => BG_BLACK,
        _ => BG_WHITE,
    };
    if let Some(m) = cell.mark {
        let fg = if cell.fill == Some(Color::Black) {
            FG_MARK_ON_BLACK
        } else {
            FG_MARK
        };
        return (m, Some(fg), bg);
    }
    let c = match (color, cell.fill) {
        (false, Some(Color::Black)) => '#',
        _ => ' ',
    };
    (c, None, bg)
}

/// A box-drawing character for the connections `bits` (heavy lines when `hot`).
fn box_char(bits: u8, hot: bool) -> char {
    let (u, d, l, r) = (
        bits & UP != 0,
        bits & DOWN != 0,
        bits & LEFT != 0,
        bits & RIGHT != 0,
    );
    let light = match (u, d, l, r) {
        (false, false, true, true) | (false, false, true, false) | (false, false, false, true) => {
            '─'
        }
        (true, true, false, false) | (true, false, false, false) | (false, true, false, false) => {
            '│'
        }
        (false, true, false, true) => '┌',
        (false, true, true, false) => '┐',
        (true, false, false, true) => '└',
        (true, false, true, false) => '┘',
        (true, true, false, true) => '├',
        (true, true, true, false) => '┤',
        (false, true, true, true) => '┬',
        (true, false, true, true) => '┴',
        _ => '┼',
    };
    if !hot {
        return light;
    }
    match light {
        '─' => '━',
        '│' => '┃',
        '┌' => '┏',
        '┐' => '┓',
        '└' => '┗',
        '┘' => '┛',
        '├' => '┣',
        '┤' => '┫',
        '┬' => '┳',
        '┴' => '┻',
        _ => '╋',
    }
}
