//! Trainer epochs: `epochs/epoch-NNNNNN.json`, one per trainer start, created create-only.
//! The trainer of the newest epoch is the only one allowed to write; every other one finds
//! the next epoch's key before its next write and stops ([`DistError::Fenced`]).
//!
//! The check is one HEAD request by key (no listing, so a lagging listing cannot hide a
//! newer epoch). It is not atomic with the write that follows it: a trainer frozen between
//! the two can still land that one write when it wakes. Workers ignore a pointer whose
//! (epoch, generation) goes back, and commits are create-only, so such a write cannot make
//! a file be consumed twice.

use super::{DistError, EPOCHS, MAX_JSON, create_or_same, host_name, now_unix};
use crate::store::{Put, Store};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The key of epoch `e`.
pub fn epoch_key(e: u64) -> String {
    format!("{EPOCHS}/epoch-{e:06}.json")
}

/// What an epoch object says (for people reading the store).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochRecord {
    pub epoch: u64,
    pub host: String,
    pub pid: u32,
    pub started: f64,
}

/// The newest epoch of the run: the last of the unbroken run of keys after `hint` (an
/// epoch known to exist, or 0).
pub fn newest(store: &Store, hint: u64) -> Result<u64, DistError> {
    let mut e = hint;
    while store.exists(&epoch_key(e + 1))? {
        e += 1;
    }
    Ok(e)
}

/// A trainer's epoch and whether it has found a newer one. Clones share the finding.
#[derive(Clone, Debug)]
pub struct Fence {
    store: Store,
    epoch: u64,
    fenced: Arc<AtomicBool>,
}

impl Fence {
    /// Starts a new epoch after the newest one (searched from `hint`, e.g. the pointer's
    /// epoch). Refused when another trainer creates the same epoch at the same moment.
    pub fn take(store: &Store, hint: u64) -> Result<Fence, DistError> {
        let epoch = newest(store, hint)? + 1;
        let me = EpochRecord {
            epoch,
            host: host_name(),
            pid: std::process::id(),
            started: now_unix(),
        };
        let json = serde_json::to_vec_pretty(&me).expect("an epoch serialises");
        match create_or_same(store, &epoch_key(epoch), json, MAX_JSON)? {
            Put::Created => Ok(Fence {
                store: store.clone(),
                epoch,
                fenced: Arc::new(AtomicBool::new(false)),
            }),
            Put::Exists => Err(DistError::TrainerRunning {
                store: store.name().into(),
                holder: format!("a trainer that started epoch {epoch} at the same moment"),
            }),
        }
    }

    /// This trainer's epoch.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Whether a newer epoch was found (no request: what the last check saw).
    pub fn is_fenced(&self) -> bool {
        self.fenced.load(Ordering::SeqCst)
    }

    /// Refuses once a newer epoch exists; call it right before each write.
    pub fn check(&self) -> Result<(), DistError> {
        if self.is_fenced() || self.store.exists(&epoch_key(self.epoch + 1))? {
            self.fenced.store(true, Ordering::SeqCst);
            return Err(DistError::Fenced {
                store: self.store.name().into(),
                mine: self.epoch,
                newer: newest(&self.store, self.epoch).unwrap_or(self.epoch + 1),
            });
        }
        Ok(())
    }

    /// Writes `bytes` at `key` if this trainer still holds the newest epoch.
    pub fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), DistError> {
        self.check()?;
        Ok(self.store.put(key, bytes)?)
    }

    /// Removes `key` if this trainer still holds the newest epoch.
    pub fn delete(&self, key: &str) -> Result<(), DistError> {
        self.check()?;
        Ok(self.store.delete(key)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Location;

    #[test]
    fn an_older_trainer_refuses_to_write_after_a_newer_one_took_over() {
        let dir = std::env::temp_dir().join(format!(
            "crumble-fence-{}-{}",
            std::process::id(),
            crate::store::conformance::unique_id()
        ));
        let store = Store::open(&Location::Local(dir.clone())).unwrap();
        let a = Fence::take(&store, 0).unwrap();
        assert_eq!(a.epoch(), 1);
        a.put("x", b"from a".to_vec()).unwrap();
        // B starts from an old hint: it still finds the newest epoch.
        let b = Fence::take(&store, 0).unwrap();
        assert_eq!(b.epoch(), 2);
        let e = a
            .put("x", b"from a again".to_vec())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("trainer epoch 2 exists, this trainer holds epoch 1"),
            "{e}"
        );
        assert!(a.is_fenced());
        assert!(a.delete("x").is_err());
        assert_eq!(store.get("x", 100).unwrap().unwrap(), b"from a");
        b.put("x", b"from b".to_vec()).unwrap();
        assert!(!b.is_fenced());
        assert_eq!(newest(&store, 0).unwrap(), 2);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
