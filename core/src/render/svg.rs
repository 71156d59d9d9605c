//! What every game's SVG pictures share: the colours of the two sides, the background,
//! number formatting and escaping.

use crate::game::Color;
use std::fmt::Write as _;

/// Fill of Black's pieces (also the Splinter pictures').
pub const BLACK_FILL: &str = "#262626";

/// Fill of White's pieces.
pub const WHITE_FILL: &str = "#f7f4ec";

/// The picture's background.
pub const BACKGROUND: &str = "#e9e4d8";

/// The fill of a piece (or a status disc) of colour `c`.
pub fn fill(c: Color) -> &'static str {
    match c {
        Color::Black => BLACK_FILL,
        Color::White => WHITE_FILL,
    }
}

/// The status line's disc in the colour of the side to move (or the winner), one line.
pub fn status_disc(cx: f64, cy: f64, c: Color) -> String {
    format!(
        r##"<circle class="to-move" cx="{}" cy="{}" r="11" fill="{}" stroke="#555" stroke-width="1.5"/>"##,
        num(cx),
        num(cy),
        fill(c)
    ) + "\n"
}

/// A number with at most two decimals and no trailing zeros.
pub fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// `t` escaped for SVG text and attribute values.
/// The opening tag of a `width` × `height` picture (sized by its `viewBox` alone) and its
/// title, each on a line.
pub fn open(s: &mut String, (width, height): (f64, f64), title: &str) {
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" font-family="sans-serif">"#,
        num(width),
        num(height)
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
}

pub fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The arrow head of the last move's steps, in the colour of `.step` lines.
pub const ARROW_MARKER: &str = r##"<marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#d7301f"/></marker>"##;

/// A generous estimate of the width of `text` in a sans-serif font of `px` pixels (0.6 em a
/// character), so that a picture is made wide enough for its status lines.
pub fn text_width(text: &str, px: f64) -> f64 {
    text.chars().count() as f64 * px * 0.6
}
