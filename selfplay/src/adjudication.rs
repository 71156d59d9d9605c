//! Match adjudication, as cutechess-cli offers it: a game whose searches have agreed for
//! several turns that one side is lost ends as that side's resignation, and a game whose
//! searches have valued it near zero for long ends drawn. Both read the root value of each
//! turn-start search (from the decider's view); turns of the two players alternate, so a run
//! of two or more turns is both searches agreeing. A turn started by an agent that does not
//! search (random, a book, the solver) breaks both runs; a forced decision leaves them be.
//!
//! The same [`Adjudicator`] runs inside the engine and over finished records ([`scan`]), so
//! the error rate is measured on games played out anyway (`playout_fraction`): what the rules
//! would have said against how the game ended.

use crate::record::{Ending, GameRecord, RecordError, SearchRecord, StepKind};
use crumble_core::{GameResult, GameState, Player};
use serde::{Deserialize, Serialize};

/// When a match adjudicates its games (`[adjudication]`); off by default.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Adjudication {
    /// A resignation after this many turns in a row whose search values all say the same
    /// side is lost by at least `resign_value` (0 = never).
    pub resign_turns: u32,
    pub resign_value: f32,
    /// A draw after this many turns in a row, from turn `draw_from_turn` on, whose search
    /// values all lie within `draw_value` of zero (0 = never).
    pub draw_turns: u32,
    pub draw_value: f32,
    pub draw_from_turn: u32,
    /// Share of games played to the end anyway, the verdict only noted: they measure how
    /// often the adjudication is wrong.
    pub playout_fraction: f32,
}

impl Default for Adjudication {
    fn default() -> Adjudication {
        Adjudication {
            resign_turns: 0,
            resign_value: 0.9,
            draw_turns: 0,
            draw_value: 0.05,
            draw_from_turn: 60,
            playout_fraction: 0.0,
        }
    }
}

impl Adjudication {
    /// Does it ever adjudicate?
    pub fn is_on(&self) -> bool {
        self.resign_turns > 0 || self.draw_turns > 0
    }

    /// The settings' problem, if any, naming the key.
    pub fn check(&self) -> Result<(), String> {
        let unit = |v: f32| v.is_finite() && (0.0..=1.0).contains(&v);
        if !unit(self.resign_value) || self.resign_value == 0.0 {
            return Err(format!(
                "adjudication.resign_value = {}: must lie in (0, 1]",
                self.resign_value
            ));
        }
        if !unit(self.draw_value) {
            return Err(format!(
                "adjudication.draw_value = {}: must lie in [0, 1]",
                self.draw_value
            ));
        }
        if !unit(self.playout_fraction) {
            return Err(format!(
                "adjudication.playout_fraction = {}: must lie in [0, 1]",
                self.playout_fraction
            ));
        }
        Ok(())
    }
}

/// A verdict: the result, and the turn count at which it was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub result: GameResult,
    pub turn: u32,
}

/// The running state of one game's adjudication.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    /// The side the current resignation run says wins, and the run's length.
    winning: Option<(Player, u32)>,
    drawish: u32,
}

impl Adjudicator {
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            winning: None,
            drawish: 0,
        }
    }

    /// A turn-start search valued the position `value` for `decider` after `turns` turns:
    /// the verdict once a run is long enough.
    pub fn observe(&mut self, decider: Player, value: f32, turns: u32) -> Option<Verdict> {
        let r = &self.rules;
        let winner = if value >= r.resign_value {
            Some(decider)
        } else if value <= -r.resign_value {
            Some(decider.opponent())
        } else {
            None
        };
        self.winning = winner.map(|w| match self.winning {
            Some((p, n)) if p == w => (w, n + 1),
            _ => (w, 1),
        });
        self.drawish = if turns >= r.draw_from_turn && value.abs() <= r.draw_value {
            self.drawish + 1
        } else {
            0
        };
        if let Some((w, n)) = self.winning
            && r.resign_turns > 0
            && n >= r.resign_turns
        {
            return Some(Verdict {
                result: GameResult::Win(w),
                turn: turns,
            });
        }
        (r.draw_turns > 0 && self.drawish >= r.draw_turns).then_some(Verdict {
            result: GameResult::Draw,
            turn: turns,
        })
    }

    /// A turn started without a search: both runs start again.
    pub fn interrupt(&mut self) {
        self.winning = None;
        self.drawish = 0;
    }

    /// The step about to be played in `game`, made as `kind` with `search`: observed when it
    /// starts a turn (a search's value; an unsearched choice interrupts, a forced one not).
    pub fn step<G: GameState>(
        &mut self,
        game: &G,
        kind: StepKind,
        search: Option<&SearchRecord>,
    ) -> Option<Verdict> {
        if !game.at_turn_start() {
            return None;
        }
        let decider = game.decider()?;
        match (kind, search) {
            (StepKind::Searched, Some(s)) => self.observe(decider, s.value, game.turns_played()),
            (StepKind::Forced, _) => None,
            _ => {
                self.interrupt();
                None
            }
        }
    }
}

/// What the adjudication would have said over a finished game: its first verdict, replaying
/// the record's turn-start search values. `None` when it never would have adjudicated.
pub fn scan<G: GameState>(
    rules: Adjudication,
    rec: &GameRecord,
) -> Result<Option<Verdict>, RecordError> {
    let mut game: G = rec.start_state()?;
    let mut judge = Adjudicator::new(rules);
    for step in &rec.steps {
        let verdict = judge.step(&game, step.kind, step.search.as_ref());
        if verdict.is_some() {
            return Ok(verdict);
        }
        game.apply(step.decision).map_err(|e| RecordError::Replay {
            index: rec.index,
            what: e.to_string(),
        })?;
    }
    Ok(None)
}

/// Adjudicated games and their check against games played out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AdjudicationTally {
    /// Games the adjudication ended: by resignation, as draws.
    pub resigned: u64,
    pub drawn: u64,
    /// Games played out that it would have ended, and how many of those ended otherwise.
    pub checked: u64,
    pub wrong: u64,
}

impl AdjudicationTally {
    /// Counts a finished game of a match adjudicated by `rules`: an early end, or for a game
    /// played out, what the rules would have said against its result.
    pub fn add<G: GameState>(
        &mut self,
        rules: Adjudication,
        rec: &GameRecord,
    ) -> Result<(), RecordError> {
        match rec.ending {
            Ending::Resignation => self.resigned += 1,
            Ending::Stopped => self.drawn += 1,
            Ending::Rules => {
                if let Some(v) = scan::<G>(rules, rec)? {
                    self.checked += 1;
                    self.wrong += u64::from(v.result != rec.result);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Adjudication {
        Adjudication {
            resign_turns: 4,
            resign_value: 0.9,
            draw_turns: 3,
            draw_value: 0.05,
            draw_from_turn: 10,
            playout_fraction: 0.0,
        }
    }

    #[test]
    fn both_searches_must_agree_for_the_whole_run() {
        let mut a = Adjudicator::new(rules());
        let (f, s) = (Player::First, Player::Second);
        // First sees a win, Second a loss, alternately: three turns are not enough.
        assert_eq!(a.observe(f, 0.95, 1), None);
        assert_eq!(a.observe(s, -0.92, 2), None);
        assert_eq!(a.observe(f, 0.99, 3), None);
        // Second doubts: the run starts again.
        assert_eq!(a.observe(s, -0.5, 4), None);
        for t in 5..8 {
            let (p, v) = if t % 2 == 1 { (f, 0.93) } else { (s, -0.97) };
            assert_eq!(a.observe(p, v, t), None);
        }
        let v = a.observe(s, -0.91, 8).unwrap();
        assert_eq!(
            v,
            Verdict {
                result: GameResult::Win(f),
                turn: 8
            }
        );
        // A loss seen by the side to move counts for the opponent.
        let mut b = Adjudicator::new(rules());
        for t in 0..3 {
            assert_eq!(b.observe(s, -0.95, t), None);
        }
        b.interrupt();
        assert_eq!(
            b.observe(s, -0.95, 3),
            None,
            "an unsearched turn broke the run"
        );
    }

    #[test]
    fn draws_only_from_the_set_turn_and_near_zero() {
        let mut a = Adjudicator::new(rules());
        for t in 0..10 {
            assert_eq!(a.observe(Player::First, 0.0, t), None, "before turn 10");
        }
        assert_eq!(a.observe(Player::Second, 0.01, 10), None);
        assert_eq!(a.observe(Player::First, -0.3, 11), None);
        assert_eq!(a.observe(Player::Second, 0.04, 12), None);
        assert_eq!(a.observe(Player::First, -0.05, 13), None);
        let v = a.observe(Player::Second, 0.0, 14).unwrap();
        assert_eq!(v.result, GameResult::Draw);
        // Off: never.
        let mut off = Adjudicator::new(Adjudication::default());
        assert!(!Adjudication::default().is_on());
        for t in 0..100 {
            assert_eq!(off.observe(Player::First, 1.0, t), None);
            assert_eq!(off.observe(Player::Second, 0.0, t), None);
        }
    }

    #[test]
    fn settings_out_of_range_are_named() {
        let bad = Adjudication {
            resign_value: 1.5,
            ..rules()
        };
        assert!(
            bad.check()
                .unwrap_err()
                .contains("adjudication.resign_value")
        );
        let bad = Adjudication {
            playout_fraction: -0.1,
            ..rules()
        };
        assert!(bad.check().unwrap_err().contains("playout_fraction"));
        assert_eq!(rules().check(), Ok(()));
    }
}
