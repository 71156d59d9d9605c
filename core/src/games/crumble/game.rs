//! The game state: the board plus the turn in progress, the rules of RULES.md sections 3–5,
//! and the turn as atomic decisions (see [`crate::games::crumble::decision`]).

use crate::game::Color;
use crate::game::Decision;
use crate::game::hash::mix64;
use crate::game::named::named_enum;
use crate::games::crumble::board::{Board, NO_SLOT};
use crate::games::crumble::chains::SwapChains;
use crate::games::crumble::decision::{DecisionKind, action_count};
use crate::games::crumble::error::SizeError;
use crate::games::crumble::geom::{Cut, Dir, Piece, Rect, rect_key};

mod apply;
mod bases;
mod captures;
mod draw;
mod legal;
mod split_join;

pub(crate) use bases::Reads;
use draw::DrawWindow;
pub(crate) use draw::TurnRecord;

named_enum! {
    /// Why a game ended (RULES.md section 5).
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    pub enum Reason {
        FourSides,
        DrawRule,
        NoSplitOrJoin,
        TurnLimit,
        Resignation,
        Agreement,
    }
}

impl Reason {
    /// Does this reason need a winner (`true`) or forbid one (`false`)?
    pub fn has_winner(self) -> bool {
        matches!(self, Reason::FourSides | Reason::Resignation)
    }
}

/// The result of a finished game.
pub type Outcome = crate::game::outcome::Outcome<Reason>;

/// Where the turn in progress stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    /// Start of a turn: choose a split or a join.
    Choose,
    /// A split or join was chosen at `start`; decide where it ends.
    Extent { kind: ChoiceKind, start: Rect },
    /// After the split or join: swap steps or stop.
    Swap,
    /// The game has a result.
    Over,
}

/// The pending choice of an extent decision.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ChoiceKind {
    Split(Cut),
    Join,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Choose,
    Extent { kind: ChoiceKind, start: u32 },
    Swap,
    Over,
}

/// One loop-guard state of the turn: colouring (hash + snapshot of colour bits) and swapper.
#[derive(Clone, Copy, Debug)]
struct GuardEntry {
    key: u64,
    swapper: u32,
    offset: u32,
}

/// Buffers reused across decisions so the hot path does not allocate.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    mark: Vec<u32>,
    mark_id: u32,
    safe: Vec<u32>,
    stack: Vec<u32>,
    group: Vec<u32>,
    seeds: Vec<u32>,
    /// By slot, a piece that last proved the slot's group safe: of its colour, touching it
    /// and a side. Checked before it is trusted (slots are reused and colours change), so it
    /// can be stale but never wrong; kept across steps, turns and copies of the game.
    anchor: Vec<u32>,
    to_flip: Vec<u32>,
    /// Slots whose colour changed in the current step, in order (for undo).
    pub(crate) flips: Vec<u32>,
    xs: Vec<u16>,
    ys: Vec<u16>,
    run: Vec<u32>,
    /// Splits and joins of the player to move, by piece, kept between turns (`bases.rs`).
    bases: bases::BaseCache,
    /// Buffers for `is_legal`, `any_step` and random play: each user its own, because they
    /// nest (applying a decision checks for steps while random play holds its list).
    legal: Vec<Decision>,
    pub(crate) random: Vec<Decision>,
    /// For the debug-build check of the cached swap steps.
    #[cfg(debug_assertions)]
    check: Vec<Decision>,
}

impl Clone for Scratch {
    /// Scratch space holds no state: a clone starts empty.
    fn clone(&self) -> Scratch {
        Scratch::default()
    }
}

impl Scratch {
    /// A fresh stamp for `mark`/`safe`, sized for `slots` slots.
    fn stamp(&mut self, slots: usize) -> u32 {
        if self.mark.len() < slots {
            self.mark.resize(slots, 0);
            self.safe.resize(slots, 0);
        }
        if self.mark_id == u32::MAX {
            self.mark.fill(0);
            self.safe.fill(0);
            self.mark_id = 0;
        }
        self.mark_id += 1;
        self.mark_id
    }
}

/// A game in progress: position, turn state, draw-rule history and result.
#[derive(Debug)]
pub struct Crumble {
    board: Board,
    to_move: Color,
    state: State,
    fresh: Vec<u32>,
    swapper: u32,
    /// The legal steps of the current swap state, sorted (see `any_step`).
    steps: Vec<Decision>,
    guard: Vec<GuardEntry>,
    guard_bits: Vec<u64>,
    turn: TurnRecord,
    window: DrawWindow,
    turns_played: u32,
    max_turns: u32,
    outcome: Option<Outcome>,
    /// The chains at the swap's start, to skip the win test of most steps (a cache: not part
    /// of the state's identity).
    chains: SwapChains,
    s: Scratch,
}

impl Clone for Crumble {
    fn clone(&self) -> Crumble {
        let mut g = Crumble {
            board: self.board.clone(),
            to_move: self.to_move,
            state: self.state,
            fresh: Vec::new(),
            swapper: self.swapper,
            steps: Vec::new(),
            guard: Vec::new(),
            guard_bits: Vec::new(),
            turn: TurnRecord::default(),
            window: DrawWindow::default(),
            turns_played: self.turns_played,
            max_turns: self.max_turns,
            outcome: self.outcome,
            chains: SwapChains::default(),
            s: Scratch::default(),
        };
        g.clone_from(self);
        g
    }

    /// Copies `src` into `self` reusing every buffer (scratch space included): no heap
    /// allocation once the buffers are large enough, which search relies on.
    fn clone_from(&mut self, src: &Crumble) {
        self.board.clone_from(&src.board);
        self.to_move = src.to_move;
        self.state = src.state;
        self.fresh.clone_from(&src.fresh);
        self.swapper = src.swapper;
        self.steps.clone_from(&src.steps);
        self.guard.clone_from(&src.guard);
        self.guard_bits.clone_from(&src.guard_bits);
        self.turn.copy_from(&src.turn);
        self.window.copy_from(&src.window);
        self.turns_played = src.turns_played;
        self.max_turns = src.max_turns;
        self.outcome = src.outcome;
        self.chains.clone_from(&src.chains);
    }
}

impl PartialEq for Crumble {
    /// Equal positions in equal turn states with equal draw-rule windows (slot layouts may
    /// differ): equal exactly when everything `hash` covers is equal.
    fn eq(&self, o: &Crumble) -> bool {
        self.board == o.board
            && self.to_move == o.to_move
            && self.phase() == o.phase()
            && self.outcome == o.outcome
            && self.fresh_pieces() == o.fresh_pieces()
            && self.swapper_piece() == o.swapper_piece()
            && self.max_turns == o.max_turns
            // The turn count matters only under a turn limit (as in `hash`).
            && (self.max_turns == 0 || self.turns_played == o.turns_played)
            && self.window_hash() == o.window_hash()
            && self.guard_hash() == o.guard_hash()
    }
}

impl Crumble {
    /// The standard start (rule 1.4) on an `n × n` board at resolution `r`.
    pub fn new(n: u16, r: u16) -> Result<Crumble, SizeError> {
        let board = Board::standard(n, r)?;
        Ok(Crumble::from_board(board, Color::Black, None))
    }

    /// A game from a loaded position (rule 3.6): surrounded groups are resolved, a four-side
    /// chain becomes a result, then rule 5.3 is checked. A given result is kept.
    pub fn from_board(board: Board, to_move: Color, result: Option<Outcome>) -> Crumble {
        let mut game = Crumble {
            board,
            to_move,
            state: State::Choose,
            fresh: Vec::new(),
            swapper: NO_SLOT,
            steps: Vec::new(),
            guard: Vec::new(),
            guard_bits: Vec::new(),
            turn: TurnRecord::default(),
            window: DrawWindow::default(),
            turns_played: 0,
            max_turns: 0,
            outcome: result,
            chains: SwapChains::default(),
            s: Scratch::default(),
        };
        game.resolve_all();
        if game.outcome.is_none() {
            if let Some(w) = game.winner_full() {
                game.outcome = Some(Outcome {
                    winner: Some(w),
                    reason: Reason::FourSides,
                });
            } else if !game.has_split_or_join(to_move) {
                game.outcome = Some(Outcome::draw(Reason::NoSplitOrJoin));
            }
        }
        if game.outcome.is_some() {
            game.state = State::Over;
        }
        game
    }

    /// This position between turns (or finished) with every rectangle moved by `map`, a
    /// symmetry of the board ([`crate::games::crumble::symmetry::image`]): pieces and the draw
    /// rule's window mapped, everything else kept. `None` within a turn.
    pub(crate) fn mapped(&self, map: &dyn Fn(Rect) -> Rect) -> Option<Crumble> {
        if !matches!(self.state, State::Choose | State::Over) {
            return None;
        }
        let b = &self.board;
        let pieces: Vec<Piece> = b
            .sorted_pieces()
            .into_iter()
            .map(|p| Piece {
                rect: map(p.rect),
                color: p.color,
            })
            .collect();
        let mut window = DrawWindow::default();
        for i in 0..self.window.len() {
            let t = self.window.get(i);
            let mut region: Vec<Rect> = t.region.iter().map(|&r| map(r)).collect();
            // A split lists its pieces along the run, first to last, as `do_split` does; a
            // mirror may reverse the run. Pieces side by side run along x, else along y.
            if region.len() > 1 {
                let along_x = region[0].right() <= region[1].x || region[1].right() <= region[0].x;
                if along_x {
                    region.sort_unstable_by_key(|r| r.x);
                } else {
                    region.sort_unstable_by_key(|r| r.y);
                }
            }
            let targets: Vec<Rect> = t.targets.iter().map(|&r| map(r)).collect();
            window.push(&TurnRecord { region, targets });
        }
        // A position's image resolves to nothing new and keeps the original's result.
        let board = Board::from_valid_pieces(b.board_size(), b.resolution(), &pieces);
        let mut g = Crumble::from_board(board, self.to_move, self.outcome);
        debug_assert_eq!(
            g.state, self.state,
            "an image is live or over as its original"
        );
        g.window = window;
        g.turns_played = self.turns_played;
        g.max_turns = self.max_turns;
        Some(g)
    }

    /// Sets the turn limit of rule 5.4 (`0` = none), counted from the start or loaded position.
    pub fn set_max_turns(&mut self, max_turns: u32) {
        self.max_turns = max_turns;
        if self.outcome.is_none()
            && self.state == State::Choose
            && max_turns > 0
            && self.turns_played >= max_turns
        {
            self.finish(Outcome::draw(Reason::TurnLimit));
        }
    }

    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }

    /// Restarts from the standard start, keeping the buffers (and the turn limit).
    pub fn reset_standard(&mut self) {
        self.board.reset_standard();
        self.to_move = Color::Black;
        self.state = State::Choose;
        self.fresh.clear();
        self.swapper = NO_SLOT;
        self.guard.clear();
        self.guard_bits.clear();
        self.turn.clear();
        self.window.clear();
        self.turns_played = 0;
        self.outcome = None;
    }

    /// Ends the game now with `outcome` (resignation, agreement, or any result from outside).
    pub fn finish(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
        self.state = State::Over;
    }

    #[inline]
    pub(crate) fn scratch(&mut self) -> &mut Scratch {
        &mut self.s
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }
    #[inline]
    pub fn grid_size(&self) -> u16 {
        self.board.grid_size()
    }
    /// Size of the action space, `8·G·G + 1`.
    #[inline]
    pub fn action_count(&self) -> u32 {
        action_count(self.board.grid_size())
    }
    /// The player whose turn it is (after the game ended: who would move next).
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    /// Who makes the next decision: the player to move, or `None` when the game is over.
    #[inline]
    pub fn decider(&self) -> Option<Color> {
        (self.state != State::Over).then_some(self.to_move)
    }
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    #[inline]
    pub fn is_over(&self) -> bool {
        self.state == State::Over
    }
    /// Turns completed since the start or the loaded position.
    #[inline]
    pub fn turns_played(&self) -> u32 {
        self.turns_played
    }
    pub fn phase(&self) -> Phase {
        match self.state {
            State::Choose => Phase::Choose,
            State::Extent { kind, start } => Phase::Extent {
                kind,
                start: self.board.rect(start),
            },
            State::Swap => Phase::Swap,
            State::Over => Phase::Over,
        }
    }
    /// The turn's fresh pieces (rule 4.1.6, 4.2.2), sorted by `(y, x)`; empty outside the swap.
    pub fn fresh_pieces(&self) -> Vec<Rect> {
        let mut v: Vec<Rect> = self.fresh.iter().map(|&s| self.board.rect(s)).collect();
        v.sort_unstable_by_key(|r| (r.y, r.x));
        v
    }
    /// The current swapper, once a first step has been taken.
    pub fn swapper_piece(&self) -> Option<Rect> {
        (self.swapper != NO_SLOT && self.state == State::Swap)
            .then(|| self.board.rect(self.swapper))
    }
    /// Is the game at the beginning of a turn (where complete moves start)?
    #[inline]
    pub fn at_turn_start(&self) -> bool {
        self.state == State::Choose
    }

    // ---------------------------------------------------------------- hash

    fn window_hash(&self) -> u64 {
        let mut h = self.window.len() as u64;
        for i in 0..self.window.len() {
            h = mix64(h ^ self.window.get(i).hash());
        }
        h
    }
    fn guard_hash(&self) -> u64 {
        // The set of states visited this turn: order-free, so XOR.
        self.guard.iter().fold(0, |h, e| h ^ mix64(e.key))
    }

    /// 64-bit hash of everything that affects the legal decisions or the outcome: pieces and
    /// colours, who decides, phase, pending choice, fresh pieces, swapper, the loop-guard states
    /// of the turn, the draw-rule window, the result, and the turn count when a limit is set.
    pub fn hash(&self) -> u64 {
        self.position_hash() ^ mix64(self.window_hash() ^ 0x77)
    }

    /// [`Crumble::hash`] without the draw-rule window: the same for every order of moves
    /// that reaches this position ([`GameState::position_hash`](crate::game::GameState::position_hash)).
    pub fn position_hash(&self) -> u64 {
        let mut h = self.board.hash() ^ mix64(0xC0 + self.to_move as u64);
        let phase = match self.state {
            State::Choose => 1,
            State::Extent { kind, start } => {
                let k = match kind {
                    ChoiceKind::Split(Cut::H) => 2,
                    ChoiceKind::Split(Cut::V) => 3,
                    ChoiceKind::Join => 4,
                };
                mix64(k ^ rect_key(self.board.rect(start)) << 3)
            }
            State::Swap => 5,
            State::Over => 6,
        };
        h ^= mix64(0xA1 ^ phase);
        if self.state == State::Swap {
            for &f in &self.fresh {
                h ^= mix64(0xF5E5 ^ rect_key(self.board.rect(f)));
            }
            if self.swapper != NO_SLOT {
                h ^= mix64(0x5a5a ^ rect_key(self.board.rect(self.swapper)));
            }
            h ^= mix64(self.guard_hash() ^ 0x6d);
        }
        if let Some(o) = self.outcome {
            h ^= mix64(((o.reason as u64) << 8) ^ o.winner.map_or(3, |c| c as u64));
        }
        if self.max_turns > 0 {
            h ^= mix64(0x7e7e ^ u64::from(self.turns_played) << 20 ^ u64::from(self.max_turns));
        }
        h
    }
}
