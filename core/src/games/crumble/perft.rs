//! Turn-level perft: the number of distinct complete moves (a split or join plus every
//! distinct swap path, including none) over one or more turns, and the depth-first walk over
//! decision paths that it, the solver and the tests share.
//!
//! Every complete move is exactly one decision path (`choose, extent, step*, [stop]`, see
//! [`crate::games::crumble::decision`]), so counting the paths from a turn start to the end of the turn counts
//! the complete moves. The walk is finite: the engine's loop guard (RULES.md 4.3.4) makes every
//! swap step reach a state not seen earlier in the turn.
//!
//! Convention for several turns (as in chess perft): `perft(game, d)` counts the sequences of
//! exactly `d` complete moves; a game that ends before the `d`-th move contributes nothing.
//!
//! ```
//! use crumble_core::games::crumble::{Crumble, perft};
//! let game = Crumble::new(3, 2).unwrap();
//! let one = perft::perft(&game, 1);
//! let divided = perft::divide(&game, 1, crumble_core::games::crumble::Frame::PerPlayer);
//! assert_eq!(divided.len() as u64, one);
//! ```

use crate::game::Decision;
use crate::games::crumble::game::{Crumble, Phase};
use crate::games::crumble::moves::Move;
use crate::games::crumble::notation::{Formatter, Frame};
use std::ops::ControlFlow;

/// Depth-first walk over the decision paths of the turn in progress. Reuses one decision
/// buffer per depth, and applies the last child of every node in place (no clone).
#[derive(Debug, Default)]
pub struct TurnWalker {
    bufs: Vec<Vec<Decision>>,
    path: Vec<Decision>,
}

impl TurnWalker {
    pub fn new() -> TurnWalker {
        TurnWalker::default()
    }

    /// Calls `visit(path, game_after)` once per complete move of the player to move in `game`
    /// (which must be at a turn start, or within a turn: then the paths are the rest of the
    /// turn). `game` is consumed as scratch space. Stops early when `visit` breaks.
    pub fn walk<B>(
        &mut self,
        mut game: Crumble,
        visit: &mut dyn FnMut(&[Decision], &mut Crumble) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if game.is_over() {
            return ControlFlow::Continue(());
        }
        self.path.clear();
        let turn = game.turns_played();
        self.node(&mut game, turn, 0, visit)
    }

    fn node<B>(
        &mut self,
        game: &mut Crumble,
        turn: u32,
        depth: usize,
        visit: &mut dyn FnMut(&[Decision], &mut Crumble) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if game.turns_played() != turn || game.is_over() {
            return visit(&self.path, game);
        }
        if self.bufs.len() <= depth {
            self.bufs.resize_with(depth + 1, Vec::new);
        }
        let mut buf = std::mem::take(&mut self.bufs[depth]);
        game.legal_decisions_into(&mut buf);
        let mut flow = ControlFlow::Continue(());
        let n = buf.len();
        for (i, &d) in buf.iter().enumerate() {
            self.path.push(d);
            flow = if i + 1 == n {
                game.apply_unchecked(d);
                self.node(game, turn, depth + 1, visit)
            } else {
                let mut child = game.clone();
                child.apply_unchecked(d);
                self.node(&mut child, turn, depth + 1, visit)
            };
            self.path.pop();
            if flow.is_break() {
                break;
            }
        }
        self.bufs[depth] = buf;
        flow
    }
}

/// Counts complete-move sequences of exactly `turns` turns from `game` (a turn start).
#[derive(Debug, Default)]
struct Counter {
    bufs: Vec<Vec<Decision>>,
}

impl Counter {
    /// Paths of the current turn that end it; each ended turn continues with `turns - 1`.
    fn count(&mut self, game: &mut Crumble, turn: u32, turns: u32, depth: usize) -> u64 {
        if game.turns_played() != turn || game.is_over() {
            if turns <= 1 {
                return 1;
            }
            if game.is_over() {
                return 0;
            }
            let next = game.turns_played();
            return self.count(game, next, turns - 1, depth);
        }
        if self.bufs.len() <= depth {
            self.bufs.resize_with(depth + 1, Vec::new);
        }
        let mut buf = std::mem::take(&mut self.bufs[depth]);
        game.legal_decisions_into(&mut buf);
        let stop = Decision::stop(game.grid_size());
        let mut total = 0;
        let n = buf.len();
        for (i, &d) in buf.iter().enumerate() {
            if turns == 1 && d == stop {
                // Stop always ends the turn: one more complete move, no need to play it.
                total += 1;
                continue;
            }
            let last = i + 1 == n || (turns == 1 && i + 2 == n && buf[n - 1] == stop);
            total += if last {
                game.apply_unchecked(d);
                self.count(game, turn, turns, depth + 1)
            } else {
                let mut child = game.clone();
                child.apply_unchecked(d);
                self.count(&mut child, turn, turns, depth + 1)
            };
        }
        self.bufs[depth] = buf;
        total
    }
}

/// The number of sequences of exactly `turns` complete moves from `game`, which must be at a
/// turn start (otherwise the first "turn" is the rest of the current one). `turns = 0` gives 1.
pub fn perft(game: &Crumble, turns: u32) -> u64 {
    if turns == 0 {
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    let mut g = game.clone();
    let turn = g.turns_played();
    Counter::default().count(&mut g, turn, turns, 0)
}

/// One line of [`divide`]: a first move, its canonical notation, and the count under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivideLine {
    pub notation: String,
    pub mv: Move,
    pub count: u64,
}

/// [`perft`] split by the first complete move: one line per move with the number of
/// sequences of `turns` moves that start with it, sorted by notation (byte-wise). The moves
/// are written in `frame` from the point of view of the player to move. `game` must be at a
/// turn start; `turns >= 1`.
pub fn divide(game: &Crumble, turns: u32, frame: Frame) -> Vec<DivideLine> {
    assert!(turns >= 1, "divide needs at least one turn");
    let mut firsts: Vec<(Vec<Decision>, u64)> = Vec::new();
    let mut counter = Counter::default();
    let _ = TurnWalker::new().walk::<()>(game.clone(), &mut |path, after| {
        let n = if turns == 1 {
            1
        } else if after.is_over() {
            0
        } else {
            let t = after.turns_played();
            counter.count(after, t, turns - 1, 0)
        };
        firsts.push((path.to_vec(), n));
        ControlFlow::Continue(())
    });
    let mut formatter = Formatter::new(game, frame);
    let mut lines: Vec<DivideLine> = firsts
        .into_iter()
        .map(|(path, count)| {
            let mv = game
                .move_from_decisions(&path)
                .expect("a walked path is a legal move");
            let notation = formatter.format(game, &mv).expect("a legal move prints");
            DivideLine {
                notation,
                mv,
                count,
            }
        })
        .collect();
    lines.sort_by(|a, b| a.notation.cmp(&b.notation));
    lines
}

/// Every complete move of the player to move, as decision paths (in walk order).
pub fn move_paths(game: &Crumble) -> Vec<Vec<Decision>> {
    let mut out = Vec::new();
    if !matches!(game.phase(), Phase::Over) {
        let _ = TurnWalker::new().walk::<()>(game.clone(), &mut |path, _| {
            out.push(path.to_vec());
            ControlFlow::Continue(())
        });
    }
    out
}

/// Every complete move of the player to move (`game` at a turn start).
pub fn all_moves(game: &Crumble) -> Vec<Move> {
    move_paths(game)
        .iter()
        .map(|p| {
            game.move_from_decisions(p)
                .expect("a walked path is a legal move")
        })
        .collect()
}
