//! Commit objects `commits/gen-NNNN.json`: what a generation consumed, written create-only
//! after everything else of the generation is in the store and before its ledger row. The
//! row is in the commit too, so a trainer killed between the two finishes the generation
//! on resume instead of redoing it.

use super::{COMMITS, DistError, MAX_JSON, get_json};
use crate::ledger::Row;
use crate::store::{Put, Store};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A record file a generation trained on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UsedFile {
    pub key: String,
    pub sha256: String,
    pub games: u64,
    /// The network its games were played with.
    pub net: u32,
}

/// A file set aside, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetAside {
    pub key: String,
    pub reason: String,
}

/// The commit of one generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Commit {
    pub protocol: u32,
    pub generation: u32,
    pub used: Vec<UsedFile>,
    /// Files from networks older than the lag allows, never to be used.
    pub stale: Vec<SetAside>,
    /// Files whose bytes were already consumed under another key.
    pub duplicates: Vec<SetAside>,
    /// Files that failed validation, moved to `quarantine/`.
    pub quarantined: Vec<SetAside>,
    /// The generation's ledger row, column by column (`None`: not measured).
    pub row: Vec<Option<f64>>,
}

/// The key of generation `g`'s commit.
pub fn commit_key(g: u32) -> String {
    format!("{COMMITS}/gen-{g:04}.json")
}

impl Commit {
    pub fn row(&self) -> Option<Row> {
        let v: Vec<f64> = self.row.iter().map(|x| x.unwrap_or(f64::NAN)).collect();
        Row::from_values(&v)
    }

    pub fn set_row(&mut self, row: &Row) {
        self.row = row
            .values()
            .into_iter()
            .map(|x| x.is_finite().then_some(x))
            .collect();
    }

    /// Writes the commit create-only: refused if the generation is already committed.
    pub fn write(&self, store: &Store) -> Result<(), DistError> {
        let key = commit_key(self.generation);
        let json = serde_json::to_vec_pretty(self).expect("a commit serialises");
        if json.len() as u64 > MAX_JSON {
            return Err(DistError::Corrupt {
                store: store.name().into(),
                key,
                what: format!("{} bytes: more than a commit may hold", json.len()),
            });
        }
        match store.put_create(&key, json)? {
            Put::Created => Ok(()),
            Put::Exists => Err(DistError::CommitExists {
                store: store.name().into(),
                key,
                generation: self.generation,
            }),
        }
    }

    /// Generation `g`'s commit, if it exists.
    pub fn read(store: &Store, g: u32) -> Result<Option<Commit>, DistError> {
        get_json(store, &commit_key(g))
    }

    /// Every key the commit names (used or set aside).
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.used.iter().map(|u| u.key.as_str()).chain(
            self.stale
                .iter()
                .chain(&self.duplicates)
                .chain(&self.quarantined)
                .map(|s| s.key.as_str()),
        )
    }
}

/// What the run's commits have consumed.
#[derive(Clone, Debug, Default)]
pub struct Consumed {
    /// Every key named by a commit: never looked at again.
    pub keys: BTreeSet<String>,
    /// The content hashes of the files used: the same bytes under another key are a
    /// duplicate.
    pub hashes: BTreeSet<String>,
}

impl Consumed {
    pub fn add(&mut self, c: &Commit) {
        self.keys.extend(c.keys().map(str::to_string));
        self.hashes.extend(c.used.iter().map(|u| u.sha256.clone()));
    }

    /// Reads every commit of the run.
    pub fn read(store: &Store) -> Result<(Consumed, Vec<Commit>), DistError> {
        let mut consumed = Consumed::default();
        let mut commits = Vec::new();
        for e in store.list(COMMITS)? {
            if !e.key.ends_with(".json") {
                continue;
            }
            let c: Commit = get_json(store, &e.key)?.ok_or_else(|| DistError::Corrupt {
                store: store.name().into(),
                key: e.key.clone(),
                what: "listed, but gone when read".into(),
            })?;
            consumed.add(&c);
            commits.push(c);
        }
        commits.sort_by_key(|c| c.generation);
        Ok((consumed, commits))
    }
}
