//! The game interface: what search, the engine that plays games, records and training need
//! from a game's rules, in the style of OpenSpiel's `State` and Polygames' `state.h`.
//!
//! A game is a type implementing [`GameState`]: one value is one state of one game, from a
//! start (described by the game's [`GameState::Start`] specification) to its end. Every game
//! has two [`Player`]s who take turns; a turn may take several **decisions** by the same
//! player (a Crumble turn is choose, extent, then swap steps), and each decision is one
//! integer of the game's fixed action space `0 .. action_count()` (the policy head's size).
//!
//! Values are scalars from one player's view ([`GameResult::value_for`]): +1 a win, −1 a
//! loss, 0 a draw. There are no per-player value vectors.
//!
//! # The contract
//!
//! Generic code may assume each of these; [`crate::game::conformance::check_game`] tests every one
//! on thousands of random games, and every game must pass it.
//!
//! 1. **Live or over.** A state is *live* when [`decider`](GameState::decider) is `Some`; then
//!    [`game_result`](GameState::game_result) is `None` and the legal decisions are not empty.
//!    A state is *over* when `decider` is `None`; then `game_result` is `Some`, there are no
//!    legal decisions, [`at_turn_start`](GameState::at_turn_start) is false, and nothing
//!    changes it: checked apply refuses every decision with [`DecisionError::GameOver`] and
//!    random play does nothing.
//! 2. **Legal decisions** are written into the caller's buffer (cleared first, whatever it
//!    held), strictly ascending, each below [`action_count`](GameState::action_count), which
//!    is the same for every state reached from one start.
//! 3. **Checked apply** ([`apply`](GameState::apply)) accepts exactly the legal decisions. It
//!    refuses anything else with a typed error and leaves the state equal to what it was:
//!    [`DecisionError::GameOver`] on an over state (whatever the decision),
//!    [`DecisionError::OutOfRange`] for an index `>= action_count()`, otherwise
//!    [`DecisionError::Illegal`]. [`apply_unchecked`](GameState::apply_unchecked) gives the
//!    same state for a legal decision (its legality may only be debug-asserted).
//! 4. **Equality and hash.** `PartialEq` compares everything that affects the legal
//!    decisions, the result or the future of the game (a state is equal to one reached by
//!    another path when the rest of the game cannot tell them apart). Equal states have equal
//!    [`state_hash`](GameState::state_hash)es; unequal states have different ones in practice
//!    (a 64-bit collision is a bug until shown otherwise).
//! 5. **Clones are equal**: `clone()` and `clone_from()` give a state equal to the source.
//!    Implementations override `clone_from` to reuse their buffers: search copies states into
//!    scratch states on every simulation and must not allocate there.
//! 6. **Turns.** Players alternate turns. [`turns_played`](GameState::turns_played) counts
//!    the turns completed since the start; one decision completes at most one turn. A live
//!    state is at a turn start exactly when it is the start state or its last decision
//!    completed a turn; then the decider is the opponent of the previous decider, and within a
//!    turn the decider stays the same.
//! 7. **Turn limit.** With [`set_turn_limit`](GameState::set_turn_limit)`(L)`, `L > 0`, a
//!    game still live when its `L`-th turn is complete (or when the limit is set at a turn
//!    start with `L` turns already played) ends with [`turn_limit_result`] (a draw, unless
//!    the game's rules score the position at the limit, as Crumo's do), so
//!    `turns_played() <= L` always. The limit ends the game only then: the same decisions
//!    without a limit give the same game up to that point. `0` means no limit.
//!
//! [`turn_limit_result`]: GameState::turn_limit_result
//! 8. **Random play** ([`play_random_turn`](GameState::play_random_turn)) plays the rest of
//!    the current turn the way the game defines random play, and returns the number of
//!    decisions it made (at least one on a live state). The recorded variant makes the same
//!    choices from the same RNG stream and hands back the decisions, which replay through
//!    checked apply to the same state.
//! 9. **Starts.** The [`Start`](GameState::Start) specification round-trips through its JSON
//!    form (so records and configs can store it), and [`from_start`](GameState::from_start)
//!    builds equal states from equal specifications, refusing a bad one with a typed error.
//!    A new state has no turn limit.
//! 10. **A state as a start.** [`to_start`](GameState::to_start) of a live state at a turn
//!     start gives a specification that `from_start` accepts, whose state has the same
//!     decider, legal decisions and action count, is at a turn start, and whose own
//!     `to_start` is the same specification. (It may forget history the rules keep, such as
//!     the turn count.)
//!
//! 11. **Symmetries.** [`symmetries`](GameState::symmetries) lists the maps of the rules
//!     exact for a position between turns, and [`symmetry_image`](GameState::symmetry_image)
//!     and [`symmetry_turn`](GameState::symmetry_turn) map the position and its complete
//!     moves so that playing then mapping is mapping then playing; see
//!     [`crate::game::symmetry`] (the default is the identity alone).
//!
//! # Why these shapes
//!
//! * Games are used through generics (`Search<G: GameState>`), never as trait objects: a state
//!   is cloned, compared and built from its start, none of which a `dyn` value can do, and
//!   static dispatch keeps the hot paths inlined. A program that offers several games picks
//!   one at its edge (a `match` on the game's name) and runs generic code for it.
//! * Random play takes `&mut R` with `R: Rng + ?Sized`: rollouts pass their concrete RNG and
//!   get inlined draws, and a caller that holds only a `&mut dyn RngCore` can pass that too.
//! * [`legal_decisions_into`](GameState::legal_decisions_into) takes `&mut self`: a game may
//!   keep scratch buffers inside the state (Crumble does) so that generating decisions never
//!   allocates, without interior mutability that would make states `!Sync`.
//! * Decisions are [`Decision`]s, a `u32` newtype shared by all games, so search, records and
//!   the policy index need no per-game decision type.

use crate::game::Decision;
use crate::game::DecisionError;
use rand::Rng;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt;

/// One of the two players. `First` decides first from a game's standard start (Crumble's
/// Black, tic-tac-toe's X).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Player {
    First,
    Second,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// `0` for the first player, `1` for the second: an index into per-player arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first",
            Player::Second => "second",
        })
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    Win(Player),
    Draw,
}

impl GameResult {
    /// The result of a game that `winner` won, or a draw (`None`): how a game's own outcome,
    /// which names its winner, becomes the interface's result.
    #[inline]
    pub fn of_winner(winner: Option<Player>) -> GameResult {
        winner.map_or(GameResult::Draw, GameResult::Win)
    }

    #[inline]
    pub fn winner(self) -> Option<Player> {
        match self {
            GameResult::Win(p) => Some(p),
            GameResult::Draw => None,
        }
    }

    /// The result from `player`'s view: +1 a win, −1 a loss, 0 a draw (so the two players'
    /// values always sum to zero).
    #[inline]
    pub fn value_for(self, player: Player) -> f32 {
        match self {
            GameResult::Win(p) if p == player => 1.0,
            GameResult::Win(_) => -1.0,
            GameResult::Draw => 0.0,
        }
    }
}

/// A game's turn clock (rule 7 of the contract): the turns completed since the start and the
/// turn limit, `0` for none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TurnCount {
    pub played: u32,
    pub limit: u32,
}

impl TurnCount {
    /// Is there a limit, and have the turns played reached it?
    #[inline]
    pub fn limit_reached(self) -> bool {
        self.limit > 0 && self.played >= self.limit
    }
}

/// Where [`GameState::random_turn`] writes the decisions it makes, when asked to.
pub type DecisionLog<'a> = Option<&'a mut Vec<Decision>>;

/// A game's rules, seen through one state. See the [module documentation](self) for the
/// contract every implementation keeps.
pub trait GameState: Clone + PartialEq + fmt::Debug + Send + Sync + 'static {
    /// The game's name in records, configs and on the command line (`"crumble"`).
    const NAME: &'static str;

    /// Where a game starts: board size, variant or a position. Stored as JSON in records and
    /// configs; `Default` is the game's standard start.
    type Start: Clone
        + PartialEq
        + fmt::Debug
        + Default
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static;

    /// Why a [`Start`](GameState::Start) cannot be played (a bad size, a broken position).
    type StartError: std::error::Error + Send + Sync + 'static;

    /// The state at `start`, with no turn limit. It may already be over (a finished position).
    fn from_start(start: &Self::Start) -> Result<Self, Self::StartError>;

    /// This state as a start specification (the standard start's own specification when the
    /// state is the standard start): a game that begins here, such as a self-play game from a
    /// few random opening turns, is recorded with it. `from_start` of it plays exactly as this
    /// state (rule 10 of the contract).
    fn to_start(&self) -> Self::Start;

    /// Reusable buffers of the game's exact one-turn lookahead ([`win_this_turn`]); `()` for
    /// a game without one.
    ///
    /// [`win_this_turn`]: GameState::win_this_turn
    type WinCheck: Default + Send + fmt::Debug;

    /// The exact one-turn lookahead: the decisions of a rest of the current turn that wins the
    /// game for the decider, if there is one. `None` also when the game has no such check (the
    /// default), so search uses it only as a source of proofs, never of refutations. Must
    /// agree with an exhaustive search of the turn and may use only `check`'s buffers.
    fn win_this_turn<'c>(&self, check: &'c mut Self::WinCheck) -> Option<&'c [Decision]> {
        let _ = check;
        None
    }

    /// Reusable buffers of the game's exact two-turn lookahead ([`forcing_turn`]); `()` for a
    /// game without one.
    ///
    /// [`forcing_turn`]: GameState::forcing_turn
    type ForcingCheck: Default + Send + fmt::Debug;

    /// The exact two-turn lookahead, bounded by `budget` (work in the game's own unit, so the
    /// answer is the same on every machine): the decisions of a rest of the current turn after
    /// which the decider has won, or wins on their next turn whatever the opponent replies;
    /// the first found. `None` when there is none, when the budget ran out first, or when the
    /// game has no such check (the default): search uses it only as a source of proofs. A
    /// path returned must be exact.
    fn forcing_turn(&self, check: &mut Self::ForcingCheck, budget: u64) -> Option<Vec<Decision>> {
        let _ = (check, budget);
        None
    }

    /// The two-turn lookahead's other half, bounded by `budget` as [`forcing_turn`] is: for
    /// each of `legal` (legal decisions of this live state), does it lose at once, every end
    /// of the turn it can lead to being the opponent's win or leaving the opponent a win
    /// within their next turn? `None` when unknown (the budget, or no such check: the
    /// default). Search makes the losing ones proven losses, so an answer must be exact.
    ///
    /// [`forcing_turn`]: GameState::forcing_turn
    fn losing_decisions(
        &self,
        check: &mut Self::ForcingCheck,
        budget: u64,
        legal: &[Decision],
    ) -> Option<Vec<bool>> {
        let _ = (check, budget, legal);
        None
    }

    /// Size of the action space: every decision is below it. The same for every state reached
    /// from one start.
    fn action_count(&self) -> u32;

    /// Who makes the next decision; `None` exactly when the game is over.
    fn decider(&self) -> Option<Player>;

    /// Is the game over? The same as `decider().is_none()`, maybe cheaper.
    #[inline]
    fn is_over(&self) -> bool {
        self.decider().is_none()
    }

    /// The result, once the game is over; `None` while it is live.
    fn game_result(&self) -> Option<GameResult>;

    /// The legal decisions into `out` (cleared first), strictly ascending; empty exactly when
    /// the game is over. Must not allocate once `out` and the state's buffers are large enough.
    fn legal_decisions_into(&mut self, out: &mut Vec<Decision>);

    /// Why `decision` (inside the action space, in a live game) is not legal here, in words
    /// for the error of [`GameState::apply`]; `None` when it is legal. By default whether the
    /// legal decisions hold it (a game answers faster from its rules).
    fn refusal(&mut self, decision: Decision) -> Option<String> {
        let mut legal = Vec::new();
        self.legal_decisions_into(&mut legal);
        (!legal.contains(&decision)).then(|| format!("decision {} is not legal here", decision.0))
    }

    /// Applies `decision` if it is legal; otherwise returns why and leaves the state unchanged.
    fn apply(&mut self, decision: Decision) -> Result<(), DecisionError> {
        if self.is_over() {
            return Err(DecisionError::GameOver);
        }
        let size = self.action_count();
        if decision.0 >= size {
            return Err(DecisionError::OutOfRange {
                index: decision.0,
                size,
            });
        }
        if let Some(why) = self.refusal(decision) {
            return Err(DecisionError::Illegal(why));
        }
        self.apply_unchecked(decision);
        Ok(())
    }

    /// Applies a decision known to be legal (search's hot path). An illegal one may panic or
    /// leave a broken state; implementations debug-assert legality.
    fn apply_unchecked(&mut self, decision: Decision);

    /// 64-bit hash of everything `PartialEq` compares (search's evaluation cache key).
    fn state_hash(&self) -> u64;

    /// 64-bit hash of the position without the history the rules keep only for a draw
    /// rule (Crumble's window of the last six turns): equal for the transpositions an
    /// opening book merges into one position. By default [`GameState::state_hash`].
    fn position_hash(&self) -> u64 {
        self.state_hash()
    }

    /// Does a player's turn begin here (no decision of the current turn made yet)? False once
    /// the game is over.
    fn at_turn_start(&self) -> bool;

    /// Turns completed since the start, and the turn limit.
    fn turn_count(&self) -> TurnCount;

    /// Turns completed since the start.
    #[inline]
    fn turns_played(&self) -> u32 {
        self.turn_count().played
    }

    /// The turn limit (`0`: none).
    #[inline]
    fn turn_limit(&self) -> u32 {
        self.turn_count().limit
    }

    /// Sets the turn limit (`0`: none); see rule 7 of the contract.
    fn set_turn_limit(&mut self, limit: u32);

    /// The result the turn limit gives when it ends the game in this state (rule 7 of the
    /// contract): a draw (the default), or the game's own scoring of the position.
    fn turn_limit_result(&self) -> GameResult {
        GameResult::Draw
    }

    /// The symmetries of the rules exact for this state, by the game's numbering (its
    /// encoder's), ascending, the identity `0` first; see [`crate::game::symmetry`]. Defined
    /// for positions between turns and finished games; within a turn, the identity alone.
    /// The default, the identity alone, suits a game without symmetries.
    fn symmetries(&self) -> Vec<usize> {
        vec![0]
    }

    /// The image of this state under symmetry `sym`, one of [`symmetries`]; `None` for any
    /// other number.
    ///
    /// [`symmetries`]: GameState::symmetries
    fn symmetry_image(&self, sym: usize) -> Option<Self> {
        (sym == 0).then(|| self.clone())
    }

    /// The image under `sym` of the complete move `turn` (its decisions from this turn
    /// start): the decisions of the mapped move in [`symmetry_image`]`(sym)`. `None` when
    /// `sym` is not one of [`symmetries`], or `turn` is not a legal complete move here.
    ///
    /// [`symmetry_image`]: GameState::symmetry_image
    /// [`symmetries`]: GameState::symmetries
    fn symmetry_turn(&self, sym: usize, turn: &[Decision]) -> Option<Vec<Decision>> {
        (sym == 0).then(|| turn.to_vec())
    }

    /// Plays the rest of the current turn at random, as the game defines random play (the
    /// `random` agent, rollouts and benchmarks all use this one definition), appending the
    /// decisions it makes to `log` when given. Returns the number of decisions made; `0` when
    /// the game is over. The same RNG stream gives the same choices with or without a log.
    fn random_turn<R: Rng + ?Sized>(&mut self, rng: &mut R, log: DecisionLog) -> u32;

    /// [`random_turn`](GameState::random_turn) without a log.
    #[inline]
    fn play_random_turn<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        self.random_turn(rng, None)
    }

    /// [`random_turn`](GameState::random_turn) writing the decisions into `path` (cleared
    /// first).
    #[inline]
    fn play_random_turn_recorded<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        path: &mut Vec<Decision>,
    ) -> u32 {
        path.clear();
        self.random_turn(rng, Some(path))
    }

    /// The number of lines of `turns` complete turns from this turn start, as
    /// [`perft`](crate::game::perft::perft) counts them; a game with a faster counter of its
    /// own answers with it (Crumble's).
    fn perft(&self, turns: u32) -> u64 {
        crate::game::perft::perft(self, turns)
    }

    /// Plays random turns until the game is over (set a turn limit first, or a game may run
    /// long). Returns the number of decisions made.
    fn play_random_game<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u64 {
        let mut decisions = 0u64;
        while !self.is_over() {
            decisions += u64::from(self.play_random_turn(rng));
        }
        decisions
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_alternate_and_index_per_player_arrays() {
        assert_eq!(Player::First.opponent(), Player::Second);
        assert_eq!(Player::Second.opponent(), Player::First);
        assert_eq!(Player::BOTH.map(Player::index), [0, 1]);
    }

    #[test]
    fn result_values_are_zero_sum_and_signed_for_the_winner() {
        assert_eq!(GameResult::Win(Player::First).value_for(Player::First), 1.0);
        assert_eq!(
            GameResult::Win(Player::First).value_for(Player::Second),
            -1.0
        );
        assert_eq!(GameResult::Draw.value_for(Player::Second), 0.0);
        for r in [
            GameResult::Win(Player::First),
            GameResult::Win(Player::Second),
            GameResult::Draw,
        ] {
            assert_eq!(r.value_for(Player::First), -r.value_for(Player::Second));
        }
        assert_eq!(
            GameResult::Win(Player::Second).winner(),
            Some(Player::Second)
        );
        assert_eq!(GameResult::Draw.winner(), None);
        for r in [
            GameResult::Win(Player::First),
            GameResult::Win(Player::Second),
            GameResult::Draw,
        ] {
            assert_eq!(GameResult::of_winner(r.winner()), r);
        }
    }
}
