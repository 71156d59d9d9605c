//! Crumo's rules as the game interface ([`GameState`]). A child of `game`, so the
//! interface reads the state's fields directly instead of through a second set of methods.

use super::{Action, Crumo, Pie, Previous};
use crate::game::Decision;
use crate::game::state::{DecisionLog, GameResult, GameState, Player, TurnCount};
use crate::games::crumo::board::{Stack, cell_of};
use crate::games::crumo::{CrumoStart, CrumoStartError, Outcome, Reason, Symmetry, position};
use rand::Rng;

impl GameState for Crumo {
    const NAME: &'static str = "crumo";
    type Start = CrumoStart;
    type StartError = CrumoStartError;

    fn from_start(start: &CrumoStart) -> Result<Crumo, CrumoStartError> {
        Crumo::from_spec(start)
    }

    fn to_start(&self) -> CrumoStart {
        // The turn count and limit belong to the match, not to the position (rule 10.1).
        let standard = Crumo::standard(self.size())
            .is_some_and(|s| position::to_value(&s) == position::to_value(self));
        if standard {
            CrumoStart::standard(self.size())
        } else {
            CrumoStart {
                size: self.size(),
                position: Some(position::to_value(self)),
            }
        }
    }

    type WinCheck = ();
    type ForcingCheck = ();

    /// `(HMAX + 2) · P + 2`.
    #[inline]
    fn action_count(&self) -> u32 {
        (self.max_height() + 2) * self.p32() + 2
    }

    #[inline]
    fn decider(&self) -> Option<Player> {
        (!self.is_over()).then(|| self.seat_of(self.to_move()))
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.result.is_some()
    }

    #[inline]
    fn game_result(&self) -> Option<GameResult> {
        self.outcome().map(|o| match o.winner {
            Some(c) => GameResult::Win(self.seat_of(c)),
            None => GameResult::Draw,
        })
    }

    /// Crumo scores the position at the turn limit (rule 10.1), without the half point.
    fn turn_limit_result(&self) -> GameResult {
        match Outcome::scored(Reason::TurnLimit, self.score_halves(None)).winner {
            Some(c) => GameResult::Win(self.seat_of(c)),
            None => GameResult::Draw,
        }
    }

    #[inline]
    fn legal_decisions_into(&mut self, out: &mut Vec<Decision>) {
        self.decisions_into(out);
    }

    fn refusal(&mut self, decision: Decision) -> Option<String> {
        (!self.is_legal(decision)).then(|| format!("{:?}", self.decode(decision)))
    }

    /// Search's hot path: legality is only debug-asserted.
    fn apply_unchecked(&mut self, d: Decision) {
        debug_assert!(self.is_legal(d), "illegal {d:?} = {:?}", self.decode(d));
        let me = self.to_move;
        match self.decode(d) {
            Some(Action::Place { point, height }) => {
                self.cells[usize::from(point)] = cell_of(Some(Stack {
                    color: me,
                    height: u64::from(height),
                }));
                self.previous = Previous::Other;
                self.end_turn();
            }
            Some(Action::From { point }) => self.pending = Some(point),
            Some(Action::To { point: t }) => {
                let s = self.pending.take().expect("a pending source");
                let complete = self.move_pieces(s, t);
                self.previous = if complete {
                    Previous::CompleteMove
                } else {
                    Previous::Other
                };
                self.end_turn();
            }
            Some(Action::Pass) => {
                let ended = self.previous == Previous::Pass;
                self.previous = Previous::Pass;
                self.end_turn_then(|g| {
                    if ended && g.result.is_none() {
                        // The half point goes to the first of the two passers, now to move.
                        g.result = Some(Outcome::scored(
                            Reason::TwoPasses,
                            g.score_halves(Some(g.to_move)),
                        ));
                    }
                });
            }
            Some(Action::Swap) => {
                // Seats change; the board, to_move and previous stay (rule 8.2).
                self.swapped = true;
                self.pie = Pie::Over;
                self.turns.played += 1;
                self.check_turn_limit();
            }
            None => unreachable!("decision outside the action space"),
        }
    }

    #[inline]
    fn state_hash(&self) -> u64 {
        self.hash()
    }

    #[inline]
    fn at_turn_start(&self) -> bool {
        !self.is_over() && !self.is_pending()
    }

    #[inline]
    fn turn_count(&self) -> TurnCount {
        self.turns
    }

    /// Rule 10.1's limit (`0`: none). Set at a turn start with the limit already reached,
    /// it ends the game at once.
    fn set_turn_limit(&mut self, limit: u32) {
        self.turns.limit = limit;
        if self.pending.is_none() {
            self.check_turn_limit();
        }
    }

    /// The hexagon's 12 maps (rule 13), numbered as rule 13.2 fixes, between turns.
    fn symmetries(&self) -> Vec<usize> {
        if self.is_pending() {
            return vec![0];
        }
        (0..Symmetry::ALL.len()).collect()
    }

    fn symmetry_image(&self, sym: usize) -> Option<Crumo> {
        if sym == 0 {
            return Some(self.clone());
        }
        let t = Symmetry::new(u8::try_from(sym).ok()?)?;
        (!self.is_pending()).then(|| t.apply(self))
    }

    fn symmetry_turn(&self, sym: usize, turn: &[Decision]) -> Option<Vec<Decision>> {
        let t = Symmetry::new(u8::try_from(sym).ok()?)?;
        crate::game::symmetry::map_turn_by_decisions(self, turn, |s, d| Some(t.map_decision(s, d)))
    }

    #[inline]
    fn random_turn<R: Rng + ?Sized>(&mut self, rng: &mut R, log: DecisionLog) -> u32 {
        self.play_at_random(rng, log)
    }
}
