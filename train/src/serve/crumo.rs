//! Crumo on the board (games/crumo/RULES.md): the picture is the one `crumble show --svg` draws
//! (`crumble_core::games::crumo::render::svg`), and every legal decision is placed on it in the
//! picture's units for `assets/crumo.js`: a `Place` at its point with its height, a `From` at
//! the stack it moves, a `To` at the point the move ends on; `Pass` and `Swap` are buttons.

use super::ServeError;
use super::game::{BoardView, ServeGame, size_in};
use crumble_core::Decision;
use crumble_core::games::crumo::render::svg::{POINT_STEP, point_at};
use crumble_core::games::crumo::{Action, Crumo, MAX_SIZE, MIN_SIZE, Point};
use serde_json::{Value, json};

/// Point `p` in the picture, as `[x, y]`.
fn at(game: &Crumo, p: Point) -> Value {
    let (x, y) = point_at(game, p);
    json!([x, y])
}

impl ServeGame for Crumo {
    const PAGE_SCRIPT: &'static str = include_str!("assets/crumo.js");

    /// The standard start of a size (points per side, default 5).
    fn sized_start(board: Option<&str>) -> Result<Crumo, ServeError> {
        let n = match board {
            Some(b) => size_in(
                b,
                u32::from(MIN_SIZE)..=u32::from(MAX_SIZE),
                "hexagons of points a side",
            )?,
            None => 5,
        };
        Crumo::standard(n as u8)
            .ok_or_else(|| ServeError::BadPosition(format!("board size {n} (rule 1.1)")))
    }

    /// A move whose source is chosen is written `e5-…`.
    fn unfinished_text(start: &Crumo, path: &[Decision]) -> String {
        match start.decode(path[0]) {
            Some(Action::From { point }) => format!("{}-…", start.geometry().name(point)),
            _ => "?".into(),
        }
    }

    fn board_json(v: &BoardView<'_, Crumo>) -> Value {
        let game = v.game;
        let geo = game.geometry();
        let picture = Self::board_picture(v);
        let decisions: Vec<Value> = v
            .legal
            .iter()
            .map(|&d| {
                let text = v.text_with(d);
                match game.decode(d) {
                    Some(Action::Place { point, height }) => json!({
                        "d": d.0, "kind": "place", "point": geo.name(point),
                        "at": at(game, point), "height": height, "text": text,
                    }),
                    Some(Action::From { point }) => json!({
                        "d": d.0, "kind": "from", "point": geo.name(point),
                        "at": at(game, point), "text": text,
                    }),
                    Some(Action::To { point }) => json!({
                        "d": d.0, "kind": "to", "point": geo.name(point),
                        "at": at(game, point), "text": text,
                    }),
                    Some(Action::Pass) => {
                        json!({ "d": d.0, "kind": "pass", "button": "Pass", "text": text })
                    }
                    Some(Action::Swap) => json!({
                        "d": d.0, "kind": "swap", "button": "Swap (take Black)", "text": text,
                    }),
                    None => json!({ "d": d.0, "kind": "unknown", "text": text }),
                }
            })
            .collect();
        json!({
            "svg": picture,
            "step": POINT_STEP,
            "phase": if game.is_pending() { "to" } else { "choose" },
            "pending": game.pending_source().map(|p| at(game, p)),
            "decisions": decisions,
        })
    }
}
