//! The `object_store` backend: the local filesystem always, S3 with the `s3` feature. The
//! crate is async; a small runtime of its own turns each call into a blocking one, since the
//! training loop and the workers are plain threads.

use super::{Backend, Entry, Put};
use futures_util::TryStreamExt;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, PutMode, PutOptions, PutPayload};
use std::sync::Arc;

/// An `object_store` store and the runtime its calls run on.
#[derive(Debug)]
pub(super) struct ObjectBackend {
    store: Arc<dyn ObjectStore>,
    runtime: tokio::runtime::Runtime,
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    // One worker thread drives the I/O; callers block on their own futures.
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("crumble-store")
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the storage runtime: {e}"))
}

impl ObjectBackend {
    /// The directory `root` (existing, canonical) as a store.
    pub(super) fn local(root: &std::path::Path) -> Result<ObjectBackend, String> {
        let fs = object_store::local::LocalFileSystem::new_with_prefix(root)
            .map_err(|e| e.to_string())?
            // Deleting the last key of a directory removes the directory too.
            .with_automatic_cleanup(true);
        Ok(ObjectBackend {
            store: Arc::new(fs),
            runtime: runtime()?,
        })
    }

    /// `s3://bucket/prefix`, configured from the `AWS_*` environment variables.
    #[cfg(feature = "s3")]
    pub(super) fn s3(url: &str) -> Result<ObjectBackend, String> {
        use object_store::aws::{AmazonS3Builder, S3ConditionalPut};
        let rest = url.strip_prefix("s3://").unwrap_or(url);
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        let s3 = AmazonS3Builder::from_env()
            .with_bucket_name(bucket)
            // Create-only writes as `If-None-Match: *`, which S3 and most gateways honour
            // (the startup probe refuses those that do not).
            .with_conditional_put(S3ConditionalPut::ETagMatch)
            .build()
            .map_err(|e| e.to_string())?;
        let store: Arc<dyn ObjectStore> = if prefix.is_empty() {
            Arc::new(s3)
        } else {
            Arc::new(object_store::prefix::PrefixStore::new(s3, prefix))
        };
        Ok(ObjectBackend {
            store,
            runtime: runtime()?,
        })
    }

    #[cfg(not(feature = "s3"))]
    pub(super) fn s3(_url: &str) -> Result<ObjectBackend, String> {
        Err("this crumble was built without S3 support: build it with \
             `cargo build --release -p crumble-train --features s3`"
            .into())
    }
}

fn path(key: &str) -> Result<ObjectPath, String> {
    ObjectPath::parse(key).map_err(|e| format!("not a valid key: {e}"))
}

impl Backend for ObjectBackend {
    fn put(&self, key: &str, bytes: Vec<u8>, create_only: bool) -> Result<Put, String> {
        let p = path(key)?;
        let opts = PutOptions {
            mode: if create_only {
                PutMode::Create
            } else {
                PutMode::Overwrite
            },
            ..PutOptions::default()
        };
        let payload = PutPayload::from(bytes);
        match self
            .runtime
            .block_on(self.store.put_opts(&p, payload, opts))
        {
            Ok(_) => Ok(Put::Created),
            Err(object_store::Error::AlreadyExists { .. }) if create_only => Ok(Put::Exists),
            Err(e) => Err(e.to_string()),
        }
    }

    fn size(&self, key: &str) -> Result<Option<u64>, String> {
        match self.runtime.block_on(self.store.head(&path(key)?)) {
            Ok(meta) => Ok(Some(meta.size)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, String> {
        let p = path(key)?;
        let got = self.runtime.block_on(async {
            match self.store.get(&p).await {
                Ok(r) => r.bytes().await.map(Some),
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(e) => Err(e),
            }
        });
        got.map(|b| b.map(|b| b.to_vec()))
            .map_err(|e| e.to_string())
    }

    fn list(&self, prefix: &str) -> Result<Vec<Entry>, String> {
        let p = if prefix.is_empty() {
            None
        } else {
            Some(path(prefix)?)
        };
        let metas: Vec<object_store::ObjectMeta> = self
            .runtime
            .block_on(self.store.list(p.as_ref()).try_collect())
            .map_err(|e| e.to_string())?;
        Ok(metas
            .into_iter()
            .map(|m| Entry {
                key: m.location.to_string(),
                size: m.size,
                modified_ms: m.last_modified.timestamp_millis(),
            })
            .collect())
    }

    fn delete(&self, key: &str) -> Result<(), String> {
        match self.runtime.block_on(self.store.delete(&path(key)?)) {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(e.to_string()),
        }
    }
}
