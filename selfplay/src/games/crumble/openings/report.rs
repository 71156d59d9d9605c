//! The opening tree's reports: a summary line, Markdown, JSON, CSV and an SVG grid of the
//! most played first moves.

use super::{Node, Tree, interval, pct};
use crumble_core::games::crumble::notation::{Frame, parse_move};
use crumble_core::games::crumble::render::Highlight;
use crumble_core::games::crumble::render::svg;
use crumble_core::games::crumble::{Crumble, Move};
use crumble_core::render::PictureStyle;
use serde_json::{Value, json};
use std::fmt::Write as _;

/// The SVG grid's cell: a board's width and height, and the height of the three caption
/// lines under it (move and share; Black's score and length; the evaluator's prior and
/// value, when there is one).
const BOARD_W: f64 = 300.0;
const BOARD_H: f64 = 330.0;
const CAPTION_H: f64 = 84.0;

impl Tree {
    fn summary(&self) -> String {
        let e = self.black_score();
        format!(
            "{} games from the standard {n}×{n} start (R = {}); Black scores {} [{}, {}] (95%), Elo {} [{}, {}]; Black won {}, White won {}, {} drawn; mean {:.1} turns",
            self.root.games,
            self.resolution,
            pct(e.score),
            pct(e.score_low),
            pct(e.score_high),
            crate::stats::fmt_elo(e.elo),
            crate::stats::fmt_elo(e.elo_low),
            crate::stats::fmt_elo(e.elo_high),
            self.root.black_wins,
            self.root.white_wins,
            self.root.draws,
            self.root.mean_turns(),
            n = self.board
        )
    }

    /// A Markdown report: the summary and one table row per line, indented by depth.
    pub fn markdown(&self, min_count: u64) -> String {
        let mut s = format!(
            "# Openings\n\n{}.\n\nLines of up to {} moves played at least {min_count} times; moves in per-player notation. Shares of results with 95% Wilson intervals; Black's score (draws half) with its 95% interval.\n\n",
            self.summary(),
            self.depth
        );
        let annotated = self.root.value.is_some();
        s += "| line | games | share | Black wins | White wins | draws | Black's score | mean turns |";
        if annotated {
            s += " prior | value (to move) |";
        }
        s += "\n| --- | ---: | ---: | --- | --- | --- | --- | ---: |";
        if annotated {
            s += " ---: | ---: |";
        }
        s.push('\n');
        let parent_games = |n: &Node| -> u64 {
            if n.line.is_empty() {
                n.games
            } else {
                self.find(&n.line[..n.line.len() - 1])
                    .map_or(n.games, |p| p.games)
            }
        };
        for n in self.nodes() {
            let indent = "&nbsp;&nbsp;".repeat(n.line.len().saturating_sub(1));
            let name = if n.line.is_empty() {
                "(all games)".to_string()
            } else {
                let prefix = if n.line.len() % 2 == 1 {
                    format!("{}. ", n.line.len().div_ceil(2))
                } else {
                    format!("{}... ", n.line.len() / 2)
                };
                format!("{indent}{prefix}`{}`", n.last_move())
            };
            let share = |k: u64| {
                let (lo, hi) = interval(k, n.games);
                format!(
                    "{} [{:.1}, {:.1}]",
                    pct(k as f64 / n.games.max(1) as f64),
                    100.0 * lo,
                    100.0 * hi
                )
            };
            let e = n.black_score();
            let _ = write!(
                s,
                "| {name} | {} | {} | {} | {} | {} | {} [{:.1}, {:.1}] | {:.1} |",
                n.games,
                pct(n.games as f64 / parent_games(n).max(1) as f64),
                share(n.black_wins),
                share(n.white_wins),
                share(n.draws),
                pct(e.score),
                100.0 * e.score_low,
                100.0 * e.score_high,
                n.mean_turns()
            );
            if annotated {
                let _ = write!(
                    s,
                    " {} | {} |",
                    n.prior.map_or("".into(), |p| format!("{p:.4}")),
                    n.value.map_or("".into(), |v| format!("{v:+.3}"))
                );
            }
            s.push('\n');
        }
        s
    }

    fn find(&self, line: &[String]) -> Option<&Node> {
        let mut n = &self.root;
        for m in line {
            n = n.children.iter().find(|c| c.line.last() == Some(m))?;
        }
        Some(n)
    }

    fn node_json(n: &Node) -> Value {
        let e = n.black_score();
        let share = |k: u64| {
            let (lo, hi) = interval(k, n.games);
            json!({"count": k, "share": k as f64 / n.games.max(1) as f64, "low": lo, "high": hi})
        };
        json!({
            "move": n.line.last(),
            "line": n.line,
            "games": n.games,
            "black_wins": share(n.black_wins),
            "white_wins": share(n.white_wins),
            "draws": share(n.draws),
            "black_score": {"score": e.score, "low": e.score_low, "high": e.score_high},
            "mean_turns": n.mean_turns(),
            "prior": n.prior,
            "value_to_move": n.value,
            "children": n.children.iter().map(Tree::node_json).collect::<Vec<_>>(),
        })
    }

    /// The whole tree as JSON.
    pub fn json(&self) -> Value {
        let e = self.black_score();
        json!({
            "board": self.board,
            "resolution": self.resolution,
            "depth": self.depth,
            "frame": "per-player",
            "games": self.root.games,
            "black_score": {"score": e.score, "low": e.score_low, "high": e.score_high,
                            "elo": crate::stats::json_elo(e.elo),
                            "elo_low": crate::stats::json_elo(e.elo_low),
                            "elo_high": crate::stats::json_elo(e.elo_high)},
            "tree": Tree::node_json(&self.root),
        })
    }

    /// One CSV row per node.
    pub fn csv(&self) -> String {
        let mut s = String::from(
            "depth,line,move,games,black_wins,white_wins,draws,black_score,black_score_low,black_score_high,mean_turns,prior,value_to_move\n",
        );
        for n in self.nodes() {
            let e = n.black_score();
            let _ = writeln!(
                s,
                "{},\"{}\",\"{}\",{},{},{},{},{:.4},{:.4},{:.4},{:.2},{},{}",
                n.line.len(),
                n.line.join(" "),
                n.line.last().map_or("", |s| s.as_str()),
                n.games,
                n.black_wins,
                n.white_wins,
                n.draws,
                e.score,
                e.score_low,
                e.score_high,
                n.mean_turns(),
                n.prior.map_or(String::new(), |p| format!("{p:.6}")),
                n.value.map_or(String::new(), |v| format!("{v:.4}"))
            );
        }
        s
    }

    /// The `top` most played first moves, each drawn on the board (the position after it,
    /// the move highlighted) with its share and Black's score: a grid of small boards.
    pub fn svg(&self, top: usize) -> Result<String, String> {
        let start = Crumble::new(self.board, self.resolution).map_err(|e| e.to_string())?;
        let firsts: Vec<&Node> = self.root.children.iter().take(top.max(1)).collect();
        let cols = firsts.len().clamp(1, 4);
        let rows = firsts.len().div_ceil(cols).max(1);
        let (w, h) = (
            cols as f64 * BOARD_W + 20.0,
            rows as f64 * (BOARD_H + CAPTION_H) + 110.0,
        );
        let mut s = self.svg_title(w, h);
        for (k, n) in firsts.iter().enumerate() {
            let (x, y) = (
                10.0 + (k % cols) as f64 * BOARD_W,
                100.0 + (k / cols) as f64 * (BOARD_H + CAPTION_H),
            );
            s += &board_after_first_move(&start, n, k, x, y)?;
            self.svg_captions(&mut s, n, k, x, y);
        }
        s += "</svg>\n";
        Ok(s)
    }

    /// The picture's opening tag and background, its title and Black's overall score.
    fn svg_title(&self, w: f64, h: f64) -> String {
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n"
        );
        let e = self.black_score();
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"32\" text-anchor=\"middle\" font-size=\"20\" font-weight=\"bold\">Most played first moves ({} games)</text>",
            w / 2.0,
            self.root.games
        );
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"56\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555\">Black scores {} [{}, {}] overall</text>\n<text x=\"{0:.1}\" y=\"76\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555\">each board: the position after the move, Black at the bottom</text>",
            w / 2.0,
            pct(e.score),
            pct(e.score_low),
            pct(e.score_high)
        );
        s
    }

    /// The three caption lines under the `k`th board, whose cell is at (`x`, `y`).
    fn svg_captions(&self, s: &mut String, n: &Node, k: usize, x: f64, y: f64) {
        let text = n.last_move();
        let e = n.black_score();
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">{}. {text}: {} of games (n = {})</text>",
            x + BOARD_W / 2.0,
            y + BOARD_H + 20.0,
            k + 1,
            pct(n.games as f64 / self.root.games.max(1) as f64),
            n.games
        );
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"13\" fill=\"#444\">Black {} [{}, {}]; {:.0} turns</text>",
            x + BOARD_W / 2.0,
            y + BOARD_H + 40.0,
            pct(e.score),
            pct(e.score_low),
            pct(e.score_high),
            n.mean_turns(),
        );
        let judged: Vec<String> = [
            n.prior.map(|p| format!("prior {p:.3}")),
            n.value.map(|v| format!("value to move {v:+.3}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !judged.is_empty() {
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"13\" fill=\"#444\">{}</text>",
                x + BOARD_W / 2.0,
                y + BOARD_H + 58.0,
                judged.join(", ")
            );
        }
    }
}

/// The position after first move `n` (the `k`th), the move highlighted, as a sub-picture
/// at (`x`, `y`) of the grid.
fn board_after_first_move(
    start: &Crumble,
    n: &Node,
    k: usize,
    x: f64,
    y: f64,
) -> Result<String, String> {
    let text = n.last_move();
    let mv: Move = parse_move(start, text, Frame::PerPlayer).map_err(|e| format!("{text}: {e}"))?;
    let mut after = start.clone();
    after.play_move(&mv).map_err(|e| format!("{text}: {e}"))?;
    let board = svg::render(
        &after,
        &PictureStyle {
            highlight: Highlight::of(start, &mv),
            last_move: Some(text.to_string()),
            ..Default::default()
        },
    );
    // Nest the board as a sized sub-picture; its marker id must stay unique.
    Ok(board
        .replacen(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" ",
            &format!("<svg x=\"{x}\" y=\"{y}\" width=\"{BOARD_W}\" height=\"{BOARD_H}\" "),
            1,
        )
        .replace("id=\"arrow\"", &format!("id=\"arrow{k}\""))
        .replace("url(#arrow)", &format!("url(#arrow{k})")))
}
