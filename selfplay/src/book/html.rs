//! The book as a static site, one self-contained folder: `index.html` and a page a
//! position (`p/ID.html`), each with its board (the game's SVG picture, or its text diagram),
//! the line that first reached it (every move a link to that position's page), its values,
//! and its moves in a table (prior, value with bounds, proof, visits, cost; every move a link
//! deeper), the best move outside the book last. No script, no file from elsewhere.
//!
//! A position is drawn as its first line from the start has it, so the start's orientation
//! holds along every first line; its moves are mapped to that orientation. A page reached by
//! a transposition says so and shows its own first line.

use super::{Book, OptionRef, Values};
use crumble_core::GameText;
use crumble_core::game::symmetry::orientations;
use crumble_core::render::svg::escape;
use crumble_core::render::{PictureStyle, Pictures};
use crumble_core::{Decision, Player};
use std::fmt::Write as _;

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;max-width:60em}\
table{border-collapse:collapse}td,th{padding:.2em .6em;text-align:right}\
td:first-child,th:first-child{text-align:left}tr:nth-child(even){background:#f3f3f3}\
.board svg{width:100%;max-width:28em;height:auto}.other{color:#555}pre{font-size:1.2em}\
.moves{overflow-x:auto}";

/// The value `v` (first player's view) from the view of `p`.
fn for_player(v: &Values, p: Option<Player>) -> (f32, f32, f32) {
    if p == Some(Player::Second) {
        (-v.value, -v.upper, -v.lower)
    } else {
        (v.value, v.lower, v.upper)
    }
}

fn values_cells(v: &Values, p: Option<Player>) -> String {
    let (x, lo, hi) = for_player(v, p);
    let proof = match v
        .proven
        .map(|q| if p == Some(Player::Second) { -q } else { q })
    {
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
    /// The site's files: (path inside the folder, content).
    pub fn html_pages(&self) -> Vec<(String, String)> {
        let mut out = vec![(
            "index.html".to_string(),
            page(
                &format!("{} opening book", self.header.game),
                "<p><a href=\"p/0.html\">The start</a></p>\n",
            ),
        )];
        for id in 0..self.nodes().len() as u32 {
            out.push((format!("p/{id}.html"), self.html_page(id)));
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

    fn html_page(&self, id: u32) -> String {
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
        let (x, lo, hi) = for_player(&node.values, mover);
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
        if node.is_over() {
            return page(&format!("{} book: position {id}", h.game), &b);
        }
        b.push_str(
            "<div class=\"moves\"><table><tr><th>move</th><th>prior</th><th>value</th><th>bounds</th><th>proof</th>\
             <th>visits</th><th>cost</th></tr>\n",
        );
        for (_, row) in self.move_rows(id, &state) {
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

    /// The table rows of the moves of `id` (drawn as `state`, the page's position, shows
    /// them), best first for the player to move, each with its sort key.
    fn move_rows(&self, id: u32, state: &G) -> Vec<(f32, String)> {
        let node = self.node(id);
        let mover = node.mover();
        // The moves as this page's position shows them.
        let u = orientations(&node.state, state).first().copied();
        let seen = |turn: &[Decision]| {
            u.and_then(|u| node.state.symmetry_turn(u, turn))
                .and_then(|t| state.move_text(&t, G::Notation::default()).ok())
                .unwrap_or_else(|| "?".into())
        };
        let mut rows: Vec<(f32, String)> = Vec::new();
        for (r, v) in self.options(id) {
            let key = for_player(&v, mover).0;
            let row = match r {
                OptionRef::Edge(k) => {
                    let e = &node.edges[k as usize];
                    let child = self.node(e.child);
                    let note = if child.via == Some((id, k)) {
                        ""
                    } else {
                        " (transposition)"
                    };
                    format!(
                        "<tr><td><a href=\"{}.html\">{}</a>{note}</td><td>{:.4}</td>{}<td>{}</td>\
                         <td>{:.2}</td></tr>",
                        e.child,
                        escape(&seen(&e.turn)),
                        e.prior,
                        values_cells(&v, mover),
                        child.visits,
                        node.edge_costs.get(k as usize).copied().unwrap_or(f64::NAN)
                    )
                }
                OptionRef::Other => {
                    let o = node.other.as_ref().expect("an other option has its entry");
                    format!(
                        "<tr class=\"other\"><td>other moves (best: {})</td><td>{:.4}</td>{}\
                         <td>{}</td><td>{:.2}</td></tr>",
                        escape(&seen(&o.turn)),
                        o.prior,
                        values_cells(&v, mover),
                        o.visits,
                        node.other_cost
                    )
                }
            };
            rows.push((key, row));
        }
        rows.sort_by(|a, b| b.0.total_cmp(&a.0));
        rows
    }
}
