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
//! move saw it. [`value_comment`] and [`parse_value_comment`] define the comment `value +0.25`
//! (the mover's view, written after an agent's move by `crumble play`) and
//! [`values_from_comments`] turns such comments into chart values.

use super::{BaseMark, Highlight, capital, edge_labels, status_line, view_pieces};
use crate::game::{Game, Outcome, Reason};
use crate::geom::{Color, Rect};
use crate::notation::{Formatter, Frame};
use crate::record::{GameRecord, result_token};
use std::fmt::Write as _;
use thiserror::Error;

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

/// The comment `crumble play` writes after an agent's move: its value estimate, mover's view.
pub fn value_comment(value: f32) -> String {
    format!("value {value:+.2}")
}

/// The value of a comment written by [`value_comment`] (`value -0.31`), if it is one.
pub fn parse_value_comment(comment: &str) -> Option<f32> {
    let v: f32 = comment.trim().strip_prefix("value ")?.trim().parse().ok()?;
    (v.is_finite() && (-1.0..=1.0).contains(&v)).then_some(v)
}

/// Chart values (Black's view, per position) from the value comments of `rec`: the comment
/// after move `i` is the mover's value of the position before it (position `i`). Empty when
/// no comment carries a value.
pub fn values_from_comments(rec: &GameRecord) -> Vec<Option<f32>> {
    let first = rec.start.to_move();
    let mut out = vec![None; rec.moves.len() + 1];
    let mut any = false;
    for (i, slot) in out.iter_mut().enumerate().take(rec.moves.len()) {
        if let Some(v) = rec.comment(i).and_then(parse_value_comment) {
            // Every move is a whole turn, so the movers alternate.
            let mover = if i.is_multiple_of(2) {
                first
            } else {
                first.opposite()
            };
            *slot = Some(if mover == Color::Black { v } else { -v });
            any = true;
        }
    }
    if any { out } else { Vec::new() }
}

/// One position of the game: the game there, and the move that led to it.
struct Frame1 {
    game: Game,
    /// (highlight, move number text like `3.` or `3...`, notation, mover).
    last: Option<(Option<Highlight>, String, String, Color)>,
}

/// The positions of `rec`: the start and the position after every move; the record's result
/// is applied to the last one when the moves do not reach it (resignation, agreement, turn
/// limit), as [`GameRecord::replay`] does.
fn positions(rec: &GameRecord) -> Result<Vec<Frame1>, HtmlError> {
    let mut out = vec![Frame1 {
        game: rec.start.clone(),
        last: None,
    }];
    let first = rec.start.to_move();
    let mut game = rec.start.clone();
    for (i, mv) in rec.moves.iter().enumerate() {
        let bad = |why: String| HtmlError::Move { number: i + 1, why };
        if game.is_over() {
            return Err(bad("the game is already over".into()));
        }
        let text = Formatter::new(&game, rec.frame)
            .format(&game, mv)
            .ok_or_else(|| bad("it cannot be written in notation".into()))?;
        let highlight = Highlight::of(&game, mv);
        let mover = game.to_move();
        game.play_move(mv).map_err(|e| bad(e.to_string()))?;
        let ply = i + usize::from(first == Color::White);
        let number = if ply.is_multiple_of(2) {
            format!("{}.", ply / 2 + 1)
        } else {
            format!("{}...", ply / 2 + 1)
        };
        out.push(Frame1 {
            game: game.clone(),
            last: Some((highlight, number, text, mover)),
        });
    }
    if let Some(o) = rec.result {
        let last = out.last_mut().expect("the start is always there");
        if !last.game.is_over() {
            last.game.finish(o);
        }
    }
    Ok(out)
}

const CELL: f64 = 100.0;
/// Room for the coordinates around the board.
const MARGIN: f64 = 46.0;

/// A number with at most two decimals and no trailing zeros.
fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// Text for HTML element content and attribute values.
fn esc(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

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
fn labels(s: &mut String, game: &Game, writer_view: Color, near: bool, geo: &Geo) {
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
fn winning_chain(game: &Game) -> Vec<Rect> {
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
        let rc = p.rect;
        let _ = write!(
            s,
            r#"<rect class="{}" x="{}" y="{}" width="{}" height="{}"/>"#,
            if p.color == Color::Black { "b" } else { "w" },
            num(geo.sx(rc.x)),
            num(geo.sy(rc.top())),
            num(f64::from(rc.w) * geo.unit),
            num(f64::from(rc.h) * geo.unit)
        );
    }
    for r in winning_chain(&f.game) {
        let r = if view == Color::White {
            r.rotated(g)
        } else {
            r
        };
        let _ = write!(
            s,
            r#"<rect class="win" x="{}" y="{}" width="{}" height="{}"/>"#,
            num(geo.sx(r.x)),
            num(geo.sy(r.top())),
            num(f64::from(r.w) * geo.unit),
            num(f64::from(r.h) * geo.unit)
        );
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
        let hl = hl.in_view(view, g);
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
            BaseMark::Outline(o) => {
                let _ = write!(
                    s,
                    r#"<rect class="cut" x="{}" y="{}" width="{}" height="{}"/>"#,
                    num(geo.sx(o.x)),
                    num(geo.sy(o.top())),
                    num(f64::from(o.w) * geo.unit),
                    num(f64::from(o.h) * geo.unit)
                );
            }
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

/// The value chart: a line through the known values, a zero line, the result, a cursor.
fn chart_svg(s: &mut String, values: &[Option<f32>], n: usize, result: Option<f32>) {
    const W: f64 = 600.0;
    const H: f64 = 130.0;
    const L: f64 = 34.0;
    const R: f64 = 10.0;
    const T: f64 = 10.0;
    const B: f64 = 10.0;
    let x = |k: usize| L + (W - L - R) * k as f64 / n.max(1) as f64;
    let y = |v: f32| T + (H - T - B) * (1.0 - f64::from(v.clamp(-1.0, 1.0))) / 2.0;
    let _ = write!(
        s,
        r#"<svg id="chart" viewBox="0 0 {W} {H}" role="img" aria-label="search value per position, Black's view" data-left="{L}" data-right="{}" data-n="{n}">"#,
        W - R
    );
    let _ = write!(
        s,
        r#"<rect class="win-b" x="{L}" y="{T}" width="{}" height="{}"/><rect class="win-w" x="{L}" y="{}" width="{}" height="{}"/>"#,
        W - L - R,
        num((H - T - B) / 2.0),
        num(y(0.0)),
        W - L - R,
        num((H - T - B) / 2.0)
    );
    for (v, t) in [(1.0, "+1"), (0.0, "0"), (-1.0, "\u{2212}1")] {
        let _ = write!(
            s,
            r#"<line class="grid" x1="{L}" y1="{0}" x2="{1}" y2="{0}"/><text class="axis" x="{2}" y="{3}" text-anchor="end">{t}</text>"#,
            num(y(v)),
            W - R,
            L - 5.0,
            num(y(v) + 5.0)
        );
    }
    let _ = write!(
        s,
        r#"<text class="zone" x="{}" y="{}">Black winning</text><text class="zone" x="{}" y="{}">White winning</text>"#,
        L + 6.0,
        T + 15.0,
        L + 6.0,
        H - B - 6.0
    );
    // One line through every known value: it joins them across positions without one (a
    // play record has values only where the agent moved).
    let pts: Vec<(f64, f64)> = (0..=n)
        .filter_map(|k| values.get(k).copied().flatten().map(|v| (x(k), y(v))))
        .collect();
    if pts.len() > 1 {
        let line: Vec<String> = pts
            .iter()
            .map(|(a, b)| format!("{},{}", num(*a), num(*b)))
            .collect();
        let _ = write!(s, r#"<polyline class="val" points="{}"/>"#, line.join(" "));
    }
    if n <= 120 {
        for (a, b) in &pts {
            let _ = write!(
                s,
                r#"<circle class="dot" cx="{}" cy="{}" r="2.2"/>"#,
                num(*a),
                num(*b)
            );
        }
    }
    if let Some(v) = result {
        let _ = write!(
            s,
            r#"<rect class="result" x="{}" y="{}" width="8" height="8"><title>result</title></rect>"#,
            num(x(n) - 4.0),
            num(y(v) - 4.0)
        );
    }
    let _ = write!(
        s,
        r#"<line id="cursor" x1="{0}" y1="{T}" x2="{0}" y2="{1}"/></svg>"#,
        num(x(0)),
        H - B
    );
}

/// The move list: a table of full turns, a span per move (`data-ply` = the position after
/// it), value comments as small badges and other comments on a row of their own.
fn move_list(s: &mut String, rec: &GameRecord, frames: &[Frame1]) {
    s.push_str("<div id=\"moves\" tabindex=\"-1\">");
    if let Some(c) = &rec.intro {
        let _ = write!(s, r#"<p class="cmt">{}</p>"#, esc(c));
    }
    s.push_str("<table><thead><tr><th></th><th>Black</th><th>White</th></tr></thead><tbody>");
    let cell = |s: &mut String, k: usize| {
        let Some((_, _, text, _)) = &frames[k].last else {
            return;
        };
        let _ = write!(
            s,
            r#"<td><span class="mv" data-ply="{k}">{}</span>"#,
            esc(text)
        );
        if let Some(v) = rec.comment(k - 1).and_then(parse_value_comment) {
            let _ = write!(
                s,
                r#" <span class="vb" title="the mover's value estimate">{v:+.2}</span>"#
            );
        }
        s.push_str("</td>");
    };
    let other_comment = |k: usize| {
        rec.comment(k - 1)
            .filter(|c| parse_value_comment(c).is_none())
    };
    let n = rec.moves.len();
    let mut k = 1;
    while k <= n {
        let mover = frames[k].last.as_ref().map(|l| l.3);
        let number = frames[k]
            .last
            .as_ref()
            .map(|l| l.1.trim_end_matches('.').to_string())
            .unwrap_or_default();
        let _ = write!(s, r#"<tr><td class="num">{number}.</td>"#);
        if mover == Some(Color::White) {
            // A turn that starts with White (a loaded position, or after a comment row).
            s.push_str("<td class=\"gap\">\u{2026}</td>");
            cell(s, k);
            s.push_str("</tr>");
            if let Some(c) = other_comment(k) {
                let _ = write!(
                    s,
                    r#"<tr class="cmt"><td></td><td colspan="2">{}</td></tr>"#,
                    esc(c)
                );
            }
            k += 1;
            continue;
        }
        cell(s, k);
        if let Some(c) = other_comment(k) {
            // The comment breaks the turn: White's reply goes on the next row.
            let _ = write!(
                s,
                r#"<td></td></tr><tr class="cmt"><td></td><td colspan="2">{}</td></tr>"#,
                esc(c)
            );
            k += 1;
            continue;
        }
        if k < n {
            cell(s, k + 1);
            s.push_str("</tr>");
            if let Some(c) = other_comment(k + 1) {
                let _ = write!(
                    s,
                    r#"<tr class="cmt"><td></td><td colspan="2">{}</td></tr>"#,
                    esc(c)
                );
            }
            k += 2;
        } else {
            s.push_str("<td></td></tr>");
            k += 1;
        }
    }
    let _ = write!(
        s,
        r#"</tbody></table><p id="final">{}</p></div>"#,
        esc(result_token(rec.result))
    );
}

const CSS: &str = r###"
:root{--bg:#efeae0;--panel:#fbf9f4;--ink:#222;--soft:#6b6457;--line:#d9d2c3;--accent:#c2410c;--cur:#fde7c8}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
main{display:flex;gap:20px;padding:16px 20px;align-items:flex-start;flex-wrap:wrap}
h1{font-size:21px;margin:0 0 2px}
.sub{color:var(--soft);font-size:13px;margin:0}
#left{flex:0 1 auto;width:min(100%,calc(100vh - 205px),760px);min-width:300px}
#right{flex:1 1 320px;max-width:480px;min-width:280px;display:flex;flex-direction:column;gap:12px;height:calc(100vh - 40px);min-height:480px}
#movecard{flex:1 1 auto;min-height:150px;display:flex;flex-direction:column;padding:0;overflow:hidden}
.card{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:12px 14px}
#board{width:100%;height:auto;display:block}
#board .ply{display:none}#board .ply.on{display:inline}
#board .b{fill:#262626;stroke:#7d7d7d;stroke-width:1.2}
#board .w{fill:#f7f4ec;stroke:#9a9a9a;stroke-width:1.2}
#board .edge{fill:none;stroke:#3a3a3a;stroke-width:3}
#board .win{fill:#2f9e44;fill-opacity:.42;stroke:#2b8a3e;stroke-width:2.5}
#board .cut{fill:none;stroke:#f08c00;stroke-width:6;stroke-linecap:round;opacity:.95}
#board .step{stroke:#e03131;stroke-width:5;stroke-linecap:round}
#board .start{fill:#e03131}
#board .lb,#board .lw{font-size:21px;font-family:ui-monospace,Menlo,Consolas,monospace}
#board .lb{fill:#3b3b3b}#board .lw{fill:#8d877a}
#status{display:flex;align-items:center;gap:10px;font-size:18px;font-weight:600;margin:8px 2px 0}
.disc{width:20px;height:20px;border-radius:50%;border:2px solid #555;flex:none}
.disc.black{background:#262626}.disc.white{background:#f7f4ec}.disc.none{background:repeating-linear-gradient(45deg,#262626 0 5px,#f7f4ec 5px 10px)}
#last{color:var(--soft);margin:2px 2px 0 32px;font-size:14px;font-family:ui-monospace,Menlo,Consolas,monospace}
#controls{display:flex;align-items:center;gap:6px;margin-top:10px}
#controls button{font-size:15px;min-width:38px;height:32px;border:1px solid #bdb5a4;background:#fff;border-radius:6px;cursor:pointer}
#controls button:hover{background:var(--cur)}
#controls button svg{width:14px;height:14px;fill:#333;display:block;margin:auto}
#play .i-pause{display:none}#play.playing .i-pause{display:inline}#play.playing .i-play{display:none}
#slider{flex:1;accent-color:var(--accent)}
#counter{font-variant-numeric:tabular-nums;color:var(--soft);min-width:74px;text-align:right;font-size:14px}
.legend{color:var(--soft);font-size:12.5px;margin:8px 2px 0}
kbd{font:12px ui-monospace,Menlo,Consolas,monospace;border:1px solid #c8c0b0;border-bottom-width:2px;border-radius:4px;padding:0 4px;background:#fff}
#info dl{display:flex;flex-wrap:wrap;gap:2px 6px;margin:8px 0 0;font-size:13.5px}
#info dl div{display:flex;gap:5px;white-space:nowrap;margin-right:12px}#info dt{color:var(--soft)}#info dd{margin:0;font-weight:500}
#result{font-size:17px;font-weight:700;margin-top:4px}
#moves{flex:1 1 auto;min-height:0;overflow:auto;position:relative;padding:0}
#moves table{border-collapse:collapse;width:100%;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14.5px}
#moves th{position:sticky;top:0;background:var(--panel);text-align:left;color:var(--soft);font:600 12px system-ui,sans-serif;text-transform:uppercase;letter-spacing:.05em;padding:4px 6px;border-bottom:1px solid var(--line)}
#moves td{padding:2px 6px;vertical-align:top}
#moves tr:nth-child(even) td{background:#f4f0e7}
#moves td.num{color:var(--soft);text-align:right;width:3.2em}
#moves .mv{cursor:pointer;padding:1px 5px;border-radius:4px;display:inline-block}
#moves .mv:hover{background:#eee3cf}
#moves .mv.cur{background:var(--accent);color:#fff}
#moves .vb{color:var(--soft);font-size:12px}
#moves .cmt td,#moves p.cmt{font:italic 13px system-ui,sans-serif;color:#5b5446;padding:0 6px 4px}
#final{font-weight:700;margin:6px 10px 8px;font-family:ui-monospace,Menlo,Consolas,monospace}
#chart{width:100%;height:auto;display:block;cursor:pointer}
#chart .win-b{fill:#e4dfd3}#chart .win-w{fill:#f8f6f0}
#chart .grid{stroke:#c9c1b1;stroke-width:1}
#chart .axis{font-size:12px;fill:#6b6457}#chart .zone{font-size:11px;fill:#8d877a}
#chart .val{fill:none;stroke:#1f5fbf;stroke-width:2;stroke-linejoin:round}
#chart .dot{fill:#1f5fbf}
#chart .result{fill:var(--accent)}
#cursor{stroke:var(--accent);stroke-width:2}
.chart-title{font-size:13px;color:var(--soft);margin:0 0 4px}
@media (max-width:900px){#right{max-width:none;height:auto}#moves{max-height:55vh}}
"###;

const JS: &str = r###"
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("crumble-data").textContent);
  var n = data.plies.length - 1;
  var frames = [], marks = [];
  for (var k = 0; k <= n; k++) frames.push(document.getElementById("ply-" + k));
  document.querySelectorAll("#moves .mv").forEach(function (m) {
    marks[+m.dataset.ply] = m;
    m.addEventListener("click", function () { go(+m.dataset.ply); });
  });
  var slider = document.getElementById("slider");
  var statusText = document.getElementById("status-text");
  var disc = document.getElementById("disc");
  var last = document.getElementById("last");
  var counter = document.getElementById("counter");
  var list = document.getElementById("moves");
  var chart = document.getElementById("chart");
  var cursor = document.getElementById("cursor");
  var playBtn = document.getElementById("play");
  var cur = -1, timer = null;

  function xOf(k) {
    var l = +chart.dataset.left, r = +chart.dataset.right;
    return l + (r - l) * k / Math.max(1, n);
  }
  function keepVisible(el) {
    var top = el.offsetTop, bottom = top + el.offsetHeight, head = 28;
    if (top - head < list.scrollTop) list.scrollTop = top - head - 4;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight + 4;
  }
  function go(k) {
    k = Math.max(0, Math.min(n, Math.round(k)));
    if (k === cur) return;
    if (cur >= 0) {
      frames[cur].classList.remove("on");
      if (marks[cur]) marks[cur].classList.remove("cur");
    }
    cur = k;
    frames[k].classList.add("on");
    if (marks[k]) { marks[k].classList.add("cur"); keepVisible(marks[k].closest("tr")); }
    else if (k === 0) list.scrollTop = 0;
    slider.value = k;
    var p = data.plies[k];
    statusText.textContent = p.status;
    disc.className = "disc " + p.disc;
    last.textContent = p.last ? "last move " + p.last : "start position";
    counter.textContent = k + " / " + n;
    if (cursor) { var x = xOf(k); cursor.setAttribute("x1", x); cursor.setAttribute("x2", x); }
    if (history.replaceState) { try { history.replaceState(null, "", "#ply=" + k); } catch (e) {} }
    if (k === n) stop();
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; playBtn.classList.remove("playing"); } }
  function play() {
    if (timer) { stop(); return; }
    if (cur >= n) go(0);
    playBtn.classList.add("playing");
    timer = setInterval(function () { go(cur + 1); }, 900);
  }
  function fromHash() {
    var m = /ply=(\d+)/.exec(location.hash);
    return m ? +m[1] : null;
  }
  slider.addEventListener("input", function () { stop(); go(+slider.value); });
  document.getElementById("first").addEventListener("click", function () { stop(); go(0); });
  document.getElementById("prev").addEventListener("click", function () { stop(); go(cur - 1); });
  document.getElementById("next").addEventListener("click", function () { stop(); go(cur + 1); });
  document.getElementById("end").addEventListener("click", function () { stop(); go(n); });
  playBtn.addEventListener("click", play);
  if (chart) chart.addEventListener("click", function (e) {
    var box = chart.getBoundingClientRect(), vb = chart.viewBox.baseVal;
    var x = (e.clientX - box.left) * vb.width / box.width;
    var l = +chart.dataset.left, r = +chart.dataset.right;
    stop(); go((x - l) / (r - l) * n);
  });
  // Capture phase: the keys step the game wherever the focus is (the slider's own arrow-key
  // handling would otherwise step twice).
  window.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, PageDown: 10, PageUp: -10 }[e.key];
    if (step) { stop(); go(cur + step); }
    else if (e.key === "Home") { stop(); go(0); }
    else if (e.key === "End") { stop(); go(n); }
    else if (e.key === " ") play();
    else return;
    e.preventDefault();
  }, true);
  window.addEventListener("hashchange", function () { var h = fromHash(); if (h !== null) go(h); });
  var h = fromHash();
  go(h !== null ? h : data.start);
})();
"###;

/// The page (see the module documentation).
pub fn render_game(rec: &GameRecord, opts: &HtmlOptions) -> Result<String, HtmlError> {
    let frames = positions(rec)?;
    let n = frames.len() - 1;
    let start_game = &rec.start;
    let b = start_game.board();
    let (size, res) = (b.board_size(), b.resolution());
    let black = rec.tag("Black").unwrap_or("Black");
    let white = rec.tag("White").unwrap_or("White");
    let final_game = &frames[n].game;
    let result_text = match final_game.outcome() {
        Some(_) => status_line(final_game),
        None => format!("{}: unfinished", result_token(rec.result)),
    };

    // Per-position text for the script.
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
    let data = data.to_string().replace("</", "<\\/");

    let mut s = String::with_capacity(4096 + 3000 * (n + 1));
    let title = format!("{black} vs {white}: Crumble {size}\u{d7}{size}");
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"generator\" content=\"crumble view\">\
         <title>{}</title><style>{CSS}</style></head><body><main>\n",
        esc(&title)
    );

    // Left: board, status, controls, legend.
    let side = CELL * f64::from(size);
    let _ = write!(
        s,
        "<section id=\"left\"><div class=\"card\"><svg id=\"board\" viewBox=\"0 0 {0} {0}\" role=\"img\" aria-label=\"the board\">",
        num(side + 2.0 * MARGIN)
    );
    s.push_str(r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#e03131"/></marker></defs>"##);
    s.push('\n');
    for (k, f) in frames.iter().enumerate() {
        frame_svg(&mut s, f, k, k == 0, rec.frame, opts.view);
    }
    s.push_str("</svg>");
    let first_status = status_line(&frames[0].game);
    let _ = write!(
        s,
        r#"<div id="status"><span id="disc" class="disc {}"></span><span id="status-text">{}</span></div><div id="last">start position</div>"#,
        frames[0].game.to_move().name(),
        esc(&first_status)
    );
    let _ = write!(
        s,
        concat!(
            r#"<div id="controls"><button id="first" title="start (Home)"><svg viewBox="0 0 16 16"><path d="M3 3h2v10H3zM13 3v10L6 8z"/></svg></button>"#,
            r#"<button id="prev" title="back (&#x2190;)"><svg viewBox="0 0 16 16"><path d="M11 3v10L4 8z"/></svg></button>"#,
            r#"<button id="play" title="play / pause (space)"><svg viewBox="0 0 16 16"><path class="i-play" d="M5 3v10l8-5z"/><path class="i-pause" d="M4 3h3v10H4zM9 3h3v10H9z"/></svg></button>"#,
            r#"<button id="next" title="forward (&#x2192;)"><svg viewBox="0 0 16 16"><path d="M5 3v10l7-5z"/></svg></button>"#,
            r#"<button id="end" title="end (End)"><svg viewBox="0 0 16 16"><path d="M11 3h2v10h-2zM3 3v10l7-5z"/></svg></button>"#,
            r#"<input id="slider" type="range" min="0" max="{n}" value="0" step="1" aria-label="position">"#,
            r#"<span id="counter">0 / {n}</span></div>"#
        ),
        n = n
    );
    let coords = if rec.frame == Frame::PerPlayer {
        let (near, far) = if opts.view == Color::Black {
            ("Black", "White")
        } else {
            ("White", "Black")
        };
        format!(
            "Coordinates: {near}'s frame along the bottom and left, {far}'s (grey) along the top and right."
        )
    } else if opts.view == Color::Black {
        "Coordinates: Black's frame (every move is written in it) along the bottom and left."
            .to_string()
    } else {
        "Coordinates: Black's frame (every move is written in it) along the top and right."
            .to_string()
    };
    let won = frames[n]
        .game
        .outcome()
        .is_some_and(|o| o.reason == Reason::FourSides);
    let coords = if won {
        coords + " Green: the winning chain."
    } else {
        coords
    };
    let _ = write!(
        s,
        r#"<p class="legend">{} Orange: the last split or join; red: its swap.<br>Keys: <kbd>&#x2190;</kbd> <kbd>&#x2192;</kbd> step, <kbd>PgUp</kbd> <kbd>PgDn</kbd> ten, <kbd>Home</kbd> <kbd>End</kbd>, <kbd>space</kbd> play.</p></div></section>"#,
        esc(&coords)
    );

    // Right: the game's facts, the moves, the chart.
    s.push_str("\n<section id=\"right\"><div class=\"card\" id=\"info\">");
    let _ = write!(
        s,
        r#"<h1><span class="disc black" style="display:inline-block;vertical-align:-3px"></span> {} <span class="sub">vs</span> <span class="disc white" style="display:inline-block;vertical-align:-3px"></span> {}</h1>"#,
        esc(black),
        esc(white)
    );
    if let Some(src) = &opts.source {
        let _ = write!(s, r#"<p class="sub">{}</p>"#, esc(src));
    }
    let _ = write!(s, r#"<div id="result">{}</div><dl>"#, esc(&result_text));
    let _ = write!(
        s,
        "<div><dt>Board</dt><dd>{size}\u{d7}{size}, resolution {res}</dd></div>"
    );
    let standard = Game::new(size, res).is_ok_and(|g| &g == start_game);
    if !standard {
        s.push_str("<div><dt>Start</dt><dd>a custom position</dd></div>");
    }
    let _ = write!(
        s,
        "<div><dt>Frame</dt><dd>{}</dd></div><div><dt>Moves</dt><dd>{n}</dd></div>",
        rec.frame.name()
    );
    for (name, value) in &rec.tags {
        if name == "Black" || name == "White" {
            continue;
        }
        let _ = write!(
            s,
            "<div><dt>{}</dt><dd>{}</dd></div>",
            esc(name),
            esc(value)
        );
    }
    s.push_str("</dl></div>\n<div class=\"card\" id=\"movecard\">");
    move_list(&mut s, rec, &frames);
    s.push_str("</div>\n");
    let values: Vec<Option<f32>> = opts.values.iter().take(n + 1).copied().collect();
    if values.iter().any(Option::is_some) {
        let result = final_game.outcome().map(|o| match o.winner {
            Some(Color::Black) => 1.0,
            Some(Color::White) => -1.0,
            None => 0.0,
        });
        s.push_str(r#"<div class="card" id="chartcard"><p class="chart-title" title="the search's value of each position for Black; the square is the result">Search value, Black's view (click to jump)</p>"#);
        chart_svg(&mut s, &values, n, result);
        s.push_str("</div>");
    }
    s.push_str("</section></main>\n");
    let _ = write!(
        s,
        "<script type=\"application/json\" id=\"crumble-data\">{data}</script>\n<script>{JS}</script>\n</body></html>\n"
    );
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record;

    fn rec(text: &str) -> GameRecord {
        record::parse(text).unwrap()
    }

    #[test]
    fn value_comments_round_trip_and_refuse_other_text() {
        assert_eq!(value_comment(-0.314), "value -0.31");
        assert_eq!(parse_value_comment("value -0.31"), Some(-0.31));
        assert_eq!(parse_value_comment(" value +1.00 "), Some(1.0));
        assert_eq!(parse_value_comment("value 1.5"), None);
        assert_eq!(parse_value_comment("value NaN"), None);
        assert_eq!(parse_value_comment("White resigns."), None);
    }

    #[test]
    fn values_from_comments_are_in_blacks_view_at_the_position_before_the_move() {
        let r = rec("[Result \"*\"]\n\n1. 1HN {value +0.50} 1... 5,5HSWS {value +0.25} *\n");
        assert_eq!(values_from_comments(&r), vec![Some(0.5), Some(-0.25), None]);
        let plain = rec("[Result \"*\"]\n\n1. 1HN 5,5HSWS *\n");
        assert!(values_from_comments(&plain).is_empty());
    }

    #[test]
    fn a_page_has_one_frame_per_position_and_one_entry_per_move() {
        let r = rec(
            "[Black \"Ada <b>\"]\n[White \"Bo\"]\n[Result \"1-0\"]\n[Termination \"resignation\"]\n\n1. 3VE 0HN 2. 0,5H {a </script> comment} 2... 4H 1-0\n",
        );
        let page = render_game(&r, &HtmlOptions::default()).unwrap();
        assert_eq!(page.matches("<g class=\"ply").count(), 5);
        assert_eq!(page.matches("class=\"mv\"").count(), 4);
        assert_eq!(page.matches("<script").count(), 2);
        assert_eq!(
            page.matches("</script>").count(),
            2,
            "the comment is escaped"
        );
        assert!(page.contains("Ada &lt;b&gt;"));
        assert!(page.contains("1-0: Black wins (resignation)"));
        assert!(!page.contains("http://") && !page.contains("https://"));
        assert!(!page.contains("id=\"chart\""), "no values, no chart");
        let with = HtmlOptions {
            values: vec![Some(0.0), Some(0.5), None, Some(-0.5), Some(1.0)],
            ..HtmlOptions::default()
        };
        let page = render_game(&r, &with).unwrap();
        assert!(page.contains("id=\"chart\"") && page.contains("<polyline"));
    }

    #[test]
    fn a_four_sides_win_shows_the_winning_chain_in_the_last_frame_only() {
        let r = rec(include_str!(
            "../../tests/data/records/custom-start-win.rec"
        ));
        let page = render_game(&r, &HtmlOptions::default()).unwrap();
        let last = &page[page.find("id=\"ply-1\"").unwrap()..];
        let first = &page[..page.find("id=\"ply-1\"").unwrap()];
        assert!(
            last.matches("class=\"win\"").count() >= 6,
            "a chain across the board"
        );
        assert_eq!(first.matches("class=\"win\"").count(), 0);
        assert!(page.contains("Green: the winning chain."));
        // A resignation has no chain.
        let r = rec("[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. 1HN 0-1\n");
        let page = render_game(&r, &HtmlOptions::default()).unwrap();
        assert!(!page.contains("class=\"win\""));
    }

    #[test]
    fn an_illegal_move_is_refused_with_its_number() {
        let mut r = rec("[Result \"*\"]\n\n1. 1HN 5,5HSWS *\n");
        let first = r.moves[0].clone();
        r.moves.push(first);
        let e = render_game(&r, &HtmlOptions::default()).unwrap_err();
        assert!(e.to_string().starts_with("move 3 "), "{e}");
    }
}
