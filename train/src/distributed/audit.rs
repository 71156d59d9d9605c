//! Checks the invariants of a shared run in its store, for `crumble store-check --audit`
//! and the distributed smoke script: every record file is used by at most one commit (by
//! key and by content), every committed generation's files exist, the commits are those of
//! generations 1..=N with no gap, and every quarantined file is in `quarantine/` and named
//! in `quarantine.csv`.

use super::commit::Consumed;
use super::{DistError, INCOMING, MAX_NET_FILE, QUARANTINE};
use crate::store::Store;
use std::collections::{BTreeMap, BTreeSet};

/// What the audit found, for a summary.
#[derive(Clone, Debug, Default)]
pub struct Audit {
    pub generations: u32,
    pub used_files: usize,
    pub used_games: u64,
    pub stale: usize,
    pub duplicates: usize,
    pub quarantined: usize,
    /// Every record key seen, with what became of it (`used gen-N`, `duplicate gen-N`,
    /// `stale gen-N`, `quarantined gen-N`, `waiting`).
    pub keys: BTreeMap<String, String>,
}

/// Audits the run in `store`; the first broken invariant is the error.
pub fn audit(store: &Store) -> Result<Audit, DistError> {
    let bad = |what: String| DistError::Corrupt {
        store: store.name().into(),
        key: super::COMMITS.into(),
        what,
    };
    let (_, commits) = Consumed::read(store)?;
    let mut a = Audit::default();
    let mut hashes = BTreeSet::new();
    for (i, c) in commits.iter().enumerate() {
        if c.generation != i as u32 + 1 {
            return Err(bad(format!(
                "commits are not generations 1..={}: found generation {} at position {}",
                commits.len(),
                c.generation,
                i + 1
            )));
        }
        let g = c.generation;
        for u in &c.used {
            if let Some(before) = a.keys.insert(u.key.clone(), format!("used gen-{g:04}")) {
                return Err(bad(format!(
                    "{} is in two commits ({before}, gen-{g:04})",
                    u.key
                )));
            }
            if !hashes.insert(u.sha256.clone()) {
                return Err(bad(format!(
                    "{} (gen-{g:04}): its bytes were already used under another key",
                    u.key
                )));
            }
            let Some(bytes) = store.get(&u.key, MAX_NET_FILE)? else {
                return Err(bad(format!("{} (used by gen-{g:04}) is missing", u.key)));
            };
            if super::sha256_hex(&bytes) != u.sha256 {
                return Err(bad(format!("{} changed after gen-{g:04} used it", u.key)));
            }
            a.used_files += 1;
            a.used_games += u.games;
        }
        for (list, what) in [
            (&c.stale, "stale"),
            (&c.duplicates, "duplicate"),
            (&c.quarantined, "quarantined"),
        ] {
            for s in list {
                a.keys.insert(s.key.clone(), format!("{what} gen-{g:04}"));
            }
        }
        a.stale += c.stale.len();
        a.duplicates += c.duplicates.len();
        a.quarantined += c.quarantined.len();
        for q in &c.quarantined {
            let rel = q
                .key
                .strip_prefix(&format!("{INCOMING}/"))
                .unwrap_or(&q.key);
            if store
                .get(&format!("{QUARANTINE}/{rel}"), MAX_NET_FILE)?
                .is_none()
            {
                return Err(bad(format!("{} is not in {QUARANTINE}/", q.key)));
            }
        }
    }
    a.generations = commits.len() as u32;
    let log = store
        .get("quarantine.csv", MAX_NET_FILE)?
        .unwrap_or_default();
    let log = String::from_utf8_lossy(&log);
    for c in &commits {
        for q in &c.quarantined {
            if !log
                .lines()
                .any(|l| l.split(',').nth(1) == Some(q.key.as_str()))
            {
                return Err(bad(format!("{} is not named in quarantine.csv", q.key)));
            }
        }
    }
    for e in store.list(INCOMING)? {
        if e.key.ends_with(".crsp") {
            a.keys.entry(e.key).or_insert_with(|| "waiting".into());
        }
    }
    Ok(a)
}
