//! The replay store and the sampler that turns it into training batches.
//!
//! The store is the self-play record files themselves, one directory per generation
//! (`replay/gen-NNNN/selfplay-*.crsp`): a record holds every decision of a game with the
//! search's policy target at each searched decision, so positions are rebuilt by replaying
//! the rules engine rather than stored as planes (a game of a few hundred decisions takes a
//! few kilobytes; its rasterised positions would take megabytes). Only the generations inside
//! the window are held in memory.
//!
//! A training sample is a searched decision whose search was *full* (playout cap
//! randomisation: fast searches only advance the game). Its targets:
//! - policy: the search's target over the legal decisions (0 elsewhere, legal mask beside it);
//! - value: the game's result from the deciding player's view (win 1, draw 0, loss −1),
//!   optionally mixed with the search's root value (`[replay] value_q_weight`): a game that
//!   ends in a turn-limit draw still teaches which side its searches thought was ahead;
//!   where the search proved the root's value (a forced win, loss or draw the solver saw,
//!   [`SearchRecord::proven`](crumble_selfplay::SearchRecord)), that exact value replaces
//!   the target, or is mixed into it by `[replay] proven_value_weight` (1 = replace). The
//!   policy target at a proven root is already the proving decisions (the search's output).
//!
//! Samples are drawn uniformly, or with policy-surprise weighting (KataGo's; `[replay]
//! policy_surprise_weight`): a sample's weight is `(1 − w) + w · KL / mean KL`, its target's
//! Kullback–Leibler divergence from the network's prior at that root over the mean of its
//! generation, so a share `w` of the draws goes to the positions that surprised the network.
//! Samples recorded without priors (files before record version 6) keep weight 1.
//!
//! Positions, targets and symmetries come from the game's encoder
//! ([`crumble_model::Encoder`]). With augmentation each sample is seen through a random
//! symmetry among those exact for its state (for Crumble, `crumble_model::encoders::crumble::symmetry`: any of
//! the 8 at the start of a turn, targets through the joint (choose, extent) distribution, and
//! in the swap phase; the 2 or 4 exact ones during an extent decision).

use crate::config::ReplayConfig;
use crumble_core::{GameState, Player};
use crumble_model::{CrumbleEncoder, Encoder};
use crumble_selfplay::record::{GameRecord, RecordError, read_file};
use crumble_selfplay::selfplay::record_files;
use rand::Rng;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use targets::WholeGame;
pub use targets::{AuxTargets, policy_surprise, short_value_target, surprise_weights};

mod targets;

/// Why replay data could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("replay file {path}: {source}")]
    Record {
        path: String,
        #[source]
        source: RecordError,
    },
    #[error("replay directory {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("replay game {index}: {what}")]
    Replay { index: u64, what: String },
    #[error(
        "replay game {index} is played on a grid of side {grid}; this run trains on grid side {want}"
    )]
    Geometry {
        index: u64,
        grid: usize,
        want: usize,
    },
}

/// One generation's games.
#[derive(Debug)]
struct Generation {
    games: Vec<GameRecord>,
    /// (game, step) of every training sample.
    samples: Vec<(u32, u32)>,
    /// Running sums of the samples' weights (empty when drawing uniformly).
    cumulative: Vec<f64>,
}

/// The generations in the window, newest last, and the encoder that turns their positions
/// into training samples (Crumble's by default).
#[derive(Debug)]
pub struct ReplayWindow<E = CrumbleEncoder> {
    encoder: E,
    /// The grid side of every game (one batch is one grid size).
    grid: usize,
    /// `[replay] policy_surprise_weight` (0: uniform draws).
    surprise_weight: f64,
    generations: BTreeMap<u32, Generation>,
}

/// The steps of a record that are training samples.
pub fn sample_steps(rec: &GameRecord) -> impl Iterator<Item = usize> + '_ {
    rec.steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.search.as_ref().is_some_and(|r| r.full))
        .map(|(i, _)| i)
}

/// Reads every record file of a generation directory.
pub fn read_generation(dir: &Path) -> Result<Vec<GameRecord>, ReplayError> {
    let files = record_files(dir).map_err(|e| ReplayError::Io {
        path: dir.display().to_string(),
        source: std::io::Error::other(e.to_string()),
    })?;
    let mut games = Vec::new();
    for f in files {
        games.extend(read_file(&f).map_err(|source| ReplayError::Record {
            path: f.display().to_string(),
            source,
        })?);
    }
    Ok(games)
}

impl<E> ReplayWindow<E> {
    /// An empty window of games on grid side `grid`, encoded by `encoder`.
    pub fn new(encoder: E, grid: usize) -> ReplayWindow<E> {
        ReplayWindow {
            encoder,
            grid,
            surprise_weight: 0.0,
            generations: BTreeMap::new(),
        }
    }

    /// Draws with policy-surprise weighting `w` in `[0, 1]` (0, the default: uniformly).
    /// Set before inserting generations: their weights are computed as they come in.
    pub fn surprise_weighted(mut self, w: f64) -> ReplayWindow<E> {
        self.surprise_weight = w;
        self
    }

    /// Adds generation `gen` from records in memory: games of `G` on the window's grid.
    pub fn insert<G: GameState>(
        &mut self,
        generation: u32,
        games: Vec<GameRecord>,
    ) -> Result<(), ReplayError>
    where
        E: Encoder<G>,
    {
        let mut samples = Vec::new();
        for (gi, g) in games.iter().enumerate() {
            let start: G = g.start_state().map_err(|e| ReplayError::Replay {
                index: g.index,
                what: e.to_string(),
            })?;
            let grid = self.encoder.grid(&start);
            if grid != self.grid {
                return Err(ReplayError::Geometry {
                    index: g.index,
                    grid,
                    want: self.grid,
                });
            }
            samples.extend(sample_steps(g).map(|s| (gi as u32, s as u32)));
        }
        let mut cumulative = Vec::new();
        if self.surprise_weight > 0.0 {
            let surprises: Vec<Option<f64>> = samples
                .iter()
                .map(|&(g, s)| {
                    let step = &games[g as usize].steps[s as usize];
                    step.search.as_ref().and_then(policy_surprise)
                })
                .collect();
            let mut sum = 0.0;
            cumulative = surprise_weights(&surprises, self.surprise_weight)
                .into_iter()
                .map(|w| {
                    sum += w;
                    sum
                })
                .collect();
        }
        self.generations.insert(
            generation,
            Generation {
                games,
                samples,
                cumulative,
            },
        );
        Ok(())
    }

    /// Drops generations older than `oldest`.
    pub fn retain_from(&mut self, oldest: u32) {
        self.generations.retain(|&g, _| g >= oldest);
    }

    /// Generations held, oldest first.
    pub fn generations(&self) -> Vec<u32> {
        self.generations.keys().copied().collect()
    }

    /// Training samples of one generation (0 when not held).
    pub fn samples_of(&self, generation: u32) -> u64 {
        self.generations
            .get(&generation)
            .map_or(0, |g| g.samples.len() as u64)
    }

    /// Training samples held in all.
    pub fn len(&self) -> u64 {
        self.generations
            .values()
            .map(|g| g.samples.len() as u64)
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Draws `n` samples (with replacement) from the whole window: uniformly, or by their
    /// surprise weights ([`ReplayWindow::surprise_weighted`]).
    pub fn draw(&self, n: usize, rng: &mut impl Rng) -> Vec<SampleRef> {
        let total = self.len();
        let mut out = Vec::with_capacity(n);
        if total == 0 {
            return out;
        }
        if self.surprise_weight > 0.0 {
            let weight = |g: &Generation| g.cumulative.last().copied().unwrap_or(0.0);
            let total: f64 = self.generations.values().map(weight).sum();
            for _ in 0..n {
                let mut x = rng.random::<f64>() * total;
                // Rounding may leave x at the very end: the last sample of the last
                // generation with samples takes it.
                let mut pick = None;
                for (&generation, g) in &self.generations {
                    if g.samples.is_empty() {
                        continue;
                    }
                    let k = g.cumulative.partition_point(|&c| c <= x);
                    pick = Some((generation, g, k.min(g.samples.len() - 1)));
                    if k < g.samples.len() {
                        break;
                    }
                    x -= weight(g);
                }
                if let Some((generation, g, k)) = pick {
                    let (game, step) = g.samples[k];
                    out.push(SampleRef {
                        generation,
                        game,
                        step,
                    });
                }
            }
            return out;
        }
        for _ in 0..n {
            let mut k = rng.random_range(0..total);
            for (&generation, g) in &self.generations {
                let len = g.samples.len() as u64;
                if k < len {
                    let (game, step) = g.samples[k as usize];
                    out.push(SampleRef {
                        generation,
                        game,
                        step,
                    });
                    break;
                }
                k -= len;
            }
        }
        out
    }

    /// Rebuilds the positions of `refs` and fills a host batch (see [`HostBatch`]), with
    /// augmentation and value targets as `cfg` says, and the auxiliary targets `aux` asks
    /// for (ownership from each game's end position, [`Encoder::ownership`]; short-term
    /// values from its later searches, [`short_value_target`]).
    pub fn build<G: GameState>(
        &self,
        refs: &[SampleRef],
        cfg: &ReplayConfig,
        aux: AuxTargets,
        rng: &mut impl Rng,
        out: &mut HostBatch,
    ) -> Result<(), ReplayError>
    where
        E: Encoder<G>,
    {
        let mut order: Vec<usize> = (0..refs.len()).collect();
        // One replay per game: visit samples sorted by (generation, game, step).
        order.sort_by_key(|&i| (refs[i].generation, refs[i].game, refs[i].step));
        out.clear();
        let mut scratch = E::Scratch::default();
        let mut k = 0;
        while k < order.len() {
            let r0 = refs[order[k]];
            let rec = &self.generations[&r0.generation].games[r0.game as usize];
            let mut game: G = rec.start_state().map_err(|e| ReplayError::Replay {
                index: rec.index,
                what: e.to_string(),
            })?;
            let whole = if aux.ownership || aux.short_value_horizon.is_some() {
                Some(WholeGame::of(rec, &game)?)
            } else {
                None
            };
            let end = whole.as_ref().filter(|_| aux.ownership).map(|w| &w.end);
            let mut at = 0usize;
            while k < order.len()
                && refs[order[k]].generation == r0.generation
                && refs[order[k]].game == r0.game
            {
                let step = refs[order[k]].step as usize;
                while at < step {
                    game.apply(rec.steps[at].decision)
                        .map_err(|e| ReplayError::Replay {
                            index: rec.index,
                            what: format!("decision {at} refused: {e}"),
                        })?;
                    at += 1;
                }
                let sym = if cfg.augment {
                    let syms = self.encoder.symmetries(&game);
                    syms[rng.random_range(0..syms.len())]
                } else {
                    0
                };
                out.push(
                    &self.encoder,
                    &mut scratch,
                    &game,
                    rec,
                    step,
                    sym,
                    ValueMix {
                        q_weight: cfg.value_q_weight as f32,
                        proven_weight: cfg.proven_value_weight as f32,
                    },
                    end,
                )?;
                if let (Some(h), Some(w)) = (aux.short_value_horizon, &whole) {
                    let decider = game.decider().ok_or_else(|| ReplayError::Replay {
                        index: rec.index,
                        what: format!("step {step}: the game is already over"),
                    })?;
                    let now = rec.steps[step].search.as_ref().map_or(0.0, |s| s.value);
                    let turn = game.turns_played() - w.first_turn;
                    let z = value_target(rec.winner(), decider);
                    let later = w.turn_values.get(turn as usize + 1..).unwrap_or(&[]);
                    out.short_value
                        .push(short_value_target(later, decider, now, z, h));
                }
                k += 1;
            }
        }
        Ok(())
    }
}

/// How a sample's value target mixes the game result, the search's root value and a proof
/// (`[replay] value_q_weight` and `proven_value_weight`).
#[derive(Clone, Copy, Debug)]
struct ValueMix {
    q_weight: f32,
    proven_weight: f32,
}

/// Where one sample lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleRef {
    pub generation: u32,
    pub game: u32,
    pub step: u32,
}

/// A batch on the host: planes in the encoder's layout, policy targets and legal masks in
/// policy-index order, value targets.
#[derive(Debug, Default)]
pub struct HostBatch {
    pub grid: usize,
    pub planes: Vec<f32>,
    pub policy: Vec<f32>,
    pub mask: Vec<f32>,
    pub value: Vec<f32>,
    /// With ownership targets: `G·G` values a sample (the encoder's layout) and a flag a
    /// sample (1: it has one; a game whose end the rules did not decide has none).
    pub ownership: Vec<f32>,
    pub has_ownership: Vec<f32>,
    /// With short-term values: one a sample.
    pub short_value: Vec<f32>,
    scratch: Vec<f32>,
}

impl HostBatch {
    pub fn len(&self) -> usize {
        self.value.len()
    }

    pub fn is_empty(&self) -> bool {
        self.value.is_empty()
    }

    fn clear(&mut self) {
        self.planes.clear();
        self.policy.clear();
        self.mask.clear();
        self.value.clear();
        self.ownership.clear();
        self.has_ownership.clear();
        self.short_value.clear();
    }

    /// Appends the sample at `step` of `rec`, whose state is `game`, seen through `sym`.
    #[allow(clippy::too_many_arguments)]
    fn push<G: GameState, E: Encoder<G>>(
        &mut self,
        encoder: &E,
        scratch: &mut E::Scratch,
        game: &G,
        rec: &GameRecord,
        step: usize,
        sym: usize,
        mix: ValueMix,
        end: Option<&G>,
    ) -> Result<(), ReplayError> {
        let g = encoder.grid(game);
        self.grid = g;
        let per = E::INPUT_PLANES * g * g;
        let a = encoder.policy_len(g);
        let bad = |what: String| ReplayError::Replay {
            index: rec.index,
            what: format!("step {step}: {what}"),
        };
        let search = rec.steps[step]
            .search
            .as_ref()
            .ok_or_else(|| bad("not a searched decision".into()))?;
        // Planes.
        self.scratch.resize(per, 0.0);
        encoder.encode(game, scratch, &mut self.scratch);
        let start = self.planes.len();
        self.planes.resize(start + per, 0.0);
        if sym == 0 {
            self.planes[start..].copy_from_slice(&self.scratch);
        } else {
            encoder.map_planes(sym, g, &self.scratch, &mut self.planes[start..]);
        }
        // Policy target and legal mask.
        let pstart = self.policy.len();
        self.policy.resize(pstart + a, 0.0);
        self.mask.resize(pstart + a, 0.0);
        encoder
            .policy_target(
                game,
                search,
                sym,
                &mut self.policy[pstart..],
                &mut self.mask[pstart..],
            )
            .map_err(bad)?;
        // Value target from the decider's view.
        let decider = game
            .decider()
            .ok_or_else(|| bad("the game is already over".into()))?;
        let z = value_target(rec.winner(), decider);
        let mut v = (1.0 - mix.q_weight) * z + mix.q_weight * search.value.clamp(-1.0, 1.0);
        if let Some(p) = search.proven {
            v = (1.0 - mix.proven_weight) * v + mix.proven_weight * p.clamp(-1.0, 1.0);
        }
        self.value.push(v);
        if let Some(end) = end {
            let at = self.ownership.len();
            self.ownership.resize(at + g * g, 0.0);
            // A game stopped before its end (a resignation) has no final position to learn.
            let has =
                end.is_over() && encoder.ownership(end, decider, sym, &mut self.ownership[at..]);
            self.has_ownership.push(if has { 1.0 } else { 0.0 });
        }
        Ok(())
    }
}

/// The game result from `decider`'s view: 1 win, 0 draw, −1 loss.
pub fn value_target(winner: Option<Player>, decider: Player) -> f32 {
    match winner {
        None => 0.0,
        Some(w) if w == decider => 1.0,
        Some(_) => -1.0,
    }
}

/// The directory of generation `g`'s replay files under `run`.
pub fn generation_dir(run: &Path, generation: u32) -> PathBuf {
    run.join("replay").join(format!("gen-{generation:04}"))
}

#[cfg(test)]
mod tests;
