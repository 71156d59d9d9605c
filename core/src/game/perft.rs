//! Turn-level perft for any game: the number of lines of complete moves (turns) from a state,
//! each turn counted once per decision path (a complete move is one path of decisions). The
//! check that a game's move generation agrees with another engine's, and a measure of its
//! branching. A game may count faster on its own ([`GameState::perft`]: Crumble's
//! `games::crumble::perft`); [`divide`] uses it under each first move.

use super::decision::Decision;
use super::state::GameState;
use super::text::{GameText, TextError};

/// The number of lines of `turns` complete turns from `state` (a turn start). A line that
/// ends the game before its last turn counts nothing, as in chess perft; `turns == 0` counts
/// the empty line.
pub fn perft<G: GameState>(state: &G, turns: u32) -> u64 {
    count(&mut state.clone(), turns)
}

/// [`perft`] split by the first complete move: (its text, the count under it), in byte order.
pub fn divide<G: GameText>(
    state: &G,
    turns: u32,
    notation: G::Notation,
) -> Result<Vec<(String, u64)>, TextError> {
    assert!(turns >= 1, "divide needs at least one turn");
    let mut firsts = Vec::new();
    each_turn(&mut state.clone(), &mut Vec::new(), &mut |after, path| {
        firsts.push((path.to_vec(), after.perft(turns - 1)));
    });
    let mut lines = firsts
        .into_iter()
        .map(|(path, n)| Ok((state.move_text(&path, notation)?, n)))
        .collect::<Result<Vec<_>, TextError>>()?;
    lines.sort_unstable();
    Ok(lines)
}

/// Distinct positions after each of `1..=turns` complete turns from `state` (a turn start):
/// per depth, the positions (by [`GameState::position_hash`], so transpositions count once)
/// and their classes under the game's symmetries (by canonical key): how many first moves
/// are really different. Breadth first over the distinct positions, so its memory grows
/// with them: meant for the first few turns.
pub fn unique<G: GameState>(state: &G, turns: u32) -> Vec<(u64, u64)> {
    use std::collections::{HashMap, HashSet};
    let mut layer: Vec<G> = vec![state.clone()];
    let mut out = Vec::new();
    for _ in 0..turns {
        let mut next: HashMap<u64, G> = HashMap::new();
        for s in &mut layer {
            if s.decider().is_none() {
                continue;
            }
            each_turn(s, &mut Vec::new(), &mut |after, _| {
                next.entry(after.position_hash())
                    .or_insert_with(|| after.clone());
            });
        }
        let classes: HashSet<u64> = next
            .values()
            .map(|s| super::symmetry::canonical(s).key)
            .collect();
        out.push((next.len() as u64, classes.len() as u64));
        let mut keys: Vec<u64> = next.keys().copied().collect();
        keys.sort_unstable();
        layer = keys
            .into_iter()
            .map(|k| next.remove(&k).expect("a key of the map"))
            .collect();
    }
    out
}

fn count<G: GameState>(state: &mut G, turns: u32) -> u64 {
    if turns == 0 {
        return 1;
    }
    if state.decider().is_none() {
        return 0;
    }
    let mut total = 0;
    each_turn(state, &mut Vec::new(), &mut |after, _| {
        total += count(after, turns - 1)
    });
    total
}

/// Calls `visit` with the state after each complete turn from `state` (a live turn start)
/// and the turn's decisions.
pub(crate) fn each_turn<G: GameState>(
    state: &mut G,
    path: &mut Vec<Decision>,
    visit: &mut dyn FnMut(&mut G, &[Decision]),
) {
    walk_turns(state, path, &mut |after, turn| {
        visit(after, turn);
        false
    });
}

/// The first complete turn from `state` (a turn start), in ascending order of its
/// decisions, for which `accept(state after it, its decisions)` holds; `None` when none
/// does (or the game is over). Stops at the first: a search for a move with a property.
pub fn find_turn<G: GameState>(
    state: &G,
    accept: &mut dyn FnMut(&mut G, &[Decision]) -> bool,
) -> Option<Vec<Decision>> {
    let mut path = Vec::new();
    walk_turns(&mut state.clone(), &mut path, accept).then_some(path)
}

/// Walks the complete turns from `state` depth-first until `visit` returns true (then
/// `path` holds that turn and the answer is true).
fn walk_turns<G: GameState>(
    state: &mut G,
    path: &mut Vec<Decision>,
    visit: &mut dyn FnMut(&mut G, &[Decision]) -> bool,
) -> bool {
    let mut legal = Vec::new();
    state.legal_decisions_into(&mut legal);
    for d in legal {
        let mut next = state.clone();
        next.apply_unchecked(d);
        path.push(d);
        let found = if next.decider().is_none() || next.at_turn_start() {
            visit(&mut next, path)
        } else {
            walk_turns(&mut next, path, visit)
        };
        if found {
            return true;
        }
        path.pop();
    }
    false
}
