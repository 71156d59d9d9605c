//! TensorBoard logging (through `tensorboard-rs`) and a strict reader of event files.
//!
//! The reader checks what TensorBoard itself relies on: the TFRecord framing (`u64` length,
//! masked CRC-32C of the length, the payload, masked CRC-32C of the payload) and the
//! `Event` protobuf (`wall_time` = 1, `step` = 2, `file_version` = 3, `summary` = 5 with
//! repeated `value` = 1 of `tag` = 1 and `simple_value` = 2). It serves the tests and
//! `scripts/`-free inspection of a run's logs.

use std::path::{Path, PathBuf};
use tensorboard_rs::summary_writer::SummaryWriter;

/// Scalars to the event files of one directory.
pub struct TbLog {
    /// The open writer; `None` after a flush until the next scalar.
    writer: Option<SummaryWriter>,
    dir: PathBuf,
    /// Event files this process has finished (they get this number as a suffix).
    finished: u32,
}

impl std::fmt::Debug for TbLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TbLog").field("dir", &self.dir).finish()
    }
}

impl TbLog {
    /// Logs into `dir` (created if needed): the first scalar opens a new event file, each
    /// flush closes it and the next scalar opens another (see [`TbLog::flush`]); TensorBoard
    /// reads them as one run. A process that logs nothing leaves no file.
    ///
    /// `tensorboard-rs` panics where it cannot write; the directory is probed first, and any
    /// panic left is caught and returned as an error, so a full disk or a read-only mount is
    /// reported as what it is.
    pub fn open(dir: &Path) -> std::io::Result<TbLog> {
        std::fs::create_dir_all(dir)?;
        let probe = dir.join(format!(".write-probe-{}", std::process::id()));
        std::fs::write(&probe, b"probe")?;
        std::fs::remove_file(&probe)?;
        Ok(TbLog {
            writer: None,
            dir: dir.to_path_buf(),
            finished: 0,
        })
    }

    /// Logs one value; values that are not finite (a figure not measured this generation)
    /// are left out rather than written as NaN.
    pub fn scalar(&mut self, tag: &str, value: f64, step: u32) -> std::io::Result<()> {
        if value.is_finite() {
            if self.writer.is_none() {
                let dir = self.dir.clone();
                self.writer = Some(caught(|| SummaryWriter::new(&dir))?);
            }
            let w = self.writer.as_mut().expect("opened above");
            caught(|| w.add_scalar(tag, value as f32, step as usize))?;
        }
        Ok(())
    }

    /// Puts everything logged so far into the file before returning. `tensorboard-rs` writes
    /// on a thread of its own and its `flush` only asks that thread to flush, so a kill right
    /// after it could lose the last scalars; closing the writer joins the thread. The closed
    /// file is renamed with a sequence suffix (still an event file to TensorBoard), because
    /// the next writer of this process may get the same name within the same second and
    /// would truncate it.
    pub fn flush(&mut self) -> std::io::Result<()> {
        let Some(w) = self.writer.take() else {
            return Ok(());
        };
        caught(move || drop(w))?;
        let ours = format!(".{}.0", std::process::id());
        for p in event_files(&self.dir)? {
            let Some(name) = p.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            if name.ends_with(&ours) {
                self.finished += 1;
                let to = self.dir.join(format!("{name}.{:06}", self.finished));
                std::fs::rename(&p, &to)?;
            }
        }
        Ok(())
    }
}

/// Runs `f`, turning a panic inside the TensorBoard writer into an I/O error.
fn caught<T>(f: impl FnOnce() -> T) -> std::io::Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        let what = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown failure".into());
        std::io::Error::other(format!("TensorBoard writer failed: {what}"))
    })
}

/// One scalar read back from an event file.
#[derive(Clone, Debug, PartialEq)]
pub struct Scalar {
    pub tag: String,
    pub step: i64,
    pub value: f32,
    pub wall_time: f64,
}

/// Why an event file was refused.
#[derive(Debug, thiserror::Error)]
pub enum EventFileError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: record at byte {offset}: {what}")]
    Bad {
        path: String,
        offset: usize,
        what: String,
    },
}

/// TensorFlow's masked CRC-32C.
pub fn masked_crc32c(bytes: &[u8]) -> u32 {
    let crc = crc32c::crc32c(bytes);
    (crc.rotate_right(15)).wrapping_add(0xa282_ead8)
}

/// Everything an event file holds: its `file_version` events and the scalars. A record cut
/// short at the very end (a writer killed mid-record) is reported in `truncated_tail`, as
/// TensorBoard skips it too; any other damage is an error.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventFile {
    pub file_version: Option<String>,
    pub scalars: Vec<Scalar>,
    pub records: usize,
    pub truncated_tail: bool,
}

/// Reads an event file, checking every length and CRC.
pub fn read_event_file(path: &Path) -> Result<EventFile, EventFileError> {
    let p = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| EventFileError::Io {
        path: p.clone(),
        source,
    })?;
    let bad = |offset: usize, what: String| EventFileError::Bad {
        path: p.clone(),
        offset,
        what,
    };
    let mut out = EventFile::default();
    let mut at = 0usize;
    while at < bytes.len() {
        if bytes.len() - at < 12 {
            out.truncated_tail = true;
            break;
        }
        let len_bytes = &bytes[at..at + 8];
        let len64 = u64::from_le_bytes(len_bytes.try_into().expect("8 bytes"));
        let len_crc = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().expect("4 bytes"));
        if masked_crc32c(len_bytes) != len_crc {
            return Err(bad(at, "length CRC mismatch".into()));
        }
        // Compared in u64 with saturation: a damaged length near 2^64 must not wrap around.
        if ((bytes.len() - at - 12) as u64) < len64.saturating_add(4) {
            out.truncated_tail = true;
            break;
        }
        let len = len64 as usize;
        let data = &bytes[at + 12..at + 12 + len];
        let crc = u32::from_le_bytes(
            bytes[at + 12 + len..at + 16 + len]
                .try_into()
                .expect("4 bytes"),
        );
        if masked_crc32c(data) != crc {
            return Err(bad(at, "payload CRC mismatch".into()));
        }
        parse_event(data, &mut out).map_err(|w| bad(at, w))?;
        out.records += 1;
        at += 16 + len;
    }
    Ok(out)
}

/// Every event file (`events.out.tfevents.*`) directly in `dir`, sorted by name.
pub fn event_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut v = Vec::new();
    if dir.exists() {
        for e in std::fs::read_dir(dir)? {
            let p = e?.path();
            if p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("events.out.tfevents."))
            {
                v.push(p);
            }
        }
    }
    v.sort();
    Ok(v)
}

struct Pb<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Pb<'a> {
    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self.b.get(self.at).ok_or("varint runs past the end")?;
            self.at += 1;
            v |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("varint longer than 10 bytes".into())
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.b.len() - self.at < n {
            return Err(format!("field of {n} bytes runs past the end"));
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    /// Next (field number, wire type, payload) with the payload of wire types 1, 2, 5.
    fn field(&mut self) -> Result<Option<(u64, Field<'a>)>, String> {
        if self.at >= self.b.len() {
            return Ok(None);
        }
        let key = self.varint()?;
        let f = match key & 7 {
            0 => Field::Varint(self.varint()?),
            1 => Field::Fixed64(self.take(8)?.try_into().expect("8")),
            2 => {
                let n = self.varint()? as usize;
                Field::Bytes(self.take(n)?)
            }
            5 => Field::Fixed32(self.take(4)?.try_into().expect("4")),
            w => return Err(format!("unsupported wire type {w}")),
        };
        Ok(Some((key >> 3, f)))
    }
}

enum Field<'a> {
    Varint(u64),
    Fixed64([u8; 8]),
    Fixed32([u8; 4]),
    Bytes(&'a [u8]),
}

fn parse_event(data: &[u8], out: &mut EventFile) -> Result<(), String> {
    let mut pb = Pb { b: data, at: 0 };
    let (mut wall_time, mut step) = (0.0, 0i64);
    let mut values: Vec<(String, f32)> = Vec::new();
    while let Some((num, f)) = pb.field()? {
        match (num, f) {
            (1, Field::Fixed64(b)) => wall_time = f64::from_le_bytes(b),
            (2, Field::Varint(v)) => step = v as i64,
            (3, Field::Bytes(b)) => {
                out.file_version = Some(String::from_utf8(b.to_vec()).map_err(|e| e.to_string())?);
            }
            (5, Field::Bytes(b)) => {
                let mut s = Pb { b, at: 0 };
                while let Some((vn, vf)) = s.field()? {
                    if let (1, Field::Bytes(vb)) = (vn, vf) {
                        values.push(parse_value(vb)?);
                    }
                }
            }
            _ => {}
        }
    }
    for (tag, value) in values {
        out.scalars.push(Scalar {
            tag,
            step,
            value,
            wall_time,
        });
    }
    Ok(())
}

fn parse_value(b: &[u8]) -> Result<(String, f32), String> {
    let mut pb = Pb { b, at: 0 };
    let (mut tag, mut value) = (None, None);
    while let Some((num, f)) = pb.field()? {
        match (num, f) {
            (1, Field::Bytes(t)) => {
                tag = Some(String::from_utf8(t.to_vec()).map_err(|e| e.to_string())?)
            }
            (2, Field::Fixed32(v)) => value = Some(f32::from_le_bytes(v)),
            _ => {}
        }
    }
    match (tag, value) {
        (Some(t), Some(v)) => Ok((t, v)),
        _ => Err("summary value without tag or simple_value".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masked_crc_matches_tensorflow() {
        // TensorFlow's crc32c test vector: crc32c("123456789") = 0xe3069283.
        assert_eq!(crc32c::crc32c(b"123456789"), 0xe306_9283);
        let m = masked_crc32c(b"123456789");
        assert_eq!(m, 0xe306_9283u32.rotate_right(15).wrapping_add(0xa282_ead8));
    }

    /// A record length near 2^64 with a valid length CRC is a truncated tail, not an
    /// arithmetic overflow (which wrapped and panicked slicing in release builds).
    #[test]
    fn huge_record_length_is_a_truncated_tail() {
        let dir = std::env::temp_dir().join(format!("crumble-tb-len-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("events.out.tfevents.1");
        for len in [u64::MAX, u64::MAX - 3, 1 << 40] {
            let mut b = len.to_le_bytes().to_vec();
            b.extend_from_slice(&masked_crc32c(&len.to_le_bytes()).to_le_bytes());
            b.extend_from_slice(&[0; 8]);
            std::fs::write(&path, &b).unwrap();
            assert!(read_event_file(&path).unwrap().truncated_tail, "{len}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn written_scalars_read_back() {
        let dir = std::env::temp_dir().join(format!("crumble-tb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        {
            let mut log = TbLog::open(&dir).unwrap();
            log.scalar("loss/policy", 1.5, 1).unwrap();
            log.scalar("loss/policy", f64::NAN, 2).unwrap();
            log.scalar("loss/value", 0.25, 2).unwrap();
            log.flush().unwrap();
        }
        let files = event_files(&dir).unwrap();
        assert_eq!(files.len(), 1);
        let ev = read_event_file(&files[0]).unwrap();
        assert_eq!(ev.file_version.as_deref(), Some("brain.Event:2"));
        assert!(!ev.truncated_tail);
        let got: Vec<(String, i64, f32)> = ev
            .scalars
            .iter()
            .map(|s| (s.tag.clone(), s.step, s.value))
            .collect();
        assert_eq!(
            got,
            vec![
                ("loss/policy".to_string(), 1, 1.5),
                ("loss/value".to_string(), 2, 0.25)
            ]
        );
        // A flipped payload byte is caught by the CRC.
        let mut bytes = std::fs::read(&files[0]).unwrap();
        let n = bytes.len();
        bytes[n - 6] ^= 1;
        std::fs::write(&files[0], &bytes).unwrap();
        let e = read_event_file(&files[0]).unwrap_err().to_string();
        assert!(e.contains("CRC"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A flush puts the scalars on disk before it returns, with the log still open (the
    /// writer's own flush only asked its thread to); flushes within one second keep every
    /// file.
    #[test]
    fn flush_is_on_disk_at_once_and_keeps_every_file() {
        let dir = std::env::temp_dir().join(format!("crumble-tb-flush-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut log = TbLog::open(&dir).unwrap();
        for step in 1..=3 {
            log.scalar("loss/policy", f64::from(step), step).unwrap();
            log.flush().unwrap();
            let mut steps: Vec<i64> = event_files(&dir)
                .unwrap()
                .iter()
                .flat_map(|f| read_event_file(f).unwrap().scalars)
                .map(|s| s.step)
                .collect();
            steps.sort();
            assert_eq!(steps, (1..=i64::from(step)).collect::<Vec<_>>());
        }
        drop(log);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
