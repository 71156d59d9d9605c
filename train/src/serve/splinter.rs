//! Splinter on the board (games/splinter/RULES.md): the picture is the one `crumble show --svg`
//! draws (`crumble_core::games::splinter::render::svg`), and every legal decision is placed on it in
//! the picture's units for `assets/splinter.js`: a `Move` as the square it leaves and the
//! square it steps to, a `Keep` as the squares of the group that would stay.

use super::ServeError;
use super::game::{BoardView, ServeGame};
use crumble_core::Decision;
use crumble_core::games::splinter::render::svg::{SQUARE, square_corner};
use crumble_core::games::splinter::{Action, Board, Splinter, SplinterMove, Square, notation};
use serde_json::{Value, json};

/// Board sizes the page offers (rule 2.1's range).
const WIDTHS: std::ops::RangeInclusive<u32> = 5..=26;
const HEIGHTS: std::ops::RangeInclusive<u32> = 6..=26;

/// The centre of square `s` in the picture, as `[x, y]`.
fn centre(b: &Board, s: Square) -> Value {
    let (x, y) = square_corner(b, s, true);
    json!([x + SQUARE / 2.0, y + SQUARE / 2.0])
}

impl ServeGame for Splinter {
    const PAGE_SCRIPT: &'static str = include_str!("assets/splinter.js");

    /// `WxH` (files × ranks, default 15x18).
    fn sized_start(board: Option<&str>) -> Result<Splinter, ServeError> {
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

    /// A `Move` that waits for its `Keep` is written `e4-d3/…`.
    fn unfinished_text(start: &Splinter, path: &[Decision]) -> String {
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

    fn board_json(v: &BoardView<'_, Splinter>) -> Value {
        let game = v.game;
        let b = game.board();
        let picture = Self::board_picture(v);
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
}
