//! Crumble on the board: the pieces, the last move or the turn in progress, and every legal
//! decision of the position shown with the place it is drawn and clicked (its rectangle in
//! grid units of the absolute frame, Black's view, `y` up), drawn by `assets/crumble.js`.
//! Moves are written in the per-player frame.

use super::ServeError;
use super::game::{BoardView, ServeGame, size_in};
use crumble_core::Decision;
use crumble_core::GameState as _;
use crumble_core::games::crumble::notation;
use crumble_core::games::crumble::render::{BaseMark, Highlight};
use crumble_core::games::crumble::{Crumble, DecisionKind, Dir, Phase, Rect};
use serde_json::{Value, json};

/// `[x, y, w, h]`.
fn rect(r: Rect) -> Value {
    json!([r.x, r.y, r.w, r.h])
}

/// The piece of `game` beside `from` in direction `dir` (the target of a swap step).
fn neighbour(game: &Crumble, from: Rect, dir: Dir) -> Option<Rect> {
    let (x, y) = from.beside(dir, game.grid_size())?;
    Some(game.board().piece_at(x, y).rect)
}

/// The notation of a turn begun with `path` from `start` (a turn start): the whole move when
/// the path ends the turn or may stop here, else its position and letter (`3,1H…`); empty
/// for an empty path.
fn building_text(start: &Crumble, path: &[Decision]) -> String {
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
fn decision_json(game: &Crumble, start: &Crumble, partial: &[Decision], d: Decision) -> Value {
    let gs = game.grid_size();
    let b = game.board();
    let mut path = partial.to_vec();
    path.push(d);
    let text = building_text(start, &path);
    match d.decode(gs) {
        Some(DecisionKind::Split { cut, x, y }) => json!({
            "d": d.0, "kind": if cut == crumble_core::games::crumble::Cut::H { "split-h" } else { "split-v" },
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
        // Drawn by the page as a button beside the board.
        Some(DecisionKind::Stop) | None => {
            json!({ "d": d.0, "kind": "stop", "button": "Stop (end turn)", "text": text })
        }
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

impl ServeGame for Crumble {
    const PAGE_SCRIPT: &'static str = include_str!("assets/crumble.js");

    /// The standard start of a board of 2 to 16 cells a side at resolution 8 (the built-in
    /// network's).
    fn sized_start(board: Option<&str>) -> Result<Crumble, ServeError> {
        let n = match board {
            Some(b) => size_in(b, 2..=16, "boards of cells a side")?,
            None => 6,
        };
        Crumble::new(n as u16, 8).map_err(|e| ServeError::BadPosition(e.to_string()))
    }

    fn building_text(start: &Crumble, path: &[Decision]) -> String {
        building_text(start, path)
    }

    fn board_json(v: &BoardView<'_, Crumble>) -> Value {
        board_json(v)
    }
}

/// The position as `assets/crumble.js` draws it.
fn board_json(v: &BoardView<'_, Crumble>) -> Value {
    let game = v.game;
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
                crumble_core::games::crumble::ChoiceKind::Split(crumble_core::games::crumble::Cut::H) => "split-h",
                crumble_core::games::crumble::ChoiceKind::Split(crumble_core::games::crumble::Cut::V) => "split-v",
                crumble_core::games::crumble::ChoiceKind::Join => "join",
            }, "rect": rect(start) }),
        ),
        Phase::Swap => ("swap", Value::Null),
        Phase::Over => ("over", Value::Null),
    };
    let decisions: Vec<Value> = v
        .legal
        .iter()
        .map(|&d| decision_json(game, v.start, v.partial, d))
        .collect();
    let last = match v.last {
        Some((before, path)) => match before.move_from_decisions(path) {
            Ok(mv) => highlight_json(Highlight::of(before, &mv)),
            Err(_) => Value::Null,
        },
        None => Value::Null,
    };
    json!({
        "board": { "size": b.board_size(), "resolution": b.resolution(), "grid": b.grid_size(), "pieces": pieces },
        "phase": phase,
        "pending": pending,
        "fresh": game.fresh_pieces().into_iter().map(rect).collect::<Vec<_>>(),
        "swapper": game.swapper_piece().map(rect),
        "decisions": decisions,
        "last": last,
    })
}
