//! Every file a subcommand writes at a path the user gave (`-o`, `--out`, `--svg`, `--plot`)
//! goes through here, so that one rule holds everywhere: an output never replaces one of the
//! command's inputs (not even with `--force`), and never replaces an existing file unless the
//! user said `--force`. Commands call [`check_output`] for each output before any work starts
//! and [`write_output`] at the end.

use anyhow::{Context as _, bail};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The path made absolute with symbolic links and `..` resolved, as far as it exists: a file
/// that does not exist yet is its canonical parent joined with its name.
fn canonical(p: &Path) -> Option<PathBuf> {
    if let Ok(c) = p.canonicalize() {
        return Some(c);
    }
    let name = p.file_name()?;
    let parent = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(parent.canonicalize().ok()?.join(name))
}

/// Refuses `path` as an output when it is one of `inputs` (compared canonically, so
/// `./a.rec`, `dir/../a.rec` and a link to it all count), or when it exists and `force` is
/// false, or when it is a directory.
pub fn check_output(flag: &str, path: &Path, inputs: &[&Path], force: bool) -> anyhow::Result<()> {
    let out = canonical(path);
    for input in inputs {
        if out.is_some() && canonical(input) == out {
            bail!(
                "{flag} {}: that is an input of this command ({}); refusing to overwrite it",
                path.display(),
                input.display()
            );
        }
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => bail!("{flag} {}: is a directory", path.display()),
        Ok(_) if !force => bail!(
            "{flag} {}: the file exists; pass --force to replace it",
            path.display()
        ),
        _ => Ok(()),
    }
}

/// Writes `bytes` to `path` after checking it again as [`check_output`] does: through a
/// temporary file renamed into place, so a failed write leaves no half file and never
/// damages the file it would have replaced.
pub fn write_output(
    flag: &str,
    path: &Path,
    inputs: &[&Path],
    force: bool,
    bytes: &[u8],
) -> anyhow::Result<()> {
    check_output(flag, path, inputs, force)?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    };
    if let Err(e) = write() {
        if e.kind() != std::io::ErrorKind::AlreadyExists {
            std::fs::remove_file(&tmp).ok();
        }
        return Err(e).with_context(|| format!("cannot write {}", tmp.display()));
    }
    if !force && path.exists() {
        // Created by someone else meanwhile: keep theirs.
        std::fs::remove_file(&tmp).ok();
        bail!(
            "{flag} {}: the file exists; pass --force to replace it",
            path.display()
        );
    }
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::{check_output, write_output};

    #[test]
    fn outputs_never_replace_inputs_or_unasked_files() {
        let dir = std::env::temp_dir().join(format!("crumble-output-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let input = dir.join("game.rec");
        std::fs::write(&input, "keep").unwrap();
        let via_dots = dir.join("sub/../game.rec");
        for force in [false, true] {
            let e = check_output("-o", &via_dots, &[&input], force).unwrap_err();
            assert!(e.to_string().contains("input"), "{e}");
        }
        let e = write_output("-o", &input, &[], false, b"new").unwrap_err();
        assert!(e.to_string().contains("--force"), "{e}");
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "keep");
        let out = dir.join("out.html");
        write_output("-o", &out, &[&input], false, b"one").unwrap();
        assert!(write_output("-o", &out, &[&input], false, b"two").is_err());
        write_output("-o", &out, &[&input], true, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "two");
        assert!(check_output("-o", &dir.join("sub"), &[], true).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
