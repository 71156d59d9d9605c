//! The trainer's side of a run shared through a store: the lock and the epoch, the mirror
//! of the run directory into the store, the pointer and its heartbeat, gathering, the
//! commit of each generation, and recovery after a crash.
//!
//! Order of one generation's commit: the checkpoint and replay files are in the store, then
//! the commit object is created (create-only, naming their hashes: the commit point of the
//! generation in the store), then the consumed uploads are deleted, the ledger row is
//! appended locally and `progress.csv` mirrored, then the pointer names the network of the
//! next generation. A trainer killed after the commit object but before its row finds the
//! row in the commit when it resumes. Every write first checks the trainer's epoch
//! ([`super::fence`]).

use super::commit::{self, Commit, Consumed};
use super::fence::Fence;
use super::gather::{self, GatherSettings, Gathered};
use super::mirror::Mirror;
use super::pointer::{Lock, Pointer};
use super::{DistError, PROTOCOL, io_err, sha256_hex};
use crate::games::TrainGame;
use crate::ledger::{self, Row};
use crate::store::{Store, conformance};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How a trainer shares its run.
#[derive(Clone, Debug)]
pub struct Shared {
    /// The run's store (for a local location, the run directory itself).
    pub store: Store,
    /// Games come from workers (`--selfplay external`) instead of this process.
    pub external: bool,
    /// Files of networks promoted more than this many promotions before the current
    /// self-play network are stale (never listed).
    pub max_lag: u32,
    /// The most games one generation takes (`None`: [`DEFAULT_CAP_FACTOR`] times the
    /// config's `[generation] games`).
    pub intake_cap: Option<u64>,
    /// How often to look for new files while waiting.
    pub poll: Duration,
    /// How often the pointer's heartbeat is renewed.
    pub heartbeat: Duration,
    /// Take the trainer lock from another holder.
    pub take_over: bool,
}

/// The intake cap, by default, in multiples of the configured games per generation. It
/// only bites when the trainer cannot keep up: below that, a generation's intake settles
/// at what arrives while the previous one trains; above it, an uncapped generation would
/// grow without end (its training steps grow with its positions).
pub const DEFAULT_CAP_FACTOR: u64 = 64;

/// The trainer's side while the run is open. Dropping it stops the heartbeat and releases
/// the lock.
#[derive(Debug)]
pub struct TrainerSide {
    shared: Shared,
    lock: Lock,
    fence: Fence,
    consumed: Consumed,
    mirror: Mirror,
    /// The networks promoted so far (starting with 0), oldest first.
    promoted: Vec<u32>,
    pointer: Arc<Mutex<Option<Pointer>>>,
    stop: Arc<AtomicBool>,
    beat: Option<std::thread::JoinHandle<()>>,
    /// What the generation in progress gathered (the games are in the window).
    pending: Option<Gathered>,
}

/// Fills an empty local cache directory from the store when the store holds a run (a
/// trainer started on a new machine, or with a new cache directory).
pub fn sync_down(store: &Store, dir: &Path) -> Result<(), DistError> {
    if store.is_dir(dir) || dir.join("config.toml").exists() {
        return Ok(());
    }
    if store.get("config.toml", super::MAX_JSON)?.is_none() {
        return Ok(());
    }
    for top in ["config.toml", "progress.csv", "quarantine.csv"] {
        if let Some(b) = store.get(top, super::MAX_NET_FILE)? {
            write_local(&dir.join(top), &b)?;
        }
    }
    for prefix in ["checkpoints", "replay", "tb"] {
        for e in store.list(prefix)? {
            if let Some(b) = store.get(&e.key, super::MAX_NET_FILE)? {
                write_local(&dir.join(&e.key), &b)?;
            }
        }
    }
    Ok(())
}

fn write_local(path: &Path, bytes: &[u8]) -> Result<(), DistError> {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).map_err(io_err(p))?;
    }
    crumble_selfplay::files::write_atomic(path, bytes).map_err(io_err(path))
}

impl TrainerSide {
    /// Checks the store, takes the lock and a new epoch, and (external self-play) settles a
    /// generation left half-committed: a commit without its ledger row gets the row; the
    /// gathered inputs of an uncommitted generation are dropped locally (they are still in
    /// the store).
    pub fn start(shared: Shared, dir: &Path) -> Result<TrainerSide, DistError> {
        conformance::probe(&shared.store)?;
        let lock = Lock::acquire(&shared.store, shared.take_over)?;
        let hint = match Pointer::read(&shared.store) {
            Ok(Some(p)) => p.epoch,
            _ => 0,
        };
        let fence = Fence::take(&shared.store, hint)?;
        let mirror = Mirror::new(!shared.store.is_dir(dir));
        let mut side = TrainerSide {
            shared,
            lock,
            fence,
            consumed: Consumed::default(),
            mirror,
            promoted: vec![0],
            pointer: Arc::new(Mutex::new(None)),
            stop: Arc::new(AtomicBool::new(false)),
            beat: None,
            pending: None,
        };
        side.recover(dir)?;
        Ok(side)
    }

    fn recover(&mut self, dir: &Path) -> Result<(), DistError> {
        let store = self.shared.store.clone();
        let csv = dir.join("progress.csv");
        let mut rows = Vec::new();
        if csv.exists() {
            ledger::drop_torn_tail(&csv)?;
            rows = ledger::read(&csv)?;
        }
        let mut done = rows.len() as u32;
        if self.shared.external {
            let next = Commit::read(&store, done + 1)?;
            let ahead = if csv.exists() { 2 } else { 1 };
            if Commit::read(&store, done + ahead)?.is_some() {
                let mut g = done + ahead;
                while store.exists(&commit::commit_key(g + 1))? {
                    g += 1;
                }
                return Err(DistError::StoreAhead {
                    store: store.name().into(),
                    local: done,
                    store_gen: g,
                });
            }
            if let Some(c) = next.filter(|_| csv.exists()) {
                let row = c.row().ok_or_else(|| DistError::Corrupt {
                    store: store.name().into(),
                    key: commit::commit_key(c.generation),
                    what: "its row does not have the ledger's columns".into(),
                })?;
                self.fence.check()?;
                ledger::append(&csv, &row)?;
                rows.push(row);
                done += 1;
            }
        }
        for r in &rows {
            self.note_net(r.best_net as u32);
        }
        if self.shared.external {
            let from = self.min_net() + 1;
            let evidence = format!("the ledger holds {done} generations");
            let live = commit::read_range(&store, from, done, &evidence)?;
            for c in &live {
                self.consumed.add(c);
            }
            // Killed between a commit and the deletes that follow it: delete again.
            if let Some(c) = live.last() {
                self.delete_uploads(c)?;
            }
            let unfinished = crate::replay::generation_dir(dir, done + 1);
            if unfinished.exists() {
                self.fence.check()?;
                std::fs::remove_dir_all(&unfinished).map_err(io_err(&unfinished))?;
            }
        }
        Ok(())
    }

    fn note_net(&mut self, net: u32) {
        if self.promoted.last() != Some(&net) {
            self.promoted.push(net);
        }
    }

    /// The oldest network whose files are still fresh.
    fn min_net(&self) -> u32 {
        let n = self.promoted.len();
        self.promoted[n.saturating_sub(self.shared.max_lag as usize + 1)]
    }

    /// Deletes the uploads a commit consumed; a failed delete is left for a later start
    /// (the key stays named in a live commit, so it is never taken again).
    fn delete_uploads(&self, c: &Commit) -> Result<(), DistError> {
        for k in c.consumed_uploads() {
            if let Err(e @ DistError::Fenced { .. }) = self.fence.delete(&k) {
                return Err(e);
            }
        }
        Ok(())
    }

    pub fn external(&self) -> bool {
        self.shared.external
    }

    /// This trainer's epoch.
    pub fn epoch(&self) -> u64 {
        self.fence.epoch()
    }

    /// Refuses once a newer trainer took the run over (one request); call it before each
    /// write to the run directory.
    pub fn check(&self) -> Result<(), DistError> {
        self.fence.check()
    }

    /// The refusal, when the heartbeat or an earlier check already found a newer trainer
    /// (no request: cheap enough for every training step).
    pub fn fenced(&self) -> Result<(), DistError> {
        if self.fence.is_fenced() {
            return self.fence.check();
        }
        Ok(())
    }

    /// At start: the finished generations' files into the store (those missing) and the
    /// pointer to net `net` after `done` generations.
    pub fn open(
        &mut self,
        dir: &Path,
        config: &str,
        done: u32,
        net: u32,
        finished: bool,
    ) -> Result<(), DistError> {
        self.mirror
            .start(&self.shared.store, &self.fence, dir, done)?;
        self.publish(dir, config, done, net, finished)
    }

    /// Publishes the pointer to net `net` after `done` generations and starts the heartbeat
    /// (if not running).
    fn publish(
        &mut self,
        dir: &Path,
        config: &str,
        done: u32,
        net: u32,
        finished: bool,
    ) -> Result<(), DistError> {
        let rel = format!("checkpoints/gen-{net:04}/net.crnet");
        let path = crate::run::checkpoint_path(dir, net);
        let bytes = std::fs::read(&path).map_err(io_err(&path))?;
        let p = Pointer {
            protocol: PROTOCOL,
            epoch: self.fence.epoch(),
            generation: done,
            net,
            checkpoint: rel,
            sha256: sha256_hex(&bytes),
            config: config.into(),
            heartbeat: super::now_unix(),
            finished,
        };
        {
            let mut slot = self.pointer.lock().unwrap_or_else(|e| e.into_inner());
            p.write(&self.fence)?;
            *slot = Some(p);
        }
        if finished {
            self.stop_heartbeat();
        } else if self.beat.is_none() {
            self.start_heartbeat();
        }
        Ok(())
    }

    /// The run's last generation has its games: the pointer says `finished` now, so that
    /// workers stop playing games no generation will use while the trainer trains and
    /// evaluates (a trainer resumed before its last commit publishes the run open again).
    pub fn close_intake(&mut self) -> Result<(), DistError> {
        {
            let mut slot = self.pointer.lock().unwrap_or_else(|e| e.into_inner());
            let Some(p) = slot.as_mut() else {
                return Ok(());
            };
            p.finished = true;
            p.heartbeat = super::now_unix();
            p.write(&self.fence)?;
        }
        self.stop_heartbeat();
        Ok(())
    }

    fn start_heartbeat(&mut self) {
        let (pointer, stop, fence) = (self.pointer.clone(), self.stop.clone(), self.fence.clone());
        let every = self.shared.heartbeat;
        self.stop.store(false, Ordering::SeqCst);
        self.beat = Some(std::thread::spawn(move || {
            let tick = Duration::from_millis(100).min(every);
            let mut since = Duration::ZERO;
            while !stop.load(Ordering::SeqCst) {
                std::thread::sleep(tick);
                since += tick;
                if since < every {
                    continue;
                }
                since = Duration::ZERO;
                let mut slot = pointer.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(p) = slot.as_mut() {
                    p.heartbeat = super::now_unix();
                    // A failed beat is retried at the next one (workers only pause when
                    // beats stay missing); a newer epoch ends the beats, and the training
                    // loop stops at its next step.
                    if let Err(DistError::Fenced { .. }) = p.write(&fence) {
                        return;
                    }
                }
            }
        }));
    }

    fn stop_heartbeat(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.beat.take() {
            let _ = h.join();
        }
    }

    /// Gathers generation `g`'s games (self-play net `net`, at least `games` wanted).
    pub fn gather<G: TrainGame>(
        &mut self,
        standard: &G,
        dir: &Path,
        g: u32,
        games: u64,
        on_wait: &mut dyn FnMut(u64, usize, f64),
    ) -> Result<&Gathered, DistError> {
        let min = self.min_net();
        let nets: Vec<u32> = self
            .promoted
            .iter()
            .rev()
            .copied()
            .filter(|&n| n >= min)
            .collect();
        let cap = self
            .shared
            .intake_cap
            .unwrap_or(games.saturating_mul(DEFAULT_CAP_FACTOR))
            .max(games);
        let s = GatherSettings {
            generation: g,
            games,
            cap,
            nets,
            poll: self.shared.poll,
            quarantine_log: dir.join("quarantine.csv"),
        };
        let store = &self.shared.store;
        let got = gather::gather::<G>(store, &self.fence, &self.consumed, standard, &s, on_wait)?;
        self.fence.check()?;
        gather::write_generation::<G>(&crate::replay::generation_dir(dir, g), &got)?;
        Ok(self.pending.insert(got))
    }

    /// The games gathered for the generation in progress, handed to the replay window.
    pub fn take_games(&mut self) -> Vec<crumble_selfplay::GameRecord> {
        self.pending
            .as_mut()
            .map(|p| std::mem::take(&mut p.games))
            .unwrap_or_default()
    }

    /// Before generation `g`'s ledger row: its files into the store, then (external
    /// self-play) its commit object naming their hashes, then the consumed uploads deleted.
    pub fn before_row(&mut self, dir: &Path, g: u32, row: &Row) -> Result<(), DistError> {
        let store = self.shared.store.clone();
        let files = self.mirror.generation(&store, &self.fence, dir, g)?;
        self.mirror.top(&self.fence, dir)?;
        if !self.shared.external {
            return Ok(());
        }
        let p = self.pending.take().unwrap_or_default();
        let mut c = Commit {
            protocol: PROTOCOL,
            epoch: self.fence.epoch(),
            generation: g,
            used: p.used,
            duplicates: p.duplicates,
            quarantined: p.quarantined,
            dropped: p.dropped,
            files,
            row: Vec::new(),
        };
        c.set_row(row);
        c.write(&store, &self.fence)?;
        self.consumed.add(&c);
        self.delete_uploads(&c)
    }

    /// After generation `g`'s ledger row: the ledger into the store, the pointer to the
    /// network of the next generation.
    pub fn after_row(
        &mut self,
        dir: &Path,
        config: &str,
        g: u32,
        net: u32,
        finished: bool,
    ) -> Result<(), DistError> {
        self.note_net(net);
        // Commits up to the oldest fresh network's generation name only files no gather
        // lists any more.
        self.consumed.forget_upto(self.min_net());
        self.mirror.top(&self.fence, dir)?;
        self.publish(dir, config, g, net, finished)
    }
}

impl Drop for TrainerSide {
    fn drop(&mut self) {
        self.stop_heartbeat();
        self.lock.release(&self.shared.store, &self.fence);
    }
}

#[cfg(test)]
#[path = "trainer_tests.rs"]
mod tests;
