//! Matches between two agents: colours alternate game by game (agent A is Black in the
//! even-numbered games), a turn limit ends long games as draws, draws count half.

use crate::driver::{Player, Progress, RunError, RunOptions, Seating, run_games};
use crumble_core::Color;

/// The score of a match from agent A's side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchResult {
    pub games: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    pub draws: u64,
    /// A's wins as Black and as White.
    pub a_wins_black: u64,
    pub a_wins_white: u64,
    /// Mean turns per game.
    pub mean_turns: f64,
}

impl MatchResult {
    /// A's score: (wins + draws / 2) / games.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.5
        } else {
            (self.a_wins as f64 + 0.5 * self.draws as f64) / self.games as f64
        }
    }
}

/// Plays `games` games of `a` against `b`.
pub fn play_match(
    a: Player,
    b: Player,
    games: u64,
    opts: &RunOptions,
    on_round: &mut dyn FnMut(&Progress, &MatchResult),
) -> Result<MatchResult, RunError> {
    let mut res = MatchResult::default();
    let mut turns = 0u64;
    let mut players = [a, b];
    let cur = std::cell::Cell::new(MatchResult::default());
    let res_ref = &mut res;
    run_games(
        &mut players,
        Seating::Alternate,
        opts,
        0..games,
        &mut |g| {
            let a_color = if g.index % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            res_ref.games += 1;
            let replay = g
                .replay()
                .map_err(|e| Box::new(e) as Box<dyn std::error::Error + Send + Sync>)?;
            turns += u64::from(replay.turns_played());
            match g.outcome.winner {
                None => res_ref.draws += 1,
                Some(w) if w == a_color => {
                    res_ref.a_wins += 1;
                    if a_color == Color::Black {
                        res_ref.a_wins_black += 1;
                    } else {
                        res_ref.a_wins_white += 1;
                    }
                }
                Some(_) => res_ref.b_wins += 1,
            }
            res_ref.mean_turns = turns as f64 / res_ref.games as f64;
            cur.set(*res_ref);
            Ok(())
        },
        &mut |p| on_round(p, &cur.get()),
    )?;
    Ok(res)
}
