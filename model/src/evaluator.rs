//! [`NetEvaluator`]: the network behind the search's batch-first [`Evaluator`] trait, and the
//! [`NetLoader`] that builds it for `ckpt:PATH[:SIMS]` agents.

use crate::checkpoint::{self, CheckpointError};
use crate::encoder::Encoder;
use crate::encoders::CrumbleEncoder;
use crate::encoders::crumble::action;
use crate::infer;
use crate::layout::Layout;
use crate::net::{CrumbleNet, NetConfig};
use burn::module::Module;
use burn::tensor::Device;
use crumble_core::GameState;
use crumble_selfplay::agent::CheckpointLoader;
use crumble_selfplay::evaluator::{EvalError, Evaluation, Evaluator, Leaf};
use std::any::Any;
use std::cell::RefCell;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Where a [`NetEvaluator`]'s time goes, summed over its calls (shared, so a caller can read
/// it while the evaluator is owned by an agent): encoding the positions into the input
/// buffer, the forward pass, and turning logits into priors.
#[derive(Debug, Default)]
pub struct EvalTimings {
    pub encode_ns: AtomicU64,
    pub net_ns: AtomicU64,
    pub decode_ns: AtomicU64,
    /// Positions evaluated and forward passes run (the mean batch is their ratio).
    pub positions: AtomicU64,
    pub batches: AtomicU64,
}

impl EvalTimings {
    /// (encode, net, decode) seconds so far.
    pub fn seconds(&self) -> (f64, f64, f64) {
        let s = |c: &AtomicU64| c.load(Ordering::Relaxed) as f64 * 1e-9;
        (s(&self.encode_ns), s(&self.net_ns), s(&self.decode_ns))
    }

    /// Mean positions per forward pass (0 before the first).
    pub fn mean_batch(&self) -> f64 {
        let b = self.batches.load(Ordering::Relaxed);
        if b == 0 {
            0.0
        } else {
            self.positions.load(Ordering::Relaxed) as f64 / b as f64
        }
    }
}

thread_local! {
    /// Per-thread encoder scratch and plane buffer of [`NetEvaluator`]'s parallel encoding
    /// (held as `Any`: one thread may serve evaluators of several games).
    static ENCODE_SCRATCH: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// Evaluates leaves with a [`CrumbleNet`] through a game's [`Encoder`] (Crumble's by
/// default): per grid size in the batch, encodes the positions in the cell layout
/// ([`Layout::to_cells`]), runs the network on its device and turns logits into priors over each
/// leaf's legal decisions ([`action::softmax_at`]); the value is the net's, from the view of
/// the leaf's decider.
#[derive(Debug)]
pub struct NetEvaluator<E = CrumbleEncoder> {
    name: String,
    encoder: E,
    config: NetConfig,
    layout: Layout,
    net: CrumbleNet,
    /// Where `net` lives and runs.
    device: Device,
    /// [`Layout::cell_order`] for the grid side it was built for.
    order: (usize, Vec<u32>),
    /// Leaf indices of the current sub-batch.
    group: Vec<usize>,
    timings: Arc<EvalTimings>,
}

impl NetEvaluator<CrumbleEncoder> {
    /// Wraps a Crumble network (put into inference mode) on `device`.
    pub fn new(
        name: impl Into<String>,
        config: NetConfig,
        net: CrumbleNet,
        device: Device,
    ) -> NetEvaluator<CrumbleEncoder> {
        NetEvaluator::with_encoder(name, CrumbleEncoder, config, net, device)
    }

    /// Loads a Crumble checkpoint onto `device`.
    pub fn load(path: &Path, device: Device) -> Result<NetEvaluator, CheckpointError> {
        NetEvaluator::load_for(path, CrumbleEncoder, device)
    }
}

impl<E> NetEvaluator<E> {
    /// Wraps a network (put into inference mode) on `device` for the game of `encoder`
    /// (the caller checks that the net fits it: [`NetConfig::fits`]).
    pub fn with_encoder(
        name: impl Into<String>,
        encoder: E,
        config: NetConfig,
        net: CrumbleNet,
        device: Device,
    ) -> NetEvaluator<E> {
        NetEvaluator {
            name: name.into(),
            encoder,
            layout: Layout::of(&config),
            config,
            net: net.valid(),
            device,
            order: (0, Vec::new()),
            group: Vec::new(),
            timings: Arc::default(),
        }
    }

    /// The evaluator's time counters (shared: they keep counting after the evaluator has been
    /// handed to an agent).
    pub fn timings(&self) -> Arc<EvalTimings> {
        Arc::clone(&self.timings)
    }

    /// Loads a checkpoint for the game of `encoder` onto `device`; a net of other shapes
    /// (another game's) is refused.
    pub fn load_for<G: GameState>(
        path: &Path,
        encoder: E,
        device: Device,
    ) -> Result<NetEvaluator<E>, CheckpointError>
    where
        E: Encoder<G>,
    {
        let (config, net) = checkpoint::load(path, &device)?;
        config
            .fits(&encoder)
            .map_err(|message| CheckpointError::Config {
                path: path.display().to_string(),
                message,
            })?;
        Ok(NetEvaluator::with_encoder(
            path.display().to_string(),
            encoder,
            config,
            net,
            device,
        ))
    }

    /// The built-in network of the game of `encoder` ([`Encoder::BUILTIN`]) onto `device`;
    /// refused for a game without one.
    pub fn builtin_for<G: GameState>(
        encoder: E,
        device: Device,
    ) -> Result<NetEvaluator<E>, CheckpointError>
    where
        E: Encoder<G>,
    {
        let builtin = E::BUILTIN.ok_or_else(|| CheckpointError::Config {
            path: "<built-in network>".into(),
            message: format!(
                "{} has no built-in network: name a checkpoint (ckpt:PATH) or a search without one (mcts:rollout:SIMS)",
                G::NAME
            ),
        })?;
        let (config, net) = builtin.load(&device)?;
        config
            .fits(&encoder)
            .map_err(|message| CheckpointError::Config {
                path: builtin.name.into(),
                message,
            })?;
        Ok(NetEvaluator::with_encoder(
            builtin.name,
            encoder,
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
    ///
    /// Each chunk of positions is encoded, run and decoded on one thread
    /// ([`infer::forward_chunks`]); the timings split the wall time of the call in proportion
    /// to the thread time each phase took.
    fn run_group<G: GameState>(
        &mut self,
        leaves: &[Leaf<'_, G>],
        idx: &[usize],
        g: usize,
        out: &mut [Evaluation],
    ) -> Result<(), EvalError>
    where
        E: Encoder<G>,
    {
        let start = Instant::now();
        let layout = self.layout;
        let per = layout.input_len(g);
        let a = layout.policy_len(g);
        if self.order.0 != g {
            self.order = (g, layout.cell_order(g));
        }
        let (encoder, order, name) = (&self.encoder, &self.order.1, &self.name);
        let thread_ns = [const { AtomicU64::new(0) }; 3]; // encode, net, decode
        let add = |phase: usize, took: Duration| {
            thread_ns[phase].fetch_add(took.as_nanos() as u64, Ordering::Relaxed);
        };
        let fill = |first: usize, buf: &mut [f32]| {
            let t0 = Instant::now();
            ENCODE_SCRATCH.with(|cell| {
                let mut cell = cell.borrow_mut();
                if !cell
                    .as_ref()
                    .is_some_and(|b| b.is::<(E::Scratch, Vec<f32>)>())
                {
                    *cell = Some(Box::new((E::Scratch::default(), Vec::<f32>::new())));
                }
                let (scratch, planes) = cell
                    .as_mut()
                    .and_then(|b| b.downcast_mut::<(E::Scratch, Vec<f32>)>())
                    .expect("set above");
                for (k, dst) in buf.chunks_exact_mut(per).enumerate() {
                    let game = leaves[idx[first + k]].game;
                    encoder.encode_cells(game, scratch, layout.stride, planes, dst);
                }
            });
            add(0, t0.elapsed());
        };
        let decode = |first: usize, logits: Vec<f32>, values: Vec<f32>, net: Duration| {
            add(1, net);
            let t0 = Instant::now();
            let mut evals = Vec::with_capacity(values.len());
            let mut indices = Vec::new();
            for (k, row) in logits.chunks_exact(a).enumerate() {
                // The row is in cell order: each legal decision's policy index is mapped to
                // its place there (reordering the whole row would touch every logit).
                let leaf = &leaves[idx[first + k]];
                indices.clear();
                for &d in leaf.legal {
                    let j = encoder.policy_index(leaf.game, d);
                    if j >= a {
                        return Err(EvalError::Failed {
                            evaluator: name.clone(),
                            message: format!("decision {} has policy index {j} of {a}", d.0),
                        });
                    }
                    indices.push(order[j] as usize);
                }
                let mut priors = Vec::with_capacity(indices.len());
                action::softmax_at(row, &indices, &mut priors);
                evals.push((priors, values[k].clamp(-1.0, 1.0)));
            }
            add(2, t0.elapsed());
            Ok(evals)
        };
        let n = g / layout.stride;
        let chunks = infer::forward_chunks(&self.net, &self.device, idx.len(), n, fill, decode);
        let mut k = 0;
        for chunk in chunks {
            for (priors, value) in chunk? {
                let e = &mut out[idx[k]];
                e.priors = priors;
                e.value = value;
                k += 1;
            }
        }
        // Wall time split in proportion to the phases' thread time.
        let wall = start.elapsed().as_nanos() as f64;
        let ns = thread_ns.map(|c| c.load(Ordering::Relaxed) as f64);
        let total = ns.iter().sum::<f64>().max(1.0);
        let counters = [
            &self.timings.encode_ns,
            &self.timings.net_ns,
            &self.timings.decode_ns,
        ];
        for (c, t) in counters.iter().zip(ns) {
            c.fetch_add((wall * t / total) as u64, Ordering::Relaxed);
        }
        self.timings
            .positions
            .fetch_add(idx.len() as u64, Ordering::Relaxed);
        self.timings.batches.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

impl<G: GameState, E: Encoder<G>> Evaluator<G> for NetEvaluator<E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn evaluate(
        &mut self,
        leaves: &[Leaf<'_, G>],
        out: &mut [Evaluation],
    ) -> Result<(), EvalError> {
        if leaves.len() != out.len() {
            return Err(self.failed(format!("{} leaves but {} outputs", leaves.len(), out.len())));
        }
        let (r, s) = (self.config.resolution, self.layout.stride);
        // One forward pass per grid size in the batch (normally there is one).
        let mut sizes: [usize; 4] = [0; 4];
        let mut n_sizes = 0;
        for leaf in leaves {
            let g = self.encoder.grid(leaf.game);
            let lr = self.encoder.resolution(leaf.game);
            if lr != r || !g.is_multiple_of(s) {
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
            group.extend((0..leaves.len()).filter(|&i| self.encoder.grid(leaves[i].game) == g));
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
/// [`NetEvaluator`] for the game of its encoder (Crumble's by default) on the default device
/// (`flex`).
#[derive(Debug, Clone, Default)]
pub struct NetLoader<E = CrumbleEncoder> {
    encoder: E,
    device: Option<Device>,
}

impl NetLoader<CrumbleEncoder> {
    pub fn new() -> NetLoader<CrumbleEncoder> {
        NetLoader::default()
    }
    /// A loader that places networks on `device`.
    pub fn on(device: Device) -> NetLoader<CrumbleEncoder> {
        NetLoader {
            encoder: CrumbleEncoder,
            device: Some(device),
        }
    }
}

impl<E> NetLoader<E> {
    /// A loader of networks for the game of `encoder`.
    pub fn for_encoder(encoder: E) -> NetLoader<E> {
        NetLoader {
            encoder,
            device: None,
        }
    }
}

impl<G: GameState, E: Encoder<G> + Clone> CheckpointLoader<G> for NetLoader<E> {
    fn load(
        &self,
        path: &Path,
    ) -> Result<Box<dyn Evaluator<G>>, Box<dyn std::error::Error + Send + Sync>> {
        let device = self.device.clone().unwrap_or_else(crate::default_device);
        Ok(Box::new(NetEvaluator::load_for(
            path,
            self.encoder.clone(),
            device,
        )?))
    }

    fn load_builtin(
        &self,
    ) -> Result<Box<dyn Evaluator<G>>, Box<dyn std::error::Error + Send + Sync>> {
        let device = self.device.clone().unwrap_or_else(crate::default_device);
        Ok(Box::new(NetEvaluator::builtin_for(
            self.encoder.clone(),
            device,
        )?))
    }
}
