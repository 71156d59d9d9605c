//! Random-game property tests: every state of 1,000+ random games must satisfy the rules'
//! invariants, checked against the slow reference implementations in `common`.

mod common;

use common::*;
use crumble_core::Decision;
use crumble_core::GameState as _;
use crumble_core::games::crumble::notation::{self, Frame};
use crumble_core::games::crumble::position;
use crumble_core::games::crumble::{Crumble, Phase, Reason};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Picks one legal decision: like random play, but one decision at a time.
fn pick(game: &Crumble, legal: &[Decision], rng: &mut ChaCha8Rng) -> Decision {
    if game.phase() == Phase::Swap && rng.random_bool(0.5) {
        return *legal.last().unwrap(); // stop is the largest index
    }
    legal[rng.random_range(0..legal.len())]
}

struct Stats {
    games: u32,
    decisions: u64,
    turns: u64,
}

fn check_state(game: &Crumble, what: &str) {
    let b = game.board();
    b.check_invariants()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let pieces = b.sorted_pieces();
    let g = b.grid_size();
    let surrounded = surrounded_groups(&pieces, g);
    assert!(
        surrounded.is_empty(),
        "{what}: surrounded group left: {:?}",
        surrounded[0].iter().map(|&i| pieces[i]).collect::<Vec<_>>()
    );
    let winners = four_side_winners(&pieces, g);
    assert!(winners.len() <= 1, "{what}: two winners");
    match game.outcome() {
        Some(o) if o.reason == Reason::FourSides => {
            assert_eq!(winners, vec![o.winner.unwrap()], "{what}: winner")
        }
        _ => assert!(winners.is_empty(), "{what}: a four-side chain but no win"),
    }
}

fn play_games(n: u16, r: u16, max_turns: u32, games: u32, seed: u64, deep_every: u32) -> Stats {
    let mut stats = Stats {
        games: 0,
        decisions: 0,
        turns: 0,
    };
    for k in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed + u64::from(k));
        let mut game = Crumble::new(n, r).unwrap();
        game.set_max_turns(max_turns);
        let deep = k % deep_every == 0;
        let mut fork: Option<(Crumble, u32)> = None;
        let mut path = Vec::new();
        let mut before = game.clone();
        let mut legal = Vec::new();
        while !game.is_over() {
            let what = format!("{n}x{n} R={r} game {k} turn {}", game.turns_played());
            game.legal_decisions_into(&mut legal);
            assert!(
                !legal.is_empty(),
                "{what}: no legal decision in a live game"
            );
            assert!(
                legal.windows(2).all(|w| w[0] < w[1]),
                "{what}: legal decisions not sorted"
            );
            assert!(legal.iter().all(|d| d.index() < game.action_count()));
            if game.at_turn_start() && deep {
                let mut engine = game.base_moves();
                engine.sort();
                assert_eq!(
                    engine,
                    naive_bases(&game),
                    "{what}: splits and joins differ from brute force"
                );
            }
            let d = pick(&game, &legal, &mut rng);
            // An illegal decision is refused and leaves the state untouched.
            let bad = Decision(rng.random_range(0..game.action_count() + 5));
            if legal.binary_search(&bad).is_err() {
                let mut c = game.clone();
                assert!(c.apply(bad).is_err(), "{what}: illegal decision accepted");
                assert!(
                    c == game && c.hash() == game.hash(),
                    "{what}: refused decision changed the state"
                );
            }
            // Checked and unchecked apply agree.
            let mut checked = game.clone();
            checked
                .apply(d)
                .unwrap_or_else(|e| panic!("{what}: legal decision refused: {e}"));
            let turn = game.turns_played();
            game.apply_unchecked(d);
            assert!(
                checked == game && checked.hash() == game.hash(),
                "{what}: checked and unchecked apply differ"
            );
            path.push(d);
            stats.decisions += 1;
            check_state(&game, &what);
            if let Some((f, _)) = fork.as_mut() {
                f.apply(d)
                    .unwrap_or_else(|e| panic!("{what}: forked copy refuses {e}"));
                assert_eq!(f.board(), game.board(), "{what}: fork diverged");
                assert_eq!(
                    f.board().hash(),
                    game.board().hash(),
                    "{what}: equal positions, different hashes"
                );
            }
            if game.turns_played() != turn {
                stats.turns += 1;
                // The turn as a complete move: path <-> move, notation round trip in both frames.
                let mv = before
                    .move_from_decisions(&path)
                    .unwrap_or_else(|e| panic!("{what}: path to move: {e}"));
                assert_eq!(
                    before.move_decisions(&mv).unwrap(),
                    path,
                    "{what}: move to path"
                );
                if deep {
                    for frame in [Frame::PerPlayer, Frame::Absolute] {
                        let s = notation::format_move(&before, &mv, frame)
                            .unwrap_or_else(|| panic!("{what}: {mv:?} does not print"));
                        let back = notation::parse_move(&before, &s, frame).unwrap_or_else(|e| {
                            panic!("{what}: '{s}' ({frame:?}) does not parse: {e}")
                        });
                        assert_eq!(back, mv, "{what}: '{s}' ({frame:?}) parses to another move");
                    }
                    // JSON round trip.
                    let json = position::to_json(&game);
                    let loaded = position::from_json(&json)
                        .unwrap_or_else(|e| panic!("{what}: {e}\n{json}"));
                    assert_eq!(loaded.board(), game.board(), "{what}: JSON round trip");
                    assert_eq!(
                        (loaded.to_move(), loaded.outcome()),
                        (game.to_move(), game.outcome())
                    );
                    assert_eq!(position::to_json(&loaded), json);
                    if fork.is_none() && !game.is_over() && game.turns_played() >= 6 {
                        let mut f = loaded;
                        f.set_max_turns(0);
                        fork = Some((f, game.turns_played()));
                    }
                }
                if let Some((f, at)) = &fork {
                    // Six turns after the fork the draw-rule windows agree too: full state hash.
                    if game.turns_played() == at + 6 && !game.is_over() {
                        let mut same = game.clone();
                        same.set_max_turns(0);
                        assert!(*f == same, "{what}: forked game differs");
                        assert_eq!(
                            f.hash(),
                            same.hash(),
                            "{what}: equal states, different hashes"
                        );
                    }
                }
                path.clear();
                before = game.clone();
            }
        }
        stats.games += 1;
    }
    stats
}

#[test]
fn random_games_6x6_r8() {
    let s = play_games(6, 8, 160, 600, 1_000, 5);
    assert_eq!(s.games, 600);
    eprintln!(
        "6x6 R=8: {} games, {} turns, {} decisions",
        s.games, s.turns, s.decisions
    );
}

#[test]
fn random_games_other_sizes() {
    let mut games = 0;
    for (n, r, t, count, seed) in [
        (8, 4, 120, 150, 2_000),
        (4, 4, 200, 150, 3_000),
        (3, 16, 80, 50, 4_000),
        (5, 2, 200, 100, 5_000),
        (2, 1, 10, 5, 6_000),
    ] {
        let s = play_games(n, r, t, count, seed, 4);
        games += s.games;
        eprintln!(
            "{n}x{n} R={r}: {} games, {} turns, {} decisions",
            s.games, s.turns, s.decisions
        );
    }
    assert_eq!(games, 455);
}

#[test]
fn capture_resolution_is_independent_of_flip_order() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut positions = 0;
    let mut with_captures = 0;
    while positions < 1_000 {
        // A tiling from a random game, recoloured at random: most such colourings hold
        // surrounded groups, often nested ones.
        let mut game = Crumble::new(6, 8).unwrap();
        game.set_max_turns(rng.random_range(1..60));
        game.play_random_game(&mut rng);
        let g = game.board().grid_size();
        let mut pieces = game.board().sorted_pieces();
        for p in &mut pieces {
            if rng.random_bool(0.5) {
                p.color = p.color.opposite();
            }
        }
        let mut a = pieces.clone();
        resolve_sequentially(&mut a, g, |_| 0);
        let mut b = pieces.clone();
        resolve_sequentially(&mut b, g, |n| n - 1);
        let mut c = pieces.clone();
        let mut r2 = ChaCha8Rng::seed_from_u64(positions);
        resolve_sequentially(&mut c, g, |n| r2.random_range(0..n));
        // The engine flips all surrounded groups of a pass together.
        let json = position_json(&game, &pieces);
        let loaded = position::from_json(&json).unwrap();
        let engine = loaded.board().sorted_pieces();
        assert_eq!(a, b, "first-first and last-first orders differ");
        assert_eq!(a, c, "random order differs");
        assert_eq!(
            engine, a,
            "engine differs from one-group-at-a-time resolution"
        );
        with_captures += usize::from(pieces != a);
        positions += 1;
    }
    assert!(
        with_captures > 300,
        "only {with_captures} positions had captures"
    );
}

fn position_json(game: &Crumble, pieces: &[crumble_core::games::crumble::Piece]) -> String {
    let mut v: serde_json::Value = serde_json::from_str(&position::to_json(game)).unwrap();
    v["pieces"] = pieces
        .iter()
        .map(|p| serde_json::json!({"x": p.rect.x, "y": p.rect.y, "w": p.rect.w, "h": p.rect.h, "color": p.color.name()}))
        .collect();
    v["result"] = serde_json::Value::Null;
    v.to_string()
}

#[test]
fn random_play_is_deterministic_for_a_seed() {
    let run = |seed| {
        let mut g = Crumble::new(6, 8).unwrap();
        g.set_max_turns(200);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        g.play_random_game(&mut rng);
        (position::to_json(&g), g.turns_played())
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}
