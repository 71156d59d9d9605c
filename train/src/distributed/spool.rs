//! A worker's local spool: everything a worker must not lose in a crash.
//!
//! ```text
//! SPOOL/worker-id                 the worker's id (chosen once; its seeds come from it)
//! SPOOL/owner.json                the host, run and worker the spool belongs to
//! SPOOL/seq                       the next batch number
//! SPOOL/lock                      the process using the spool
//! SPOOL/building/nNNNN-SSSSSS/    a batch being played (local self-play, resumable); each
//!                                 record file in it is uploaded as soon as it is complete
//! SPOOL/uploaded/nNNNN-SSSSSS-FFFFFF   marks a building file as uploaded
//! SPOOL/pending/nNNNN-SSSSSS-FFFFFF.crsp (+ .txt)  finished files waiting for upload
//! SPOOL/nets/gen-NNNN.crnet       downloaded networks (checked against the pointer)
//! ```
//!
//! A file's name (network, batch, first game) is chosen once and is its key in the store
//! (`incoming/nNNNN/WORKER/SSSSSS-FFFFFF.crsp`), so a file uploaded twice (a worker killed
//! after its upload, before it marked it) hits the same key; the second upload compares
//! the content there with its own and counts as done only when they are the same.

use super::{DistError, INCOMING, MAX_RECORD_FILE, create_or_same, host_name, io_err};
use crate::store::{Put, Store};
use crumble_selfplay::files::write_atomic;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Whom a spool belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Owner {
    pub host: String,
    /// The run's location, as the worker was given it.
    pub run: String,
    pub worker: String,
}

impl std::fmt::Display for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "worker {} of run {} on host {}",
            self.worker, self.run, self.host
        )
    }
}

/// An open spool; dropping it frees it for another process.
#[derive(Debug)]
pub struct Spool {
    dir: PathBuf,
    id: String,
    /// Held while a file of a batch in progress is uploaded and marked, and while a finished
    /// batch moves its unmarked files to `pending/`: without it a file uploaded but not yet
    /// marked moved to `pending/` and was uploaded again, after the trainer had used and
    /// deleted it (seen under load in `train/tests/distributed.rs`).
    batches: std::sync::Mutex<()>,
}

/// A complete record file of a batch still being played.
#[derive(Clone, Debug)]
pub struct Building {
    pub path: PathBuf,
    /// Its pending-style name `nNNNN-SSSSSS-FFFFFF`.
    pub stem: String,
}

impl Spool {
    /// Opens (or creates) the spool in `dir` for the run at `run` on this host, refused
    /// while another live process uses it and when it belongs to another host or run.
    pub fn open(dir: &Path, run: &str) -> Result<Spool, DistError> {
        Spool::open_as(dir, run, &host_name())
    }

    fn open_as(dir: &Path, run: &str, host: &str) -> Result<Spool, DistError> {
        for sub in ["building", "pending", "nets", "uploaded"] {
            let d = dir.join(sub);
            std::fs::create_dir_all(&d).map_err(io_err(&d))?;
        }
        let id_path = dir.join("worker-id");
        let id = std::fs::read_to_string(&id_path)
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| valid_id(s));
        let owner_path = dir.join("owner.json");
        let owner: Option<Owner> = std::fs::read(&owner_path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok());
        if let (Some(o), Some(id)) = (&owner, &id) {
            let me = Owner {
                host: host.into(),
                run: run.into(),
                worker: id.clone(),
            };
            if *o != me {
                return Err(DistError::SpoolForeign {
                    path: dir.display().to_string(),
                    owner: o.to_string(),
                    me: format!("run {run} on host {host}"),
                });
            }
        }
        let lock = dir.join("lock");
        if let Ok(text) = std::fs::read_to_string(&lock)
            && let Ok(pid) = text.trim().parse::<u32>()
            && pid != std::process::id()
            && super::process_alive(pid)
        {
            return Err(DistError::SpoolBusy {
                path: dir.display().to_string(),
                pid,
            });
        }
        write_atomic(&lock, std::process::id().to_string().as_bytes()).map_err(io_err(&lock))?;
        let id = match id {
            Some(id) => id,
            None => {
                let id = format!("w{:016x}", rand::random::<u64>());
                write_atomic(&id_path, id.as_bytes()).map_err(io_err(&id_path))?;
                id
            }
        };
        let me = Owner {
            host: host.into(),
            run: run.into(),
            worker: id.clone(),
        };
        let json = serde_json::to_vec_pretty(&me).expect("an owner serialises");
        write_atomic(&owner_path, &json).map_err(io_err(&owner_path))?;
        Ok(Spool {
            dir: dir.to_path_buf(),
            id,
            batches: std::sync::Mutex::new(()),
        })
    }

    /// The worker's id (its folder under `incoming/nNNNN/`).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// A number of the worker's own for seeds: from its id.
    pub fn seed(&self) -> u64 {
        u64::from_str_radix(&self.id[1..], 16).unwrap_or(0)
    }

    /// Takes the next batch number.
    pub fn next_seq(&self) -> Result<u64, DistError> {
        let p = self.dir.join("seq");
        let n = std::fs::read_to_string(&p)
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .unwrap_or(0);
        write_atomic(&p, (n + 1).to_string().as_bytes()).map_err(io_err(&p))?;
        Ok(n)
    }

    /// Where a network is kept.
    pub fn net_path(&self, net: u32) -> PathBuf {
        self.dir.join("nets").join(format!("gen-{net:04}.crnet"))
    }

    /// A new batch's directory: network `net`, batch number `seq`.
    pub fn new_batch(&self, net: u32, seq: u64) -> Result<PathBuf, DistError> {
        let d = self
            .dir
            .join("building")
            .join(format!("n{net:04}-{seq:06}"));
        std::fs::create_dir_all(&d).map_err(io_err(&d))?;
        Ok(d)
    }

    /// A batch a killed worker left unfinished: its directory, network and number.
    pub fn unfinished_batch(&self) -> Result<Option<(PathBuf, u32, u64)>, DistError> {
        let mut found = self.batches()?;
        found.sort_by_key(|f| f.2);
        Ok(found.into_iter().next())
    }

    fn batches(&self) -> Result<Vec<(PathBuf, u32, u64)>, DistError> {
        let b = self.dir.join("building");
        let mut found = Vec::new();
        for e in std::fs::read_dir(&b).map_err(io_err(&b))? {
            let p = e.map_err(io_err(&b))?.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let parsed = name
                .strip_prefix('n')
                .and_then(|r| r.split_once('-'))
                .and_then(|(n, s)| Some((n.parse::<u32>().ok()?, s.parse::<u64>().ok()?)));
            match parsed {
                Some((net, seq)) => found.push((p, net, seq)),
                // Not ours: a stray entry is removed rather than played.
                None => remove(&p)?,
            }
        }
        Ok(found)
    }

    /// The complete record files of batches still being played that are not uploaded yet.
    pub fn building(&self) -> Result<Vec<Building>, DistError> {
        let mut out = Vec::new();
        for (dir, _, _) in self.batches()? {
            let batch = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
            for f in crumble_selfplay::selfplay::record_files(&dir)? {
                let stem = format!("{batch}-{}", first_of(&f));
                if !self.dir.join("uploaded").join(&stem).exists() {
                    out.push(Building { path: f, stem });
                }
            }
        }
        Ok(out)
    }

    /// Uploads a complete file of a batch still being played, and marks it uploaded; `None`
    /// when the batch finished in the meantime (the file is in `pending/` then, and uploads
    /// from there).
    pub fn upload_building(
        &self,
        store: &Store,
        b: &Building,
    ) -> Result<Option<String>, DistError> {
        let _batches = self.batches.lock().unwrap_or_else(|e| e.into_inner());
        if !b.path.exists() {
            return Ok(None);
        }
        let key = self.upload_files(store, &b.stem, &b.path)?;
        let mark = self.dir.join("uploaded").join(&b.stem);
        write_atomic(&mark, b"").map_err(io_err(&mark))?;
        Ok(Some(key))
    }

    /// Moves a finished batch's record files that are not uploaded yet to `pending/`
    /// (readable copy first; the record file is the commit point, as in self-play) and
    /// removes the batch.
    pub fn finish_batch(&self, batch: &Path) -> Result<usize, DistError> {
        let _batches = self.batches.lock().unwrap_or_else(|e| e.into_inner());
        let name = batch
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("batch")
            .to_string();
        let files = crumble_selfplay::selfplay::record_files(batch)?;
        let pending = self.dir.join("pending");
        for f in &files {
            let stem = format!("{name}-{}", first_of(f));
            let mark = self.dir.join("uploaded").join(&stem);
            if mark.exists() {
                continue;
            }
            let to = pending.join(format!("{stem}.crsp"));
            let txt = f.with_extension("txt");
            if txt.exists() {
                let tt = to.with_extension("txt");
                std::fs::rename(&txt, &tt).map_err(io_err(&tt))?;
            }
            std::fs::rename(f, &to).map_err(io_err(&to))?;
        }
        remove(batch)?;
        for f in &files {
            let mark = self
                .dir
                .join("uploaded")
                .join(format!("{name}-{}", first_of(f)));
            if mark.exists() {
                remove(&mark)?;
            }
        }
        Ok(files.len())
    }

    /// Removes a batch that cannot be finished (its network is gone), and the marks of
    /// its files already uploaded.
    pub fn drop_batch(&self, batch: &Path) -> Result<(), DistError> {
        let name = batch.file_name().and_then(|n| n.to_str()).unwrap_or("");
        for f in crumble_selfplay::selfplay::record_files(batch)? {
            let mark = self
                .dir
                .join("uploaded")
                .join(format!("{name}-{}", first_of(&f)));
            if mark.exists() {
                remove(&mark)?;
            }
        }
        remove(batch)
    }

    /// The files waiting for upload (names without extension), oldest batch first.
    pub fn pending(&self) -> Result<Vec<String>, DistError> {
        let p = self.dir.join("pending");
        let mut v = Vec::new();
        for e in std::fs::read_dir(&p).map_err(io_err(&p))? {
            let name = e.map_err(io_err(&p))?.file_name();
            if let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".crsp")) {
                v.push(stem.to_string());
            }
        }
        v.sort();
        Ok(v)
    }

    /// The store key of file `stem` (`nNNNN-SSSSSS-FFFFFF`):
    /// `incoming/nNNNN/WORKER/SSSSSS-FFFFFF.EXT`.
    pub fn key(&self, stem: &str, ext: &str) -> String {
        let (net, rest) = stem.split_once('-').unwrap_or(("n0000", stem));
        format!("{INCOMING}/{net}/{}/{rest}.{ext}", self.id)
    }

    /// Uploads pending file `stem`, then removes it locally.
    pub fn upload(&self, store: &Store, stem: &str) -> Result<String, DistError> {
        let crsp = self.dir.join("pending").join(format!("{stem}.crsp"));
        let key = self.upload_files(store, stem, &crsp)?;
        let txt = crsp.with_extension("txt");
        if txt.exists() {
            std::fs::remove_file(&txt).map_err(io_err(&txt))?;
        }
        std::fs::remove_file(&crsp).map_err(io_err(&crsp))?;
        Ok(key)
    }

    /// Uploads `crsp` (and its readable copy first) create-only as file `stem`. A key that
    /// exists counts as done only when it holds these very bytes (this file, uploaded
    /// before a crash or with its acknowledgement lost).
    fn upload_files(&self, store: &Store, stem: &str, crsp: &Path) -> Result<String, DistError> {
        let txt = crsp.with_extension("txt");
        if txt.exists() {
            let b = std::fs::read(&txt).map_err(io_err(&txt))?;
            // The readable copy is for people: another one there is no reason to stop.
            create_or_same(store, &self.key(stem, "txt"), b, MAX_RECORD_FILE)?;
        }
        let b = std::fs::read(crsp).map_err(io_err(crsp))?;
        let mine = super::sha256_hex(&b);
        let key = self.key(stem, "crsp");
        if create_or_same(store, &key, b, MAX_RECORD_FILE)? == Put::Exists {
            let there = store
                .get(&key, MAX_RECORD_FILE)?
                .map_or_else(|| "gone".into(), |t| super::sha256_hex(&t));
            return Err(DistError::UploadConflict {
                store: store.name().into(),
                key,
                mine,
                there,
            });
        }
        Ok(key)
    }

    /// Removes downloaded networks other than `keep`.
    pub fn prune_nets(&self, keep: &[u32]) -> Result<(), DistError> {
        let d = self.dir.join("nets");
        for e in std::fs::read_dir(&d).map_err(io_err(&d))? {
            let p = e.map_err(io_err(&d))?.path();
            if !keep.iter().any(|&n| p == self.net_path(n)) {
                std::fs::remove_file(&p).map_err(io_err(&p))?;
            }
        }
        Ok(())
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(self.dir.join("lock"));
    }
}

/// The first game number of a record file `selfplay-FFFFFF.crsp`, as written.
fn first_of(p: &Path) -> String {
    p.file_stem()
        .and_then(|s| s.to_str())
        .and_then(|s| s.strip_prefix("selfplay-"))
        .unwrap_or("000000")
        .to_string()
}

fn valid_id(s: &str) -> bool {
    s.len() == 17 && s.starts_with('w') && s[1..].chars().all(|c| c.is_ascii_hexdigit())
}

fn remove(p: &Path) -> Result<(), DistError> {
    let r = if p.is_dir() {
        std::fs::remove_dir_all(p)
    } else {
        std::fs::remove_file(p)
    };
    r.map_err(io_err(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Location;

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!(
            "crumble-spool-{name}-{}-{}",
            std::process::id(),
            crate::store::conformance::unique_id()
        ))
    }

    #[test]
    fn a_spool_of_another_host_or_run_is_refused() {
        let dir = temp("owner");
        let s = Spool::open_as(&dir, "s3://b/run1", "hostA").unwrap();
        let id = s.id().to_string();
        drop(s);
        let e = Spool::open_as(&dir, "s3://b/run1", "hostB")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!(
                "belongs to worker {id} of run s3://b/run1 on host hostA"
            )),
            "{e}"
        );
        let e = Spool::open_as(&dir, "s3://b/run2", "hostA")
            .unwrap_err()
            .to_string();
        assert!(e.contains("not to run s3://b/run2 on host hostA"), "{e}");
        // Its own host and run: the same worker again.
        assert_eq!(
            Spool::open_as(&dir, "s3://b/run1", "hostA").unwrap().id(),
            id
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_resent_file_is_recognised_by_its_content() {
        let dir = temp("resend");
        let store = Store::open(&Location::Local(temp("resend-store"))).unwrap();
        let s = Spool::open(&dir, store.name()).unwrap();
        let f = dir.join("pending/n0002-000005-000000.crsp");
        std::fs::write(&f, b"games").unwrap();
        let key = s.upload(&store, "n0002-000005-000000").unwrap();
        assert_eq!(key, format!("incoming/n0002/{}/000005-000000.crsp", s.id()));
        // Killed after the upload, before the file left the spool: sent again, same bytes.
        std::fs::write(&f, b"games").unwrap();
        assert_eq!(s.upload(&store, "n0002-000005-000000").unwrap(), key);
        // Other bytes under the same key: not taken for done, the file stays.
        std::fs::write(&f, b"other games").unwrap();
        let e = s
            .upload(&store, "n0002-000005-000000")
            .unwrap_err()
            .to_string();
        assert!(e.contains("exists with other content"), "{e}");
        assert!(f.exists());
        std::fs::remove_dir_all(dir).unwrap();
        std::fs::remove_dir_all(store.local_root().unwrap()).unwrap();
    }
}
