//! Short forced wins for any game, by exhaustive search over complete turns: the moves that
//! win at once, and the moves that force a win within the mover's next two turns. The ground
//! truth `crumble solve` gives for every game (Crumble has a much faster solver of its own,
//! `games::crumble::solve`, with the same answers).

use super::decision::Decision;
use super::perft::each_turn;
use super::state::{GameResult, GameState, Player};

/// How a move forces the win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcedWin {
    /// The move itself wins.
    AtOnce,
    /// Every reply leaves the mover a move that wins.
    NextTurn,
}

/// Counts the states searched.
#[derive(Debug, Default)]
pub struct ShortWins {
    nodes: u64,
}

impl ShortWins {
    pub fn new() -> ShortWins {
        ShortWins::default()
    }

    /// States searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The complete moves (each turn's decisions) of the player to move at `state`, a live
    /// turn start, that win the game at once.
    pub fn winning_moves<G: GameState>(&mut self, state: &G) -> Vec<Vec<Decision>> {
        let Some(me) = state.decider() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let nodes = &mut self.nodes;
        each_turn(&mut state.clone(), &mut Vec::new(), &mut |after, path| {
            *nodes += 1;
            if after.game_result() == Some(GameResult::Win(me)) {
                out.push(path.to_vec());
            }
        });
        out
    }

    /// The moves that force a win within the mover's next two turns: those that win at once,
    /// then those after which every reply of the opponent either hands the mover the game or
    /// leaves the mover a winning move (a reply that ends the game otherwise, a win for the
    /// opponent or a draw, refutes the move).
    pub fn forced_wins<G: GameState>(&mut self, state: &G) -> Vec<(Vec<Decision>, ForcedWin)> {
        let Some(me) = state.decider() else {
            return Vec::new();
        };
        let mut candidates = Vec::new();
        let nodes = &mut self.nodes;
        each_turn(&mut state.clone(), &mut Vec::new(), &mut |after, path| {
            *nodes += 1;
            candidates.push((path.to_vec(), after.clone()));
        });
        let mut out = Vec::new();
        for (path, after) in candidates {
            match after.game_result() {
                Some(GameResult::Win(p)) if p == me => out.push((path, ForcedWin::AtOnce)),
                Some(_) => {}
                None => {
                    if self.every_reply_loses(&after, me) {
                        out.push((path, ForcedWin::NextTurn));
                    }
                }
            }
        }
        out.sort_by_key(|(_, how)| *how == ForcedWin::NextTurn);
        out
    }

    /// Does every reply at `state` (the opponent of `me` to move) lose: end the game with `me`
    /// winning, or leave `me` a winning move?
    fn every_reply_loses<G: GameState>(&mut self, state: &G, me: Player) -> bool {
        if state.decider() != Some(me.opponent()) {
            return false;
        }
        let mut replies = Vec::new();
        each_turn(&mut state.clone(), &mut Vec::new(), &mut |after, _| {
            replies.push(after.clone());
        });
        self.nodes += replies.len() as u64;
        replies.iter().all(|reply| match reply.game_result() {
            Some(result) => result == GameResult::Win(me),
            None => reply.decider() == Some(me) && !self.winning_moves(reply).is_empty(),
        })
    }
}
