//! The conformance checks of the game's symmetries (contract 11, [`crate::game::symmetry`])
//! on every position between turns and every finished game the run reaches.

use super::*;
use crate::game::symmetry::canonical;

impl<G: GameState, E: ExtraChecks<G>> Run<'_, G, E> {
    /// Contract 11 on `state` (between turns, or over): the symmetries are listed as the
    /// contract says; each image keeps the decider, result, counts and symmetries, has the
    /// same canonical key and a consistent hash; and `config.symmetry_moves` random complete
    /// moves per symmetry map to legal moves with playing and mapping commuting.
    pub(super) fn check_symmetries(&mut self, state: &G) -> Result<(), Violation> {
        let syms = state.symmetries();
        ensure!(
            self,
            syms.first() == Some(&0) && syms.windows(2).all(|w| w[0] < w[1]),
            Rule::Symmetry,
            state,
            "symmetries {syms:?} are not ascending from the identity 0"
        );
        let beyond = syms.last().map_or(1, |&s| s + 1);
        ensure!(
            self,
            state.symmetry_image(0).is_some_and(|t| t == *state)
                && state.symmetry_image(beyond).is_none(),
            Rule::Symmetry,
            state,
            "the identity's image is not the state, or symmetry {beyond} (not listed) has one"
        );
        let key = canonical(state).key;
        for &sym in &syms {
            let Some(image) = state.symmetry_image(sym) else {
                return Err(self.violation(
                    Rule::Symmetry,
                    state,
                    format!("listed symmetry {sym} has no image"),
                ));
            };
            ensure!(
                self,
                image.decider() == state.decider()
                    && image.game_result() == state.game_result()
                    && image.at_turn_start() == state.at_turn_start()
                    && image.turns_played() == state.turns_played()
                    && image.turn_limit() == state.turn_limit()
                    && image.action_count() == state.action_count(),
                Rule::Symmetry,
                state,
                "image {sym} changes the decider, result, turn start, counts or action count: \
                 {image:?}"
            );
            ensure!(
                self,
                image.symmetries() == syms,
                Rule::Symmetry,
                state,
                "image {sym} has symmetries {:?}, the state {syms:?}",
                image.symmetries()
            );
            ensure!(
                self,
                canonical(&image).key == key,
                Rule::Symmetry,
                state,
                "image {sym} has another canonical key"
            );
            self.remember(&image, image.state_hash())?;
            if state.at_turn_start() {
                self.check_symmetric_moves(state, &image, sym)?;
            }
        }
        Ok(())
    }

    /// Random complete moves `m` of `state` (from a stream of their own, so the run's games
    /// do not depend on this check): `T(m)` is a legal complete move of `image = T(state)`
    /// and `T(state after m) == image after T(m)`, with equal hashes.
    fn check_symmetric_moves(&mut self, state: &G, image: &G, sym: usize) -> Result<(), Violation> {
        let mut rng = StdRng::seed_from_u64(mix64(state.state_hash() ^ mix64(sym as u64 ^ 0x5e77)));
        for _ in 0..self.config.symmetry_moves {
            let mut after = state.clone();
            let mut turn = Vec::new();
            after.play_random_turn_recorded(&mut rng, &mut turn);
            let Some(mapped) = state.symmetry_turn(sym, &turn) else {
                return Err(self.violation(
                    Rule::Symmetry,
                    state,
                    format!("symmetry {sym} does not map the legal move {turn:?}"),
                ));
            };
            let mut played = image.clone();
            for (k, &d) in mapped.iter().enumerate() {
                let ended = k > 0 && (played.at_turn_start() || played.is_over());
                if ended || played.apply(d).is_err() {
                    return Err(self.violation(
                        Rule::Symmetry,
                        state,
                        format!(
                            "symmetry {sym} maps the move {turn:?} to {mapped:?}, not a legal \
                             move of the image (decision {k})"
                        ),
                    ));
                }
            }
            let mapped_after = after.symmetry_image(sym);
            ensure!(
                self,
                (played.at_turn_start() || played.is_over())
                    && mapped_after.as_ref() == Some(&played)
                    && mapped_after.map(|t| t.state_hash()) == Some(played.state_hash()),
                Rule::Symmetry,
                state,
                "playing {turn:?} then mapping by {sym} is not mapping then playing {mapped:?}"
            );
        }
        Ok(())
    }
}
