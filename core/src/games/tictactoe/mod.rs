//! Tic-tac-toe on the game interface: X ([`Player::First`]) and O take turns of one decision,
//! placing a mark on an empty cell; three in a row wins, a full board is a draw.
//!
//! The action space is the nine cells, `row · 3 + column`, row 0 at the top. Random play
//! picks an empty cell uniformly. A start is nine characters, row by row, of `x`, `o` and
//! `.` (`"........."` is the empty board); the player to move follows from the counts.

pub mod text;

use crate::game::Decision;
use crate::game::hash::mix64;
use crate::game::progress::{Progress, progress_methods};
use crate::game::state::{DecisionLog, GameResult, GameState, Player};
// The square's maps are written once, with Crumble's geometry.
use crate::games::crumble::Sym;
use rand::Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

const CELLS: usize = 9;

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A tic-tac-toe game in progress.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TicTacToe {
    cells: [Option<Player>; CELLS],
    progress: Progress,
}

/// Where a tic-tac-toe game starts: nine characters, row by row from the top, of `x`, `o`
/// and `.`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TicTacToeStart {
    pub cells: String,
}

impl Default for TicTacToeStart {
    fn default() -> Self {
        TicTacToeStart {
            cells: ".........".into(),
        }
    }
}

/// Why a [`TicTacToeStart`] is not a position of the game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TicTacToeStartError {
    #[error("{0} cells given; expected 9 (three rows of x, o or .)")]
    Length(usize),
    #[error("cell {index} is {found:?}; expected x, o or .")]
    BadCell { index: usize, found: char },
    #[error("{x} x and {o} o: x moves first, so x has as many marks as o or one more")]
    Counts { x: usize, o: usize },
    #[error("{winner} has three in a row, but the counts say {mover} moved after that")]
    PlayedOn { winner: char, mover: char },
}

/// The image of cell `i` (row by row from the top) under `sym`, cell `i` being the unit
/// cell `(i mod 3, i div 3)` of a 3 × 3 grid.
pub fn map_cell(sym: Sym, i: usize) -> usize {
    let (x, y) = sym.cell((i % 3) as u16, (i / 3) as u16, 3);
    usize::from(y) * 3 + usize::from(x)
}

fn has_line(cells: &[Option<Player>; CELLS], p: Player) -> bool {
    LINES
        .iter()
        .any(|line| line.iter().all(|&i| cells[i] == Some(p)))
}

impl TicTacToe {
    /// The mark on cell `row · 3 + column`.
    pub fn cell(&self, index: usize) -> Option<Player> {
        self.cells[index]
    }

    /// The board as a start text (`x`, `o`, `.`, row by row).
    pub fn cells_text(&self) -> String {
        self.cells
            .iter()
            .map(|c| match c {
                Some(Player::First) => 'x',
                Some(Player::Second) => 'o',
                None => '.',
            })
            .collect()
    }

    fn is_empty_cell(&self, d: Decision) -> bool {
        (d.0 as usize) < CELLS && self.cells[d.0 as usize].is_none()
    }

    fn random_cell<R: Rng + ?Sized>(&self, rng: &mut R) -> Decision {
        let empty = self.cells.iter().filter(|c| c.is_none()).count();
        let k = rng.random_range(0..empty);
        let index = (0..CELLS)
            .filter(|&i| self.cells[i].is_none())
            .nth(k)
            .expect("k counts empty cells");
        Decision(index as u32)
    }
}

impl GameState for TicTacToe {
    const NAME: &'static str = "tictactoe";
    type Start = TicTacToeStart;
    type StartError = TicTacToeStartError;

    fn from_start(start: &TicTacToeStart) -> Result<TicTacToe, TicTacToeStartError> {
        let chars: Vec<char> = start.cells.chars().collect();
        if chars.len() != CELLS {
            return Err(TicTacToeStartError::Length(chars.len()));
        }
        let mut cells = [None; CELLS];
        for (index, (&found, cell)) in chars.iter().zip(&mut cells).enumerate() {
            *cell = match found {
                'x' => Some(Player::First),
                'o' => Some(Player::Second),
                '.' => None,
                _ => return Err(TicTacToeStartError::BadCell { index, found }),
            };
        }
        let count = |p| cells.iter().filter(|&&c| c == Some(p)).count();
        let (x, o) = (count(Player::First), count(Player::Second));
        if x != o && x != o + 1 {
            return Err(TicTacToeStartError::Counts { x, o });
        }
        let to_move = if x == o {
            Player::First
        } else {
            Player::Second
        };
        // The player with a line made the last move, so the other one is to move.
        let result = if has_line(&cells, Player::First) {
            if to_move != Player::Second {
                return Err(TicTacToeStartError::PlayedOn {
                    winner: 'x',
                    mover: 'o',
                });
            }
            Some(GameResult::Win(Player::First))
        } else if has_line(&cells, Player::Second) {
            if to_move != Player::First {
                return Err(TicTacToeStartError::PlayedOn {
                    winner: 'o',
                    mover: 'x',
                });
            }
            Some(GameResult::Win(Player::Second))
        } else if x + o == CELLS {
            Some(GameResult::Draw)
        } else {
            None
        };
        Ok(TicTacToe {
            cells,
            progress: Progress::new(to_move, result),
        })
    }

    fn to_start(&self) -> TicTacToeStart {
        TicTacToeStart {
            cells: self.cells_text(),
        }
    }

    type WinCheck = ();
    type ForcingCheck = ();

    #[inline]
    fn action_count(&self) -> u32 {
        CELLS as u32
    }

    // Who moves, the result, the turn clock.
    progress_methods!();

    fn legal_decisions_into(&mut self, out: &mut Vec<Decision>) {
        out.clear();
        if self.progress.result.is_none() {
            out.extend(
                (0..CELLS as u32)
                    .map(Decision)
                    .filter(|&d| self.is_empty_cell(d)),
            );
        }
    }

    fn refusal(&mut self, decision: Decision) -> Option<String> {
        (!self.is_empty_cell(decision)).then(|| format!("cell {} is taken", decision.0))
    }

    fn apply_unchecked(&mut self, decision: Decision) {
        debug_assert!(
            self.progress.result.is_none() && self.is_empty_cell(decision),
            "illegal {decision:?}"
        );
        let mover = self.progress.to_move;
        self.cells[decision.0 as usize] = Some(mover);
        let result = if has_line(&self.cells, mover) {
            Some(GameResult::Win(mover))
        } else if self.cells.iter().all(Option::is_some) {
            Some(GameResult::Draw)
        } else {
            None
        };
        self.progress.end_turn(result);
    }

    fn state_hash(&self) -> u64 {
        // Cells in base 3, then the rest of what equality compares.
        let board = self.cells.iter().fold(0u64, |h, c| {
            3 * h
                + match c {
                    None => 0,
                    Some(Player::First) => 1,
                    Some(Player::Second) => 2,
                }
        });
        let result = match self.progress.result {
            None => 0u64,
            Some(GameResult::Draw) => 1,
            Some(GameResult::Win(p)) => 2 + p.index() as u64,
        };
        let key = board | (self.progress.to_move.index() as u64) << 15 | result << 16;
        let turns = self.progress.turns;
        mix64(key ^ u64::from(turns.played) << 20)
            ^ mix64(u64::from(turns.limit) ^ 0x7e7e_0000_0000_0000)
    }

    #[inline]
    fn at_turn_start(&self) -> bool {
        self.progress.result.is_none() // every turn is one decision
    }

    /// The square's 8 maps, numbered as Crumble's [`Sym`] (so the encoder maps its planes
    /// with the same numbers).
    fn symmetries(&self) -> Vec<usize> {
        (0..Sym::ALL.len()).collect()
    }

    fn symmetry_image(&self, sym: usize) -> Option<TicTacToe> {
        let sym = Sym::from_index(sym)?;
        let mut out = self.clone();
        for i in 0..CELLS {
            out.cells[map_cell(sym, i)] = self.cells[i];
        }
        Some(out)
    }

    fn symmetry_turn(&self, sym: usize, turn: &[Decision]) -> Option<Vec<Decision>> {
        let sym = Sym::from_index(sym)?;
        crate::game::symmetry::map_turn_by_decisions(self, turn, |_, d| {
            Some(Decision(map_cell(sym, d.0 as usize) as u32))
        })
    }

    /// Uniformly among the empty cells.
    fn random_turn<R: Rng + ?Sized>(&mut self, rng: &mut R, log: DecisionLog) -> u32 {
        if self.progress.result.is_some() {
            return 0;
        }
        let d = self.random_cell(rng);
        self.apply_unchecked(d);
        if let Some(p) = log {
            p.push(d);
        }
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::DecisionError;
    use crate::game::negamax::Negamax;

    fn at(cells: &str) -> TicTacToe {
        TicTacToe::from_start(&TicTacToeStart {
            cells: cells.into(),
        })
        .unwrap()
    }

    #[test]
    fn three_in_a_row_wins_and_a_full_board_draws() {
        let mut g = at("xx.oo....");
        assert_eq!(g.decider(), Some(Player::First));
        g.apply(Decision(2)).unwrap();
        assert_eq!(g.game_result(), Some(GameResult::Win(Player::First)));
        assert_eq!(g.apply(Decision(5)), Err(DecisionError::GameOver));

        let mut g = at("xoxxoo.x.");
        assert_eq!(g.decider(), Some(Player::Second));
        g.apply(Decision(6)).unwrap(); // o
        assert_eq!(g.game_result(), None);
        g.apply(Decision(8)).unwrap(); // x fills the board with no line
        assert_eq!(g.game_result(), Some(GameResult::Draw));
        assert_eq!(g.cells_text(), "xoxxoooxx");
    }

    #[test]
    fn taken_and_out_of_range_cells_are_refused() {
        let mut g = at("x........");
        assert!(matches!(
            g.apply(Decision(0)),
            Err(DecisionError::Illegal(_))
        ));
        assert_eq!(
            g.apply(Decision(9)),
            Err(DecisionError::OutOfRange { index: 9, size: 9 })
        );
        assert_eq!(g, at("x........"));
    }

    #[test]
    fn starts_that_no_game_reaches_are_refused() {
        let refuse = |cells: &str| {
            TicTacToe::from_start(&TicTacToeStart {
                cells: cells.into(),
            })
            .unwrap_err()
        };
        assert_eq!(refuse("xx"), TicTacToeStartError::Length(2));
        assert_eq!(
            refuse("x.......?"),
            TicTacToeStartError::BadCell {
                index: 8,
                found: '?'
            }
        );
        assert_eq!(
            refuse("xx......."),
            TicTacToeStartError::Counts { x: 2, o: 0 }
        );
        assert_eq!(
            refuse("o........"),
            TicTacToeStartError::Counts { x: 0, o: 1 }
        );
        // x has a line yet o has as many marks: o moved after x had won.
        assert!(matches!(
            refuse("xxxooo..."),
            TicTacToeStartError::PlayedOn { .. }
        ));
    }

    #[test]
    fn the_turn_limit_ends_a_live_game_in_a_draw() {
        let mut g = TicTacToe::from_start(&TicTacToeStart::default()).unwrap();
        g.set_turn_limit(2);
        g.apply(Decision(4)).unwrap();
        assert_eq!(g.game_result(), None);
        g.apply(Decision(0)).unwrap();
        assert_eq!(g.game_result(), Some(GameResult::Draw));
        assert_eq!(g.decider(), None);
    }

    #[test]
    fn solver_values_the_empty_board_as_a_draw() {
        let start = TicTacToe::from_start(&TicTacToeStart::default()).unwrap();
        let mut solver = Negamax::new();
        assert_eq!(solver.value_for(&start, Player::First), 0);
        assert_eq!(solver.value_for(&start, Player::Second), 0);
        // Every first move keeps the draw in tic-tac-toe.
        let mut best = Vec::new();
        solver.best_decisions(&start, &mut best);
        assert_eq!(best, (0..9).map(Decision).collect::<Vec<_>>());
    }

    #[test]
    fn solver_finds_wins_losses_and_the_only_saving_move() {
        let mut solver = Negamax::new();
        // X to move completes the top row.
        let win = at("xx.oo....");
        assert_eq!(solver.value_for(&win, Player::First), 1);
        assert_eq!(solver.value_for(&win, Player::Second), -1);
        let mut best = Vec::new();
        solver.best_decisions(&win, &mut best);
        assert_eq!(best, [Decision(2)]);
        // O to move must block the top row at cell 2; then it is a draw.
        let block = at("xx..o....");
        assert_eq!(solver.value_for(&block, Player::Second), 0);
        solver.best_decisions(&block, &mut best);
        assert_eq!(best, [Decision(2)]);
        // After X takes a corner, the centre is O's only move that does not lose.
        let corner = at("x........");
        solver.best_decisions(&corner, &mut best);
        assert_eq!(best, [Decision(4)]);
        assert_eq!(solver.value_for(&at("xo......."), Player::First), 1);
        // Under a turn limit of one turn, any live game is a draw.
        let mut limited = at("xx.oo....");
        limited.set_turn_limit(1);
        assert_eq!(solver.value_for(&limited, Player::First), 1);
        let mut empty = at(".........");
        empty.set_turn_limit(4);
        assert_eq!(solver.value_for(&empty, Player::First), 0);
    }
}
