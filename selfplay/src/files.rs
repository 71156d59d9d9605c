//! Writing files so that a reader (or a resumed run) never sees half of one: the one
//! write-then-rename helper of the project.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The temporary name `path` is written under before its rename: `path` + `.tmp`.
pub fn tmp_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".tmp");
    PathBuf::from(s)
}

/// Writes `bytes` to `path` through [`tmp_path`], synced to disk, then renamed over `path`:
/// after a crash at any moment `path` holds either its old content or all of the new. The
/// error is the I/O error of whichever step failed (callers name the path).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = tmp_path(path);
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_whole_files_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("crumble-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("a.bin");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert!(!tmp_path(&p).exists());
        assert!(write_atomic(&dir.join("no/such/dir/x"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
