//! Crumo's encoder: the generic encoder conformance test on several sizes, the planes read
//! against the engine, and the symmetries held to the engine's own (rule 13): the planes of
//! `T(s)` are the mapped planes of `s`, and the policy target of a decision through `T` sits
//! at the policy index of the engine's image of that decision in `T(s)`.

use super::common::{check_net_evaluates, check_symmetries, planes, small_net_config};
use crumble_core::GameState as _;
use crumble_core::games::crumo::{Crumo, Symmetry};
use crumble_model::CrumoEncoder;
use crumble_model::encoder::{Encoder, check_encoder};
use rand::SeedableRng;

const SIZES: [u8; 3] = [3, 5, 7];

#[test]
fn crumo_encoder_passes_the_encoder_conformance_test() {
    for n in SIZES {
        let start = Crumo::standard(n).unwrap();
        let n_checked =
            check_encoder(&CrumoEncoder, &start, 6, 3).unwrap_or_else(|v| panic!("size {n}: {v}"));
        assert!(n_checked > 100, "size {n}: {n_checked} states checked");
    }
}

/// The states of `games` random games of size `n`, decision by decision, uniform over the
/// legal decisions (so pending states, passes and swaps all occur).
fn random_states(n: u8, games: u64) -> Vec<Crumo> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..games {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut s = Crumo::standard(n).unwrap();
        s.set_turn_limit(40);
        while !s.is_over() {
            out.push(s.clone());
            s.legal_decisions_into(&mut legal);
            let d = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
            s.apply(d).unwrap();
        }
    }
    out
}

#[test]
fn symmetries_map_planes_and_targets_as_the_engine_maps_positions_and_decisions() {
    let e = CrumoEncoder;
    let mut pending_seen = 0;
    for n in SIZES {
        for s in random_states(n, 6).into_iter().step_by(3) {
            assert_eq!(e.symmetries(&s).len(), 12);
            pending_seen += usize::from(s.is_pending());
            check_symmetries(&e, &s, |k| Symmetry::ALL[k].apply(&s), &format!("size {n}"));
        }
    }
    assert!(pending_seen > 5, "{pending_seen} pending states");
}

#[test]
fn planes_show_stacks_guards_control_and_the_board_from_the_mover_s_view() {
    let e = CrumoEncoder;
    let (mut stacks, mut guarded) = (0, 0);
    for n in SIZES {
        for s in random_states(n, 3) {
            let g = e.grid(&s);
            assert_eq!(g, 2 * usize::from(n) - 1);
            let p = planes(&e, &s);
            let geo = s.geometry();
            let me = s.to_move();
            let mut board = vec![false; g * g];
            for pt in 0..geo.points() as u16 {
                let (q, r) = geo.coords(pt);
                let cell = usize::from(r) * g + usize::from(q);
                board[cell] = true;
                let at = |c: usize| p[c * g * g + cell];
                assert_eq!(at(35), 1.0, "board plane");
                match s.stack(pt) {
                    Some(st) => {
                        stacks += 1;
                        let side = usize::from(st.color != me);
                        for k in 0..8u64 {
                            let want = f32::from(u8::from(st.height > k));
                            assert_eq!(at(side * 8 + k as usize), want);
                            assert_eq!(at((1 - side) * 8 + k as usize), 0.0);
                        }
                        assert_eq!(at(16 + side), st.height as f32 / 16.0);
                    }
                    None => assert!((0..18).all(|c| at(c) == 0.0)),
                }
                let gd = s.guards(pt);
                let (mine, theirs) = (gd[me as usize], gd[me.opposite() as usize]);
                guarded += usize::from(mine > 0);
                for k in 0..3 {
                    assert_eq!(at(18 + k), f32::from(u8::from(mine > k as u32)));
                    assert_eq!(at(21 + k), f32::from(u8::from(theirs > k as u32)));
                }
                let ctrl = s.controller(pt);
                assert_eq!(at(24), f32::from(u8::from(ctrl == Some(me))));
                assert_eq!(at(25), f32::from(u8::from(ctrl == Some(me.opposite()))));
                assert_eq!(at(26), f32::from(u8::from(s.pending_source() == Some(pt))));
            }
            for (cell, on) in board.iter().enumerate() {
                if !on {
                    let c = (0..36).find(|c| p[c * g * g + cell] != 0.0);
                    assert_eq!(c, None, "size {n}: off-board cell {cell} set");
                }
            }
        }
    }
    assert!(
        stacks > 100 && guarded > 100,
        "{stacks} stacks, {guarded} guarded"
    );
}

/// A network built from Crumo's shapes (with its board mask) evaluates Crumo positions: a
/// prior per legal decision, summing to 1, and a value in [-1, 1].
#[test]
fn a_network_of_crumo_s_shapes_evaluates_a_position() {
    assert_eq!(small_net_config(&CrumoEncoder).mask_plane, Some(35));
    let states: Vec<Crumo> = random_states(5, 1).into_iter().step_by(3).collect();
    check_net_evaluates("crumo", CrumoEncoder, &states);
}

/// The ownership target of a finished game is who controls each point (what the score
/// counts): it sums to the viewer's controlled points less the opponent's, is 0 off the
/// board, and through the symmetries is the target of the mapped game.
#[test]
fn ownership_is_each_point_s_control_at_the_end() {
    use crumble_core::{Color, Player};
    for n in SIZES {
        let mut end = Crumo::standard(n).unwrap();
        end.set_turn_limit(60);
        end.play_random_game(&mut rand_chacha::ChaCha8Rng::seed_from_u64(u64::from(n)));
        let [black, white] = end.controlled_points();
        for view in [Player::First, Player::Second] {
            let got = super::common::ownership_seen_through_symmetries(&CrumoEncoder, &end, view);
            let colour = if end.seat_of(Color::Black) == view {
                Color::Black
            } else {
                Color::White
            };
            let (mine, theirs) = if colour == Color::Black {
                (black, white)
            } else {
                (white, black)
            };
            let sum: f32 = got.iter().sum();
            assert_eq!(sum, mine as f32 - theirs as f32, "size {n} {view:?}");
            assert!(got.iter().all(|v| [-1.0, 0.0, 1.0].contains(v)));
            let board = planes(&CrumoEncoder, &end);
            let gg = got.len();
            for (i, v) in got.iter().enumerate() {
                if board[35 * gg + i] == 0.0 {
                    assert_eq!(*v, 0.0, "off the board");
                }
            }
        }
    }
}
