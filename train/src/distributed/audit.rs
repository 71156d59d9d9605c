//! Checks the invariants of a shared run in its store, for `crumble store-check --audit`
//! and the distributed smoke script: the commits are those of generations 1..=N read by
//! key with no gap, in non-decreasing epochs; every record file is used by at most one
//! commit (by key and by content) and, while it is still in the store, holds the bytes its
//! commit names; every checkpoint and replay file a commit names holds those bytes; every
//! quarantined file is in `quarantine/` and named in `quarantine.csv`.

use super::commit::{self, Commit};
use super::pointer::Pointer;
use super::{DistError, INCOMING, MAX_NET_FILE, QUARANTINE, sha256_hex};
use crate::store::Store;
use std::collections::{BTreeMap, BTreeSet};

/// What the audit found, for a summary.
#[derive(Clone, Debug, Default)]
pub struct Audit {
    pub generations: u32,
    pub used_files: usize,
    pub used_games: u64,
    pub duplicates: usize,
    pub quarantined: usize,
    pub dropped: usize,
    /// Checkpoint and replay files whose hashes were confirmed.
    pub generation_files: usize,
    /// The epoch of the newest commit.
    pub epoch: u64,
    /// Every record key seen, with what became of it (`used gen-N`, `duplicate gen-N`,
    /// `dropped gen-N`, `quarantined gen-N`, `waiting`).
    pub keys: BTreeMap<String, String>,
}

/// Audits the run in `store`; the first broken invariant is the error.
pub fn audit(store: &Store) -> Result<Audit, DistError> {
    let commits = read_commits(store)?;
    let n = commits.len() as u32;
    let mut a = Audit::default();
    let mut hashes = BTreeSet::new();
    for c in &commits {
        check_commit(store, c, &mut a, &mut hashes)?;
    }
    a.generations = n;
    check_quarantine_log(store, &commits)?;
    for e in store.list(INCOMING)? {
        if e.key.ends_with(".crsp") {
            a.keys.entry(e.key).or_insert_with(|| "waiting".into());
        }
    }
    Ok(a)
}

/// A broken invariant at `key` of `store`.
fn corrupt(store: &Store, key: &str, what: String) -> DistError {
    DistError::Corrupt {
        store: store.name().into(),
        key: key.into(),
        what,
    }
}

/// The commits of generations 1..=N read by key; refused when `commits/` lists a later
/// generation or the pointer names one (a gap at N + 1).
fn read_commits(store: &Store) -> Result<Vec<Commit>, DistError> {
    let mut commits: Vec<Commit> = Vec::new();
    while let Some(c) = Commit::read(store, commits.len() as u32 + 1)? {
        commits.push(c);
    }
    let n = commits.len() as u32;
    // Anything beyond N shows a gap at N + 1.
    let listed = store
        .list(super::COMMITS)?
        .iter()
        .filter_map(|e| commit::generation_of_key(&e.key))
        .max();
    let pointed = Pointer::read(store)?.map(|p| p.generation);
    for (what, g) in [
        ("commits/ lists generation", listed),
        ("the pointer says", pointed),
    ] {
        if let Some(g) = g.filter(|&g| g > n) {
            return Err(DistError::CommitGap {
                store: store.name().into(),
                key: commit::commit_key(n + 1),
                evidence: format!("{what} {g}"),
            });
        }
    }
    Ok(commits)
}

/// One commit, after those before it (counted in `a`; `hashes` the bytes they used): its
/// epoch, its used files (each once, by key and by content, unchanged while still there),
/// its generation files, its other files' fates and its quarantined files' place.
fn check_commit(
    store: &Store,
    c: &Commit,
    a: &mut Audit,
    hashes: &mut BTreeSet<String>,
) -> Result<(), DistError> {
    let bad = |key: &str, what: String| corrupt(store, key, what);
    let g = c.generation;
    let key = commit::commit_key(g);
    if c.epoch < a.epoch {
        return Err(bad(
            &key,
            format!(
                "committed in epoch {}, after a commit of epoch {}",
                c.epoch, a.epoch
            ),
        ));
    }
    a.epoch = c.epoch;
    for u in &c.used {
        if let Some(before) = a.keys.insert(u.key.clone(), format!("used gen-{g:04}")) {
            return Err(bad(&key, format!("{} is in two commits ({before})", u.key)));
        }
        if !hashes.insert(u.sha256.clone()) {
            return Err(bad(
                &key,
                format!("{}: its bytes were already used under another key", u.key),
            ));
        }
        // Consumed files are deleted after their commit; one still there must match.
        if let Some(bytes) = store.get(&u.key, MAX_NET_FILE)?
            && sha256_hex(&bytes) != u.sha256
        {
            return Err(bad(&key, format!("{} changed after it was used", u.key)));
        }
        a.used_files += 1;
        a.used_games += u.games;
    }
    for f in &c.files {
        let Some(bytes) = store.get(&f.key, MAX_NET_FILE)? else {
            return Err(bad(&key, format!("{} is missing", f.key)));
        };
        let got = sha256_hex(&bytes);
        if got != f.sha256 {
            return Err(bad(
                &key,
                format!(
                    "{} holds SHA-256 {got}, the commit names {}: not the committed file",
                    f.key, f.sha256
                ),
            ));
        }
        a.generation_files += 1;
    }
    for (list, what) in [
        (&c.duplicates, "duplicate"),
        (&c.quarantined, "quarantined"),
        (&c.dropped, "dropped"),
    ] {
        for s in list {
            a.keys.insert(s.key.clone(), format!("{what} gen-{g:04}"));
        }
    }
    a.duplicates += c.duplicates.len();
    a.quarantined += c.quarantined.len();
    a.dropped += c.dropped.len();
    for q in &c.quarantined {
        let rel = q
            .key
            .strip_prefix(&format!("{INCOMING}/"))
            .unwrap_or(&q.key);
        if !store.exists(&format!("{QUARANTINE}/{rel}"))? {
            return Err(bad(&key, format!("{} is not in {QUARANTINE}/", q.key)));
        }
    }
    Ok(())
}

/// Every quarantined file of `commits` is named in `quarantine.csv`.
fn check_quarantine_log(store: &Store, commits: &[Commit]) -> Result<(), DistError> {
    let log = store
        .get("quarantine.csv", MAX_NET_FILE)?
        .unwrap_or_default();
    let log = String::from_utf8_lossy(&log);
    for c in commits {
        for q in &c.quarantined {
            if !log
                .lines()
                .any(|l| l.split(',').nth(1) == Some(q.key.as_str()))
            {
                return Err(corrupt(
                    store,
                    "quarantine.csv",
                    format!("{} is not named there", q.key),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distributed::commit::GenFile;
    use crate::distributed::fence::Fence;
    use crate::store::Location;

    #[test]
    fn the_audit_confirms_generation_files_by_hash_and_refuses_gaps() {
        let dir = std::env::temp_dir().join(format!(
            "crumble-audit-{}-{}",
            std::process::id(),
            crate::store::conformance::unique_id()
        ));
        let store = Store::open(&Location::Local(dir.clone())).unwrap();
        let fence = Fence::take(&store, 0).unwrap();
        let ck = "checkpoints/gen-0001/net.crnet";
        store.put(ck, b"weights".to_vec()).unwrap();
        let mut c = Commit {
            protocol: super::super::PROTOCOL,
            epoch: fence.epoch(),
            generation: 1,
            used: Vec::new(),
            duplicates: Vec::new(),
            quarantined: Vec::new(),
            dropped: Vec::new(),
            files: vec![GenFile {
                key: ck.into(),
                sha256: sha256_hex(b"weights"),
            }],
            row: Vec::new(),
        };
        c.write(&store, &fence).unwrap();
        let a = audit(&store).unwrap();
        assert_eq!((a.generations, a.generation_files), (1, 1));
        // Same size, other bytes: not the committed checkpoint.
        store.put(ck, b"WEIGHTS".to_vec()).unwrap();
        let e = audit(&store).unwrap_err().to_string();
        assert!(e.contains("not the committed file"), "{e}");
        store.put(ck, b"weights".to_vec()).unwrap();
        // Generation 3 without generation 2: a gap, named.
        c.generation = 3;
        c.write(&store, &fence).unwrap();
        let e = audit(&store).unwrap_err().to_string();
        assert!(e.contains("commits/gen-0002.json is missing"), "{e}");
        assert!(e.contains("commits/ lists generation 3"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
