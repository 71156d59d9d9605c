//! # crumble-selfplay
//!
//! Search and self-play for any game of the rules crate's [`GameState`](crumble_core::GameState)
//! interface (Crumble first), on top of the rules engine (`crumble-core`) and below the
//! network (`crumble-model`), which it never links:
//!
//! - [`evaluator`]: the batch-first [`Evaluator`] trait (values from the deciding player's
//!   view), [`UniformEvaluator`] and [`RolloutEvaluator`].
//! - [`config`]: [`SearchConfig`], every search setting (the `[search]` TOML section), and
//!   [`SelfPlayConfig`] (`[selfplay]`).
//! - [`mcts`]: [`Search`], one tree: PUCT or Gumbel root, exact terminals, forced-decision
//!   skipping, tree reuse, noise, forced playouts and target pruning.
//! - [`driver`]: the one engine that plays games: a queue of game jobs (start, seats, game
//!   number), many at once, leaves batched per evaluator, tree work on rayon.
//! - [`agent`]: agent strings (`random`, `mcts:rollout:400`, `ckpt:PATH[:SIMS]`, `solver`);
//!   [`turn_agent`]: one agent playing whole turns one game at a time (`play`, `serve`).
//! - [`selfplay`]: self-play into record files; [`arena`]: agent pools, game pairs from
//!   openings (matches, tournaments, training's evaluation) and record writing, all on the
//!   driver.
//! - Crumble's alone: [`games::crumble::tactics`] (the tactics suite and harness) and
//!   [`games::crumble::openings`] (opening statistics in Crumble's notation).
//! - [`book`]: opening books grown from searches, for every game ([`book::Builder`]).
//! - [`record`]: game records (which name their game and start) and the versioned record
//!   file format; [`games`]: each game's notation for records.
//! - [`stats`] and [`ratings`]: Elo with intervals, the pentanomial GSPRT, Bradley–Terry
//!   ratings with draws.
//! - [`tournament`]: schedules, the resumable ledger of finished pairings, ratings tables.
//!
//! ```
//! use crumble_selfplay::{mcts::Search, SearchConfig, UniformEvaluator};
//! let game = crumble_core::games::crumble::Crumble::new(6, 8).unwrap();
//! let mut search: Search<crumble_core::games::crumble::Crumble> = Search::new(SearchConfig::default(), 1);
//! let out = search.search_with(&game, 100, true, &mut UniformEvaluator).unwrap();
//! assert_eq!(out.root_visits, 100);
//! assert!((out.target.iter().sum::<f32>() - 1.0).abs() < 1e-4);
//! ```

pub mod adjudication;
pub mod agent;
pub mod arena;
pub mod bench;
pub mod book;
pub mod bytes;
pub mod config;
pub mod driver;
pub mod evaluator;
pub mod files;
pub mod games;
pub mod mcts;
pub mod plot;
pub mod ratings;
pub mod record;
pub mod selfplay;
pub mod stats;
pub mod text_record;
pub mod tournament;
pub mod turn_agent;

pub use agent::{AgentError, AgentSpec, CheckpointLoader, EvaluatorSpec, NoCheckpoints};
pub use config::{ConfigError, ConfigFile, Lookahead, SearchConfig, SelfPlayConfig};
pub use driver::{Agent, AgentKind, OpeningSource, Progress, RunError, RunOptions, Seating};
pub use evaluator::{
    EvalError, Evaluation, Evaluator, Leaf, MixedEvaluator, RolloutConfig, RolloutEvaluator,
    UniformEvaluator,
};
pub use mcts::{Line, Search, SearchOutput, Step};
pub use record::{Ending, GameRecord, RecordError, SearchRecord, StepKind, StepRecord};
