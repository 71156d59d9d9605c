//! Splinter's hot path (legal decisions, applying decisions, random play, clones, hashes,
//! the one-turn lookahead once its buffers are warm)
//! does not touch the heap: a counting global allocator shows zero allocations over
//! thousands of decisions. (Its own test binary: the counter is process-wide.)

use crumble_core::games::splinter::{Splinter, SplinterWinCheck};
use crumble_core::{Decision, GameState};
use rand::{Rng, SeedableRng};

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::{allocations, assert_counting};

#[test]
fn splinter_decisions_and_random_play_do_not_allocate() {
    assert_counting();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut legal: Vec<Decision> = Vec::with_capacity(4096);
    let fresh = Splinter::standard(7, 8).unwrap();
    let mut game = fresh.clone();
    let mut root = Splinter::standard(15, 18).unwrap();
    for _ in 0..10 {
        root.play_random_turn(&mut rng);
    }
    let mut sim = root.clone();
    let mut check = SplinterWinCheck::default();
    // Warm the lookahead's buffers (a scratch game each, the choices' list).
    for _ in 0..50 {
        game.clone_from(&fresh);
        while !game.is_over() {
            let _ = game.win_this_turn(&mut check);
            game.play_random_turn(&mut rng);
        }
    }
    let before = allocations();
    let mut wins = 0u64;
    let mut decisions = 0u64;
    let mut hashes = 0u64;
    for _ in 0..40 {
        game.clone_from(&fresh);
        game.set_turn_limit(100);
        decisions += game.play_random_game(&mut rng);
    }
    // Decision by decision through the public API, as search does it.
    for _ in 0..20 {
        game.clone_from(&fresh);
        game.set_turn_limit(100);
        while !game.is_over() {
            wins += u64::from(game.win_this_turn(&mut check).is_some());
            game.legal_decisions_into(&mut legal);
            let d = legal[rng.random_range(0..legal.len())];
            game.apply_unchecked(d);
            hashes ^= game.state_hash();
            decisions += 1;
        }
    }
    for _ in 0..500 {
        sim.clone_from(&root);
        for _ in 0..3 {
            decisions += u64::from(sim.play_random_turn(&mut rng));
        }
        sim.legal_decisions_into(&mut legal);
    }
    let allocations = allocations() - before;
    assert!(decisions > 3_000, "only {decisions} decisions ({hashes})");
    assert!(
        wins > 0,
        "the lookahead found no win in {decisions} decisions"
    );
    assert_eq!(
        allocations, 0,
        "{allocations} allocations in {decisions} decisions"
    );
}
