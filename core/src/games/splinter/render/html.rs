//! Splinter's page of a recorded game: the generic [`crate::render::record_page`] with
//! Splinter's pictures, held to the checks every game's page passes.

use crate::games::splinter::Splinter;
use crate::render::record_page::check_page;

#[test]
fn one_picture_per_position_and_the_moves_in_notation() {
    let text = "[Game \"splinter\"]\n[Black \"Ada <b>\"]\n[Board \"15x18\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. h9-h10 {value +0.50} 2. g11-g10 {a </script> note} 3. f9-e9 0-1\n";
    // The last move is highlighted in every frame after the start, and only there; each
    // frame's arrow marker has an id of its own; comments are shown, escaped.
    let marks = [
        ("<rect class=\"left\"", 3),
        ("id=\"arrow-1\"", 1),
        ("id=\"arrow-2\"", 1),
        ("id=\"arrow-3\"", 1),
        ("+0.50</span>", 1),
        ("a &lt;/script&gt; note", 1),
    ];
    let moves = ["h9-h10", "g11-g10", "f9-e9"];
    check_page::<Splinter>(text, moves, &marks, "Splinter 15x18 board");
}
