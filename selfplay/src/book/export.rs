//! What a book gives out: the whole graph as JSON, and opening suites for matches.
//!
//! Moves are written in the game's default notation. A node's own moves are written in its
//! canonical orientation (the position the node stores); a node's `line`, the moves that
//! first reached it from the start, in the orientation of the start, each move mapped by
//! the symmetry that shows the node as that line has it.

use super::evidence::{Evidence, tally_json};
use super::{Book, OptionRef, Other, Values};
use crumble_core::GameText;
use crumble_core::game::symmetry::orientations;
use crumble_core::{Decision, Player};
use serde_json::{Value, json};

fn values_json(v: &Values) -> Value {
    json!({
        "value": v.value,
        "lower": v.lower,
        "upper": v.upper,
        "proven": v.proven,
    })
}

fn player_name(p: Option<Player>) -> Value {
    match p {
        Some(p) => json!(p.to_string()),
        None => Value::Null,
    }
}

fn text_of<G: GameText>(state: &G, turn: &[Decision]) -> String {
    state
        .move_text(turn, G::Notation::default())
        .unwrap_or_else(|e| format!("<{e}>"))
}

/// One option of a position as a reader sees it ([`Book::options_seen`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SeenOption {
    /// The move as the reader's position has it (for the other-moves entry, its best move).
    pub turn: Vec<Decision>,
    /// The move in the game's default notation.
    pub text: String,
    /// `None`: the other-moves entry (every move outside the book).
    pub child: Option<u32>,
    /// The edge's number at its node (`None`: the other-moves entry).
    pub edge: Option<u32>,
    /// The child was first reached by another line.
    pub transposition: bool,
    pub prior: f32,
    /// Values from the view of the player to move.
    pub values: Values,
    /// Simulations behind the option: the child's searches, or the other-moves search's.
    pub visits: u64,
    /// The option's cost of expansion (see [`crate::book::config::BookConfig`]).
    pub cost: f64,
}

impl<G: GameText> Book<G> {
    /// The options of node `id` as seen in `state`, an orientation of its position (a line
    /// being browsed or played), best first for the player to move; `None` when `state` is
    /// not the node's position.
    pub fn options_seen(&self, id: u32, state: &G) -> Option<Vec<SeenOption>> {
        let node = self.node(id);
        let mover = node.mover();
        let u = self.orientation_of(id, state)?;
        let mut out = Vec::new();
        for (r, v) in self.options(id) {
            let edge = match r {
                OptionRef::Edge(k) => Some(k),
                OptionRef::Other => None,
            };
            let (canonical, child, prior, visits, cost) = match r {
                OptionRef::Edge(k) => {
                    let e = &node.edges[k as usize];
                    let child = self.node(e.child);
                    let cost = node.edge_costs.get(k as usize).copied();
                    let first = child.via == Some((id, k));
                    (&e.turn, Some((e.child, first)), e.prior, child.visits, cost)
                }
                OptionRef::Other => {
                    let o = node.other.as_ref().expect("an other option has its entry");
                    let visits = u64::from(o.visits);
                    (&o.turn, None, o.prior, visits, Some(node.other_cost))
                }
            };
            let turn = node.state.symmetry_turn(u, canonical)?;
            out.push(SeenOption {
                text: text_of(state, &turn),
                turn,
                child: child.map(|c| c.0),
                edge,
                transposition: child.is_some_and(|c| !c.1),
                prior,
                values: v.for_player(mover),
                visits,
                cost: cost.unwrap_or(f64::NAN),
            });
        }
        out.sort_by(|a, b| b.values.value.total_cmp(&a.values.value));
        Some(out)
    }

    /// What the book says of `state` (any orientation of a book position) as JSON for a
    /// reader: its values and options for the player to move, the book's agent and
    /// simulations; `None` when the position is not in the book.
    pub fn position_json(&self, state: &G) -> Option<Value> {
        let id = self.lookup(state)?;
        let node = self.node(id);
        let options = self.options_seen(id, state)?;
        let options: Vec<Value> = options
            .iter()
            .map(|o| {
                json!({
                    "move": o.text,
                    "in_book": o.child.is_some(),
                    "transposition": o.transposition,
                    "prior": o.prior,
                    "values": values_json(&o.values),
                    "visits": o.visits,
                })
            })
            .collect();
        Some(json!({
            "node": id,
            "values": values_json(&node.values.for_player(node.mover())),
            "searches": node.searches,
            "visits": node.visits,
            "options": options,
            "agent": self.header.agent,
            "simulations": self.header.simulations,
            "positions": self.nodes().len(),
        }))
    }

    /// The moves from the start to node `id` along the moves that first reached each node,
    /// as decisions in the start's orientation, with the position they reach.
    pub fn line(&self, id: u32) -> (Vec<Vec<Decision>>, G) {
        let mut chain = Vec::new();
        let mut at = id;
        while let Some((p, e)) = self.node(at).via {
            chain.push((p, e));
            at = p;
        }
        chain.reverse();
        let mut s = self.start.clone();
        let mut moves = Vec::new();
        for (p, e) in chain {
            let node = self.node(p);
            let turn = orientations(&node.state, &s)
                .first()
                .and_then(|&u| node.state.symmetry_turn(u, &node.edges[e as usize].turn))
                .expect("a book line replays: its positions were checked when read");
            for &d in &turn {
                s.apply_unchecked(d);
            }
            moves.push(turn);
        }
        (moves, s)
    }

    /// The moves of [`Book::line`] as text.
    pub fn line_text(&self, id: u32) -> Vec<String> {
        let (moves, _) = self.line(id);
        let mut s = self.start.clone();
        let mut out = Vec::new();
        for turn in moves {
            out.push(text_of(&s, &turn));
            for &d in &turn {
                s.apply_unchecked(d);
            }
        }
        out
    }

    /// The whole book as JSON: its settings and every node with its values (the first
    /// player's view), its moves and its other-moves entry (module docs for orientations);
    /// with `evidence`, each node and move also has its `games` by source (for the player to
    /// move at the node).
    pub fn to_json(&self, evidence: &[Evidence]) -> Value {
        let h = &self.header;
        let ef = h.config.error_factor;
        let nodes: Vec<Value> = (0..self.nodes().len() as u32)
            .map(|id| {
                let n = self.node(id);
                let moves: Vec<Value> = n
                    .edges
                    .iter()
                    .zip(&n.edge_costs)
                    .enumerate()
                    .map(|(k, (e, c))| {
                        let child = self.node(e.child);
                        let mut m = values_json(&child.values);
                        if !evidence.is_empty() {
                            m["games"] = evidence
                                .iter()
                                .map(|ev| tally_json(&ev.source, ev.edge(id, k as u32), n.mover()))
                                .collect();
                        }
                        m["move"] = json!(text_of(&n.state, &e.turn));
                        m["child"] = json!(e.child);
                        m["prior"] = json!(e.prior);
                        m["cost"] = json!(c);
                        m
                    })
                    .collect();
                let other = n.other.as_ref().map(|o: &Other| {
                    let mut m = values_json(&o.values(ef));
                    m["move"] = json!(text_of(&n.state, &o.turn));
                    m["prior"] = json!(o.prior);
                    m["visits"] = json!(o.visits);
                    m["cost"] = json!(n.other_cost);
                    m
                });
                let mut v = values_json(&n.values);
                v["id"] = json!(id);
                v["key"] = json!(format!("{:016x}", n.key));
                v["to_move"] = player_name(n.mover());
                v["line"] = json!(self.line_text(id));
                v["position"] = serde_json::from_str(&n.state.position_json())
                    .unwrap_or_else(|_| json!(n.state.position_json()));
                v["searches"] = json!(n.searches);
                v["visits"] = json!(n.visits);
                v["cost"] = json!(n.cost);
                v["moves"] = json!(moves);
                v["other"] = other.unwrap_or(Value::Null);
                if !evidence.is_empty() {
                    v["games"] = evidence
                        .iter()
                        .map(|ev| tally_json(&ev.source, ev.node(id), n.mover()))
                        .collect();
                }
                v
            })
            .collect();
        json!({
            "format": "crumble-book",
            "version": super::file::VERSION,
            "game": h.game,
            "start": serde_json::from_str::<Value>(&h.start).unwrap_or(json!(h.start)),
            "agent": h.agent,
            "simulations": h.simulations,
            "max_turns": h.max_turns,
            "seed": h.seed,
            "searches": self.searches,
            "config": serde_json::to_value(&h.config).expect("plain data"),
            "positions": self.nodes().len(),
            "moves": self.edge_count(),
            "game_sources": evidence
                .iter()
                .map(|ev| json!({ "source": ev.source, "games": ev.games, "outside": ev.outside }))
                .collect::<Vec<Value>>(),
            "nodes": nodes,
        })
    }

    /// The nodes of an opening suite: live positions `min_turns..=max_turns` moves from the
    /// start whose value (first player's view) lies in `lo..=hi`, one per canonical key (a
    /// node is one), in node order (cheapest to reach first, roughly), at most `count`.
    pub fn suite(
        &self,
        lo: f32,
        hi: f32,
        min_turns: usize,
        max_turns: usize,
        count: usize,
    ) -> Vec<u32> {
        (0..self.nodes().len() as u32)
            .filter(|&id| {
                let n = self.node(id);
                let depth = self.line(id).0.len();
                !n.is_over()
                    && (min_turns..=max_turns).contains(&depth)
                    && (lo..=hi).contains(&n.values.value)
            })
            .take(count)
            .collect()
    }

    /// An opening suite as `crumble match --openings` reads it: per opening a comment with
    /// its key and values, then its line of moves from the start.
    pub fn suite_text(&self, ids: &[u32]) -> String {
        let mut out = format!(
            "# {} openings from a {} book of {} positions ({}); values for the first player\n",
            ids.len(),
            self.header.game,
            self.nodes().len(),
            self.header.agent
        );
        for &id in ids {
            let n = self.node(id);
            out.push_str(&format!(
                "# key {:016x} value {:.3} [{:.3}, {:.3}]\n{}\n",
                n.key,
                n.values.value,
                n.values.lower,
                n.values.upper,
                self.line_text(id).join(" ")
            ));
        }
        out
    }
}
