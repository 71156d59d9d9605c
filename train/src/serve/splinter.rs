//! Splinter on the board (games/splinter/RULES.md): the picture is the one `crumble show --svg`
//! draws (`crumble_core::games::splinter::render::svg`), and every legal decision is placed on it in
//! the picture's units for `assets/splinter.js`: a `Move` as the square it leaves and the
//! square it steps to, a `Keep` as the squares of the group that would stay.

use super::ServeError;
use super::game::{BoardView, Loaded, ServeGame};
use crumble_core::games::crumble::render::html;
use crumble_core::games::splinter::record::{self, SplinterRecord};
use crumble_core::games::splinter::render::svg::{self, SQUARE, SvgOptions, square_corner};
use crumble_core::games::splinter::render::{SplinterHighlight, status_line};
use crumble_core::games::splinter::{
    Action, Board, Splinter, SplinterMove, Square, notation, position,
};
use crumble_core::{Color, Decision};
use serde_json::{Value, json};

/// Board sizes the page offers (rule 2.1's range).
const WIDTHS: std::ops::RangeInclusive<u32> = 5..=26;
const HEIGHTS: std::ops::RangeInclusive<u32> = 6..=26;

/// The centre of square `s` in the picture, as `[x, y]`.
fn centre(b: &Board, s: Square) -> Value {
    let (x, y) = square_corner(b, s, true);
    json!([x + SQUARE / 2.0, y + SQUARE / 2.0])
}

/// The move of a whole turn's decisions (a `Move`, then its `Keep` when it needs one).
fn move_of(before: &Splinter, path: &[Decision]) -> Option<SplinterMove> {
    let (first, keep) = match *path {
        [m] => (m, None),
        [m, k] => (m, Some(k)),
        _ => return None,
    };
    let Some(Action::Move { from, dir }) = before.decode(first) else {
        return None;
    };
    let mut after = before.clone();
    after.apply(first).ok()?;
    let keep = match keep {
        None => None,
        Some(k) => match after.decode(k)? {
            Action::Keep { square } => Some(square),
            Action::Move { .. } => return None,
        },
    };
    let mv = SplinterMove { from, dir, keep };
    // The decisions must be exactly the move's, which `resolve` gives.
    (before.resolve(&mv).ok()? == (first, keep.map(|_| path[1]))).then_some(mv)
}

impl ServeGame for Splinter {
    const DEFAULT_AGENT: &'static str = "mcts:rollout:200";
    const BUILTIN: bool = false;

    /// `WxH` (files × ranks, default 15x18), or rule 10's position JSON.
    fn start(board: Option<&str>, position_json: Option<&str>) -> Result<Splinter, ServeError> {
        if let Some(text) = position_json {
            return position::from_json(text).map_err(|e| ServeError::BadPosition(e.to_string()));
        }
        let text = board.unwrap_or("15x18").trim();
        let bad = || {
            ServeError::BadPosition(format!(
                "board `{text}`: Splinter's board is WxH, {} to {} files by {} to {} ranks (e.g. 15x18)",
                WIDTHS.start(),
                WIDTHS.end(),
                HEIGHTS.start(),
                HEIGHTS.end()
            ))
        };
        let (w, h) = text.split_once(['x', 'X', '×']).ok_or_else(bad)?;
        let (w, h) = (
            w.trim().parse::<u32>().map_err(|_| bad())?,
            h.trim().parse::<u32>().map_err(|_| bad())?,
        );
        if !WIDTHS.contains(&w) || !HEIGHTS.contains(&h) {
            return Err(bad());
        }
        Splinter::standard(w as u8, h as u8).ok_or_else(bad)
    }

    fn colour_to_move(&self) -> Option<Color> {
        (!self.is_over()).then(|| self.to_move())
    }

    fn move_text(before: &Splinter, path: &[Decision]) -> Option<String> {
        Some(notation::move_text(before.board(), &move_of(before, path)?))
    }

    fn parse_move(before: &Splinter, text: &str) -> Result<Vec<Decision>, String> {
        let mv = notation::parse_move(before.board(), text).map_err(|e| e.to_string())?;
        let (first, keep) = before.resolve(&mv).map_err(|e| e.to_string())?;
        Ok(std::iter::once(first).chain(keep).collect())
    }

    /// A `Move` that waits for its `Keep` is written `e4-d3/…`.
    fn building_text(start: &Splinter, path: &[Decision]) -> String {
        if path.is_empty() {
            return String::new();
        }
        if let Some(t) = Splinter::move_text(start, path) {
            return t;
        }
        match start.decode(path[0]) {
            Some(Action::Move { from, dir }) => {
                let mv = SplinterMove {
                    from,
                    dir,
                    keep: None,
                };
                format!("{}/…", notation::move_text(start.board(), &mv))
            }
            _ => "?".into(),
        }
    }

    fn status(&self) -> String {
        status_line(self)
    }

    fn board_json(v: &BoardView<'_, Splinter>) -> Value {
        let game = v.game;
        let b = game.board();
        let last = v.last.and_then(|(before, path)| {
            let mv = move_of(before, path)?;
            Some((
                SplinterHighlight::of(before, &mv)?,
                notation::move_text(before.board(), &mv),
            ))
        });
        let (highlight, last_move) = match last {
            Some((h, t)) => (Some(h), Some(t)),
            None => (None, None),
        };
        let picture = svg::render(
            game,
            &SvgOptions {
                coords: true,
                highlight,
                last_move,
            },
        );
        let groups = game.is_pending().then(|| b.groups());
        let decisions: Vec<Value> = v
            .legal
            .iter()
            .map(|&d| match game.decode(d) {
                Some(Action::Move { from, dir }) => {
                    let to = b.step(from, dir).map(|t| centre(b, t));
                    json!({
                        "d": d.0, "kind": "move", "square": notation::square_name(b, from),
                        "dir": dir.name(), "from": centre(b, from), "to": to,
                        "text": v.text_with(d),
                    })
                }
                Some(Action::Keep { square }) => {
                    // The group whose anchor `square` is: every square with its label.
                    let squares: Vec<Value> = match &groups {
                        Some(g) => {
                            let label = g.label[usize::from(square)];
                            (0..b.square_count() as Square)
                                .filter(|&s| g.label[usize::from(s)] == label)
                                .map(|s| centre(b, s))
                                .collect()
                        }
                        None => vec![centre(b, square)],
                    };
                    json!({
                        "d": d.0, "kind": "keep", "square": notation::square_name(b, square),
                        "squares": squares, "text": v.text_with(d),
                    })
                }
                None => json!({ "d": d.0, "kind": "unknown", "text": v.text_with(d) }),
            })
            .collect();
        json!({
            "svg": picture,
            "cell": SQUARE,
            "phase": if game.is_pending() { "keep" } else { "move" },
            "decisions": decisions,
        })
    }

    fn write_record(
        start: &Splinter,
        moves: &[(Vec<Decision>, Option<f32>)],
        tags: &[(String, String)],
    ) -> Result<String, ServeError> {
        let mut rec = SplinterRecord::new(start.clone());
        for (k, v) in tags {
            rec.set_tag(k, v);
        }
        let mut end = start.clone();
        for (path, value) in moves {
            let mv = move_of(&end, path)
                .ok_or_else(|| ServeError::Internal("a move of the line is not legal".into()))?;
            end.play(&mv)
                .map_err(|e| ServeError::Internal(format!("a move of the line: {e}")))?;
            rec.push_move(mv, value.map(html::value_comment));
        }
        rec.result = end.outcome();
        Ok(rec.write())
    }

    fn read_record(text: &str) -> Result<Loaded<Splinter>, ServeError> {
        let rec = record::parse(text).map_err(|e| ServeError::BadRecord(e.to_string()))?;
        let mut g = rec.start.clone();
        let mut moves = Vec::with_capacity(rec.moves.len());
        for (i, mv) in rec.moves.iter().enumerate() {
            let path = Splinter::parse_move(&g, &notation::move_text(g.board(), mv))
                .map_err(|e| ServeError::BadRecord(format!("move {}: {e}", i + 1)))?;
            for &d in &path {
                g.apply_unchecked(d);
            }
            moves.push(path);
        }
        Ok(Loaded {
            values: (0..moves.len())
                .map(|i| {
                    rec.comment(i)
                        .and_then(crumble_core::render::parse_value_comment)
                })
                .collect(),
            start: rec.start,
            moves,
            tags: rec.tags,
        })
    }
}
