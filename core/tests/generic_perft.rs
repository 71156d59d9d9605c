//! The generic perft and short-win solver (`crumble_core::game::{perft, shortwin}`) against
//! known answers: Crumble's own perft and solver on small boards, tic-tac-toe's known
//! counts and a fork, Nim by hand.

use crumble_core::GameState;
use crumble_core::game::perft::{divide, perft, unique};
use crumble_core::games::crumble::{Crumble, Frame, position};
use crumble_core::games::nim::{Nim, NimStart};
use crumble_core::games::tictactoe::TicTacToe;

#[test]
fn agrees_with_crumbles_own_perft() {
    for (n, r, turns) in [(2, 2, 3), (3, 2, 2), (3, 4, 1)] {
        let g = Crumble::new(n, r).unwrap();
        for t in 1..=turns {
            assert_eq!(
                perft(&g, t),
                crumble_core::games::crumble::perft::perft(&g, t),
                "{n}x{n} R={r}, {t} turns"
            );
        }
    }
    let mid = position::from_json(position::MIDGAME_6X6_JSON).unwrap();
    assert_eq!(
        perft(&mid, 1),
        crumble_core::games::crumble::perft::perft(&mid, 1)
    );
}

#[test]
fn tictactoe_counts_are_the_known_ones() {
    let g = TicTacToe::from_start(&Default::default()).unwrap();
    let known = [9, 72, 504, 3024, 15120, 54720];
    for (t, &n) in known.iter().enumerate() {
        assert_eq!(perft(&g, t as u32 + 1), n, "{} plies", t + 1);
    }
}

/// Distinct positions and classes under symmetry: tic-tac-toe's known counts (positions
/// C(9,k)·C(9−k,…); classes 3, 12, 38, 108 after one to four plies, the counts of the
/// 765 essentially different positions by ply) and
/// Crumble's first move on the standard 6x6 board, whose start the four symmetries of its
/// colouring leave alone.
#[test]
fn unique_counts_transpositions_and_mirror_images_once() {
    let g = TicTacToe::from_start(&Default::default()).unwrap();
    assert_eq!(unique(&g, 4), vec![(9, 3), (72, 12), (252, 38), (756, 108)]);
    let c = Crumble::new(6, 8).unwrap();
    let first = unique(&c, 1);
    assert_eq!(
        first[0].0,
        perft(&c, 1),
        "every first move reaches its own position"
    );
    assert_eq!(
        first[0].0,
        4 * first[0].1,
        "no first move is its own mirror image"
    );
}

#[test]
fn nim_divides_by_its_moves() {
    let start = NimStart {
        heaps: vec![1, 2],
        ..Default::default()
    };
    let g = Nim::from_start(&start).unwrap();
    // Turns: 1-1, 2-1, 2-2; then from (0,2): 2-1, 2-2; from (1,1): 1-1, 2-1; from (1,0): 1-1.
    assert_eq!(perft(&g, 1), 3);
    assert_eq!(perft(&g, 2), 5);
    let lines = divide(&g, 2, ()).unwrap();
    let expect = [
        ("1-1".to_string(), 2),
        ("2-1".to_string(), 2),
        ("2-2".to_string(), 1),
    ];
    assert_eq!(lines, expect);
    // A line that ends the game early counts nothing at a greater depth: of the five lines of
    // two turns, 1-1 2-2 and 2-2 1-1 empty the heaps, the other three go on one way each.
    assert_eq!(perft(&g, 3), 3);
}

#[test]
fn crumble_divide_prints_the_notation_of_crumbles_own() {
    let g = Crumble::new(3, 2).unwrap();
    let own = crumble_core::games::crumble::perft::divide(&g, 2, Frame::PerPlayer);
    let generic = divide(&g, 2, Frame::PerPlayer).unwrap();
    let own: Vec<(String, u64)> = own.into_iter().map(|l| (l.notation, l.count)).collect();
    assert_eq!(generic, own);
}

mod short_wins {
    use crumble_core::game::shortwin::{ForcedWin, ShortWins};
    use crumble_core::games::crumble::Crumble;
    use crumble_core::games::crumble::solve::{ForcedWin as CrumbleWin, Solver};
    use crumble_core::games::tictactoe::{TicTacToe, TicTacToeStart};
    use crumble_core::{Decision, GameState};
    use rand::SeedableRng;

    /// The winning moves, and the forced wins with whether each wins at once.
    type Wins = (Vec<Vec<Decision>>, Vec<(Vec<Decision>, bool)>);

    fn crumbles_own(game: &Crumble) -> Wins {
        let mut solver = Solver::new();
        let mut once: Vec<Vec<Decision>> = solver
            .winning_moves(game)
            .iter()
            .map(|m| game.move_decisions(m).unwrap())
            .collect();
        once.sort();
        let mut forced: Vec<(Vec<Decision>, bool)> = solver
            .forced_wins(game)
            .iter()
            .map(|(m, how)| (game.move_decisions(m).unwrap(), *how == CrumbleWin::AtOnce))
            .collect();
        forced.sort();
        (once, forced)
    }

    #[test]
    fn agree_with_crumbles_own_solver_on_random_positions() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut checked = 0;
        let mut wins = 0;
        for _ in 0..40 {
            let mut game = Crumble::new(3, 2).unwrap();
            game.set_max_turns(40);
            let stop = rand::Rng::random_range(&mut rng, 0..12);
            for _ in 0..stop {
                if game.is_over() {
                    break;
                }
                GameState::play_random_turn(&mut game, &mut rng);
            }
            if game.is_over() {
                continue;
            }
            let (once, forced) = crumbles_own(&game);
            let mut s = ShortWins::new();
            let mut g_once = s.winning_moves(&game);
            g_once.sort();
            assert_eq!(g_once, once);
            let mut g_forced: Vec<(Vec<Decision>, bool)> = s
                .forced_wins(&game)
                .into_iter()
                .map(|(p, how)| (p, how == ForcedWin::AtOnce))
                .collect();
            g_forced.sort();
            assert_eq!(g_forced, forced);
            checked += 1;
            wins += usize::from(!forced.is_empty());
        }
        assert!(
            checked > 20 && wins > 0,
            "{checked} positions, {wins} with a forced win"
        );
    }

    #[test]
    fn tictactoe_fork_forces_a_win() {
        // Rows from the top: "o.x", ".o.", "x..": X on c3 and a1, O on a3 and b2, X to move.
        let start = TicTacToeStart {
            cells: "o.x.o.x..".into(),
        };
        let g = TicTacToe::from_start(&start).unwrap();
        let mut s = ShortWins::new();
        // X: cells 2 and 6; O: 0 and 4; X to move. X wins at once on neither diagonal (4 is O);
        // no win at once, and O threatens 0-4-8: X must block at 8, which forks 2-5-8 and 6-7-8.
        assert!(s.winning_moves(&g).is_empty());
        let forced = s.forced_wins(&g);
        assert_eq!(forced, vec![(vec![Decision(8)], ForcedWin::NextTurn)]);
        assert!(s.nodes() > 0);
    }
}
