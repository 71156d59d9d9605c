//! Splinter's page of a recorded game (the generic `crate::render::record_page` with
//! Splinter's pictures): one picture per position, the moves in notation, the value chart.

use crate::game::record::Record;
use crate::games::splinter::Splinter;
use crate::render::record_page;

#[test]
fn one_picture_per_position_and_the_moves_in_notation() {
    let text = "[Game \"splinter\"]\n[Black \"Ada <b>\"]\n[Board \"15x18\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. h9-h10 {value +0.50} 2. g11-g10 {a </script> note} 3. f9-e9 0-1\n";
    let rec = Record::<Splinter>::parse(text).unwrap();
    let page = record_page(&rec, &[], Some("game.rec")).unwrap();
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
    assert!(page.contains("Splinter 15x18 board"));
    let with = record_page(&rec, &[Some(0.0), Some(0.5)], None).unwrap();
    assert!(with.contains("id=\"chart\"") && !page.contains("id=\"chart\""));
}

#[test]
fn a_move_that_does_not_replay_is_refused_with_its_number() {
    let text = "[Game \"splinter\"]\n[Board \"15x18\"]\n[Result \"*\"]\n\nh9-h10 *\n";
    let mut rec = Record::<Splinter>::parse(text).unwrap();
    let first = rec.moves[0].clone();
    rec.push_move(first, None);
    let e = record_page(&rec, &[], None).unwrap_err();
    assert!(e.to_string().contains("move 2 "), "{e}");
}
