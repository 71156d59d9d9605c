//! `[eval]`: the evaluation matches of a run.

use crumble_selfplay::Lookahead;
use serde::{Deserialize, Serialize};

/// `[eval]`: matches after each generation (colours alternating, draws half).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvalConfig {
    /// Evaluate after every `every`-th generation (0 = never); the last generation of a run
    /// is always evaluated.
    pub every: u32,
    /// Games against the previous generation's checkpoint.
    pub games_vs_previous: u64,
    /// Games against `random`.
    pub games_vs_random: u64,
    /// Games against `mcts:rollout:rollout_simulations`.
    pub games_vs_rollout: u64,
    pub rollout_simulations: u32,
    /// `random` and the rollout agent are no longer played once the run's checkpoints have
    /// beaten them in every game of this many evaluations in a row (0 = always played): late
    /// in a run those games measure nothing.
    pub retire_after: u32,
    /// Simulations of the checkpoint agents.
    pub simulations: u32,
    pub max_turns: u32,
    /// Each game pair starts after this many random turns from the standard start, as in
    /// `crumble match --opening-turns` (0: every pair from the standard start).
    pub opening_turns: u32,
    pub parallel_games: usize,
    /// The exact one-turn lookahead of both agents in evaluation matches. Evaluation is a
    /// measurement, not learning: at the root only it costs a tenth of checking every new
    /// node (games between agents that never miss a defence last five times longer), and it
    /// leaves the generations' time to self-play. `crumble match` uses `[search]
    /// play_lookahead`.
    pub lookahead: Lookahead,
    /// Gating: self-play uses the new net only if it scored at least `gating_threshold`
    /// against the previous one.
    pub gating: bool,
    pub gating_threshold: f64,
    /// Where evaluation runs: in the generation loop, which waits for it, or beside it on a
    /// thread of its own, so that no generation waits for matches (the row of the
    /// generation it finishes in holds its figures; gating then promotes when it finishes).
    pub background: EvalBackground,
}

/// `[eval] background`: where the evaluation matches run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EvalBackground {
    /// Beside the loop in shared runs with external self-play (the trainer's time is the
    /// fleet's), in the loop otherwise (a local run resumes byte for byte).
    External,
    /// Always beside the loop.
    Always,
    /// Always in the loop.
    Never,
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            every: 1,
            games_vs_previous: 24,
            games_vs_random: 24,
            games_vs_rollout: 24,
            rollout_simulations: 200,
            retire_after: 0,
            simulations: 100,
            max_turns: 200,
            opening_turns: 4,
            parallel_games: 24,
            lookahead: Lookahead::Root,
            gating: false,
            gating_threshold: 0.55,
            background: EvalBackground::External,
        }
    }
}
