//! What a book gives out: the whole graph as JSON, and opening suites for matches.
//!
//! Moves are written in the game's default notation. A node's own moves are written in its
//! canonical orientation (the position the node stores); a node's `line`, the moves that
//! first reached it from the start, in the orientation of the start, each move mapped by
//! the symmetry that shows the node as that line has it.

use super::{Book, Other, Values};
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

impl<G: GameText> Book<G> {
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
    /// player's view), its moves and its other-moves entry (module docs for orientations).
    pub fn to_json(&self) -> Value {
        let h = &self.header;
        let ef = h.config.error_factor;
        let nodes: Vec<Value> = (0..self.nodes().len() as u32)
            .map(|id| {
                let n = self.node(id);
                let moves: Vec<Value> = n
                    .edges
                    .iter()
                    .zip(&n.edge_costs)
                    .map(|(e, c)| {
                        let child = self.node(e.child);
                        let mut m = values_json(&child.values);
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
