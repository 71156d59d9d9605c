//! Splinter's and Crumo's hot paths (legal decisions, applying decisions with their removals,
//! random play, clones, hashes, the one-turn lookahead once its buffers are warm) do not touch
//! the heap: a counting global allocator shows zero allocations over thousands of decisions.
//! (Its own test binary with one test: the counter is process-wide.)

use crumble_core::games::crumo::Crumo;
use crumble_core::games::splinter::Splinter;
use crumble_core::{Decision, GameState};
use rand::{Rng, SeedableRng};

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::{allocations, assert_counting};

/// How long to drive one game's hot path, counted in games and simulations.
struct Drive {
    /// Games played first with the lookahead, uncounted, to warm its buffers.
    warm_lookahead_games: u32,
    random_games: u32,
    random_game_limit: u32,
    /// Games played decision by decision through the public API, as search does it.
    stepped_games: u32,
    stepped_game_limit: u32,
    /// Search's pattern: a simulation state reset from the root, then three random turns.
    simulations: u32,
}

/// Drives the hot path from `fresh` (and a root 10 random turns into `root`), asserting that
/// nothing allocates; returns the decisions taken and the wins the lookahead found.
fn drive_without_allocating<G: GameState>(fresh: G, mut root: G, drive: &Drive) -> (u64, u64) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut legal: Vec<Decision> = Vec::with_capacity(4096);
    let mut game = fresh.clone();
    for _ in 0..10 {
        root.play_random_turn(&mut rng);
    }
    let mut sim = root.clone();
    let mut check = G::WinCheck::default();
    for _ in 0..drive.warm_lookahead_games {
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
    for _ in 0..drive.random_games {
        game.clone_from(&fresh);
        game.set_turn_limit(drive.random_game_limit);
        decisions += game.play_random_game(&mut rng);
    }
    for _ in 0..drive.stepped_games {
        game.clone_from(&fresh);
        game.set_turn_limit(drive.stepped_game_limit);
        while !game.is_over() {
            wins += u64::from(game.win_this_turn(&mut check).is_some());
            game.legal_decisions_into(&mut legal);
            let d = legal[rng.random_range(0..legal.len())];
            game.apply_unchecked(d);
            hashes ^= game.state_hash();
            decisions += 1;
        }
    }
    for _ in 0..drive.simulations {
        sim.clone_from(&root);
        for _ in 0..3 {
            decisions += u64::from(sim.play_random_turn(&mut rng));
        }
        sim.legal_decisions_into(&mut legal);
    }
    let allocations = allocations() - before;
    assert_eq!(
        allocations,
        0,
        "{}: {allocations} allocations in {decisions} decisions ({hashes})",
        G::NAME
    );
    (decisions, wins)
}

#[test]
fn splinter_and_crumo_decisions_and_random_play_do_not_allocate() {
    assert_counting();
    let splinter = Drive {
        warm_lookahead_games: 50,
        random_games: 40,
        random_game_limit: 100,
        stepped_games: 20,
        stepped_game_limit: 100,
        simulations: 500,
    };
    let (decisions, wins) = drive_without_allocating(
        Splinter::standard(7, 8).unwrap(),
        Splinter::standard(15, 18).unwrap(),
        &splinter,
    );
    assert!(decisions > 3_000, "splinter: only {decisions} decisions");
    assert!(
        wins > 0,
        "the lookahead found no win in {decisions} decisions"
    );
    // Crumo's buffers are not warmed first: nothing may allocate even cold.
    let crumo = Drive {
        warm_lookahead_games: 0,
        random_games: 10,
        random_game_limit: 100,
        stepped_games: 5,
        stepped_game_limit: 60,
        simulations: 100,
    };
    let (decisions, _) = drive_without_allocating(
        Crumo::standard(5).unwrap(),
        Crumo::standard(7).unwrap(),
        &crumo,
    );
    assert!(decisions > 1_000, "crumo: only {decisions} decisions");
}
