//! The trainer's side of a run shared through a store: the lock, the mirror of the run
//! directory into the store, the pointer and its heartbeat, gathering, the commit of each
//! generation, and recovery after a crash.
//!
//! Order of one generation's commit: the checkpoint and replay files are in the store, then
//! the commit object is created (create-only: the commit point of the generation in the
//! store), then the ledger row is appended locally and `progress.csv` mirrored, then the
//! pointer names the network of the next generation. A trainer killed after the commit
//! object but before its row finds the row in the commit when it resumes.

use super::commit::{Commit, Consumed};
use super::gather::{self, GatherSettings, Gathered};
use super::pointer::{Lock, Pointer};
use super::{DistError, PROTOCOL, io_err, sha256_hex};
use crate::games::TrainGame;
use crate::ledger::{self, Row};
use crate::store::{Store, conformance};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
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
    /// Files of networks more than this many generations older than the current self-play
    /// network are stale.
    pub max_lag: u32,
    /// How often to look for new files while waiting.
    pub poll: Duration,
    /// How often the pointer's heartbeat is renewed.
    pub heartbeat: Duration,
    /// Take the trainer lock from another holder.
    pub take_over: bool,
}

/// The trainer's side while the run is open. Dropping it stops the heartbeat and releases
/// the lock.
#[derive(Debug)]
pub struct TrainerSide {
    shared: Shared,
    lock: Lock,
    consumed: Consumed,
    /// The store is not the run directory: files are copied up.
    mirror: bool,
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
    /// Checks the store, takes the lock, and (external self-play) settles a generation left
    /// half-committed: a commit without its ledger row gets the row; the gathered inputs of
    /// an uncommitted generation are dropped locally (they are still in the store).
    pub fn start(shared: Shared, dir: &Path) -> Result<TrainerSide, DistError> {
        conformance::probe(&shared.store)?;
        let lock = Lock::acquire(&shared.store, shared.take_over)?;
        let mirror = !shared.store.is_dir(dir);
        let mut side = TrainerSide {
            shared,
            lock,
            consumed: Consumed::default(),
            mirror,
            pointer: Arc::new(Mutex::new(None)),
            stop: Arc::new(AtomicBool::new(false)),
            beat: None,
            pending: None,
        };
        if side.shared.external {
            side.recover(dir)?;
        }
        Ok(side)
    }

    fn recover(&mut self, dir: &Path) -> Result<(), DistError> {
        let (consumed, commits) = Consumed::read(&self.shared.store)?;
        self.consumed = consumed;
        let csv = dir.join("progress.csv");
        if !csv.exists() {
            return Ok(());
        }
        ledger::drop_torn_tail(&csv)?;
        let done = ledger::read(&csv)?.len() as u32;
        if let Some(c) = commits.iter().find(|c| c.generation == done + 1) {
            let row = c.row().ok_or_else(|| DistError::Corrupt {
                store: self.shared.store.name().into(),
                key: super::commit::commit_key(c.generation),
                what: "its row does not have the ledger's columns".into(),
            })?;
            ledger::append(&csv, &row)?;
        }
        let done = ledger::read(&csv)?.len() as u32;
        let unfinished = crate::replay::generation_dir(dir, done + 1);
        if unfinished.exists() {
            std::fs::remove_dir_all(&unfinished).map_err(io_err(&unfinished))?;
        }
        Ok(())
    }

    pub fn external(&self) -> bool {
        self.shared.external
    }

    /// Copies the run directory's files of finished generations up to `upto` (and the
    /// top-level files and logs) into the store where missing or changed in size.
    pub fn mirror(&self, dir: &Path, upto: u32) -> Result<(), DistError> {
        if !self.mirror {
            return Ok(());
        }
        let store = &self.shared.store;
        let mut there: BTreeMap<String, u64> = BTreeMap::new();
        for prefix in ["checkpoints", "replay", "tb"] {
            there.extend(store.list(prefix)?.into_iter().map(|e| (e.key, e.size)));
        }
        let mut files = Vec::new();
        for top in ["config.toml", "progress.csv", "quarantine.csv"] {
            files.push(PathBuf::from(top));
        }
        for sub in ["checkpoints", "replay"] {
            for g in 0..=upto {
                let d = Path::new(sub).join(format!("gen-{g:04}"));
                files.extend(list_files(dir, &d)?);
            }
        }
        files.extend(list_files(dir, Path::new("tb"))?);
        for rel in files {
            let path = dir.join(&rel);
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            let key = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            let top = !key.contains('/');
            if !top && there.get(&key) == Some(&meta.len()) {
                continue;
            }
            let bytes = std::fs::read(&path).map_err(io_err(&path))?;
            store.put(&key, bytes)?;
        }
        Ok(())
    }

    /// Publishes the pointer to net `net` after `done` generations and starts the heartbeat
    /// (if not running).
    pub fn publish(
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
            p.write(&self.shared.store)?;
            *slot = Some(p);
        }
        if finished {
            self.stop_heartbeat();
        } else if self.beat.is_none() {
            self.start_heartbeat();
        }
        Ok(())
    }

    fn start_heartbeat(&mut self) {
        let (pointer, stop, store) = (
            self.pointer.clone(),
            self.stop.clone(),
            self.shared.store.clone(),
        );
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
                    // A failed beat is retried at the next one; workers only pause when
                    // beats stay missing.
                    let _ = p.write(&store);
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

    /// Gathers generation `g`'s games (self-play net `net`, `games` wanted).
    pub fn gather<G: TrainGame>(
        &mut self,
        standard: &G,
        dir: &Path,
        g: u32,
        net: u32,
        games: u64,
        on_wait: &mut dyn FnMut(u64, usize, f64),
    ) -> Result<&Gathered, DistError> {
        let s = GatherSettings {
            generation: g,
            games,
            min_net: net.saturating_sub(self.shared.max_lag),
            poll: self.shared.poll,
            quarantine_log: dir.join("quarantine.csv"),
        };
        let got = gather::gather::<G>(&self.shared.store, &self.consumed, standard, &s, on_wait)?;
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
    /// self-play) its commit object.
    pub fn before_row(&mut self, dir: &Path, g: u32, row: &Row) -> Result<(), DistError> {
        self.mirror(dir, g)?;
        if !self.shared.external {
            return Ok(());
        }
        let p = self.pending.take().unwrap_or_default();
        let mut c = Commit {
            protocol: PROTOCOL,
            generation: g,
            used: p.used,
            stale: p.stale,
            duplicates: p.duplicates,
            quarantined: p.quarantined,
            row: Vec::new(),
        };
        c.set_row(row);
        c.write(&self.shared.store)?;
        self.consumed.add(&c);
        Ok(())
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
        self.mirror(dir, g)?;
        self.publish(dir, config, g, net, finished)
    }
}

impl Drop for TrainerSide {
    fn drop(&mut self) {
        self.stop_heartbeat();
        self.lock.release(&self.shared.store);
    }
}

/// The files under `dir/rel` (recursively), relative to `dir`; none if it does not exist.
/// Temporaries are left out.
fn list_files(dir: &Path, rel: &Path) -> Result<Vec<PathBuf>, DistError> {
    let mut out = Vec::new();
    let mut stack = vec![rel.to_path_buf()];
    while let Some(r) = stack.pop() {
        let d = dir.join(&r);
        if !d.is_dir() {
            continue;
        }
        for e in std::fs::read_dir(&d).map_err(io_err(&d))? {
            let e = e.map_err(io_err(&d))?;
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".tmp") {
                continue;
            }
            let child = r.join(&name);
            if e.path().is_dir() {
                stack.push(child);
            } else {
                out.push(child);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Location;

    #[test]
    fn an_empty_working_copy_is_filled_with_the_run_but_not_the_uploads() {
        let base = std::env::temp_dir().join(format!(
            "crumble-syncdown-{}-{}",
            std::process::id(),
            conformance::unique_id()
        ));
        let store = Store::open(&Location::Local(base.join("store"))).unwrap();
        for (k, v) in [
            ("config.toml", "cfg"),
            ("progress.csv", "rows"),
            ("checkpoints/gen-0000/net.crnet", "net"),
            ("replay/gen-0001/selfplay-000000.crsp", "games"),
            ("tb/events.out.tfevents.1", "tb"),
            ("incoming/w1/n0000-000000-0.crsp", "upload"),
            ("commits/gen-0001.json", "{}"),
        ] {
            store.put(k, v.as_bytes().to_vec()).unwrap();
        }
        let copy = base.join("copy");
        sync_down(&store, &copy).unwrap();
        let read = |k: &str| std::fs::read_to_string(copy.join(k)).ok();
        assert_eq!(read("config.toml").as_deref(), Some("cfg"));
        assert_eq!(
            read("checkpoints/gen-0000/net.crnet").as_deref(),
            Some("net")
        );
        assert_eq!(
            read("replay/gen-0001/selfplay-000000.crsp").as_deref(),
            Some("games")
        );
        assert_eq!(read("tb/events.out.tfevents.1").as_deref(), Some("tb"));
        assert!(!copy.join("incoming").exists() && !copy.join("commits").exists());
        // A working copy that holds a run is left as it is.
        store.put("config.toml", b"changed".to_vec()).unwrap();
        sync_down(&store, &copy).unwrap();
        assert_eq!(read("config.toml").as_deref(), Some("cfg"));
        std::fs::remove_dir_all(base).unwrap();
    }

    #[test]
    fn a_commit_without_its_ledger_row_gives_the_row_on_resume() {
        let dir = std::env::temp_dir().join(format!(
            "crumble-recover-{}-{}",
            std::process::id(),
            conformance::unique_id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let csv = dir.join("progress.csv");
        ledger::create(&csv).unwrap();
        let store = Store::open(&Location::Local(dir.clone())).unwrap();
        // Generation 1 committed in the store, killed before its row; generation 2's
        // gathered games were on their way when the trainer died.
        let mut row = Row::new(1);
        row.games = 4.0;
        row.best_net = 1.0;
        let mut c = Commit {
            protocol: PROTOCOL,
            generation: 1,
            used: Vec::new(),
            stale: Vec::new(),
            duplicates: Vec::new(),
            quarantined: Vec::new(),
            row: Vec::new(),
        };
        c.set_row(&row);
        c.write(&store).unwrap();
        let gen2 = crate::replay::generation_dir(&dir, 2);
        std::fs::create_dir_all(&gen2).unwrap();
        let shared = Shared {
            store: store.clone(),
            external: true,
            max_lag: 1,
            poll: Duration::from_millis(10),
            heartbeat: Duration::from_secs(1),
            take_over: false,
        };
        let side = TrainerSide::start(shared, &dir).unwrap();
        let rows = ledger::read(&csv).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!((rows[0].generation, rows[0].games), (1.0, 4.0));
        assert!(!gen2.exists());
        // The generation is committed: a second commit of it is refused.
        let e = c.write(&store).unwrap_err().to_string();
        assert!(e.contains("another trainer committed generation 1"), "{e}");
        drop(side);
        assert!(!dir.join(super::super::LOCK_KEY).exists());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
