//! Commit objects `commits/gen-NNNN.json`: what a generation consumed and the content
//! hashes of the files it wrote, created create-only after everything else of the
//! generation is in the store and before its ledger row. The row is in the commit too, so
//! a trainer killed between the two finishes the generation on resume instead of redoing
//! it.
//!
//! Commits are read by key, never found by listing: a listing that misses one (an
//! eventually consistent gateway, attribute caching) would make its files look unconsumed.
//! A key missing where a later generation is known to exist is a gap, and refused.

use super::fence::Fence;
use super::{COMMITS, DistError, MAX_JSON, create_or_same, get_json};
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

/// A file of the generation's own (checkpoint, replay) as mirrored into the store.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GenFile {
    pub key: String,
    pub sha256: String,
}

/// The commit of one generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Commit {
    pub protocol: u32,
    /// The epoch of the trainer that committed it.
    pub epoch: u64,
    pub generation: u32,
    pub used: Vec<UsedFile>,
    /// Files whose bytes were already consumed under another key.
    pub duplicates: Vec<SetAside>,
    /// Files that failed validation, moved to `quarantine/`.
    pub quarantined: Vec<SetAside>,
    /// Fresh files over the intake cap: the trainer could not keep up with the workers.
    pub dropped: Vec<SetAside>,
    /// The generation's checkpoint and replay files with their SHA-256.
    pub files: Vec<GenFile>,
    /// The generation's ledger row, column by column (`None`: not measured).
    pub row: Vec<Option<f64>>,
}

/// The key of generation `g`'s commit.
pub fn commit_key(g: u32) -> String {
    format!("{COMMITS}/gen-{g:04}.json")
}

/// The generation of a commit key (`None` for other keys).
pub fn generation_of_key(key: &str) -> Option<u32> {
    key.strip_prefix(&format!("{COMMITS}/gen-"))?
        .strip_suffix(".json")?
        .parse()
        .ok()
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

    /// Writes the commit create-only, if `fence` still holds the newest epoch: refused if
    /// the generation is already committed by someone else. A create whose acknowledgement
    /// was lost (an error or a retry that finds the key) is recognised by its content.
    pub fn write(&self, store: &Store, fence: &Fence) -> Result<(), DistError> {
        let key = commit_key(self.generation);
        let json = serde_json::to_vec_pretty(self).expect("a commit serialises");
        if json.len() as u64 > MAX_JSON {
            return Err(DistError::Corrupt {
                store: store.name().into(),
                key,
                what: format!("{} bytes: more than a commit may hold", json.len()),
            });
        }
        fence.check()?;
        match create_or_same(store, &key, json, MAX_JSON)? {
            Put::Created => Ok(()),
            Put::Exists => Err(DistError::CommitExists {
                store: store.name().into(),
                key,
                generation: self.generation,
            }),
        }
    }

    /// Generation `g`'s commit, if it exists (read by key).
    pub fn read(store: &Store, g: u32) -> Result<Option<Commit>, DistError> {
        get_json(store, &commit_key(g))
    }

    /// Every record key the commit names (used or set aside).
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.used.iter().map(|u| u.key.as_str()).chain(
            self.duplicates
                .iter()
                .chain(&self.quarantined)
                .chain(&self.dropped)
                .map(|s| s.key.as_str()),
        )
    }

    /// The keys to delete from `incoming/` once committed: every named file still there
    /// (quarantined ones were moved already), with its readable copy.
    pub fn consumed_uploads(&self) -> Vec<String> {
        let mut v = Vec::new();
        for k in self.used.iter().map(|u| u.key.as_str()).chain(
            self.duplicates
                .iter()
                .chain(&self.dropped)
                .map(|s| s.key.as_str()),
        ) {
            v.push(k.replace(".crsp", ".txt"));
            v.push(k.to_string());
        }
        v
    }
}

/// Reads the commits of generations `from..=to` by key; a missing one is a gap, named
/// with `evidence` (why a later generation is known to exist).
pub fn read_range(
    store: &Store,
    from: u32,
    to: u32,
    evidence: &str,
) -> Result<Vec<Commit>, DistError> {
    let mut out = Vec::new();
    for g in from.max(1)..=to {
        let c = Commit::read(store, g)?.ok_or_else(|| DistError::CommitGap {
            store: store.name().into(),
            key: commit_key(g),
            evidence: evidence.into(),
        })?;
        if c.generation != g {
            return Err(DistError::Corrupt {
                store: store.name().into(),
                key: commit_key(g),
                what: format!("holds the commit of generation {}", c.generation),
            });
        }
        out.push(c);
    }
    Ok(out)
}

/// What the live commits have consumed: keys and content hashes a gather must skip.
#[derive(Clone, Debug, Default)]
pub struct Consumed {
    /// Every key named by a live commit: never looked at again.
    pub keys: BTreeSet<String>,
    /// The content hashes of the files used: the same bytes under another key are a
    /// duplicate.
    pub hashes: BTreeSet<String>,
    /// Per commit (oldest first) its generation, keys and hashes, to forget it later.
    by_commit: std::collections::VecDeque<(u32, Vec<String>, Vec<String>)>,
}

impl Consumed {
    pub fn add(&mut self, c: &Commit) {
        let keys: Vec<String> = c.keys().map(str::to_string).collect();
        let hashes: Vec<String> = c.used.iter().map(|u| u.sha256.clone()).collect();
        self.keys.extend(keys.iter().cloned());
        self.hashes.extend(hashes.iter().cloned());
        self.by_commit.push_back((c.generation, keys, hashes));
    }

    /// Forgets the commits of generations up to `g`: they can only name files of networks
    /// no longer fresh, which no gather lists. Keeps memory bounded by live data.
    pub fn forget_upto(&mut self, g: u32) {
        while self.by_commit.front().is_some_and(|c| c.0 <= g) {
            let (_, keys, hashes) = self.by_commit.pop_front().expect("checked");
            for k in keys {
                self.keys.remove(&k);
            }
            for h in hashes {
                self.hashes.remove(&h);
            }
        }
    }

    /// Commits remembered.
    pub fn len(&self) -> usize {
        self.by_commit.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_commit.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit(g: u32, key: &str, sha: &str) -> Commit {
        Commit {
            protocol: super::super::PROTOCOL,
            epoch: 1,
            generation: g,
            used: vec![UsedFile {
                key: key.into(),
                sha256: sha.into(),
                games: 1,
                net: 0,
            }],
            duplicates: Vec::new(),
            quarantined: Vec::new(),
            dropped: Vec::new(),
            files: Vec::new(),
            row: Vec::new(),
        }
    }

    #[test]
    fn consumed_forgets_old_commits_only() {
        let mut c = Consumed::default();
        c.add(&commit(1, "incoming/n0000/w/a.crsp", "aa"));
        c.add(&commit(2, "incoming/n0001/w/b.crsp", "bb"));
        c.forget_upto(1);
        assert_eq!(c.len(), 1);
        assert!(!c.keys.contains("incoming/n0000/w/a.crsp") && !c.hashes.contains("aa"));
        assert!(c.keys.contains("incoming/n0001/w/b.crsp") && c.hashes.contains("bb"));
        assert_eq!(generation_of_key("commits/gen-0012.json"), Some(12));
        assert_eq!(generation_of_key("commits/other.json"), None);
        assert_eq!(
            commit(1, "incoming/n0000/w/a.crsp", "aa").consumed_uploads(),
            ["incoming/n0000/w/a.txt", "incoming/n0000/w/a.crsp"]
        );
    }
}
