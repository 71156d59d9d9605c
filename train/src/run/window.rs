//! The replay window of a run: which finished generations it holds, and loading them from
//! their record files.

use super::{Run, TrainError};
use crate::config::TrainConfig;
use crate::games::TrainGame;
use crate::ledger::{History, Row};
use crate::replay::{ReplayWindow, generation_dir};
use crumble_model::Encoder;
use std::path::Path;

impl<G: TrainGame> Run<G> {
    /// Step 2 of generation `g` (its `new_positions` already in the window): drops the
    /// generations that no longer fit and loads those that now do.
    pub(super) fn slide_window(
        &mut self,
        g: u32,
        new_positions: u64,
        row: &mut Row,
    ) -> Result<(), TrainError> {
        let keep = window_generations_with(&self.cfg, &self.history, new_positions, g);
        if let Some(&oldest) = keep.first() {
            self.window.retain_from(oldest);
        }
        for gen_ in keep {
            if !self.window.generations().contains(&gen_) {
                load_generation::<G>(&mut self.window, &self.dir, gen_, &self.history)?;
            }
        }
        row.replay_positions = self.window.len() as f64;
        Ok(())
    }
}

/// The window a resumed run starts from: the one the last finished generation trained on.
pub(super) fn load_window<G: TrainGame>(
    cfg: &TrainConfig,
    standard: &G,
    dir: &Path,
    history: &History,
) -> Result<ReplayWindow<G::Encoder>, TrainError> {
    let encoder = G::Encoder::default();
    let grid = encoder.grid(standard);
    let mut window =
        ReplayWindow::new(encoder, grid).surprise_weighted(cfg.replay.policy_surprise_weight);
    for g in window_generations(cfg, history) {
        load_generation::<G>(&mut window, dir, g, history)?;
    }
    Ok(window)
}

/// Loads finished generation `g` into the window, refusing a generation whose record files
/// do not hold exactly the games its ledger row counts (a deleted file or directory is an
/// error, never silently less data).
fn load_generation<G: TrainGame>(
    window: &mut ReplayWindow<G::Encoder>,
    run: &Path,
    g: u32,
    history: &History,
) -> Result<(), TrainError> {
    let dir = generation_dir(run, g);
    let games = crate::replay::read_generation(&dir)?;
    let want = history.games_of(g).ok_or_else(|| TrainError::Ledger {
        path: dir.display().to_string(),
        what: format!("generation {g} is not among the finished generations the window can hold"),
    })?;
    if games.len() as f64 != want {
        return Err(TrainError::Ledger {
            path: dir.display().to_string(),
            what: format!(
                "holds {} games, but progress.csv says generation {g} played {want}: record \
                 files are missing or were added. Nothing was changed; restore the files",
                games.len()
            ),
        });
    }
    window.insert::<G>(g, games)?;
    Ok(())
}

/// The generations the window holds after the finished generations of `history`.
fn window_generations(cfg: &TrainConfig, history: &History) -> Vec<u32> {
    match &history.last {
        None => Vec::new(),
        Some(last) => window_generations_with(cfg, history, last.positions as u64, history.done),
    }
}

/// The generations in the window when generation `newest` (with `newest_positions`) is the
/// newest: the newest ones whose positions fit the window size. `newest` is either the last
/// finished generation of `history` or the one after it.
fn window_generations_with(
    cfg: &TrainConfig,
    history: &History,
    newest_positions: u64,
    newest: u32,
) -> Vec<u32> {
    let total = if newest <= history.done {
        history.total_positions
    } else {
        history.total_positions + newest_positions
    };
    let want = cfg.replay.window(total);
    let mut have = newest_positions;
    let mut gens = vec![newest];
    for g in (1..newest).rev() {
        // Generations no longer tracked cannot fit (see `History`).
        let Some(p) = history.positions_of(g) else {
            break;
        };
        if have + p > want {
            break;
        }
        have += p;
        gens.push(g);
    }
    gens.reverse();
    gens
}
