//! The evaluation of a new checkpoint during a run: matches against the previous net, the
//! random agent and a rollout search, played by selfplay's arena as `crumble match` plays
//! them; their scores and Elo go to the ledger row and decide gating.

use super::layout::checkpoint_path;
use super::{Event, Run, TrainError};
use crate::games::TrainGame;
use crate::ledger::{Opponent, Row};
use crumble_model::NetLoader;
use crumble_selfplay::AgentSpec;
use crumble_selfplay::arena::{self, Flow, Openings, PairSettings, Pairing, Pool, Tally};
use crumble_selfplay::driver::with_threads;
use std::path::{Path, PathBuf};
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

impl<G: TrainGame> Run<G> {
    /// Step 5 of generation `g`: on evaluation generations (every `[eval] every`, and the
    /// last), plays the matches and fills their columns and the running Elo. Returns whether
    /// the new net is promoted to self-play (always, unless gating holds it back).
    pub(super) fn evaluate(
        &self,
        g: u32,
        last: bool,
        row: &mut Row,
        on_event: &mut (dyn FnMut(Event) + Send),
    ) -> Result<bool, TrainError> {
        let t2 = Instant::now();
        let e = self.cfg.eval.clone();
        let evaluate = e.every > 0 && (g.is_multiple_of(e.every) || last);
        let mut promoted = true;
        if evaluate {
            let me = checkpoint_path(&self.dir, g);
            for (opponent, games, agent) in self.eval_matches(g) {
                let t = self.play_eval(&me, &agent, games, g, opponent.name(), on_event)?;
                let score = t.wdl.score();
                row.set_eval(opponent, score, elo_from_score(score, t.wdl.games()));
            }
            if e.gating && e.games_vs_previous > 0 {
                promoted = row.score_vs_previous >= e.gating_threshold;
            }
        }
        // Figures of an evaluation only when there was one (empty cells otherwise); the
        // running Elo is carried in progress.csv for the next evaluation to add to.
        let elo_before = self.history.last.as_ref().map_or(0.0, |r| r.elo);
        let elo_step = row.elo_vs_previous;
        row.elo = elo_before + if elo_step.is_finite() { elo_step } else { 0.0 };
        if evaluate {
            row.eval_s = t2.elapsed().as_secs_f64();
        }
        Ok(promoted)
    }

    /// The matches of generation `g`'s evaluation, in order: opponent, games, agent (those
    /// of 0 games left out).
    fn eval_matches(&self, g: u32) -> Vec<(Opponent, u64, EvalAgent)> {
        let e = &self.cfg.eval;
        let mut matches: Vec<(Opponent, u64, EvalAgent)> = vec![
            (
                Opponent::Previous,
                e.games_vs_previous,
                EvalAgent::Checkpoint(checkpoint_path(&self.dir, g - 1)),
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

    /// Plays an evaluation match of the new checkpoint `me` against `opp`, exactly as
    /// `crumble match` plays one (the same engine, game pairs from `[eval] opening_turns`
    /// random turns, match search settings but `[eval] lookahead`); returns the new net's
    /// tally.
    fn play_eval(
        &self,
        me: &Path,
        opp: &EvalAgent,
        games: u64,
        g: u32,
        name: &str,
        on_event: &mut (dyn FnMut(Event) + Send),
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
        let pool = Pool::<G>::new(&specs, &search, &loader)?;
        let pairs = games.div_ceil(2);
        let seed = self.cfg.selfplay.seed ^ (u64::from(g) << 20) ^ name.len() as u64;
        let starts = self.eval_openings(pairs, seed)?;
        let settings = PairSettings {
            pairs,
            max_turns: e.max_turns,
            concurrency: e.parallel_games,
            seed,
            first_game: 0,
        };
        let mut tally = Tally::default();
        with_threads(self.cfg.generation.threads, || {
            arena::play_pairings(
                &pool,
                &[Pairing { a: 0, b: 1 }],
                &[],
                &starts,
                &settings,
                &mut |pair| {
                    tally.add(pair);
                    on_event(Event::Eval {
                        generation: g,
                        opponent: name,
                        tally: &tally,
                        total: 2 * pairs,
                    });
                    Ok(Flow::Continue)
                },
            )
        })?;
        Ok(tally)
    }

    /// The start positions of `pairs` game pairs: the standard start, or `[eval]
    /// opening_turns` random turns from it.
    fn eval_openings(&self, pairs: u64, seed: u64) -> Result<Vec<G>, TrainError> {
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
