//! Splinter's rules as the game interface ([`GameState`]). A child of `game`, so the
//! interface reads the state's fields directly instead of through a second set of methods.

use super::{Action, Pending, Splinter};
use crate::game::Decision;
use crate::game::state::{DecisionLog, GameResult, GameState, Player, TurnCount};
use crate::games::splinter::{SplinterStart, SplinterStartError, SplinterWinCheck, Symmetry};
use rand::Rng;

/// The rules as the game interface. The start specification is `SplinterStart` (`mod.rs`),
/// the symmetries are rule 11's (`symmetry.rs`), random play is `moves.rs`'s.
impl GameState for Splinter {
    const NAME: &'static str = "splinter";
    type Start = SplinterStart;
    type StartError = SplinterStartError;

    fn from_start(start: &SplinterStart) -> Result<Splinter, SplinterStartError> {
        Splinter::from_spec(start)
    }

    fn to_start(&self) -> SplinterStart {
        self.to_spec()
    }

    type WinCheck = SplinterWinCheck;
    type ForcingCheck = ();

    fn win_this_turn<'c>(&self, check: &'c mut SplinterWinCheck) -> Option<&'c [Decision]> {
        crate::games::splinter::lookahead::win_this_turn(self, check)
    }

    /// `9 · W · H` (rule 12.2).
    #[inline]
    fn action_count(&self) -> u32 {
        9 * self.squares()
    }

    #[inline]
    fn decider(&self) -> Option<Player> {
        self.result.is_none().then(|| self.to_move.into())
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.result.is_some()
    }

    #[inline]
    fn game_result(&self) -> Option<GameResult> {
        self.result.map(|o| match o.winner {
            Some(c) => GameResult::Win(c.into()),
            None => GameResult::Draw,
        })
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
        match self.decode(d) {
            Some(Action::Move { from, dir }) => {
                let push = self.board.push(from, dir).expect("a legal move pushes");
                let groups = self.board.groups();
                let (max, ties) = groups.largest();
                if ties > 1 {
                    self.pending = Some(Pending::new(push));
                    // The old no-return state can matter no more this turn (rule 12.2).
                    self.last_move = None;
                } else {
                    let keep = (1..=groups.count)
                        .find(|&g| groups.size[usize::from(g)] == max)
                        .unwrap_or(0);
                    if groups.count > 1 {
                        self.board.keep_only(&groups, keep);
                    }
                    self.finish_turn(push);
                }
            }
            Some(Action::Keep { square }) => {
                let push = self.pending.take().expect("a pending choice").push;
                let groups = self.board.groups();
                self.board
                    .keep_only(&groups, groups.label[usize::from(square)]);
                self.finish_turn(push);
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
        self.result.is_none() && self.pending.is_none()
    }

    #[inline]
    fn turn_count(&self) -> TurnCount {
        self.turns
    }

    /// Rule 8.4's limit (`0`: none). Set at a turn start with the limit already reached, it
    /// ends the game at once.
    fn set_turn_limit(&mut self, limit: u32) {
        self.turns.limit = limit;
        if self.pending.is_none() {
            self.check_turn_limit();
        }
    }

    /// The board's maps of rule 11.1 (4, or 8 on a square board), numbered as
    /// [`Symmetry::ALL`] lists them, between turns.
    fn symmetries(&self) -> Vec<usize> {
        if self.is_pending() {
            return vec![0];
        }
        let b = self.board();
        (0..Symmetry::of_board(b.width(), b.height()).len()).collect()
    }

    fn symmetry_image(&self, sym: usize) -> Option<Splinter> {
        if sym == 0 {
            return Some(self.clone());
        }
        let b = self.board();
        let t = *Symmetry::of_board(b.width(), b.height()).get(sym)?;
        (!self.is_pending()).then(|| t.position(self))
    }

    fn symmetry_turn(&self, sym: usize, turn: &[Decision]) -> Option<Vec<Decision>> {
        let b = self.board();
        let t = *Symmetry::of_board(b.width(), b.height()).get(sym)?;
        crate::game::symmetry::map_turn_by_decisions(self, turn, |s, d| Some(t.decision(s, d)))
    }

    #[inline]
    fn random_turn<R: Rng + ?Sized>(&mut self, rng: &mut R, log: DecisionLog) -> u32 {
        self.play_at_random(rng, log)
    }
}
