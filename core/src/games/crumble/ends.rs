//! The distinct ends of a turn: every position the player to move can leave the turn in,
//! each once, however many swap paths lead there.
//!
//! Two-turn questions (does this move force a win whatever the reply?) walk the mover's moves
//! and then every reply; walking decision paths ([`crate::games::crumble::perft::TurnWalker`]) visits one
//! end per swap path, and the number of swap paths grows exponentially with their length.
//! [`TurnEnds::walk`] instead visits each swap state of the turn once (as
//! [`crate::games::crumble::lookahead::WinCheck`] does: the loop guard forbids only states of the path so far,
//! so every state reachable in the step graph is reachable, and a search that skips the
//! states it has seen reaches them all) and each distinct end once.
//!
//! **What "distinct" means.** Paths that end in the same colouring of the same tiling, with
//! the same result, are one end, with one caveat: the automatic draw (RULES.md 5.2) reads the
//! set of pieces swapped into on each of the last six turns, which differs between paths.
//! Those targets can decide a draw at the end of this turn or the next only through a piece
//! that was a target of each of the four turns before this one (a draw candidate); ends are
//! told apart by which candidates their path swapped into. So the ends are exact for
//! everything decided within this turn and the next one (the horizon of the depth-2
//! solver); beyond that, two paths merged into one end may differ in a later draw. Where
//! candidates exist (rare: one piece swapped into on four turns in a row) the walk goes over
//! every path, since merging paths at a swap state would lose some of them: the loop guard
//! of the first path to arrive forbids continuations that another path allows.

use crate::game::Decision;
use crate::game::hash::mix64;
use crate::games::crumble::board::Board;
use crate::games::crumble::game::{Crumble, Phase};
use crate::games::crumble::geom::Rect;
use crate::games::crumble::lookahead::{StateSet, grow_to_depth, seat_root};
use std::collections::HashMap;
use std::ops::ControlFlow;

/// Tag bit of an ended turn in the seen set (swap states carry their swapper slot).
const ENDED: u64 = 1 << 40;

/// Which of `candidates` the targets of `game`'s turn include, as sorted indices (the turn in
/// progress, or the one just ended: its targets are then the newest entry of the window).
/// Allocates nothing when there are no candidates.
fn candidates_hit(candidates: &[Rect], game: &Crumble) -> Vec<u32> {
    if candidates.is_empty() {
        return Vec::new();
    }
    let mut hit: Vec<u32> = game
        .turn_targets()
        .iter()
        .filter_map(|t| candidates.iter().position(|c| c == t).map(|i| i as u32))
        .collect();
    hit.sort_unstable();
    hit.dedup();
    hit
}

/// The walk over the distinct ends of a turn, with its reusable buffers; one per thread.
#[derive(Debug, Default)]
pub struct TurnEnds {
    /// `games[d]`: the state at depth `d` of the current path.
    games: Vec<Crumble>,
    bufs: Vec<Vec<Decision>>,
    path: Vec<Decision>,
    seen: Seen,
    nodes: u64,
}

/// The states of the turn seen so far: swap states and ended turns.
#[derive(Debug, Default)]
struct Seen {
    set: StateSet,
}

impl Seen {
    /// Is this state (a swap state, or the turn ended) new? Marks it seen.
    fn fresh(&mut self, game: &Crumble, ended: bool) -> bool {
        let (key, tag, bits) = if ended {
            // Within one split or join the tiling is fixed: the colouring identifies the end.
            (
                mix64(game.board().hash() ^ ENDED),
                ENDED,
                game.board().black_bits(),
            )
        } else {
            match game.swap_state() {
                Some((key, swapper, bits)) => (key, u64::from(swapper), bits),
                // Before the first step: reached once per split or join.
                None => return true,
            }
        };
        self.set.insert(key, tag, bits)
    }
}

impl TurnEnds {
    pub fn new() -> TurnEnds {
        TurnEnds::default()
    }

    /// Game states visited so far (a measure of work).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Calls `visit(path, end)` once per distinct end of the turn in progress (from a turn
    /// start: every distinct result of a complete move), `path` being one decision path that
    /// reaches it from `game` and `end` the game after it (the next turn's start, or over).
    /// Stops when `visit` breaks. Nothing is visited when the game is over.
    pub fn walk<B>(
        &mut self,
        game: &Crumble,
        visit: &mut dyn FnMut(&[Decision], &Crumble) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if game.is_over() {
            return ControlFlow::Continue(());
        }
        if !game.draw_candidates().is_empty() {
            // Which candidates a path swaps into depends on the whole path, and merging the
            // paths through one swap state would lose some (the loop guard of the first
            // path to arrive also forbids continuations the others allow): walk every path
            // instead, each distinct end once. Rare: it needs one piece swapped into on four
            // turns in a row.
            let mut memo: EndMemo<()> = EndMemo::new(game);
            return crate::games::crumble::perft::TurnWalker::new().walk(
                game.clone(),
                &mut |path, end| {
                    let before = memo.len();
                    memo.get_or_insert_with(end, || ());
                    if memo.len() > before {
                        visit(path, end)
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            );
        }
        seat_root(&mut self.games, game);
        self.path.clear();
        self.seen.set.clear();
        let turn = game.turns_played();
        self.node(0, turn, visit)
    }

    fn node<B>(
        &mut self,
        depth: usize,
        turn: u32,
        visit: &mut dyn FnMut(&[Decision], &Crumble) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        self.nodes += 1;
        grow_to_depth(&mut self.games, &mut self.bufs, depth);
        let mut buf = std::mem::take(&mut self.bufs[depth]);
        self.games[depth].legal_decisions_into(&mut buf);
        // A new split or join: a new tiling, so the states of the last one never recur.
        let new_base = matches!(self.games[depth].phase(), Phase::Extent { .. });
        let mut flow = ControlFlow::Continue(());
        for &d in &buf {
            if new_base {
                self.seen.set.clear();
            }
            let (parent, child) = self.games.split_at_mut(depth + 1);
            let child = &mut child[0];
            child.clone_from(&parent[depth]);
            child.apply_unchecked(d);
            let ended = child.turns_played() != turn || child.is_over();
            if !self.seen.fresh(child, ended) {
                continue;
            }
            self.path.push(d);
            flow = if ended {
                visit(&self.path, &self.games[depth + 1])
            } else {
                self.node(depth + 1, turn, visit)
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

/// A value remembered per distinct end of one turn, ends told apart as [`TurnEnds`] tells
/// them: for walks over decision paths (which need every path, e.g. to list every answer)
/// that compute something of each path's end only once per end.
#[derive(Debug)]
pub struct EndMemo<V> {
    candidates: Vec<Rect>,
    /// Board hash -> (board, candidates its path swapped into, value).
    map: HashMap<u64, Vec<(Board, Vec<u32>, V)>>,
}

impl<V: Clone> EndMemo<V> {
    /// A memo for the ends of the turn that `start` is in.
    pub fn new(start: &Crumble) -> EndMemo<V> {
        EndMemo {
            candidates: start.draw_candidates(),
            map: HashMap::new(),
        }
    }

    /// The value of `end` (a game after a complete move from the memo's turn), computed by
    /// `compute` the first time this end is met.
    pub fn get_or_insert_with(&mut self, end: &Crumble, compute: impl FnOnce() -> V) -> V {
        let hit = candidates_hit(&self.candidates, end);
        let bucket = self.map.entry(end.board().hash()).or_default();
        if let Some((_, _, v)) = bucket
            .iter()
            .find(|(b, h, _)| *h == hit && b == end.board())
        {
            return v.clone();
        }
        let v = compute();
        bucket.push((end.board().clone(), hit, v.clone()));
        v
    }

    /// Distinct ends met so far.
    pub fn len(&self) -> usize {
        self.map.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameState as _;
    use crate::games::crumble::perft::TurnWalker;
    use rand::SeedableRng;

    /// Every end the walk visits is distinct, replays from its path, and the ends it visits
    /// are exactly the distinct ends of all decision paths (as [`EndMemo`] tells them apart).
    fn check_position(g: &Crumble, ends: &mut TurnEnds) -> usize {
        let mut visited: EndMemo<usize> = EndMemo::new(g);
        let mut n = 0;
        let _ = ends.walk::<()>(g, &mut |path, end| {
            let mut replay = g.clone();
            for &d in path {
                replay.apply(d).expect("a visited path is legal");
            }
            assert!(replay.turns_played() != g.turns_played() || replay.is_over());
            assert!(replay.board() == end.board() && replay.outcome() == end.outcome());
            let id = visited.get_or_insert_with(end, || n);
            assert_eq!(id, n, "an end visited twice");
            n += 1;
            ControlFlow::Continue(())
        });
        let mut all: EndMemo<()> = EndMemo::new(g);
        let _ = TurnWalker::new().walk::<()>(g.clone(), &mut |_, end| {
            all.get_or_insert_with(end, || ());
            let before = visited.len();
            visited.get_or_insert_with(end, || usize::MAX);
            assert_eq!(visited.len(), before, "a path's end was not visited");
            ControlFlow::Continue(())
        });
        assert_eq!(all.len(), n);
        n
    }

    #[test]
    fn visits_each_distinct_end_of_random_positions_once() {
        let mut ends = TurnEnds::new();
        let (mut positions, mut merged) = (0, 0);
        for seed in 0..60u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let (n, r) = if seed % 3 == 0 { (4, 2) } else { (6, 8) };
            let mut g = Crumble::new(n, r).unwrap();
            g.set_max_turns(60);
            while !g.is_over() {
                let distinct = check_position(&g, &mut ends);
                if distinct < crate::games::crumble::perft::perft(&g, 1) as usize {
                    merged += 1;
                }
                positions += 1;
                g.play_random_turn(&mut rng);
            }
        }
        assert!(positions > 1000, "{positions} positions");
        // The walk must merge paths somewhere to mean anything.
        assert!(merged > 100, "paths merged in only {merged} positions");
    }

    /// The greatest k <= 4 such that one piece is among the targets of each of the last k
    /// turns of `history`.
    fn streak(history: &[Vec<Rect>]) -> usize {
        let Some(last) = history.last() else { return 0 };
        last.iter()
            .map(|x| {
                history
                    .iter()
                    .rev()
                    .take(4)
                    .take_while(|t| t.contains(x))
                    .count()
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn ends_differ_by_the_draw_candidates_their_paths_swapped_into() {
        // Games steered into swapping into one piece turn after turn (random play almost
        // never does), so that positions with draw candidates come up: there two paths to
        // one colouring, through a candidate and not, are different ends.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut ends = TurnEnds::new();
        let mut walker = TurnWalker::new();
        let mut tested = 0;
        for i in 0..40 {
            let (n, r) = [(4, 2), (3, 2)][i % 2];
            let mut g = Crumble::new(n, r).unwrap();
            g.set_max_turns(40);
            let mut history: Vec<Vec<Rect>> = Vec::new();
            while !g.is_over() {
                if !g.draw_candidates().is_empty() {
                    check_position(&g, &mut ends);
                    tested += 1;
                }
                // The live end that keeps the longest target streak (ties: the first seen
                // after a random number of paths).
                let skip = rand::Rng::random_range(&mut rng, 0..50usize);
                let mut best: Option<(usize, Crumble)> = None;
                let mut seen = 0;
                let _ = walker.walk::<()>(g.clone(), &mut |_, end| {
                    seen += 1;
                    if end.is_over() {
                        return ControlFlow::Continue(());
                    }
                    history.push(end.turn_targets().to_vec());
                    let k = streak(&history);
                    history.pop();
                    if best
                        .as_ref()
                        .is_none_or(|(b, _)| k > *b || (k == *b && seen == skip))
                    {
                        best = Some((k, end.clone()));
                    }
                    if seen > 5000 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
                let Some((_, next)) = best else { break };
                history.push(next.turn_targets().to_vec());
                g = next;
            }
        }
        assert!(tested > 20, "only {tested} positions with draw candidates");
    }
}
