//! The conformance checks on live states: legal decisions, checked and illegal apply,
//! copies and hashes, turns after each decision, random turns, a state as a start.

use super::*;

impl<G: GameState, E: ExtraChecks<G>> Run<'_, G, E> {
    /// Contract 10 on a live state at a turn start (its legal decisions are in `self.legal`).
    pub(super) fn check_state_as_start(&mut self, state: &G) -> Result<(), Violation> {
        let spec = state.to_start();
        let mut again = G::from_start(&spec).map_err(|e| {
            self.violation(
                Rule::StateAsStart,
                state,
                format!("to_start gives {spec:?}, refused by from_start: {e}"),
            )
        })?;
        let mut legal = Vec::new();
        again.legal_decisions_into(&mut legal);
        ensure!(
            self,
            again.decider() == state.decider()
                && again.at_turn_start()
                && again.action_count() == state.action_count()
                && legal == self.legal,
            Rule::StateAsStart,
            state,
            "the state built from its start {spec:?} has decider {:?}, turn start {}, \
             action count {} and {} legal decisions",
            again.decider(),
            again.at_turn_start(),
            again.action_count(),
            legal.len()
        );
        ensure!(
            self,
            again.to_start() == spec,
            Rule::StateAsStart,
            state,
            "to_start of the state built from {spec:?} is {:?}",
            again.to_start()
        );
        Ok(())
    }

    /// Contracts 1–5 on a live state; leaves its legal decisions in `self.legal`.
    pub(super) fn check_live(
        &mut self,
        state: &mut G,
        action_count: u32,
        copies: &mut Copies<G>,
        rng: &mut StdRng,
    ) -> Result<(), Violation> {
        ensure!(
            self,
            state.decider().is_some() && !state.is_over() && state.game_result().is_none(),
            Rule::LiveOrOver,
            state,
            "decider {:?}, is_over {}, result {:?} disagree",
            state.decider(),
            state.is_over(),
            state.game_result()
        );
        ensure!(
            self,
            state.action_count() == action_count,
            Rule::LegalDecisions,
            state,
            "action count changed from {action_count} to {}",
            state.action_count()
        );
        let mut legal = std::mem::take(&mut self.legal);
        state.legal_decisions_into(&mut legal);
        self.legal = legal;
        let legal = &self.legal;
        ensure!(
            self,
            !legal.is_empty(),
            Rule::LegalDecisions,
            state,
            "a live state has no legal decision"
        );
        ensure!(
            self,
            legal.windows(2).all(|w| w[0] < w[1]),
            Rule::LegalDecisions,
            state,
            "legal decisions not strictly ascending: {legal:?}"
        );
        ensure!(
            self,
            legal.iter().all(|d| d.0 < action_count),
            Rule::LegalDecisions,
            state,
            "a legal decision is outside the action space of {action_count}: {legal:?}"
        );
        // Old contents of the buffer must not leak into the list.
        self.other.clear();
        self.other.extend([Decision(u32::MAX), Decision(0)]);
        state.legal_decisions_into(&mut self.other);
        ensure!(
            self,
            self.other == self.legal,
            Rule::LegalDecisions,
            state,
            "legal decisions depend on the buffer's old contents: {:?} vs {:?}",
            self.other,
            self.legal
        );
        self.check_copies(state, copies)?;

        if self.config.apply_every_legal {
            for i in 0..self.legal.len() {
                let d = self.legal[i];
                copies.other.clone_from(state);
                if let Err(e) = copies.other.apply(d) {
                    return Err(self.violation(
                        Rule::LegalApplies,
                        state,
                        format!("legal {d:?} refused: {e}"),
                    ));
                }
            }
        }
        self.check_illegal(state, action_count, copies, rng)?;

        // Contract 7: a limit set at a turn start with that many turns played ends the game.
        let turns = state.turns_played();
        if state.at_turn_start() && turns > 0 {
            copies.other.clone_from(state);
            copies.other.set_turn_limit(turns);
            ensure!(
                self,
                copies.other.game_result() == Some(state.turn_limit_result())
                    && copies.other.is_over(),
                Rule::TurnLimit,
                state,
                "set_turn_limit({turns}) at a turn start after {turns} turns gives {:?}",
                copies.other.game_result()
            );
        }
        self.extra_state(state)
    }

    /// Contract 3's refusals: illegal decisions (all, or a sample) and out-of-range indices
    /// are refused with the right error, on the state itself, leaving it equal to a copy.
    pub(super) fn check_illegal(
        &mut self,
        state: &mut G,
        action_count: u32,
        copies: &mut Copies<G>,
        rng: &mut StdRng,
    ) -> Result<(), Violation> {
        copies.before.clone_from(state);
        let illegal_count = action_count - self.legal.len() as u32;
        let every = illegal_count <= self.config.illegal_samples;
        let tries = if every {
            action_count
        } else {
            self.config.illegal_samples
        };
        for i in 0..tries {
            let d = Decision(if every {
                i
            } else {
                rng.random_range(0..action_count)
            });
            if self.legal.binary_search(&d).is_ok() {
                continue;
            }
            self.report.illegal_tried += 1;
            let refused = state.apply(d);
            ensure!(
                self,
                matches!(refused, Err(DecisionError::Illegal(_))),
                Rule::IllegalRefused,
                state,
                "illegal {d:?}: expected an Illegal error, got {refused:?}"
            );
            self.unchanged(
                state,
                &copies.before,
                Rule::IllegalRefused,
                "a refused decision",
            )?;
        }
        for index in [action_count, action_count.saturating_add(1), u32::MAX] {
            let refused = state.apply(Decision(index));
            ensure!(
                self,
                matches!(refused, Err(DecisionError::OutOfRange { index: i, size }) if i == index && size == action_count),
                Rule::IllegalRefused,
                state,
                "decision {index} outside the action space of {action_count}: got {refused:?}"
            );
            self.unchanged(
                state,
                &copies.before,
                Rule::IllegalRefused,
                "an out-of-range decision",
            )?;
        }
        Ok(())
    }

    pub(super) fn unchanged(
        &self,
        state: &G,
        before: &G,
        rule: Rule,
        what: &str,
    ) -> Result<(), Violation> {
        ensure!(
            self,
            state == before && state.state_hash() == before.state_hash(),
            rule,
            state,
            "{what} changed the state"
        );
        Ok(())
    }

    /// Contracts 4 and 5: clones equal, hashes consistent with equality.
    pub(super) fn check_copies(
        &mut self,
        state: &G,
        copies: &mut Copies<G>,
    ) -> Result<(), Violation> {
        let hash = state.state_hash();
        let clone = state.clone();
        ensure!(
            self,
            clone == *state,
            Rule::Clone,
            state,
            "clone() is not equal to its source"
        );
        ensure!(
            self,
            clone.state_hash() == hash,
            Rule::Hash,
            state,
            "a clone has another hash"
        );
        // `other` holds some earlier state: clone_from must overwrite all of it.
        copies.other.clone_from(state);
        ensure!(
            self,
            copies.other == *state,
            Rule::Clone,
            state,
            "clone_from() is not equal to its source"
        );
        ensure!(
            self,
            copies.other.state_hash() == hash,
            Rule::Hash,
            state,
            "clone_from() gives another hash"
        );
        self.remember(state, hash)
    }

    /// The collision check: a state whose hash was seen before must equal the state seen.
    pub(super) fn remember(&mut self, state: &G, hash: u64) -> Result<(), Violation> {
        if let Some(known) = self.seen.get(&hash) {
            ensure!(
                self,
                known == state,
                Rule::Hash,
                state,
                "unequal states share hash {hash:#018x}: {known:?} and {state:?}"
            );
        } else if self.seen.len() < self.config.hashed_states {
            self.seen.insert(hash, state.clone());
        }
        Ok(())
    }

    /// Contract 6 after one decision by `decider` with `turns` turns played before it.
    pub(super) fn after_decision(
        &self,
        decider: Option<Player>,
        turns: u32,
        state: &G,
    ) -> Result<(), Violation> {
        let now = state.turns_played();
        ensure!(
            self,
            now == turns || now == turns + 1,
            Rule::Turns,
            state,
            "one decision took the turn count from {turns} to {now}"
        );
        let limit = state.turn_limit();
        ensure!(
            self,
            limit == 0 || now <= limit,
            Rule::TurnLimit,
            state,
            "{now} turns played under a limit of {limit}"
        );
        if state.is_over() {
            return Ok(());
        }
        if now == turns + 1 {
            ensure!(
                self,
                state.at_turn_start(),
                Rule::Turns,
                state,
                "a turn ended but no turn starts"
            );
            ensure!(
                self,
                state.decider() == decider.map(Player::opponent),
                Rule::Turns,
                state,
                "a turn of {decider:?} ended and {:?} decides next",
                state.decider()
            );
        } else {
            ensure!(
                self,
                !state.at_turn_start(),
                Rule::Turns,
                state,
                "a turn start in the middle of a turn"
            );
            ensure!(
                self,
                state.decider() == decider,
                Rule::Turns,
                state,
                "the decider changed from {decider:?} to {:?} within a turn",
                state.decider()
            );
        }
        Ok(())
    }

    /// Contract 8: random play, recorded and not, from the same seed; its path replays.
    pub(super) fn random_turn(
        &mut self,
        state: &mut G,
        copies: &mut Copies<G>,
        rng: &mut StdRng,
    ) -> Result<(), Violation> {
        let seed: u64 = rng.random();
        copies.before.clone_from(state);
        copies.other.clone_from(state);
        let turns = state.turns_played();
        let played = state.play_random_turn(&mut StdRng::seed_from_u64(seed));
        let mut path = std::mem::take(&mut self.path);
        let recorded = copies
            .other
            .play_random_turn_recorded(&mut StdRng::seed_from_u64(seed), &mut path);
        self.path = path;
        ensure!(
            self,
            played >= 1,
            Rule::RandomPlay,
            state,
            "random play made no decision in a live game"
        );
        ensure!(
            self,
            played == recorded && recorded as usize == self.path.len(),
            Rule::RandomPlay,
            state,
            "random play made {played} decisions, recorded {recorded} with a path of {}",
            self.path.len()
        );
        ensure!(
            self,
            copies.other == *state && copies.other.state_hash() == state.state_hash(),
            Rule::RandomPlay,
            state,
            "recorded and unrecorded random play from one seed differ"
        );
        for (i, &d) in self.path.iter().enumerate() {
            let (decider, before_turns) = (copies.before.decider(), copies.before.turns_played());
            if let Err(e) = copies.before.apply(d) {
                return Err(self.violation(
                    Rule::RandomPlay,
                    &copies.before,
                    format!("random play's decision {i} ({d:?}) refused on replay: {e}"),
                ));
            }
            self.after_decision(decider, before_turns, &copies.before)?;
            let last = i + 1 == self.path.len();
            let ended = copies.before.is_over() || copies.before.turns_played() == turns + 1;
            ensure!(
                self,
                ended == last,
                Rule::RandomPlay,
                &copies.before,
                "random play's turn {} after decision {i} of {}",
                if ended { "ended" } else { "goes on" },
                self.path.len()
            );
        }
        ensure!(
            self,
            copies.before == *state,
            Rule::RandomPlay,
            state,
            "random play's decisions replay to another state"
        );
        self.decisions.extend_from_slice(&self.path);
        self.ply += self.path.len();
        self.report.decisions += self.path.len() as u64;
        self.report.random_turns += 1;
        Ok(())
    }
}
