//! The evaluation of a new checkpoint during a run: matches against the previous net, the
//! random agent and a rollout search, played by selfplay's arena as `crumble match` plays
//! them; their scores and Elo go to the ledger row and decide gating. In the generation loop
//! (a local run's default), or beside it on a thread of its own (a shared run's default,
//! `[eval] background`), so that generations never wait for matches.

use super::layout::checkpoint_path;
use super::{Event, Run, TrainError};
use crate::config::{EvalBackground, EvalConfig, TrainConfig};
use crate::games::TrainGame;
use crate::ledger::{Opponent, Row};
use crumble_model::NetLoader;
use crumble_selfplay::AgentSpec;
use crumble_selfplay::arena::{self, Flow, Openings, PairSettings, Pool, Tally};
use crumble_selfplay::driver::with_threads;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The Elo difference of a score `s` in `(0, 1)`: `−400 · log10(1/s − 1)`. Scores of 0 or 1
/// are first moved half a game inside (`games` games), so a clean sweep gives a finite
/// (lower-bound) figure.
pub fn elo_from_score(score: f64, games: u64) -> f64 {
    if games == 0 || !score.is_finite() {
        return f64::NAN;
    }
    let half = 0.5 / games as f64;
    let s = score.clamp(half, 1.0 - half);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Who an evaluation match is played against.
enum EvalAgent {
    Checkpoint(PathBuf),
    Random,
    Spec(String),
}

/// The agent string of checkpoint `path` searching with `simulations`.
fn ckpt_spec(path: &Path, simulations: u32) -> String {
    format!("ckpt:{}:{}", path.display(), simulations)
}

/// Is checkpoint `g` due for evaluation (every `[eval] every`, and the run's last)?
fn due(e: &EvalConfig, g: u32, last: bool) -> bool {
    e.every > 0 && (g.is_multiple_of(e.every) || last)
}

/// One evaluation: checkpoint `g`'s matches, with everything they need owned, so that it can
/// run beside the generation loop as well as in it.
struct EvalJob<G> {
    g: u32,
    dir: PathBuf,
    cfg: TrainConfig,
    standard: G,
}

/// What an evaluation measured: the checkpoint's tally against each opponent, and its time.
pub(super) struct EvalOutcome {
    g: u32,
    results: Vec<(Opponent, Tally)>,
    seconds: f64,
}

/// An evaluation running on its own thread, and the newest checkpoint waiting for it.
/// Dropping it stops the running one after its current game.
pub(super) struct Background {
    running: Option<Running>,
    queued: Option<u32>,
}

struct Running {
    /// The generation in which it started: it lands no earlier than the next one's row, so
    /// a generation never waits for it.
    started_in: u32,
    g: u32,
    cancel: Arc<AtomicBool>,
    handle: std::thread::JoinHandle<Result<EvalOutcome, TrainError>>,
}

impl Background {
    pub(super) fn new() -> Background {
        Background {
            running: None,
            queued: None,
        }
    }

    /// The outcome of an evaluation started before generation `g` that has finished.
    fn finished(&mut self, g: u32) -> Result<Option<EvalOutcome>, TrainError> {
        let done = self
            .running
            .as_ref()
            .is_some_and(|r| r.started_in < g && r.handle.is_finished());
        if !done {
            return Ok(None);
        }
        let r = self.running.take().expect("checked above");
        join(r).map(Some)
    }

    /// Stops the running evaluation after its current game; returns its checkpoint.
    fn cancel(&mut self) -> Option<u32> {
        let r = self.running.take()?;
        r.cancel.store(true, Ordering::Relaxed);
        let g = r.g;
        // Its result (complete or not) is of no use any more.
        let _ = r.handle.join();
        Some(g)
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.cancel();
    }
}

fn join(r: Running) -> Result<EvalOutcome, TrainError> {
    let g = r.g;
    r.handle
        .join()
        .unwrap_or(Err(TrainError::EvalPanicked { generation: g }))
}

impl<G: TrainGame> Run<G> {
    /// Does this run evaluate beside the generation loop?
    pub(super) fn eval_in_background(&self) -> bool {
        match self.cfg.eval.background {
            EvalBackground::Never => false,
            EvalBackground::Always => true,
            EvalBackground::External => self.dist.as_ref().is_some_and(|d| d.external()),
        }
    }

    /// Step 5 of generation `g`: the evaluation of a checkpoint due for one (every `[eval]
    /// every`, and the last), its scores and Elo in the row, and which net self-play uses
    /// next (`row.best_net`, `row.promoted`). In the loop, checkpoint `g` is evaluated now;
    /// in the background (`[eval] background`), its evaluation starts (or waits for the one
    /// running) and the row holds the newest evaluation that finished meanwhile, whatever
    /// checkpoint it was of (`row.eval_net`); the last generation's own evaluation is
    /// always played in the loop, so a run ends with its last checkpoint measured.
    pub(super) fn evaluate(
        &mut self,
        g: u32,
        selfplay_net: u32,
        last: bool,
        row: &mut Row,
        on_event: &mut (dyn FnMut(Event) + Send),
    ) -> Result<(), TrainError> {
        let e = self.cfg.eval.clone();
        let outcome = if self.eval_in_background() && !last {
            let bg = self.background.get_or_insert_with(Background::new);
            let outcome = bg.finished(g)?;
            if due(&e, g, last) {
                bg.queued = Some(g);
            }
            if bg.running.is_none()
                && let Some(q) = bg.queued.take()
            {
                let job = self.eval_job(q);
                let cancel = Arc::new(AtomicBool::new(false));
                let stop = cancel.clone();
                let handle = std::thread::spawn(move || {
                    job.run(&mut |_, _, _| {
                        if stop.load(Ordering::Relaxed) {
                            Flow::Stop
                        } else {
                            Flow::Continue
                        }
                    })
                });
                let bg = self.background.as_mut().expect("inserted above");
                bg.running = Some(Running {
                    started_in: g,
                    g: q,
                    cancel,
                    handle,
                });
            }
            outcome
        } else if due(&e, g, last) {
            if let Some(bg) = &mut self.background
                && let Some(stopped) = bg.cancel()
            {
                on_event(Event::EvalDropped {
                    generation: g,
                    evaluated: stopped,
                });
            }
            let job = self.eval_job(g);
            Some(job.run(&mut |opponent, tally, total| {
                on_event(Event::Eval {
                    generation: g,
                    opponent,
                    tally,
                    total,
                });
                Flow::Continue
            })?)
        } else {
            None
        };
        // Gating: a net plays self-play only once an evaluation promoted it.
        let gate = e.gating && e.games_vs_previous > 0;
        let mut promoted = !gate;
        if let Some(o) = &outcome {
            for (opponent, tally) in &o.results {
                let score = tally.wdl.score();
                row.set_eval(*opponent, score, elo_from_score(score, tally.wdl.games()));
                if self.eval_in_background() && !last {
                    on_event(Event::Eval {
                        generation: o.g,
                        opponent: opponent.name(),
                        tally,
                        total: tally.wdl.games(),
                    });
                }
            }
            row.eval_net = f64::from(o.g);
            row.eval_s = o.seconds;
            if gate {
                promoted = row.score_vs_previous >= e.gating_threshold && o.g > selfplay_net;
            }
        }
        // The running Elo is carried in progress.csv for the next evaluation to add to.
        let elo_before = self.history.last.as_ref().map_or(0.0, |r| r.elo);
        let elo_step = row.elo_vs_previous;
        row.elo = elo_before + if elo_step.is_finite() { elo_step } else { 0.0 };
        // Without gating every new net plays the next generation's self-play.
        let newest = if gate {
            outcome.as_ref().map_or(selfplay_net, |o| o.g)
        } else {
            g
        };
        row.promoted = if promoted { 1.0 } else { 0.0 };
        row.best_net = f64::from(if promoted { newest } else { selfplay_net });
        Ok(())
    }

    /// Checkpoint `g`'s evaluation, ready to run anywhere: without the opponents retired
    /// by `[eval] retire_after`.
    fn eval_job(&self, g: u32) -> EvalJob<G> {
        let mut cfg = self.cfg.clone();
        let n = cfg.eval.retire_after;
        if n > 0 {
            if self.history.perfect_streak(Opponent::Random) >= n {
                cfg.eval.games_vs_random = 0;
            }
            if self.history.perfect_streak(Opponent::Rollout) >= n {
                cfg.eval.games_vs_rollout = 0;
            }
        }
        EvalJob {
            g,
            dir: self.dir.clone(),
            cfg,
            standard: self.standard.clone(),
        }
    }
}

/// The matches of generation `g`'s evaluation, in order: opponent, games, agent (those of 0
/// games left out).
fn eval_matches(e: &EvalConfig, dir: &Path, g: u32) -> Vec<(Opponent, u64, EvalAgent)> {
    let mut matches: Vec<(Opponent, u64, EvalAgent)> = vec![
        (
            Opponent::Previous,
            e.games_vs_previous,
            EvalAgent::Checkpoint(checkpoint_path(dir, g - 1)),
        ),
        (Opponent::Random, e.games_vs_random, EvalAgent::Random),
        (
            Opponent::Rollout,
            e.games_vs_rollout,
            EvalAgent::Spec(format!("mcts:rollout:{}", e.rollout_simulations)),
        ),
    ];
    matches.retain(|m| m.1 > 0);
    matches
}

impl<G: TrainGame> EvalJob<G> {
    /// Plays the matches; `progress` hears of every finished game pair (the opponent, the
    /// checkpoint's tally against it so far, the match's games) and may stop the evaluation.
    fn run(
        &self,
        progress: &mut (dyn FnMut(&str, &Tally, u64) -> Flow + Send),
    ) -> Result<EvalOutcome, TrainError> {
        let t = Instant::now();
        let me = checkpoint_path(&self.dir, self.g);
        let mut results = Vec::new();
        for (opponent, games, agent) in eval_matches(&self.cfg.eval, &self.dir, self.g) {
            let tally = self.play(&me, &agent, games, opponent.name(), progress)?;
            results.push((opponent, tally));
        }
        Ok(EvalOutcome {
            g: self.g,
            results,
            seconds: t.elapsed().as_secs_f64(),
        })
    }

    /// Plays an evaluation match of the new checkpoint `me` against `opp`, exactly as
    /// `crumble match` plays one (the same engine, game pairs from `[eval] opening_turns`
    /// random turns, match search settings but `[eval] lookahead`); returns the new net's
    /// tally.
    fn play(
        &self,
        me: &Path,
        opp: &EvalAgent,
        games: u64,
        name: &str,
        progress: &mut (dyn FnMut(&str, &Tally, u64) -> Flow + Send),
    ) -> Result<Tally, TrainError> {
        let e = &self.cfg.eval;
        let opponent = match opp {
            EvalAgent::Checkpoint(p) => ckpt_spec(p, e.simulations),
            EvalAgent::Random => "random".into(),
            EvalAgent::Spec(s) => s.clone(),
        };
        let specs = [
            AgentSpec::parse(&ckpt_spec(me, e.simulations))?,
            AgentSpec::parse(&opponent)?,
        ];
        let loader = NetLoader::for_encoder(G::Encoder::default());
        let mut search = self.cfg.search.for_play();
        search.lookahead = e.lookahead;
        // Evaluation looks two turns ahead only as far as self-play does (off by default): it
        // measures the nets, at the cost of the generation's time.
        search.forcing_budget = self.cfg.search.forcing_budget;
        search.loss_check = self.cfg.search.loss_check;
        let pool = Pool::<G>::new(&specs, &search, &loader)?;
        let pairs = games.div_ceil(2);
        let seed = self.cfg.selfplay.seed ^ (u64::from(self.g) << 20) ^ name.len() as u64;
        let starts = self.openings(pairs, seed)?;
        let settings = PairSettings {
            pairs,
            max_turns: e.max_turns,
            concurrency: e.parallel_games,
            seed,
            adjudication: Default::default(),
        };
        let tally = with_threads(self.cfg.generation.threads, || {
            arena::play_match(&pool, &starts, &settings, &mut |t| {
                progress(name, t, 2 * pairs)
            })
        })?;
        Ok(tally)
    }

    /// The start positions of `pairs` game pairs: the standard start, or `[eval]
    /// opening_turns` random turns from it.
    fn openings(&self, pairs: u64, seed: u64) -> Result<Vec<G>, TrainError> {
        let openings = match self.cfg.eval.opening_turns {
            0 => Openings::Standard,
            turns => Openings::RandomTurns(turns),
        };
        let starts = arena::opening_positions(&self.standard, &openings, pairs, seed)?;
        Ok(starts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_scores() {
        assert!((elo_from_score(0.5, 10)).abs() < 1e-9);
        // 0.75: −400·log10(1/3) = 190.85
        assert!((elo_from_score(0.75, 100) - 190.848_501_887_864_9).abs() < 1e-6);
        // A sweep of 20 games counts as 19.5/20.
        assert!((elo_from_score(1.0, 20) - 400.0 * 39f64.log10()).abs() < 1e-6);
        assert!(elo_from_score(0.3, 0).is_nan());
    }
}
