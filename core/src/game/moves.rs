//! Games whose every turn is one complete move of one or two decisions with a notation of its
//! own (Splinter, Crumo): checked play, move lists, random moves and the move half of the
//! text layer, written once over what each game defines ([`CompleteMoves`]).

use super::decision::Decision;
use super::error::TurnError;
use super::state::GameState;
use super::text::TextError;
use rand::Rng;
use std::error::Error;
use std::fmt;

/// Why a complete move was refused: its text (`N`, the game's error for a malformed move),
/// the turn (the game is over, or in the middle of a turn), or the game's own rules (`R`).
/// Each game names its instance `MoveError`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError<N, R>
where
    N: Error + 'static,
    R: Error + 'static,
{
    /// Not a move of the game's notation, or one off this board.
    #[error(transparent)]
    Notation(N),
    /// No move at all can be played now.
    #[error(transparent)]
    Turn(#[from] TurnError),
    /// The move breaks one of the game's rules here.
    #[error(transparent)]
    Rules(R),
}

/// The decisions of a complete move: its first, and its second where it takes two.
pub type MoveDecisions = (Decision, Option<Decision>);

/// A game played in complete moves of one or two decisions: the game says how a move reads,
/// writes and resolves to its decisions; play, lists and text come from that.
pub trait CompleteMoves: GameState {
    /// One complete move.
    type Move: Copy + PartialEq + fmt::Debug;
    /// Why a move is refused: its text, or the rule it breaks here.
    type MoveError: Error + From<TurnError> + Send + Sync + 'static;

    /// Reads a move in the game's notation (its syntax and board only, not its legality).
    fn read_move(&self, text: &str) -> Result<Self::Move, Self::MoveError>;

    /// The move's text on this board.
    fn write_move(&self, mv: &Self::Move) -> String;

    /// The decisions of a complete move at a turn start (the second only where the move takes
    /// two), or why it is not legal here. The game is not changed.
    fn resolve_at_turn_start(&self, mv: &Self::Move) -> Result<MoveDecisions, Self::MoveError>;

    /// The decisions of a complete move, or why it is not legal here (a move after the end or
    /// in the middle of a turn included). The game is not changed.
    fn resolve(&self, mv: &Self::Move) -> Result<MoveDecisions, Self::MoveError> {
        if self.is_over() {
            return Err(TurnError::GameOver.into());
        }
        if !self.at_turn_start() {
            return Err(TurnError::MidTurn.into());
        }
        self.resolve_at_turn_start(mv)
    }

    /// The move that one turn's decisions name from this turn start, read from the decisions
    /// alone; `None` when they name none. [`CompleteMoves::move_of_turn`] checks it is legal.
    fn move_named_by(&self, turn: &[Decision]) -> Option<Self::Move>;

    /// The complete move that one turn's decisions make from this turn start; `None` when they
    /// are not exactly one legal turn (an agent's turn is read back as notation, so a search
    /// that broke the turn structure is caught here rather than recorded).
    fn move_of_turn(&self, turn: &[Decision]) -> Option<Self::Move> {
        if !self.at_turn_start() {
            return None;
        }
        let mv = self.move_named_by(turn)?;
        // The decisions must be exactly the move's, which `resolve` gives.
        let (first, second) = self.resolve(&mv).ok()?;
        std::iter::once(first)
            .chain(second)
            .eq(turn.iter().copied())
            .then_some(mv)
    }

    /// Pushes onto `out`, in the order of their decisions, the legal complete moves that begin
    /// with `first`, a legal decision at this turn start.
    fn moves_beginning(&self, first: Decision, out: &mut Vec<Self::Move>);

    /// Every legal complete move, in the order of their decisions; empty once the game is
    /// over or in the middle of a turn.
    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut out = Vec::new();
        if !self.at_turn_start() {
            return out;
        }
        let mut decisions = Vec::new();
        // The list asks for `&mut` (some games keep scratch in the state); these do not.
        self.clone().legal_decisions_into(&mut decisions);
        for d in decisions {
            self.moves_beginning(d, &mut out);
        }
        out
    }

    /// Plays a complete move, or refuses it and leaves the game unchanged.
    fn play(&mut self, mv: &Self::Move) -> Result<(), Self::MoveError> {
        let (first, second) = self.resolve(mv)?;
        for d in std::iter::once(first).chain(second) {
            self.apply_unchecked(d);
        }
        Ok(())
    }

    /// Reads a move in notation and plays it.
    fn play_text(&mut self, text: &str) -> Result<(), Self::MoveError> {
        let mv = self.read_move(text)?;
        self.play(&mv)
    }

    /// Plays moves in notation in order; the first unreadable or illegal one (a move after
    /// the end included) is refused, and nothing after it is played.
    fn play_texts<S: AsRef<str>>(&mut self, moves: &[S]) -> Result<(), Refusal<Self::MoveError>> {
        for (i, text) in moves.iter().enumerate() {
            self.play_text(text.as_ref()).map_err(|error| Refusal {
                index: i + 1,
                text: text.as_ref().to_string(),
                error,
            })?;
        }
        Ok(())
    }

    /// Every legal move in notation, sorted byte-wise (the games' rules books list them so).
    fn legal_move_texts(&self) -> Vec<String> {
        let mut texts: Vec<String> = self
            .legal_moves()
            .iter()
            .map(|m| self.write_move(m))
            .collect();
        texts.sort_unstable();
        texts
    }

    /// Plays one turn of the game's random play at a turn start and returns it; `None`, with
    /// the game unchanged, once the game is over or in the middle of a turn.
    fn play_random_move<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<Self::Move> {
        if !self.at_turn_start() {
            return None;
        }
        let before = self.clone();
        let mut turn = Vec::with_capacity(2);
        self.play_random_turn_recorded(rng, &mut turn);
        let mv = before.move_of_turn(&turn);
        debug_assert!(mv.is_some(), "a random turn {turn:?} is one legal move");
        mv
    }

    /// [`GameText::parse_move`](super::GameText::parse_move) for such a game: the decisions
    /// of the move written `text`, or the game's own error (a move after the end included).
    fn turn_of_text(&self, text: &str) -> Result<Vec<Decision>, TextError> {
        let mv = self.read_move(text).map_err(TextError::of_move)?;
        let (first, second) = self.resolve(&mv).map_err(TextError::of_move)?;
        Ok(std::iter::once(first).chain(second).collect())
    }

    /// [`GameText::move_text`](super::GameText::move_text) for such a game: the text of the
    /// move one turn's decisions make.
    fn text_of_turn(&self, turn: &[Decision]) -> Result<String, TextError> {
        let mv = self.move_of_turn(turn).ok_or_else(|| {
            TextError::Internal(format!("{turn:?} is not a whole turn of this position"))
        })?;
        Ok(self.write_move(&mv))
    }
}

/// The [`CompleteMoves`] items that games keeping their notation in a module `$notation` (its
/// `parse_move` and `move_text` over the board that `self.$board()` gives, its error the
/// `Notation` of the game's [`MoveError`]) write alike: the move and error types, and reading
/// and writing a move.
macro_rules! complete_moves_notation {
    ($move:ty, $error:ty, $notation:ident, $board:ident) => {
        type Move = $move;
        type MoveError = $error;

        fn read_move(&self, text: &str) -> Result<$move, $error> {
            $notation::parse_move(self.$board(), text)
                .map_err($crate::game::moves::MoveError::Notation)
        }

        fn write_move(&self, mv: &$move) -> String {
            $notation::move_text(self.$board(), mv)
        }
    };
}

pub(crate) use complete_moves_notation;

/// The [`GameState`] methods that games of complete moves keeping their rules as inherent
/// methods (Crumo, Splinter) answer alike: the legal decisions, a refusal in words (the
/// decision decoded), the hash, the turn start, the turn clock and random play. The state
/// keeps `result` (an `Option`, `Some` once over), `pending` (`Some` between a move's two
/// decisions) and `turns` (a [`TurnCount`](super::TurnCount)), and answers `decisions_into`,
/// `is_legal`, `decode` (a `Debug` action), `hash`, `check_turn_limit` and `play_at_random` (of
/// a live game).
macro_rules! complete_moves_state_methods {
    () => {
        #[inline]
        fn legal_decisions_into(&mut self, out: &mut Vec<$crate::game::Decision>) {
            self.decisions_into(out);
        }

        fn refusal(&mut self, decision: $crate::game::Decision) -> Option<String> {
            (!self.is_legal(decision)).then(|| format!("{:?}", self.decode(decision)))
        }

        #[inline]
        fn state_hash(&self) -> u64 {
            self.hash()
        }

        #[inline]
        fn at_turn_start(&self) -> bool {
            self.result.is_none() && self.pending.is_none()
        }

        #[inline]
        fn turn_count(&self) -> $crate::game::TurnCount {
            self.turns
        }

        /// Set at a turn start with the limit already reached, the limit ends the game at
        /// once; within a turn, at the turn's end (`check_turn_limit` waits for it).
        fn set_turn_limit(&mut self, limit: u32) {
            self.turns.limit = limit;
            self.check_turn_limit();
        }

        #[inline]
        fn random_turn<R: rand::Rng + ?Sized>(
            &mut self,
            rng: &mut R,
            log: $crate::game::DecisionLog,
        ) -> u32 {
            // Random play makes no decision once the game is over (rule 1 of the contract);
            // `play_at_random` is only asked of a live game.
            if self.result.is_some() {
                return 0;
            }
            self.play_at_random(rng, log)
        }
    };
}

pub(crate) use complete_moves_state_methods;

/// The [`GameText`](super::GameText) methods that the same games answer alike from their
/// complete moves and their position module `$position` (its `to_json`, `from_json` and
/// `outcome_value` of the game's `outcome()`, whose `reason` has a `name`): move texts, the
/// legal moves as text, the position and result JSON, and the end's reason.
macro_rules! complete_moves_text_methods {
    ($position:ident) => {
        fn move_text(
            &self,
            turn: &[$crate::game::Decision],
            (): (),
        ) -> Result<String, $crate::game::TextError> {
            $crate::game::CompleteMoves::text_of_turn(self, turn)
        }

        fn legal_move_texts(&self, (): ()) -> Result<Vec<String>, $crate::game::TextError> {
            Ok($crate::game::CompleteMoves::legal_move_texts(self))
        }

        fn position_json(&self) -> String {
            $position::to_json(self)
        }

        fn from_position_json(text: &str) -> Result<Self, $crate::game::TextError> {
            $position::from_json(text).map_err($crate::game::TextError::of_position)
        }

        fn result_json(&self) -> serde_json::Value {
            $position::outcome_value(self.outcome())
        }

        fn end_reason(&self) -> Option<&'static str> {
            self.outcome().map(|o| o.reason.name())
        }
    };
}

pub(crate) use complete_moves_text_methods;

/// A move refused while playing a list ([`CompleteMoves::play_texts`]): its 1-based index, its
/// text and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {index} ({text:?}) refused: {error}")]
pub struct Refusal<E: Error> {
    pub index: usize,
    pub text: String,
    pub error: E,
}
