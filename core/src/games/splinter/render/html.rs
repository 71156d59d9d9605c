//! A whole Splinter game as one self-contained HTML page, on the page Crumble's games use
//! (`crate::render::page`): one picture per position drawn by [`super::svg`] (the last move
//! highlighted), the move list in canonical notation numbered by turn, the controls and keys
//! to step, and the value chart when values are given (`values[k]`: the value of the
//! position after `k` moves, Black's view, as in [`crate::games::crumble::render::html`]).

use super::svg::{self, SvgOptions};
use super::{SplinterHighlight, score_line, status_line};
use crate::game::record::{Record, result_token};
use crate::game::{Color, TextError};
use crate::games::splinter::{Splinter, SplinterMove, notation};
use crate::render::page::{self, Page, esc};
use crate::render::parse_value_comment;
use std::fmt::Write as _;

/// Every position of the record with the move that led to it (none for the start); the
/// last one carries the record's result when the moves do not reach it (a resignation).
fn positions(rec: &Record<Splinter>) -> Result<Vec<(Splinter, Option<SplinterMove>)>, TextError> {
    let states = rec.ended_positions()?;
    let mut out = vec![(states[0].clone(), None)];
    for (i, turn) in rec.moves.iter().enumerate() {
        out.push((states[i + 1].clone(), states[i].move_of_turn(turn)));
    }
    Ok(out)
}

/// The frames are whole pictures in blocks; the shared style is written for Crumble's SVG
/// groups.
const CSS: &str = "#board .ply.on{display:block}#board svg{width:100%;height:auto;display:block}";

/// The page; `values` as for Crumble's page (empty for none), `source` under the heading.
pub fn render_game(
    rec: &Record<Splinter>,
    values: &[Option<f32>],
    source: Option<&str>,
) -> Result<String, TextError> {
    let positions = positions(rec)?;
    let n = positions.len() - 1;
    let mut board = String::from(r#"<div id="board" role="img" aria-label="the board">"#);
    let mut plies = Vec::new();
    let mut texts = Vec::new();
    for (k, (game, mv)) in positions.iter().enumerate() {
        let before = k.checked_sub(1).map(|i| &positions[i].0);
        let (highlight, last) = match (before, mv) {
            (Some(b), Some(m)) => {
                let text = notation::move_text(b.board(), m);
                let mover = b.to_move();
                texts.push((text.clone(), mover));
                (
                    SplinterHighlight::of(b, m),
                    Some(format!("{k}. {text} ({})", super::capital(mover))),
                )
            }
            _ => (None, None),
        };
        let picture = svg::render(
            game,
            &SvgOptions {
                coords: true,
                highlight,
                last_move: last.clone(),
            },
        );
        // Each picture defines its arrow marker: give each its own id, so that no frame
        // points into another (hidden) one.
        let picture = picture
            .replace("id=\"arrow\"", &format!("id=\"arrow-{k}\""))
            .replace("url(#arrow)", &format!("url(#arrow-{k})"));
        let _ = write!(
            board,
            "<div class=\"ply{}\" id=\"ply-{k}\">{picture}</div>",
            if k == 0 { " on" } else { "" }
        );
        let disc = match game.outcome() {
            Some(o) => o.winner.map_or("none", |c| c.name()),
            None => game.to_move().name(),
        };
        let status = format!("{}; {}", status_line(game), score_line(game));
        plies.push(serde_json::json!({"status": status, "disc": disc, "last": last}));
    }
    board.push_str("</div>");
    let data = serde_json::json!({"plies": plies, "start": 0})
        .to_string()
        .replace("</", "<\\/");

    let start = &positions[0].0;
    let end = &positions[n].0;
    let b = start.board();
    let black = rec.tag("Black").unwrap_or("Black");
    let white = rec.tag("White").unwrap_or("White");
    let result_text = match end.outcome() {
        Some(o) => format!("{}: {}", result_token(o.winner), status_line(end)),
        None => "*: unfinished".to_string(),
    };
    let mut facts = format!(
        "<div><dt>Board</dt><dd>{}\u{d7}{}</dd></div>",
        b.width(),
        b.height()
    );
    let standard = Splinter::standard(b.width(), b.height()).is_some_and(|s| s == *start);
    if !standard {
        facts.push_str("<div><dt>Start</dt><dd>a custom position</dd></div>");
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
    let result = end.outcome().map(|o| match o.winner {
        Some(Color::Black) => 1.0,
        Some(Color::White) => -1.0,
        None => 0.0,
    });
    Ok(page::write(&Page {
        title: format!(
            "{black} vs {white}: Splinter {}\u{d7}{}",
            b.width(),
            b.height()
        ),
        extra_css: CSS,
        board,
        n,
        first_status: plies[0]["status"].as_str().unwrap_or_default().to_string(),
        first_disc: start.to_move().name(),
        legend: "Orange: the pieces the last move moved; dashed red: the square it left, with an arrow in its direction.".into(),
        black,
        white,
        source,
        result_text,
        facts,
        moves: move_list(rec, &texts, rec.result_token(end)),
        values,
        result,
        data,
    }))
}

/// The move list: one row per turn, the move in its player's column (`data-ply` = the
/// position after it), value comments as badges and other comments on a row of their own.
fn move_list(rec: &Record<Splinter>, texts: &[(String, Color)], token: &str) -> String {
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

impl crate::render::RecordPage for Splinter {
    fn record_page(
        rec: &Record<Splinter>,
        values: &[Option<f32>],
        source: Option<&str>,
    ) -> Result<String, TextError> {
        render_game(rec, values, source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_picture_per_position_and_the_moves_in_notation() {
        let text = "[Game \"splinter\"]\n[Black \"Ada <b>\"]\n[Board \"15x18\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. h9-h10 {value +0.50} 2. g11-g10 {a </script> note} 3. f9-e9 0-1\n";
        let rec = Record::<Splinter>::parse(text).unwrap();
        let page = render_game(&rec, &[], Some("game.rec")).unwrap();
        assert_eq!(page.matches("<svg xmlns").count(), 4);
        assert_eq!(page.matches("<div class=\"ply").count(), 4);
        assert_eq!(page.matches("<div class=\"ply on\"").count(), 1);
        for (k, mv) in ["h9-h10", "g11-g10", "f9-e9"].iter().enumerate() {
            assert!(
                page.contains(&format!("data-ply=\"{}\">{mv}</span>", k + 1)),
                "{mv}"
            );
            assert!(page.contains(&format!("id=\"arrow-{}\"", k + 1)));
        }
        // The last move is highlighted in every frame after the start, and only there.
        assert_eq!(page.matches("<rect class=\"left\"").count(), 3);
        assert!(page.contains("+0.50</span>") && page.contains("a &lt;/script&gt; note"));
        assert_eq!(page.matches("</script>").count(), 2);
        assert!(page.contains("Ada &lt;b&gt;") && page.contains("0-1: White wins (resignation)"));
        assert!(page.contains("Splinter 15\u{d7}18"));
        let with = render_game(&rec, &[Some(0.0), Some(0.5)], None).unwrap();
        assert!(with.contains("id=\"chart\"") && !page.contains("id=\"chart\""));
    }

    #[test]
    fn a_move_that_does_not_replay_is_refused_with_its_number() {
        let text = "[Game \"splinter\"]\n[Board \"15x18\"]\n[Result \"*\"]\n\nh9-h10 *\n";
        let mut rec = Record::<Splinter>::parse(text).unwrap();
        let first = rec.moves[0].clone();
        rec.push_move(first, None);
        let e = render_game(&rec, &[], None).unwrap_err();
        assert!(e.to_string().contains("move 2 "), "{e}");
    }
}
