//! Rasteriser: golden planes for the start and hand-made positions, and hand-checked facts.

use crumble_core::Decision;
use crumble_core::GameState as _;
use crumble_core::games::crumble::position;
use crumble_core::games::crumble::{Crumble, DecisionKind};
use crumble_model::encoders::crumble::planes::{self, PLANE_NAMES, PLANES, Rasteriser};
use ndarray::Array3;
use std::fmt::Write as _;

fn raster(game: &Crumble) -> Array3<f32> {
    let g = usize::from(game.grid_size());
    let mut a = Array3::<f32>::from_elem((PLANES, g, g), 7.0); // every element must be written
    Rasteriser::new().rasterise(game, a.view_mut()).unwrap();
    a
}

/// Text picture of every non-zero plane, north row first: `.` 0, `#` 1, numbers otherwise.
fn picture(a: &Array3<f32>) -> String {
    let g = a.shape()[1];
    let mut s = String::new();
    for c in 0..PLANES {
        if a.slice(ndarray::s![c, .., ..]).iter().all(|&v| v == 0.0) {
            let _ = writeln!(s, "{c:2} {}: all 0", PLANE_NAMES[c]);
            continue;
        }
        let _ = writeln!(s, "{c:2} {}:", PLANE_NAMES[c]);
        for y in (0..g).rev() {
            s.push_str("   ");
            for x in 0..g {
                let v = a[[c, y, x]];
                if v == 0.0 {
                    s.push_str(if c == planes::LOG_SIZE { "  .  " } else { "." });
                } else if v == 1.0 && c != planes::LOG_SIZE {
                    s.push('#');
                } else {
                    let _ = write!(s, "{v:.3}");
                    s.push(' ');
                }
            }
            s.push('\n');
        }
    }
    s
}

/// Compares with `tests/golden/NAME.txt`; `UPDATE_GOLDEN=1` rewrites the file.
fn check(name: &str, game: &Crumble) {
    let text = picture(&raster(game));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    assert_eq!(
        text,
        want,
        "planes of {name} differ from {}",
        path.display()
    );
}

const MIXED: &str = r#"{"board": 2, "resolution": 4, "to_move": "white", "pieces": [
  {"x": 0, "y": 0, "w": 4, "h": 4, "color": "black"},
  {"x": 4, "y": 0, "w": 4, "h": 2, "color": "white"},
  {"x": 4, "y": 2, "w": 4, "h": 2, "color": "black"},
  {"x": 0, "y": 4, "w": 2, "h": 4, "color": "white"},
  {"x": 2, "y": 4, "w": 2, "h": 2, "color": "black"},
  {"x": 2, "y": 6, "w": 2, "h": 2, "color": "white"},
  {"x": 4, "y": 4, "w": 4, "h": 4, "color": "white"}]}"#;

fn dec(game: &Crumble, k: DecisionKind) -> Decision {
    Decision::encode(k, game.grid_size())
}

#[test]
fn golden_start_position() {
    check("start-3x3-r2", &Crumble::new(3, 2).unwrap());
}

#[test]
fn golden_mixed_position_white_to_move() {
    check("mixed-2x2-r4", &position::from_json(MIXED).unwrap());
}

#[test]
fn golden_extent_and_swap_phases() {
    let mut game = Crumble::new(3, 2).unwrap();
    // Black splits its piece at (2, 0) vertically: the extent phase.
    game.apply(dec(
        &game,
        DecisionKind::Split {
            cut: crumble_core::games::crumble::Cut::V,
            x: 2,
            y: 0,
        },
    ))
    .unwrap();
    check("extent-3x3-r2", &game);
    game.apply(dec(&game, DecisionKind::End { x: 2, y: 0 }))
        .unwrap();
    check("swap-fresh-3x3-r2", &game);
    // A state with a swapper, from seeded random play.
    let game = super::common::positions(4, 2, 400, 7)
        .into_iter()
        .find(|g| g.swapper_piece().is_some())
        .expect("a swapper state");
    check("swap-swapper-4x4-r2", &game);
}

#[test]
fn start_position_facts() {
    let game = Crumble::new(3, 2).unwrap();
    let a = raster(&game);
    // Cell (0,0) is White's (i + j even), cell (2,0) Black's; Black decides.
    assert_eq!((a[[planes::OPP, 0, 0]], a[[planes::OWN, 0, 0]]), (1.0, 0.0));
    assert_eq!((a[[planes::OWN, 0, 2]], a[[planes::OPP, 0, 2]]), (1.0, 0.0));
    // Every cell is covered by exactly one colour.
    assert!(
        a.slice(ndarray::s![0, .., ..])
            .iter()
            .zip(a.slice(ndarray::s![1, .., ..]).iter())
            .all(|(o, p)| o + p == 1.0)
    );
    // 2×2 pieces: west sides on even columns, corners at their four cells.
    for y in 0..6 {
        for x in 0..6 {
            assert_eq!(a[[planes::SIDE, y, x]], f32::from(u8::from(x % 2 == 0)));
            assert_eq!(a[[planes::SIDE + 3, y, x]], f32::from(u8::from(y % 2 == 1)));
            assert_eq!(
                a[[planes::CORNER, y, x]],
                f32::from(u8::from(x % 2 == 0 && y % 2 == 0))
            );
            assert_eq!(
                a[[planes::CORNER + 3, y, x]],
                f32::from(u8::from(x % 2 == 1 && y % 2 == 1))
            );
            assert_eq!(a[[planes::SQUARE, y, x]], 1.0);
            assert_eq!(a[[planes::LOG_SIZE, y, x]], 2.0 / 12.0);
            for c in [
                planes::PHASE_CHOOSE,
                planes::BLACK_DECIDES,
                planes::ONES,
                planes::GROUP_EDGE,
            ] {
                assert_eq!(a[[c, y, x]], 1.0, "plane {}", PLANE_NAMES[c]);
            }
        }
    }
    // A checkerboard has one-piece chains: Black's piece at (2,0) touches only the south side.
    assert_eq!(a[[planes::OWN_CHAIN + 2, 0, 2]], 1.0);
    assert_eq!(
        a[[planes::OWN_CHAIN, 0, 2]]
            + a[[planes::OWN_CHAIN + 1, 0, 2]]
            + a[[planes::OWN_CHAIN + 3, 0, 2]],
        0.0
    );
    // White's corner piece at (0,0) touches west and south.
    assert_eq!(
        a[[planes::OPP_CHAIN, 0, 0]] + a[[planes::OPP_CHAIN + 2, 0, 0]],
        2.0
    );
    // The centre piece (2..4, 2..4) is White's and touches no side.
    assert_eq!(
        (0..4)
            .map(|k| a[[planes::OPP_CHAIN + k, 2, 2]])
            .sum::<f32>(),
        0.0
    );
}

#[test]
fn mixed_position_facts() {
    let game = position::from_json(MIXED).unwrap();
    let a = raster(&game);
    // White decides: the black 4×4 square at the origin is the opponent's.
    assert_eq!(a[[planes::OPP, 0, 0]], 1.0);
    assert_eq!(a[[planes::BLACK_DECIDES, 0, 0]], 0.0);
    // Shapes: (4,0) 4×2 is wide, (0,4) 2×4 tall, sizes log2(16)/12 and log2(8)/12.
    assert_eq!(a[[planes::WIDE, 0, 4]], 1.0);
    assert_eq!(a[[planes::TALL, 4, 0]], 1.0);
    assert_eq!(a[[planes::LOG_SIZE, 0, 0]], 4.0 / 12.0);
    assert_eq!(a[[planes::LOG_SIZE, 4, 0]], 3.0 / 12.0);
    // White's chain: (0,4) tall, (2,6), (4,4) joined by edges: touches W, E, N.
    for (x, y) in [(0, 4), (2, 6), (5, 5)] {
        let sides: Vec<f32> = (0..4).map(|k| a[[planes::OWN_CHAIN + k, y, x]]).collect();
        assert_eq!(sides, [1.0, 1.0, 0.0, 1.0], "own chain sides at ({x},{y})");
    }
    // White's (4,0) wide piece is its own chain: touches E and S.
    let sides: Vec<f32> = (0..4).map(|k| a[[planes::OWN_CHAIN + k, 0, 4]]).collect();
    assert_eq!(sides, [0.0, 1.0, 1.0, 0.0]);
    // Black: (0,0), (4,2) and (2,4) are one chain through shared edges: W, E, S.
    for (x, y) in [(0, 0), (4, 2), (2, 4)] {
        let sides: Vec<f32> = (0..4).map(|k| a[[planes::OPP_CHAIN + k, y, x]]).collect();
        assert_eq!(
            sides,
            [1.0, 1.0, 1.0, 0.0],
            "opponent chain sides at ({x},{y})"
        );
    }
}

#[test]
fn wrong_buffer_shape_is_an_error() {
    let game = Crumble::new(3, 2).unwrap();
    let mut a = Array3::<f32>::zeros((PLANES, 5, 6));
    assert!(Rasteriser::new().rasterise(&game, a.view_mut()).is_err());
    let mut b = Array3::<f32>::zeros((PLANES, 6, 6));
    let mut t = b.view_mut();
    t.swap_axes(1, 2);
    assert_eq!(
        Rasteriser::new().rasterise(&game, t),
        Err(planes::RasterError::NotContiguous)
    );
}

/// The rasteriser's direct cell-layout output is exactly the planes reordered by the layout,
/// for every stem stride that divides the grid, over positions of random games in every
/// phase and on several board sizes and resolutions.
#[test]
fn cell_layout_rasterisation_is_the_reordered_planes() {
    use super::common::positions;
    use crumble_model::{CrumbleEncoder, Encoder, Layout};
    let enc = CrumbleEncoder;
    let mut scratch = Rasteriser::new();
    let mut spare = Vec::new();
    let mut checked = 0;
    for (board, res, seed) in [(6u16, 8u16, 1u64), (3, 8, 2), (5, 4, 3), (4, 2, 4)] {
        for game in positions(board, res, 60, seed) {
            let g = usize::from(game.grid_size());
            let mut planes = vec![0.0; PLANES * g * g];
            enc.encode(&game, &mut scratch, &mut planes);
            for s in (1..=usize::from(res)).filter(|s| g.is_multiple_of(*s)) {
                let layout = Layout {
                    input_planes: PLANES,
                    policy_planes: 8,
                    policy_extra: 1,
                    stride: s,
                };
                let mut want = vec![0.0; planes.len()];
                layout.to_cells(&planes, g, &mut want);
                let mut got = vec![f32::NAN; planes.len()];
                enc.encode_cells(&game, &mut scratch, s, &mut spare, &mut got);
                assert_eq!(got, want, "board {board} R {res} stride {s}");
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked} encodings checked");
}

/// The ownership target of a finished game: each fine cell +1 where the viewer's pieces stand
/// at the end, -1 where the opponent's (from the board itself, not the rasteriser), for both
/// viewers; under a symmetry, the target of the mapped position.
#[test]
fn ownership_targets_are_the_end_positions_colours_for_the_viewer() {
    use crumble_core::{Color, Player};
    use crumble_model::{CrumbleEncoder, Encoder};
    use rand::SeedableRng;
    let mut finished = 0;
    for seed in 0..6 {
        let mut end = Crumble::new(4, 2).unwrap();
        end.set_turn_limit(60);
        end.play_random_game(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        assert!(end.is_over());
        finished += 1;
        let g = usize::from(end.grid_size());
        for view in [Player::First, Player::Second] {
            let mut out = vec![9.0; g * g];
            assert!(CrumbleEncoder.ownership(&end, view, 0, &mut out));
            for y in 0..g {
                for x in 0..g {
                    let piece = end.board().piece_at(x as u16, y as u16);
                    let want = if piece.color == Color::from(view) {
                        1.0
                    } else {
                        -1.0
                    };
                    assert_eq!(out[y * g + x], want, "seed {seed} cell ({x}, {y}) {view:?}");
                }
            }
            // Through every symmetry: the target of the image of the end position.
            for sym in end.symmetries() {
                let mut mapped = vec![0.0; g * g];
                assert!(CrumbleEncoder.ownership(&end, view, sym, &mut mapped));
                let image = end.symmetry_image(sym).unwrap();
                let mut direct = vec![0.0; g * g];
                assert!(CrumbleEncoder.ownership(&image, view, 0, &mut direct));
                assert_eq!(mapped, direct, "seed {seed} symmetry {sym}");
            }
        }
    }
    assert_eq!(finished, 6);
}
