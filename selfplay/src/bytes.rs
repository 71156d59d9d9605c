//! Reading the project's binary files (self-play records, opening books): little-endian
//! numbers and text from a byte slice, every read checked against the bytes left, every
//! failure an error with its offset, in the caller's error type.

use std::marker::PhantomData;

/// Why bytes could not be read: the file ends early, or holds a value that cannot be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ByteError {
    Truncated { offset: usize },
    Corrupt { offset: usize, what: String },
}

/// A cursor over a file's bytes whose errors are `E`s (through `From<ByteError>`).
#[derive(Debug)]
pub struct Reader<'a, E> {
    b: &'a [u8],
    at: usize,
    error: PhantomData<fn() -> E>,
}

impl<'a, E: From<ByteError>> Reader<'a, E> {
    /// A reader of `b` from byte `at`.
    pub fn new(b: &'a [u8], at: usize) -> Self {
        Reader {
            b,
            at: at.min(b.len()),
            error: PhantomData,
        }
    }
    /// The offset of the next byte.
    pub fn offset(&self) -> usize {
        self.at
    }
    /// Bytes left.
    pub fn left(&self) -> usize {
        self.b.len() - self.at
    }
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], E> {
        if self.left() < n {
            return Err(ByteError::Truncated {
                offset: self.b.len(),
            }
            .into());
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    pub fn u8(&mut self) -> Result<u8, E> {
        Ok(self.take(1)?[0])
    }
    pub fn u16(&mut self) -> Result<u16, E> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().expect("2 bytes"),
        ))
    }
    pub fn u32(&mut self) -> Result<u32, E> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    pub fn u64(&mut self) -> Result<u64, E> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    pub fn f32(&mut self) -> Result<f32, E> {
        Ok(f32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    /// An `f32` that must be finite and within `lo..=hi` (a value or a probability): damaged
    /// or poisoned numbers are refused here, where every reader passes.
    pub fn f32_in(&mut self, lo: f32, hi: f32, what: &str) -> Result<f32, E> {
        let at = self.at;
        let v = self.f32()?;
        if v.is_finite() && (lo..=hi).contains(&v) {
            Ok(v)
        } else {
            Err(ByteError::Corrupt {
                offset: at,
                what: format!("{what} {v} is not a number in [{lo}, {hi}]"),
            }
            .into())
        }
    }
    /// A `u32` count of items of `size` bytes each that must fit in what is left: checked
    /// before anything is allocated for them.
    pub fn count(&mut self, size: usize) -> Result<usize, E> {
        let n = self.u32()? as usize;
        if n.saturating_mul(size) > self.left() {
            return Err(ByteError::Truncated {
                offset: self.b.len(),
            }
            .into());
        }
        Ok(n)
    }
    /// The error "`what`" at the current offset.
    pub fn corrupt(&self, what: impl Into<String>) -> E {
        ByteError::Corrupt {
            offset: self.at,
            what: what.into(),
        }
        .into()
    }
    /// `len` bytes of UTF-8 text.
    pub fn text(&mut self, len: usize, what: &str) -> Result<String, E> {
        let at = self.at;
        Ok(std::str::from_utf8(self.take(len)?)
            .map_err(|_| {
                E::from(ByteError::Corrupt {
                    offset: at,
                    what: format!("{what} is not UTF-8"),
                })
            })?
            .to_string())
    }
}
