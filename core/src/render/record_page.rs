//! A whole recorded game as one self-contained HTML page, for every game whose records are
//! the generic [`Record`] (`crumble view`): one picture per position from the game's
//! [`Pictures`] (its SVG picture, or its terminal picture as text), the last move
//! highlighted; the move list in notation numbered by turn, value comments as badges and
//! other comments on rows of their own; the controls, the keys and the value chart of the
//! shared page ([`super::page`]).

use super::page::{self, Page, esc};
use super::picture::{PictureStyle, Pictures};
use super::{capital, parse_value_comment};
use crate::game::record::{Record, result_token};
use crate::game::{Color, GameText, TextError};
use std::fmt::Write as _;

/// The frames are whole pictures in blocks; the shared style is written for Crumble's SVG
/// groups.
const CSS: &str = "#board .ply.on{display:block}#board svg{width:100%;height:auto;display:block}#board pre{font-size:1.4em;line-height:1.2}";

/// The page of `rec`; `values[k]`: the value of the position after `k` moves, Black's view
/// (empty for no chart); `source` names the file under the heading. A move that does not
/// replay is an error.
pub fn record_page<G: Pictures>(
    rec: &Record<G>,
    values: &[Option<f32>],
    source: Option<&str>,
) -> Result<String, TextError> {
    let positions = rec.ended_positions()?;
    let n = positions.len() - 1;
    let Frames {
        board,
        plies,
        texts,
    } = frames(rec, &positions)?;
    let data = serde_json::json!({"plies": plies, "start": 0})
        .to_string()
        .replace("</", "<\\/");

    let start = &positions[0];
    let end = &positions[n];
    let black = rec.tag("Black").unwrap_or("Black");
    let white = rec.tag("White").unwrap_or("White");
    let winner = rec.winner(end);
    let result_text = match winner {
        Some(w) if end.is_over() => format!("{}: {}", result_token(w), end.status_line()),
        Some(w) => format!(
            "{}: {}",
            result_token(w),
            rec.termination(end).unwrap_or("ended")
        ),
        None => "*: unfinished".to_string(),
    };
    let result = winner.map(|w| match w {
        Some(Color::Black) => 1.0,
        Some(Color::White) => -1.0,
        None => 0.0,
    });
    Ok(page::write(&Page {
        title: format!(
            "{black} vs {white}: {} {}",
            title(G::NAME),
            start.board_text()
        ),
        extra_css: CSS,
        board,
        n,
        first_status: plies[0]["status"].as_str().unwrap_or_default().to_string(),
        first_disc: colour_to_move(start).name(),
        legend: G::picture_legend().into(),
        black,
        white,
        source,
        result_text,
        facts: facts(rec, start, n, &[]),
        moves: move_list(rec, &texts, rec.result_token(end)),
        values,
        result,
        data,
    }))
}

/// What the page shows per position.
struct Frames {
    /// The board: one block per position, the first one shown.
    board: String,
    /// The script's text per position: status, disc colour, last move.
    plies: Vec<serde_json::Value>,
    /// Each move's notation and mover.
    texts: Vec<(String, Color)>,
}

/// The frames of `positions` (the start and the position after each move of `rec`).
fn frames<G: Pictures>(rec: &Record<G>, positions: &[G]) -> Result<Frames, TextError> {
    let mut board = String::from(r#"<div id="board" role="img" aria-label="the board">"#);
    let mut plies = Vec::new();
    let mut texts = Vec::new();
    for (k, game) in positions.iter().enumerate() {
        let last_move = match k.checked_sub(1) {
            Some(i) => {
                let before = &positions[i];
                let text = before.move_text(&rec.moves[i], G::Notation::default())?;
                let mover = colour_to_move(before);
                let shown = format!("{k}. {text} ({})", capital(mover));
                texts.push((text, mover));
                Some(shown)
            }
            None => None,
        };
        let last = k
            .checked_sub(1)
            .map(|i| (&positions[i], rec.moves[i].as_slice()));
        let style = PictureStyle {
            last_move: last_move.clone(),
            ..PictureStyle::default()
        };
        let picture = match game.svg_picture(last, &style) {
            // A picture's marker (Splinter's arrow) gets an id of its own per frame, so that
            // no frame points into another (hidden) one.
            Some(svg) => svg
                .replace("id=\"arrow\"", &format!("id=\"arrow-{k}\""))
                .replace("url(#arrow)", &format!("url(#arrow-{k})")),
            None => format!("<pre>{}</pre>", esc(&game.term_picture(last, &style))),
        };
        let _ = write!(
            board,
            "<div class=\"ply{}\" id=\"ply-{k}\">{picture}</div>",
            if k == 0 { " on" } else { "" }
        );
        let disc = match game.game_result() {
            Some(r) => r.winner().map_or("none", |p| game.colour_of(p).name()),
            None => colour_to_move(game).name(),
        };
        let status = game.page_status();
        plies.push(serde_json::json!({"status": status, "disc": disc, "last": last_move}));
    }
    board.push_str("</div>");
    Ok(Frames {
        board,
        plies,
        texts,
    })
}

/// The facts list: board, start (when custom), the game's `extra` rows, the `n` moves and
/// the tags other than the players.
pub(crate) fn facts<G: GameText>(
    rec: &Record<G>,
    start: &G,
    n: usize,
    extra: &[(&str, &str)],
) -> String {
    let mut facts = format!(
        "<div><dt>Board</dt><dd>{}</dd></div>",
        esc(&start.board_text())
    );
    if !rec.is_standard_start() {
        facts.push_str("<div><dt>Start</dt><dd>a custom position</dd></div>");
    }
    for (name, value) in extra {
        let _ = write!(facts, "<div><dt>{name}</dt><dd>{}</dd></div>", esc(value));
    }
    let _ = write!(facts, "<div><dt>Moves</dt><dd>{n}</dd></div>");
    for (name, value) in &rec.tags {
        if name != "Black" && name != "White" {
            let _ = write!(
                facts,
                "<div><dt>{}</dt><dd>{}</dd></div>",
                esc(name),
                esc(value)
            );
        }
    }
    facts
}

/// The colour that moves in `game` (Black once it is over: a label only).
fn colour_to_move<G: GameText>(game: &G) -> Color {
    game.decider().map_or(Color::Black, |p| game.colour_of(p))
}

/// A game's name as a title starts it (`Splinter`).
pub fn title(name: &str) -> String {
    let mut c = name.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

/// The move list: one row per turn, the move in its player's column (`data-ply` = the
/// position after it), value comments as badges and other comments on a row of their own.
/// Rows follow turns, not pairs of moves: a colour may move twice in a row (after Crumo's
/// swap).
fn move_list<G: GameText>(rec: &Record<G>, texts: &[(String, Color)], token: &str) -> String {
    let mut s = String::from(
        "<div id=\"moves\" tabindex=\"-1\"><table><thead><tr><th></th><th>Black</th><th>White</th></tr></thead><tbody>",
    );
    for (i, (text, mover)) in texts.iter().enumerate() {
        let k = i + 1;
        let mut cell = format!(
            r#"<td><span class="mv" data-ply="{k}">{}</span>"#,
            esc(text)
        );
        let comment = rec.comment(i);
        if let Some(v) = comment.and_then(parse_value_comment) {
            let _ = write!(
                cell,
                r#" <span class="vb" title="the mover's value estimate">{v:+.2}</span>"#
            );
        }
        cell.push_str("</td>");
        let (left, right) = match mover {
            Color::Black => (cell.as_str(), "<td></td>"),
            Color::White => ("<td class=\"gap\">\u{2026}</td>", cell.as_str()),
        };
        let _ = write!(s, r#"<tr><td class="num">{k}.</td>{left}{right}</tr>"#);
        if let Some(c) = comment.filter(|c| parse_value_comment(c).is_none()) {
            let _ = write!(
                s,
                r#"<tr class="cmt"><td></td><td colspan="2">{}</td></tr>"#,
                esc(c)
            );
        }
    }
    let _ = write!(
        s,
        r#"</tbody></table><p id="final">{}</p></div>"#,
        esc(token)
    );
    s
}

/// The checks every game's page passes (each game's folder calls them with one of its
/// records): `text` is a finished record of three moves `moves`, a value comment on none or
/// some, ended by resignation; `marks` how many times each text stands in the page (the
/// game's own marks, such as its last-move highlights); `title` what the heading says of
/// the board.
#[cfg(test)]
pub(crate) fn check_page<G: Pictures>(
    text: &str,
    moves: [&str; 3],
    marks: &[(&str, usize)],
    title: &str,
) {
    let rec = Record::<G>::parse(text).unwrap();
    let page = record_page(&rec, &[], Some("game.rec")).unwrap();
    assert_eq!(page.matches("<svg xmlns").count(), 4);
    assert_eq!(page.matches("<div class=\"ply").count(), 4);
    assert_eq!(page.matches("<div class=\"ply on\"").count(), 1);
    for (k, mv) in moves.iter().enumerate() {
        let shown = format!("data-ply=\"{}\">{mv}</span>", k + 1);
        assert!(page.contains(&shown), "{mv}");
    }
    for &(mark, n) in marks {
        assert_eq!(page.matches(mark).count(), n, "{mark}");
    }
    assert_eq!(page.matches("</script>").count(), 2);
    assert!(page.contains("Ada &lt;b&gt;") && page.contains("0-1: White wins (resignation)"));
    assert!(page.contains(title), "{title}");
    let with = record_page(&rec, &[Some(0.0), Some(0.5)], None).unwrap();
    assert!(with.contains("id=\"chart\"") && !page.contains("id=\"chart\""));
    // A move that does not replay is refused with its number.
    let mut bad = rec.clone();
    bad.push_move(rec.moves[0].clone(), None);
    let e = record_page(&bad, &[], None).unwrap_err();
    assert!(
        e.to_string()
            .contains(&format!("move {} ", rec.moves.len() + 1)),
        "{e}"
    );
}
