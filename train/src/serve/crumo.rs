//! Crumo on the board (games/crumo/RULES.md): the picture is the one `crumble show --svg` draws
//! (`crumble_core::games::crumo::render::svg`), and every legal decision is placed on it in the
//! picture's units for `assets/crumo.js`: a `Place` at its point with its height, a `From` at
//! the stack it moves, a `To` at the point the move ends on; `Pass` and `Swap` are buttons.

use super::ServeError;
use super::game::{BoardView, Loaded, ServeGame, size_in};
use crumble_core::games::crumo::record::{self, CrumoRecord};
use crumble_core::games::crumo::render::svg::{self, POINT_STEP, SvgOptions, point_at};
use crumble_core::games::crumo::render::{CrumoHighlight, status_line};
use crumble_core::games::crumo::{Action, Crumo, MAX_SIZE, MIN_SIZE, Point, notation, position};
use crumble_core::{Color, Decision, Player};
use serde_json::{Value, json};

/// Point `p` in the picture, as `[x, y]`.
fn at(game: &Crumo, p: Point) -> Value {
    let (x, y) = point_at(game, p);
    json!([x, y])
}

impl ServeGame for Crumo {
    const DEFAULT_AGENT: &'static str = "mcts:rollout:200";
    const BUILTIN: bool = false;

    /// The standard start of a size (points per side, default 5), or rule 12's position JSON.
    fn start(board: Option<&str>, position_json: Option<&str>) -> Result<Crumo, ServeError> {
        if let Some(text) = position_json {
            return position::from_json(text).map_err(|e| ServeError::BadPosition(e.to_string()));
        }
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

    fn colour_to_move(&self) -> Option<Color> {
        (!self.is_over()).then(|| self.to_move())
    }

    fn colour_of(&self, seat: Player) -> Color {
        if (seat == Player::First) == self.first_seat_plays(Color::Black) {
            Color::Black
        } else {
            Color::White
        }
    }

    fn move_text(before: &Crumo, path: &[Decision]) -> Option<String> {
        Some(before.move_text(&before.move_of_turn(path)?))
    }

    fn parse_move(before: &Crumo, text: &str) -> Result<Vec<Decision>, String> {
        let mv = notation::parse_move(before.geometry(), text).map_err(|e| e.to_string())?;
        let (first, second) = before.resolve(&mv).map_err(|e| e.to_string())?;
        Ok(std::iter::once(first).chain(second).collect())
    }

    /// A move whose source is chosen is written `e5-…`.
    fn building_text(start: &Crumo, path: &[Decision]) -> String {
        if path.is_empty() {
            return String::new();
        }
        if let Some(t) = <Crumo as ServeGame>::move_text(start, path) {
            return t;
        }
        match start.decode(path[0]) {
            Some(Action::From { point }) => format!("{}-…", start.geometry().name(point)),
            _ => "?".into(),
        }
    }

    fn status(&self) -> String {
        status_line(self)
    }

    fn board_json(v: &BoardView<'_, Crumo>) -> Value {
        let game = v.game;
        let geo = game.geometry();
        let last = v
            .last
            .and_then(|(before, path)| before.move_of_turn(path).map(|mv| (before, mv)));
        let picture = svg::render(
            game,
            &SvgOptions {
                coords: true,
                highlight: last.as_ref().and_then(|(_, mv)| CrumoHighlight::of(mv)),
                last_move: last.as_ref().map(|(b, mv)| b.move_text(mv)),
            },
        );
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

    /// The format has no comments: the agent's values are not kept.
    fn write_record(
        start: &Crumo,
        moves: &[(Vec<Decision>, Option<f32>)],
        tags: &[(String, String)],
    ) -> Result<String, ServeError> {
        let mut end = start.clone();
        let mut list = Vec::with_capacity(moves.len());
        for (path, _) in moves {
            let mv = end
                .move_of_turn(path)
                .ok_or_else(|| ServeError::Internal("a move of the line is not legal".into()))?;
            end.play(&mv)
                .map_err(|e| ServeError::Internal(format!("a move of the line: {e}")))?;
            list.push(mv);
        }
        let mut first = start.clone();
        first.set_turn_limit(0);
        let rec = CrumoRecord {
            start: first,
            tags: tags.to_vec(),
            moves: list,
            result: end.outcome(),
        };
        Ok(rec.write())
    }

    fn read_record(text: &str) -> Result<Loaded<Crumo>, ServeError> {
        let rec = record::parse(text).map_err(|e| ServeError::BadRecord(e.to_string()))?;
        let mut g = rec.start.clone();
        let mut moves = Vec::with_capacity(rec.moves.len());
        for (i, mv) in rec.moves.iter().enumerate() {
            let (first, second) = g
                .resolve(mv)
                .map_err(|e| ServeError::BadRecord(format!("move {}: {e}", i + 1)))?;
            let path: Vec<Decision> = std::iter::once(first).chain(second).collect();
            for &d in &path {
                g.apply_unchecked(d);
            }
            moves.push(path);
        }
        Ok(Loaded {
            values: vec![None; moves.len()],
            start: rec.start,
            moves,
            tags: rec.tags,
        })
    }
}
