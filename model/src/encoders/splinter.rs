//! Splinter's encoder (games/splinter/RULES.md): the board from the mover's point of view on a
//! square grid of side `max(W, H)`, the policy over (square, direction) plus the splinter
//! choice, and the board's 4 (8 when square) symmetries.
//!
//! The board sits in the grid's top-left corner (`x < W`, `y < H`); the other cells are off
//! the board and zero in every plane but never legal. Input planes ([`PLANES`]):
//!
//! | planes | what |
//! | --- | --- |
//! | 0–3 | the mover's king, rooks, bishops, pawns |
//! | 4–7 | the opponent's, in the same order |
//! | 8–15 | per direction `D` (rule 2.3's order), the mover's pieces whose move in `D` the no-return rule forbids (rule 12.5: only the plane of the last move's opposite is ever set) |
//! | 16 | the board: ones on its `W × H` squares |
//! | 17 | ones on the board while the mover's splinter choice is pending (the pieces are then those after the push) |
//!
//! There is no plane for the colour to move: the colour exchange is exact (rule 11.3) and
//! the mover's point of view has it built in. The policy has 9 planes: plane `D` at a
//! square is the move of the piece there in direction `D`, plane 8 the choice of the group
//! whose anchor is there. A symmetry maps the squares and permutes the direction planes as
//! it maps directions; its planes are found from the board plane (16), which gives `W` and
//! `H`.

use crate::builtin::Builtin;
use crate::encoder::{Encoder, ownership_from_planes};
use crumble_core::games::splinter::{Action, Dir, PieceType, Splinter, Symmetry};
use crumble_core::{Decision, GameState, Player};

/// Input planes of the encoding (see the module docs).
pub const PLANES: usize = 18;
/// The first no-return plane.
const NO_RETURN: usize = 8;
/// The board plane.
const BOARD: usize = 16;
/// The pending-choice plane.
const PENDING: usize = 17;
/// Policy planes: one per direction, then the splinter choice.
const POLICY_PLANES: usize = 9;

/// Splinter's encoder; see the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct SplinterEncoder;

/// The colour whose pieces the "mover's" planes hold: the decider's (Black's once the game
/// is over).
fn mover(state: &Splinter) -> crumble_core::Color {
    match state.decider() {
        Some(Player::Second) => crumble_core::Color::White,
        _ => crumble_core::Color::Black,
    }
}

/// Index of a direction in rule 2.3's order (the engine's and the planes').
fn dir_index(d: Dir) -> usize {
    d as usize
}

impl SplinterEncoder {
    /// The policy index of `action` on a board of `width` columns in a grid of side `g`.
    fn action_index(state: &Splinter, action: Action, g: usize) -> usize {
        let b = state.board();
        let cell = |s| {
            let (x, y) = b.xy(s);
            usize::from(y) * g + usize::from(x)
        };
        match action {
            Action::Move { from, dir } => dir_index(dir) * g * g + cell(from),
            Action::Keep { square } => 8 * g * g + cell(square),
        }
    }

    /// The symmetry numbered `sym` ([`Symmetry::ALL`]'s order) if it is exact on a
    /// `width × height` board.
    fn symmetry(width: u8, height: u8, sym: usize) -> Result<Symmetry, String> {
        Symmetry::of_board(width, height)
            .get(sym)
            .copied()
            .ok_or_else(|| format!("symmetry {sym} of a {width}x{height} board"))
    }
}

/// `W` and `H` from the board plane of planes `src` on grid side `g`: the board is the
/// top-left rectangle of ones.
fn board_extent(src: &[f32], g: usize) -> (u8, u8) {
    let plane = &src[BOARD * g * g..(BOARD + 1) * g * g];
    let width = (0..g).take_while(|&x| plane[x] > 0.5).count();
    let height = (0..g).take_while(|&y| plane[y * g] > 0.5).count();
    (width as u8, height as u8)
}

impl Encoder<Splinter> for SplinterEncoder {
    type Scratch = ();

    const INPUT_PLANES: usize = PLANES;
    const POLICY_PLANES: usize = POLICY_PLANES;
    const OWNERSHIP: bool = true;
    /// 243 generations (2 CPU-hours) of `configs/splinter.toml` (`model/assets/README.md`).
    const BUILTIN: Option<Builtin> = Some(Builtin {
        name: "<built-in Splinter network gen-0243>",
        bytes: include_bytes!("../../assets/splinter-gen0243.crnet"),
    });
    fn grid(&self, state: &Splinter) -> usize {
        let b = state.board();
        usize::from(b.width().max(b.height()))
    }

    fn encode(&self, state: &Splinter, _scratch: &mut (), out: &mut [f32]) {
        let g = self.grid(state);
        let gg = g * g;
        let b = state.board();
        let me = mover(state);
        out.fill(0.0);
        let cell = |s| {
            let (x, y) = b.xy(s);
            usize::from(y) * g + usize::from(x)
        };
        for y in 0..usize::from(b.height()) {
            out[BOARD * gg + y * g..BOARD * gg + y * g + usize::from(b.width())].fill(1.0);
        }
        if state.is_pending() {
            out.copy_within(BOARD * gg..(BOARD + 1) * gg, PENDING * gg);
        }
        // Only the last move's opposite direction can be forbidden (rule 12.5).
        let barred = state
            .last_move()
            .filter(|_| !state.is_pending())
            .map(|l| l.dir.opposite());
        for (s, p) in b.pieces() {
            let own = p.color == me;
            let kind = PieceType::ALL
                .iter()
                .position(|&t| t == p.kind)
                .unwrap_or(0);
            out[(if own { 0 } else { 4 } + kind) * gg + cell(s)] = 1.0;
            if let Some(d) = barred.filter(|&d| own && state.no_return_forbids(s, d)) {
                out[(NO_RETURN + dir_index(d)) * gg + cell(s)] = 1.0;
            }
        }
    }

    fn policy_index(&self, state: &Splinter, d: Decision) -> usize {
        let action = state
            .decode(d)
            .expect("a legal decision is inside the action space");
        Self::action_index(state, action, self.grid(state))
    }

    fn symmetries(&self, state: &Splinter) -> Vec<usize> {
        let b = state.board();
        (0..Symmetry::of_board(b.width(), b.height()).len()).collect()
    }

    /// The pieces on each square at the end: the mover's planes (0–3) less the opponent's
    /// (4–7).
    fn ownership(&self, end: &Splinter, view: Player, sym: usize, out: &mut [f32]) -> bool {
        let mover_is_viewer = Player::from(mover(end)) == view;
        ownership_from_planes(self, end, sym, mover_is_viewer, 0..4, 4..8, out);
        true
    }
    fn map_planes(&self, sym: usize, g: usize, src: &[f32], dst: &mut [f32]) {
        let gg = g * g;
        let (width, height) = board_extent(src, g);
        let t = Self::symmetry(width, height, sym).expect("a symmetry exact for the board");
        dst.fill(0.0);
        for y in 0..height {
            for x in 0..width {
                let (tx, ty) = t.xy(width, height, x, y);
                let from = usize::from(y) * g + usize::from(x);
                let to = usize::from(ty) * g + usize::from(tx);
                for c in 0..PLANES {
                    // Direction planes follow their direction's image.
                    let c2 = match c {
                        NO_RETURN..BOARD => NO_RETURN + dir_index(t.dir(Dir::ALL[c - NO_RETURN])),
                        _ => c,
                    };
                    dst[c2 * gg + to] = src[c * gg + from];
                }
            }
        }
    }

    fn mapped_policy_index(
        &self,
        state: &Splinter,
        sym: usize,
        d: Decision,
    ) -> Result<usize, String> {
        let b = state.board();
        let mapped = Self::symmetry(b.width(), b.height(), sym)?.decision(state, d);
        let action = state
            .decode(mapped)
            .ok_or_else(|| format!("image {} of decision {}", mapped.0, d.0))?;
        Ok(Self::action_index(state, action, self.grid(state)))
    }
}
