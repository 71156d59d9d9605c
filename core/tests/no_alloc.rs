//! The hot path (legal decisions, applying decisions, random play, captures) does not touch the
//! heap once its buffers are warm: a counting global allocator shows zero allocations over
//! thousands of decisions.

use crumble_core::games::crumble::Crumble;
use crumble_core::{Decision, GameState};
use rand::{Rng, SeedableRng};

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::{allocations, assert_counting};

#[test]
fn random_games_and_decisions_do_not_allocate_once_warm() {
    assert_counting();
    let mut game = Crumble::new(6, 8).unwrap();
    game.set_max_turns(200);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut legal: Vec<Decision> = Vec::with_capacity(4096);
    // Warm-up: buffers grow to the sizes games need.
    for _ in 0..200 {
        game.reset_standard();
        game.play_random_game(&mut rng);
    }
    // Search's pattern: reset a simulation state from the root with `clone_from`, then play.
    let mut root = Crumble::new(6, 8).unwrap();
    for _ in 0..30 {
        root.play_random_turn(&mut rng);
    }
    let mut sim = root.clone();
    // Warm-up: the buffers grow to the largest state this root's subtrees reach.
    for _ in 0..6_000 {
        sim.clone_from(&root);
        for _ in 0..3 {
            sim.play_random_turn(&mut rng);
        }
    }
    let before = allocations();
    let mut decisions = 0u64;
    for _ in 0..50 {
        game.reset_standard();
        decisions += game.play_random_game(&mut rng);
    }
    // Decision by decision through the public API, as search does it.
    for _ in 0..20 {
        game.reset_standard();
        while !game.is_over() {
            game.legal_decisions_into(&mut legal);
            let d = if legal.len() > 1 && rng.random_bool(0.5) {
                legal[legal.len() - 1]
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            game.apply_unchecked(d);
            decisions += 1;
        }
    }
    let before_search = allocations();
    for _ in 0..2_000 {
        sim.clone_from(&root);
        for _ in 0..3 {
            decisions += u64::from(sim.play_random_turn(&mut rng));
        }
        sim.legal_decisions_into(&mut legal);
    }
    let search_allocations = allocations() - before_search;
    assert_eq!(
        search_allocations, 0,
        "clone_from + play: {search_allocations} allocations"
    );
    let allocations = allocations() - before;
    assert!(decisions > 10_000, "only {decisions} decisions");
    assert_eq!(
        allocations, 0,
        "{allocations} allocations in {decisions} decisions"
    );
}
