//! Tic-tac-toe's text layer: a mark is written by its cell, file `a`–`c` from the left and
//! rank `1`–`3` from the bottom (`b2` is the centre); positions are the start JSON
//! (`{"cells": "x...o...."}`, rows from the top).

use super::{CELLS, TicTacToe};
use crate::game::{Decision, GameState, GameText, TextError};

/// Why a tic-tac-toe move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TicTacToeMoveError {
    #[error("{0:?} is not a cell: a file a-c and a rank 1-3, as in b2")]
    NotACell(String),
    #[error("{0} is taken")]
    Taken(String),
}

/// The text of cell `index` (`row · 3 + column`, row 0 at the top).
pub fn cell_text(index: usize) -> String {
    let (row, column) = (index / 3, index % 3);
    format!("{}{}", char::from(b'a' + column as u8), 3 - row)
}

/// The cell a text names.
pub fn parse_cell(text: &str) -> Option<usize> {
    match text.as_bytes() {
        &[f @ b'a'..=b'c', r @ b'1'..=b'3'] => {
            Some(usize::from(b'3' - r) * 3 + usize::from(f - b'a'))
        }
        _ => None,
    }
}

impl GameText for TicTacToe {
    type Notation = ();
    const TITLE: &'static str = "Tic-tac-toe";
    const SOLVABLE: bool = true;

    fn parse_move(&self, text: &str, (): ()) -> Result<Vec<Decision>, TextError> {
        self.refuse_when_over()?;
        let cell = parse_cell(text.trim())
            .ok_or_else(|| TextError::of_move(TicTacToeMoveError::NotACell(text.into())))?;
        if self.cell(cell).is_some() {
            return Err(TextError::of_move(TicTacToeMoveError::Taken(cell_text(
                cell,
            ))));
        }
        Ok(vec![Decision(cell as u32)])
    }

    fn move_text(&self, turn: &[Decision], (): ()) -> Result<String, TextError> {
        match turn {
            [d] if (d.0 as usize) < CELLS => Ok(cell_text(d.0 as usize)),
            _ => Err(TextError::Internal(format!("{turn:?} is not one mark"))),
        }
    }

    /// The board with its file letters and rank numbers, `x`, `o` and `.` for the cells.
    fn board_text(&self) -> String {
        "3x3 board".into()
    }

    fn diagram(&self) -> Option<String> {
        let mut out = String::new();
        for row in 0..3 {
            out += &format!("{} ", 3 - row);
            for column in 0..3 {
                out.push(match self.cell(row * 3 + column) {
                    Some(crate::game::Player::First) => 'x',
                    Some(crate::game::Player::Second) => 'o',
                    None => '.',
                });
                out.push(' ');
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        out += "  a b c\n";
        Some(out)
    }

    fn legal_move_texts(&self, (): ()) -> Result<Vec<String>, TextError> {
        if self.game_result().is_some() {
            return Ok(Vec::new());
        }
        Ok((0..CELLS)
            .filter(|&i| self.cell(i).is_none())
            .map(cell_text)
            .collect())
    }
}

impl crate::render::Pictures for TicTacToe {}
