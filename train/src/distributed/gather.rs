//! The trainer collecting one generation's games from `incoming/`: it lists only the
//! prefixes of the fresh networks (`incoming/nNNNN/`), takes every file not yet consumed,
//! newest first, until the generation has at least its minimum of games, and then every
//! other file already there up to the intake cap; fresh files over the cap are dropped
//! (named in the commit, so the trainer says how far behind it is). Duplicate and bad files
//! are set aside (bad ones moved to `quarantine/` and named in `quarantine.csv`).

use super::commit::{Consumed, SetAside, UsedFile};
use super::fence::Fence;
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
    pub duplicates: Vec<SetAside>,
    pub quarantined: Vec<SetAside>,
    /// Fresh files over the intake cap.
    pub dropped: Vec<SetAside>,
    /// Seconds spent gathering.
    pub seconds: f64,
    /// Listings made.
    pub lists: u64,
    /// Files of keys a commit used already, found again and deleted (see [`gather`]).
    pub swept: usize,
}

/// How to gather.
#[derive(Clone, Debug)]
pub struct GatherSettings {
    pub generation: u32,
    /// Games wanted at least (whole files are taken, so a few more may come).
    pub games: u64,
    /// Games taken at most (whole files: the last one may pass it).
    pub cap: u64,
    /// The fresh networks, whose prefixes are listed.
    pub nets: Vec<u32>,
    /// How often to look again while files are missing.
    pub poll: Duration,
    /// `quarantine.csv` of the trainer's run directory.
    pub quarantine_log: std::path::PathBuf,
}

/// The prefix of the uploads of network `net`.
pub fn net_prefix(net: u32) -> String {
    format!("{INCOMING}/n{net:04}")
}

/// The network generation in a record key `incoming/nNNNN/WORKER/....crsp`.
pub fn net_of_key(key: &str) -> Option<u32> {
    let mut parts = key.split('/');
    if parts.next()? != INCOMING {
        return None;
    }
    let digits = parts.next()?.strip_prefix('n')?;
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Gathers generation `s.generation`'s games; `on_wait(games, files, seconds)` reports
/// progress while it waits. Stops with [`DistError::Fenced`] when a newer trainer took
/// the run over.
pub fn gather<G: TrainGame>(
    store: &Store,
    fence: &Fence,
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
        fence.check()?;
        let mut entries = Vec::new();
        for &net in &s.nets {
            out.lists += 1;
            for e in store.list(&net_prefix(net))? {
                if !e.key.ends_with(".crsp") || seen.contains(&e.key) {
                    continue;
                }
                if consumed.keys.contains(&e.key) {
                    // A file a commit used, uploaded again by a worker that stopped between
                    // its upload and its note of it: its games are trained on already, the
                    // file only takes listing time. Deleted (a failed delete waits for the
                    // next gather).
                    for key in [e.key.clone(), e.key.replace(".crsp", ".txt")] {
                        if let Err(e @ DistError::Fenced { .. }) = fence.delete(&key) {
                            return Err(e);
                        }
                    }
                    seen.insert(e.key);
                    out.swept += 1;
                    continue;
                }
                entries.push(e);
            }
        }
        // Newest first: when the cap bites, the oldest games are the ones dropped.
        entries.sort_by(|a, b| (b.modified_ms, &b.key).cmp(&(a.modified_ms, &a.key)));
        for e in entries {
            seen.insert(e.key.clone());
            let aside = |reason: String| SetAside {
                key: e.key.clone(),
                reason,
            };
            if out.games.len() as u64 >= s.cap {
                out.dropped.push(aside(format!(
                    "over the intake cap of {} games: the trainer is behind the workers",
                    s.cap
                )));
                continue;
            }
            let Some(net) = net_of_key(&e.key) else {
                let a = aside("the key does not name its network (incoming/nNNNN/...)".into());
                quarantine(store, fence, s, &a, None)?;
                out.quarantined.push(a);
                continue;
            };
            if e.size > MAX_RECORD_FILE {
                let a = aside(format!("{} bytes, over {MAX_RECORD_FILE}", e.size));
                quarantine(store, fence, s, &a, None)?;
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
                    quarantine(store, fence, s, &a, Some(bytes))?;
                    out.quarantined.push(a);
                }
            }
        }
        if out.games.len() as u64 >= s.games {
            out.seconds = t0.elapsed().as_secs_f64();
            return Ok(out);
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
    fence: &Fence,
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
        fence.put(&to, b)?;
    }
    let txt = a.key.replace(".crsp", ".txt");
    if let Some(t) = store.get(&txt, MAX_RECORD_FILE)? {
        fence.put(&to.replace(".crsp", ".txt"), t)?;
        fence.delete(&txt)?;
    }
    fence.delete(&a.key)?;
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
            text.push_str(&crumble_selfplay::text_record::text_record::<G>(g, None)?);
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
        assert_eq!(net_of_key("incoming/n0003/w1/000001-0.crsp"), Some(3));
        assert_eq!(net_of_key("incoming/n12/w1/x.crsp"), Some(12));
        assert_eq!(net_of_key("incoming/x0003/w1/1.crsp"), None);
        assert_eq!(net_of_key("incoming/n/w1/1.crsp"), None);
        assert_eq!(net_of_key("incoming/n00a3/w1/1.crsp"), None);
        assert_eq!(net_of_key("other/n0003/w1/1.crsp"), None);
        assert_eq!(net_prefix(7), "incoming/n0007");
    }
}

#[cfg(test)]
mod listing {
    use super::*;
    use crate::config::TrainConfig;
    use crate::games::TrainGame;
    use crate::store::testing::{Faulty, Memory};
    use crumble_core::games::tictactoe::TicTacToe;
    use crumble_selfplay::{Agent, AgentKind, UniformEvaluator};
    use std::sync::Arc;
    use std::sync::atomic::Ordering;

    /// `n` record files of tic-tac-toe games played by a uniform search.
    fn record_files(n: u64) -> Vec<Vec<u8>> {
        let mut cfg = TrainConfig::default();
        cfg.selfplay.games_per_file = 1;
        cfg.selfplay.parallel_games = 1;
        let agent = Agent::<TicTacToe>::new(
            "uniform",
            AgentKind::Mcts {
                evaluator: Box::new(UniformEvaluator),
                simulations: 4,
                config: cfg.search.clone(),
            },
        );
        let dir = std::env::temp_dir().join(format!(
            "crumble-listing-{}-{}",
            std::process::id(),
            crate::store::conformance::unique_id()
        ));
        let standard = TicTacToe::standard_start(&cfg).unwrap();
        crumble_selfplay::selfplay::run_selfplay(
            agent,
            &cfg.selfplay,
            &standard,
            &dir,
            n,
            &mut |_| {},
        )
        .unwrap();
        let files = crumble_selfplay::selfplay::record_files(&dir).unwrap();
        let out = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
        std::fs::remove_dir_all(dir).unwrap();
        out
    }

    /// Gathers 4 games from a store holding `junk` objects of networks no longer fresh;
    /// returns the LIST calls and the seconds taken.
    fn gather_among(junk: usize, files: &[Vec<u8>]) -> (u64, f64) {
        let memory = Store::from_backend(Arc::new(Memory::default()), "memory");
        for i in 0..junk {
            // Stale networks' uploads and commits of a long run.
            let key = format!("incoming/n{:04}/w{:03}/{i:06}-000000.crsp", i % 97, i % 13);
            memory.put(&key, vec![1; 16]).unwrap();
        }
        for (i, f) in files.iter().enumerate() {
            memory
                .put(&format!("incoming/n0100/w1/{i:06}-000000.crsp"), f.clone())
                .unwrap();
        }
        let faulty = Arc::new(Faulty::new(memory));
        let store = Store::from_backend(faulty.clone(), "counted");
        let fence = Fence::take(&store, 0).unwrap();
        let s = GatherSettings {
            generation: 101,
            games: files.len() as u64,
            cap: 1000,
            nets: vec![100, 99],
            poll: Duration::from_millis(10),
            quarantine_log: std::env::temp_dir().join("crumble-listing-unused.csv"),
        };
        let before = faulty.lists.load(Ordering::SeqCst);
        let t0 = Instant::now();
        let got = gather::<TicTacToe>(
            &store,
            &fence,
            &Consumed::default(),
            &TicTacToe::standard_start(&TrainConfig::default()).unwrap(),
            &s,
            &mut |_, _, _| {},
        )
        .unwrap();
        let secs = t0.elapsed().as_secs_f64();
        assert_eq!(got.used.len(), files.len());
        assert_eq!(got.lists, 2);
        (faulty.lists.load(Ordering::SeqCst) - before, secs)
    }

    /// A file under a key a commit used (uploaded again after its deletion) is deleted, with
    /// its readable copy, and not taken.
    #[test]
    fn a_used_file_found_again_is_deleted_not_taken() {
        let files = record_files(2);
        let store = Store::from_backend(Arc::new(Memory::default()), "memory");
        let again = "incoming/n0100/w1/000000-000000.crsp";
        let fresh = "incoming/n0100/w1/000001-000000.crsp";
        store.put(again, files[0].clone()).unwrap();
        store
            .put(&again.replace(".crsp", ".txt"), b"text".to_vec())
            .unwrap();
        store.put(fresh, files[1].clone()).unwrap();
        let fence = Fence::take(&store, 0).unwrap();
        let mut consumed = Consumed::default();
        consumed.keys.insert(again.to_string());
        let s = GatherSettings {
            generation: 2,
            games: 1,
            cap: 1000,
            nets: vec![100],
            poll: Duration::from_millis(10),
            quarantine_log: std::env::temp_dir().join("crumble-listing-unused.csv"),
        };
        let got = gather::<TicTacToe>(
            &store,
            &fence,
            &consumed,
            &TicTacToe::standard_start(&TrainConfig::default()).unwrap(),
            &s,
            &mut |_, _, _| {},
        )
        .unwrap();
        assert_eq!(got.swept, 1);
        assert_eq!(got.used.len(), 1);
        assert_eq!(got.used[0].key, fresh);
        assert!(store.get(again, 1 << 20).unwrap().is_none());
        assert!(
            store
                .get(&again.replace(".crsp", ".txt"), 1 << 20)
                .unwrap()
                .is_none()
        );
        assert!(store.get(fresh, 1 << 20).unwrap().is_some());
    }

    #[test]
    fn a_gather_lists_only_fresh_networks_however_old_the_run() {
        let files = record_files(4);
        let junk: usize = std::env::var("CRUMBLE_LISTING_OBJECTS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20_000);
        let (empty_lists, empty_s) = gather_among(0, &files);
        let (full_lists, full_s) = gather_among(junk, &files);
        assert_eq!((empty_lists, full_lists), (2, 2));
        eprintln!(
            "gather of {} files: {empty_s:.4} s on an empty store, {full_s:.4} s among {junk} \
             stale objects, {full_lists} LIST calls each",
            files.len()
        );
    }
}
