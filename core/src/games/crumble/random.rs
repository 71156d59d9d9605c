//! Random play, the one definition used everywhere (the `random` agent, `random-game`,
//! rollouts, the rules benchmark): choose uniformly among the complete legal splits and joins,
//! then at every swap point stop with probability 1/2, otherwise take a uniformly chosen legal
//! step.

use crate::game::{Decision, DecisionLog};
use crate::games::crumble::game::{Crumble, Phase};
use rand::Rng;

/// Plays the rest of the current turn at random (from any phase), appending the decisions to
/// `log` when given, and returns the number of decisions made: Crumble's
/// [`GameState::random_turn`]. Does nothing when the game is over.
pub(super) fn random_turn<R: Rng + ?Sized>(
    game: &mut Crumble,
    rng: &mut R,
    mut path: DecisionLog,
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
