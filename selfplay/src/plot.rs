//! A small SVG chart for ratings: points with vertical error bars joined by a line (a
//! training run's checkpoints, rating against generation), horizontal reference lines
//! (baseline agents), axes with "nice" ticks, axis labels and a title. Pure text, no I/O.

use std::fmt::Write as _;

/// One point with its interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    pub low: f64,
    pub high: f64,
}

/// A horizontal line with a label (a baseline's rating), optionally with its interval as a
/// shaded band.
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    pub label: String,
    pub y: f64,
    pub low: f64,
    pub high: f64,
}

/// What to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chart {
    pub title: String,
    /// A line of small print under the title (what the marks mean).
    pub note: String,
    pub x_label: String,
    pub y_label: String,
    pub points: Vec<Point>,
    pub references: Vec<Reference>,
}

const W: f64 = 860.0;
const H: f64 = 520.0;
const LEFT: f64 = 84.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 64.0;
const BOTTOM: f64 = 70.0;

/// Tick positions covering `[lo, hi]` with about `n` steps of 1, 2 or 5 × 10^k.
fn ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let span = (hi - lo).max(1e-9);
    let raw = span / n.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * mag);
    let (k0, k1) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
    (k0..=k1).map(|k| k as f64 * step).collect()
}

fn fmt_tick(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.1}")
    }
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The plot area's width and height.
const PW: f64 = W - LEFT - RIGHT;
const PH: f64 = H - TOP - BOTTOM;

/// The data ranges shown (`x0..x1`, `y0..y1`) and how data maps into the plot area.
struct Axes {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    /// No point has a finite `x`.
    no_xs: bool,
}

impl Axes {
    /// Ranges covering every point and interval and every reference line, with a margin.
    fn fit(chart: &Chart) -> Axes {
        let finite = |v: f64| v.is_finite().then_some(v);
        let xs: Vec<f64> = chart.points.iter().filter_map(|p| finite(p.x)).collect();
        let ys: Vec<f64> = chart
            .points
            .iter()
            .flat_map(|p| [p.y, p.low, p.high])
            .chain(chart.references.iter().flat_map(|r| [r.y, r.low, r.high]))
            .filter_map(finite)
            .collect();
        let (mut x0, mut x1) = xs
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        if !x0.is_finite() {
            (x0, x1) = (0.0, 1.0);
        }
        if x1 - x0 < 1.0 {
            x0 -= 0.5;
            x1 += 0.5;
        }
        let pad_x = (x1 - x0) * 0.04;
        let (x0, x1) = (x0 - pad_x, x1 + pad_x);
        let (mut y0, mut y1) = ys
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        if !y0.is_finite() {
            (y0, y1) = (-100.0, 100.0);
        }
        if y1 - y0 < 20.0 {
            y0 -= 10.0;
            y1 += 10.0;
        }
        let pad_y = (y1 - y0) * 0.06;
        let (y0, y1) = (y0 - pad_y, y1 + pad_y);
        Axes {
            x0,
            x1,
            y0,
            y1,
            no_xs: xs.is_empty(),
        }
    }

    fn sx(&self, x: f64) -> f64 {
        LEFT + (x - self.x0) / (self.x1 - self.x0) * PW
    }

    fn sy(&self, y: f64) -> f64 {
        TOP + (self.y1 - y) / (self.y1 - self.y0) * PH
    }

    /// `y` kept inside the range (an infinite one at the edge it points to).
    fn clamp_y(&self, y: f64) -> f64 {
        if y.is_finite() {
            y.clamp(self.y0, self.y1)
        } else if y > 0.0 {
            self.y1
        } else {
            self.y0
        }
    }
}

/// The document's width: `W`, or wider when a reference label would run past the right edge
/// (a checkpoint anchor's label holds its path). Text is not measured in SVG without a font,
/// so this takes a generous average width per character of the labels' 13-pixel font.
fn width(chart: &Chart) -> f64 {
    let longest = chart
        .references
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0);
    (LEFT + PW + 8.0 + 7.5 * longest as f64 + 8.0).max(W)
}

/// The chart as an SVG document (sized by its `viewBox`).
pub fn render(chart: &Chart) -> String {
    let ax = Axes::fit(chart);
    let w = width(chart);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {H}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, "<title>{}</title>", escape(&chart.title));
    s += "<style>.axis{stroke:#333;stroke-width:1.2} .grid{stroke:#e3e3e3;stroke-width:1} \
.tick{font-size:13px;fill:#444} .label{font-size:15px;fill:#222} .title{font-size:18px;fill:#111;font-weight:bold} \
.line{stroke:#1f5fa8;stroke-width:2;fill:none} .bar{stroke:#1f5fa8;stroke-width:1.5} .dot{fill:#1f5fa8} \
.note{font-size:12px;fill:#666} .ref{stroke:#c0392b;stroke-width:1.5;stroke-dasharray:6 4} .band{fill:#c0392b;fill-opacity:0.08} .reflabel{font-size:13px;fill:#c0392b}</style>\n";
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{w}" height="{H}" fill="#ffffff"/>"##
    );
    grid(&mut s, &ax);
    references(&mut s, chart, &ax);
    series(&mut s, chart, &ax);
    labels(&mut s, chart);
    s += "</svg>\n";
    s
}

/// The grid lines with their ticks, then the axes (the frame's left and bottom edges).
fn grid(s: &mut String, ax: &Axes) {
    for t in ticks(ax.y0, ax.y1, 8) {
        let y = ax.sy(t);
        let _ = writeln!(
            s,
            r#"<line class="grid" x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/><text class="tick" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            LEFT,
            LEFT + PW,
            LEFT - 8.0,
            y + 4.5,
            fmt_tick(t)
        );
    }
    let xt: Vec<f64> = ticks(ax.x0, ax.x1, 10)
        .into_iter()
        .filter(|t| ax.no_xs || (t.fract().abs() < 1e-9))
        .collect();
    for t in xt {
        let x = ax.sx(t);
        let _ = writeln!(
            s,
            r#"<line class="grid" x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}"/><text class="tick" x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            TOP,
            TOP + PH,
            TOP + PH + 20.0,
            fmt_tick(t)
        );
    }
    let _ = writeln!(
        s,
        r#"<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{:.1}"/><line class="axis" x1="{LEFT}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/>"#,
        TOP + PH,
        TOP + PH,
        LEFT + PW,
        TOP + PH
    );
}

/// The reference lines with their bands, and their labels on the right kept apart.
fn references(s: &mut String, chart: &Chart, ax: &Axes) {
    let mut label_ys: Vec<f64> = Vec::new();
    for r in &chart.references {
        if r.low.is_finite() && r.high.is_finite() && r.high > r.low {
            let (a, b) = (ax.sy(ax.clamp_y(r.high)), ax.sy(ax.clamp_y(r.low)));
            let _ = writeln!(
                s,
                r#"<rect class="band" x="{LEFT}" y="{a:.1}" width="{PW:.1}" height="{:.1}"/>"#,
                (b - a).max(0.5)
            );
        }
        let y = ax.sy(ax.clamp_y(r.y));
        let _ = writeln!(
            s,
            r#"<line class="ref" x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/>"#,
            LEFT + PW
        );
        // Keep labels of close lines apart.
        let mut ly = y + 4.5;
        while label_ys.iter().any(|o| (o - ly).abs() < 15.0) {
            ly += 15.0;
        }
        label_ys.push(ly);
        let _ = writeln!(
            s,
            r#"<text class="reflabel" x="{:.1}" y="{ly:.1}">{}</text>"#,
            LEFT + PW + 8.0,
            escape(&r.label)
        );
    }
}

/// The series: line, error bars with caps, dots.
fn series(s: &mut String, chart: &Chart, ax: &Axes) {
    let mut pts: Vec<&Point> = chart.points.iter().filter(|p| p.x.is_finite()).collect();
    pts.sort_by(|a, b| a.x.total_cmp(&b.x));
    if pts.len() > 1 {
        let path: Vec<String> = pts
            .iter()
            .map(|p| format!("{:.1},{:.1}", ax.sx(p.x), ax.sy(ax.clamp_y(p.y))))
            .collect();
        let _ = writeln!(s, r#"<polyline class="line" points="{}"/>"#, path.join(" "));
    }
    for p in &pts {
        let x = ax.sx(p.x);
        let (a, b) = (ax.sy(ax.clamp_y(p.high)), ax.sy(ax.clamp_y(p.low)));
        let _ = writeln!(
            s,
            r#"<line class="bar" x1="{x:.1}" y1="{a:.1}" x2="{x:.1}" y2="{b:.1}"/><line class="bar" x1="{:.1}" y1="{a:.1}" x2="{:.1}" y2="{a:.1}"/><line class="bar" x1="{:.1}" y1="{b:.1}" x2="{:.1}" y2="{b:.1}"/><circle class="dot" cx="{x:.1}" cy="{:.1}" r="4"/>"#,
            x - 5.0,
            x + 5.0,
            x - 5.0,
            x + 5.0,
            ax.sy(ax.clamp_y(p.y))
        );
    }
}

/// The title, the note under it and the axis labels.
fn labels(s: &mut String, chart: &Chart) {
    let _ = writeln!(
        s,
        r#"<text class="title" x="{:.1}" y="28" text-anchor="middle">{}</text>"#,
        LEFT + PW / 2.0,
        escape(&chart.title)
    );
    if !chart.note.is_empty() {
        let _ = writeln!(
            s,
            r#"<text class="note" x="{:.1}" y="47" text-anchor="middle">{}</text>"#,
            LEFT + PW / 2.0,
            escape(&chart.note)
        );
    }
    let _ = writeln!(
        s,
        r#"<text class="label" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        LEFT + PW / 2.0,
        H - 22.0,
        escape(&chart.x_label)
    );
    let _ = writeln!(
        s,
        r#"<text class="label" transform="translate(24,{:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        TOP + PH / 2.0,
        escape(&chart.y_label)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_ticks() {
        assert_eq!(ticks(0.0, 10.0, 5), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(
            ticks(-130.0, 420.0, 6),
            vec![-100.0, 0.0, 100.0, 200.0, 300.0, 400.0]
        );
        let t: Vec<String> = ticks(0.3, 0.9, 3).into_iter().map(fmt_tick).collect();
        assert_eq!(t, ["0.4", "0.6", "0.8"]);
    }

    /// Short reference labels keep the standard width; a long one (a checkpoint anchor's
    /// path) widens the document so that it ends inside it, and the plot area stays put.
    #[test]
    fn long_reference_labels_widen_the_document() {
        let reference = |label: &str| Reference {
            label: label.into(),
            y: 500.0,
            low: 400.0,
            high: 600.0,
        };
        let mut chart = Chart {
            points: vec![Point {
                x: 1.0,
                y: 1000.0,
                low: 900.0,
                high: 1100.0,
            }],
            references: vec![reference("random 0.0"), reference("rollout:800 +637.4")],
            ..Chart::default()
        };
        assert_eq!(width(&chart), W);
        assert!(render(&chart).contains(&format!("viewBox=\"0 0 {W} {H}\"")));
        let long = "ckpt:model/assets/crumble-gen0079.crnet:64 +890.8";
        chart.references.push(reference(long));
        let w = width(&chart);
        assert!(w >= LEFT + PW + 8.0 + 7.0 * long.len() as f64, "{w}");
        let svg = render(&chart);
        assert!(svg.contains(&format!("viewBox=\"0 0 {w} {H}\"")), "{svg}");
        assert!(
            svg.contains(&format!("x1=\"{LEFT}\" y1=\"{TOP}\"")),
            "the axes moved"
        );
    }
}
