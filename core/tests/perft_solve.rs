//! Turn-level perft against an independent slow enumeration, and the solver against brute
//! force, on the start position, the example positions and hand-made ones.

use crumble_core::game::GameState;
use crumble_core::game::record::Record;
use crumble_core::games::crumble::perft::{self, divide, perft};
use crumble_core::games::crumble::solve::{ForcedWin, Mark, Solver};
use crumble_core::games::crumble::{Base, Crumble, Dir, Frame, Move, Swap};
use crumble_core::games::crumble::{notation, position};
use rand::SeedableRng;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn manifest(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The start positions of every example file (games/crumble/RULES.md section 7 and more).
fn example_starts() -> Vec<(String, Crumble)> {
    let mut out = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(manifest("tests/data/examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    for p in paths {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let game = if v["start"] == "standard" {
            let size = |k: &str| v[k].as_u64().unwrap() as u16;
            Crumble::new(size("board"), size("resolution")).unwrap()
        } else {
            position::from_json(&v["start"].to_string()).unwrap()
        };
        out.push((p.file_name().unwrap().to_string_lossy().into_owned(), game));
    }
    out
}

/// The fresh pieces of a base, from the geometry alone.
fn fresh_of(game: &Crumble, base: &Base) -> Vec<crumble_core::games::crumble::Rect> {
    match *base {
        Base::Split { cut, first, count } => game
            .split_pieces(cut, first, count)
            .unwrap()
            .iter()
            .flat_map(|p| {
                let (a, b) = p.halves(cut);
                [a, b]
            })
            .collect(),
        Base::Join { outline } => vec![outline],
    }
}

/// Independent slow enumeration of the complete moves: every split and join from
/// `base_moves`, then swap paths grown one step at a time in all four directions, each
/// candidate checked by playing the whole move on a copy.
fn slow_moves(game: &Crumble) -> Vec<Move> {
    fn grow(game: &Crumble, mv: Move, out: &mut Vec<Move>) {
        if game.clone().play_move(&mv).is_err() {
            return;
        }
        out.push(mv.clone());
        for d in Dir::ALL {
            let mut next = mv.clone();
            next.swap.as_mut().unwrap().steps.push(d);
            grow(game, next, out);
        }
    }
    let mut out = Vec::new();
    if game.is_over() {
        return out;
    }
    for base in game.clone().base_moves() {
        assert!(
            game.clone().play_move(&base).is_ok(),
            "a base without swap is a legal move"
        );
        out.push(base.clone());
        for from in fresh_of(game, &base.base) {
            for d in Dir::ALL {
                grow(
                    game,
                    Move {
                        base: base.base,
                        swap: Some(Swap {
                            from,
                            steps: vec![d],
                        }),
                    },
                    &mut out,
                );
            }
        }
    }
    out
}

fn slow_perft(game: &Crumble, turns: u32) -> u64 {
    if turns == 0 {
        return 1;
    }
    slow_moves(game)
        .iter()
        .map(|mv| {
            let mut g = game.clone();
            g.play_move(mv).unwrap();
            if turns == 1 {
                1
            } else if g.is_over() {
                0
            } else {
                slow_perft(&g, turns - 1)
            }
        })
        .sum()
}

/// perft and the walk agree with the slow enumeration, move by move.
fn check(name: &str, game: &Crumble, turns: u32) -> u64 {
    let fast: BTreeSet<Move> = perft::all_moves(game).into_iter().collect();
    let slow_list = slow_moves(game);
    let slow: BTreeSet<Move> = slow_list.iter().cloned().collect();
    assert_eq!(
        slow.len(),
        slow_list.len(),
        "{name}: the slow enumeration repeats a move"
    );
    assert_eq!(
        fast, slow,
        "{name}: the walk and the slow enumeration list different moves"
    );
    let n = perft(game, turns);
    assert_eq!(n, slow_perft(game, turns), "{name}: perft({turns})");
    n
}

#[test]
fn perft_of_the_standard_start() {
    let game = Crumble::new(6, 8).unwrap();
    assert_eq!(check("6x6 start", &game, 1), 96);
    assert_eq!(check("6x6 start", &game, 2), 10_980);
    assert_eq!(perft(&game, 0), 1);
}

#[test]
fn perft_of_small_boards_over_two_turns() {
    for (n, r) in [(2, 2), (3, 2), (4, 1), (4, 2), (3, 4)] {
        let game = Crumble::new(n, r).unwrap();
        check(&format!("{n}x{n} R={r}"), &game, 2);
    }
}

#[test]
fn perft_of_hand_made_positions() {
    for (name, game) in example_starts() {
        // The nested-rings position has swap paths so long that the slow enumeration (which
        // replays every prefix of every path) takes about half a minute: left to the CLI.
        if !game.is_over() && !name.starts_with("07-4") {
            check(&name, &game, 1);
        }
    }
    let mid = position::from_json(position::MIDGAME_6X6_JSON).unwrap();
    assert_eq!(check("midgame", &mid, 1), 952);
    // Positions along random games, where swap paths get long.
    for seed in 0..4u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut game = Crumble::new(if seed % 2 == 0 { 4 } else { 6 }, 4).unwrap();
        for _ in 0..(8 + 3 * seed) {
            if game.is_over() {
                break;
            }
            game.play_random_turn(&mut rng);
        }
        if !game.is_over() {
            check(&format!("random seed {seed}"), &game, 1);
        }
    }
}

#[test]
fn divide_adds_up_and_its_notation_reads_back() {
    let game = Crumble::new(4, 2).unwrap();
    for frame in [Frame::PerPlayer, Frame::Absolute] {
        let lines = divide(&game, 2, frame);
        assert_eq!(lines.len() as u64, perft(&game, 1));
        assert_eq!(lines.iter().map(|l| l.count).sum::<u64>(), perft(&game, 2));
        assert!(
            lines.windows(2).all(|w| w[0].notation < w[1].notation),
            "sorted, distinct"
        );
        for l in &lines {
            assert_eq!(
                notation::parse_move(&game, &l.notation, frame).unwrap(),
                l.mv
            );
            let mut g = game.clone();
            g.play_move(&l.mv).unwrap();
            assert_eq!(l.count, perft(&g, 1));
        }
    }
    // White's divide in the per-player frame is written in White's view.
    let mut game = Crumble::new(6, 8).unwrap();
    game.play_move(&notation::parse_move(&game, "1HN", Frame::PerPlayer).unwrap())
        .unwrap();
    let lines = divide(&game, 1, Frame::PerPlayer);
    assert!(lines.iter().any(|l| l.notation == "5,5HSWS"));
}

// ------------------------------------------------------------------------------ solver

fn wins_for_mover(game: &Crumble, mv: &Move) -> bool {
    let mut g = game.clone();
    g.play_move(mv).unwrap();
    g.outcome()
        .is_some_and(|o| o.winner == Some(game.to_move()))
}

fn example(name: &str) -> Crumble {
    example_starts()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap()
        .1
}

fn record_position(name: &str) -> Crumble {
    let text = std::fs::read_to_string(manifest("tests/data/records").join(name)).unwrap();
    Record::<Crumble>::parse(&text)
        .unwrap()
        .final_position()
        .unwrap()
}

fn texts(game: &Crumble, moves: &[Move]) -> BTreeSet<String> {
    moves
        .iter()
        .map(|m| notation::format_move(game, m, Frame::PerPlayer).unwrap())
        .collect()
}

#[test]
fn depth_one_lists_exactly_the_winning_moves() {
    let game = example("05-1-mover-wins-four-sides.json");
    let mut solver = Solver::new();
    let wins = solver.winning_moves(&game);
    let brute: Vec<Move> = perft::all_moves(&game)
        .into_iter()
        .filter(|m| wins_for_mover(&game, m))
        .collect();
    assert_eq!(texts(&game, &wins), texts(&game, &brute));
    assert!(
        texts(&game, &wins).contains("0,2J2,1E"),
        "the example's own win"
    );
    assert_eq!(wins.len(), 38);
    let found = solver.find_win(&game).unwrap();
    assert!(wins_for_mover(&game, &found));
}

#[test]
fn no_win_is_reported_where_there_is_none() {
    let mut solver = Solver::new();
    let start = Crumble::new(6, 8).unwrap();
    assert!(solver.winning_moves(&start).is_empty());
    assert!(solver.find_win(&start).is_none());
    assert!(solver.forced_wins(&start).is_empty());
    let game = record_position("solve-black-wins-in-two.rec");
    assert!(solver.winning_moves(&game).is_empty());
    assert!(
        perft::all_moves(&game)
            .iter()
            .all(|m| !wins_for_mover(&game, m)),
        "brute force agrees"
    );
}

#[test]
fn depth_two_finds_the_forced_wins() {
    let game = record_position("solve-black-wins-in-two.rec");
    let mut solver = Solver::new();
    let forced = solver.forced_wins(&game);
    assert!(forced.iter().all(|(_, how)| *how == ForcedWin::NextTurn));
    let moves: Vec<Move> = forced.iter().map(|(m, _)| m.clone()).collect();
    let want: BTreeSet<String> = ["0,7,6J1,2E", "0,8,7HWS", "5,11VWSES"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(texts(&game, &moves), want);
    // Check one of them by brute force over every reply: the mover still wins after each.
    let mover = game.to_move();
    let mut after = game.clone();
    after.play_move(&moves[0]).unwrap();
    for reply in perft::all_moves(&after) {
        let mut g = after.clone();
        g.play_move(&reply).unwrap();
        let ok = match g.outcome() {
            Some(o) => o.winner == Some(mover),
            None => solver.find_win(&g).is_some_and(|w| wins_for_mover(&g, &w)),
        };
        assert!(
            ok,
            "reply {} refutes",
            notation::format_move(&after, &reply, Frame::PerPlayer).unwrap()
        );
    }
    assert_eq!(solver.mark(&game, &moves[0]), Some(Mark::Mate));
}

/// Brute force of depth 2 with no pruning at all, for small positions.
fn brute_forced(game: &Crumble) -> BTreeSet<Move> {
    let mover = game.to_move();
    let wins = |g: &Crumble| perft::all_moves(g).iter().any(|m| wins_for_mover(g, m));
    perft::all_moves(game)
        .into_iter()
        .filter(|mv| {
            let mut after = game.clone();
            after.play_move(mv).unwrap();
            match after.outcome() {
                Some(o) => o.winner == Some(mover),
                None => perft::all_moves(&after).iter().all(|r| {
                    let mut g = after.clone();
                    g.play_move(r).unwrap();
                    match g.outcome() {
                        Some(o) => o.winner == Some(mover),
                        None => wins(&g),
                    }
                }),
            }
        })
        .collect()
}

#[test]
fn solver_agrees_with_brute_force_on_small_boards() {
    let mut checked_forced = 0;
    let mut checked_marks = 0;
    for seed in 0..40u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut game = Crumble::new(3, 2).unwrap();
        for _ in 0..(seed % 6) {
            if game.is_over() {
                break;
            }
            game.play_random_turn(&mut rng);
        }
        if game.is_over() || perft(&game, 1) > 60 {
            continue;
        }
        let mut solver = Solver::new();
        let fast: BTreeSet<Move> = solver
            .forced_wins(&game)
            .into_iter()
            .map(|(m, _)| m)
            .collect();
        assert_eq!(
            fast,
            brute_forced(&game),
            "seed {seed}: {}",
            position::to_json(&game)
        );
        checked_forced += 1;
        for mv in perft::all_moves(&game) {
            let mut after = game.clone();
            after.play_move(&mv).unwrap();
            if after.is_over() {
                assert_eq!(solver.mark(&game, &mv), None);
                continue;
            }
            let again = Crumble::from_board(after.board().clone(), game.to_move(), None);
            let threat = perft::all_moves(&again)
                .iter()
                .any(|m| wins_for_mover(&again, m));
            assert_eq!(solver.threatens(&game, &mv), threat, "seed {seed}");
            let mark = solver.mark(&game, &mv);
            if fast.contains(&mv) {
                assert_eq!(mark, Some(Mark::Mate));
            } else {
                assert_eq!(mark, threat.then_some(Mark::Check));
            }
            checked_marks += 1;
        }
    }
    assert!(
        checked_forced >= 20 && checked_marks >= 200,
        "{checked_forced} positions, {checked_marks} marks"
    );
}

/// A deadline stops every search where it is and says so; lifting it gives the full answer
/// again (the generator of the tactics suite relies on this to bound each solve).
#[test]
fn a_deadline_stops_the_solver_and_is_reported() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut g = Crumble::new(6, 8).unwrap();
    for _ in 0..12 {
        g.play_random_turn(&mut rng);
    }
    assert!(!g.is_over());
    let mut solver = Solver::new();
    let full = solver.move_paths(&g);
    assert!(!solver.aborted());
    assert_eq!(full.len(), perft::move_paths(&g).len());
    // A deadline already past: the walk stops at once, incomplete, and says so.
    solver.set_deadline(Some(std::time::Instant::now()));
    let cut = solver.move_paths(&g);
    assert!(solver.aborted());
    assert!(cut.len() < full.len());
    assert!(solver.forced_wins(&g).is_empty() && solver.aborted());
    solver.set_deadline(None);
    assert!(!solver.aborted());
    assert_eq!(solver.move_paths(&g), full);
}
