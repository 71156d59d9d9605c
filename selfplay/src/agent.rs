//! Agents named by strings, the same everywhere the CLI takes one:
//!
//! | spec | agent |
//! | --- | --- |
//! | `random` | random play (`DESIGN.md`'s one definition) |
//! | `mcts:uniform:SIMS` | search with uniform priors and value 0, `SIMS` simulations per decision |
//! | `mcts:rollout:SIMS` | search with random-playout values ([`crate::RolloutEvaluator`]) |
//! | `ckpt:PATH[:SIMS]` | search with a network checkpoint (built by the network crate) |
//! | `bot[:SIMS]` | search with the network built into the program (default [`BOT_SIMULATIONS`]) |
//! | `solver` | perfect play by exhaustive search, a uniform choice among the best decisions; only for games small enough ([`GameText::SOLVABLE`](crumble_core::GameText::SOLVABLE), the test games) |
//! | `book:FILE[@AGENT]` | the opening book's best move while the position is in the book and that move is one of its moves, `AGENT` otherwise (default: the agent the book was grown with); wherever an agent plays whole games ([`crate::book::open_agent`]) |
//!
//! Parsing is typed ([`AgentSpec::parse`]); building an agent's evaluator goes through
//! [`build_evaluator`], which hands `ckpt:` specs to a [`CheckpointLoader`] the caller
//! supplies. That is the extension point: this crate never links the network library; the
//! `crumble` program passes a loader from the network crate (a `Box<dyn Evaluator<G>>`).

use crate::config::SearchConfig;
use crate::evaluator::{Evaluator, RolloutEvaluator, UniformEvaluator};
use crumble_core::GameState;
use std::fmt;
use std::path::{Path, PathBuf};

/// The evaluator of a search agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvaluatorSpec {
    Uniform,
    Rollout,
    Checkpoint(PathBuf),
    /// The network compiled into the program ([`CheckpointLoader::load_builtin`]).
    Builtin,
}

/// Simulations per decision of `bot` without a count: strong enough to beat
/// `mcts:rollout:800`, and a fraction of a second a move on a small CPU.
pub const BOT_SIMULATIONS: u32 = 64;

/// A parsed agent string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    Random,
    /// Perfect play by exhaustive search (small games only).
    Solver,
    /// Search; `simulations: None` takes the config's `search.simulations`.
    Mcts {
        evaluator: EvaluatorSpec,
        simulations: Option<u32>,
    },
    /// Plays from an opening book ([`crate::book`]) while in it, then `then` (`None`: the
    /// agent the book was grown with, read from its file).
    Book {
        path: PathBuf,
        then: Option<Box<AgentSpec>>,
    },
}

/// Why an agent string or agent could not be used.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    #[error(
        "agent `{spec}`: unknown kind `{kind}` (expected random, solver, bot[:SIMS], mcts:uniform:SIMS, mcts:rollout:SIMS, ckpt:PATH[:SIMS] or book:FILE[@AGENT])"
    )]
    UnknownKind { spec: String, kind: String },
    #[error("agent `{spec}`: unknown evaluator `{evaluator}` (expected uniform or rollout)")]
    UnknownEvaluator { spec: String, evaluator: String },
    #[error("agent `{spec}`: missing {what}")]
    Missing { spec: String, what: &'static str },
    #[error("agent `{spec}`: simulations `{sims}` is not a whole number from 1 to 10,000,000")]
    BadSimulations { spec: String, sims: String },
    #[error("agent `{spec}`: unexpected `{rest}` after the spec")]
    Trailing { spec: String, rest: String },
    #[error(
        "agent `solver`: {game} is too large to solve exhaustively (the solver plays only the test games)"
    )]
    NotSolvable { game: &'static str },
    #[error("agent `{spec}`: the agent after a book cannot itself be a book")]
    NestedBook { spec: String },
    #[error(
        "agent `{spec}`: an agent playing from a book plays in `match`, `tournament`, `play` and `selfplay`, not here (use its agent `{then}`)"
    )]
    BookHere { spec: String, then: String },
    #[error("agent `{spec}`: cannot read the book {path}: {message}")]
    Book {
        spec: String,
        path: String,
        message: String,
    },
    #[error("agent `{spec}`: cannot load checkpoint {path}: {message}")]
    Checkpoint {
        spec: String,
        path: String,
        message: String,
    },
}

fn sims(spec: &str, s: &str) -> Result<u32, AgentError> {
    match s.parse::<u32>() {
        Ok(n) if (1..=10_000_000).contains(&n) => Ok(n),
        _ => Err(AgentError::BadSimulations {
            spec: spec.into(),
            sims: s.into(),
        }),
    }
}

impl AgentSpec {
    /// Parses an agent string (see the module docs).
    pub fn parse(spec: &str) -> Result<AgentSpec, AgentError> {
        let s = spec.trim();
        if s == "random" {
            return Ok(AgentSpec::Random);
        }
        if s == "solver" {
            return Ok(AgentSpec::Solver);
        }
        if s == "bot" || s.starts_with("bot:") {
            let simulations = match s.strip_prefix("bot:") {
                Some(n) => sims(spec, n)?,
                None => BOT_SIMULATIONS,
            };
            return Ok(AgentSpec::Mcts {
                evaluator: EvaluatorSpec::Builtin,
                simulations: Some(simulations),
            });
        }
        if let Some(rest) = s.strip_prefix("book:") {
            return AgentSpec::parse_book(spec, rest);
        }
        if let Some(rest) = s.strip_prefix("ckpt:") {
            // PATH may itself contain ':'; a last segment made of digits is SIMS.
            let (path, n) = match rest.rsplit_once(':') {
                Some((p, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                    (p, Some(sims(spec, n)?))
                }
                _ => (rest, None),
            };
            if path.is_empty() {
                return Err(AgentError::Missing {
                    spec: spec.into(),
                    what: "checkpoint path (ckpt:PATH[:SIMS])",
                });
            }
            return Ok(AgentSpec::Mcts {
                evaluator: EvaluatorSpec::Checkpoint(path.into()),
                simulations: n,
            });
        }
        let mut parts = s.split(':');
        let kind = parts.next().unwrap_or("");
        if kind != "mcts" {
            return Err(AgentError::UnknownKind {
                spec: spec.into(),
                kind: kind.into(),
            });
        }
        let evaluator = match parts.next() {
            Some("uniform") => EvaluatorSpec::Uniform,
            Some("rollout") => EvaluatorSpec::Rollout,
            Some(e) if !e.is_empty() => {
                return Err(AgentError::UnknownEvaluator {
                    spec: spec.into(),
                    evaluator: e.into(),
                });
            }
            _ => {
                return Err(AgentError::Missing {
                    spec: spec.into(),
                    what: "evaluator (mcts:uniform:SIMS)",
                });
            }
        };
        let n = match parts.next() {
            Some(n) => sims(spec, n)?,
            None => {
                return Err(AgentError::Missing {
                    spec: spec.into(),
                    what: "simulations (mcts:EVAL:SIMS)",
                });
            }
        };
        let rest: Vec<&str> = parts.collect();
        if !rest.is_empty() {
            return Err(AgentError::Trailing {
                spec: spec.into(),
                rest: rest.join(":"),
            });
        }
        Ok(AgentSpec::Mcts {
            evaluator,
            simulations: Some(n),
        })
    }

    /// `book:FILE[@AGENT]` after its `book:`: the last `@` whose right side reads as an
    /// agent splits the two (a path may hold `@` too).
    fn parse_book(spec: &str, rest: &str) -> Result<AgentSpec, AgentError> {
        let (path, then) = match rest.rsplit_once('@') {
            Some((p, a)) => match AgentSpec::parse(a) {
                Ok(AgentSpec::Book { .. }) => {
                    return Err(AgentError::NestedBook { spec: spec.into() });
                }
                Ok(then) => (p, Some(Box::new(then))),
                Err(_) => (rest, None),
            },
            None => (rest, None),
        };
        if path.is_empty() {
            return Err(AgentError::Missing {
                spec: spec.into(),
                what: "book file (book:FILE[@AGENT])",
            });
        }
        Ok(AgentSpec::Book {
            path: path.into(),
            then,
        })
    }

    /// Simulations per decision of a search agent (the spec's, else the config's); `None`
    /// for a book whose agent is the book's own (known once the file is read).
    pub fn simulations(&self, cfg: &SearchConfig) -> Option<u32> {
        match self {
            AgentSpec::Random | AgentSpec::Solver => None,
            AgentSpec::Mcts { simulations, .. } => Some(simulations.unwrap_or(cfg.simulations)),
            AgentSpec::Book { then, .. } => then.as_ref().and_then(|t| t.simulations(cfg)),
        }
    }
}

impl std::str::FromStr for AgentSpec {
    type Err = AgentError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        AgentSpec::parse(s)
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Solver => f.write_str("solver"),
            AgentSpec::Book { path, then } => {
                write!(f, "book:{}", path.display())?;
                if let Some(t) = then {
                    write!(f, "@{t}")?;
                }
                Ok(())
            }
            AgentSpec::Mcts {
                evaluator: EvaluatorSpec::Checkpoint(p),
                simulations,
            } => {
                write!(f, "ckpt:{}", p.display())?;
                if let Some(n) = simulations {
                    write!(f, ":{n}")?;
                }
                Ok(())
            }
            AgentSpec::Mcts {
                evaluator: EvaluatorSpec::Builtin,
                simulations,
            } => write!(f, "bot:{}", simulations.unwrap_or(BOT_SIMULATIONS)),
            AgentSpec::Mcts {
                evaluator,
                simulations,
            } => {
                let e = if *evaluator == EvaluatorSpec::Uniform {
                    "uniform"
                } else {
                    "rollout"
                };
                write!(f, "mcts:{e}:{}", simulations.unwrap_or(0))
            }
        }
    }
}

/// Builds the evaluator of `ckpt:PATH` agents. The network crate implements it; this crate
/// only calls it.
pub trait CheckpointLoader<G: GameState> {
    fn load(
        &self,
        path: &Path,
    ) -> Result<Box<dyn Evaluator<G>>, Box<dyn std::error::Error + Send + Sync>>;

    /// The evaluator of the network built into the program (`bot` agents); a loader without
    /// one refuses.
    fn load_builtin(
        &self,
    ) -> Result<Box<dyn Evaluator<G>>, Box<dyn std::error::Error + Send + Sync>> {
        Err("this program has no built-in network".into())
    }
}

/// The loader of a build without the network: every checkpoint is refused with a clear error.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCheckpoints;

impl<G: GameState> CheckpointLoader<G> for NoCheckpoints {
    fn load(
        &self,
        _path: &Path,
    ) -> Result<Box<dyn Evaluator<G>>, Box<dyn std::error::Error + Send + Sync>> {
        Err(
            "this program was built without the network crate (checkpoint agents are unavailable)"
                .into(),
        )
    }
}

/// The evaluator of a search agent; `None` for `random` and `solver`. `seed` seeds rollouts.
pub fn build_evaluator<G: GameState>(
    spec: &AgentSpec,
    cfg: &SearchConfig,
    seed: u64,
    loader: &dyn CheckpointLoader<G>,
) -> Result<Option<Box<dyn Evaluator<G>>>, AgentError> {
    match spec {
        AgentSpec::Random | AgentSpec::Solver => Ok(None),
        AgentSpec::Book { then, .. } => Err(AgentError::BookHere {
            spec: spec.to_string(),
            then: then
                .as_ref()
                .map_or("the book's agent".into(), |t| t.to_string()),
        }),
        AgentSpec::Mcts {
            evaluator: EvaluatorSpec::Uniform,
            ..
        } => Ok(Some(Box::new(UniformEvaluator))),
        AgentSpec::Mcts {
            evaluator: EvaluatorSpec::Rollout,
            ..
        } => Ok(Some(Box::new(RolloutEvaluator::new(
            cfg.rollout.clone(),
            seed,
        )))),
        AgentSpec::Mcts {
            evaluator: EvaluatorSpec::Builtin,
            ..
        } => loader
            .load_builtin()
            .map(Some)
            .map_err(|e| AgentError::Checkpoint {
                spec: spec.to_string(),
                path: "<built-in network>".into(),
                message: e.to_string(),
            }),
        AgentSpec::Mcts {
            evaluator: EvaluatorSpec::Checkpoint(p),
            ..
        } => loader
            .load(p)
            .map(Some)
            .map_err(|e| AgentError::Checkpoint {
                spec: spec.to_string(),
                path: p.display().to_string(),
                message: e.to_string(),
            }),
    }
}
