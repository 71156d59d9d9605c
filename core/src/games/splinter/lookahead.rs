//! Splinter's exact one-turn lookahead ([`crate::GameState::win_this_turn`]): does the player
//! to decide have a rest of the turn (a move, and its splinter choice when one is pending or
//! asked) after which the game is theirs (rule 8.1: knockouts, more knockouts or more
//! pieces)? Every move is played on a scratch copy; a move that removes no piece cannot
//! change the knockouts, so only moves that push a piece off the board or split the pieces
//! are played out.

use super::board::Dir;
use super::game::{Action, Splinter};
use crate::game::Decision;
use crate::game::GameState;

/// The buffers of the exact win-in-one check (`GameState::win_this_turn`): scratch games and the winning decisions found. Nothing
/// is allocated once warm.
#[derive(Clone, Debug, Default)]
pub struct SplinterWinCheck {
    after_move: Option<Splinter>,
    after_keep: Option<Splinter>,
    keeps: Vec<Decision>,
    path: Vec<Decision>,
}

/// Copies `game` into `slot` (reusing it) and returns it.
fn scratch<'a>(slot: &'a mut Option<Splinter>, game: &Splinter) -> &'a mut Splinter {
    match slot {
        Some(s) => {
            s.clone_from(game);
            s
        }
        None => slot.insert(game.clone()),
    }
}

/// A keep among `keeps` of the pending `game` after which the mover has won, if any.
fn winning_keep(
    game: &Splinter,
    keeps: &mut Vec<Decision>,
    slot: &mut Option<Splinter>,
) -> Option<Decision> {
    let mover = game.to_move();
    game.decisions_into(keeps);
    for &k in keeps.iter() {
        let s = scratch(slot, game);
        s.apply_unchecked(k);
        if s.outcome().is_some_and(|o| o.winner == Some(mover)) {
            return Some(k);
        }
    }
    None
}

/// The decisions of a rest of `game`'s current turn that win it for the player to decide.
pub(crate) fn win_this_turn<'c>(
    game: &Splinter,
    check: &'c mut SplinterWinCheck,
) -> Option<&'c [Decision]> {
    if game.is_over() {
        return None;
    }
    let SplinterWinCheck {
        after_move,
        after_keep,
        keeps,
        path,
    } = check;
    path.clear();
    if game.is_pending() {
        path.push(winning_keep(game, keeps, after_move)?);
        return Some(path);
    }
    let mover = game.to_move();
    let b = game.board();
    for dir in Dir::ALL {
        for (from, p) in b.pieces() {
            if p.color != mover || b.step(from, dir).is_none() || game.no_return_forbids(from, dir)
            {
                continue;
            }
            // No piece leaves the board and the pieces stay one group: the counts by type,
            // and so the knockouts, are unchanged and the game goes on.
            if !pushes_off(game, from, dir) && b.push_keeps_one_group(from, dir) {
                continue;
            }
            let m = game.encode(Action::Move { from, dir });
            let s = scratch(after_move, game);
            s.apply_unchecked(m);
            if s.is_over() {
                if s.outcome().is_some_and(|o| o.winner == Some(mover)) {
                    path.push(m);
                    return Some(path);
                }
                continue;
            }
            if s.is_pending()
                && let Some(k) = winning_keep(s, keeps, after_keep)
            {
                path.extend([m, k]);
                return Some(path);
            }
        }
    }
    None
}

/// Does the move of the piece on `from` in `dir` push a piece off the board (rule 4.3)?
fn pushes_off(game: &Splinter, from: u16, dir: Dir) -> bool {
    let b = game.board();
    let mut last = from;
    b.run_len(from, dir, |s| last = s);
    b.step(last, dir).is_none()
}
