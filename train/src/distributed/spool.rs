//! A worker's local spool: everything a worker must not lose in a crash.
//!
//! ```text
//! SPOOL/worker-id                 the worker's id (chosen once; its seeds come from it)
//! SPOOL/seq                       the next batch number
//! SPOOL/lock                      the process using the spool
//! SPOOL/building/nNNNN-SSSSSS/    a batch being played (local self-play, resumable)
//! SPOOL/pending/nNNNN-SSSSSS-K.crsp (+ .txt)  finished files waiting for upload
//! SPOOL/nets/gen-NNNN.crnet       downloaded networks (checked against the pointer)
//! ```
//!
//! A batch's name is chosen once, when it starts, and is the file's key in the store, so a
//! file uploaded twice (a worker killed after its upload, before it removed the file) hits
//! the same key, and the store's create-only write makes the second upload a no-op.

use super::{DistError, INCOMING, io_err};
use crate::store::Store;
use crumble_selfplay::files::write_atomic;
use std::path::{Path, PathBuf};

/// An open spool; dropping it frees it for another process.
#[derive(Debug)]
pub struct Spool {
    dir: PathBuf,
    id: String,
}

impl Spool {
    /// Opens (or creates) the spool in `dir`, refused while another live process uses it.
    pub fn open(dir: &Path) -> Result<Spool, DistError> {
        for sub in ["building", "pending", "nets"] {
            let d = dir.join(sub);
            std::fs::create_dir_all(&d).map_err(io_err(&d))?;
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
        let id_path = dir.join("worker-id");
        let id = match std::fs::read_to_string(&id_path) {
            Ok(s) if valid_id(s.trim()) => s.trim().to_string(),
            _ => {
                let id = format!("w{:016x}", rand::random::<u64>());
                write_atomic(&id_path, id.as_bytes()).map_err(io_err(&id_path))?;
                id
            }
        };
        Ok(Spool {
            dir: dir.to_path_buf(),
            id,
        })
    }

    /// The worker's id (its folder under `incoming/`).
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
        found.sort_by_key(|f| f.2);
        Ok(found.into_iter().next())
    }

    /// Moves a finished batch's record files to `pending/` (readable copy first; the
    /// record file is the commit point, as in self-play) and removes the batch.
    pub fn finish_batch(&self, batch: &Path) -> Result<usize, DistError> {
        let name = batch
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("batch")
            .to_string();
        let files = crumble_selfplay::selfplay::record_files(batch)?;
        let pending = self.dir.join("pending");
        for (k, f) in files.iter().enumerate() {
            let to = pending.join(format!("{name}-{k}.crsp"));
            let txt = f.with_extension("txt");
            if txt.exists() {
                let tt = to.with_extension("txt");
                std::fs::rename(&txt, &tt).map_err(io_err(&tt))?;
            }
            std::fs::rename(f, &to).map_err(io_err(&to))?;
        }
        remove(batch)?;
        Ok(files.len())
    }

    /// Removes a batch that cannot be finished (its network is gone).
    pub fn drop_batch(&self, batch: &Path) -> Result<(), DistError> {
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

    /// The store key of pending file `stem`.
    pub fn key(&self, stem: &str, ext: &str) -> String {
        format!("{INCOMING}/{}/{stem}.{ext}", self.id)
    }

    /// Uploads pending file `stem` create-only (an existing key counts as done: it is this
    /// very file, uploaded before a crash), readable copy first, then removes it locally.
    pub fn upload(&self, store: &Store, stem: &str) -> Result<String, DistError> {
        let pending = self.dir.join("pending");
        let txt = pending.join(format!("{stem}.txt"));
        let crsp = pending.join(format!("{stem}.crsp"));
        if txt.exists() {
            let b = std::fs::read(&txt).map_err(io_err(&txt))?;
            store.put_create(&self.key(stem, "txt"), b)?;
        }
        let b = std::fs::read(&crsp).map_err(io_err(&crsp))?;
        let key = self.key(stem, "crsp");
        store.put_create(&key, b)?;
        if txt.exists() {
            std::fs::remove_file(&txt).map_err(io_err(&txt))?;
        }
        std::fs::remove_file(&crsp).map_err(io_err(&crsp))?;
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
