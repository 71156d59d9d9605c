//! Splinter's rules as the game interface ([`GameState`]). A child of `game`, so the
//! interface reads the state's fields directly instead of through a second set of methods.

use super::{Action, Pending, Splinter};
use crate::game::moves::complete_moves_state_methods;
use crate::game::state::{GameResult, GameState, Player};
use crate::game::{Decision, StartMismatch, symmetry};
use crate::games::splinter::{
    SplinterStart, SplinterStartError, SplinterWinCheck, Symmetry, position,
};

impl Splinter {
    /// Rule 11.1's maps of this board, by their numbers.
    fn board_symmetries(&self) -> &'static [Symmetry] {
        let b = self.board();
        Symmetry::of_board(b.width(), b.height())
    }
}

/// The rules as the game interface. The start specification is `SplinterStart` (`mod.rs`),
/// the symmetries are rule 11's (`symmetry.rs`), random play is `moves.rs`'s.
impl GameState for Splinter {
    const NAME: &'static str = "splinter";
    type Start = SplinterStart;
    type StartError = SplinterStartError;

    fn from_start(start: &SplinterStart) -> Result<Splinter, SplinterStartError> {
        let (width, height) = (start.width, start.height);
        let words = |w, h| format!("{w}x{h}");
        StartMismatch::start_on_board(
            start.position.as_ref(),
            words(width, height),
            || Splinter::standard(width, height).ok_or(SplinterStartError::Size { width, height }),
            |json| Ok(position::from_value(json)?),
            |game| words(game.board().width(), game.board().height()),
        )
    }

    /// The standard start's own specification when the game is one.
    fn to_start(&self) -> SplinterStart {
        let b = self.board();
        let (w, h) = (b.width(), b.height());
        // The turn count and limit belong to the match, not to the position (rule 10.1).
        let standard = Splinter::standard(w, h).is_some_and(|s| {
            s.board() == b
                && s.to_move() == self.to_move()
                && self.last_move().is_none()
                && self.outcome().is_none()
        });
        if standard {
            SplinterStart::standard(w, h)
        } else {
            SplinterStart {
                width: w,
                height: h,
                position: Some(position::to_value(self)),
            }
        }
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
    fn game_result(&self) -> Option<GameResult> {
        self.result
            .map(|o| GameResult::of_winner(o.winner.map(Player::from)))
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

    // Decisions, hash, turn start, the turn clock (rule 8.4's limit) and random play.
    complete_moves_state_methods!();

    /// The board's maps of rule 11.1 (4, or 8 on a square board), numbered as
    /// [`Symmetry::ALL`] lists them, between turns.
    fn symmetries(&self) -> Vec<usize> {
        symmetry::between_turns(self, self.board_symmetries().len())
    }

    fn symmetry_image(&self, sym: usize) -> Option<Splinter> {
        let of_index = |sym| self.board_symmetries().get(sym).copied();
        symmetry::image_between_turns(self, sym, of_index, Symmetry::position)
    }

    fn symmetry_turn(&self, sym: usize, turn: &[Decision]) -> Option<Vec<Decision>> {
        let t = *self.board_symmetries().get(sym)?;
        symmetry::map_turn_by_decisions(self, turn, |s, d| Some(t.decision(s, d)))
    }
}
