//! Property tests of the text parsers: printing then parsing gives back the same position,
//! move and record for random games; and no mutation of a valid input (truncation, bit
//! flip, splice with another valid input) makes a parser panic. The fuzz targets
//! (scripts/fuzz.sh) search the same properties for much longer.

use crumble_core::game::GameState;
use crumble_core::game::record::{Ending, Record};
use crumble_core::games::crumble::{Crumble, Frame, Move};
use crumble_core::games::crumble::{notation, position};
use proptest::prelude::*;

#[path = "common/prop_support.rs"]
mod prop_support;
use prop_support::{config_with_cases, mutate};
use rand::SeedableRng;

type GameRecord = Record<Crumble>;

/// The record of `moves` from `start` in `frame`, each move with `comment`.
fn record_of(start: &Crumble, frame: Frame, moves: &[Move], comment: Option<&str>) -> GameRecord {
    let mut rec = GameRecord::new(start.clone());
    rec.notation = frame;
    let mut g = start.clone();
    for mv in moves {
        rec.push_move(g.play_move(mv).unwrap(), comment.map(String::from));
    }
    rec
}

/// A game after `turns` random turns from the standard start of one of a few sizes, and
/// the moves that led there.
fn random_game(size: usize, turns: usize, seed: u64) -> (Crumble, Crumble, Vec<Move>) {
    let (n, r) = [(6, 8), (4, 2), (3, 4), (5, 1), (2, 2)][size % 5];
    let start = Crumble::new(n, r).unwrap();
    let mut g = start.clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut path = Vec::new();
    for _ in 0..turns {
        if g.is_over() {
            break;
        }
        let before = g.clone();
        g.play_random_turn_recorded(&mut rng, &mut path);
        moves.push(before.move_from_decisions(&path).unwrap());
    }
    (start, g, moves)
}

proptest! {
    #![proptest_config(config_with_cases(48))]

    #[test]
    fn position_json_round_trips(size in 0usize..5, turns in 0usize..25, seed in any::<u64>()) {
        let (_, g, _) = random_game(size, turns, seed);
        let json = position::to_json(&g);
        let back = position::from_json(&json).unwrap();
        // The JSON is the position alone (no history): printing is the identity on it.
        prop_assert_eq!(position::to_json(&back), json);
        prop_assert_eq!(back.to_move(), g.to_move());
    }

    #[test]
    fn moves_round_trip_in_both_frames(size in 0usize..5, turns in 0usize..20, seed in any::<u64>()) {
        let (_, g, _) = random_game(size, turns, seed);
        prop_assume!(!g.is_over());
        // One more random turn from g: its move.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        let mut after = g.clone();
        let mut path = Vec::new();
        after.play_random_turn_recorded(&mut rng, &mut path);
        let played = g.move_from_decisions(&path).unwrap();
        for frame in [Frame::PerPlayer, Frame::Absolute] {
            let text = notation::format_move(&g, &played, frame).unwrap();
            let mv = notation::parse_move(&g, &text, frame).unwrap();
            prop_assert_eq!(&mv, &played, "{}", text);
            let mut h = g.clone();
            h.play_move(&mv).unwrap();
            prop_assert!(h == after);
        }
    }

    #[test]
    fn records_round_trip(size in 0usize..5, turns in 0usize..30, seed in any::<u64>(), absolute: bool) {
        let (start, end, moves) = random_game(size, turns, seed);
        let frame = if absolute { Frame::Absolute } else { Frame::PerPlayer };
        let mut rec = record_of(&start, frame, &moves, None);
        rec.set_tag("Black", "someone");
        rec.end = end.is_over().then_some(Ending::Rules);
        let text = rec.write();
        let back = GameRecord::parse(&text).unwrap();
        prop_assert_eq!(&back, &rec);
        prop_assert_eq!(back.write(), text);
    }

    #[test]
    fn mutated_inputs_never_panic(
        size in 0usize..5, turns in 0usize..12, seed in any::<u64>(),
        how in any::<u8>(), at in any::<usize>(), bit in any::<u8>(),
    ) {
        let (start, g, moves) = random_game(size, turns, seed);
        let (_, other, _) = random_game(size + 1, turns, !seed);
        let json = position::to_json(&g);
        let m = mutate(json.as_bytes(), position::to_json(&other).as_bytes(), how, at, bit);
        let _ = position::from_json(&String::from_utf8_lossy(&m));

        let text = record_of(&start, Frame::PerPlayer, &moves, Some("c")).write();
        let m = mutate(text.as_bytes(), json.as_bytes(), how, at, bit);
        if let Ok(r) = GameRecord::parse(&String::from_utf8_lossy(&m)) {
            let _ = r.ended_positions();
        }

        if let Some(mv) = moves.first() {
            let t = notation::format_move(&start, mv, Frame::PerPlayer).unwrap();
            let m = mutate(t.as_bytes(), b"0,1/2V3NESW+", how, at, bit);
            let _ = notation::parse_move(&start, &String::from_utf8_lossy(&m), Frame::Absolute);
        }
    }
}
