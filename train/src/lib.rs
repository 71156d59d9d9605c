//! # crumble-train
//!
//! The training loop of Crumble Zero and the `crumble` command-line program (the binary in
//! `main.rs`, its subcommands in `cli/`).
//!
//! - [`config`]: the training config (`configs/*.toml`): every section and key.
//! - [`ledger`]: `progress.csv`, one typed row per finished generation.
//! - [`replay`]: the replay window over self-play record files and the batch sampler
//!   (targets, symmetry augmentation).
//! - [`run`]: the run directory and the generation loop (self-play -> replay -> train ->
//!   checkpoint -> evaluate -> log), resumable after a kill at any moment.
//! - [`serve`]: `crumble serve`, the board in the browser (HTTP API, page, analysis).
//! - [`store`]: where a run lives: a local directory or an object store (`object_store`),
//!   with the conformance checks a shared run relies on.
//! - [`distributed`]: self-play workers and one trainer sharing a run through its store
//!   (pointer, uploads, gathering, commits).
//! - [`tb`]: TensorBoard scalars and a strict reader of event files.

pub mod clock;
pub mod config;
pub mod distributed;
pub mod games;
pub mod ledger;
pub mod replay;
pub mod run;
pub mod serve;
pub mod store;
pub mod tb;
