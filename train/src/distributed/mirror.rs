//! Copying the trainer's run directory into the store when the store is elsewhere (an
//! object store, another directory). Files are compared by content (SHA-256), never by
//! size: a retrained checkpoint of the same architecture has the same size as the last.
//!
//! A generation's own files (`checkpoints/gen-g/`, `replay/gen-g/`) are written once when
//! the generation finishes and are uploaded then, whole; their hashes go into the commit.
//! The first generation after a start also removes files of that generation a killed
//! trainer left in the store (it may have mirrored them before its commit, with other
//! settings). The top-level files and the TensorBoard logs are sent when their content
//! differs from what this process sent last.

use super::commit::GenFile;
use super::fence::Fence;
use super::{DistError, io_err, sha256_hex};
use crate::store::Store;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The mirror's memory of what it sent.
#[derive(Debug, Default)]
pub(super) struct Mirror {
    /// Copy files up (`false`: the store is the run directory itself).
    pub active: bool,
    /// Key -> SHA-256 of the top-level and log files this process sent.
    sent: BTreeMap<String, String>,
    /// The generation whose leftovers in the store are removed when it is mirrored.
    first: Option<u32>,
}

const TOP: [&str; 3] = ["config.toml", "progress.csv", "quarantine.csv"];

impl Mirror {
    pub fn new(active: bool) -> Mirror {
        Mirror {
            active,
            ..Mirror::default()
        }
    }

    /// At start, after `done` finished generations: the files of finished generations
    /// missing from the store are copied up (one listing per directory), then the top-level
    /// files and logs.
    pub fn start(
        &mut self,
        store: &Store,
        fence: &Fence,
        dir: &Path,
        done: u32,
    ) -> Result<(), DistError> {
        self.first = Some(done + 1);
        if !self.active {
            return Ok(());
        }
        let mut there = BTreeSet::new();
        for prefix in ["checkpoints", "replay"] {
            there.extend(store.list(prefix)?.into_iter().map(|e| e.key));
        }
        for g in 0..=done {
            for rel in generation_files(dir, g)? {
                let key = key_of(&rel);
                if !there.contains(&key) {
                    let path = dir.join(&rel);
                    fence.put(&key, std::fs::read(&path).map_err(io_err(&path))?)?;
                }
            }
        }
        self.top(fence, dir)
    }

    /// Generation `g`'s files with their hashes, uploaded first when mirroring.
    pub fn generation(
        &mut self,
        store: &Store,
        fence: &Fence,
        dir: &Path,
        g: u32,
    ) -> Result<Vec<GenFile>, DistError> {
        let mut out = Vec::new();
        for rel in generation_files(dir, g)? {
            let path = dir.join(&rel);
            let bytes = std::fs::read(&path).map_err(io_err(&path))?;
            let f = GenFile {
                key: key_of(&rel),
                sha256: sha256_hex(&bytes),
            };
            if self.active {
                fence.put(&f.key, bytes)?;
            }
            out.push(f);
        }
        if self.active && self.first == Some(g) {
            let keep: BTreeSet<&str> = out.iter().map(|f| f.key.as_str()).collect();
            for prefix in [
                format!("checkpoints/gen-{g:04}"),
                format!("replay/gen-{g:04}"),
            ] {
                for e in store.list(&prefix)? {
                    if !keep.contains(e.key.as_str()) {
                        fence.delete(&e.key)?;
                    }
                }
            }
        }
        Ok(out)
    }

    /// The top-level files and the logs whose content changed since they were sent.
    pub fn top(&mut self, fence: &Fence, dir: &Path) -> Result<(), DistError> {
        if !self.active {
            return Ok(());
        }
        let mut files: Vec<PathBuf> = TOP.iter().map(PathBuf::from).collect();
        files.extend(list_files(dir, Path::new("tb"))?);
        for rel in files {
            let path = dir.join(&rel);
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let key = key_of(&rel);
            let sha = sha256_hex(&bytes);
            if self.sent.get(&key) == Some(&sha) {
                continue;
            }
            fence.put(&key, bytes)?;
            self.sent.insert(key, sha);
        }
        Ok(())
    }
}

/// The store key of a path relative to the run directory.
fn key_of(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Generation `g`'s checkpoint and replay files, relative to `dir`.
fn generation_files(dir: &Path, g: u32) -> Result<Vec<PathBuf>, DistError> {
    let mut v = Vec::new();
    for sub in ["checkpoints", "replay"] {
        v.extend(list_files(
            dir,
            &Path::new(sub).join(format!("gen-{g:04}")),
        )?);
    }
    Ok(v)
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
    fn a_retrained_file_of_the_same_size_is_sent_again_and_leftovers_go() {
        let base = std::env::temp_dir().join(format!(
            "crumble-mirror-{}-{}",
            std::process::id(),
            crate::store::conformance::unique_id()
        ));
        let dir = base.join("run");
        let store = Store::open(&Location::Local(base.join("store"))).unwrap();
        let fence = Fence::take(&store, 0).unwrap();
        let ck = dir.join("checkpoints/gen-0001/net.crnet");
        std::fs::create_dir_all(ck.parent().unwrap()).unwrap();
        std::fs::write(&ck, b"weights A").unwrap();
        // A killed trainer left generation 1 in the store with another replay file.
        store
            .put("replay/gen-0001/selfplay-000008.crsp", b"old".to_vec())
            .unwrap();
        let mut m = Mirror::new(true);
        m.start(&store, &fence, &dir, 0).unwrap();
        let files = m.generation(&store, &fence, &dir, 1).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].sha256, sha256_hex(b"weights A"));
        assert!(
            !store
                .exists("replay/gen-0001/selfplay-000008.crsp")
                .unwrap()
        );
        // Same size, other bytes: sent again.
        std::fs::write(&ck, b"weights B").unwrap();
        m.generation(&store, &fence, &dir, 1).unwrap();
        let key = "checkpoints/gen-0001/net.crnet";
        assert_eq!(store.get(key, 100).unwrap().unwrap(), b"weights B");
        std::fs::write(dir.join("progress.csv"), b"rows").unwrap();
        m.top(&fence, &dir).unwrap();
        assert_eq!(store.get("progress.csv", 100).unwrap().unwrap(), b"rows");
        std::fs::remove_dir_all(base).unwrap();
    }
}
