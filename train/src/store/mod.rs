//! Where a run lives: a local directory (the default) or an object store, behind one small
//! blocking API of keys and bytes.
//!
//! A [`Location`] is a local path or, with the `s3` cargo feature, a URL `s3://bucket/prefix`
//! (credentials, region and endpoint from the usual `AWS_*` environment variables:
//! `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, `AWS_ENDPOINT_URL`,
//! `AWS_ALLOW_HTTP`). Both go through the `object_store` crate (`object` here); a key is a
//! `/`-separated path relative to the location (`incoming/w1/n0003-000001-0.crsp`).
//!
//! Two guarantees the distributed run is built on, checked by [`conformance`]:
//! - **create-only writes**: [`Store::put_create`] writes a key only if it does not exist,
//!   atomically, and says which happened; of many writers racing on one key exactly one
//!   wins. A store that silently overwrites (some S3 gateways ignore `If-None-Match`) is
//!   refused by [`conformance::probe`] before anything is written;
//! - **list after write**: a written key is listed at once.
//!
//! Every read is bounded ([`Store::get`] takes the largest size the caller accepts, checked
//! against the object's size before the bytes are fetched into memory).

pub mod conformance;
mod object;
#[cfg(test)]
pub mod testing;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a store operation failed; every variant names the store and the key.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{location}: {what}")]
    Location { location: String, what: String },
    #[error("{store}: {op} {key}: {what}")]
    Op {
        store: String,
        op: &'static str,
        key: String,
        what: String,
    },
    #[error("{store}: {key} holds {size} bytes, more than the {limit} accepted here")]
    TooLarge {
        store: String,
        key: String,
        size: u64,
        limit: u64,
    },
    #[error(
        "{store} ignores create-only writes: a second create of {key} succeeded instead of \
         being refused. Distributed runs rely on create-only writes (each record file consumed \
         once, one trainer per run); use a store that honours them (S3 `If-None-Match: *`, \
         a local or shared filesystem)"
    )]
    CreateIgnored { store: String, key: String },
    #[error("{store}: conformance: {what}")]
    Conformance { store: String, what: String },
}

/// A run's location as the user wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A directory on this machine (or a shared filesystem mounted here).
    Local(PathBuf),
    /// An object store URL (`s3://bucket/prefix`).
    Url(String),
}

impl Location {
    /// Reads a location: `scheme://...` is a URL (only `s3://` is known), anything else a
    /// path.
    pub fn parse(s: &str) -> Result<Location, StoreError> {
        match s.split_once("://") {
            None => Ok(Location::Local(PathBuf::from(s))),
            Some(("s3", rest)) if !rest.is_empty() && !rest.starts_with('/') => {
                Ok(Location::Url(s.trim_end_matches('/').to_string()))
            }
            Some(("s3", _)) => Err(StoreError::Location {
                location: s.into(),
                what: "an S3 location is s3://BUCKET or s3://BUCKET/PREFIX".into(),
            }),
            Some((scheme, _)) => Err(StoreError::Location {
                location: s.into(),
                what: format!(
                    "unknown scheme `{scheme}`: a location is a local path or s3://BUCKET/PREFIX"
                ),
            }),
        }
    }

    /// The directory of a local location.
    pub fn local_path(&self) -> Option<&Path> {
        match self {
            Location::Local(p) => Some(p),
            Location::Url(_) => None,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Local(p) => write!(f, "{}", p.display()),
            Location::Url(u) => f.write_str(u),
        }
    }
}

/// What a create-only write did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Put {
    Created,
    /// The key existed; nothing was written.
    Exists,
}

/// A listed object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    pub size: u64,
    /// Milliseconds since the Unix epoch, as the store reports it.
    pub modified_ms: i64,
}

/// The operations a store backend provides (object_store's, or a test double).
pub trait Backend: Send + Sync + fmt::Debug {
    /// Writes `bytes` at `key`; with `create_only`, only if `key` does not exist.
    fn put(&self, key: &str, bytes: Vec<u8>, create_only: bool) -> Result<Put, String>;
    /// The object's size, `None` if it does not exist.
    fn size(&self, key: &str) -> Result<Option<u64>, String>;
    /// The object's bytes, `None` if it does not exist.
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, String>;
    /// Every object whose key starts with the directory `prefix` (`""`: all).
    fn list(&self, prefix: &str) -> Result<Vec<Entry>, String>;
    /// Removes `key` (no error if it is already gone).
    fn delete(&self, key: &str) -> Result<(), String>;
}

/// A run's store: a backend and the name it is reported under.
#[derive(Clone, Debug)]
pub struct Store {
    backend: Arc<dyn Backend>,
    name: String,
    local_root: Option<PathBuf>,
}

impl Store {
    /// Opens the store at `location` (a local directory is created if missing).
    pub fn open(location: &Location) -> Result<Store, StoreError> {
        let name = location.to_string();
        let bad = |what: String| StoreError::Location {
            location: name.clone(),
            what,
        };
        match location {
            Location::Local(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| bad(e.to_string()))?;
                let root = dir.canonicalize().map_err(|e| bad(e.to_string()))?;
                let backend = object::ObjectBackend::local(&root).map_err(bad)?;
                Ok(Store {
                    backend: Arc::new(backend),
                    name,
                    local_root: Some(root),
                })
            }
            Location::Url(url) => {
                let backend = object::ObjectBackend::s3(url).map_err(bad)?;
                Ok(Store {
                    backend: Arc::new(backend),
                    name,
                    local_root: None,
                })
            }
        }
    }

    /// A store over any backend (tests, other implementations).
    pub fn from_backend(backend: Arc<dyn Backend>, name: &str) -> Store {
        Store {
            backend,
            name: name.into(),
            local_root: None,
        }
    }

    /// The name of the store (its location) for messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The directory of a local store (canonical).
    pub fn local_root(&self) -> Option<&Path> {
        self.local_root.as_deref()
    }

    fn op(&self, op: &'static str, key: &str) -> impl Fn(String) -> StoreError + '_ {
        let key = key.to_string();
        move |what| StoreError::Op {
            store: self.name.clone(),
            op,
            key: key.clone(),
            what,
        }
    }

    /// Writes `bytes` at `key`, replacing what is there.
    pub fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), StoreError> {
        self.backend
            .put(key, bytes, false)
            .map(|_| ())
            .map_err(self.op("put", key))
    }

    /// Writes `bytes` at `key` only if `key` does not exist (see [`Put`]).
    pub fn put_create(&self, key: &str, bytes: Vec<u8>) -> Result<Put, StoreError> {
        self.backend
            .put(key, bytes, true)
            .map_err(self.op("create", key))
    }

    /// The bytes at `key` (`None` if missing), refused when larger than `limit` bytes.
    pub fn get(&self, key: &str, limit: u64) -> Result<Option<Vec<u8>>, StoreError> {
        let Some(size) = self.backend.size(key).map_err(self.op("head", key))? else {
            return Ok(None);
        };
        if size > limit {
            return Err(StoreError::TooLarge {
                store: self.name.clone(),
                key: key.into(),
                size,
                limit,
            });
        }
        let bytes = self.backend.get(key).map_err(self.op("get", key))?;
        // The object may have been replaced between the two calls: check again.
        if let Some(b) = &bytes
            && b.len() as u64 > limit
        {
            return Err(StoreError::TooLarge {
                store: self.name.clone(),
                key: key.into(),
                size: b.len() as u64,
                limit,
            });
        }
        Ok(bytes)
    }

    /// Whether `key` exists (one HEAD request, no listing: a key read this way is seen
    /// even by stores whose listings lag behind their writes).
    pub fn exists(&self, key: &str) -> Result<bool, StoreError> {
        Ok(self
            .backend
            .size(key)
            .map_err(self.op("head", key))?
            .is_some())
    }

    /// The objects under the directory `prefix`, sorted by key.
    pub fn list(&self, prefix: &str) -> Result<Vec<Entry>, StoreError> {
        let mut v = self.backend.list(prefix).map_err(self.op("list", prefix))?;
        v.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(v)
    }

    /// Removes `key`.
    pub fn delete(&self, key: &str) -> Result<(), StoreError> {
        self.backend.delete(key).map_err(self.op("delete", key))
    }

    /// Whether this store is the local directory `dir` itself (so files written there are
    /// already in the store under their relative paths).
    pub fn is_dir(&self, dir: &Path) -> bool {
        match (&self.local_root, dir.canonicalize()) {
            (Some(root), Ok(d)) => *root == d,
            _ => false,
        }
    }
}

/// Joins key parts with `/`.
pub fn key(parts: &[&str]) -> String {
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_parse_as_paths_or_known_urls() {
        assert_eq!(
            Location::parse("runs/r1").unwrap(),
            Location::Local("runs/r1".into())
        );
        assert_eq!(
            Location::parse("s3://bucket/runs/r1/").unwrap(),
            Location::Url("s3://bucket/runs/r1".into())
        );
        for bad in ["s3://", "s3:///x", "gs://b/p", "ftp://h/x"] {
            let e = Location::parse(bad).unwrap_err().to_string();
            assert!(e.contains(bad), "{e}");
        }
    }
}
