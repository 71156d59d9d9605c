//! Complete moves (a placement, a move of pieces, a pass or a swap) as [`CompleteMoves`]
//! defines them, with errors that say which rule refuses a move (checked play and the
//! sorted list of rule 11.6 come from the trait), and random play as rule 10.4 defines it.

use super::board::{Cells, MAX_POINTS, Point, is_color};
use super::game::{Action, Crumo, Pie, Previous};
use super::notation::{self, CrumoMove, NotationError};
use crate::game::moves::{MoveDecisions, complete_moves_notation};
use crate::game::{CompleteMoves, Decision, DecisionLog, GameState};
use rand::Rng;
use thiserror::Error;

/// Why a move cannot be played here: its text, the turn, or one of the rules below.
pub type MoveError = crate::game::moves::MoveError<NotationError, MoveRuleError>;

/// A move that breaks a rule here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveRuleError {
    #[error("on the first turn Black must place a stack; {what} is illegal (rule 8.1)")]
    FirstTurnPlaces { what: &'static str },
    #[error("swap is legal only on the second turn (rule 8.2)")]
    SwapNotNow,
    #[error("{point} is not empty (rule 5.1)")]
    Occupied { point: String },
    #[error(
        "no point is {height} steps from {point}: the longest line from it has {longest} (rule 5.2 a)"
    )]
    NoPointAtDistance {
        point: String,
        height: u32,
        longest: u32,
    },
    #[error(
        "a stack of height {height} on {point} would guard the enemy stack on {enemy} (rule 5.2 b)"
    )]
    GuardsEnemy {
        point: String,
        height: u32,
        enemy: String,
    },
    #[error(
        "a new stack on {point} would be dead: attack {attack} > defence {defence} (rule 5.2 c)"
    )]
    DeadOnArrival {
        point: String,
        attack: u32,
        defence: u32,
    },
    #[error("{point} holds no stack of the player to move (rule 6.1)")]
    NotOwnStack { point: String },
    #[error("{from}-{to} takes {pieces} pieces, but {from} holds {height} (rule 6.1)")]
    TooFewPieces {
        from: String,
        to: String,
        pieces: u32,
        height: u64,
    },
    #[error("{to} holds an enemy stack: a move may not end there (rule 6.1)")]
    LandsOnEnemy { to: String },
    #[error(
        "the opponent's last turn moved a complete stack, and this complete-stack move captures nothing (rule 6.5)"
    )]
    CompleteAfterComplete,
}

impl CompleteMoves for Crumo {
    // Moves read and written in rule 11's notation.
    complete_moves_notation!(CrumoMove, MoveError, notation, geometry);

    /// One decision, or `From` and `To` for a move of pieces; a move after the end is refused
    /// by the rules' own error (rule 11.8).
    fn resolve_at_turn_start(&self, mv: &CrumoMove) -> Result<MoveDecisions, MoveError> {
        let geo = self.geometry();
        let me = self.to_move();
        match *mv {
            CrumoMove::Pass if self.pie() == Pie::First => {
                Err(MoveError::Rules(MoveRuleError::FirstTurnPlaces {
                    what: "pass",
                }))
            }
            CrumoMove::Pass => Ok((self.encode(Action::Pass), None)),
            CrumoMove::Swap if self.pie() == Pie::First => {
                Err(MoveError::Rules(MoveRuleError::FirstTurnPlaces {
                    what: "swap",
                }))
            }
            CrumoMove::Swap if self.pie() != Pie::Choice => {
                Err(MoveError::Rules(MoveRuleError::SwapNotNow))
            }
            CrumoMove::Swap => Ok((self.encode(Action::Swap), None)),
            CrumoMove::Place { point, height } => {
                let name = || geo.name(point);
                if self.stack(point).is_some() {
                    return Err(MoveError::Rules(MoveRuleError::Occupied { point: name() }));
                }
                let longest = geo.longest_line(point);
                if height == 0 || height > longest {
                    return Err(MoveError::Rules(MoveRuleError::NoPointAtDistance {
                        point: name(),
                        height,
                        longest,
                    }));
                }
                if let Some(enemy) = (0..12)
                    .filter_map(|d| geo.step(point, d, height))
                    .find(|&t| is_color(self.cells[usize::from(t)], me.opposite()))
                {
                    return Err(MoveError::Rules(MoveRuleError::GuardsEnemy {
                        point: name(),
                        height,
                        enemy: geo.name(enemy),
                    }));
                }
                let g = self.guards(point);
                let (attack, defence) = (g[me.opposite() as usize], 1 + g[me as usize]);
                if attack > defence {
                    return Err(MoveError::Rules(MoveRuleError::DeadOnArrival {
                        point: name(),
                        attack,
                        defence,
                    }));
                }
                let d = self.encode(Action::Place { point, height });
                debug_assert!(self.is_legal(d));
                Ok((d, None))
            }
            CrumoMove::Move { from, to } => {
                if self.pie() == Pie::First {
                    return Err(MoveError::Rules(MoveRuleError::FirstTurnPlaces {
                        what: "a move",
                    }));
                }
                let Some(stack) = self.stack(from).filter(|s| s.color == me) else {
                    return Err(MoveError::Rules(MoveRuleError::NotOwnStack {
                        point: geo.name(from),
                    }));
                };
                let Some((_, k)) = geo.line_between(from, to) else {
                    return Err(MoveError::Notation(NotationError::NotALine {
                        from: geo.name(from),
                        to: geo.name(to),
                    }));
                };
                if u64::from(k) > stack.height {
                    return Err(MoveError::Rules(MoveRuleError::TooFewPieces {
                        from: geo.name(from),
                        to: geo.name(to),
                        pieces: k,
                        height: stack.height,
                    }));
                }
                if self.stack(to).is_some_and(|s| s.color != me) {
                    return Err(MoveError::Rules(MoveRuleError::LandsOnEnemy {
                        to: geo.name(to),
                    }));
                }
                if u64::from(k) == stack.height
                    && self.previous() == Previous::CompleteMove
                    && !self.complete_move_captures(from, to)
                {
                    return Err(MoveError::Rules(MoveRuleError::CompleteAfterComplete));
                }
                let first = self.encode(Action::From { point: from });
                let second = self.encode(Action::To { point: to });
                debug_assert!(self.is_legal(first) && self.target_ok(from, to));
                Ok((first, Some(second)))
            }
        }
    }

    /// One `Place`, `Pass` or `Swap`, or `From` then `To`.
    fn move_named_by(&self, decisions: &[Decision]) -> Option<CrumoMove> {
        Some(match *decisions {
            [d] => match self.decode(d)? {
                Action::Place { point, height } => CrumoMove::Place { point, height },
                Action::Pass => CrumoMove::Pass,
                Action::Swap => CrumoMove::Swap,
                Action::From { .. } | Action::To { .. } => return None,
            },
            [f, t] => match (self.decode(f)?, self.decode(t)?) {
                (Action::From { point: from }, Action::To { point: to }) => {
                    CrumoMove::Move { from, to }
                }
                _ => return None,
            },
            _ => return None,
        })
    }

    fn moves_beginning(&self, first: Decision, out: &mut Vec<CrumoMove>) {
        match self.decode(first) {
            Some(Action::Place { point, height }) => out.push(CrumoMove::Place { point, height }),
            Some(Action::From { point }) => {
                let mut targets = [0 as Point; 12 * 24];
                let n = self.sorted_targets(point, &mut targets);
                out.extend(
                    targets[..n]
                        .iter()
                        .map(|&to| CrumoMove::Move { from: point, to }),
                );
            }
            Some(Action::Pass) => out.push(CrumoMove::Pass),
            Some(Action::Swap) => out.push(CrumoMove::Swap),
            Some(Action::To { .. }) | None => unreachable!("a turn-start decision"),
        }
    }
}

impl Crumo {
    /// The legal targets of the player's stack on `s`, ascending, into `out` (at most 12
    /// directions × 24 steps); returns how many.
    fn sorted_targets(&self, s: Point, out: &mut [Point; 12 * 24]) -> usize {
        let mut n = 0;
        self.for_each_target(s, |t| {
            out[n] = t;
            n += 1;
            true
        });
        out[..n].sort_unstable();
        n
    }

    /// Random play (rule 10.4). At a turn start: on the choice turn, swap with probability
    /// 1/2; otherwise, when pass is legal, pass with probability 1/10; otherwise a uniform
    /// choice among the complete moves other than pass (swap among them on the choice
    /// turn), or pass if there is none. In the middle of a turn: a uniform legal target.
    ///
    /// The candidates are drawn in decision order (placements by height then point, moves
    /// by source then target, then swap), which like rule 10.4's byte order makes a seed
    /// give one game, and needs no text or allocation. Returns the decisions made.
    pub(crate) fn play_at_random<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        mut path: DecisionLog,
    ) -> u32 {
        let mut play = |game: &mut Crumo, d: Decision| {
            game.apply_unchecked(d);
            if let Some(p) = path.as_deref_mut() {
                p.push(d);
            }
        };
        let mut targets = [0 as Point; 12 * 24];
        if let Some(s) = self.pending_source() {
            let n = self.sorted_targets(s, &mut targets);
            debug_assert!(n > 0, "a chosen source has a target");
            let t = targets[rng.random_range(0..n)];
            play(self, self.encode(Action::To { point: t }));
            return 1;
        }
        if self.pie() == Pie::Choice && rng.random_bool(0.5) {
            play(self, self.encode(Action::Swap));
            return 1;
        }
        if self.pie() != Pie::First && rng.random_bool(0.1) {
            play(self, self.encode(Action::Pass));
            return 1;
        }
        let me = self.to_move();
        let points = self.points();
        let table = self.view().guard_table();
        let mut masks = [0u32; MAX_POINTS];
        let placements = self.placement_masks(me, &table, &mut masks);
        let mut moves = [0u16; MAX_POINTS];
        let mut move_count = 0u64;
        if self.pie() != Pie::First {
            let view = self.view();
            for (s, m) in moves[..points].iter_mut().enumerate() {
                if is_color(view.cell(s as Point), me) {
                    let mut n = 0;
                    self.for_each_target_in(s as Point, &table, |_| {
                        n += 1;
                        true
                    });
                    *m = n;
                    move_count += u64::from(*m);
                }
            }
        }
        let swap = u64::from(self.pie() == Pie::Choice);
        let total = placements + move_count + swap;
        if total == 0 {
            play(self, self.encode(Action::Pass));
            return 1;
        }
        let mut pick = rng.random_range(0..total);
        if pick < placements {
            for h in 1..=self.max_height() {
                for (p, &m) in masks[..points].iter().enumerate() {
                    if m & (1 << (h - 1)) != 0 {
                        if pick == 0 {
                            let point = p as Point;
                            play(self, self.encode(Action::Place { point, height: h }));
                            return 1;
                        }
                        pick -= 1;
                    }
                }
            }
            unreachable!("the pick is below the number of placements");
        }
        pick -= placements;
        if pick < move_count {
            for (s, &m) in moves[..points].iter().enumerate() {
                if pick < u64::from(m) {
                    let s = s as Point;
                    self.sorted_targets(s, &mut targets);
                    let t = targets[pick as usize];
                    play(self, self.encode(Action::From { point: s }));
                    play(self, self.encode(Action::To { point: t }));
                    return 2;
                }
                pick -= u64::from(m);
            }
            unreachable!("the pick is below the number of moves");
        }
        play(self, self.encode(Action::Swap));
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_turns_decisions_read_back_as_its_move() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut game = Crumo::standard(4).unwrap();
        let mut moved = false;
        while !game.is_over() {
            let before = game.clone();
            let mv = game.play_random_move(&mut rng).unwrap();
            let (first, second) = before.resolve(&mv).unwrap();
            let path: Vec<Decision> = std::iter::once(first).chain(second).collect();
            assert_eq!(before.move_of_turn(&path), Some(mv), "{mv:?}");
            if let [f, t] = path[..] {
                moved = true;
                assert_eq!(before.move_of_turn(&[t, f]), None);
                assert_eq!(before.move_of_turn(&[f]), None);
            }
        }
        assert!(moved, "the game moved no pieces: try another seed");
        assert_eq!(game.move_of_turn(&[game.encode(Action::Pass)]), None);
    }
}
