//! The book as a static site, one self-contained folder: `index.html` and a page a
//! position (`p/ID.html`), each with its board (the game's SVG picture, or its text diagram),
//! the line that first reached it (every move a link to that position's page), its values,
//! and its moves in a table (prior, value with bounds, proof, visits, cost; every move a link
//! deeper), the best move outside the book last. No script, no file from elsewhere.
//!
//! A position is drawn as its first line from the start has it, so the start's orientation
//! holds along every first line; its moves are mapped to that orientation. A page reached by
//! a transposition says so and shows its own first line.

use super::evidence::{Evidence, tally_text};
use super::{Book, Values};
use crumble_core::Decision;
use crumble_core::GameText;
use crumble_core::render::svg::escape;
use crumble_core::render::{PictureStyle, Pictures};
use std::fmt::Write as _;

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;max-width:60em}\
table{border-collapse:collapse}td,th{padding:.2em .6em;text-align:right;white-space:nowrap}\
td:first-child,th:first-child{text-align:left}tr:nth-child(even){background:#f3f3f3}\
.board svg{width:100%;max-width:28em;height:auto}.other{color:#555}pre{font-size:1.2em}\
.moves{overflow-x:auto}";

/// The cells of values already in the view of the player to move.
fn values_cells(v: &Values) -> String {
    let (x, lo, hi) = (v.value, v.lower, v.upper);
    let proof = match v.proven {
        Some(1) => "win",
        Some(0) => "draw",
        Some(_) => "loss",
        None => "",
    };
    format!("<td>{x:+.3}</td><td>[{lo:+.3}, {hi:+.3}]</td><td>{proof}</td>")
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>\n{body}</body></html>\n",
        escape(title)
    )
}

impl<G: GameText + Pictures> Book<G> {
    /// The site's files: (path inside the folder, content). With `evidence`, every page also
    /// shows the games through its position and each move's, by source.
    pub fn html_pages(&self, evidence: &[Evidence]) -> Vec<(String, String)> {
        let mut out = vec![(
            "index.html".to_string(),
            page(
                &format!("{} opening book", self.header.game),
                "<p><a href=\"p/0.html\">The start</a></p>\n",
            ),
        )];
        for id in 0..self.nodes().len() as u32 {
            out.push((format!("p/{id}.html"), self.html_page(id, evidence)));
        }
        out
    }

    /// The nodes along the first line to `id`, the root first.
    fn first_line_nodes(&self, id: u32) -> Vec<u32> {
        let mut chain = vec![id];
        let mut at = id;
        while let Some((p, _)) = self.node(at).via {
            chain.push(p);
            at = p;
        }
        chain.reverse();
        chain
    }

    fn html_page(&self, id: u32, evidence: &[Evidence]) -> String {
        let node = self.node(id);
        let (moves, state) = self.line(id);
        let mover = node.mover();
        let h = &self.header;
        let mut b = String::new();
        let _ = write!(
            b,
            "<p><a href=\"../index.html\">{} book</a> ({} positions; {} at {} simulations a \
             decision)",
            escape(&h.game),
            self.nodes().len(),
            escape(&h.agent),
            h.simulations
        );
        if let Some((p, _)) = node.via {
            let _ = write!(b, " · <a href=\"{p}.html\">back</a>");
        }
        b.push_str("</p>\n<p class=\"line\">Line: <a href=\"0.html\">start</a>");
        let last = self.line_links(&mut b, id, &moves);
        b.push_str("</p>\n");
        let style = PictureStyle {
            coords: true,
            ..PictureStyle::default()
        };
        let last_ref = last.as_ref().map(|(g, t)| (g, t.as_slice()));
        match state.svg_picture(last_ref, &style) {
            Some(svg) => {
                let _ = writeln!(b, "<div class=\"board\">{svg}</div>");
            }
            None => {
                let _ = writeln!(
                    b,
                    "<pre>{}</pre>",
                    escape(&state.term_picture(last_ref, &style))
                );
            }
        }
        let Values {
            value: x,
            lower: lo,
            upper: hi,
            ..
        } = node.values.for_player(mover);
        let _ = writeln!(
            b,
            "<p>{}. Value for the player to move {x:+.3} [{lo:+.3}, {hi:+.3}]{}; {} searches of \
             the turn ({} simulations over its decisions); cost from the start {:.2}; key \
             {:016x}.</p>",
            escape(&state.status_line()),
            match node.values.proven {
                Some(_) => " (proven)",
                None => "",
            },
            node.searches,
            node.visits,
            node.cost,
            node.key
        );
        for ev in evidence {
            let _ = writeln!(
                b,
                "<p class=\"games\">Games through here ({}): {} for the player to move \
                 (games (won/drawn/lost), score [95% interval]).</p>",
                escape(&ev.source),
                escape(&tally_text(ev.node(id), mover))
            );
        }
        if node.is_over() {
            return page(&format!("{} book: position {id}", h.game), &b);
        }
        b.push_str(
            "<div class=\"moves\"><table><tr><th>move</th><th>prior</th><th>value</th><th>bounds</th><th>proof</th>\
             <th>visits</th><th>cost</th>",
        );
        for ev in evidence {
            let _ = write!(b, "<th>games ({})</th>", escape(&ev.source));
        }
        b.push_str("</tr>\n");
        for row in self.move_rows(id, &state, evidence) {
            b.push_str(&row);
            b.push('\n');
        }
        b.push_str("</table></div>\n<p>Values are for the player to move here.</p>\n");
        page(&format!("{} book: position {id}", h.game), &b)
    }

    /// The first line to `id` (its `moves`), every move a link to the position after it;
    /// returns the last move with the position it was played in.
    fn line_links(
        &self,
        b: &mut String,
        id: u32,
        moves: &[Vec<Decision>],
    ) -> Option<(G, Vec<Decision>)> {
        let chain = self.first_line_nodes(id);
        let mut s = self.start.clone();
        let mut last: Option<(G, Vec<Decision>)> = None;
        for (turn, &at) in moves.iter().zip(&chain[1..]) {
            let text = s
                .move_text(turn, G::Notation::default())
                .unwrap_or_else(|e| format!("<{e}>"));
            let _ = write!(b, " <a href=\"{at}.html\">{}</a>", escape(&text));
            let before = s.clone();
            for &d in turn {
                s.apply_unchecked(d);
            }
            last = Some((before, turn.clone()));
        }
        last
    }

    /// The table rows of the moves of `id` as `state` (the page's position) shows them,
    /// best first for the player to move.
    fn move_rows(&self, id: u32, state: &G, evidence: &[Evidence]) -> Vec<String> {
        let options = self.options_seen(id, state).unwrap_or_default();
        let node = self.node(id);
        let mover = node.mover();
        options
            .iter()
            .map(|o| {
                let mut cells = format!(
                    "<td>{:.4}</td>{}<td>{}</td><td>{:.2}</td>",
                    o.prior,
                    values_cells(&o.values),
                    o.visits,
                    o.cost
                );
                for ev in evidence {
                    let t = match o.edge {
                        Some(e) => ev.edge(id, e),
                        None => ev.other(id, node.edges.len() as u32),
                    };
                    let _ = write!(cells, "<td>{}</td>", escape(&tally_text(t, mover)));
                }
                match o.child {
                    Some(child) => format!(
                        "<tr><td><a href=\"{child}.html\">{}</a>{}</td>{cells}</tr>",
                        escape(&o.text),
                        if o.transposition {
                            " (transposition)"
                        } else {
                            ""
                        }
                    ),
                    None => format!(
                        "<tr class=\"other\"><td>other moves (best: {})</td>{cells}</tr>",
                        escape(&o.text)
                    ),
                }
            })
            .collect()
    }
}
