//! Crumo's page of a recorded game: the generic [`crate::render::record_page`] with Crumo's
//! pictures, held to the checks every game's page passes.

use crate::games::crumo::Crumo;
use crate::render::record_page::check_page;

#[test]
fn one_picture_per_position_and_the_moves_in_notation() {
    let text = "[Game \"crumo\"]\n[Size \"5\"]\n[Black \"Ada <b>\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. 3e5 2. swap 3. 1a9 0-1\n";
    // The placements are ringed in the frames after them; the swap touches no point.
    let marks = [("class=\"last-move\"", 2), ("class=\"stack ", 1 + 1 + 2)];
    check_page::<Crumo>(text, ["3e5", "swap", "1a9"], &marks, "Crumo size 5");
}
