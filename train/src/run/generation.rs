//! One generation of a run, as its steps in order: self-play, the replay window, training,
//! the checkpoint, evaluation, then the logs and the ledger row that finishes it.

use super::layout::{checkpoint_path, save_checkpoint};
use super::{Event, Run, TrainError, io_err};
use crate::config::TrainConfig;
use crate::games::TrainGame;
use crate::ledger::{self, COLUMNS, Row};
use crate::replay::{ReplayError, generation_dir};
use crate::tb::TbLog;
use crumble_core::{GameState, Player};
use crumble_model::NetEvaluator;
use crumble_selfplay::driver::with_threads;
use crumble_selfplay::selfplay;
use crumble_selfplay::{Agent, AgentKind, Evaluator, GameRecord, MixedEvaluator};
use std::path::Path;
use std::time::Instant;

impl<G: TrainGame> Run<G> {
    /// Plays, trains, saves, evaluates and records generation `done + 1`; `last` is the
    /// run's last generation (always evaluated).
    pub(super) fn generation(
        &mut self,
        last: bool,
        on_event: &mut (dyn FnMut(Event) + Send),
    ) -> Result<(), TrainError> {
        let g = self.history.done + 1;
        // The net self-play uses: the newest one promoted so far.
        let selfplay_net = self.history.last.as_ref().map_or(0, |r| r.best_net as u32);
        let mut row = Row::new(g);
        row.selfplay_net = f64::from(selfplay_net);
        let new_positions = if self.dist.as_ref().is_some_and(|d| d.external()) {
            let positions = self.gather(g, &mut row, on_event)?;
            if last {
                self.close_intake()?;
            }
            positions
        } else {
            self.selfplay(g, selfplay_net, &mut row, on_event)?
        };
        self.slide_window(g, new_positions, &mut row)?;
        self.train_generation(g, new_positions, &mut row, on_event)?;
        let net = self.net.as_ref().expect("the training net is always there");
        self.check_fence()?;
        save_checkpoint(&self.dir, g, &self.net_config, net, Some(&self.optim))?;
        self.evaluate(g, selfplay_net, last, &mut row, on_event)?;
        self.commit(g, row, last, on_event)
    }

    /// Step 1 of generation `g`: self-play with net `selfplay_net` into `replay/gen-g` (going
    /// on from the games already there); fills the self-play columns and puts the games into
    /// the window. Returns the generation's positions.
    fn selfplay(
        &mut self,
        g: u32,
        selfplay_net: u32,
        row: &mut Row,
        on_event: &mut (dyn FnMut(Event) + Send),
    ) -> Result<u64, TrainError> {
        let t0 = Instant::now();
        let sp_dir = generation_dir(&self.dir, g);
        let mut sp = self.cfg.selfplay.clone();
        sp.seed = self
            .cfg
            .selfplay
            .seed
            .wrapping_add(u64::from(g).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let ckpt = checkpoint_path(&self.dir, selfplay_net);
        let agent = selfplay_agent::<G>(&self.cfg, &ckpt, selfplay_net, g, sp.seed)?;
        let games_wanted = self.cfg.generation.games;
        let standard = self.standard.clone();
        let (_, progress) = with_threads(self.cfg.generation.threads, || {
            selfplay::run_selfplay(agent, &sp, &standard, &sp_dir, games_wanted, &mut |p| {
                on_event(Event::SelfPlay {
                    generation: g,
                    progress: p,
                    seconds: t0.elapsed().as_secs_f64(),
                })
            })
        })?;
        let sp_secs = t0.elapsed().as_secs_f64();
        let games = crate::replay::read_generation(&sp_dir)?;
        selfplay_stats::<G>(&games, row)?;
        row.selfplay_s = sp_secs;
        row.sims_per_s = progress.simulations as f64 / sp_secs.max(1e-9);
        // Games of this process only give the rate (a resumed generation has older ones too).
        row.games_per_hour = progress.games_done as f64 * 3600.0 / sp_secs.max(1e-9);
        self.window.insert::<G>(g, games)?;
        let new_positions = self.window.samples_of(g);
        row.positions = new_positions as f64;
        Ok(new_positions)
    }

    /// Step 6 of generation `g`: the times, TensorBoard, then the ledger row, which
    /// finishes the generation.
    fn commit(
        &mut self,
        g: u32,
        mut row: Row,
        last: bool,
        on_event: &mut (dyn FnMut(Event) + Send),
    ) -> Result<(), TrainError> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64());
        row.unix_time = now.floor();
        row.elapsed_s = self.elapsed_before + self.started.elapsed().as_secs_f64();
        row.cpu_s = self.cpu_before + self.cpu_started.elapsed().as_secs_f64();
        // Logged before the ledger commits the generation: a kill in between repeats the
        // generation and logs its step twice, rather than never.
        let tb_dir = self.dir.join("tb");
        self.check_fence()?;
        log_row(&mut self.tb, &row, g).map_err(io_err(&tb_dir))?;
        if let Some(d) = &mut self.dist {
            d.before_row(&self.dir, g, &row)?;
        }
        self.check_fence()?;
        ledger::append(&self.dir.join("progress.csv"), &row)?;
        self.history.push(row.clone(), self.cfg.replay.window_max);
        if let Some(d) = &mut self.dist {
            let config = self.cfg.to_toml_string();
            d.after_row(&self.dir, &config, g, row.best_net as u32, last)?;
        }
        on_event(Event::Finished {
            generation: g,
            row: &row,
        });
        Ok(())
    }
}

/// The self-play agent of generation `g`: a search on the net of generation `net` (its file
/// `checkpoint`), its leaf values mixed with playouts in the generations `[generation]
/// rollout_mix` asks for. Workers of a shared run build theirs with it too.
pub fn selfplay_agent<G: TrainGame>(
    cfg: &TrainConfig,
    checkpoint: &Path,
    net: u32,
    g: u32,
    seed: u64,
) -> Result<Agent<G>, TrainError> {
    let evaluator = NetEvaluator::load_for(
        checkpoint,
        G::Encoder::default(),
        crumble_model::default_device(),
    )?;
    let mix = cfg.generation.rollout_mix_at(g);
    let evaluator: Box<dyn Evaluator<G>> = if mix > 0.0 {
        Box::new(MixedEvaluator::new(
            evaluator,
            cfg.search.rollout.clone(),
            mix as f32,
            seed ^ 0x5E_ED0F_7011_0075,
        ))
    } else {
        Box::new(evaluator)
    };
    Ok(Agent {
        name: format!("gen-{net:04}"),
        kind: AgentKind::Mcts {
            evaluator,
            simulations: cfg.search.simulations,
            config: cfg.search.clone(),
        },
        book: None,
    })
}

/// Fills the self-play columns from the generation's games.
pub(super) fn selfplay_stats<G: GameState>(
    games: &[GameRecord],
    row: &mut Row,
) -> Result<(), TrainError> {
    let n = games.len() as f64;
    row.games = n;
    if games.is_empty() {
        return Ok(());
    }
    let (mut turns, mut black, mut draws) = (0u64, 0.0, 0u64);
    let (mut would, mut false_pos) = (0u64, 0u64);
    for rec in games {
        let end: G = rec.replay().map_err(|e| ReplayError::Replay {
            index: rec.index,
            what: e.to_string(),
        })?;
        turns += u64::from(end.turns_played());
        match rec.winner() {
            Some(Player::First) => black += 1.0,
            None => {
                black += 0.5;
                draws += 1;
            }
            Some(Player::Second) => {}
        }
        if let Some(r) = rec.would_resign {
            would += 1;
            // The resignation would have been wrong unless the resigner lost.
            if rec.winner() != Some(r.opponent()) {
                false_pos += 1;
            }
        }
    }
    row.mean_turns = turns as f64 / n;
    row.black_score = black / n;
    row.draw_rate = draws as f64 / n;
    if would > 0 {
        row.resign_fp_rate = false_pos as f64 / would as f64;
    }
    Ok(())
}

/// Logs the row's measured columns as TensorBoard scalars at step `g`, an evaluation's at
/// the step of the checkpoint it measured (`eval_net`: an earlier one when it ran beside the
/// loop).
fn log_row(tb: &mut TbLog, row: &Row, g: u32) -> std::io::Result<()> {
    let eval_step = if row.eval_net.is_finite() {
        row.eval_net as u32
    } else {
        g
    };
    for (column, value) in COLUMNS.iter().zip(row.values()) {
        let Some(tag) = column.tag else { continue };
        if column.name == "elo" && !row.evaluated() {
            continue; // carried over, not measured this generation
        }
        let step = if tag.starts_with("eval/") || column.name == "eval_s" {
            eval_step
        } else {
            g
        };
        tb.scalar(tag, value, step)?;
    }
    tb.flush()
}
