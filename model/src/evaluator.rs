//! [`NetEvaluator`]: the network behind the search's batch-first [`Evaluator`] trait, and the
//! [`NetLoader`] that builds it for `ckpt:PATH[:SIMS]` agents.

use crate::action;
use crate::checkpoint::{self, CheckpointError};
use crate::fast::{FastNet, Scratch};
use crate::net::{CrumbleNet, NetConfig};
use crate::planes::{PLANES, Rasteriser};
use burn::module::Module;
use burn::tensor::Device;
use crumble_core::Game;
use crumble_selfplay::agent::CheckpointLoader;
use crumble_selfplay::evaluator::{EvalError, Evaluation, Evaluator, Leaf};
use std::cell::RefCell;
use std::path::Path;

thread_local! {
    /// Per-thread rasteriser and plane buffer of [`NetEvaluator`]'s parallel rasterising.
    static RASTER_SCRATCH: RefCell<(Rasteriser, Vec<f32>)> = RefCell::new((Rasteriser::new(), Vec::new()));
}

/// Evaluates leaves with a [`CrumbleNet`]: rasterises a batch into a reused host buffer (in
/// the cell layout, [`crate::planes::to_cells`]), runs one forward pass per board size in the
/// batch on the host ([`FastNet`], the net's function without burn), and turns logits into priors over each
/// leaf's legal decisions ([`action::legal_softmax`]); the value is the net's, from the view
/// of the leaf's decider.
#[derive(Debug)]
pub struct NetEvaluator {
    name: String,
    config: NetConfig,
    net: CrumbleNet,
    /// The host-side copy of `net` that runs the forward passes.
    fast: FastNet,
    fast_scratch: Scratch,
    values: Vec<f32>,
    all_logits: Vec<f32>,
    /// Where `net` lives (the forward passes themselves run on the host, in `fast`).
    #[allow(dead_code)]
    device: Device,
    /// Host input buffer `[B, n, n, s, s, PLANES]` (cell layout), grown as needed and reused.
    input: Vec<f32>,
    /// One position's logits in action order.
    logits: Vec<f32>,
    /// [`action::cell_order`] for the grid side and stride it was built for.
    order: (usize, Vec<u32>),
    /// Leaf indices of the current sub-batch.
    group: Vec<usize>,
}

impl NetEvaluator {
    /// Wraps a network (put into inference mode) on `device`.
    pub fn new(
        name: impl Into<String>,
        config: NetConfig,
        net: CrumbleNet,
        device: Device,
    ) -> NetEvaluator {
        NetEvaluator {
            name: name.into(),
            config,
            fast: FastNet::new(&net),
            fast_scratch: Scratch::default(),
            values: Vec::new(),
            all_logits: Vec::new(),
            net: net.valid(),
            device,
            input: Vec::new(),
            logits: Vec::new(),
            order: (0, Vec::new()),
            group: Vec::new(),
        }
    }

    /// Loads a checkpoint onto `device`.
    pub fn load(path: &Path, device: Device) -> Result<NetEvaluator, CheckpointError> {
        let (config, net) = checkpoint::load(path, &device)?;
        Ok(NetEvaluator::new(
            path.display().to_string(),
            config,
            net,
            device,
        ))
    }

    pub fn config(&self) -> &NetConfig {
        &self.config
    }

    pub fn net(&self) -> &CrumbleNet {
        &self.net
    }

    fn failed(&self, message: String) -> EvalError {
        EvalError::Failed {
            evaluator: self.name.clone(),
            message,
        }
    }

    /// Runs the net on the leaves `idx` (all of grid size `g`): fills their evaluations.
    fn run_group(
        &mut self,
        leaves: &[Leaf<'_, Game>],
        idx: &[usize],
        g: usize,
        out: &mut [Evaluation],
    ) -> Result<(), EvalError> {
        let per = PLANES * g * g;
        let b = idx.len();
        if self.input.len() < b * per {
            self.input.resize(b * per, 0.0);
        }
        let s = self.net.stride();
        let n = g / s;
        // Rasterising costs about as much as the forward pass of a small net: spread it over
        // the threads too (each with its own rasteriser and scratch plane buffer).
        {
            use rayon::prelude::*;
            let chunk = b.div_ceil(rayon::current_num_threads().max(1)).max(1);
            self.input[..b * per]
                .par_chunks_mut(chunk * per)
                .zip(idx.par_chunks(chunk))
                .for_each(|(dst, ids)| {
                    RASTER_SCRATCH.with(|cell| {
                        let mut cell = cell.borrow_mut();
                        let (raster, scratch) = &mut *cell;
                        scratch.resize(per, 0.0);
                        for (k, &i) in ids.iter().enumerate() {
                            raster.rasterise_slice(leaves[i].game, scratch);
                            crate::planes::to_cells(
                                scratch,
                                g,
                                s,
                                &mut dst[k * per..(k + 1) * per],
                            );
                        }
                    });
                });
        }
        self.fast.forward(
            &self.input[..b * per],
            b,
            n,
            &mut self.fast_scratch,
            &mut self.all_logits,
            &mut self.values,
        );
        let (logits, values) = (&self.all_logits, &self.values);
        let a = action::policy_len(g as u16);
        if self.order.0 != g {
            self.order = (g, action::cell_order(g, s));
        }
        self.logits.resize(a, 0.0);
        for (k, &i) in idx.iter().enumerate() {
            let e = &mut out[i];
            let row = &logits[k * a..(k + 1) * a];
            for (dst, &t) in self.logits.iter_mut().zip(&self.order.1) {
                *dst = row[t as usize];
            }
            action::legal_softmax(&self.logits, leaves[i].legal, &mut e.priors);
            e.value = values[k].clamp(-1.0, 1.0);
        }
        Ok(())
    }
}

impl Evaluator<Game> for NetEvaluator {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn evaluate(
        &mut self,
        leaves: &[Leaf<'_, Game>],
        out: &mut [Evaluation],
    ) -> Result<(), EvalError> {
        if leaves.len() != out.len() {
            return Err(self.failed(format!("{} leaves but {} outputs", leaves.len(), out.len())));
        }
        let r = self.config.resolution;
        let s = self.config.stride();
        // One forward pass per grid size in the batch (normally there is one).
        let mut sizes: [usize; 4] = [0; 4];
        let mut n_sizes = 0;
        for leaf in leaves {
            let g = usize::from(leaf.game.grid_size());
            let lr = usize::from(leaf.game.board().resolution());
            if lr != r || g % s != 0 {
                return Err(self.failed(format!(
                    "a position at resolution {lr} given to a network for resolution {r}"
                )));
            }
            if !sizes[..n_sizes].contains(&g) {
                if n_sizes == sizes.len() {
                    return Err(self.failed("more than 4 board sizes in one batch".into()));
                }
                sizes[n_sizes] = g;
                n_sizes += 1;
            }
        }
        let mut group = std::mem::take(&mut self.group);
        let mut result = Ok(());
        for &g in &sizes[..n_sizes] {
            group.clear();
            group.extend(
                (0..leaves.len()).filter(|&i| usize::from(leaves[i].game.grid_size()) == g),
            );
            result = self.run_group(leaves, &group, g, out);
            if result.is_err() {
                break;
            }
        }
        self.group = group;
        result
    }
}

/// The [`CheckpointLoader`] of `ckpt:PATH[:SIMS]` agents: loads a checkpoint into a
/// [`NetEvaluator`] on the default device (`flex`).
#[derive(Debug, Clone, Default)]
pub struct NetLoader {
    device: Option<Device>,
}

impl NetLoader {
    pub fn new() -> NetLoader {
        NetLoader { device: None }
    }
    /// A loader that places networks on `device`.
    pub fn on(device: Device) -> NetLoader {
        NetLoader {
            device: Some(device),
        }
    }
}

impl CheckpointLoader<Game> for NetLoader {
    fn load(
        &self,
        path: &Path,
    ) -> Result<Box<dyn Evaluator<Game>>, Box<dyn std::error::Error + Send + Sync>> {
        let device = self.device.clone().unwrap_or_else(crate::default_device);
        Ok(Box::new(NetEvaluator::load(path, device)?))
    }
}
