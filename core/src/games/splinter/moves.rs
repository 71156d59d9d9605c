//! Complete moves (a slide and, when the splinter leaves equal largest groups, the group that
//! stays) as [`CompleteMoves`] defines them (checked play and the list of rule 9.5 come from
//! the trait), and random play as rule 8.8 defines it.

use super::board::{Dir, MAX_PIECES, Square};
use super::game::{Action, Splinter};
use super::notation::{self, NotationError};
use crate::game::moves::{MoveDecisions, complete_moves_notation};
use crate::game::{CompleteMoves, Decision, DecisionLog, GameState};
use rand::Rng;
use thiserror::Error;

/// One complete move: the piece on `from` slides in `dir`; `keep` names the group that stays
/// when the move leaves equal largest groups (any square of it after the push; the
/// canonical form names its anchor).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SplinterMove {
    pub from: Square,
    pub dir: Dir,
    pub keep: Option<Square>,
}

/// Why a move cannot be played here: its text, the turn, or one of the rules below.
pub type MoveError = crate::game::moves::MoveError<NotationError, MoveRuleError>;

/// A move that breaks a rule here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveRuleError {
    #[error("{square} holds no piece of the player to move")]
    NotOwnPiece { square: String },
    #[error("the destination is off the board")]
    OffBoard,
    #[error(
        "the no-return rule forbids this move: it would put a piece the opponent's last move moved back where it stood"
    )]
    NoReturn,
    #[error("the move leaves equal largest groups: name the group that stays with /SQUARE")]
    ChoiceMissing,
    #[error("the move leaves a single largest group: no /SQUARE may be given")]
    ChoiceNotAllowed,
    #[error("after the push, {square} holds no piece of one of the equal largest groups")]
    ChoiceNotLargest { square: String },
}

/// Candidate moves at a turn start: at most 15 pieces × 8 directions.
const MAX_CANDIDATES: usize = 8 * MAX_PIECES;

impl CompleteMoves for Splinter {
    // Moves read and written in rule 9's notation: a canonical move as its canonical text
    // (see [`Splinter::canonical`]).
    complete_moves_notation!(SplinterMove, MoveError, notation, board);

    /// Its `Move`, then its `Keep` if the move leaves equal largest groups.
    fn resolve_at_turn_start(&self, mv: &SplinterMove) -> Result<MoveDecisions, MoveError> {
        let b = self.board();
        if usize::from(mv.from) >= b.square_count()
            || b.get(mv.from).is_none_or(|p| p.color != self.to_move())
        {
            return Err(MoveError::Rules(MoveRuleError::NotOwnPiece {
                square: notation::square_name(b, mv.from),
            }));
        }
        if b.step(mv.from, mv.dir).is_none() {
            return Err(MoveError::Rules(MoveRuleError::OffBoard));
        }
        if self.no_return_forbids(mv.from, mv.dir) {
            return Err(MoveError::Rules(MoveRuleError::NoReturn));
        }
        let first = self.encode(Action::Move {
            from: mv.from,
            dir: mv.dir,
        });
        let mut after = self.clone();
        after.apply_unchecked(first);
        match (after.is_pending(), mv.keep) {
            (false, None) => Ok((first, None)),
            (false, Some(_)) => Err(MoveError::Rules(MoveRuleError::ChoiceNotAllowed)),
            (true, None) => Err(MoveError::Rules(MoveRuleError::ChoiceMissing)),
            (true, Some(square)) => {
                let groups = after.board().groups();
                let in_largest = usize::from(square) < after.board().square_count()
                    && groups.is_largest(groups.label[usize::from(square)]);
                if !in_largest {
                    return Err(MoveError::Rules(MoveRuleError::ChoiceNotLargest {
                        square: notation::square_name(b, square),
                    }));
                }
                let anchor = groups.anchor[usize::from(groups.label[usize::from(square)])];
                Ok((first, Some(self.encode(Action::Keep { square: anchor }))))
            }
        }
    }

    /// Every legal complete move that begins with the slide `first`, in canonical form (a
    /// move that leaves equal largest groups once per group that may stay).
    fn moves_beginning(&self, first: Decision, out: &mut Vec<SplinterMove>) {
        let Some(Action::Move { from, dir }) = self.decode(first) else {
            return;
        };
        let mut after = self.clone();
        after.apply_unchecked(first);
        if !after.is_pending() {
            out.push(SplinterMove {
                from,
                dir,
                keep: None,
            });
            return;
        }
        let mut keeps = Vec::new();
        after.legal_decisions_into(&mut keeps);
        for &k in &keeps {
            if let Some(Action::Keep { square }) = after.decode(k) {
                out.push(SplinterMove {
                    from,
                    dir,
                    keep: Some(square),
                });
            }
        }
    }

    /// The slide, and the group that stays when the slide leaves equal largest groups.
    fn move_named_by(&self, turn: &[Decision]) -> Option<SplinterMove> {
        let (Some(Action::Move { from, dir }), rest) = (self.decode(*turn.first()?), &turn[1..])
        else {
            return None;
        };
        let keep = match rest {
            [] => None,
            [k] => {
                let mut after = self.clone();
                after.apply(turn[0]).ok()?;
                match after.decode(*k)? {
                    Action::Keep { square } => Some(square),
                    _ => return None,
                }
            }
            _ => return None,
        };
        Some(SplinterMove { from, dir, keep })
    }
}

impl Splinter {
    /// The canonical form of a legal move: the kept group named by its anchor.
    pub fn canonical(&self, mv: &SplinterMove) -> Result<SplinterMove, MoveError> {
        let (_, keep) = self.resolve(mv)?;
        Ok(SplinterMove {
            keep: keep.map(|d| match self.decode(d) {
                Some(Action::Keep { square }) => square,
                _ => unreachable!("a keep decision"),
            }),
            ..*mv
        })
    }

    /// How many complete moves the `Move` decision `(from, dir)` stands for: the number of
    /// equal largest groups it leaves, or 1.
    fn choices_of(&self, from: Square, dir: Dir) -> u8 {
        // Most slides split nothing; the local test spares the flood fill for them.
        if self.board().push_keeps_one_group(from, dir) {
            debug_assert!({
                let mut board = self.board().clone();
                board.push(from, dir).is_some() && board.groups().count == 1
            });
            return 1;
        }
        let mut board = self.board().clone();
        if board.push(from, dir).is_none() {
            return 1;
        }
        let (_, ties) = board.groups().largest();
        ties.max(1)
    }

    /// Plays the rest of the turn at random (rule 8.8): at a turn start, uniformly among the
    /// complete legal moves; in the middle of a turn, uniformly among the groups that may
    /// stay. Writes the decisions into `path` when given. Returns the decisions made.
    pub(crate) fn play_at_random<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        mut path: DecisionLog,
    ) -> u32 {
        let mut made = 0;
        if !self.is_pending() {
            // Weighted by the choices each slide stands for, so each complete move is as
            // likely as any other; no allocation (fixed arrays on the stack).
            let mut candidates = [(0 as Square, Dir::N, 0u8); MAX_CANDIDATES];
            let mut count = 0;
            let mut total = 0u32;
            let me = self.to_move();
            for dir in Dir::ALL {
                for (from, p) in self.board().pieces() {
                    if p.color == me
                        && self.board().step(from, dir).is_some()
                        && !self.no_return_forbids(from, dir)
                        && count < MAX_CANDIDATES
                    {
                        let w = self.choices_of(from, dir);
                        candidates[count] = (from, dir, w);
                        count += 1;
                        total += u32::from(w);
                    }
                }
            }
            debug_assert!(total > 0, "a live position has a legal move (rule 8.2)");
            let mut pick = rng.random_range(0..total);
            let mut chosen = candidates[0];
            for &c in &candidates[..count] {
                if pick < u32::from(c.2) {
                    chosen = c;
                    break;
                }
                pick -= u32::from(c.2);
            }
            let d = self.encode(Action::Move {
                from: chosen.0,
                dir: chosen.1,
            });
            self.apply_unchecked(d);
            made += 1;
            if let Some(p) = path.as_deref_mut() {
                p.push(d);
            }
            if !self.is_pending() {
                return made;
            }
            // The `pick`-th choice of this slide: the remaining draw picks the group.
            return made + self.keep_at(pick as usize, path);
        }
        let groups = self.board().groups();
        let (_, ties) = groups.largest();
        let pick = rng.random_range(0..usize::from(ties));
        made + self.keep_at(pick, path)
    }

    /// Keeps the `index`-th of the equal largest groups (in anchor order).
    fn keep_at(&mut self, index: usize, path: Option<&mut Vec<Decision>>) -> u32 {
        let groups = self.board().groups();
        let (max, _) = groups.largest();
        let anchor = (1..=usize::from(groups.count))
            .filter(|&g| groups.size[g] == max)
            .nth(index)
            .map(|g| groups.anchor[g])
            .expect("index below the number of equal largest groups");
        let d = self.encode(Action::Keep { square: anchor });
        self.apply_unchecked(d);
        if let Some(p) = path {
            p.push(d);
        }
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn random_moves_are_legal_canonical_and_the_random_turns() {
        let mut game = Splinter::standard(9, 10).unwrap();
        game.set_turn_limit(120);
        let mut twin = game.clone();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut twin_rng = rng.clone();
        let mut moves = 0;
        while let Some(mv) = game.play_random_move(&mut rng) {
            let text = notation::move_text(twin.board(), &mv);
            assert!(twin.legal_move_texts().contains(&text), "{text}");
            let mut replayed = twin.clone();
            replayed.play_text(&text).unwrap();
            twin.random_turn(&mut twin_rng, None);
            assert_eq!(twin, replayed);
            assert_eq!(game, twin);
            moves += 1;
        }
        assert!(game.is_over() && moves > 0);
        let over = game.clone();
        assert!(game.play_random_move(&mut rng).is_none());
        assert_eq!(game, over);
    }
}
