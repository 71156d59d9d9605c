//! Crumo's page of a recorded game (the generic `crate::render::record_page` with
//! Crumo's pictures): one picture per position, the moves in notation, the value chart.

use crate::game::record::Record;
use crate::games::crumo::Crumo;
use crate::render::record_page;

#[test]
fn one_picture_per_position_and_the_moves_in_notation() {
    let text = "[Game \"crumo\"]\n[Size \"5\"]\n[Black \"Ada <b>\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. 3e5 2. swap 3. 1a9 0-1\n";
    let rec = Record::<Crumo>::parse(text).unwrap();
    let page = record_page(&rec, &[], Some("game.rec")).unwrap();
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
    let with = record_page(&rec, &[Some(0.0), Some(0.5)], None).unwrap();
    assert!(with.contains("id=\"chart\"") && !page.contains("id=\"chart\""));
}

#[test]
fn a_move_that_does_not_replay_is_refused_with_its_number() {
    let text = "[Game \"crumo\"]\n[Size \"5\"]\n[Result \"*\"]\n\n1. 3e5 *\n";
    let mut rec = Record::<Crumo>::parse(text).unwrap();
    let first = rec.moves[0].clone();
    rec.push_move(first, None);
    let e = record_page(&rec, &[], None).unwrap_err();
    assert!(e.to_string().contains("move 2 "), "{e}");
}
