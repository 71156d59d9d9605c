//! What the page draws, as JSON: the pieces, the last move or the turn in progress, and every
//! legal decision of the position shown with the place it is drawn and clicked (its
//! rectangle in grid units of the absolute frame, Black's view, `y` up). The page only
//! draws and sends back decision numbers; every rule stays here.

use super::session::Session;
use crumble_core::notation;
use crumble_core::render::{self, BaseMark, Highlight};
use crumble_core::{Decision, DecisionKind, Dir, Game, Phase, Rect};
use serde_json::{Value, json};

/// `[x, y, w, h]`.
pub fn rect(r: Rect) -> Value {
    json!([r.x, r.y, r.w, r.h])
}

/// The piece of `game` beside `from` in direction `dir` (the target of a swap step).
fn neighbour(game: &Game, from: Rect, dir: Dir) -> Option<Rect> {
    let g = game.grid_size();
    let (x, y) = match dir {
        Dir::N if from.top() < g => (from.x, from.top()),
        Dir::S if from.y > 0 => (from.x, from.y - 1),
        Dir::E if from.right() < g => (from.right(), from.y),
        Dir::W if from.x > 0 => (from.x - 1, from.y),
        _ => return None,
    };
    Some(game.board().piece_at(x, y).rect)
}

/// The notation of a turn begun with `path` from `start` (a turn start): the whole move when
/// the path ends the turn or may stop here, else its position and letter (`3,1H…`); empty
/// for an empty path.
pub fn building_text(start: &Game, path: &[Decision]) -> String {
    if path.is_empty() {
        return String::new();
    }
    let gs = start.grid_size();
    let mut g = start.clone();
    for &d in path {
        if g.apply(d).is_err() {
            return "?".into();
        }
    }
    let write = |p: &[Decision]| {
        start
            .move_from_decisions(p)
            .ok()
            .and_then(|mv| notation::format_move(start, &mv, notation::Frame::PerPlayer))
    };
    if g.at_turn_start() || g.is_over() {
        return write(path).unwrap_or_else(|| "?".into());
    }
    let mut legal = Vec::new();
    g.legal_decisions_into(&mut legal);
    if path.len() >= 2 {
        let stop = Decision::stop(gs);
        if legal.contains(&stop) {
            let mut p = path.to_vec();
            p.push(stop);
            if let Some(t) = write(&p) {
                return format!("{t}…");
            }
        }
        return "…".into();
    }
    // Only the choice is made: write any move it begins, up to its letter.
    for &e in &legal {
        let mut p = vec![path[0], e];
        let mut h = g.clone();
        if h.apply(e).is_err() {
            continue;
        }
        if !(h.at_turn_start() || h.is_over()) {
            p.push(Decision::stop(gs));
        }
        if let Some(t) = write(&p)
            && let Some(i) = t.find(['H', 'V', 'J'])
        {
            return format!("{}…", &t[..=i]);
        }
    }
    "…".into()
}

/// One legal decision of `game` (the position shown), drawn: its kind, where it is clicked,
/// and the notation of the turn it would make so far.
fn decision_json(game: &Game, start: &Game, partial: &[Decision], d: Decision) -> Value {
    let gs = game.grid_size();
    let b = game.board();
    let mut path = partial.to_vec();
    path.push(d);
    let text = building_text(start, &path);
    match d.decode(gs) {
        Some(DecisionKind::Split { cut, x, y }) => json!({
            "d": d.0, "kind": if cut == crumble_core::Cut::H { "split-h" } else { "split-v" },
            "rect": rect(b.piece_at(x, y).rect), "text": text,
        }),
        Some(DecisionKind::Join { x, y }) => json!({
            "d": d.0, "kind": "join", "rect": rect(b.piece_at(x, y).rect), "text": text,
        }),
        Some(DecisionKind::End { x, y }) => {
            let mut after = game.clone();
            let fresh: Vec<Value> = match after.apply(d) {
                Ok(()) => after.fresh_pieces().into_iter().map(rect).collect(),
                Err(_) => Vec::new(),
            };
            json!({
                "d": d.0, "kind": "end", "rect": rect(b.piece_at(x, y).rect),
                "preview": fresh, "text": text,
            })
        }
        Some(DecisionKind::Step { dir, x, y }) => {
            let from = b.piece_at(x, y).rect;
            json!({
                "d": d.0, "kind": "step", "dir": dir.letter().to_string(), "from": rect(from),
                "rect": neighbour(game, from, dir).map(rect), "text": text,
            })
        }
        Some(DecisionKind::Stop) | None => json!({ "d": d.0, "kind": "stop", "text": text }),
    }
}

/// The last move's highlight, or `null`.
fn highlight_json(h: Option<Highlight>) -> Value {
    let Some(h) = h else { return Value::Null };
    let base = match h.base {
        BaseMark::Cut { from, to } => json!({ "cut": [[from.0, from.1], [to.0, to.1]] }),
        BaseMark::Outline(r) => json!({ "outline": rect(r) }),
    };
    json!({
        "base": base,
        "fresh": h.fresh.into_iter().map(rect).collect::<Vec<_>>(),
        "path": h.path.into_iter().map(rect).collect::<Vec<_>>(),
    })
}

/// The session as the page draws it (the analysis is added by the caller).
pub fn state_json(s: &Session) -> Value {
    let start = s.position();
    let mut game = s.current();
    let legal = if game.is_over() {
        Vec::new()
    } else {
        game.legal_decisions()
    };
    let b = game.board();
    let pieces: Vec<Value> = b
        .sorted_pieces()
        .into_iter()
        .map(|p| json!([p.rect.x, p.rect.y, p.rect.w, p.rect.h, p.color.name()]))
        .collect();
    let (phase, pending) = match game.phase() {
        Phase::Choose => ("choose", Value::Null),
        Phase::Extent { kind, start } => (
            "extent",
            json!({ "kind": match kind {
                crumble_core::ChoiceKind::Split(crumble_core::Cut::H) => "split-h",
                crumble_core::ChoiceKind::Split(crumble_core::Cut::V) => "split-v",
                crumble_core::ChoiceKind::Join => "join",
            }, "rect": rect(start) }),
        ),
        Phase::Swap => ("swap", Value::Null),
        Phase::Over => ("over", Value::Null),
    };
    let decisions: Vec<Value> = legal
        .iter()
        .map(|&d| decision_json(&game, &start, &s.partial, d))
        .collect();
    let last = if s.partial.is_empty() && s.ply > 0 {
        let mut before = s.start.clone();
        for p in &s.moves[..s.ply - 1] {
            let _ = before.play_move(&p.mv);
        }
        highlight_json(Highlight::of(&before, &s.moves[s.ply - 1].mv))
    } else {
        Value::Null
    };
    let moves: Vec<Value> = s
        .moves
        .iter()
        .map(
            |p| json!({ "text": p.text, "by": p.by.name(), "value": p.value, "agent": p.by_agent }),
        )
        .collect();
    json!({
        "game": "crumble",
        "board": { "size": b.board_size(), "resolution": b.resolution(), "grid": b.grid_size(), "pieces": pieces },
        "to_move": game.decider().map(|c| c.name()),
        "status": render::status_line(&game),
        "over": game.is_over(),
        "human": s.human.name(),
        "agent": s.agent.to_string(),
        "phase": phase,
        "pending": pending,
        "fresh": game.fresh_pieces().into_iter().map(rect).collect::<Vec<_>>(),
        "swapper": game.swapper_piece().map(rect),
        "building": s.building(),
        "decisions": decisions,
        "last": last,
        "moves": moves,
        "ply": s.ply,
        "thinking": s.thinking,
    })
}
