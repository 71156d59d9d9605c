//! Exact one-turn lookahead: can the player to move win within the current turn?
//!
//! [`WinCheck::can_win`] answers it for a game at a turn start (some complete move — split
//! or join plus any swap path — ends with a four-side chain of the mover), and
//! [`WinCheck::win_path`] from any live phase of a turn, with the winning decisions. The
//! answer is exactly that of [`crate::games::crumble::solve::Solver::find_win`] (a test checks it on random
//! positions), but the work is much smaller:
//!
//! * **Each swap state once.** Within one turn (after the split or join) a swap state is the
//!   colouring after captures and the swapper; which steps follow from it and what they lead
//!   to depend on that state alone, except that the loop guard (RULES.md 4.3.4) forbids the
//!   states of the path so far. So the states the mover can reach are the states reachable
//!   in the step graph, and a depth-first search that skips every state it has already seen
//!   visits each once instead of enumerating every swap path (whose number grows
//!   exponentially with the length of the paths).
//! * **Most turns ruled out at once.** At a turn start, a bound on what the mover's colour
//!   can reach within the turn (the mover's pieces, the opponent's pieces that one piece
//!   cuts off from every side, and one more target; `reach`) shows that no chain can
//!   touch four sides in four fifths of the turn starts without a win of random games, so
//!   no move is tried there.
//! * **Early exit** at the first winning step; **no stops** (a stop, a split or a join never
//!   wins: only a step changes colours), and a split or join whose fresh pieces cannot step
//!   ends the turn inside the engine without being explored further.
//! * **No allocation once warm:** one game buffer per depth (`clone_from` reuses its
//!   buffers), one decision list per depth, and a reusable set of seen states.
//!
//! The turn limit does not matter: a win is decided at the step, before the turn ends.
//!
//! ```
//! use crumble_core::games::crumble::{Crumble, lookahead::WinCheck};
//! let game = Crumble::new(6, 8).unwrap();
//! let mut check = WinCheck::new();
//! assert!(!check.can_win(&game));
//! ```

use crate::game::Color;
use crate::game::Decision;
use crate::games::crumble::game::{Crumble, Phase};
use crate::games::crumble::reach::Reach;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The keys are hashes already: pass them through.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// The swap states seen in the current turn. A hash hit is confirmed on the full colouring
/// and the tag, so a hash collision can never hide a state.
#[derive(Debug, Default)]
pub(crate) struct StateSet {
    /// Key -> first entry with that key.
    map: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    /// (tag, e.g. the swapper slot; offset of its colour bits; next entry with the same key
    /// or `u32::MAX`).
    entries: Vec<(u64, u32, u32)>,
    bits: Vec<u64>,
}

impl StateSet {
    pub(crate) fn clear(&mut self) {
        self.map.clear();
        self.entries.clear();
        self.bits.clear();
    }

    /// Adds the state (`key` a hash of it, `tag` and `bits` the state itself); false if it
    /// was there already.
    pub(crate) fn insert(&mut self, key: u64, tag: u64, bits: &[u64]) -> bool {
        let new = self.entries.len() as u32;
        let mut at = match self.map.get(&key) {
            None => {
                self.map.insert(key, new);
                u32::MAX
            }
            Some(&first) => first,
        };
        let mut last = u32::MAX;
        while at != u32::MAX {
            let (s, off, next) = self.entries[at as usize];
            let off = off as usize;
            if s == tag && self.bits.get(off..off + bits.len()) == Some(bits) {
                return false;
            }
            last = at;
            at = next;
        }
        if last != u32::MAX {
            self.entries[last as usize].2 = new;
        }
        self.entries.push((tag, self.bits.len() as u32, u32::MAX));
        self.bits.extend_from_slice(bits);
        true
    }
}

/// Seats `game` at the root (`games[0]`, reusing its buffers once there) of a depth-first
/// walk of the turn that keeps one game per depth ([`grow_to_depth`]), its chains labelled
/// for the swap steps' win tests.
pub(crate) fn seat_root(games: &mut Vec<Crumble>, game: &Crumble) {
    if games.is_empty() {
        games.push(game.clone());
    } else {
        games[0].clone_from(game);
    }
    games[0].label_chains();
}

/// Makes room for a depth-first walk at `depth` that keeps one game per depth (`games[d]` the
/// state at depth `d`, the child written into `games[d + 1]`) and one decision list per depth:
/// buffers are added the first time a depth is reached and reused after.
pub(crate) fn grow_to_depth(games: &mut Vec<Crumble>, bufs: &mut Vec<Vec<Decision>>, depth: usize) {
    if bufs.len() <= depth {
        bufs.resize_with(depth + 1, Vec::new);
    }
    if games.len() <= depth + 1 {
        let g = games[depth].clone();
        games.push(g);
    }
}

/// The one-turn win check with its reusable buffers; one per thread (see the module docs).
#[derive(Debug, Default)]
pub struct WinCheck {
    /// `games[d]`: the state at depth `d` of the current path.
    games: Vec<Crumble>,
    bufs: Vec<Vec<Decision>>,
    path: Vec<Decision>,
    seen: StateSet,
    nodes: u64,
    /// Rules out most turns without a win before any move is tried.
    reach: Reach,
}

impl WinCheck {
    pub fn new() -> WinCheck {
        WinCheck::default()
    }

    /// Game states visited so far (a measure of work).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Can the player to move win at once? `game` should be at a turn start (from elsewhere:
    /// can the decider still win within this turn). False when the game is over.
    pub fn can_win(&mut self, game: &Crumble) -> bool {
        self.win_path(game).is_some()
    }

    /// The decisions of a winning rest of the current turn for the player to move (from any
    /// phase), if there is one: the first found, not necessarily the shortest.
    pub fn win_path(&mut self, game: &Crumble) -> Option<&[Decision]> {
        if game.is_over() {
            return None;
        }
        let mover = game.to_move();
        if game.at_turn_start() && !self.reach.may_win(game.board(), mover) {
            return None;
        }
        let turn = game.turns_played();
        seat_root(&mut self.games, game);
        self.path.clear();
        self.seen.clear();
        self.node(0, turn, mover).then_some(&self.path[..])
    }

    /// Searches the rest of the turn from `games[depth]`; on success `path` holds the rest of
    /// the winning path.
    fn node(&mut self, depth: usize, turn: u32, mover: Color) -> bool {
        self.nodes += 1;
        grow_to_depth(&mut self.games, &mut self.bufs, depth);
        let mut buf = std::mem::take(&mut self.bufs[depth]);
        let game = &mut self.games[depth];
        game.legal_decisions_into(&mut buf);
        let stop = Decision::stop(game.grid_size());
        // A new split or join: a new tiling, so the seen states of the last one never recur.
        let new_base = matches!(game.phase(), Phase::Extent { .. });
        let n = buf.len() - usize::from(buf.last() == Some(&stop));
        let mut found = false;
        for &d in &buf[..n] {
            let (parent, child) = self.games.split_at_mut(depth + 1);
            let child = &mut child[0];
            child.clone_from(&parent[depth]);
            child.apply_unchecked(d);
            if new_base {
                self.seen.clear();
            }
            let won = if child.turns_played() != turn || child.is_over() {
                child.outcome().is_some_and(|o| o.winner == Some(mover))
            } else {
                // Only the steps' states repeat; the split or join states are new each time.
                let fresh = match child.swap_state() {
                    Some((key, swapper, bits)) => self.seen.insert(key, u64::from(swapper), bits),
                    None => true,
                };
                fresh && self.node(depth + 1, turn, mover)
            };
            if won {
                self.path.push(d);
                found = true;
                break;
            }
        }
        self.bufs[depth] = buf;
        if found && depth == 0 {
            // Pushed from the leaf up.
            self.path.reverse();
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameState as _;
    use crate::games::crumble::for_random_states;
    use crate::games::crumble::solve::Solver;
    use rand::SeedableRng;

    /// Both exact one-turn answers agree with the exhaustive solver (which knows nothing of
    /// either), on turn starts of random games of three sizes: the check's answer and its
    /// winning path (legal, and it wins); the reach bound never rules out a win, and rules
    /// out most turns without one, or it would save nothing.
    #[test]
    fn exact_checks_agree_with_the_solver_on_random_turn_starts() {
        let mut check = WinCheck::new();
        let mut reach = Reach::default();
        let mut solver = Solver::new();
        let (mut positions, mut ruled_out, mut wins) = (0, 0, 0);
        let sizes = [(6, 8), (4, 2), (3, 4)];
        for_random_states(0..60, &sizes, 150, false, |seed, g| {
            let turn = g.turns_played();
            let want = solver.find_win(g).is_some();
            let may = reach.may_win(g.board(), g.to_move());
            assert!(may || !want, "seed {seed} turn {turn}: a win ruled out");
            let got = check.win_path(g).map(<[Decision]>::to_vec);
            assert_eq!(got.is_some(), want, "seed {seed} turn {turn}");
            if let Some(path) = got {
                let mut h = g.clone();
                for d in path {
                    h.apply(d).expect("a winning path is legal");
                }
                assert_eq!(h.outcome().and_then(|o| o.winner), Some(g.to_move()));
            }
            positions += 1;
            ruled_out += u32::from(!may);
            wins += u32::from(want);
        });
        // The test must see both answers to mean anything.
        assert!(wins >= 50, "only {wins} wins in {positions} positions");
        assert!(
            ruled_out * 2 > positions - wins,
            "ruled out {ruled_out} of {positions} positions ({wins} wins)"
        );
    }

    #[test]
    fn mid_turn_paths_continue_the_turn() {
        // From every first decision of a turn with a win, the win path of the rest agrees
        // with the win path from the turn start.
        let mut check = WinCheck::new();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut tested = 0;
        for _ in 0..40 {
            let mut g = Crumble::new(6, 8).unwrap();
            g.set_max_turns(80);
            while !g.is_over() {
                if let Some(path) = check.win_path(&g).map(<[Decision]>::to_vec) {
                    let mut h = g.clone();
                    for (i, &d) in path.iter().enumerate() {
                        let rest = check.win_path(&h).map(<[Decision]>::to_vec);
                        assert!(rest.is_some(), "the win is still there after {i} decisions");
                        h.apply(d).unwrap();
                    }
                    tested += 1;
                }
                g.play_random_turn(&mut rng);
            }
        }
        assert!(tested > 5);
    }
}
