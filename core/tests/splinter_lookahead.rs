//! Splinter's exact one-turn lookahead (`GameState::win_this_turn`) against an exhaustive
//! search of the turn over thousands of positions of random games: it finds a win exactly
//! when some complete legal move (with its splinter choice) wins for the mover, the
//! decisions it returns play that win, and inside a turn (a splinter choice pending) it
//! finds a winning choice exactly when one exists.

use crumble_core::GameState;
use crumble_core::game::CompleteMoves;
use crumble_core::games::splinter::{Splinter, SplinterWinCheck};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Does some complete legal move of `game` win it for the player to move?
fn exhaustive_win(game: &Splinter) -> bool {
    let mover = game.to_move();
    game.legal_moves().iter().any(|mv| {
        let mut g = game.clone();
        g.play(mv).unwrap();
        g.outcome().is_some_and(|o| o.winner == Some(mover))
    })
}

#[test]
fn lookahead_agrees_with_an_exhaustive_search_of_the_turn() {
    let mut check = SplinterWinCheck::default();
    let (mut positions, mut wins, mut pending) = (0, 0, 0);
    let mut legal = Vec::new();
    for (w, h) in [(5, 6), (7, 8), (8, 8), (9, 10)] {
        for seed in 0..40u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (u64::from(w) << 32));
            let mut g = Splinter::standard(w, h).unwrap();
            g.set_turn_limit(120);
            while !g.is_over() {
                let mover = g.to_move();
                let found = g.win_this_turn(&mut check).map(<[_]>::to_vec);
                assert_eq!(found.is_some(), exhaustive_win(&g), "{w}x{h} seed {seed}");
                if let Some(path) = found {
                    let mut t = g.clone();
                    for &d in &path {
                        t.apply(d).unwrap();
                    }
                    assert_eq!(t.outcome().and_then(|o| o.winner), Some(mover));
                    wins += 1;
                }
                positions += 1;
                // Inside the turn: after each first decision that asks for a choice, the
                // check finds a winning choice exactly when one exists.
                g.legal_decisions_into(&mut legal);
                for &m in &legal {
                    let mut t = g.clone();
                    t.apply(m).unwrap();
                    if !t.is_pending() {
                        continue;
                    }
                    pending += 1;
                    let mut keeps = Vec::new();
                    t.legal_decisions_into(&mut keeps);
                    let exists = keeps.iter().any(|&k| {
                        let mut u = t.clone();
                        u.apply(k).unwrap();
                        u.outcome().is_some_and(|o| o.winner == Some(mover))
                    });
                    assert_eq!(t.win_this_turn(&mut check).is_some(), exists);
                }
                g.play_random_turn(&mut rng);
            }
        }
    }
    assert!(positions > 3000, "{positions} positions");
    assert!(wins > 100, "{wins} wins in one");
    assert!(pending > 50, "{pending} pending choices");
}
