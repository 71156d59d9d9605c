//! Crumo's encoder (games/crumo/RULES.md): the hexagon in axial coordinates on a square grid, from
//! the mover's point of view; the policy over placements (point, height), the two halves of
//! a move (its source, then its target) and the pass and swap logits; the 12 symmetries of
//! the hexagon.
//!
//! A board of size `n` sits on a grid of side `G = 2n − 1`: point `(q, r)` is cell
//! `(x, y) = (q, r)`; the cells with `q + r` outside `n − 1 ..= 3n − 3` are off the board,
//! zero in every plane, never legal, and masked out inside the network (the board plane is
//! its [`NetConfig::mask_plane`](crate::NetConfig::mask_plane)). Input planes ([`PLANES`]):
//!
//! | planes | what |
//! | --- | --- |
//! | 0–7 | the mover's stack of height at least 1, …, 8 (a thermometer) |
//! | 8–15 | the opponent's, the same |
//! | 16, 17 | the mover's, the opponent's stack height / 16 (heights beyond 8) |
//! | 18–20 | the point is guarded by at least 1, 2, 3 of the mover's stacks (rule 3.2) |
//! | 21–23 | the same for the opponent's |
//! | 24, 25 | the point is controlled by the mover, by the opponent (rule 9.1) |
//! | 26 | the source chosen by a pending move |
//! | 27 | on the board when the previous turn was a complete-stack move (rule 6.5) |
//! | 28 | on the board when the previous turn was a pass (a pass now ends the game, 7.2) |
//! | 29, 30 | on the board when the pie state is `first`, `choice` (rule 8) |
//! | 31 | on the board when the mover holds the first seat |
//! | 32, 33 | the mover's, the opponent's captures / 16, on the board (rule 6.4) |
//! | 34 | turns played / turn limit on the board (0 without a limit; rule 10.1) |
//! | 35 | the board: ones on its points |
//!
//! Guards and control are read off the rules (as Go programs give their nets liberties):
//! they are what decides death and the score, and a small net at 64 simulations should
//! not spend its capacity rediscovering them. There is no colour plane: the rules treat
//! the colours alike once the pie state and seats are given.
//!
//! Policy planes ([`POLICY_PLANES`]): plane `h − 1` at a point is the placement of height
//! `h` there (`h` up to [`MAX_PLACE_HEIGHT`], size 7's largest), plane 12 the `From` of a
//! move at its source, plane 13 its `To` at its target; then two extra logits, `Pass` and
//! `Swap`. A symmetry permutes the points of every plane alike.

use crate::builtin::Builtin;
use crate::encoder::{Encoder, ownership_from_planes};
use crumble_core::games::crumo::{Action, Crumo, Geometry, Pie, Previous, Symmetry, geometry};
use crumble_core::{Decision, GameState, Player};

/// Input planes of the encoding (see the module docs).
pub const PLANES: usize = 36;
/// The largest placement height the policy holds: size 7's `2(n − 1)`. Larger boards do not
/// fit this encoder ([`CrumoEncoder::fits_size`]).
pub const MAX_PLACE_HEIGHT: usize = 12;
/// The largest board size the encoder takes.
pub const MAX_ENCODED_SIZE: u8 = 7;
/// Policy planes: the placement heights, then `From` and `To`.
pub const POLICY_PLANES: usize = MAX_PLACE_HEIGHT + 2;

const THERMOMETER: usize = 8;
const HEIGHT: usize = 16;
const GUARDS: usize = 18;
const CONTROL: usize = 24;
const PENDING: usize = 26;
const COMPLETE: usize = 27;
const PASSED: usize = 28;
const PIE_FIRST: usize = 29;
const PIE_CHOICE: usize = 30;
const FIRST_SEAT: usize = 31;
const CAPTURES: usize = 32;
const TURNS: usize = 34;
const BOARD: usize = 35;
const FROM_PLANE: usize = MAX_PLACE_HEIGHT;
const TO_PLANE: usize = MAX_PLACE_HEIGHT + 1;

/// Crumo's encoder; see the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct CrumoEncoder;

impl CrumoEncoder {
    /// Can this encoder represent games of `size`?
    pub fn fits_size(size: u8) -> bool {
        size <= MAX_ENCODED_SIZE && geometry(size).is_some()
    }

    /// The grid cell of point `p`.
    fn cell(geo: &Geometry, p: u16, g: usize) -> usize {
        let (q, r) = geo.coords(p);
        usize::from(r) * g + usize::from(q)
    }

    /// The policy index of `action` on a board of `geo` (grid side `g`).
    fn action_index(geo: &Geometry, action: Action, g: usize) -> usize {
        let gg = g * g;
        match action {
            Action::Place { point, height } => {
                (height as usize - 1) * gg + Self::cell(geo, point, g)
            }
            Action::From { point } => FROM_PLANE * gg + Self::cell(geo, point, g),
            Action::To { point } => TO_PLANE * gg + Self::cell(geo, point, g),
            Action::Pass => POLICY_PLANES * gg,
            Action::Swap => POLICY_PLANES * gg + 1,
        }
    }

    /// The geometry of a grid of side `g` (`2n − 1`).
    fn geometry_of_grid(g: usize) -> Result<&'static Geometry, String> {
        u8::try_from(g.div_ceil(2))
            .ok()
            .filter(|&n| 2 * usize::from(n) - 1 == g && Self::fits_size(n))
            .and_then(geometry)
            .ok_or_else(|| format!("grid side {g} is not a Crumo board of size 2..=7"))
    }

    fn symmetry(sym: usize) -> Result<Symmetry, String> {
        u8::try_from(sym)
            .ok()
            .and_then(Symmetry::new)
            .ok_or_else(|| format!("symmetry {sym} of the hexagon (0..12)"))
    }
}

impl Encoder<Crumo> for CrumoEncoder {
    type Scratch = ();

    const INPUT_PLANES: usize = PLANES;
    const POLICY_PLANES: usize = POLICY_PLANES;
    const POLICY_EXTRA: usize = 2;
    const OWNERSHIP: bool = true;
    /// 114 generations (2 CPU-hours) of `configs/crumo.toml` (`model/assets/README.md`).
    const BUILTIN: Option<Builtin> = Some(Builtin {
        name: "<built-in Crumo network gen-0114>",
        bytes: include_bytes!("../../assets/crumo-gen0114.crnet"),
    });
    fn board_mask_plane(&self) -> Option<usize> {
        Some(BOARD)
    }
    fn grid(&self, state: &Crumo) -> usize {
        2 * usize::from(state.size()) - 1
    }

    fn encode(&self, state: &Crumo, _scratch: &mut (), out: &mut [f32]) {
        let g = self.grid(state);
        let gg = g * g;
        let geo = state.geometry();
        // After the end nobody decides: encode from the colour to move, as the state names it.
        let me = state.to_move();
        let them = me.opposite();
        out.fill(0.0);
        let on_board = |plane: usize, out: &mut [f32]| {
            for p in 0..geo.points() as u16 {
                out[plane * gg + Self::cell(geo, p, g)] = 1.0;
            }
        };
        let flags = [
            (COMPLETE, state.previous() == Previous::CompleteMove),
            (PASSED, state.previous() == Previous::Pass),
            (PIE_FIRST, state.pie() == Pie::First),
            (PIE_CHOICE, state.pie() == Pie::Choice),
            (FIRST_SEAT, state.first_seat_plays(me)),
            (BOARD, true),
        ];
        for (plane, set) in flags {
            if set {
                on_board(plane, out);
            }
        }
        let per_board = [
            (CAPTURES, state.captures(me) as f32 / 16.0),
            (CAPTURES + 1, state.captures(them) as f32 / 16.0),
            (
                TURNS,
                match state.turn_limit() {
                    0 => 0.0,
                    limit => state.turns_played() as f32 / limit as f32,
                },
            ),
        ];
        for p in 0..geo.points() as u16 {
            let cell = Self::cell(geo, p, g);
            for (plane, v) in per_board {
                out[plane * gg + cell] = v;
            }
            if let Some(s) = state.stack(p) {
                let side = usize::from(s.color != me);
                let h = s.height as usize;
                for k in 0..h.min(THERMOMETER) {
                    out[(side * THERMOMETER + k) * gg + cell] = 1.0;
                }
                out[(HEIGHT + side) * gg + cell] = h as f32 / 16.0;
            }
            let guards = state.guards(p);
            for (side, c) in [(0, me), (1, them)] {
                for k in 0..(guards[c as usize] as usize).min(3) {
                    out[(GUARDS + 3 * side + k) * gg + cell] = 1.0;
                }
            }
            match state.controller(p) {
                Some(c) if c == me => out[CONTROL * gg + cell] = 1.0,
                Some(_) => out[(CONTROL + 1) * gg + cell] = 1.0,
                None => {}
            }
        }
        if let Some(s) = state.pending_source() {
            out[PENDING * gg + Self::cell(geo, s, g)] = 1.0;
        }
    }

    fn policy_index(&self, state: &Crumo, d: Decision) -> usize {
        let action = state
            .decode(d)
            .expect("a legal decision is inside the action space");
        Self::action_index(state.geometry(), action, self.grid(state))
    }

    fn symmetries(&self, _state: &Crumo) -> Vec<usize> {
        (0..Symmetry::ALL.len()).collect()
    }

    /// Who controls each point at the end (rule 9.1, what the score counts): the mover's
    /// control plane less the opponent's.
    fn ownership(&self, end: &Crumo, view: Player, sym: usize, out: &mut [f32]) -> bool {
        let mover_is_viewer = end.seat_of(end.to_move()) == view;
        let control = CONTROL..CONTROL + 1;
        ownership_from_planes(
            self,
            end,
            sym,
            mover_is_viewer,
            control,
            CONTROL + 1..CONTROL + 2,
            out,
        );
        true
    }
    fn map_planes(&self, sym: usize, g: usize, src: &[f32], dst: &mut [f32]) {
        let gg = g * g;
        let geo = Self::geometry_of_grid(g).expect("planes of a Crumo board");
        let t = Self::symmetry(sym).expect("one of the 12 symmetries");
        dst.fill(0.0);
        for p in 0..geo.points() as u16 {
            let from = Self::cell(geo, p, g);
            let to = Self::cell(geo, t.map_point(geo, p), g);
            for c in 0..PLANES {
                dst[c * gg + to] = src[c * gg + from];
            }
        }
    }

    fn mapped_policy_index(&self, state: &Crumo, sym: usize, d: Decision) -> Result<usize, String> {
        let mapped = Self::symmetry(sym)?.map_decision(state, d);
        let action = state
            .decode(mapped)
            .ok_or_else(|| format!("image {} of decision {}", mapped.0, d.0))?;
        Ok(Self::action_index(
            state.geometry(),
            action,
            self.grid(state),
        ))
    }
}
