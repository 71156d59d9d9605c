//! The steps of a shared run ([`crate::distributed`]) inside the generation loop: gathering
//! a generation's games from workers instead of playing them, and publishing the pointer.

use super::generation::selfplay_stats;
use super::{Event, Run, TrainError};
use crate::games::TrainGame;
use crate::ledger::Row;

impl<G: TrainGame> Run<G> {
    /// Step 1 of generation `g` with external self-play: gathers the workers' files (every
    /// fresh one there, at least `[generation] games`, at most the intake cap) into
    /// `replay/gen-g`, fills the self-play columns (simulations are the workers': not
    /// measured here) and puts the games into the window. Returns the generation's
    /// positions.
    pub(super) fn gather(
        &mut self,
        g: u32,
        row: &mut Row,
        on_event: &mut (dyn FnMut(Event) + Send),
    ) -> Result<u64, TrainError> {
        let wanted = self.cfg.generation.games;
        let side = self
            .dist
            .as_mut()
            .expect("external self-play has a shared run");
        let got = side.gather::<G>(
            &self.standard,
            &self.dir,
            g,
            wanted,
            &mut |games, files, seconds| {
                on_event(Event::Gather {
                    generation: g,
                    games,
                    wanted,
                    files,
                    seconds,
                })
            },
        )?;
        let (seconds, dropped) = (got.seconds, got.dropped.len());
        if dropped > 0 {
            on_event(Event::Dropped {
                generation: g,
                files: dropped,
                used: got.used.len(),
            });
        }
        let games = side.take_games();
        selfplay_stats::<G>(&games, row)?;
        row.selfplay_s = seconds;
        row.games_per_hour = games.len() as f64 * 3600.0 / seconds.max(1e-9);
        let gathered = games.len() as u64;
        // The window holds the games as written to replay/gen-g (renumbered from 0), the
        // same records a resumed run reads back.
        let games = crate::replay::read_generation(&crate::replay::generation_dir(&self.dir, g))?;
        debug_assert_eq!(games.len() as u64, gathered);
        self.window.insert::<G>(g, games)?;
        let new_positions = self.window.samples_of(g);
        row.positions = new_positions as f64;
        Ok(new_positions)
    }

    /// A shared run's state for workers, when the run opens: its finished files mirrored and
    /// the pointer to the network the next generation plays with (`finished`: the run is
    /// at its target already).
    pub(super) fn publish(&mut self, finished: bool) -> Result<(), TrainError> {
        let Some(side) = self.dist.as_mut() else {
            return Ok(());
        };
        let done = self.history.done;
        let net = self.history.last.as_ref().map_or(0, |r| r.best_net as u32);
        side.open(&self.dir, &self.cfg.to_toml_string(), done, net, finished)?;
        Ok(())
    }

    /// After the last generation's gather: workers may stop
    /// ([`crate::distributed::trainer::TrainerSide::close_intake`]).
    pub(super) fn close_intake(&mut self) -> Result<(), TrainError> {
        if let Some(side) = self.dist.as_mut() {
            side.close_intake()?;
        }
        Ok(())
    }

    /// Refuses to write into the run directory once a newer trainer took a shared run over
    /// (one request to the store; nothing for a local run).
    pub(super) fn check_fence(&self) -> Result<(), TrainError> {
        if let Some(d) = &self.dist {
            d.check()?;
        }
        Ok(())
    }
}
