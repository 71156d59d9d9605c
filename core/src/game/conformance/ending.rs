//! The conformance checks on a finished game: it stays finished, and its decisions replay.

use super::*;

impl<G: GameState, E: ExtraChecks<G>> Run<'_, G, E> {
    /// Contract 1 on an over state: stable whatever is tried.
    pub(super) fn check_over(
        &mut self,
        state: &mut G,
        copies: &mut Copies<G>,
    ) -> Result<(), Violation> {
        let result = state.game_result();
        ensure!(
            self,
            state.decider().is_none() && result.is_some(),
            Rule::LiveOrOver,
            state,
            "an over game has decider {:?} and result {result:?}",
            state.decider()
        );
        ensure!(
            self,
            !state.at_turn_start(),
            Rule::Turns,
            state,
            "an over game is at a turn start"
        );
        self.other.clear();
        self.other.push(Decision(0));
        state.legal_decisions_into(&mut self.other);
        ensure!(
            self,
            self.other.is_empty(),
            Rule::FinishedStaysFinished,
            state,
            "an over game has legal decisions {:?}",
            self.other
        );
        copies.before.clone_from(state);
        let count = state.action_count();
        for index in [0, count / 2, count.saturating_sub(1), count, u32::MAX] {
            let refused = state.apply(Decision(index));
            ensure!(
                self,
                matches!(refused, Err(DecisionError::GameOver)),
                Rule::FinishedStaysFinished,
                state,
                "decision {index} on an over game: expected GameOver, got {refused:?}"
            );
            self.unchanged(
                state,
                &copies.before,
                Rule::FinishedStaysFinished,
                "a decision refused by an over game",
            )?;
        }
        let mut rng = StdRng::seed_from_u64(self.config.seed);
        let played = state.play_random_turn(&mut rng);
        let mut path = std::mem::take(&mut self.path);
        let recorded = state.play_random_turn_recorded(&mut rng, &mut path);
        let path_len = path.len();
        self.path = path;
        ensure!(
            self,
            played == 0 && recorded == 0 && path_len == 0,
            Rule::FinishedStaysFinished,
            state,
            "random play on an over game made {played} and {recorded} decisions"
        );
        self.unchanged(
            state,
            &copies.before,
            Rule::FinishedStaysFinished,
            "random play on an over game",
        )?;
        self.check_copies(state, copies)?;
        self.extra_state(state)
    }

    /// The whole game replayed from its start (fresh buffers), with and without the limit.
    pub(super) fn check_finished_game(
        &mut self,
        start: &G::Start,
        limit: u32,
        end: &G,
    ) -> Result<(), Violation> {
        let result = end.game_result().expect("checked over");
        match result.winner() {
            Some(p) => self.report.wins[p.index()] += 1,
            None => self.report.draws += 1,
        }
        self.report.turns += u64::from(end.turns_played());

        let mut limited = self.start_state(start)?;
        limited.set_turn_limit(limit);
        let mut free = self.start_state(start)?;
        for (i, &d) in self.decisions.iter().enumerate() {
            if let Err(e) = limited.apply(d) {
                return Err(self.violation(
                    Rule::Replay,
                    end,
                    format!("decision {i} ({d:?}) refused on replay: {e}"),
                ));
            }
            if let Err(e) = free.apply(d) {
                return Err(self.violation(
                    Rule::TurnLimit,
                    end,
                    format!("decision {i} ({d:?}) refused without the turn limit: {e}"),
                ));
            }
        }
        ensure!(
            self,
            limited == *end,
            Rule::Replay,
            end,
            "the game replayed from its start ends elsewhere"
        );
        ensure!(
            self,
            limited.state_hash() == end.state_hash(),
            Rule::Hash,
            end,
            "the game replayed from its start is equal but hashes differently"
        );
        if end.turns_played() < limit || free.is_over() {
            ensure!(
                self,
                free.game_result() == Some(result),
                Rule::TurnLimit,
                end,
                "ended {result:?} after {} of {limit} turns, but without a limit: {:?}",
                end.turns_played(),
                free.game_result()
            );
        } else {
            let expected = end.turn_limit_result();
            ensure!(
                self,
                result == expected,
                Rule::TurnLimit,
                end,
                "the turn limit ended the game as {result:?}, not {expected:?}"
            );
            self.report.limit_draws += 1;
        }
        let played = PlayedGame {
            start,
            turn_limit: limit,
            decisions: &self.decisions,
            end,
        };
        if let Err(detail) = self.extra.check_game(&played) {
            return Err(self.violation(Rule::Extra(self.extra.name()), end, detail));
        }
        Ok(())
    }

    pub(super) fn extra_state(&mut self, state: &G) -> Result<(), Violation> {
        match self.extra.check_state(state) {
            Ok(()) => Ok(()),
            Err(detail) => Err(self.violation(Rule::Extra(self.extra.name()), state, detail)),
        }
    }
}
