//! # crumble-model
//!
//! The network side of Crumble Zero: each game's encoder ([`encoders`]; Crumble's rasteriser,
//! decisions <-> policy indices and the square's 8 symmetries in [`encoders::crumble`]) on the
//! [`encoder::Encoder`] trait, the burn network ([`net`]) with its
//! fast operations on burn's CPU backend ([`cpu_ops`], kernels in [`kernels`]), the
//! losses and optimiser step ([`train`]), inference from host buffers ([`infer`]),
//! [`NetEvaluator`] for the search, checkpoints ([`checkpoint`]) and the network benchmark
//! ([`mod@bench`]).
//!
//! The backend is chosen at run time from burn's `Device`: [`default_device`] is the
//! pure-Rust `flex` CPU backend, or the backend `BURN_DEVICE` names. Cargo features `tch`,
//! `wgpu` and `cuda` compile burn's other backends in (see the README for which of them
//! build and run on a CPU machine).
//!
//! ```
//! use crumble_core::games::crumble::Crumble;
//! use crumble_model::NetConfig;
//! use crumble_model::encoders::crumble::planes;
//! use ndarray::Array3;
//!
//! let game = Crumble::new(6, 8).unwrap();
//! let mut buf = Array3::<f32>::zeros((planes::PLANES, 48, 48));
//! planes::Rasteriser::new().rasterise(&game, buf.view_mut()).unwrap();
//! assert_eq!(buf[[planes::PHASE_CHOOSE, 0, 0]], 1.0);
//! let config = NetConfig::new().with_channels(8).with_blocks(1);
//! assert!(config.flops_per_position(6) > 0);
//! ```
//!
//! Architecture invariant: this crate knows the rules engine and the search's `Evaluator`
//! trait; it knows nothing of replay files, configs of runs or the command line.

pub mod bench;
pub mod builtin;
pub mod checkpoint;
pub mod cpu_ops;
pub mod encoder;
pub mod encoders;
pub mod evaluator;
pub mod infer;
pub mod kernels;
pub mod layout;
pub mod net;
pub mod peak;
pub mod selfplay_bench;
pub mod train;

pub use checkpoint::CheckpointError;
pub use encoder::Encoder;
pub use encoders::crumble::symmetry::Sym;
pub use encoders::{CrumbleEncoder, CrumoEncoder, NimEncoder, SplinterEncoder, TicTacToeEncoder};
pub use evaluator::{NetEvaluator, NetLoader};
pub use layout::Layout;
pub use net::{CrumbleNet, NetConfig, NetOutput};

pub use burn::tensor::Device;

/// The backends `BURN_DEVICE` may name in this build: `flex` always, the others where their
/// cargo feature is on.
pub const DEVICE_NAMES: &[&str] = &[
    "flex",
    #[cfg(feature = "tch")]
    "tch",
    #[cfg(feature = "wgpu")]
    "wgpu",
    #[cfg(feature = "cuda")]
    "cuda",
];

/// Checks `BURN_DEVICE` before anything uses it ([`default_device`] would panic on a name
/// this build lacks): `Err` says what it holds and what it may hold.
pub fn check_device_env() -> Result<(), String> {
    match std::env::var("BURN_DEVICE") {
        Err(std::env::VarError::NotPresent) => Ok(()),
        Ok(v) if DEVICE_NAMES.contains(&v.to_lowercase().as_str()) => Ok(()),
        Ok(v) => Err(format!(
            "BURN_DEVICE={v} is not a backend of this build (it has: {}; the others need \
             their cargo feature, see README)",
            DEVICE_NAMES.join(", ")
        )),
        Err(e) => Err(format!("BURN_DEVICE: {e}")),
    }
}

/// The default device: burn's pure-Rust `flex` CPU backend, unless the environment variable
/// `BURN_DEVICE` names another backend compiled in by a cargo feature (see
/// [`check_device_env`]).
pub fn default_device() -> Device {
    if std::env::var_os("BURN_DEVICE").is_some() {
        Device::default()
    } else {
        Device::flex()
    }
}
