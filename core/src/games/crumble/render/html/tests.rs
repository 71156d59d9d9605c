//! Tests of `html`.

use super::*;
use crate::render::{parse_value_comment, value_comment};

fn rec(text: &str) -> Record<Crumble> {
    Record::parse(text).unwrap()
}

#[test]
fn value_comments_round_trip_and_refuse_other_text() {
    assert_eq!(value_comment(-0.314), "value -0.31");
    assert_eq!(parse_value_comment("value -0.31"), Some(-0.31));
    assert_eq!(parse_value_comment(" value +1.00 "), Some(1.0));
    assert_eq!(parse_value_comment("value 1.5"), None);
    assert_eq!(parse_value_comment("value NaN"), None);
    assert_eq!(parse_value_comment("White resigns."), None);
}

#[test]
fn values_from_comments_are_in_blacks_view_at_the_position_before_the_move() {
    let r = rec("[Result \"*\"]\n\n1. 1HN {value +0.50} 1... 5,5HSWS {value +0.25} *\n");
    assert_eq!(values_from_comments(&r), vec![Some(0.5), Some(-0.25), None]);
    let plain = rec("[Result \"*\"]\n\n1. 1HN 5,5HSWS *\n");
    assert!(values_from_comments(&plain).is_empty());
}

#[test]
fn a_page_has_one_frame_per_position_and_one_entry_per_move() {
    let r = rec(
        "[Black \"Ada <b>\"]\n[White \"Bo\"]\n[Result \"1-0\"]\n[Termination \"resignation\"]\n\n1. 3VE 0HN 2. 0,5H {a </script> comment} 2... 4H 1-0\n",
    );
    let page = render_game(&r, &HtmlOptions::default()).unwrap();
    assert_eq!(page.matches("<g class=\"ply").count(), 5);
    assert_eq!(page.matches("class=\"mv\"").count(), 4);
    assert_eq!(page.matches("<script").count(), 2);
    assert_eq!(
        page.matches("</script>").count(),
        2,
        "the comment is escaped"
    );
    assert!(page.contains("Ada &lt;b&gt;"));
    assert!(page.contains("1-0: Black wins (resignation)"));
    assert!(!page.contains("http://") && !page.contains("https://"));
    assert!(!page.contains("id=\"chart\""), "no values, no chart");
    let with = HtmlOptions {
        values: vec![Some(0.0), Some(0.5), None, Some(-0.5), Some(1.0)],
        ..HtmlOptions::default()
    };
    let page = render_game(&r, &with).unwrap();
    assert!(page.contains("id=\"chart\"") && page.contains("<polyline"));
}

#[test]
fn a_four_sides_win_shows_the_winning_chain_in_the_last_frame_only() {
    let r = rec(include_str!(
        "../../../../../tests/data/records/custom-start-win.rec"
    ));
    let page = render_game(&r, &HtmlOptions::default()).unwrap();
    let last = &page[page.find("id=\"ply-1\"").unwrap()..];
    let first = &page[..page.find("id=\"ply-1\"").unwrap()];
    assert!(
        last.matches("class=\"win\"").count() >= 6,
        "a chain across the board"
    );
    assert_eq!(first.matches("class=\"win\"").count(), 0);
    assert!(page.contains("Green: the winning chain."));
    // A resignation has no chain.
    let r = rec("[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. 1HN 0-1\n");
    let page = render_game(&r, &HtmlOptions::default()).unwrap();
    assert!(!page.contains("class=\"win\""));
}

#[test]
fn an_illegal_move_is_refused_with_its_number() {
    let mut r = rec("[Result \"*\"]\n\n1. 1HN 5,5HSWS *\n");
    let first = r.moves[0].clone();
    r.moves.push(first);
    let e = render_game(&r, &HtmlOptions::default()).unwrap_err();
    assert!(e.to_string().starts_with("move 3 "), "{e}");
}
