//! The run directory on disk: its paths, writing a checkpoint whole, removing what belongs
//! to unfinished generations, and the checks that the ledger and the files agree.

use super::{TrainError, io_err, write_atomic};
use crate::ledger::{self, Row};
use crumble_model::train as mtrain;
use crumble_model::{CrumbleNet, NetConfig, checkpoint};
use crumble_selfplay::files::tmp_path as tmp_name;
use std::path::{Path, PathBuf};

/// The checkpoint directory of generation `g`.
pub fn checkpoint_dir(run: &Path, generation: u32) -> PathBuf {
    run.join("checkpoints").join(format!("gen-{generation:04}"))
}

/// The network file of generation `g`.
pub fn checkpoint_path(run: &Path, generation: u32) -> PathBuf {
    checkpoint_dir(run, generation).join("net.crnet")
}

/// `YYYYMMDD-HHMMSS` in UTC, from the system clock.
pub(super) fn timestamp_name() -> String {
    crate::clock::now_stamps().1
}

/// Writes `checkpoints/gen-g/` as a whole: built under a temporary name, then renamed.
pub(super) fn save_checkpoint(
    run: &Path,
    g: u32,
    config: &NetConfig,
    net: &CrumbleNet,
    optim: Option<&mtrain::Optimizer>,
) -> Result<(), TrainError> {
    let dir = checkpoint_dir(run, g);
    let tmp = tmp_name(&dir);
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(io_err(&tmp))?;
    }
    std::fs::create_dir_all(&tmp).map_err(io_err(&tmp))?;
    checkpoint::save(&tmp.join("net.crnet"), config, net)?;
    let json = serde_json::to_string_pretty(config).expect("a net config serialises");
    write_atomic(&tmp.join("net.json"), json.as_bytes())?;
    if let Some(o) = optim {
        let bytes = mtrain::optimizer_state_bytes(o).map_err(|e| TrainError::Ledger {
            path: tmp.join("optimizer.bpk").display().to_string(),
            what: format!("cannot encode the optimiser state: {e}"),
        })?;
        write_atomic(&tmp.join("optimizer.bpk"), &bytes)?;
    }
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(io_err(&dir))?;
    }
    std::fs::rename(&tmp, &dir).map_err(io_err(&dir))
}

/// The generation of a `gen-N` or `gen-N.tmp` entry, and whether it is a temporary.
fn generation_of(p: &Path) -> Option<(u32, bool)> {
    let name = p.file_name()?.to_str()?;
    let tmp = name.ends_with(".tmp");
    let n = name
        .strip_prefix("gen-")?
        .trim_end_matches(".tmp")
        .parse()
        .ok()?;
    Some((n, tmp))
}

/// Removes what belongs to generations after `done` (kept: complete self-play files of
/// generation `done + 1`) and every temporary file.
pub(super) fn clean_unfinished(run: &Path, done: u32) -> Result<(), TrainError> {
    let ck = run.join("checkpoints");
    if ck.exists() {
        for e in std::fs::read_dir(&ck).map_err(io_err(&ck))? {
            let p = e.map_err(io_err(&ck))?.path();
            if let Some((n, tmp)) = generation_of(&p)
                && (tmp || n > done)
            {
                std::fs::remove_dir_all(&p).map_err(io_err(&p))?;
            }
        }
    }
    let rp = run.join("replay");
    if rp.exists() {
        for e in std::fs::read_dir(&rp).map_err(io_err(&rp))? {
            let p = e.map_err(io_err(&rp))?.path();
            match generation_of(&p) {
                Some((n, false)) if n == done + 1 => clean_interrupted_selfplay(&p)?,
                Some((n, tmp)) if tmp || n > done => {
                    std::fs::remove_dir_all(&p).map_err(io_err(&p))?;
                }
                _ => {}
            }
        }
    }
    let csv_tmp = tmp_name(&run.join("progress.csv"));
    if csv_tmp.exists() {
        std::fs::remove_file(&csv_tmp).map_err(io_err(&csv_tmp))?;
    }
    Ok(())
}

/// In the self-play directory `p` of the interrupted generation, keeps the complete record
/// files (self-play goes on from them) and drops temporaries and any readable copy whose
/// record file is missing (the record file is written last).
fn clean_interrupted_selfplay(p: &Path) -> Result<(), TrainError> {
    for f in std::fs::read_dir(p).map_err(io_err(p))? {
        let f = f.map_err(io_err(p))?.path();
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let orphan_txt = name.ends_with(".txt") && !f.with_extension("crsp").exists();
        if name.ends_with(".tmp") || orphan_txt {
            std::fs::remove_file(&f).map_err(io_err(&f))?;
        }
    }
    Ok(())
}

/// The run's ledger. A missing one is refused, since it is created with the run, unless the
/// directory holds nothing but the config (a run killed between writing the two).
pub(super) fn read_ledger(dir: &Path) -> Result<Vec<Row>, TrainError> {
    let path = dir.join("progress.csv");
    if !path.exists() {
        let mut others = Vec::new();
        for e in std::fs::read_dir(dir).map_err(io_err(dir))? {
            let name = e.map_err(io_err(dir))?.file_name();
            if name != "config.toml" {
                others.push(name.to_string_lossy().into_owned());
            }
        }
        if others.is_empty() {
            ledger::create(&path)?;
        } else {
            others.sort();
            return Err(TrainError::Ledger {
                path: path.display().to_string(),
                what: format!(
                    "is missing, but the run directory holds {}: the ledger is what says which \
                     generations finished, and without it nothing can be resumed safely. Nothing \
                     was changed. Restore progress.csv from a copy, or start a new run in a new \
                     directory",
                    others.join(", ")
                ),
            });
        }
    }
    ledger::read(&path)
}

/// The generations the run directory holds work of: the highest `N` of a finished
/// `checkpoints/gen-N` or `replay/gen-N` directory (temporaries not counted).
fn newest_generation_on_disk(run: &Path) -> Result<u32, TrainError> {
    let mut newest = 0;
    for sub in ["checkpoints", "replay"] {
        let d = run.join(sub);
        if !d.exists() {
            continue;
        }
        for e in std::fs::read_dir(&d).map_err(io_err(&d))? {
            let name = e.map_err(io_err(&d))?.file_name();
            let n = name
                .to_str()
                .and_then(|s| s.strip_prefix("gen-"))
                .and_then(|s| s.parse::<u32>().ok());
            if let Some(n) = n {
                newest = newest.max(n);
            }
        }
    }
    Ok(newest)
}

/// Refuses a ledger that lists fewer generations than the directory holds work of.
///
/// Generation `done + 1` may legitimately have files (a run killed before its row was
/// written): resuming redoes it, exactly. Anything newer means the ledger lost rows, and
/// resuming from it would delete finished generations; nothing is touched then.
pub(super) fn check_against_disk(run: &Path, done: u32) -> Result<(), TrainError> {
    let newest = newest_generation_on_disk(run)?;
    if newest > done + 1 {
        let ledger = run.join("progress.csv");
        return Err(TrainError::Ledger {
            path: ledger.display().to_string(),
            what: format!(
                "lists {done} finished generation(s), but the run directory holds files of \
                 generation {newest}: the ledger has lost rows (deleted or cut short). Nothing \
                 was changed. Restore progress.csv from a copy, or continue from the last \
                 generation the ledger lists by moving checkpoints/gen-* and replay/gen-* \
                 above generation {} out of the run directory",
                done + 1
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamp_names_are_dates() {
        let s = timestamp_name();
        assert_eq!(s.len(), 15);
        assert!(s.starts_with("20"), "{s}");
        assert_eq!(&s[8..9], "-");
    }
}
