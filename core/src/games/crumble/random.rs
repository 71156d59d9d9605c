//! Random play, the one definition used everywhere (the `random` agent, `random-game`,
//! rollouts, the rules benchmark): choose uniformly among the complete legal splits and joins,
//! then at every swap point stop with probability 1/2, otherwise take a uniformly chosen legal
//! step.

use crate::game::Decision;
use crate::games::crumble::game::{Crumble, Phase};
use rand::Rng;

/// Plays the rest of the current turn at random (from any phase) and returns the number of
/// decisions made. Does nothing when the game is over.
pub fn play_random_turn<R: Rng + ?Sized>(game: &mut Crumble, rng: &mut R) -> u32 {
    random_turn(game, rng, None)
}

/// [`play_random_turn`] that also records the decisions it made in `path` (cleared first);
/// the same RNG stream gives the same choices.
pub fn play_random_turn_recorded<R: Rng + ?Sized>(
    game: &mut Crumble,
    rng: &mut R,
    path: &mut Vec<Decision>,
) -> u32 {
    path.clear();
    random_turn(game, rng, Some(path))
}

fn random_turn<R: Rng + ?Sized>(
    game: &mut Crumble,
    rng: &mut R,
    mut path: Option<&mut Vec<Decision>>,
) -> u32 {
    let mut record = |d: Decision| {
        if let Some(p) = path.as_deref_mut() {
            p.push(d);
        }
    };
    let mut decisions = 0;
    let turn = game.turns_played();
    let mut buf = std::mem::take(&mut game.scratch().random);
    match game.phase() {
        Phase::Over => {}
        Phase::Choose => {
            // Bases are listed in slot order, which depends on the game's history as well as
            // the position: the same seed and history give the same game.
            let (choose, end) = game
                .pick_base(|n| rng.random_range(0..n))
                .expect("a live game has a split or a join");
            game.apply_unchecked(choose);
            game.apply_unchecked(end);
            record(choose);
            record(end);
            decisions += 2;
        }
        Phase::Extent { .. } => {
            game.legal_decisions_into(&mut buf);
            let end = buf[rng.random_range(0..buf.len())];
            game.apply_unchecked(end);
            record(end);
            decisions += 1;
        }
        Phase::Swap => {}
    }
    while game.turns_played() == turn && matches!(game.phase(), Phase::Swap) {
        decisions += 1;
        if rng.random_bool(0.5) {
            game.apply_unchecked(Decision::stop(game.grid_size()));
            record(Decision::stop(game.grid_size()));
            break;
        }
        let steps = game.swap_steps();
        debug_assert!(!steps.is_empty(), "the swap phase always offers a step");
        let step = steps[rng.random_range(0..steps.len())];
        game.apply_unchecked(step);
        record(step);
    }
    game.scratch().random = buf;
    decisions
}

/// Plays random turns until the game ends (set a turn limit first with
/// [`Crumble::set_max_turns`], or the game may run long). Returns the number of decisions.
pub fn play_random_game<R: Rng + ?Sized>(game: &mut Crumble, rng: &mut R) -> u64 {
    let mut decisions = 0u64;
    while !game.is_over() {
        decisions += u64::from(play_random_turn(game, rng));
    }
    decisions
}
