//! Symmetries of the rules, for every game: maps of positions and complete moves that the
//! rules cannot tell from the originals, and the canonical key that merges a position with
//! its images (the opening book's node key).
//!
//! A game numbers its symmetries `0..` with `0` the identity, the same numbering as its
//! encoder's ([`GameState::symmetries`]); a game without any (the default) has the identity
//! alone. They act on **positions between turns** (and finished games): within a turn a game
//! may have fewer exact maps than between turns (Crumble's pending split has only half of
//! them), which only the encoder's training augmentation needs, decision by decision.
//!
//! For a symmetry `T` exact for a state `s` between turns, the contract (checked by
//! [`crate::game::conformance`] on every game) is:
//!
//! * `T(s)` ([`GameState::symmetry_image`]) has the same decider, result, turn count, turn
//!   limit and action count, and the same symmetries;
//! * the image of a legal complete move `m` ([`GameState::symmetry_turn`]) is a legal
//!   complete move of `T(s)`, and playing then mapping is mapping then playing:
//!   `T(s after m) == T(s) after T(m)`, with equal hashes;
//! * the images of `s` are the images of every `T(s)` (the symmetries form a group), so
//!   [`canonical`] gives every image the same key.

use crate::game::Decision;
use crate::game::state::GameState;

/// The list `[T(0), T(1), …, T(N − 1)]` of a game's symmetries numbered by a `u8` newtype
/// `T`, as a constant: `pub const ALL: [Sym; 8] = numbered!(Sym; 8);`.
macro_rules! numbered {
    ($t:ident; $n:literal) => {{
        let mut all = [$t(0); $n];
        let mut i = 0;
        while i < $n {
            all[i] = $t(i as u8);
            i += 1;
        }
        all
    }};
}

pub(crate) use numbered;

/// A position's canonical key: the least [`position_hash`](GameState::position_hash) over
/// its images, and the symmetry that gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Canonical {
    pub key: u64,
    /// The symmetry whose image has the least hash (the lowest number on a tie, when the
    /// position is itself symmetric).
    pub sym: usize,
}

/// The canonical key of `state` (a position between turns, or a finished game): symmetric
/// images and transpositions reach one key, so the opening book keys its nodes by it.
pub fn canonical<G: GameState>(state: &G) -> Canonical {
    let mut best = Canonical {
        key: state.position_hash(),
        sym: 0,
    };
    for sym in state.symmetries().into_iter().skip(1) {
        let Some(image) = state.symmetry_image(sym) else {
            continue;
        };
        let key = image.position_hash();
        if key < best.key {
            best = Canonical { key, sym };
        }
    }
    best
}

/// The state [`canonical`] keys: the image with the least hash.
pub fn canonical_state<G: GameState>(state: &G) -> (G, Canonical) {
    let c = canonical(state);
    let image = if c.sym == 0 {
        state.clone()
    } else {
        state
            .symmetry_image(c.sym)
            .expect("the symmetry canonical found is exact")
    };
    (image, c)
}

/// The symmetries `U` of `canon` with `U(canon) == state`, lowest first: how to show a
/// position stored in its canonical orientation (`canon`) as it stands in the line being
/// browsed (`state`), moves included ([`GameState::symmetry_turn`] with `U`). Empty when
/// `state` is no image of `canon`.
pub fn orientations<G: GameState>(canon: &G, state: &G) -> Vec<usize> {
    canon
        .symmetries()
        .into_iter()
        .filter(|&u| {
            canon
                .symmetry_image(u)
                .is_some_and(|t| t.position_hash() == state.position_hash())
        })
        .collect()
}

/// A complete move mapped decision by decision, for games whose decisions map one by one
/// (`map(state, d)`: the image of `d`, legal in `state`): each decision is checked by playing
/// it; `None` when one is illegal or does not map, or `turn` is not one whole turn from
/// `state` (a turn start). The helper of [`GameState::symmetry_turn`] implementations.
pub fn map_turn_by_decisions<G: GameState>(
    state: &G,
    turn: &[Decision],
    mut map: impl FnMut(&G, Decision) -> Option<Decision>,
) -> Option<Vec<Decision>> {
    if !state.at_turn_start() || turn.is_empty() {
        return None;
    }
    let mut s = state.clone();
    let mut out = Vec::with_capacity(turn.len());
    for (k, &d) in turn.iter().enumerate() {
        if k > 0 && (s.at_turn_start() || s.is_over()) {
            return None;
        }
        let before = s.clone();
        s.apply(d).ok()?;
        out.push(map(&before, d)?);
    }
    (s.at_turn_start() || s.is_over()).then_some(out)
}

/// [`GameState::symmetries`] of a game whose `count` maps (numbered `0..count`) are all exact
/// between turns and in a finished game, and only the identity is within a turn.
pub fn between_turns<G: GameState>(state: &G, count: usize) -> Vec<usize> {
    if state.at_turn_start() || state.is_over() {
        (0..count).collect()
    } else {
        vec![0]
    }
}

/// [`GameState::symmetry_image`] of such a game: the identity is a clone at any time; map
/// `sym` (`None` when the game has no such number) applies to a position between turns or a
/// finished game, never within a turn.
pub fn image_between_turns<G: GameState, T>(
    state: &G,
    sym: usize,
    map: impl FnOnce(usize) -> Option<T>,
    apply: impl FnOnce(T, &G) -> G,
) -> Option<G> {
    if sym == 0 {
        return Some(state.clone());
    }
    let t = map(sym)?;
    (state.at_turn_start() || state.is_over()).then(|| apply(t, state))
}
