//! Crumo's rules as the game interface ([`GameState`]). A child of `game`, so the
//! interface reads the state's fields directly instead of through a second set of methods.

use super::{Action, Crumo, Pie, Previous};
use crate::game::moves::complete_moves_state_methods;
use crate::game::state::{GameResult, GameState, Player};
use crate::game::{Decision, StartMismatch, symmetry};
use crate::games::crumo::board::{Stack, cell_of};
use crate::games::crumo::{CrumoStart, CrumoStartError, Outcome, Reason, Symmetry, position};

impl GameState for Crumo {
    const NAME: &'static str = "crumo";
    type Start = CrumoStart;
    type StartError = CrumoStartError;

    fn from_start(start: &CrumoStart) -> Result<Crumo, CrumoStartError> {
        let words = |size| format!("size {size}");
        StartMismatch::start_on_board(
            start.position.as_ref(),
            words(start.size),
            || Crumo::standard(start.size).ok_or(CrumoStartError::Size(start.size)),
            |json| Ok(position::from_value(json)?),
            |game| words(game.size()),
        )
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
        self.result.is_none().then(|| self.seat_of(self.to_move()))
    }

    #[inline]
    fn game_result(&self) -> Option<GameResult> {
        self.outcome()
            .map(|o| GameResult::of_winner(o.winner.map(|c| self.seat_of(c))))
    }

    /// Crumo scores the position at the turn limit (rule 10.1), without the half point.
    fn turn_limit_result(&self) -> GameResult {
        let outcome = Outcome::scored(Reason::TurnLimit, self.score_halves(None));
        GameResult::of_winner(outcome.winner.map(|c| self.seat_of(c)))
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

    // Decisions, hash, turn start, the turn clock (rule 10.1's limit) and random play.
    complete_moves_state_methods!();

    /// The hexagon's 12 maps (rule 13), numbered as rule 13.2 fixes, between turns.
    fn symmetries(&self) -> Vec<usize> {
        symmetry::between_turns(self, Symmetry::ALL.len())
    }

    fn symmetry_image(&self, sym: usize) -> Option<Crumo> {
        let of_index = |sym| Symmetry::new(u8::try_from(sym).ok()?);
        symmetry::image_between_turns(self, sym, of_index, Symmetry::apply)
    }

    fn symmetry_turn(&self, sym: usize, turn: &[Decision]) -> Option<Vec<Decision>> {
        let t = Symmetry::new(u8::try_from(sym).ok()?)?;
        symmetry::map_turn_by_decisions(self, turn, |s, d| Some(t.map_decision(s, d)))
    }
}
