//! Crumo's hot path (legal decisions, applying decisions with their removals, random play,
//! clones, hashes) does not touch the heap: a counting global allocator shows zero
//! allocations over thousands of decisions. (Its own test binary: the counter is
//! process-wide.)

use crumble_core::games::crumo::Crumo;
use crumble_core::{Decision, GameState};
use rand::{Rng, SeedableRng};

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::{allocations, assert_counting};

#[test]
fn crumo_decisions_and_random_play_do_not_allocate() {
    assert_counting();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut legal: Vec<Decision> = Vec::with_capacity(4096);
    let fresh = Crumo::standard(5).unwrap();
    let mut game = fresh.clone();
    let mut root = Crumo::standard(7).unwrap();
    for _ in 0..10 {
        root.play_random_turn(&mut rng);
    }
    let mut sim = root.clone();
    let before = allocations();
    let mut decisions = 0u64;
    let mut hashes = 0u64;
    for _ in 0..10 {
        game.clone_from(&fresh);
        game.set_turn_limit(100);
        decisions += game.play_random_game(&mut rng);
    }
    // Decision by decision through the public API, as search does it.
    for _ in 0..5 {
        game.clone_from(&fresh);
        game.set_turn_limit(60);
        while !game.is_over() {
            game.legal_decisions_into(&mut legal);
            let d = legal[rng.random_range(0..legal.len())];
            game.apply_unchecked(d);
            hashes ^= game.state_hash();
            decisions += 1;
        }
    }
    for _ in 0..100 {
        sim.clone_from(&root);
        for _ in 0..3 {
            decisions += u64::from(sim.play_random_turn(&mut rng));
        }
        sim.legal_decisions_into(&mut legal);
    }
    let allocations = allocations() - before;
    assert!(decisions > 1_000, "only {decisions} decisions ({hashes})");
    assert_eq!(
        allocations, 0,
        "{allocations} allocations in {decisions} decisions"
    );
}
