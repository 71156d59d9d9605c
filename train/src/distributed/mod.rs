//! Self-play workers on any machines feeding one trainer through the run's store
//! ([`crate::store`]): no server of our own and no broker, the store is the only shared
//! service.
//!
//! # Keys of a distributed run (relative to the run's location)
//!
//! ```text
//! config.toml, progress.csv, checkpoints/..., replay/..., tb/...   the trainer's run directory,
//!                                     mirrored (for a local location: the directory itself)
//! latest.json                         the pointer: protocol, trainer generation, the net to
//!                                     play with (key + SHA-256), the config, a heartbeat
//! trainer.lock                        create-only: the one trainer of the run
//! incoming/WORKER/nNNNN-SSSSSS-K.crsp a worker's record file (net NNNN, batch SSSSSS, file
//! incoming/WORKER/nNNNN-SSSSSS-K.txt  K), uploaded create-only, readable copy first
//! commits/gen-NNNN.json               create-only: the files generation NNNN consumed (and
//!                                     those it dropped as stale, duplicate or bad), its row
//! quarantine/WORKER/...               bad files, moved out of incoming/
//! quarantine.csv                      generation, key and reason of every quarantined file
//! ```
//!
//! A record file is consumed at most once because a commit lists it and commits are
//! create-only: a second trainer (or a restarted one racing an old one) cannot commit the
//! same generation twice, and every later gather skips every listed key and every listed
//! content hash (a file uploaded twice under two keys is a duplicate, never used twice).
//!
//! # Files of this module
//!
//! `pointer` the pointer and the trainer lock; `commit` commit objects and the set of
//! consumed files; `gather` the trainer collecting a generation's games; `trainer` the
//! trainer's side (lock, mirror, pointer, heartbeat, commit, recovery); `spool` a worker's
//! local spool; `worker` the worker loop.

pub mod audit;
pub mod commit;
pub mod gather;
pub mod pointer;
pub mod spool;
pub mod trainer;
pub mod worker;

use crate::store::StoreError;
use sha2::{Digest, Sha256};

/// The version of the keys and objects above. A worker refuses a pointer of another version.
pub const PROTOCOL: u32 = 1;

/// The pointer's key.
pub const POINTER_KEY: &str = "latest.json";
/// The trainer lock's key.
pub const LOCK_KEY: &str = "trainer.lock";
/// Where workers upload.
pub const INCOMING: &str = "incoming";
/// Where bad files go.
pub const QUARANTINE: &str = "quarantine";
/// Where commit objects go.
pub const COMMITS: &str = "commits";

/// The largest record file accepted (a default-config file of a few games is well under
/// a megabyte).
pub const MAX_RECORD_FILE: u64 = 256 << 20;
/// The largest pointer, lock or commit object accepted.
pub const MAX_JSON: u64 = 16 << 20;
/// The largest network file accepted.
pub const MAX_NET_FILE: u64 = 4 << 30;

/// Why a distributed operation failed.
#[derive(Debug, thiserror::Error)]
pub enum DistError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{store}/{key}: {what}")]
    Corrupt {
        store: String,
        key: String,
        what: String,
    },
    #[error(
        "{store}/{key} speaks protocol {found}; this crumble knows protocol {PROTOCOL}: use the \
         trainer's version of crumble"
    )]
    Protocol {
        store: String,
        key: String,
        found: u32,
    },
    #[error(
        "{store}: another trainer holds this run ({holder}). Only one trainer may run: stop it, \
         or, if it is gone for good, start this one with --take-over"
    )]
    TrainerRunning { store: String, holder: String },
    #[error(
        "{store}/{key} already exists: another trainer committed generation {generation} of \
         this run. Stopped before committing anything; only one trainer may run"
    )]
    CommitExists {
        store: String,
        key: String,
        generation: u32,
    },
    #[error("{store}/{key}: SHA-256 {got}, the pointer says {want}")]
    Checksum {
        store: String,
        key: String,
        want: String,
        got: String,
    },
    #[error("spool {path} is in use by process {pid}: each worker needs a spool of its own")]
    SpoolBusy { path: String, pid: u32 },
    #[error("training run: {0}")]
    Train(Box<crate::run::TrainError>),
    #[error("self-play: {0}")]
    SelfPlay(#[from] crumble_selfplay::selfplay::SelfPlayError),
    #[error("record: {0}")]
    Record(#[from] crumble_selfplay::RecordError),
}

impl From<crate::run::TrainError> for DistError {
    fn from(e: crate::run::TrainError) -> DistError {
        DistError::Train(Box::new(e))
    }
}

pub(crate) fn io_err(path: &std::path::Path) -> impl Fn(std::io::Error) -> DistError + '_ {
    move |source| DistError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// The SHA-256 of `bytes`, lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// Seconds since the Unix epoch.
pub fn now_unix() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// This machine's name (for the trainer lock), `unknown` if it cannot be read.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

/// Whether process `pid` of this machine is alive (Linux `/proc`; elsewhere assumed alive,
/// so a lock is never taken from a live process).
pub fn process_alive(pid: u32) -> bool {
    if !std::path::Path::new("/proc/self").exists() {
        return true;
    }
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// SplitMix64's finaliser: a well-mixed seed from any number.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Reads a JSON object of the store (`None` if missing), naming the key when it is bad.
pub(crate) fn get_json<T: serde::de::DeserializeOwned>(
    store: &crate::store::Store,
    key: &str,
) -> Result<Option<T>, DistError> {
    let Some(bytes) = store.get(key, MAX_JSON)? else {
        return Ok(None);
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| DistError::Corrupt {
            store: store.name().into(),
            key: key.into(),
            what: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_input() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn this_process_is_alive() {
        assert!(process_alive(std::process::id()));
        assert!(!process_alive(u32::MAX - 1));
    }
}
