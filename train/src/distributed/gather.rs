//! The trainer collecting one generation's games from `incoming/`: every file not yet
//! consumed is looked at once, oldest first; stale, duplicate and bad files are set aside
//! (bad ones moved to `quarantine/` and named in `quarantine.csv`), good ones are taken
//! whole until the generation has its games.

use super::commit::{Consumed, SetAside, UsedFile};
use super::{DistError, INCOMING, MAX_RECORD_FILE, QUARANTINE, io_err, sha256_hex};
use crate::games::TrainGame;
use crate::store::Store;
use crumble_model::Encoder;
use crumble_selfplay::GameRecord;
use crumble_selfplay::record::decode_file_checked;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// What one generation gathered.
#[derive(Debug, Default)]
pub struct Gathered {
    /// The games, file by file in the order taken.
    pub games: Vec<GameRecord>,
    pub used: Vec<UsedFile>,
    pub stale: Vec<SetAside>,
    pub duplicates: Vec<SetAside>,
    pub quarantined: Vec<SetAside>,
    /// Seconds spent waiting for files.
    pub seconds: f64,
}

/// How to gather.
#[derive(Clone, Debug)]
pub struct GatherSettings {
    pub generation: u32,
    /// Games wanted (whole files are taken, so a few more may come).
    pub games: u64,
    /// Files of networks older than this are stale.
    pub min_net: u32,
    /// How often to look again while files are missing.
    pub poll: Duration,
    /// `quarantine.csv` of the trainer's run directory.
    pub quarantine_log: std::path::PathBuf,
}

/// The network generation in a record key `incoming/WORKER/nNNNN-....crsp`.
pub fn net_of_key(key: &str) -> Option<u32> {
    let name = key.rsplit('/').next()?;
    let rest = name.strip_prefix('n')?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() || !rest[digits.len()..].starts_with('-') {
        return None;
    }
    digits.parse().ok()
}

/// Gathers generation `s.generation`'s games; `on_wait(games, files, seconds)` reports
/// progress while it waits.
pub fn gather<G: TrainGame>(
    store: &Store,
    consumed: &Consumed,
    standard: &G,
    s: &GatherSettings,
    on_wait: &mut dyn FnMut(u64, usize, f64),
) -> Result<Gathered, DistError> {
    let t0 = Instant::now();
    let encoder = G::Encoder::default();
    let grid = encoder.grid(standard);
    let mut out = Gathered::default();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut hashes: BTreeSet<String> = BTreeSet::new();
    loop {
        let mut entries: Vec<_> = store
            .list(INCOMING)?
            .into_iter()
            .filter(|e| e.key.ends_with(".crsp") && !consumed.keys.contains(&e.key))
            .filter(|e| !seen.contains(&e.key))
            .collect();
        entries.sort_by(|a, b| (a.modified_ms, &a.key).cmp(&(b.modified_ms, &b.key)));
        for e in entries {
            seen.insert(e.key.clone());
            let aside = |reason: String| SetAside {
                key: e.key.clone(),
                reason,
            };
            let Some(net) = net_of_key(&e.key) else {
                let a = aside("the key does not name its network (nNNNN-...)".into());
                quarantine(store, s, &a, None)?;
                out.quarantined.push(a);
                continue;
            };
            if net < s.min_net {
                out.stale.push(aside(format!(
                    "network {net} is older than the oldest allowed, {}",
                    s.min_net
                )));
                continue;
            }
            if e.size > MAX_RECORD_FILE {
                let a = aside(format!("{} bytes, over {MAX_RECORD_FILE}", e.size));
                quarantine(store, s, &a, None)?;
                out.quarantined.push(a);
                continue;
            }
            // Gone since the listing: a file moved by hand; nothing to take.
            let Some(bytes) = store.get(&e.key, MAX_RECORD_FILE)? else {
                continue;
            };
            let sha = sha256_hex(&bytes);
            if consumed.hashes.contains(&sha) || !hashes.insert(sha.clone()) {
                out.duplicates.push(aside(format!(
                    "its bytes (SHA-256 {sha}) were already consumed under another key"
                )));
                continue;
            }
            match check::<G>(&bytes, &encoder, grid) {
                Ok(games) => {
                    out.used.push(UsedFile {
                        key: e.key.clone(),
                        sha256: sha,
                        games: games.len() as u64,
                        net,
                    });
                    out.games.extend(games);
                }
                Err(reason) => {
                    let a = aside(reason);
                    quarantine(store, s, &a, Some(bytes))?;
                    out.quarantined.push(a);
                }
            }
            if out.games.len() as u64 >= s.games {
                out.seconds = t0.elapsed().as_secs_f64();
                return Ok(out);
            }
        }
        on_wait(
            out.games.len() as u64,
            out.used.len(),
            t0.elapsed().as_secs_f64(),
        );
        std::thread::sleep(s.poll);
    }
}

/// The record checks of a file the run did not write itself: the format and checksums,
/// every game replayed through the rules, the run's game and board.
fn check<G: TrainGame>(
    bytes: &[u8],
    encoder: &G::Encoder,
    grid: usize,
) -> Result<Vec<GameRecord>, String> {
    let games = decode_file_checked::<G>(bytes).map_err(|e| e.to_string())?;
    if games.is_empty() {
        return Err("holds no games".into());
    }
    for g in &games {
        if g.game != G::NAME {
            return Err(format!(
                "game {} is {}, this run plays {}",
                g.index,
                g.game,
                G::NAME
            ));
        }
        let start: G = g.start_state().map_err(|e| e.to_string())?;
        let its = encoder.grid(&start);
        if its != grid {
            return Err(format!(
                "game {} is played on grid side {its}, this run's is {grid}",
                g.index
            ));
        }
        if g.steps.iter().all(|s| s.search.is_none()) {
            return Err(format!(
                "game {} has no searched decision to train on",
                g.index
            ));
        }
    }
    Ok(games)
}

/// Moves a bad file (and its readable copy) to `quarantine/` and names it in the trainer's
/// `quarantine.csv`, at once: a trainer killed before its commit has still said so.
fn quarantine(
    store: &Store,
    s: &GatherSettings,
    a: &SetAside,
    bytes: Option<Vec<u8>>,
) -> Result<(), DistError> {
    let rel = a
        .key
        .strip_prefix(&format!("{INCOMING}/"))
        .unwrap_or(&a.key);
    let to = format!("{QUARANTINE}/{rel}");
    let bytes = match bytes {
        Some(b) => Some(b),
        None => store.get(&a.key, MAX_RECORD_FILE).ok().flatten(),
    };
    if let Some(b) = bytes {
        store.put(&to, b)?;
    }
    let txt = a.key.replace(".crsp", ".txt");
    if let Some(t) = store.get(&txt, MAX_RECORD_FILE)? {
        store.put(&to.replace(".crsp", ".txt"), t)?;
        store.delete(&txt)?;
    }
    store.delete(&a.key)?;
    let path = &s.quarantine_log;
    let new = !path.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io_err(path))?;
    let mut line = String::new();
    if new {
        line.push_str("generation,key,reason\n");
    }
    let reason = a.reason.replace(['"', '\n', '\r'], " ");
    line.push_str(&format!("{},{},\"{reason}\"\n", s.generation, a.key));
    f.write_all(line.as_bytes()).map_err(io_err(path))?;
    f.sync_all().map_err(io_err(path))
}

/// The games of `gathered` as the run's own replay directory `dir` (it must not exist
/// yet): one record file per file taken, games renumbered from 0 in the order taken, each
/// with its readable copy, as local self-play writes them.
pub fn write_generation<G: TrainGame>(dir: &Path, gathered: &Gathered) -> Result<(), DistError> {
    let tmp = crumble_selfplay::files::tmp_path(dir);
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(io_err(&tmp))?;
    }
    std::fs::create_dir_all(&tmp).map_err(io_err(&tmp))?;
    let mut next = 0u64;
    let mut at = 0usize;
    for u in &gathered.used {
        let n = u.games as usize;
        let mut games: Vec<GameRecord> = gathered.games[at..at + n].to_vec();
        at += n;
        let first = next;
        for g in &mut games {
            g.index = next;
            next += 1;
        }
        let path = crumble_selfplay::selfplay::record_file_path(&tmp, first);
        let mut text = String::new();
        for g in &games {
            text.push_str(&G::record_text(g, None)?);
            text.push('\n');
        }
        let txt = path.with_extension("txt");
        crumble_selfplay::files::write_atomic(&txt, text.as_bytes()).map_err(io_err(&txt))?;
        crumble_selfplay::record::write_file(&path, &games)?;
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(io_err(dir))?;
    }
    std::fs::rename(&tmp, dir).map_err(io_err(dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_name_their_network() {
        assert_eq!(net_of_key("incoming/w1/n0003-000001-0.crsp"), Some(3));
        assert_eq!(net_of_key("incoming/w1/n12-x.crsp"), Some(12));
        assert_eq!(net_of_key("incoming/w1/x0003-1.crsp"), None);
        assert_eq!(net_of_key("incoming/w1/n-1.crsp"), None);
        assert_eq!(net_of_key("incoming/w1/n0003.crsp"), None);
    }
}
