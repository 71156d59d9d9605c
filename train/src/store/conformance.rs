//! What a store must do for a distributed run, as checks that run against any store: the
//! startup probe (create-only honoured), create-only races (exactly one winner per key) and
//! list after write. `cargo test` runs them on the local filesystem; `crumble store-check`
//! runs them against any location (the distributed smoke script: a real S3 server).
//!
//! Every check works under its own fresh prefix and removes what it wrote.

use super::{Put, Store, StoreError};
use std::collections::BTreeSet;

/// A fresh, unlikely-to-collide name part (time and randomness).
pub fn unique_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    format!("{nanos:016x}-{:08x}", rand::random::<u32>())
}

fn fail(store: &Store, what: String) -> StoreError {
    StoreError::Conformance {
        store: store.name().into(),
        what,
    }
}

/// Creates one key twice: the second create must be refused and the first content kept.
/// Run before a worker or trainer writes anything.
pub fn probe(store: &Store) -> Result<(), StoreError> {
    let key = format!("probe/{}", unique_id());
    if store.put_create(&key, b"first".to_vec())? != Put::Created {
        return Err(fail(
            store,
            format!("a fresh key {key} was reported as existing"),
        ));
    }
    let second = store.put_create(&key, b"second".to_vec())?;
    let kept = store.get(&key, 64)?;
    store.delete(&key)?;
    if second == Put::Created || kept.as_deref() != Some(b"first".as_slice()) {
        return Err(StoreError::CreateIgnored {
            store: store.name().into(),
            key,
        });
    }
    Ok(())
}

/// `threads` threads each try to create the same `keys` keys with their own content. Every
/// key must have exactly one winner, and hold the winner's content. Returns the number of
/// creates attempted.
pub fn create_race(store: &Store, threads: usize, keys: usize) -> Result<u64, StoreError> {
    let base = format!("conformance/race-{}", unique_id());
    let winners: Vec<Vec<usize>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let base = &base;
                s.spawn(move || -> Result<Vec<usize>, StoreError> {
                    let mut won = Vec::new();
                    for k in 0..keys {
                        let body = format!("thread {t}").into_bytes();
                        if store.put_create(&format!("{base}/k{k:04}"), body)? == Put::Created {
                            won.push(k);
                        }
                    }
                    Ok(won)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a race thread panicked"))
            .collect::<Result<_, _>>()
    })?;
    let mut owner = vec![None; keys];
    for (t, won) in winners.iter().enumerate() {
        for &k in won {
            if let Some(other) = owner[k].replace(t) {
                return Err(fail(
                    store,
                    format!("key k{k:04}: threads {other} and {t} both created it"),
                ));
            }
        }
    }
    for (k, o) in owner.iter().enumerate() {
        let key = format!("{base}/k{k:04}");
        let Some(t) = o else {
            return Err(fail(store, format!("{key}: no thread created it")));
        };
        let body = store.get(&key, 64)?;
        if body != Some(format!("thread {t}").into_bytes()) {
            return Err(fail(
                store,
                format!("{key}: holds another thread's content than its creator's ({t})"),
            ));
        }
        store.delete(&key)?;
    }
    Ok((threads * keys) as u64)
}

/// Writes `n` keys and lists them at once: all must be there with their sizes; after their
/// deletion none may be.
pub fn list_after_write(store: &Store, n: usize) -> Result<(), StoreError> {
    let base = format!("conformance/list-{}", unique_id());
    let want: BTreeSet<(String, u64)> = (0..n)
        .map(|i| (format!("{base}/d{}/k{i:04}", i % 3), (i + 1) as u64))
        .collect();
    for (k, size) in &want {
        store.put(k, vec![7; *size as usize])?;
    }
    let got: BTreeSet<(String, u64)> = store
        .list(&base)?
        .into_iter()
        .map(|e| (e.key, e.size))
        .collect();
    if got != want {
        let missing: Vec<_> = want.difference(&got).map(|x| x.0.clone()).collect();
        let extra: Vec<_> = got.difference(&want).map(|x| x.0.clone()).collect();
        return Err(fail(
            store,
            format!("listing after writes: missing {missing:?}, unexpected {extra:?}"),
        ));
    }
    for (k, _) in &want {
        store.delete(k)?;
    }
    let left = store.list(&base)?;
    if !left.is_empty() {
        return Err(fail(
            store,
            format!("{} keys still listed after deletion", left.len()),
        ));
    }
    Ok(())
}

/// The whole suite: probe, 8 threads × 40 keys of create-only races, list after write.
pub fn run_all(store: &Store, on_check: &mut dyn FnMut(&str)) -> Result<(), StoreError> {
    probe(store)?;
    on_check("probe: a second create of a key is refused");
    let n = create_race(store, 8, 40)?;
    on_check(&format!(
        "create-only race: 8 threads x 40 keys ({n} creates), exactly one winner per key"
    ));
    list_after_write(store, 30)?;
    on_check("list after write: 30 keys listed at once with their sizes, none after deletion");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{Backend, Entry, Location};
    use super::*;
    use std::sync::Arc;

    fn local(name: &str) -> (Store, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "crumble-store-{}-{name}-{}",
            std::process::id(),
            unique_id()
        ));
        (Store::open(&Location::Local(dir.clone())).unwrap(), dir)
    }

    #[test]
    fn the_local_filesystem_passes_the_suite() {
        let (store, dir) = local("suite");
        let mut seen = Vec::new();
        run_all(&store, &mut |s| seen.push(s.to_string())).unwrap();
        assert_eq!(seen.len(), 3);
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// A store that treats create-only writes as plain writes, as some S3 gateways do.
    #[derive(Debug)]
    struct IgnoresCreate(Store);

    impl Backend for IgnoresCreate {
        fn put(&self, key: &str, bytes: Vec<u8>, _create_only: bool) -> Result<Put, String> {
            self.0.put(key, bytes).map_err(|e| e.to_string())?;
            Ok(Put::Created)
        }
        fn size(&self, key: &str) -> Result<Option<u64>, String> {
            let got = self.0.get(key, u64::MAX).map_err(|e| e.to_string())?;
            Ok(got.map(|b| b.len() as u64))
        }
        fn get(&self, key: &str) -> Result<Option<Vec<u8>>, String> {
            self.0.get(key, u64::MAX).map_err(|e| e.to_string())
        }
        fn list(&self, prefix: &str) -> Result<Vec<Entry>, String> {
            self.0.list(prefix).map_err(|e| e.to_string())
        }
        fn delete(&self, key: &str) -> Result<(), String> {
            self.0.delete(key).map_err(|e| e.to_string())
        }
    }

    #[test]
    fn the_probe_and_the_race_refuse_a_store_that_ignores_create_only() {
        let (inner, dir) = local("fake");
        let fake = Store::from_backend(Arc::new(IgnoresCreate(inner)), "fake://gateway");
        let e = probe(&fake).unwrap_err();
        assert!(matches!(e, StoreError::CreateIgnored { .. }), "{e}");
        assert!(e.to_string().contains("ignores create-only writes"), "{e}");
        let e = create_race(&fake, 8, 40).unwrap_err().to_string();
        assert!(e.contains("both created it"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn reads_are_bounded_and_missing_keys_are_none() {
        let (store, dir) = local("bounds");
        store.put("a/b", vec![1; 100]).unwrap();
        assert_eq!(store.get("a/b", 100).unwrap().unwrap().len(), 100);
        let e = store.get("a/b", 99).unwrap_err().to_string();
        assert!(e.contains("a/b holds 100 bytes, more than the 99"), "{e}");
        assert_eq!(store.get("a/none", 10).unwrap(), None);
        assert_eq!(store.put_create("a/b", vec![2]).unwrap(), Put::Exists);
        store.delete("a/b").unwrap();
        store.delete("a/b").unwrap();
        assert!(store.list("a").unwrap().is_empty());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
