//! Self-play workers on any machines feeding one trainer through the run's store
//! ([`crate::store`]): no server of our own and no broker, the store is the only shared
//! service.
//!
//! # Keys of a distributed run (relative to the run's location)
//!
//! ```text
//! config.toml, progress.csv, checkpoints/..., replay/..., tb/...   the trainer's run directory,
//!                                     mirrored (for a local location: the directory itself)
//! latest.json                         the pointer: protocol, trainer epoch and generation,
//!                                     the net to play with (key + SHA-256), the config, a
//!                                     heartbeat
//! trainer.lock                        who started the newest trainer (informational)
//! epochs/epoch-NNNNNN.json            create-only: one per trainer start; the newest one
//!                                     is the only trainer allowed to write
//! incoming/nNNNN/WORKER/SSSSSS-K.crsp a worker's record file (net NNNN, batch SSSSSS, file
//! incoming/nNNNN/WORKER/SSSSSS-K.txt  K), uploaded create-only, readable copy first;
//!                                     deleted once a commit names it
//! commits/gen-NNNN.json               create-only: the epoch, the files generation NNNN
//!                                     consumed (and set aside as duplicate, bad or over the
//!                                     intake cap), the SHA-256 of each of its checkpoint and
//!                                     replay files, its ledger row
//! quarantine/nNNNN/WORKER/...         bad files, moved out of incoming/
//! quarantine.csv                      generation, key and reason of every quarantined file
//! ```
//!
//! A record file is consumed at most once because a commit lists it and commits are
//! create-only: a second trainer (or a restarted one racing an old one) cannot commit the
//! same generation twice, every later gather skips every key and content hash the live
//! commits name, and a consumed file is deleted after its commit (its hash stays there).
//!
//! **Fencing.** Each trainer start creates the next `epochs/` object (create-only) and
//! writes only while no newer one exists: before every write to the store (and to the run
//! directory when the store is that directory) it asks for the key of the next epoch, and
//! a trainer that finds it stops without writing ([`DistError::Fenced`]). The pointer and
//! the commits carry the epoch; workers ignore a pointer whose (epoch, generation) goes
//! back.
//!
//! **Live data only.** Uploads are keyed by the network they were played with, and a
//! gather lists only the prefixes of networks still fresh (the last `max_lag + 1`
//! promoted ones), so neither consumed nor stale files are ever listed again; start-up
//! reads by key only the commits that can name fresh files.
//!
//! # Files of this module
//!
//! `pointer` the pointer and the trainer lock; `fence` trainer epochs; `commit` commit
//! objects and the set of consumed files; `gather` the trainer collecting a generation's
//! games; `mirror` copying the run directory into the store; `trainer` the trainer's side
//! (lock, pointer, heartbeat, commit, recovery); `spool` a worker's local spool; `worker`
//! the worker loop; `synthetic` a worker that uploads ready-made files; `audit` the
//! invariants.

pub mod audit;
pub mod commit;
pub mod fence;
pub mod gather;
mod mirror;
pub mod pointer;
pub mod spool;
pub mod synthetic;
pub mod trainer;
pub mod worker;

use crate::store::StoreError;
use sha2::{Digest, Sha256};

/// The version of the keys and objects above. A worker refuses a pointer of another version.
pub const PROTOCOL: u32 = 2;

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
/// Where trainer epochs go.
pub const EPOCHS: &str = "epochs";

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
    #[error(
        "{store}: trainer epoch {newer} exists, this trainer holds epoch {mine}: another \
         trainer took the run over. Stopped without writing anything more"
    )]
    Fenced {
        store: String,
        mine: u64,
        newer: u64,
    },
    #[error(
        "{store}: {key} is missing, but {evidence}. A commit was lost or is not visible \
         (an eventually consistent store?): refusing to go on, since the files it consumed \
         would be used again. Check the store, then restore the commit or start a new run"
    )]
    CommitGap {
        store: String,
        key: String,
        evidence: String,
    },
    #[error(
        "{store}: the store holds generation {store_gen}, this working copy {local}: another \
         trainer went on with this run. Start with an empty --cache-dir (it is filled from \
         the store), or stop the other trainer"
    )]
    StoreAhead {
        store: String,
        local: u32,
        store_gen: u32,
    },
    #[error(
        "{store}/{key} exists with other content (SHA-256 {there}, this worker's file {mine}): \
         two workers share one id, or the file changed in the spool. The file stays in the \
         spool"
    )]
    UploadConflict {
        store: String,
        key: String,
        mine: String,
        there: String,
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
    #[error(
        "spool {path} belongs to {owner}, not to {me}: each host, run and worker needs a \
         spool of its own (give this worker another --spool)"
    )]
    SpoolForeign {
        path: String,
        owner: String,
        me: String,
    },
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

/// Creates `key` with `bytes` unless it exists, and tells an acknowledgement lost on the
/// way (the create reported an error, or a retry found the key) from another writer by
/// the content: the key holding exactly `bytes` is this very create. `bytes` must be
/// unique to the writer (they name its epoch, host, process or content hash).
pub(crate) fn create_or_same(
    store: &crate::store::Store,
    key: &str,
    bytes: Vec<u8>,
    limit: u64,
) -> Result<crate::store::Put, DistError> {
    use crate::store::Put;
    let sent = sha256_hex(&bytes);
    let same = |store: &crate::store::Store| -> Result<bool, DistError> {
        Ok(store
            .get(key, limit)?
            .is_some_and(|there| sha256_hex(&there) == sent))
    };
    match store.put_create(key, bytes) {
        Ok(Put::Created) => Ok(Put::Created),
        Ok(Put::Exists) if same(store)? => Ok(Put::Created),
        Ok(Put::Exists) => Ok(Put::Exists),
        // The write may have landed before the error: the content says whether it did.
        Err(e) => match same(store) {
            Ok(true) => Ok(Put::Created),
            _ => Err(e.into()),
        },
    }
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
