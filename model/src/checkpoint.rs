//! Checkpoints: the network's config next to its weights, in one file.
//!
//! # File format, version 1 (`*.crnet`)
//!
//! All integers little-endian: `MAGIC` (8 bytes `CRMBNET\n`), `u32` format version, `u32`
//! config length and the config as JSON ([`NetConfig`]), `u64` weights length and the
//! weights (a burn record in burnpack format), then a `u64` FNV-1a checksum of everything
//! before it. A checkpoint loads without knowing the architecture in advance: the config
//! builds the net, then the weights are applied and must match it tensor by tensor.
//!
//! Files are written to a temporary name and renamed, so a file that exists is complete.

use crate::net::{CrumbleNet, NetConfig};
use burn::module::Module;
use burn::store::ModuleRecord;
use burn::tensor::{Bytes, Device};
use std::path::Path;

pub const MAGIC: [u8; 8] = *b"CRMBNET\n";
pub const VERSION: u32 = 1;

/// Why a checkpoint could not be written or read. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not a Crumble network checkpoint (bad magic bytes)")]
    Magic { path: String },
    #[error("{path}: checkpoint format version {found}, this program reads version {VERSION}")]
    Version { path: String, found: u32 },
    #[error("{path}: truncated: {what} needs {need} bytes at offset {offset}, the file has {len}")]
    Truncated {
        path: String,
        what: &'static str,
        offset: usize,
        need: u64,
        len: usize,
    },
    #[error(
        "{path}: checksum mismatch (stored {stored:#018x}, computed {computed:#018x}): the file is damaged"
    )]
    Checksum {
        path: String,
        stored: u64,
        computed: u64,
    },
    #[error("{path}: {extra} unexpected bytes after the checksum")]
    Trailing { path: String, extra: usize },
    #[error("{path}: bad network config: {message}")]
    Config { path: String, message: String },
    #[error("{path}: the weights do not match the network config: {message}")]
    Mismatch { path: String, message: String },
    #[error(
        "{path}: the network config declares {params} parameters ({} bytes of weights), \
         but the file holds only {len} bytes of weights",
        params.saturating_mul(4)
    )]
    TooSmall { path: String, params: u64, len: u64 },
    #[error("{path}: {count} weights are NaN or infinite: the network is refused")]
    NonFinite { path: String, count: u64 },
    #[error("{path}: cannot encode the weights: {message}")]
    Encode { path: String, message: String },
}

pub(crate) use crumble_core::game::hash::fnv1a;

/// The checkpoint bytes of `net` built from `config`. A net with a non-finite weight is
/// refused: no checkpoint ever holds one.
pub fn encode(config: &NetConfig, net: &CrumbleNet) -> Result<Vec<u8>, CheckpointError> {
    let count = crate::train::non_finite_weights(net);
    if count > 0 {
        return Err(CheckpointError::NonFinite {
            path: "<memory>".into(),
            count,
        });
    }
    let json = serde_json::to_string_pretty(config).map_err(|e| CheckpointError::Encode {
        path: "<memory>".into(),
        message: e.to_string(),
    })?;
    let weights = net
        .clone()
        .into_record()
        .into_bytes()
        .map_err(|e| CheckpointError::Encode {
            path: "<memory>".into(),
            message: e.to_string(),
        })?;
    let mut b = Vec::with_capacity(32 + json.len() + weights.len());
    b.extend_from_slice(&MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&(json.len() as u32).to_le_bytes());
    b.extend_from_slice(json.as_bytes());
    b.extend_from_slice(&(weights.len() as u64).to_le_bytes());
    b.extend_from_slice(&weights);
    let sum = fnv1a(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    Ok(b)
}

/// Writes a checkpoint atomically (temporary file, then rename).
pub fn save(path: &Path, config: &NetConfig, net: &CrumbleNet) -> Result<(), CheckpointError> {
    let p = path.display().to_string();
    let bytes = encode(config, net).map_err(|e| match e {
        CheckpointError::Encode { message, .. } => CheckpointError::Encode {
            path: p.clone(),
            message,
        },
        CheckpointError::NonFinite { count, .. } => CheckpointError::NonFinite {
            path: p.clone(),
            count,
        },
        other => other,
    })?;
    crumble_selfplay::files::write_atomic(path, &bytes)
        .map_err(|source| CheckpointError::Io { path: p, source })
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
    path: &'a str,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: u64, what: &'static str) -> Result<&'a [u8], CheckpointError> {
        let avail = (self.b.len() - self.at) as u64;
        if n > avail {
            return Err(CheckpointError::Truncated {
                path: self.path.into(),
                what,
                offset: self.at,
                need: n,
                len: self.b.len(),
            });
        }
        let s = &self.b[self.at..self.at + n as usize];
        self.at += n as usize;
        Ok(s)
    }
    fn u32(&mut self, what: &'static str) -> Result<u32, CheckpointError> {
        Ok(u32::from_le_bytes(
            self.take(4, what)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self, what: &'static str) -> Result<u64, CheckpointError> {
        Ok(u64::from_le_bytes(
            self.take(8, what)?.try_into().expect("8 bytes"),
        ))
    }
}

/// The keys of the network's input and policy shapes, which checkpoints written before
/// networks served other games than Crumble do not have: those are Crumble networks, with
/// the defaults' shapes.
const SHAPE_KEYS: [&str; 3] = ["input_planes", "policy_planes", "policy_extra"];

/// Keys added after the first checkpoints, with the value every earlier net had.
const LATER_KEYS: [(&str, bool); 3] = [
    ("ownership", false),
    ("short_value", false),
    ("soft_policy", false),
];

/// Parses the config JSON strictly: unknown keys are refused, and a missing key too, except
/// the shape keys of an older checkpoint ([`SHAPE_KEYS`]) and the later keys
/// ([`LATER_KEYS`]).
fn parse_config(json: &str, path: &str) -> Result<NetConfig, CheckpointError> {
    let err = |message: String| CheckpointError::Config {
        path: path.into(),
        message,
    };
    let mut value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| err(e.to_string()))?;
    let known = serde_json::to_value(NetConfig::new()).map_err(|e| err(e.to_string()))?;
    if let (Some(obj), Some(known)) = (value.as_object_mut(), known.as_object()) {
        if let Some(k) = obj.keys().find(|k| !known.contains_key(*k)) {
            return Err(err(format!("unknown key `{k}`")));
        }
        if SHAPE_KEYS.iter().all(|k| !obj.contains_key(*k)) {
            for k in SHAPE_KEYS {
                obj.insert(k.into(), known[k].clone());
            }
        }
        for (k, v) in LATER_KEYS {
            obj.entry(k).or_insert(serde_json::Value::Bool(v));
        }
    }
    let config: NetConfig = serde_json::from_value(value).map_err(|e| err(e.to_string()))?;
    config.validate().map_err(|e| err(e.to_string()))?;
    Ok(config)
}

/// Reads a checkpoint from bytes (`path` names it in errors): its config and the net.
pub fn decode(
    bytes: &[u8],
    path: &str,
    device: &Device,
) -> Result<(NetConfig, CrumbleNet), CheckpointError> {
    let mut r = Reader {
        b: bytes,
        at: 0,
        path,
    };
    if r.take(8, "magic")? != MAGIC {
        return Err(CheckpointError::Magic { path: path.into() });
    }
    let version = r.u32("version")?;
    if version != VERSION {
        return Err(CheckpointError::Version {
            path: path.into(),
            found: version,
        });
    }
    let clen = r.u32("config length")?;
    let json = r.take(u64::from(clen), "config")?;
    let wlen = r.u64("weights length")?;
    let weights = r.take(wlen, "weights")?;
    let body = r.at;
    let stored = r.u64("checksum")?;
    if r.at != bytes.len() {
        return Err(CheckpointError::Trailing {
            path: path.into(),
            extra: bytes.len() - r.at,
        });
    }
    let computed = fnv1a(&bytes[..body]);
    if stored != computed {
        return Err(CheckpointError::Checksum {
            path: path.into(),
            stored,
            computed,
        });
    }
    let json = std::str::from_utf8(json).map_err(|e| CheckpointError::Config {
        path: path.into(),
        message: e.to_string(),
    })?;
    let config = parse_config(json, path)?;
    // The config decides what `init` allocates: a small file claiming a huge net must be
    // refused from its length alone, before gigabytes are allocated and filled.
    let params = config.parameter_count();
    if params.saturating_mul(4) > wlen {
        return Err(CheckpointError::TooSmall {
            path: path.into(),
            params,
            len: wlen,
        });
    }
    let net = config.init(device).map_err(|e| CheckpointError::Config {
        path: path.into(),
        message: e.to_string(),
    })?;
    let mismatch = |message: String| CheckpointError::Mismatch {
        path: path.into(),
        message,
    };
    // burn panics loading a tensor whose stored dtype is not a float (found by fuzzing):
    // every tensor must be f32, as `encode` writes them, before burn sees the record.
    let tensors = burn_pack::Reader::from_bytes(Bytes::from_bytes_vec(weights.to_vec()))
        .and_then(|r| r.into_tensors())
        .map_err(|e| mismatch(e.to_string()))?;
    if let Some(t) = tensors.iter().find(|t| t.dtype != burn_pack::DType::F32) {
        return Err(mismatch(format!(
            "tensor `{}` holds {:?} values; the weights are f32",
            t.name, t.dtype
        )));
    }
    drop(tensors);
    let record = ModuleRecord::from_bytes(Bytes::from_bytes_vec(weights.to_vec()))
        .map_err(|e| mismatch(e.to_string()))?;
    let net = net
        .try_load_record(record)
        .map_err(|e| mismatch(e.to_string()))?;
    let count = crate::train::non_finite_weights(&net);
    if count > 0 {
        return Err(CheckpointError::NonFinite {
            path: path.into(),
            count,
        });
    }
    let (net, _) = crate::train::flush_subnormal_weights(net);
    Ok((config, net))
}

/// Reads a checkpoint file.
pub fn load(path: &Path, device: &Device) -> Result<(NetConfig, CrumbleNet), CheckpointError> {
    let p = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| CheckpointError::Io {
        path: p.clone(),
        source,
    })?;
    decode(&bytes, &p, device)
}
