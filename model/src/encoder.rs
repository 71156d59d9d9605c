//! The encoder interface: how a game's states become the network's input planes and its
//! decisions policy indices, and how the board's symmetries act on both, in the style of
//! Polygames' feature and action shapes.
//!
//! A network is built from an encoder's shapes ([`crate::NetConfig::with_encoder`]): input
//! planes `[C, G, G]` and a policy of `P` planes over the same grid plus `extra` logits
//! computed from pooled features (Crumble's `Stop`), so a new game needs an encoder, not a
//! new network. The grid side `G` may differ between states of one game (Crumble's board
//! sizes); the network is fully convolutional.
//!
//! Symmetries are numbered `0..` with 0 the identity. An encoder lists the ones exact for a
//! state ([`Encoder::symmetries`]): for such a symmetry `T`, the planes of `T(s)` are the
//! mapped planes of `s` ([`Encoder::map_planes`]), and the training target of `T(s)` is the
//! mapped target ([`Encoder::policy_target`]), the legal decisions of `T(s)` being the
//! mapped legal decisions of `s`. Between turns the symmetries are the game's own
//! ([`GameState::symmetries`], the same numbers), and `T(s)` is the game's image
//! ([`GameState::symmetry_image`]). [`check_encoder`] tests all of this on random games.

use crate::builtin::Builtin;
use crumble_core::{Decision, GameState, Player};
use crumble_selfplay::SearchRecord;
use std::fmt;

/// A game's encoding for the network; see the module docs.
pub trait Encoder<G: GameState>: Send + Sync + fmt::Debug + 'static {
    /// Per-thread buffers of [`Encoder::encode`].
    type Scratch: Default + Send;

    /// Input planes `C`.
    const INPUT_PLANES: usize;
    /// Policy planes `P` over the grid.
    const POLICY_PLANES: usize;
    /// Policy logits after the planes, computed from pooled features (Crumble's `Stop`);
    /// none by default.
    const POLICY_EXTRA: usize = 0;
    /// The input plane that marks the board's cells when the board does not fill the grid
    /// and the network should ignore the rest ([`crate::NetConfig::mask_plane`]); `None`
    /// when every cell counts.
    fn board_mask_plane(&self) -> Option<usize> {
        None
    }
    /// Grid side `G` of `state`.
    fn grid(&self, state: &G) -> usize;
    /// Grid cells per board cell of `state` (Crumble's resolution `R`; 1 for a game whose
    /// grid is its board): a network reads positions of the resolution it was built for.
    fn resolution(&self, _state: &G) -> usize {
        1
    }
    /// Policy length on grid side `g`: `P·g·g + extra`.
    fn policy_len(&self, g: usize) -> usize {
        Self::POLICY_PLANES * g * g + Self::POLICY_EXTRA
    }
    /// Writes the planes `[C, G, G]` of `state` into `out` (length `C·G·G`; every value is
    /// written).
    fn encode(&self, state: &G, scratch: &mut Self::Scratch, out: &mut [f32]);
    /// Writes the planes of `state` in the network's cell layout for stem stride `stride`
    /// into `out` (what [`crate::Layout::to_cells`] makes of [`Encoder::encode`]'s planes).
    /// The default encodes into `planes` and reorders; an encoder may write the layout
    /// directly (Crumble's does, saving the reordering pass).
    fn encode_cells(
        &self,
        state: &G,
        scratch: &mut Self::Scratch,
        stride: usize,
        planes: &mut Vec<f32>,
        out: &mut [f32],
    ) {
        planes.resize(out.len(), 0.0);
        self.encode(state, scratch, planes);
        let layout = crate::Layout {
            input_planes: Self::INPUT_PLANES,
            policy_planes: Self::POLICY_PLANES,
            policy_extra: Self::POLICY_EXTRA,
            stride,
        };
        layout.to_cells(planes, self.grid(state), out);
    }
    /// Policy index of a legal decision of `state`: `plane·G·G + y·G + x`, or `P·G·G + k`
    /// for extra logit `k`.
    fn policy_index(&self, state: &G, d: Decision) -> usize;
    /// The symmetries exact for `state` (see the module docs), the identity (0) first.
    fn symmetries(&self, state: &G) -> Vec<usize>;
    /// The planes of `T(s)` from the planes `src` of `s` (both `[C, g, g]`), for a symmetry
    /// `sym` exact for `s`.
    fn map_planes(&self, sym: usize, g: usize, src: &[f32], dst: &mut [f32]);
    /// The policy index, in the policy of `T(state)`, of the image of the legal decision `d`
    /// of `state` under the exact symmetry `sym`. `Err` says what does not map.
    fn mapped_policy_index(&self, state: &G, sym: usize, d: Decision) -> Result<usize, String>;
    /// Adds the policy target of a searched decision at `state`, seen through the exact
    /// symmetry `sym`, into `target` and marks the legal decisions of `T(state)` in `mask`
    /// (both of the policy length, zeroed by the caller). `Err` says what does not map. The
    /// default maps each searched decision by [`Encoder::mapped_policy_index`]; Crumble's
    /// overrides it, since its first decision maps exactly only with the second.
    /// Does [`Encoder::ownership`] give a target?
    const OWNERSHIP: bool = false;

    /// The network compiled into the program for this game (the agent `bot`), if it has one.
    const BUILTIN: Option<Builtin> = None;

    /// The ownership target of KataGo's auxiliary head: at each fine-grid cell of the
    /// finished game `end` seen through the exact symmetry `sym` (one of `end`'s), `+1` where
    /// `view`'s pieces stand, `-1` where the opponent's, `0` elsewhere, into `out` (`G·G`
    /// values, row `y` then column `x`, as each input plane). `false`, with `out` untouched, for a game that has
    /// no such target (the default).
    fn ownership(&self, end: &G, view: Player, sym: usize, out: &mut [f32]) -> bool {
        let _ = (end, view, sym, out);
        false
    }

    fn policy_target(
        &self,
        state: &G,
        search: &SearchRecord,
        sym: usize,
        target: &mut [f32],
        mask: &mut [f32],
    ) -> Result<(), String> {
        let mut probe = state.clone();
        for &(d, p) in &search.policy {
            if let Some(why) = probe.refusal(d) {
                return Err(format!("decision {} is not legal: {why}", d.0));
            }
            let i = self.mapped_policy_index(state, sym, d)?;
            if i >= target.len() {
                return Err(format!("decision {} outside the policy", d.0));
            }
            target[i] += p;
            mask[i] = 1.0;
        }
        Ok(())
    }
}

/// [`Encoder::ownership`] for an encoder whose planes hold the mover's and the opponent's
/// pieces (or points): `end` encoded and mapped through `sym`, then at each cell the sum of
/// the `own` planes less that of the `opp` planes, negated unless `mover_is_viewer` (the
/// side the encoder's own planes show in `end` is the viewer's).
pub fn ownership_from_planes<G: GameState, E: Encoder<G>>(
    encoder: &E,
    end: &G,
    sym: usize,
    mover_is_viewer: bool,
    own: std::ops::Range<usize>,
    opp: std::ops::Range<usize>,
    out: &mut [f32],
) {
    let g = encoder.grid(end);
    let area = g * g;
    let mut planes = vec![0.0; E::INPUT_PLANES * area];
    encoder.encode(end, &mut E::Scratch::default(), &mut planes);
    if sym != 0 {
        let mut mapped = vec![0.0; planes.len()];
        encoder.map_planes(sym, g, &planes, &mut mapped);
        planes = mapped;
    }
    let sign = if mover_is_viewer { 1.0 } else { -1.0 };
    let sum = |r: &std::ops::Range<usize>, i: usize| -> f32 {
        r.clone().map(|c| planes[c * area + i]).sum()
    };
    for (i, o) in out.iter_mut().enumerate().take(area) {
        *o = sign * (sum(&own, i) - sum(&opp, i));
    }
}

/// What [`check_encoder`] found wrong.
#[derive(Debug, thiserror::Error)]
#[error("encoder check, game {game}, decision {ply}: {what}")]
pub struct EncoderViolation {
    pub game: u32,
    pub ply: u32,
    pub what: String,
}

/// The encoder's part of the conformance test, on `games` random games from `start`: the
/// planes have the declared shape and are finite; every legal decision has its own policy
/// index below the policy length; and every exact symmetry is a permutation of the planes and
/// maps the legal decisions onto legal decisions: a uniform target over the legal decisions
/// keeps its mass 1, all of it on decisions its mask marks legal, as many as before (at a
/// turn start mapped through the joint distribution of the turn's first two decisions, the
/// pairs map one to one, so only the mass and the mask are checked).
pub fn check_encoder<G: GameState, E: Encoder<G>>(
    encoder: &E,
    start: &G,
    games: u32,
    seed: u64,
) -> Result<u64, EncoderViolation> {
    use rand::SeedableRng;
    let mut scratch = E::Scratch::default();
    let mut legal = Vec::new();
    let mut checked = 0u64;
    for game in 0..games {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ u64::from(game) << 20);
        let mut s = start.clone();
        if s.turn_limit() == 0 {
            s.set_turn_limit(60);
        }
        let mut ply = 0u32;
        while !s.is_over() {
            let fail = |what: String| EncoderViolation { game, ply, what };
            let g = encoder.grid(&s);
            let c = E::INPUT_PLANES;
            let a = encoder.policy_len(g);
            let mut planes = vec![f32::NAN; c * g * g];
            encoder.encode(&s, &mut scratch, &mut planes);
            if let Some(k) = planes.iter().position(|v| !v.is_finite()) {
                return Err(fail(format!(
                    "plane value {k} of {} not written",
                    planes.len()
                )));
            }
            s.legal_decisions_into(&mut legal);
            let mut seen = vec![false; a];
            for &d in &legal {
                let i = encoder.policy_index(&s, d);
                if i >= a || std::mem::replace(&mut seen[i], true) {
                    return Err(fail(format!(
                        "decision {} has policy index {i} (length {a}, or taken)",
                        d.0
                    )));
                }
            }
            let uniform = SearchRecord {
                value: 0.0,
                full: true,
                proven: None,
                policy: legal
                    .iter()
                    .map(|&d| (d, 1.0 / legal.len() as f32))
                    .collect(),
                prior: Vec::new(),
                joint: uniform_joint(&s, &legal),
            };
            let syms = encoder.symmetries(&s);
            if syms.first() != Some(&0) {
                return Err(fail(format!("symmetries {syms:?} do not start with 0")));
            }
            if s.at_turn_start() {
                check_state_symmetries(encoder, &s, &syms, &planes, &mut scratch).map_err(fail)?;
            }
            for &sym in &syms {
                let mut mapped = vec![f32::NAN; planes.len()];
                encoder.map_planes(sym, g, &planes, &mut mapped);
                let (mut x, mut y) = (planes.clone(), mapped.clone());
                x.sort_by(f32::total_cmp);
                y.sort_by(f32::total_cmp);
                if x != y {
                    return Err(fail(format!("symmetry {sym} does not permute the planes")));
                }
                let (mut target, mut mask) = (vec![0.0; a], vec![0.0; a]);
                encoder
                    .policy_target(&s, &uniform, sym, &mut target, &mut mask)
                    .map_err(|e| fail(format!("symmetry {sym}: {e}")))?;
                let legal_after = mask.iter().filter(|&&m| m > 0.0).count();
                let mass: f32 = target.iter().sum();
                // Through a joint distribution, the first decisions of T(s) are the first
                // components of the mapped pairs: as many pairs, maybe not as many firsts.
                let count_kept = legal_after == legal.len() || !uniform.joint.is_empty();
                let outside = target.iter().zip(&mask).any(|(&t, &m)| t > 0.0 && m == 0.0);
                if !count_kept || legal_after == 0 || outside || (mass - 1.0).abs() > 1e-4 {
                    return Err(fail(format!(
                        "symmetry {sym} maps {} legal decisions to {legal_after} (mass {mass})",
                        legal.len()
                    )));
                }
            }
            checked += 1;
            s.play_random_turn(&mut rng);
            ply += 1;
        }
    }
    Ok(checked)
}

/// Between turns the encoder's symmetries are the game's ([`GameState::symmetries`], one
/// numbering), and the planes of each image `T(s)` are `s`'s planes mapped by `T`.
fn check_state_symmetries<G: GameState, E: Encoder<G>>(
    encoder: &E,
    s: &G,
    syms: &[usize],
    planes: &[f32],
    scratch: &mut E::Scratch,
) -> Result<(), String> {
    if syms != s.symmetries() {
        return Err(format!(
            "the encoder's symmetries {syms:?} are not the game's {:?}",
            s.symmetries()
        ));
    }
    let g = encoder.grid(s);
    for &sym in syms {
        let image = s
            .symmetry_image(sym)
            .ok_or_else(|| format!("the game has no image under its symmetry {sym}"))?;
        let mut mapped = vec![f32::NAN; planes.len()];
        encoder.map_planes(sym, g, planes, &mut mapped);
        let mut direct = vec![f32::NAN; planes.len()];
        encoder.encode(&image, scratch, &mut direct);
        if let Some(k) = (0..planes.len()).find(|&k| mapped[k] != direct[k]) {
            return Err(format!(
                "symmetry {sym}: value {k} of the image's planes is {}, the mapped planes' {}",
                direct[k], mapped[k]
            ));
        }
    }
    Ok(())
}

/// The joint distribution over a turn's first two decisions that a search with uniform
/// visits would record ([`crumble_selfplay::Search::joint_first_two`]); empty where the turn
/// does not go on after its first decision.
fn uniform_joint<G: GameState>(s: &G, legal: &[Decision]) -> Vec<(Decision, Decision, f32)> {
    let mut out = Vec::new();
    if !s.at_turn_start() {
        return out;
    }
    let mut second = Vec::new();
    for &d in legal {
        let mut t = s.clone();
        t.apply_unchecked(d);
        if t.is_over() || t.at_turn_start() || t.decider() != s.decider() {
            continue;
        }
        t.legal_decisions_into(&mut second);
        let m = 1.0 / (legal.len() * second.len()) as f32;
        out.extend(second.iter().map(|&e| (d, e, m)));
    }
    out
}
