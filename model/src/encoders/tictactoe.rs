//! Tic-tac-toe's encoder, for tests of the generic pipeline: three planes on the 3 × 3 board.

use crate::encoder::Encoder;
use crumble_core::games::crumble::Sym;
use crumble_core::games::tictactoe::{TicTacToe, map_cell};
use crumble_core::{Decision, GameState, Player};

/// Tic-tac-toe's encoder (the test game that runs through the whole pipeline): planes for
/// the decider's marks, the opponent's marks and a plane of ones on the 3 × 3 grid; one
/// policy plane (the cell to mark), no extra logit; the 8 symmetries of the square.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToeEncoder;

impl Encoder<TicTacToe> for TicTacToeEncoder {
    type Scratch = ();

    const INPUT_PLANES: usize = 3;
    const POLICY_PLANES: usize = 1;
    fn grid(&self, _state: &TicTacToe) -> usize {
        3
    }
    fn encode(&self, state: &TicTacToe, _scratch: &mut (), out: &mut [f32]) {
        let me = state.decider().unwrap_or(Player::First);
        out.fill(0.0);
        for i in 0..9 {
            match state.cell(i) {
                Some(p) if p == me => out[i] = 1.0,
                Some(_) => out[9 + i] = 1.0,
                None => {}
            }
            out[18 + i] = 1.0;
        }
    }
    fn policy_index(&self, _state: &TicTacToe, d: Decision) -> usize {
        d.0 as usize
    }
    fn symmetries(&self, state: &TicTacToe) -> Vec<usize> {
        state.symmetries()
    }
    fn map_planes(&self, sym: usize, g: usize, src: &[f32], dst: &mut [f32]) {
        let sym = Sym::from_index(sym).expect("a symmetry index below 8");
        for c in 0..src.len() / (g * g) {
            for i in 0..9 {
                dst[c * 9 + map_cell(sym, i)] = src[c * 9 + i];
            }
        }
    }
    fn mapped_policy_index(&self, _: &TicTacToe, sym: usize, d: Decision) -> Result<usize, String> {
        let sym = Sym::from_index(sym).ok_or_else(|| format!("symmetry {sym} of 8"))?;
        Ok(map_cell(sym, d.0 as usize))
    }
}
