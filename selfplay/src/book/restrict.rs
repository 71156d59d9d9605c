//! A search restricted to the moves not yet in the book, without a change to the search:
//! the game seen through [`Restricted`], where a complete move from the root that reaches a
//! position already in the book ends the game at once as a loss for the root's player. The
//! search scores such a move exactly (a proven loss), never picks it while another move
//! remains, and its root value is the value of the best move outside the book (KataGo's
//! `genbook` avoids the book's moves at the root the same way, by its search's own
//! avoid-list). The rules are untouched past the root's turn.

use crate::evaluator::{EvalError, Evaluation, Evaluator, Leaf};
use crumble_core::game::hash::mix64;
use crumble_core::{
    Decision, DecisionError, DecisionLog, GameResult, GameState, Player, TurnCount,
};
use rand::Rng;
use std::sync::Arc;

/// The state of `G` during a search from a book node, with the book's moves barred (see the
/// module docs).
#[derive(Debug)]
pub struct Restricted<G> {
    inner: G,
    /// Sorted position hashes ([`GameState::position_hash`]) of the positions the book's
    /// moves reach, in every orientation.
    barred: Arc<[u64]>,
    /// Still within the root's turn (only the root's moves are barred).
    in_root_turn: bool,
    /// The root's move reached a barred position: the game is over, lost for `root`.
    hit: bool,
    /// The root's player.
    root: Option<Player>,
}

impl<G: GameState> Restricted<G> {
    /// `state` (a turn start) with the moves that reach a position of hash in `barred`
    /// barred.
    pub fn new(state: G, barred: Arc<[u64]>) -> Restricted<G> {
        debug_assert!(barred.windows(2).all(|w| w[0] < w[1]), "sorted hashes");
        let root = state.decider();
        Restricted {
            inner: state,
            barred,
            in_root_turn: true,
            hit: false,
            root,
        }
    }

    /// The game's own state.
    pub fn inner(&self) -> &G {
        &self.inner
    }

    fn after_decision(&mut self) {
        if self.in_root_turn && (self.inner.at_turn_start() || self.inner.is_over()) {
            self.in_root_turn = false;
            self.hit = self
                .barred
                .binary_search(&self.inner.position_hash())
                .is_ok();
        }
    }

    /// Does the rest of the root's turn `path` (from this state) reach a barred position?
    fn reaches_barred(&self, path: &[Decision]) -> bool {
        let mut s = self.clone();
        for &d in path {
            if s.apply(d).is_err() {
                return true;
            }
        }
        s.hit
    }
}

impl<G: GameState> Clone for Restricted<G> {
    fn clone(&self) -> Self {
        Restricted {
            inner: self.inner.clone(),
            barred: Arc::clone(&self.barred),
            in_root_turn: self.in_root_turn,
            hit: self.hit,
            root: self.root,
        }
    }

    /// The search copies states on every simulation: reuse the buffers, and the list unless
    /// it changed.
    fn clone_from(&mut self, src: &Self) {
        self.inner.clone_from(&src.inner);
        if !Arc::ptr_eq(&self.barred, &src.barred) {
            self.barred = Arc::clone(&src.barred);
        }
        self.in_root_turn = src.in_root_turn;
        self.hit = src.hit;
        self.root = src.root;
    }
}

impl<G: GameState> PartialEq for Restricted<G> {
    fn eq(&self, o: &Self) -> bool {
        self.inner == o.inner
            && self.in_root_turn == o.in_root_turn
            && self.hit == o.hit
            && self.root == o.root
            && (Arc::ptr_eq(&self.barred, &o.barred) || self.barred == o.barred)
    }
}

impl<G: GameState> GameState for Restricted<G> {
    const NAME: &'static str = G::NAME;
    type Start = G::Start;
    type StartError = G::StartError;

    /// A start with nothing barred (the trait asks for it; the book builds its states with
    /// [`Restricted::new`]).
    fn from_start(start: &G::Start) -> Result<Self, G::StartError> {
        Ok(Restricted::new(G::from_start(start)?, Arc::from([])))
    }

    fn to_start(&self) -> G::Start {
        self.inner.to_start()
    }

    type WinCheck = G::WinCheck;

    /// The game's one-turn win, unless it is a barred move.
    fn win_this_turn<'c>(&self, check: &'c mut G::WinCheck) -> Option<&'c [Decision]> {
        if self.hit {
            return None;
        }
        let path = self.inner.win_this_turn(check)?;
        (!self.in_root_turn || !self.reaches_barred(path)).then_some(path)
    }

    type ForcingCheck = G::ForcingCheck;

    fn forcing_turn(&self, check: &mut G::ForcingCheck, budget: u64) -> Option<Vec<Decision>> {
        if self.hit {
            return None;
        }
        let path = self.inner.forcing_turn(check, budget)?;
        (!self.in_root_turn || !self.reaches_barred(&path)).then_some(path)
    }

    // `losing_decisions` keeps the default (no answer): in the root's turn, where every
    // search of the book starts, a barred move ends the game here and not in the inner game.

    fn action_count(&self) -> u32 {
        self.inner.action_count()
    }

    fn decider(&self) -> Option<Player> {
        if self.hit { None } else { self.inner.decider() }
    }

    fn game_result(&self) -> Option<GameResult> {
        if self.hit {
            self.root.map(|p| GameResult::Win(p.opponent()))
        } else {
            self.inner.game_result()
        }
    }

    fn legal_decisions_into(&mut self, out: &mut Vec<Decision>) {
        if self.hit {
            out.clear();
        } else {
            self.inner.legal_decisions_into(out);
        }
    }

    fn apply(&mut self, decision: Decision) -> Result<(), DecisionError> {
        if self.hit {
            return Err(DecisionError::GameOver);
        }
        self.inner.apply(decision)?;
        self.after_decision();
        Ok(())
    }

    fn apply_unchecked(&mut self, decision: Decision) {
        self.inner.apply_unchecked(decision);
        self.after_decision();
    }

    fn state_hash(&self) -> u64 {
        // The same position inside and past the root's turn are different states here.
        let flags = u64::from(self.in_root_turn) | u64::from(self.hit) << 1;
        self.inner.state_hash() ^ mix64(0xb00c_0000 ^ flags)
    }

    fn at_turn_start(&self) -> bool {
        !self.hit && self.inner.at_turn_start()
    }

    fn turn_count(&self) -> TurnCount {
        self.inner.turn_count()
    }

    fn set_turn_limit(&mut self, limit: u32) {
        self.inner.set_turn_limit(limit);
    }

    fn turn_limit_result(&self) -> GameResult {
        self.inner.turn_limit_result()
    }

    fn random_turn<R: Rng + ?Sized>(&mut self, rng: &mut R, log: DecisionLog) -> u32 {
        if self.hit {
            return 0;
        }
        let n = self.inner.random_turn(rng, log);
        self.after_decision();
        n
    }
}

/// The book's evaluator seen by a search over [`Restricted`] states: it evaluates the
/// game's own state (a barred position is over, so it is never asked about).
#[derive(Debug)]
pub struct RestrictedEvaluator<G: GameState>(pub Box<dyn Evaluator<G>>);

impl<G: GameState> Evaluator<Restricted<G>> for RestrictedEvaluator<G> {
    fn name(&self) -> String {
        self.0.name()
    }

    fn evaluate(
        &mut self,
        leaves: &[Leaf<'_, Restricted<G>>],
        out: &mut [Evaluation],
    ) -> Result<(), EvalError> {
        let inner: Vec<Leaf<'_, G>> = leaves
            .iter()
            .map(|l| Leaf {
                game: &l.game.inner,
                legal: l.legal,
            })
            .collect();
        self.0.evaluate(&inner, out)
    }
}
