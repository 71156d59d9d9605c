//! Crumble's encoder: the rasteriser's planes on the fine grid ([`planes`]), decisions as
//! policy indices ([`action`]) and the square's symmetries ([`symmetry`]).

pub mod action;
pub mod planes;
pub mod symmetry;

use crate::builtin::Builtin;
use crate::encoder::{Encoder, ownership_from_planes};
use crumble_core::games::crumble::Crumble;
use crumble_core::{Color, Decision, Player};
use crumble_selfplay::SearchRecord;
use ndarray::{ArrayView3, ArrayViewMut3};
use symmetry::Sym;

/// Crumble's encoder: the rasteriser's planes ([`planes`]), the action space as the policy
/// ([`action`]: 8 planes on the fine grid and `Stop`), and the 8 symmetries of the square
/// ([`symmetry`]), with choose-phase targets mapped through the joint (choose, extent)
/// distribution.
#[derive(Clone, Copy, Debug, Default)]
pub struct CrumbleEncoder;

impl Encoder<Crumble> for CrumbleEncoder {
    type Scratch = planes::Rasteriser;

    const INPUT_PLANES: usize = planes::PLANES;
    const POLICY_PLANES: usize = 8;
    const POLICY_EXTRA: usize = 1;
    const OWNERSHIP: bool = true;
    /// The default recipe's long run, generation 841 at 8 CPU-hours (`model/assets/README.md`).
    const BUILTIN: Option<Builtin> = Some(Builtin {
        name: "<built-in Crumble network gen-0841>",
        bytes: include_bytes!("../../../assets/crumble-gen0841.crnet"),
    });
    fn grid(&self, state: &Crumble) -> usize {
        usize::from(state.grid_size())
    }
    fn resolution(&self, state: &Crumble) -> usize {
        usize::from(state.board().resolution())
    }
    fn encode(&self, state: &Crumble, scratch: &mut planes::Rasteriser, out: &mut [f32]) {
        scratch.rasterise_slice(state, out);
    }
    fn encode_cells(
        &self,
        state: &Crumble,
        scratch: &mut planes::Rasteriser,
        stride: usize,
        _planes: &mut Vec<f32>,
        out: &mut [f32],
    ) {
        scratch.rasterise_cells(state, stride, out);
    }
    fn policy_index(&self, _state: &Crumble, d: Decision) -> usize {
        action::index(d)
    }
    fn symmetries(&self, state: &Crumble) -> Vec<usize> {
        symmetry::exact_syms(state)
            .into_iter()
            .map(Sym::index)
            .collect()
    }
    fn map_planes(&self, sym: usize, g: usize, src: &[f32], dst: &mut [f32]) {
        let sym = Sym::from_index(sym).expect("a symmetry index below 8");
        let src = ArrayView3::from_shape((planes::PLANES, g, g), src).expect("plane buffer shape");
        let dst =
            ArrayViewMut3::from_shape((planes::PLANES, g, g), dst).expect("plane buffer shape");
        symmetry::transform_planes(sym, src, dst);
    }
    /// The colour of the pieces on each fine cell: the rasteriser's own and opponent planes
    /// (own: the colour to move at the end), mapped with the rest.
    fn ownership(&self, end: &Crumble, view: Player, sym: usize, out: &mut [f32]) -> bool {
        let mover_is_viewer = end.to_move() == Color::from(view);
        let (own, opp) = (planes::OWN, planes::OPP);
        ownership_from_planes(
            self,
            end,
            sym,
            mover_is_viewer,
            own..own + 1,
            opp..opp + 1,
            out,
        );
        true
    }
    /// Exact for every decision except a first decision with more than one extent, whose
    /// image depends on the second ([`Encoder::policy_target`] maps those through the pairs).
    fn mapped_policy_index(
        &self,
        game: &Crumble,
        sym: usize,
        d: Decision,
    ) -> Result<usize, String> {
        let sym = Sym::from_index(sym).ok_or_else(|| format!("symmetry {sym} of 8"))?;
        let mapped = symmetry::map_decision(game, d, sym)
            .ok_or_else(|| format!("transform {} of decision {}", sym.name(), d.0))?;
        Ok(action::index(mapped))
    }
    fn policy_target(
        &self,
        game: &Crumble,
        search: &SearchRecord,
        sym: usize,
        target: &mut [f32],
        mask: &mut [f32],
    ) -> Result<(), String> {
        let sym = Sym::from_index(sym).ok_or_else(|| format!("symmetry {sym} of 8"))?;
        let a = target.len();
        let mut put = |i: usize, p: f32| -> Result<(), String> {
            if i >= a {
                return Err(format!("policy index {i} outside the action space"));
            }
            target[i] += p;
            mask[i] = 1.0;
            Ok(())
        };
        if sym == Sym::IDENTITY {
            for &(d, p) in &search.policy {
                put(action::index(d), p)?;
            }
        } else if game.at_turn_start() && !search.joint.is_empty() {
            // A choose decision maps exactly only with its extent: go through the pairs.
            for (c, e) in symmetry::legal_bases(game) {
                let (c2, _) = symmetry::map_base(game, c, e, sym)
                    .ok_or_else(|| format!("transform {} of a legal pair", sym.name()))?;
                put(action::index(c2), 0.0)?;
            }
            for (d, p) in symmetry::transform_choose_target(game, &search.joint, sym) {
                put(action::index(d), p)?;
            }
        } else {
            for &(d, p) in &search.policy {
                put(self.mapped_policy_index(game, sym.index(), d)?, p)?;
            }
        }
        Ok(())
    }
}
