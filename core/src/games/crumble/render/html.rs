//! A whole game as one self-contained HTML page (no scripts, fonts or images from anywhere
//! else, so it opens offline): the board as SVG, one pre-drawn frame per position (the start
//! and the position after every move, the last move highlighted), a move list in notation, a
//! slider, buttons and arrow keys to step through the game, the side to move and the result,
//! and, when values are given, a small chart of the search's value per position.
//!
//! The frames are drawn here rather than in the browser so that what the page shows is what
//! the rules engine computed; the page's script only switches frames and updates the text.
//!
//! **Coordinates.** Notation positions count intersections from the writer's lower-left
//! corner (see [`super`]). In the per-player frame both players write in their own view, so
//! the board carries both sets of labels: the viewer's along the bottom and left edges, the
//! other player's along the top and right edges (their bottom and left). In the absolute
//! frame only Black's labels are drawn.
//!
//! **Values** (`HtmlOptions::values`): `values[k]` is the value of the position after `k`
//! moves from Black's view (`+1` Black wins, `-1` White wins), as the search of the player to
//! move saw it. [`value_comment`](crate::render::value_comment) and [`parse_value_comment`](crate::render::parse_value_comment) define the comment `value +0.25`
//! (the mover's view, written after an agent's move by `crumble play`) and
//! [`values_from_comments`] turns such comments into chart values.

use super::{BaseMark, Highlight, edge_labels, status_line, view_pieces};
use crate::game::Color;
use crate::game::GameText;
use crate::game::record::Record;
use crate::games::crumble::game::{Crumble, Outcome, Reason};
use crate::games::crumble::geom::Rect;
use crate::games::crumble::notation::Frame;
use crate::render::page::{self, Page, esc, num};
use crate::render::record_page::facts;
use crate::render::{capital, values_from_moves_comments};
use std::fmt::Write as _;
use thiserror::Error;

mod moves;
use moves::move_list;

/// What to draw besides the record itself.
#[derive(Clone, Debug)]
pub struct HtmlOptions {
    /// Whose side of the board is at the bottom (White's view is rotated by 180°).
    pub view: Color,
    /// Search values per position, Black's view (see the module documentation); empty for
    /// none. Entries past the last position are ignored.
    pub values: Vec<Option<f32>>,
    /// Where the game came from (a file name), shown under the heading.
    pub source: Option<String>,
}

impl Default for HtmlOptions {
    fn default() -> HtmlOptions {
        HtmlOptions {
            view: Color::Black,
            values: Vec::new(),
            source: None,
        }
    }
}

/// Why a record could not be drawn.
#[derive(Debug, Error)]
pub enum HtmlError {
    /// A move of the record does not replay from the position before it.
    #[error("move {number} of the record is not legal in its position: {why}")]
    Move { number: usize, why: String },
}

/// Chart values (Black's view, per position) from the value comments of `rec`: the comment
/// after move `i` is the mover's value of the position before it (position `i`). Empty when
/// no comment carries a value.
pub fn values_from_comments(rec: &Record<Crumble>) -> Vec<Option<f32>> {
    values_from_moves_comments(
        rec.start.to_move(),
        (0..rec.moves.len()).map(|i| rec.comment(i)),
    )
}

/// One position of the game: the game there, and the move that led to it.
struct Frame1 {
    game: Crumble,
    /// (highlight, move number text like `3.` or `3...`, notation, mover).
    last: Option<(Option<Highlight>, String, String, Color)>,
}

/// The positions of `rec`: the start and the position after every move; the record's result
/// is applied to the last one when the moves do not reach it (resignation, agreement, turn
/// limit), as [`Record::ended_positions`] does.
fn positions(rec: &Record<Crumble>) -> Result<Vec<Frame1>, HtmlError> {
    let mut out = vec![Frame1 {
        game: rec.start.clone(),
        last: None,
    }];
    let mut game = rec.start.clone();
    for (i, turn) in rec.moves.iter().enumerate() {
        let bad = |why: String| HtmlError::Move { number: i + 1, why };
        if game.is_over() {
            return Err(bad("the game is already over".into()));
        }
        let mv = game
            .move_from_decisions(turn)
            .map_err(|e| bad(e.to_string()))?;
        let text = game
            .move_text(turn, rec.notation)
            .map_err(|e| bad(e.to_string()))?;
        let highlight = Highlight::of(&game, &mv);
        let mover = game.to_move();
        game.play_move(&mv).map_err(|e| bad(e.to_string()))?;
        out.push(Frame1 {
            game: game.clone(),
            last: Some((highlight, rec.number(i), text, mover)),
        });
    }
    let last = &mut out.last_mut().expect("the start is always there").game;
    if let Some(end) = rec.end
        && !last.is_over()
    {
        let winner = rec.winner(last).flatten();
        last.end_as(end, winner);
    }
    Ok(out)
}

const CELL: f64 = 100.0;
/// Room for the coordinates around the board.
const MARGIN: f64 = 46.0;

/// Board geometry in SVG user units (one cell is 100 units; `y` grows downwards).
struct Geo {
    unit: f64,
    side: f64,
    g: u16,
}

impl Geo {
    fn sx(&self, x: u16) -> f64 {
        MARGIN + f64::from(x) * self.unit
    }
    fn sy(&self, y: u16) -> f64 {
        MARGIN + self.side - f64::from(y) * self.unit
    }
    fn centre(&self, r: Rect) -> (f64, f64) {
        (
            (self.sx(r.x) + self.sx(r.right())) / 2.0,
            (self.sy(r.y) + self.sy(r.top())) / 2.0,
        )
    }
}

/// Edge labels of one writer's view, placed on the edges of the drawn view: `near` (the
/// writer sees the board as drawn) puts them along the bottom and left edges, otherwise along
/// the top and right edges. Labels closer than a label's width to the previous one drawn are
/// left out (small pieces crowd an edge).
fn labels(s: &mut String, game: &Crumble, writer_view: Color, near: bool, geo: &Geo) {
    let pieces = view_pieces(game, writer_view);
    let (along_x, along_y) = edge_labels(&pieces);
    let class = if writer_view == Color::Black {
        "lb"
    } else {
        "lw"
    };
    let g = geo.g;
    let mut last = f64::NEG_INFINITY;
    for (x, k) in along_x {
        let cx = if near { geo.sx(x) } else { geo.sx(g - x) };
        if (cx - last).abs() < 26.0 {
            continue;
        }
        last = cx;
        let cy = if near {
            geo.sy(0) + 30.0
        } else {
            geo.sy(g) - 14.0
        };
        let _ = write!(
            s,
            r#"<text class="{class}" x="{}" y="{}" text-anchor="middle">{k}</text>"#,
            num(cx),
            num(cy)
        );
    }
    let mut last = f64::NEG_INFINITY;
    for (y, k) in along_y {
        let cy = if near { geo.sy(y) } else { geo.sy(g - y) };
        if (cy - last).abs() < 22.0 {
            continue;
        }
        last = cy;
        let (cx, anchor) = if near {
            (geo.sx(0) - 9.0, "end")
        } else {
            (geo.sx(g) + 9.0, "start")
        };
        let _ = write!(
            s,
            r#"<text class="{class}" x="{}" y="{}" text-anchor="{anchor}">{k}</text>"#,
            num(cx),
            num(cy + 7.0)
        );
    }
}

/// The winner's chain that touches all four sides (RULES.md 3.1) in a game won that way, so
/// the page can show why the game ended; empty otherwise.
fn winning_chain(game: &Crumble) -> Vec<Rect> {
    let Some(Outcome {
        winner: Some(w),
        reason: Reason::FourSides,
    }) = game.outcome()
    else {
        return Vec::new();
    };
    let g = game.grid_size();
    let pieces: Vec<Rect> = game
        .board()
        .sorted_pieces()
        .into_iter()
        .filter(|p| p.color == w)
        .map(|p| p.rect)
        .collect();
    // Edge-neighbours share a boundary segment of positive length (rule 2.3).
    let touch = |a: Rect, b: Rect| {
        ((a.right() == b.x || b.right() == a.x) && a.y.max(b.y) < a.top().min(b.top()))
            || ((a.top() == b.y || b.top() == a.y) && a.x.max(b.x) < a.right().min(b.right()))
    };
    let mut seen = vec![false; pieces.len()];
    for first in 0..pieces.len() {
        if seen[first] {
            continue;
        }
        seen[first] = true;
        let mut chain = vec![first];
        let mut i = 0;
        while i < chain.len() {
            let a = pieces[chain[i]];
            for (j, &b) in pieces.iter().enumerate() {
                if !seen[j] && touch(a, b) {
                    seen[j] = true;
                    chain.push(j);
                }
            }
            i += 1;
        }
        let sides = chain.iter().fold(0u8, |m, &k| m | pieces[k].side_mask(g));
        if sides == 0b1111 {
            return chain.into_iter().map(|k| pieces[k]).collect();
        }
    }
    Vec::new()
}

/// One frame: the pieces, the board's outline, the last move and the coordinates.
fn frame_svg(s: &mut String, f: &Frame1, k: usize, on: bool, frame: Frame, view: Color) {
    let b = f.game.board();
    let (n, r, g) = (b.board_size(), b.resolution(), b.grid_size());
    let geo = Geo {
        unit: CELL / f64::from(r),
        side: CELL * f64::from(n),
        g,
    };
    let pieces = view_pieces(&f.game, view);
    let _ = write!(
        s,
        "<g class=\"ply{}\" id=\"ply-{k}\">",
        if on { " on" } else { "" }
    );
    for p in &pieces {
        let class = if p.color == Color::Black { "b" } else { "w" };
        rect(s, class, p.rect, &geo);
    }
    for r in winning_chain(&f.game) {
        let r = if view == Color::White {
            r.rotated(g)
        } else {
            r
        };
        rect(s, "win", r, &geo);
    }
    let _ = write!(
        s,
        r#"<rect class="edge" x="{}" y="{}" width="{}" height="{}"/>"#,
        num(MARGIN),
        num(MARGIN),
        num(geo.side),
        num(geo.side)
    );
    if let Some((Some(hl), ..)) = &f.last {
        last_move(s, &hl.in_view(view, g), &geo);
    }
    // Each writer's labels, in the view they write in.
    let mut writers = vec![Color::Black];
    if frame == Frame::PerPlayer {
        writers.push(Color::White);
    }
    for w in writers {
        labels(s, &f.game, w, w == view, &geo);
    }
    s.push_str("</g>\n");
}

/// A rectangle of class `class` over `r` (view coordinates).
fn rect(s: &mut String, class: &str, r: Rect, geo: &Geo) {
    let _ = write!(
        s,
        r#"<rect class="{class}" x="{}" y="{}" width="{}" height="{}"/>"#,
        num(geo.sx(r.x)),
        num(geo.sy(r.top())),
        num(f64::from(r.w) * geo.unit),
        num(f64::from(r.h) * geo.unit)
    );
}

/// The last move `hl` (in the drawn view): its cut line or join outline, and its swap path
/// as a dot on the start and an arrow per step.
fn last_move(s: &mut String, hl: &Highlight, geo: &Geo) {
    match hl.base {
        BaseMark::Cut { from, to } => {
            let _ = write!(
                s,
                r#"<line class="cut" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
                num(geo.sx(from.0)),
                num(geo.sy(from.1)),
                num(geo.sx(to.0)),
                num(geo.sy(to.1))
            );
        }
        BaseMark::Outline(o) => rect(s, "cut", o, geo),
    }
    if let Some(&first) = hl.path.first() {
        let (cx, cy) = geo.centre(first);
        let rad = (f64::from(first.w.min(first.h)) * geo.unit * 0.14).clamp(2.5, 9.0);
        let _ = write!(
            s,
            r#"<circle class="start" cx="{}" cy="{}" r="{}"/>"#,
            num(cx),
            num(cy),
            num(rad)
        );
    }
    for pair in hl.path.windows(2) {
        let (a, z) = (geo.centre(pair[0]), geo.centre(pair[1]));
        // End a little short of the target's centre so the arrow head stays inside it.
        let (dx, dy) = (z.0 - a.0, z.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let short = (len * 0.15).min(8.0);
        let _ = write!(
            s,
            r#"<line class="step" x1="{}" y1="{}" x2="{}" y2="{}" marker-end="url(#arrow)"/>"#,
            num(a.0),
            num(a.1),
            num(z.0 - dx / len * short),
            num(z.1 - dy / len * short)
        );
    }
}

/// The page (see the module documentation).
pub fn render_game(rec: &Record<Crumble>, opts: &HtmlOptions) -> Result<String, HtmlError> {
    let frames = positions(rec)?;
    let n = frames.len() - 1;
    let size = rec.start.board().board_size();
    let black = rec.tag("Black").unwrap_or("Black");
    let white = rec.tag("White").unwrap_or("White");
    let final_game = &frames[n].game;
    let result_text = match final_game.outcome() {
        Some(_) => status_line(final_game),
        None => format!("{}: unfinished", rec.result_token(final_game)),
    };
    let data = plies_data(&frames);
    let board = board_svg(&frames, size, rec.notation, opts.view);
    let won = frames[n]
        .game
        .outcome()
        .is_some_and(|o| o.reason == Reason::FourSides);
    let coords = coords_legend(rec.notation, opts.view, won);
    let facts = facts(rec, &rec.start, n, &[("Frame", rec.notation.name())]);
    let mut moves = String::new();
    move_list(&mut moves, rec, &frames);
    let result = final_game.outcome().map(|o| match o.winner {
        Some(Color::Black) => 1.0,
        Some(Color::White) => -1.0,
        None => 0.0,
    });
    Ok(page::write(&Page {
        title: format!("{black} vs {white}: Crumble {size}\u{d7}{size}"),
        extra_css: "",
        board,
        n,
        first_status: status_line(&frames[0].game),
        first_disc: frames[0].game.to_move().name(),
        legend: format!(
            "{} Orange: the last split or join; red: its swap.",
            esc(&coords)
        ),
        black,
        white,
        source: opts.source.as_deref(),
        result_text,
        facts,
        moves,
        values: &opts.values,
        result,
        data,
    }))
}

/// Per-position text for the page's script (status, disc colour, last move), as JSON safe
/// inside a script element.
fn plies_data(frames: &[Frame1]) -> String {
    let plies: Vec<serde_json::Value> = frames
        .iter()
        .map(|f| {
            let disc = match f.game.outcome() {
                Some(o) => o.winner.map_or("none", |c| c.name()),
                None => f.game.to_move().name(),
            };
            let last = f
                .last
                .as_ref()
                .map(|(_, number, text, mover)| format!("{number} {text} ({})", capital(*mover)));
            serde_json::json!({"status": status_line(&f.game), "disc": disc, "last": last})
        })
        .collect();
    let data = serde_json::json!({"plies": plies, "start": 0});
    // `</` inside a script element would end it; `<\/` is the same JSON string.
    data.to_string().replace("</", "<\\/")
}

/// The board: one SVG with a frame per position, the first one shown.
fn board_svg(frames: &[Frame1], size: u16, notation: Frame, view: Color) -> String {
    let mut board = String::with_capacity(3000 * frames.len());
    let _ = write!(
        board,
        "<svg id=\"board\" viewBox=\"0 0 {0} {0}\" role=\"img\" aria-label=\"the board\">",
        num(CELL * f64::from(size) + 2.0 * MARGIN)
    );
    board.push_str(r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#e03131"/></marker></defs>"##);
    board.push('\n');
    for (k, f) in frames.iter().enumerate() {
        frame_svg(&mut board, f, k, k == 0, notation, view);
    }
    board.push_str("</svg>");
    board
}

/// The legend's words on the coordinates drawn (and on the winning chain when `won`).
fn coords_legend(notation: Frame, view: Color, won: bool) -> String {
    let coords = if notation == Frame::PerPlayer {
        let (near, far) = if view == Color::Black {
            ("Black", "White")
        } else {
            ("White", "Black")
        };
        format!(
            "Coordinates: {near}'s frame along the bottom and left, {far}'s (grey) along the top and right."
        )
    } else if view == Color::Black {
        "Coordinates: Black's frame (every move is written in it) along the bottom and left."
            .to_string()
    } else {
        "Coordinates: Black's frame (every move is written in it) along the top and right."
            .to_string()
    };
    if won {
        coords + " Green: the winning chain."
    } else {
        coords
    }
}

#[cfg(test)]
mod tests;
