//! Random-game property tests of the Splinter engine over thousands of positions: piece
//! counts never grow and stay within the start's (rule 1.3), every piece is on the board,
//! the pieces form one group after each turn (rule 6.6), knockouts equal the exhausted types
//! and never decrease (rule 7), a live position has a legal move (rule 8.2), every legal
//! move prints and parses back (rule 9.6), positions round-trip through JSON (rule 10), a
//! symmetry applied to a game gives the mapped game (rule 11), and random play is uniform
//! over complete moves (rule 8.8).

mod splinter_common;
use crumble_core::Color;
use crumble_core::game::CompleteMoves;
use crumble_core::games::splinter::{
    PieceType, Splinter, SplinterMove, Symmetry, notation, position, symmetry,
};
use crumble_core::{Decision, GameState};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use splinter_common::{for_each_random_position, random_game_json};
use std::collections::{BTreeSet, HashMap};

const SIZES: [(u8, u8); 6] = [(5, 6), (7, 8), (6, 6), (9, 10), (8, 8), (15, 18)];

/// Pieces per colour and type, counted from the listed pieces.
fn counts(g: &Splinter) -> [[u8; 4]; 2] {
    let mut c = [[0u8; 4]; 2];
    for (_, p) in g.board().pieces() {
        c[p.color as usize][p.kind as usize] += 1;
    }
    c
}

fn check_turn(before: &Splinter, after: &Splinter) {
    let (cb, ca) = (counts(before), counts(after));
    for col in 0..2 {
        for t in PieceType::ALL {
            let i = t as usize;
            assert!(ca[col][i] <= cb[col][i], "a piece count grew");
            assert!(ca[col][i] <= t.start_count(), "more than the start's");
        }
    }
    let b = after.board();
    for (s, _) in b.pieces() {
        assert!(usize::from(s) < b.square_count(), "a piece off the board");
    }
    assert_eq!(b.groups().count, 1, "not one group after the turn:\n{b:?}");
    for color in Color::BOTH {
        let opponent = color.opposite() as usize;
        let exhausted = PieceType::ALL
            .iter()
            .filter(|&&t| ca[opponent][t as usize] == 0)
            .count() as u8;
        assert_eq!(after.knockouts(color), exhausted);
        assert!(
            after.knockouts(color) >= before.knockouts(color),
            "knockouts decreased"
        );
    }
    assert_eq!(after.to_move(), before.to_move().opposite());
}

fn check_position(g: &Splinter) {
    let texts = g.legal_move_texts();
    if g.is_over() {
        assert!(texts.is_empty(), "moves after the end");
        return;
    }
    assert!(!texts.is_empty(), "a live position without a legal move");
    let own = g
        .board()
        .pieces()
        .filter(|(_, p)| p.color == g.to_move())
        .count();
    let slides: BTreeSet<(u16, u8)> = g
        .legal_moves()
        .iter()
        .map(|m| (m.from, m.dir as u8))
        .collect();
    assert!(slides.len() <= 8 * own, "more slides than 8 per piece");
    assert!(texts.windows(2).all(|w| w[0] < w[1]), "sorted, each once");
    for t in &texts {
        let mv = notation::parse_move(g.board(), t).unwrap();
        let canonical = g.canonical(&mv).unwrap();
        assert_eq!(&notation::move_text(g.board(), &canonical), t);
    }
    let json = position::to_json(g);
    let back = position::from_json(&json).unwrap();
    assert_eq!(position::to_json(&back), json, "position JSON round-trip");
    assert_eq!(back.legal_move_texts(), texts);
}

#[test]
fn random_games_keep_the_invariants() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut positions = 0;
    let mut ended = 0;
    for game_index in 0..240 {
        let (w, h) = SIZES[game_index % SIZES.len()];
        let mut g = Splinter::standard(w, h).unwrap();
        g.set_turn_limit(80);
        while !g.is_over() {
            let before = g.clone();
            check_position(&g);
            g.play_random_turn(&mut rng);
            check_turn(&before, &g);
            positions += 1;
        }
        check_position(&g);
        ended += usize::from(g.outcome().unwrap().winner.is_some());
    }
    assert!(positions > 5_000, "{positions} positions");
    assert!(ended > 20, "only {ended} games won");
}

/// A piece leaves the board only by a push, at most one per move (rule 4.3).
#[test]
fn at_most_one_piece_is_pushed_off_per_move() {
    let mut pushed_off = 0;
    for_each_random_position(5, 100, (5, 6), 40, |g| {
        for mv in g.legal_moves() {
            let mut b = g.board().clone();
            let before = b.piece_count();
            let push = b.push(mv.from, mv.dir).unwrap();
            assert!(b.piece_count() + 1 >= before);
            assert_eq!(
                b.piece_count() + usize::from(push.off_board.is_some()),
                before
            );
            pushed_off += usize::from(push.off_board.is_some());
        }
    });
    assert!(pushed_off > 100, "{pushed_off}");
}

#[test]
fn a_symmetry_applied_to_a_game_gives_the_mapped_game() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let mut checked = 0;
    for game_index in 0..60 {
        let (w, h) = SIZES[game_index % SIZES.len()];
        let start = Splinter::standard(w, h).unwrap();
        let maps = Symmetry::of_board(w, h);
        let mut images: Vec<Splinter> = maps.iter().map(|s| s.position(&start)).collect();
        let mut g = start;
        g.set_turn_limit(60);
        for im in &mut images {
            im.set_turn_limit(60);
        }
        while !g.is_over() {
            let moves = g.legal_moves();
            for (s, im) in maps.iter().zip(&images) {
                // The legal moves of the image are the images of the legal moves.
                let mapped: BTreeSet<String> = moves
                    .iter()
                    .map(|m| notation::move_text(im.board(), &s.complete_move(&g, m)))
                    .collect();
                let theirs: BTreeSet<String> = im.legal_move_texts().into_iter().collect();
                assert_eq!(mapped, theirs, "{s:?}");
            }
            let mv: SplinterMove = moves[rand::Rng::random_range(&mut rng, 0..moves.len())];
            for (s, im) in maps.iter().zip(images.iter_mut()) {
                im.play(&s.complete_move(&g, &mv)).unwrap();
            }
            g.play(&mv).unwrap();
            for (s, im) in maps.iter().zip(&images) {
                assert_eq!(&s.position(&g), im, "{s:?} after {checked} moves");
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn exchanging_colours_gives_the_same_moves_and_the_mirrored_result() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for game_index in 0..40 {
        let (w, h) = SIZES[game_index % SIZES.len()];
        let mut g = Splinter::standard(w, h).unwrap();
        let mut swapped = symmetry::swap_colors(&g);
        g.set_turn_limit(50);
        swapped.set_turn_limit(50);
        while !g.is_over() {
            assert_eq!(g.legal_move_texts(), swapped.legal_move_texts());
            let moves = g.legal_moves();
            let mv = moves[rand::Rng::random_range(&mut rng, 0..moves.len())];
            g.play(&mv).unwrap();
            swapped.play(&mv).unwrap();
            assert_eq!(symmetry::swap_colors(&g), swapped);
        }
    }
}

/// Rule 8.8: each complete move as likely as any other, so each of the two choices of a
/// move that leaves equal largest groups is as likely as a plain move.
#[test]
fn random_play_is_uniform_over_complete_moves() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/splinter-examples/15-tie-mover-keeps-first.json"),
    )
    .unwrap();
    let case: serde_json::Value = serde_json::from_str(&text).unwrap();
    let start = position::from_value(&case["start"]).unwrap();
    let moves = start.legal_move_texts();
    assert!(moves.contains(&"e4-d3/d3".into()) && moves.contains(&"e4-d3/f4".into()));
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let samples = 40_000u32;
    // A turn's recorded decisions identify its complete move.
    let by_decisions: HashMap<Vec<Decision>, String> = moves
        .iter()
        .map(|t| {
            let mv = notation::parse_move(start.board(), t).unwrap();
            let (first, keep) = start.resolve(&mv).unwrap();
            (std::iter::once(first).chain(keep).collect(), t.clone())
        })
        .collect();
    assert_eq!(by_decisions.len(), moves.len());
    let mut path = Vec::new();
    for _ in 0..samples {
        let mut g = start.clone();
        g.play_random_turn_recorded(&mut rng, &mut path);
        *seen.entry(by_decisions[&path].clone()).or_default() += 1;
    }
    let expected = f64::from(samples) / moves.len() as f64;
    let sigma = (expected * (1.0 - 1.0 / moves.len() as f64)).sqrt();
    for t in &moves {
        let n = f64::from(seen.get(t).copied().unwrap_or(0));
        assert!(
            (n - expected).abs() < 5.0 * sigma,
            "{t}: {n} times, expected {expected:.0}"
        );
    }
}

#[test]
fn random_play_follows_its_seed() {
    let play = |seed| random_game_json(seed, (7, 8), 100);
    assert_eq!(play(3), play(3));
    assert_ne!(play(3), play(4));
}
