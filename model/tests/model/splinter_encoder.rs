//! Splinter's encoder: the generic encoder conformance test on several board shapes, and the
//! symmetries held to the engine's own (rule 11): the planes of `T(s)` are the mapped planes
//! of `s`, and the policy target of a decision through `T` sits at the policy index of the
//! engine's image of that decision in `T(s)`.

use super::common::{check_net_evaluates, check_symmetries, planes};
use crumble_core::Decision;
use crumble_core::GameState as _;
use crumble_core::games::splinter::{Dir, PieceType, Splinter, Symmetry};
use crumble_model::SplinterEncoder;
use crumble_model::encoder::{Encoder, check_encoder};
use rand::SeedableRng;

const SHAPES: [(u8, u8); 4] = [(5, 6), (7, 8), (8, 8), (9, 6)];

#[test]
fn splinter_encoder_passes_the_encoder_conformance_test() {
    for (w, h) in SHAPES {
        let start = Splinter::standard(w, h).unwrap();
        let n = check_encoder(&SplinterEncoder, &start, 12, 3).unwrap_or_else(|v| panic!("{v}"));
        assert!(n > 100, "{w}x{h}: {n} states checked");
    }
}

/// The states of `games` random games on a `w × h` board, decision by decision: positions
/// between turns and the pending states inside turns, each with the position and the move
/// that led to it when it is pending.
fn random_states_with_moves(
    w: u8,
    h: u8,
    games: u64,
) -> Vec<(Splinter, Option<(Splinter, Decision)>)> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..games {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut s = Splinter::standard(w, h).unwrap();
        s.set_turn_limit(80);
        let mut before = None;
        while !s.is_over() {
            out.push((s.clone(), before.take()));
            s.legal_decisions_into(&mut legal);
            let d = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
            let prev = s.clone();
            s.apply(d).unwrap();
            if s.is_pending() {
                before = Some((prev, d));
            }
        }
    }
    out
}

/// The states of [`random_states_with_moves`].
fn random_states(w: u8, h: u8, games: u64) -> Vec<Splinter> {
    random_states_with_moves(w, h, games)
        .into_iter()
        .map(|(s, _)| s)
        .collect()
}

#[test]
fn symmetries_map_planes_and_targets_as_the_engine_maps_positions_and_decisions() {
    let e = SplinterEncoder;
    let mut pending_seen = 0;
    let mut barred_seen = 0;
    for (w, h) in SHAPES {
        for (s, before) in random_states_with_moves(w, h, 30) {
            let g = e.grid(&s);
            assert_eq!(e.symmetries(&s).len(), if w == h { 8 } else { 4 });
            if s.is_pending() {
                pending_seen += 1;
            }
            let p = planes(&e, &s);
            barred_seen += usize::from(p[8 * g * g..16 * g * g].iter().any(|&v| v > 0.0));
            let image = |k: usize| {
                let t = Symmetry::of_board(w, h)[k];
                // Mid-turn no position exists (rule 12.2): T(s) is the image of the position
                // before with the image of the move played on it.
                match &before {
                    Some((prev, mv)) => {
                        let mut ts = t.position(prev);
                        ts.apply(t.decision(prev, *mv)).unwrap();
                        assert!(ts.is_pending());
                        ts
                    }
                    None => t.position(&s),
                }
            };
            check_symmetries(&e, &s, image, &format!("{w}x{h}"));
        }
    }
    assert!(pending_seen > 5, "{pending_seen} pending states");
    assert!(
        barred_seen > 50,
        "{barred_seen} positions with a barred move"
    );
}

#[test]
fn planes_show_the_mover_s_pieces_the_barred_moves_and_the_board() {
    let e = SplinterEncoder;
    let mut barred = 0;
    for (w, h) in SHAPES {
        for s in random_states(w, h, 4) {
            let g = e.grid(&s);
            assert_eq!(g, usize::from(w.max(h)));
            let p = planes(&e, &s);
            let at = |c: usize, x: u8, y: u8| p[c * g * g + usize::from(y) * g + usize::from(x)];
            let b = s.board();
            let me = s.to_move();
            for y in 0..g as u8 {
                for x in 0..g as u8 {
                    let on = x < w && y < h;
                    assert_eq!(at(16, x, y), f32::from(u8::from(on)), "board plane");
                    assert_eq!(at(17, x, y), f32::from(u8::from(on && s.is_pending())));
                    if !on {
                        assert!((0..16).all(|c| at(c, x, y) == 0.0), "off-board cell set");
                        continue;
                    }
                    let sq = b.square(x, y);
                    let piece = b.get(sq);
                    for (k, t) in PieceType::ALL.iter().enumerate() {
                        let own = piece.is_some_and(|q| q.kind == *t && q.color == me);
                        let theirs = piece.is_some_and(|q| q.kind == *t && q.color != me);
                        assert_eq!(at(k, x, y), f32::from(u8::from(own)));
                        assert_eq!(at(4 + k, x, y), f32::from(u8::from(theirs)));
                    }
                    for (k, d) in Dir::ALL.iter().enumerate() {
                        let forbidden = !s.is_pending()
                            && piece.is_some_and(|q| q.color == me)
                            && s.no_return_forbids(sq, *d);
                        assert_eq!(at(8 + k, x, y), f32::from(u8::from(forbidden)), "{d:?}");
                        barred += usize::from(forbidden);
                    }
                }
            }
        }
    }
    assert!(barred > 20, "{barred} barred moves seen");
}

/// A network built from Splinter's shapes evaluates a Splinter position: a prior per legal
/// decision, summing to 1, and a value in [-1, 1].
#[test]
fn a_network_of_splinter_s_shapes_evaluates_a_position() {
    let states: Vec<Splinter> = random_states(7, 8, 1).into_iter().step_by(5).collect();
    check_net_evaluates("splinter", SplinterEncoder, &states);
}

/// The ownership target of a finished game: on each square +1 for a piece of the viewer's,
/// -1 for the opponent's, 0 where none stands or off the board; through the symmetries, the
/// target of the mapped game.
#[test]
fn ownership_is_each_square_s_piece_at_the_end() {
    use crumble_core::{Color, Player};
    for (k, &(w, h)) in SHAPES.iter().enumerate() {
        let mut end = Splinter::standard(w, h).unwrap();
        end.set_turn_limit(80);
        end.play_random_game(&mut rand_chacha::ChaCha8Rng::seed_from_u64(k as u64));
        let g = SplinterEncoder.grid(&end);
        for view in [Player::First, Player::Second] {
            let got =
                super::common::ownership_seen_through_symmetries(&SplinterEncoder, &end, view);
            let mut want = vec![0.0; g * g];
            for (s, p) in end.board().pieces() {
                let (x, y) = end.board().xy(s);
                want[usize::from(y) * g + usize::from(x)] = if p.color == Color::from(view) {
                    1.0
                } else {
                    -1.0
                };
            }
            assert_eq!(got, want, "{w}x{h} {view:?}");
        }
    }
}
