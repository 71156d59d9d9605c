//! A whole Crumo game as one self-contained HTML page, on the page the other games use
//! (`crate::render::page`): one picture per position drawn by [`super::svg`] (the last move's
//! points ringed), the move list in notation numbered by turn, the controls and keys to step,
//! and the value chart when values are given (`values[k]`: the value of the position after
//! `k` moves, Black's view, as in [`crate::games::crumble::render::html`]).

use super::svg::{self, SvgOptions};
use super::{CrumoHighlight, score_line, status_line};
use crate::game::record::{Record, result_token};
use crate::game::{Color, TextError};
use crate::games::crumo::{Crumo, CrumoMove};
use crate::render::page::{self, Page, esc};
use std::fmt::Write as _;

/// The frames are whole pictures in blocks; the shared style is written for Crumble's SVG
/// groups.
const CSS: &str = "#board .ply.on{display:block}#board svg{width:100%;height:auto;display:block}";

/// Every position of the record with the move that led to it (none for the start); the
/// last one carries the record's result when the moves do not reach it (a resignation).
fn positions(rec: &Record<Crumo>) -> Result<Vec<(Crumo, Option<CrumoMove>)>, TextError> {
    let states = rec.ended_positions()?;
    let mut out = vec![(states[0].clone(), None)];
    for (i, turn) in rec.moves.iter().enumerate() {
        out.push((states[i + 1].clone(), states[i].move_of_turn(turn)));
    }
    Ok(out)
}

/// The page; `values` as for Crumble's page (empty for none), `source` under the heading.
pub fn render_game(
    rec: &Record<Crumo>,
    values: &[Option<f32>],
    source: Option<&str>,
) -> Result<String, TextError> {
    let positions = positions(rec)?;
    let n = positions.len() - 1;
    let geo = rec.start.geometry();
    let mut board = String::from(r#"<div id="board" role="img" aria-label="the board">"#);
    let mut plies = Vec::new();
    let mut texts = Vec::new();
    for (k, (game, mv)) in positions.iter().enumerate() {
        let before = k.checked_sub(1).map(|i| &positions[i].0);
        let (highlight, last) = match (before, mv) {
            (Some(b), Some(m)) => {
                let text = crate::games::crumo::notation::move_text(geo, m);
                let mover = b.to_move();
                texts.push((text.clone(), mover));
                (
                    CrumoHighlight::of(m),
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
    let black = rec.tag("Black").unwrap_or("Black");
    let white = rec.tag("White").unwrap_or("White");
    let result_text = match end.outcome() {
        Some(o) => format!("{}: {}", result_token(o.winner), status_line(end)),
        None => "*: unfinished".to_string(),
    };
    let mut facts = format!(
        "<div><dt>Board</dt><dd>size {} ({} points)</dd></div>",
        start.size(),
        start.points()
    );
    let standard = Crumo::standard(start.size()).is_some_and(|s| {
        crate::games::crumo::position::to_value(&s)
            == crate::games::crumo::position::to_value(start)
    });
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
        title: format!("{black} vs {white}: Crumo size {}", start.size()),
        extra_css: CSS,
        board,
        n,
        first_status: plies[0]["status"].as_str().unwrap_or_default().to_string(),
        first_disc: start.to_move().name(),
        legend: "Orange rings: the points the last move placed on, left or reached.".into(),
        black,
        white,
        source,
        result_text,
        facts,
        moves: move_list(&texts, rec.result_token(end)),
        values,
        result,
        data,
    }))
}

/// The move list: one row per turn, the move in its player's column (`data-ply` = the
/// position after it). After a swap White moves twice in a row (rule 8.2), so rows follow
/// turns, not pairs of moves.
fn move_list(texts: &[(String, Color)], token: &str) -> String {
    let mut s = String::from(
        "<div id=\"moves\" tabindex=\"-1\"><table><thead><tr><th></th><th>Black</th><th>White</th></tr></thead><tbody>",
    );
    for (i, (text, mover)) in texts.iter().enumerate() {
        let k = i + 1;
        let cell = format!(
            r#"<td><span class="mv" data-ply="{k}">{}</span></td>"#,
            esc(text)
        );
        let (left, right) = match mover {
            Color::Black => (cell.as_str(), "<td></td>"),
            Color::White => ("<td class=\"gap\">\u{2026}</td>", cell.as_str()),
        };
        let _ = write!(s, r#"<tr><td class="num">{k}.</td>{left}{right}</tr>"#);
    }
    let _ = write!(
        s,
        r#"</tbody></table><p id="final">{}</p></div>"#,
        esc(token)
    );
    s
}

impl crate::render::RecordPage for Crumo {
    fn record_page(
        rec: &Record<Crumo>,
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
        let text = "[Game \"crumo\"]\n[Size \"5\"]\n[Black \"Ada <b>\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. 3e5 2. swap 3. 1a9 0-1\n";
        let rec = Record::<Crumo>::parse(text).unwrap();
        let page = render_game(&rec, &[], Some("game.rec")).unwrap();
        assert_eq!(page.matches("<svg xmlns").count(), 4);
        assert_eq!(page.matches("<div class=\"ply").count(), 4);
        assert_eq!(page.matches("<div class=\"ply on\"").count(), 1);
        for (k, mv) in ["3e5", "swap", "1a9"].iter().enumerate() {
            assert!(
                page.contains(&format!("data-ply=\"{}\">{mv}</span>", k + 1)),
                "{mv}"
            );
        }
        // The placements are ringed in the frames after them; the swap touches no point.
        assert_eq!(page.matches("class=\"last-move\"").count(), 2);
        assert_eq!(page.matches("class=\"stack ").count(), 1 + 1 + 2);
        assert_eq!(page.matches("</script>").count(), 2);
        assert!(page.contains("Ada &lt;b&gt;") && page.contains("0-1: White wins (resignation)"));
        assert!(page.contains("Crumo size 5"));
        let with = render_game(&rec, &[Some(0.0), Some(0.5)], None).unwrap();
        assert!(with.contains("id=\"chart\"") && !page.contains("id=\"chart\""));
    }

    #[test]
    fn a_move_that_does_not_replay_is_refused_with_its_number() {
        let text = "[Game \"crumo\"]\n[Size \"5\"]\n[Result \"*\"]\n\n1. 3e5 *\n";
        let mut rec = Record::<Crumo>::parse(text).unwrap();
        let first = rec.moves[0].clone();
        rec.push_move(first, None);
        let e = render_game(&rec, &[], None).unwrap_err();
        assert!(e.to_string().contains("move 2 "), "{e}");
    }
}
