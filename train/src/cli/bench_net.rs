//! `crumble bench net [--json]`: the network of the default config (6×6, R = 8): FLOPs per
//! position, inference positions per second at batch 1, 16, 64 and 256, and training samples
//! per second (forward, losses, backward, Adam step) at batch 128, using all cores, both through
//! the one burn module on the device `BURN_DEVICE` names (flex, the CPU, by default):
//! inference exactly as `NetEvaluator` runs it. `scripts/bench_torch.py` prints the same keys
//! for the identical PyTorch network. Then the machine's measured fp32 FMA peak on all cores
//! and the share of it inference and training reach. Only meaningful in a release build.

use anyhow::{Context, bail};
use crumble_model::NetConfig;
use crumble_model::bench::{self, BenchOptions, Trained};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print one JSON object with the keys cores, kernels, flops_per_pos, infer_pos_per_sec_b1,
    /// infer_pos_per_sec_b16, infer_pos_per_sec_b64, infer_pos_per_sec_b256,
    /// train_samples_per_sec_b128, peak_gflops, peak_isa, infer_gflops_b256,
    /// infer_peak_share_b256, train_gflops_b128, train_peak_share_b128.
    #[arg(long)]
    json: bool,
    /// Minimum seconds of each measurement (after a warm-up pass).
    #[arg(long, default_value_t = 3.0, value_parser = crate::cli::seconds_arg)]
    seconds: f64,
    /// Board size N of the positions.
    #[arg(long, default_value_t = 6)]
    board: u16,
    /// Measure this trained Crumble network instead of a fresh one of the default config: a
    /// checkpoint (.crnet), or `builtin` for the built-in network. Trained weights can be
    /// slower than fresh ones on some CPUs (subnormal numbers), which a fresh network never
    /// shows.
    #[arg(long, value_name = "CHECKPOINT", conflicts_with_all = ["channels", "blocks", "cell_pixels"])]
    net: Option<String>,
    /// Override the default config's tower channels (for exploring sizes).
    #[arg(long, hide = true, value_parser = crate::cli::positive::<usize>)]
    channels: Option<usize>,
    /// Override the default config's residual blocks.
    #[arg(long, hide = true)]
    blocks: Option<usize>,
    /// Override the default config's tower pixels per cell.
    #[arg(long, hide = true, value_parser = crate::cli::positive::<usize>)]
    cell_pixels: Option<usize>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if !(a.seconds.is_finite() && a.seconds > 0.0 && a.seconds <= 3600.0) {
        bail!(
            "--seconds must be a positive number of seconds (at most an hour), not {}",
            a.seconds
        );
    }
    if !(2..=32).contains(&a.board) {
        bail!("--board must be from 2 to 32, not {}", a.board);
    }
    super::bench::warn_if_unoptimised();
    let mut config = NetConfig::new();
    if let Some(c) = a.channels {
        config.channels = c;
    }
    if let Some(b) = a.blocks {
        config.blocks = b;
    }
    if let Some(p) = a.cell_pixels {
        config.cell_pixels = p;
    }
    config.validate()?;
    let trained = match a.net.as_deref() {
        None => None,
        Some("builtin") => Some(Trained::builtin()),
        Some(path) => Some(Trained {
            name: path.to_string(),
            bytes: std::fs::read(path).with_context(|| format!("cannot read {path}"))?,
        }),
    };
    let source = trained
        .as_ref()
        .map_or_else(|| "fresh weights".to_string(), |t| t.name.clone());
    let opts = BenchOptions {
        config: config.clone(),
        board: a.board,
        seconds: a.seconds,
        device: crumble_model::default_device(),
        trained,
    };
    let f = bench::run(&opts)?;
    if a.json {
        super::print(&format!("{}\n", serde_json::to_string(&f)?))?;
    } else {
        super::print(&report(&f, &config, a.board, &source))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The figures as the text report.
fn report(f: &bench::NetBench, config: &NetConfig, board: u16, source: &str) -> String {
    let build = super::bench::build_kind();
    let backend = std::env::var("BURN_DEVICE").unwrap_or_else(|_| "flex".into());
    format!(
        "crumble bench net: {n}x{n} board, R = {r}, inference and training on burn {backend} ({kernels} kernels on the CPU), {build}, machine with {cores} cores\n\
         network             {c} channels, {b} blocks (global pooling every {gp}), tower {t}x{t}, value hidden {vh}; {source}\n\
         FLOPs per position  {flops:>12.1} M\n\
         inference           {:>12.0} positions/s at batch 1\n\
         {:>32.0} positions/s at batch 16\n\
         {:>32.0} positions/s at batch 64\n\
         {:>32.0} positions/s at batch 256\n\
         training            {:>12.1} samples/s at batch 128 (forward, losses, backward, Adam)\n\
         machine peak        {:>12.1} GFLOP/s fp32 FMA ({isa}, {cores} threads)\n\
         share of the peak   {:>12.1} % inference at batch 256 ({:.1} GFLOP/s), {:.1} % training ({:.1} GFLOP/s, a sample as 3 forward passes)\n",
        f.infer_pos_per_sec_b1,
        f.infer_pos_per_sec_b16,
        f.infer_pos_per_sec_b64,
        f.infer_pos_per_sec_b256,
        f.train_samples_per_sec_b128,
        f.peak_gflops,
        100.0 * f.infer_peak_share_b256,
        f.infer_gflops_b256,
        100.0 * f.train_peak_share_b128,
        f.train_gflops_b128,
        isa = f.peak_isa,
        kernels = f.kernels,
        n = board,
        r = config.resolution,
        cores = f.cores,
        c = config.channels,
        b = config.blocks,
        gp = config.gpool_every,
        t = usize::from(board) * config.cell_pixels,
        vh = config.value_hidden,
        flops = f.flops_per_pos as f64 / 1e6,
    )
}
