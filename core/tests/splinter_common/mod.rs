//! Helpers shared by the per-rule Splinter tests: the worked examples' starts and ends,
//! boards built from square names, and the imports every rule test uses.

#![allow(dead_code, unused_imports)]

pub use crumble_core::Color;
use crumble_core::game::CompleteMoves;
pub use crumble_core::games::splinter::board::{Board, size_ok};
pub use crumble_core::games::splinter::{
    Dir, MoveError, MoveRuleError, NotationError, Piece, PieceType, PositionError,
    PositionRuleError, Reason, Splinter, SplinterStart, Symmetry, notation, position,
};
pub use crumble_core::{Decision, DecisionError, GameState, Player};
pub use rand::SeedableRng;
pub use rand_chacha::ChaCha8Rng;
pub use serde_json::{Value, json};
use std::path::Path;

pub fn example(file: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/splinter-examples")
        .join(file);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The start of an example file.
pub fn example_start(file: &str) -> Splinter {
    let case = example(file);
    match &case["start"] {
        Value::String(_) => Splinter::standard(
            case["width"].as_u64().unwrap() as u8,
            case["height"].as_u64().unwrap() as u8,
        )
        .unwrap(),
        pos => position::from_value(pos).unwrap(),
    }
}

pub fn play(g: &mut Splinter, moves: &[&str]) {
    for m in moves {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

pub fn sq(g: &Splinter, name: &str) -> u16 {
    notation::parse_square(g.board(), name).unwrap()
}

pub fn piece(color: Color, kind: PieceType) -> Option<Piece> {
    Some(Piece { color, kind })
}

pub const BP: Option<Piece> = Some(Piece {
    color: Color::Black,
    kind: PieceType::Pawn,
});
pub const WP: Option<Piece> = Some(Piece {
    color: Color::White,
    kind: PieceType::Pawn,
});

/// A board with pawns on the named squares, Black's first, alternating colours.
pub fn board_with(w: u8, h: u8, squares: &[&str]) -> Board {
    let mut b = Board::empty(w, h);
    for (i, s) in squares.iter().enumerate() {
        let at = notation::parse_square(&b, s).unwrap();
        b.put(at, if i % 2 == 0 { BP } else { WP });
    }
    b
}

pub fn names(b: &Board) -> Vec<String> {
    b.pieces()
        .map(|(s, _)| notation::square_name(b, s))
        .collect()
}

pub fn refused(file: &str) -> MoveError {
    let case = example(file);
    let mut g = example_start(file);
    if let Some(t) = case.get("max_turns") {
        g.set_turn_limit(t.as_u64().unwrap() as u32);
    }
    let moves: Vec<&str> = case["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let k = case["error_move_index"].as_u64().unwrap() as usize;
    play(&mut g, &moves[..k - 1]);
    let before = g.clone();
    let e = g.play_text(moves[k - 1]).unwrap_err();
    assert_eq!(g, before, "a refused move changes nothing");
    e
}

pub fn final_of(file: &str) -> Splinter {
    let case = example(file);
    let mut g = example_start(file);
    if let Some(t) = case.get("max_turns") {
        g.set_turn_limit(t.as_u64().unwrap() as u32);
    }
    for m in case["moves"].as_array().unwrap() {
        if g.play_text(m.as_str().unwrap()).is_err() {
            break;
        }
    }
    g
}

/// Calls `visit` on every position before a turn of `games` random games (turns drawn from
/// `seed`) on a `w`×`h` board, each ended by the rules or after `limit` turns.
pub fn for_each_random_position(
    seed: u64,
    games: usize,
    (w, h): (u8, u8),
    limit: u32,
    mut visit: impl FnMut(&Splinter),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..games {
        let mut g = Splinter::standard(w, h).unwrap();
        g.set_turn_limit(limit);
        while !g.is_over() {
            visit(&g);
            g.play_random_turn(&mut rng);
        }
    }
}

/// The position JSON after the random game of `seed` on a `w`×`h` board, at most `limit`
/// turns.
pub fn random_game_json(seed: u64, (w, h): (u8, u8), limit: u32) -> String {
    let mut g = Splinter::standard(w, h).unwrap();
    g.set_turn_limit(limit);
    g.play_random_game(&mut ChaCha8Rng::seed_from_u64(seed));
    position::to_json(&g)
}
