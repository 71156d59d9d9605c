//! A Splinter game: the position of rule 10 (board, player to move, no-return state, result),
//! the turn of rule 3 as one or two atomic decisions, knockouts and the end (rules 7–8).
//!
//! # The action space (rule 12.2)
//!
//! With `N = W · H` squares (index `y · W + x`), a decision is one integer below `9 · N`:
//!
//! | decisions | meaning |
//! | --- | --- |
//! | `d · N + s`, `d` in `0..8` (rule 2.3's order `n ne e se s sw w nw`) | `Move`: slide the piece on `s` in direction `d` |
//! | `8 · N + s` | `Keep`: after a move that left equal largest groups, the group anchored on `s` stays |
//!
//! A turn is a `Move`, followed by a `Keep` exactly when the move leaves equal largest groups
//! (rule 6.4). Between the two the state is *pending*: the board after the push, the mover
//! still to decide, no `last_move` (rule 12.2); it has no JSON form and no notation.

use super::board::{Board, Dir, MAX_SQUARES, PieceType, Push, Square, SquareSet, size_ok};
use crate::game::Color;
use crate::game::hash::mix64;
use crate::game::named::named_enum;
use crate::game::{Decision, TurnCount};

mod interface;

named_enum! {
    /// Why a game ended (rule 10.1's reasons).
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    pub enum Reason {
        Knockouts,
        MoreKnockouts,
        MorePieces,
        Resignation,
        Tie,
        TurnLimit,
        Agreement,
    }
}

impl Reason {
    /// Does this reason name a winner (rule 10.1)? The others are draws.
    pub fn has_winner(self) -> bool {
        matches!(
            self,
            Reason::Knockouts | Reason::MoreKnockouts | Reason::MorePieces | Reason::Resignation
        )
    }
}

/// A finished game's result.
pub type Outcome = crate::game::outcome::Outcome<Reason>;

/// The no-return state (rule 5.2): the last move's direction `D` and the squares `M` on which
/// the pieces it moved stand now (never empty).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LastMove {
    pub dir: Dir,
    pub moved: SquareSet,
}

/// A move whose splinter left equal largest groups, waiting for the mover's `Keep`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Pending {
    push: Push,
}

impl Pending {
    /// Only what the rest of the turn uses: the piece pushed off is gone and forgotten, so
    /// two pushes that leave the same board are the same pending state.
    fn new(push: Push) -> Pending {
        Pending {
            push: Push {
                off_board: None,
                ..push
            },
        }
    }
}

/// One Splinter game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Splinter {
    board: Board,
    to_move: Color,
    last_move: Option<LastMove>,
    pending: Option<Pending>,
    result: Option<Outcome>,
    turns: TurnCount,
}

/// A decoded decision.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    Move { from: Square, dir: Dir },
    Keep { square: Square },
}

impl Splinter {
    /// The standard start (rules 2.5–2.7) on a `W × H` board, or `None` for a size outside
    /// rule 2.1.
    pub fn standard(width: u8, height: u8) -> Option<Splinter> {
        size_ok(width, height)
            .then(|| Splinter::from_parts(Board::standard(width, height), Color::Black, None, None))
    }

    /// A position between turns. Callers validate the parts (position loading does); a `None`
    /// result is recomputed from the knockouts (rule 10.3).
    pub(crate) fn from_parts(
        board: Board,
        to_move: Color,
        last_move: Option<LastMove>,
        result: Option<Outcome>,
    ) -> Splinter {
        let mut g = Splinter {
            board,
            to_move,
            last_move,
            pending: None,
            result,
            turns: TurnCount::default(),
        };
        if g.result.is_none() {
            g.result = g.judge();
        }
        g
    }

    /// This game with other pieces, player to move, no-return state and result, keeping the
    /// turn count and limit (for the symmetries of rule 11).
    pub(crate) fn rebuilt(
        &self,
        board: Board,
        to_move: Color,
        last_move: Option<LastMove>,
        result: Option<Outcome>,
    ) -> Splinter {
        Splinter {
            board,
            to_move,
            last_move,
            pending: None,
            result,
            turns: self.turns,
        }
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    #[inline]
    pub fn last_move(&self) -> Option<&LastMove> {
        self.last_move.as_ref()
    }
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.result
    }
    /// Is the mover's `Keep` awaited (the middle of a turn)?
    #[inline]
    pub fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// A player's knockouts (rule 7.1): the types of which the opponent has no piece left.
    pub fn knockouts(&self, player: Color) -> u8 {
        let counts = self.board.type_counts();
        knockouts_from(&counts, player)
    }

    // ------------------------------------------------------------------- decisions

    #[inline]
    fn squares(&self) -> u32 {
        self.board.square_count() as u32
    }

    /// The decision of a `Move` or `Keep`.
    #[inline]
    pub fn encode(&self, action: Action) -> Decision {
        match action {
            Action::Move { from, dir } => Decision(dir as u32 * self.squares() + u32::from(from)),
            Action::Keep { square } => Decision(8 * self.squares() + u32::from(square)),
        }
    }

    /// The action of a decision, if it is inside the action space.
    #[inline]
    pub fn decode(&self, d: Decision) -> Option<Action> {
        let n = self.squares();
        let (plane, s) = (d.0 / n, (d.0 % n) as Square);
        match plane {
            0..8 => Some(Action::Move {
                from: s,
                dir: Dir::ALL[plane as usize],
            }),
            8 => Some(Action::Keep { square: s }),
            _ => None,
        }
    }

    /// Does rule 5.2 forbid the move `(from, dir)`? `dir` is the opposite of the last move's
    /// direction and `from` or a square of the run is in `M`.
    #[inline]
    pub fn no_return_forbids(&self, from: Square, dir: Dir) -> bool {
        let Some(last) = &self.last_move else {
            return false;
        };
        if dir != last.dir.opposite() {
            return false;
        }
        let mut hit = last.moved.contains(from);
        self.board
            .run_len(from, dir, |s| hit |= last.moved.contains(s));
        hit
    }

    /// Is the move `(from, dir)` legal at this turn start (rules 4.1, 5)?
    #[inline]
    pub fn is_legal_move(&self, from: Square, dir: Dir) -> bool {
        self.result.is_none()
            && self.pending.is_none()
            && usize::from(from) < self.board.square_count()
            && self
                .board
                .get(from)
                .is_some_and(|p| p.color == self.to_move)
            && self.board.step(from, dir).is_some()
            && !self.no_return_forbids(from, dir)
    }

    /// Is `square` the anchor of one of the equal largest groups awaiting the mover's choice?
    fn is_legal_keep(&self, square: Square) -> bool {
        if self.result.is_some() || self.pending.is_none() {
            return false;
        }
        if usize::from(square) >= self.board.square_count() || !self.board.is_occupied(square) {
            return false;
        }
        let groups = self.board.groups();
        let g = groups.label[usize::from(square)];
        groups.is_largest(g) && groups.anchor[usize::from(g)] == square
    }

    pub fn is_legal(&self, d: Decision) -> bool {
        match self.decode(d) {
            Some(Action::Move { from, dir }) => self.is_legal_move(from, dir),
            Some(Action::Keep { square }) => self.is_legal_keep(square),
            None => false,
        }
    }

    /// The legal decisions, ascending, into `out` (cleared first), without the `&mut` the
    /// game interface allows: the lookahead reads a shared state.
    pub(crate) fn decisions_into(&self, out: &mut Vec<Decision>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        if self.pending.is_some() {
            let groups = self.board.groups();
            let (max, _) = groups.largest();
            // Labels follow anchors, so the anchors come out ascending.
            for g in 1..=usize::from(groups.count) {
                if groups.size[g] == max {
                    out.push(self.encode(Action::Keep {
                        square: groups.anchor[g],
                    }));
                }
            }
            return;
        }
        for dir in Dir::ALL {
            for (from, p) in self.board.pieces() {
                if p.color == self.to_move
                    && self.board.step(from, dir).is_some()
                    && !self.no_return_forbids(from, dir)
                {
                    out.push(self.encode(Action::Move { from, dir }));
                }
            }
        }
    }

    /// The end of a turn after its splinter (rules 3.3, 8.6): knockouts and result, the
    /// no-return state, the player to move, the turn limit.
    fn finish_turn(&mut self, push: Push) {
        self.pending = None;
        self.result = self.judge();
        let mut moved = SquareSet::default();
        let mut at = Some(push.to);
        for _ in 0..push.moved {
            let Some(s) = at else { break };
            if self.board.is_occupied(s) {
                moved.insert(s);
            }
            at = self.board.step(s, push.dir);
        }
        self.last_move = (!moved.is_empty()).then_some(LastMove {
            dir: push.dir,
            moved,
        });
        self.to_move = self.to_move.opposite();
        self.turns.played += 1;
        self.check_turn_limit();
    }

    /// Ends a live game at a turn start by a result outside the moves (rule 8.5: a
    /// resignation or an agreed draw, or a turn limit a record states). Returns `false`, with
    /// the game unchanged, when the game is already over or in the middle of a turn.
    pub fn finish(&mut self, outcome: Outcome) -> bool {
        if self.result.is_some() || self.pending.is_some() {
            return false;
        }
        self.result = Some(outcome);
        true
    }

    /// Ends a live game between turns by the turn limit once it is reached (rule 8.4).
    fn check_turn_limit(&mut self) {
        if self.result.is_none() && self.pending.is_none() && self.turns.limit_reached() {
            self.result = Some(Outcome {
                winner: None,
                reason: Reason::TurnLimit,
            });
        }
    }

    /// Rule 8.1 on the current board.
    fn judge(&self) -> Option<Outcome> {
        let counts = self.board.type_counts();
        let kb = knockouts_from(&counts, Color::Black);
        let kw = knockouts_from(&counts, Color::White);
        let win = |c: Color, reason| {
            Some(Outcome {
                winner: Some(c),
                reason,
            })
        };
        match (kb >= 2, kw >= 2) {
            (false, false) => None,
            (true, false) => win(Color::Black, Reason::Knockouts),
            (false, true) => win(Color::White, Reason::Knockouts),
            (true, true) if kb != kw => win(
                if kb > kw { Color::Black } else { Color::White },
                Reason::MoreKnockouts,
            ),
            (true, true) => {
                let pb: u32 = counts[0].iter().map(|&c| u32::from(c)).sum();
                let pw: u32 = counts[1].iter().map(|&c| u32::from(c)).sum();
                if pb == pw {
                    Some(Outcome {
                        winner: None,
                        reason: Reason::Tie,
                    })
                } else {
                    win(
                        if pb > pw { Color::Black } else { Color::White },
                        Reason::MorePieces,
                    )
                }
            }
        }
    }

    /// 64-bit hash of everything equality compares.
    pub fn hash(&self) -> u64 {
        let mut h = mix64(
            u64::from(self.board.width())
                | u64::from(self.board.height()) << 8
                | (self.to_move as u64) << 16
                | u64::from(self.turns.played) << 24,
        );
        for (s, &c) in self.board.cells().iter().enumerate() {
            if c != 0 {
                h ^= mix64((s as u64) << 8 | u64::from(c));
            }
        }
        if let Some(last) = &self.last_move {
            h ^= mix64(0x1a57_0000_0000 | last.dir as u64);
            for (i, &w) in last.moved.words().iter().enumerate() {
                if w != 0 {
                    h ^= mix64(w ^ (i as u64 + 1) << 56 ^ 0x3c3c);
                }
            }
        }
        if let Some(p) = &self.pending {
            let push = &p.push;
            h ^= mix64(
                0x9e4d_0000_0000_0000
                    | u64::from(push.to)
                    | (push.dir as u64) << 16
                    | u64::from(push.moved) << 24,
            );
        }
        if let Some(o) = self.result {
            h ^= mix64(
                0x4e5d_0000_0000 | o.reason as u64 | o.winner.map_or(0, |c| 1 + c as u64) << 8,
            );
        }
        h ^ mix64(u64::from(self.turns.limit) ^ 0x7e7e_0000_0000_0000)
    }

    /// Number of squares of a board: bounds per-square arrays of callers.
    pub const MAX_SQUARES: usize = MAX_SQUARES;
}
/// A player's knockouts from the type counts: the opponent's types with no piece left.
pub(crate) fn knockouts_from(counts: &[[u8; 4]; 2], player: Color) -> u8 {
    let opponent = player.opposite() as usize;
    PieceType::ALL
        .iter()
        .filter(|&&t| counts[opponent][t as usize] == 0)
        .count() as u8
}
