//! An exhaustive solver for short wins, the ground truth for search and tactics tests.
//!
//! * Depth 1: every complete move that wins at once ([`Solver::winning_moves`]).
//! * Depth 2: the moves that force a win within the mover's next two turns: a move that wins
//!   at once, or one after which every reply of the opponent still leaves the mover a winning
//!   move (a reply that wins for the opponent or ends the game otherwise refutes it)
//!   ([`Solver::forced_wins`]).
//! * Marks (RULES.md 6.6): `+` when the mover would have a winning move if they moved again
//!   right after the move, `++` when the opponent has no defence against losing on the next
//!   turn (the move forces a win at depth 2 without winning at once) ([`Solver::mark`]).
//!
//! Everything is exact: every complete move is enumerated (the loop guard bounds the swap
//! paths). The pruning only changes the order and stops early: the search for a winning move
//! stops at the first win, tries earlier winners first (killer moves), never plays a stop
//! (splits, joins and stops never win: only a swap step can), and skips a split or join
//! whose fresh pieces cannot step at all; the replies loop tries earlier refutations first and
//! stops at the first refutation.
//!
//! The work can still be enormous (every swap path is a move, and their number grows
//! exponentially with the length of the paths), so a caller can bound it:
//! [`Solver::set_deadline`] makes every search check the clock as it goes and stop once the
//! deadline has passed; [`Solver::aborted`] then says that the answers since are incomplete
//! (unknown), never a wrong "no".
//!
//! ```
//! use crumble_core::games::crumble::{Crumble, solve::Solver};
//! let game = Crumble::new(6, 8).unwrap();
//! let mut solver = Solver::new();
//! assert!(solver.winning_moves(&game).is_empty());
//! assert!(solver.find_win(&game).is_none());
//! ```

use crate::game::Color;
use crate::game::Decision;
use crate::games::crumble::decision::DecisionKind;
use crate::games::crumble::ends::{EndMemo, TurnEnds};
use crate::games::crumble::game::{Crumble, Phase};
use crate::games::crumble::lookahead::WinCheck;
use crate::games::crumble::losses::LossCheck;
use crate::games::crumble::moves::Move;
use crate::games::crumble::perft::TurnWalker;
use std::ops::ControlFlow;
use std::time::Instant;

/// A move's annotation (RULES.md 6.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// `+`: the mover would have a winning move if they moved again.
    Check,
    /// `++`: the opponent has no defence against losing on the next turn.
    Mate,
}

impl Mark {
    pub fn suffix(self) -> &'static str {
        match self {
            Mark::Check => "+",
            Mark::Mate => "++",
        }
    }
}

/// How a move forces the win at depth 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcedWin {
    /// The move itself wins.
    AtOnce,
    /// Every reply leaves a winning move (`++`).
    NextTurn,
}

/// The depth-first search for a winning move, with its own buffers and killer moves.
#[derive(Debug, Default)]
struct WinSearch {
    bufs: Vec<Vec<Decision>>,
    path: Vec<Decision>,
    killers: Vec<Move>,
    nodes: u64,
    deadline: Option<Instant>,
    /// A bound on `nodes` (a work budget that, unlike the clock, gives the same answer on
    /// every machine).
    node_limit: Option<u64>,
    aborted: bool,
}

const KILLERS: usize = 8;

fn remember(list: &mut Vec<Move>, mv: Move) {
    if let Some(i) = list.iter().position(|m| *m == mv) {
        list.remove(i);
    }
    list.insert(0, mv);
    list.truncate(KILLERS);
}

impl WinSearch {
    /// Has the deadline passed? Checked on the clock every 64 calls (a node costs far more
    /// than a clock read, but not 64 times more); sticky once true.
    fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.node_limit.is_some_and(|l| self.nodes >= l) {
            self.aborted = true;
            return true;
        }
        if let Some(d) = self.deadline
            && self.nodes.is_multiple_of(64)
            && Instant::now() >= d
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// A winning decision path of the player to move, if there is one.
    fn find(&mut self, game: &Crumble) -> Option<Vec<Decision>> {
        if game.is_over() || !game.at_turn_start() {
            return None;
        }
        let mover = game.to_move();
        for i in 0..self.killers.len() {
            let mut g = game.clone();
            if let Ok(path) = g.play_move(&self.killers[i]) {
                self.nodes += 1;
                if g.outcome().is_some_and(|o| o.winner == Some(mover)) {
                    let mv = self.killers.remove(i);
                    self.killers.insert(0, mv);
                    return Some(path);
                }
            }
        }
        let mut g = game.clone();
        self.path.clear();
        let turn = g.turns_played();
        if self.node(&mut g, turn, mover, 0) {
            let path = self.path.clone();
            if let Ok(mv) = game.move_from_decisions(&path) {
                remember(&mut self.killers, mv);
            }
            Some(path)
        } else {
            None
        }
    }

    /// Searches the rest of the turn; on success `self.path` holds the winning path.
    fn node(&mut self, game: &mut Crumble, turn: u32, mover: Color, depth: usize) -> bool {
        self.nodes += 1;
        if self.out_of_time() {
            return false;
        }
        if game.turns_played() != turn || game.is_over() {
            return game.outcome().is_some_and(|o| o.winner == Some(mover));
        }
        if self.bufs.len() <= depth {
            self.bufs.resize_with(depth + 1, Vec::new);
        }
        let mut buf = std::mem::take(&mut self.bufs[depth]);
        game.legal_decisions_into(&mut buf);
        let g = game.grid_size();
        let stop = Decision::stop(g);
        let swap = matches!(game.phase(), Phase::Swap);
        let mut found = false;
        let n = buf.len() - usize::from(buf.last() == Some(&stop));
        for (i, &d) in buf[..n].iter().enumerate() {
            if swap {
                debug_assert!(matches!(d.decode(g), Some(DecisionKind::Step { .. })));
            }
            self.path.push(d);
            let won = if i + 1 == n {
                game.apply_unchecked(d);
                self.after(game, turn, mover, depth)
            } else {
                let mut child = game.clone();
                child.apply_unchecked(d);
                self.after(&mut child, turn, mover, depth)
            };
            if won {
                found = true;
                break;
            }
            self.path.pop();
        }
        self.bufs[depth] = buf;
        found
    }

    fn after(&mut self, game: &mut Crumble, turn: u32, mover: Color, depth: usize) -> bool {
        if game.turns_played() != turn || game.is_over() {
            self.nodes += 1;
            // A turn that ended after a split or join without a step cannot have won.
            return game.outcome().is_some_and(|o| o.winner == Some(mover));
        }
        self.node(game, turn, mover, depth + 1)
    }
}

/// The exhaustive solver. Holds buffers and killer moves between calls; one per thread.
#[derive(Debug, Default)]
pub struct Solver {
    wins: WinSearch,
    /// The exact one-turn check for the wins inside depth 2 and threats: the same answers
    /// as [`Solver::find_win`] (a test checks it), visiting each swap state once instead of
    /// every swap path, which is what makes depth 2 affordable on long-swap positions.
    check: WinCheck,
    /// The replies, each distinct result once (not every swap path).
    replies: TurnEnds,
    /// The mover's own ends in [`Solver::forcing_rest`].
    moves: TurnEnds,
    refutations: Vec<Move>,
    /// The decisions that lose at once, for [`GameState::losing_decisions`].
    ///
    /// [`GameState::losing_decisions`]: crate::game::GameState::losing_decisions
    pub(crate) losses: LossCheck,
}

impl Solver {
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Game states visited by the win searches so far (a measure of work).
    pub fn nodes(&self) -> u64 {
        self.wins.nodes
    }

    /// Bounds the work of the calls that follow: once `deadline` has passed, every search
    /// stops where it is and [`Solver::aborted`] turns true, and the answers of those calls
    /// are incomplete. `None` lifts the bound. Either way the flag is cleared.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.wins.deadline = deadline;
        self.wins.aborted = false;
    }

    /// Did a search since the last [`Solver::set_deadline`] stop at the deadline? Then its
    /// answers (and those of every later call) are unknown, not "no".
    pub fn aborted(&self) -> bool {
        self.wins.aborted
    }

    /// Checks the deadline from a walk over complete moves (one check per move).
    fn walk_out_of_time(wins: &mut WinSearch) -> bool {
        wins.nodes += 1;
        wins.out_of_time()
    }

    /// Every complete move of the player to move as its decision path, in walk order; stops
    /// at the deadline (then [`Solver::aborted`] is true and the list is incomplete).
    pub fn move_paths(&mut self, game: &Crumble) -> Vec<Vec<Decision>> {
        let mut out = Vec::new();
        if game.is_over() {
            return out;
        }
        let wins = &mut self.wins;
        let _ = TurnWalker::new().walk::<()>(game.clone(), &mut |path, _| {
            if Solver::walk_out_of_time(wins) {
                return ControlFlow::Break(());
            }
            out.push(path.to_vec());
            ControlFlow::Continue(())
        });
        out
    }

    /// A complete move of the player to move that wins at once, if there is one (stops at
    /// the first). `game` must be at a turn start.
    pub fn find_win(&mut self, game: &Crumble) -> Option<Move> {
        let path = self.wins.find(game)?;
        Some(
            game.move_from_decisions(&path)
                .expect("a found path is a legal move"),
        )
    }

    /// Every complete move of the player to move that wins at once (depth 1), in walk order.
    pub fn winning_moves(&mut self, game: &Crumble) -> Vec<Move> {
        if game.is_over() || !game.at_turn_start() {
            return Vec::new();
        }
        let mover = game.to_move();
        let mut paths = Vec::new();
        let wins = &mut self.wins;
        let _ = TurnWalker::new().walk::<()>(game.clone(), &mut |path, after| {
            if Solver::walk_out_of_time(wins) {
                return ControlFlow::Break(());
            }
            if after.outcome().is_some_and(|o| o.winner == Some(mover)) {
                paths.push(path.to_vec());
            }
            ControlFlow::Continue(())
        });
        paths
            .iter()
            .map(|p| {
                game.move_from_decisions(p)
                    .expect("a walked path is a legal move")
            })
            .collect()
    }

    /// Does `after` (the position after the mover's move, opponent to move) refute it: is
    /// there a reply after which the mover has no winning move? A reply that ends the game
    /// without the mover winning refutes too; one that makes the mover win does not.
    fn refuted(&mut self, after: &Crumble, mover: Color) -> bool {
        if after.is_over() {
            return after.outcome().is_none_or(|o| o.winner != Some(mover));
        }
        let reply_refutes = |check: &mut WinCheck, g: &Crumble| -> bool {
            match g.outcome() {
                Some(o) => o.winner != Some(mover),
                None => !check.can_win(g),
            }
        };
        for i in 0..self.refutations.len() {
            // Out of time: stop as if refuted; the caller sees `aborted`.
            if Solver::walk_out_of_time(&mut self.wins) {
                return true;
            }
            let mut g = after.clone();
            let before = self.check.nodes();
            let refutes =
                g.play_move(&self.refutations[i]).is_ok() && reply_refutes(&mut self.check, &g);
            // The one-turn check's states count towards the work budget, as in the walk below:
            // without them a position whose moves are all refuted by a remembered reply ran
            // unbounded (4 s instead of at most about 1 at the play budget).
            self.wins.nodes += self.check.nodes() - before;
            if refutes {
                let mv = self.refutations.remove(i);
                self.refutations.insert(0, mv);
                return true;
            }
        }
        let (wins, check) = (&mut self.wins, &mut self.check);
        let found = self.replies.walk(after, &mut |path, g| {
            // Out of time: stop as if refuted; the caller sees `aborted`.
            if Solver::walk_out_of_time(wins) {
                return ControlFlow::Break(Vec::new());
            }
            let before = check.nodes();
            let refutes = reply_refutes(check, g);
            // The one-turn check's states count towards the work budget too.
            wins.nodes += check.nodes() - before;
            if refutes {
                ControlFlow::Break(path.to_vec())
            } else {
                ControlFlow::Continue(())
            }
        });
        match found {
            ControlFlow::Break(path) => {
                if !path.is_empty()
                    && let Ok(mv) = after.move_from_decisions(&path)
                {
                    remember(&mut self.refutations, mv);
                }
                true
            }
            ControlFlow::Continue(()) => false,
        }
    }

    /// Does playing `mv` (legal, from a turn start) force a win within the mover's next two
    /// turns, and how?
    pub fn forces_win(&mut self, game: &Crumble, mv: &Move) -> Option<ForcedWin> {
        let mover = game.to_move();
        let mut after = game.clone();
        after.play_move(mv).ok()?;
        self.forced_after(&after, mover)
    }

    fn forced_after(&mut self, after: &Crumble, mover: Color) -> Option<ForcedWin> {
        if after.outcome().is_some_and(|o| o.winner == Some(mover)) {
            return Some(ForcedWin::AtOnce);
        }
        (!self.refuted(after, mover)).then_some(ForcedWin::NextTurn)
    }

    /// Depth 2: every move that forces a win within the mover's next two turns, in walk
    /// order, with how. Empty when there is none (or the game is over). Each distinct result
    /// of a move is solved once, however many swap paths lead to it.
    pub fn forced_wins(&mut self, game: &Crumble) -> Vec<(Move, ForcedWin)> {
        if game.is_over() || !game.at_turn_start() {
            return Vec::new();
        }
        let mover = game.to_move();
        let mut out = Vec::new();
        let mut memo = EndMemo::new(game);
        for path in self.move_paths(game) {
            if self.aborted() {
                break;
            }
            let mut after = game.clone();
            for &d in &path {
                after.apply_unchecked(d);
            }
            if let Some(how) = memo.get_or_insert_with(&after, || self.forced_after(&after, mover))
            {
                out.push((
                    game.move_from_decisions(&path)
                        .expect("a walked path is a legal move"),
                    how,
                ));
            }
        }
        out
    }

    /// Depth 2 from any phase of a turn, bounded by a work budget: the decisions of a rest of
    /// the turn in progress that wins at once or forces a win on the mover's next turn
    /// whatever the reply, the first found (each distinct end of the turn once). `None` when
    /// there is none, or when more than `budget` states were visited first (the one-turn
    /// checks' states included): then
    /// [`Solver::aborted`] is true. A path found is always exact; the budget (states, not
    /// time) makes the answer the same on every machine. Lifts any deadline.
    pub fn forcing_rest(&mut self, game: &Crumble, budget: u64) -> Option<Vec<Decision>> {
        self.set_deadline(None);
        if game.is_over() {
            return None;
        }
        let mover = game.to_move();
        self.wins.node_limit = Some(self.wins.nodes.saturating_add(budget));
        let mut moves = std::mem::take(&mut self.moves);
        let found = moves.walk(game, &mut |path, end| {
            if Solver::walk_out_of_time(&mut self.wins) {
                return ControlFlow::Break(None);
            }
            match self.forced_after(end, mover) {
                // An answer found after the budget ran out is unknown, not "no".
                _ if self.wins.aborted => ControlFlow::Break(None),
                Some(_) => ControlFlow::Break(Some(path.to_vec())),
                None => ControlFlow::Continue(()),
            }
        });
        self.moves = moves;
        self.wins.node_limit = None;
        match found {
            ControlFlow::Break(path) => path,
            ControlFlow::Continue(()) => None,
        }
    }

    /// Would the mover of `mv` have a winning move if they moved again right after it? `false`
    /// when `mv` ends the game.
    pub fn threatens(&mut self, game: &Crumble, mv: &Move) -> bool {
        let mover = game.to_move();
        let mut after = game.clone();
        after.play_move(mv).is_ok() && self.threatens_after(&after, mover)
    }

    /// [`Solver::threatens`] from the game after the move (`after`) and its mover.
    pub fn threatens_after(&mut self, after: &Crumble, mover: Color) -> bool {
        if after.is_over() {
            return false;
        }
        let again = Crumble::from_board(after.board().clone(), mover, None);
        self.check.can_win(&again)
    }

    /// Can the player to move win at once? The same answer as [`Solver::find_win`], found by
    /// the exact one-turn check (each swap state once), and not bounded by the deadline.
    pub fn can_win(&mut self, game: &Crumble) -> bool {
        self.check.can_win(game)
    }

    /// The mark of a legal move (RULES.md 6.6): `++` if it forces a win next turn, else `+` if
    /// it threatens one, else none. A move that wins at once has no mark (the game is over).
    pub fn mark(&mut self, game: &Crumble, mv: &Move) -> Option<Mark> {
        match self.forces_win(game, mv) {
            Some(ForcedWin::NextTurn) => Some(Mark::Mate),
            Some(ForcedWin::AtOnce) => None,
            None => self.threatens(game, mv).then_some(Mark::Check),
        }
    }
}
