//! Store doubles for tests: a backend over another store that counts listings, hides keys,
//! or reports an error after a write went through (a lost acknowledgement).

use super::{Backend, Entry, Put, Store};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// A backend over `inner` with faults switched on by the test.
#[derive(Debug)]
pub struct Faulty {
    pub inner: Store,
    /// LIST calls made.
    pub lists: AtomicU64,
    /// Keys neither listed nor read (an object lost or not yet visible).
    pub hidden: Mutex<Vec<String>>,
    /// Keys left out of listings only (a listing that lags behind).
    pub unlisted: Mutex<Vec<String>>,
    /// Writes of keys with one of these prefixes go through and then report an error (a
    /// refused create reports the refusal).
    pub ack_lost: Mutex<Vec<String>>,
    /// Writes of keys with one of these prefixes fail and write nothing (the writer died
    /// before them).
    pub refused: Mutex<Vec<String>>,
}

impl Faulty {
    pub fn new(inner: Store) -> Faulty {
        Faulty {
            inner,
            lists: AtomicU64::new(0),
            hidden: Mutex::new(Vec::new()),
            unlisted: Mutex::new(Vec::new()),
            ack_lost: Mutex::new(Vec::new()),
            refused: Mutex::new(Vec::new()),
        }
    }

    fn hidden(&self, key: &str) -> bool {
        self.hidden.lock().unwrap().iter().any(|k| k == key)
    }
}

impl Backend for Faulty {
    fn put(&self, key: &str, bytes: Vec<u8>, create_only: bool) -> Result<Put, String> {
        let refused = self.refused.lock().unwrap();
        if refused.iter().any(|p| key.starts_with(p.as_str())) {
            return Err("connection reset".into());
        }
        drop(refused);
        let r = if create_only {
            self.inner.put_create(key, bytes)
        } else {
            self.inner.put(key, bytes).map(|()| Put::Created)
        }
        .map_err(|e| e.to_string())?;
        if r == Put::Created
            && self
                .ack_lost
                .lock()
                .unwrap()
                .iter()
                .any(|p| key.starts_with(p.as_str()))
        {
            return Err("timed out waiting for the response".into());
        }
        Ok(r)
    }

    fn size(&self, key: &str) -> Result<Option<u64>, String> {
        if self.hidden(key) {
            return Ok(None);
        }
        self.inner
            .get(key, u64::MAX)
            .map(|b| b.map(|b| b.len() as u64))
            .map_err(|e| e.to_string())
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, String> {
        if self.hidden(key) {
            return Ok(None);
        }
        self.inner.get(key, u64::MAX).map_err(|e| e.to_string())
    }

    fn list(&self, prefix: &str) -> Result<Vec<Entry>, String> {
        self.lists.fetch_add(1, Ordering::SeqCst);
        let hidden = self.hidden.lock().unwrap().clone();
        let unlisted = self.unlisted.lock().unwrap().clone();
        Ok(self
            .inner
            .list(prefix)
            .map_err(|e| e.to_string())?
            .into_iter()
            .filter(|e| !hidden.contains(&e.key) && !unlisted.contains(&e.key))
            .collect())
    }

    fn delete(&self, key: &str) -> Result<(), String> {
        self.inner.delete(key).map_err(|e| e.to_string())
    }
}

/// A store in memory, for tests with many objects (a listing is a range of a sorted map).
#[derive(Debug, Default)]
pub struct Memory {
    objects: Mutex<std::collections::BTreeMap<String, Vec<u8>>>,
}

impl Backend for Memory {
    fn put(&self, key: &str, bytes: Vec<u8>, create_only: bool) -> Result<Put, String> {
        let mut m = self.objects.lock().unwrap();
        if create_only && m.contains_key(key) {
            return Ok(Put::Exists);
        }
        m.insert(key.to_string(), bytes);
        Ok(Put::Created)
    }

    fn size(&self, key: &str) -> Result<Option<u64>, String> {
        Ok(self
            .objects
            .lock()
            .unwrap()
            .get(key)
            .map(|b| b.len() as u64))
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, String> {
        Ok(self.objects.lock().unwrap().get(key).cloned())
    }

    fn list(&self, prefix: &str) -> Result<Vec<Entry>, String> {
        let dir = if prefix.is_empty() {
            String::new()
        } else {
            format!("{prefix}/")
        };
        Ok(self
            .objects
            .lock()
            .unwrap()
            .range(dir.clone()..)
            .take_while(|(k, _)| k.starts_with(&dir))
            .map(|(k, v)| Entry {
                key: k.clone(),
                size: v.len() as u64,
                modified_ms: 0,
            })
            .collect())
    }

    fn delete(&self, key: &str) -> Result<(), String> {
        self.objects.lock().unwrap().remove(key);
        Ok(())
    }
}
