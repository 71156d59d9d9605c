//! The page's move list.

use super::Frame1;
use crate::game::Color;
use crate::game::record::Record;
use crate::games::crumble::game::Crumble;
use crate::render::page::esc;
use crate::render::parse_value_comment;
use std::fmt::Write as _;

/// The move list: a table of full turns, a span per move (`data-ply` = the position after
/// it), value comments as small badges and other comments on a row of their own.
pub(super) fn move_list(s: &mut String, rec: &Record<Crumble>, frames: &[Frame1]) {
    s.push_str("<div id=\"moves\" tabindex=\"-1\">");
    if let Some(c) = &rec.intro {
        let _ = write!(s, r#"<p class="cmt">{}</p>"#, esc(c));
    }
    s.push_str("<table><thead><tr><th></th><th>Black</th><th>White</th></tr></thead><tbody>");
    let n = rec.moves.len();
    let mut k = 1;
    while k <= n {
        let mover = frames[k].last.as_ref().map(|l| l.3);
        let number = frames[k]
            .last
            .as_ref()
            .map(|l| l.1.trim_end_matches('.').to_string())
            .unwrap_or_default();
        let _ = write!(s, r#"<tr><td class="num">{number}.</td>"#);
        if mover == Some(Color::White) {
            // A turn that starts with White (a loaded position, or after a comment row).
            s.push_str("<td class=\"gap\">\u{2026}</td>");
            move_cell(s, rec, frames, k);
            s.push_str("</tr>");
            if let Some(c) = other_comment(rec, k) {
                comment_row(s, c);
            }
            k += 1;
            continue;
        }
        move_cell(s, rec, frames, k);
        if let Some(c) = other_comment(rec, k) {
            // The comment breaks the turn: White's reply goes on the next row.
            s.push_str("<td></td></tr>");
            comment_row(s, c);
            k += 1;
            continue;
        }
        if k < n {
            move_cell(s, rec, frames, k + 1);
            s.push_str("</tr>");
            if let Some(c) = other_comment(rec, k + 1) {
                comment_row(s, c);
            }
            k += 2;
        } else {
            s.push_str("<td></td></tr>");
            k += 1;
        }
    }
    let _ = write!(
        s,
        r#"</tbody></table><p id="final">{}</p></div>"#,
        esc(rec.result_token(&frames[frames.len() - 1].game))
    );
}

/// The cell of move `k` (the one leading to position `k`), with its value badge.
fn move_cell(s: &mut String, rec: &Record<Crumble>, frames: &[Frame1], k: usize) {
    let Some((_, _, text, _)) = &frames[k].last else {
        return;
    };
    let _ = write!(
        s,
        r#"<td><span class="mv" data-ply="{k}">{}</span>"#,
        esc(text)
    );
    if let Some(v) = rec.comment(k - 1).and_then(parse_value_comment) {
        let _ = write!(
            s,
            r#" <span class="vb" title="the mover's value estimate">{v:+.2}</span>"#
        );
    }
    s.push_str("</td>");
}

/// The comment after move `k` unless it is a value comment (those are badges).
fn other_comment(rec: &Record<Crumble>, k: usize) -> Option<&str> {
    rec.comment(k - 1)
        .filter(|c| parse_value_comment(c).is_none())
}

/// A comment on a row of its own.
fn comment_row(s: &mut String, c: &str) {
    let _ = write!(
        s,
        r#"<tr class="cmt"><td></td><td colspan="2">{}</td></tr>"#,
        esc(c)
    );
}
