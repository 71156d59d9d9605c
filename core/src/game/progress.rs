//! The bookkeeping of a game whose rules keep it plainly (the test games, Nim and
//! tic-tac-toe): who moves, the result once over, and the turn clock with its limit
//! (rule 7 of the [`GameState`](super::GameState) contract), written once.

use super::state::{GameResult, Player, TurnCount};

/// Who moves, the result once the game is over, and the turns played with their limit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Progress {
    pub to_move: Player,
    pub result: Option<GameResult>,
    pub turns: TurnCount,
}

impl Progress {
    /// A game with `to_move` to move, over already when `result` is given, with no turn
    /// limit.
    pub fn new(to_move: Player, result: Option<GameResult>) -> Progress {
        Progress {
            to_move,
            result,
            turns: TurnCount::default(),
        }
    }

    /// Who decides next; `None` once the game is over.
    #[inline]
    pub fn decider(&self) -> Option<Player> {
        self.result.is_none().then_some(self.to_move)
    }

    /// The end of the mover's turn: the turn is counted and the opponent moves; the game
    /// ends with `result` when the rules end it, else as a draw when the turn limit is
    /// reached.
    pub fn end_turn(&mut self, result: Option<GameResult>) {
        self.turns.played += 1;
        self.to_move = self.to_move.opponent();
        self.result = result;
        self.end_at_limit();
    }

    /// Sets the turn limit (`0`: none); set at a turn start (`at_turn_start`) with the
    /// limit already reached, it ends the game at once, as a draw.
    pub fn set_limit(&mut self, limit: u32, at_turn_start: bool) {
        self.turns.limit = limit;
        if at_turn_start {
            self.end_at_limit();
        }
    }

    fn end_at_limit(&mut self) {
        if self.result.is_none() && self.turns.limit_reached() {
            self.result = Some(GameResult::Draw);
        }
    }
}

/// The four [`GameState`](super::GameState) methods a game keeping its [`Progress`] in a
/// field `progress` answers from it: `decider`, `game_result`, `turn_count` and
/// `set_turn_limit` (a turn start is the game's own `at_turn_start`).
macro_rules! progress_methods {
    () => {
        #[inline]
        fn decider(&self) -> Option<$crate::game::Player> {
            self.progress.decider()
        }

        #[inline]
        fn game_result(&self) -> Option<$crate::game::GameResult> {
            self.progress.result
        }

        #[inline]
        fn turn_count(&self) -> $crate::game::TurnCount {
            self.progress.turns
        }

        fn set_turn_limit(&mut self, limit: u32) {
            let at_turn_start = $crate::game::GameState::at_turn_start(self);
            self.progress.set_limit(limit, at_turn_start);
        }
    };
}

pub(crate) use progress_methods;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_pass_the_move_and_the_limit_ends_a_live_game_as_a_draw() {
        let mut p = Progress::new(Player::First, None);
        p.set_limit(2, true);
        p.end_turn(None);
        assert_eq!(
            (p.to_move, p.result, p.turns.played),
            (Player::Second, None, 1)
        );
        p.end_turn(None);
        assert_eq!(p.result, Some(GameResult::Draw));
        // A win on the last turn stands.
        let mut q = Progress::new(Player::First, None);
        q.set_limit(1, true);
        q.end_turn(Some(GameResult::Win(Player::First)));
        assert_eq!(q.result, Some(GameResult::Win(Player::First)));
        // A limit set within a turn waits for the turn's end.
        let mut r = Progress::new(Player::First, None);
        r.turns.played = 3;
        r.set_limit(3, false);
        assert_eq!(r.result, None);
        r.set_limit(3, true);
        assert_eq!(r.result, Some(GameResult::Draw));
    }
}
