//! Property tests over random Crumo games (Appendix B's invariants): no dead stack between
//! turns, pieces balance with captures, two-pass ends never tie, scores equal an independent
//! recount, placements equal an independent forward-guard model, the 12 symmetries commute
//! with play, and the position JSON and the notation round-trip.

mod crumo_common;
use crumble_core::game::CompleteMoves;
use crumo_common::*;
use std::collections::BTreeSet;

/// An independent model of guarding: each stack's guarded points computed forward from its
/// cube coordinates, not by the engine's backward walk.
fn model_guards(g: &Crumo) -> Vec<[u32; 2]> {
    let n = i32::from(g.size()) - 1;
    let geo = g.geometry();
    let mut counts = vec![[0u32; 2]; g.points()];
    // Rule 1.4 derived here, not copied from the engine's table: the six orthogonal unit
    // vectors, and the six diagonal ones, each the sum of two neighbouring orthogonal ones.
    let orthogonal: [(i64, i64); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];
    let diagonal = (0..6).map(|i| {
        let (a, b) = (orthogonal[i], orthogonal[(i + 1) % 6]);
        (a.0 + b.0, a.1 + b.1)
    });
    let dirs: Vec<(i64, i64)> = orthogonal.into_iter().chain(diagonal).collect();
    for (p, s) in g.stacks() {
        let c = s.color as usize;
        counts[usize::from(p)][c] += 1;
        let (q, r) = geo.coords(p);
        let (x, z) = (i64::from(q) - i64::from(n), i64::from(r) - i64::from(n));
        for &(dq, dr) in &dirs {
            let h = s.height as i64;
            let (x2, z2) = (x + h * dq, z + h * dr);
            let y2 = -x2 - z2;
            if x2.abs().max(z2.abs()).max(y2.abs()) <= i64::from(n) {
                let t = geo
                    .point_at((x2 + i64::from(n)) as i32, (z2 + i64::from(n)) as i32)
                    .unwrap();
                counts[usize::from(t)][c] += 1;
            }
        }
    }
    counts
}

/// The placements colour `c` could make, by the model: `(point, height)`.
fn model_placements(g: &Crumo, c: Color) -> BTreeSet<(u16, u32)> {
    let guards = model_guards(g);
    let geo = g.geometry();
    let mut out = BTreeSet::new();
    for p in 0..g.points() as u16 {
        if g.stack(p).is_some() {
            continue;
        }
        let gp = guards[usize::from(p)];
        if gp[c.opposite() as usize] > 1 + gp[c as usize] {
            continue;
        }
        for h in 1..=g.max_height() {
            let targets: Vec<u16> = (0..12).filter_map(|d| geo.step(p, d, h)).collect();
            let enemy = targets
                .iter()
                .any(|&t| g.stack(t).is_some_and(|s| s.color != c));
            if !targets.is_empty() && !enemy {
                out.insert((p, h));
            }
        }
    }
    out
}

/// Rule 9 recounted from the model: `[black, white]` in half points.
fn model_score(g: &Crumo, half_for: Option<Color>) -> [u64; 2] {
    let black: BTreeSet<u16> = model_placements(g, Color::Black)
        .iter()
        .map(|x| x.0)
        .collect();
    let white: BTreeSet<u16> = model_placements(g, Color::White)
        .iter()
        .map(|x| x.0)
        .collect();
    let mut pts = [0u64; 2];
    for p in 0..g.points() as u16 {
        match g.stack(p) {
            Some(s) => pts[s.color as usize] += 1,
            None if black.contains(&p) && !white.contains(&p) => pts[0] += 1,
            None if white.contains(&p) && !black.contains(&p) => pts[1] += 1,
            None => {}
        }
    }
    [Color::Black, Color::White]
        .map(|c| 2 * (pts[c as usize] + g.captures(c)) + u64::from(half_for == Some(c)))
}

fn check_between_turns(g: &Crumo, placed: [u64; 2]) {
    let guards = model_guards(g);
    let mut on_board = [0u64; 2];
    for (p, s) in g.stacks() {
        let gp = guards[usize::from(p)];
        assert!(
            gp[s.color.opposite() as usize] <= gp[s.color as usize],
            "dead stack on {} in {}",
            g.geometry().name(p),
            position::to_json(g)
        );
        assert_eq!(g.guards(p), gp);
        on_board[s.color as usize] += s.height;
    }
    // Black's pieces are on the board or captured for White, and the other way round.
    assert_eq!(on_board[0] + g.captures(Color::White), placed[0]);
    assert_eq!(on_board[1] + g.captures(Color::Black), placed[1]);
    let json = position::to_json(g);
    let back = position::from_json(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    assert_eq!(position::to_json(&back), json);
    if g.is_over() {
        assert!(g.legal_move_texts().is_empty());
        return;
    }
    let engine: BTreeSet<(u16, u32)> = g
        .legal_moves()
        .iter()
        .filter_map(|m| match *m {
            CrumoMove::Place { point, height } => Some((point, height)),
            _ => None,
        })
        .collect();
    assert_eq!(engine, model_placements(g, g.to_move()), "{json}");
    for text in g.legal_move_texts() {
        let mv = notation::parse_move(g.geometry(), &text).unwrap();
        assert_eq!(g.write_move(&mv), text);
        assert!(g.resolve(&mv).is_ok(), "{text}");
    }
}

/// Plays random games (rule 10.4's random play) and checks every turn.
#[test]
fn random_games_keep_the_invariants_of_appendix_b() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut positions, mut two_pass_ends, mut removals) = (0, 0, 0);
    for game_index in 0..120 {
        let size = [3u8, 4, 5][game_index % 3];
        let mut g = Crumo::standard(size).unwrap();
        g.set_turn_limit(60);
        let mut placed = [0u64; 2];
        check_between_turns(&g, placed);
        while let Some(mv) = {
            let before = g.clone();
            let mv = g.play_random_move(&mut rng);
            if let Some(CrumoMove::Place { height, .. }) = mv {
                placed[before.to_move() as usize] += u64::from(height);
            }
            if before.captures(Color::Black) + before.captures(Color::White)
                < g.captures(Color::Black) + g.captures(Color::White)
            {
                removals += 1;
            }
            mv
        } {
            let _ = mv;
            check_between_turns(&g, placed);
            positions += 1;
        }
        let o = g.outcome().unwrap();
        let half_for = (o.reason == Reason::TwoPasses).then_some(g.to_move());
        assert_eq!(o.score_halves, Some(model_score(&g, half_for)));
        if o.reason == Reason::TwoPasses {
            two_pass_ends += 1;
            let [b, w] = o.score_halves.unwrap();
            assert_eq!((b + w) % 2, 1, "scores differ by an odd multiple of 1/2");
            assert!(o.winner.is_some());
        }
    }
    assert!(positions > 2_000, "{positions}");
    assert!(
        two_pass_ends > 10,
        "{two_pass_ends} games ended by two passes"
    );
    assert!(removals > 10, "{removals} turns removed stacks");
}

/// Rule 13: a game mapped by a symmetry, move by move, is the mapped game, with the mapped
/// legal decisions and the same result.
#[test]
fn symmetries_commute_with_play() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut legal = Vec::new();
    let mut mapped_legal = Vec::new();
    for game_index in 0..8 {
        let size = [4u8, 5][game_index % 2];
        let mut g = Crumo::standard(size).unwrap();
        g.set_turn_limit(40);
        let mut images: Vec<Crumo> = Symmetry::ALL.iter().map(|s| s.apply(&g)).collect();
        loop {
            let before = g.clone();
            let mut path = Vec::new();
            if g.play_random_turn_recorded(&mut rng, &mut path) == 0 {
                break;
            }
            let mut state = before.clone();
            for &d in &path {
                for (s, image) in Symmetry::ALL.iter().zip(images.iter_mut()) {
                    assert_eq!(*image, s.apply(&state));
                    state.legal_decisions_into(&mut legal);
                    image.legal_decisions_into(&mut mapped_legal);
                    let mut want: Vec<Decision> =
                        legal.iter().map(|&x| s.map_decision(&state, x)).collect();
                    want.sort_unstable();
                    assert_eq!(mapped_legal, want, "symmetry {}", s.index());
                    image.apply(s.map_decision(&state, d)).unwrap();
                }
                state.apply(d).unwrap();
            }
            for (s, image) in Symmetry::ALL.iter().zip(&images) {
                assert_eq!(*image, s.apply(&g), "symmetry {}", s.index());
                assert_eq!(image.outcome(), g.outcome());
            }
        }
    }
}
