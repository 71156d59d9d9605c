//! # crumble-selfplay
//!
//! Search and self-play for Crumble: the batch-first [`Evaluator`] trait (the network crate
//! implements it; this crate never links the network library), Monte-Carlo tree search over
//! the rules engine's atomic decisions, the batched self-play driver, match play between
//! agents, and the self-play record format.

pub mod config;
pub mod evaluator;

pub use config::{ConfigError, ConfigFile, SearchConfig, SelfPlayConfig};
pub use evaluator::{EvalError, Evaluation, Evaluator, Leaf, RolloutConfig, RolloutEvaluator, UniformEvaluator};
