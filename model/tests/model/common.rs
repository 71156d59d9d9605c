//! Helpers shared by the model tests.

use crumble_core::games::crumble::Crumble;
use crumble_core::games::crumble::position;
use crumble_model::Sym;

/// Positions from seeded random games in every phase (see `bench::sample_positions`).
pub fn positions(board: u16, resolution: u16, count: usize, seed: u64) -> Vec<Crumble> {
    crumble_model::bench::sample_positions(board, resolution, count, seed)
}

/// The image of a turn-start state under `sym`, built through the position format (the
/// draw-rule history is not carried over; it affects no legal decision).
pub fn transformed(game: &Crumble, sym: Sym) -> Crumble {
    let b = game.board();
    let g = b.grid_size();
    let pieces: Vec<String> = b
        .sorted_pieces()
        .iter()
        .map(|p| {
            let r = sym.rect(p.rect, g);
            format!(
                r#"{{"x": {}, "y": {}, "w": {}, "h": {}, "color": "{}"}}"#,
                r.x,
                r.y,
                r.w,
                r.h,
                p.color.name()
            )
        })
        .collect();
    let json = format!(
        r#"{{"board": {}, "resolution": {}, "to_move": "{}", "pieces": [{}]}}"#,
        b.board_size(),
        b.resolution(),
        game.to_move().name(),
        pieces.join(", ")
    );
    position::from_json(&json).expect("transformed position is valid")
}
