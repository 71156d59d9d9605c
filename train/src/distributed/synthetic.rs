//! A synthetic worker (`crumble worker --synthetic RATE`, hidden): uploads copies of
//! ready-made valid record files at a set rate, as workers of the pointer's network, so
//! the trainer's intake can be measured with dozens of workers on one small machine. Each
//! copy gets game numbers of its own, so its bytes (and hash) are new and the trainer
//! takes it as fresh games rather than a duplicate.

use super::pointer::Pointer;
use super::{DistError, INCOMING, io_err};
use crate::store::{Put, Store};
use crumble_selfplay::GameRecord;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What a synthetic run was asked to do.
#[derive(Clone, Debug)]
pub struct SyntheticOptions {
    pub store: Store,
    /// A record file, or a directory of them (`selfplay-*.crsp`), to copy.
    pub source: PathBuf,
    /// Files per second, per worker.
    pub rate: f64,
    /// Workers (threads), each with an id of its own.
    pub workers: usize,
    /// Stop after this many files in all (`None`: when the run finishes).
    pub max_files: Option<u64>,
    pub poll: Duration,
}

/// The record files' games to copy.
fn load(source: &Path) -> Result<Vec<Vec<GameRecord>>, DistError> {
    let files = if source.is_dir() {
        crumble_selfplay::selfplay::record_files(source)?
    } else {
        vec![source.to_path_buf()]
    };
    let mut out = Vec::new();
    for f in files {
        let bytes = std::fs::read(&f).map_err(io_err(&f))?;
        out.push(crumble_selfplay::record::decode_file(&bytes)?);
    }
    if out.is_empty() {
        return Err(DistError::Io {
            path: source.display().to_string(),
            source: std::io::Error::other("no record files (selfplay-*.crsp) there"),
        });
    }
    Ok(out)
}

/// Uploads until the run finishes or `max_files` are sent; returns the files and games
/// sent. `on_upload(key)` is called for each file.
pub fn run_synthetic(
    opts: &SyntheticOptions,
    on_upload: &(dyn Fn(&str) + Sync),
) -> Result<(u64, u64), DistError> {
    let files = load(&opts.source)?;
    let sent = AtomicU64::new(0);
    let games = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let run = std::thread::scope(|s| {
        let handles: Vec<_> = (0..opts.workers.max(1))
            .map(|_| {
                let (files, sent, games, stop) = (&files, &sent, &games, &stop);
                s.spawn(move || {
                    let r = one_worker(opts, files, sent, games, stop, on_upload);
                    stop.store(true, Ordering::SeqCst);
                    r
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Ok(())))
            .collect::<Result<Vec<()>, DistError>>()
    });
    run?;
    Ok((sent.into_inner(), games.into_inner()))
}

fn one_worker(
    opts: &SyntheticOptions,
    files: &[Vec<GameRecord>],
    sent: &AtomicU64,
    games: &AtomicU64,
    stop: &AtomicBool,
    on_upload: &(dyn Fn(&str) + Sync),
) -> Result<(), DistError> {
    let id = format!("s{:016x}", rand::random::<u64>());
    let every = Duration::from_secs_f64(1.0 / opts.rate.max(1e-6));
    let mut next = Instant::now();
    let mut pointer: Option<(Pointer, Instant)> = None;
    let mut index = rand::random::<u32>() as u64 * 1_000_000;
    for seq in 0u64.. {
        if stop.load(Ordering::SeqCst) {
            return Ok(());
        }
        if pointer
            .as_ref()
            .is_none_or(|(_, at)| at.elapsed() >= opts.poll)
        {
            match Pointer::read(&opts.store)? {
                Some(p) if p.finished => return Ok(()),
                Some(p) => pointer = Some((p, Instant::now())),
                None => {
                    std::thread::sleep(opts.poll);
                    continue;
                }
            }
        }
        let net = pointer.as_ref().map_or(0, |(p, _)| p.net);
        let mut batch = files[seq as usize % files.len()].clone();
        for g in &mut batch {
            g.index = index;
            index += 1;
        }
        let bytes = crumble_selfplay::record::encode_file(&batch);
        let key = format!("{INCOMING}/n{net:04}/{id}/{seq:06}-000000.crsp");
        if opts.store.put_create(&key, bytes)? == Put::Created {
            let n = sent.fetch_add(1, Ordering::SeqCst) + 1;
            games.fetch_add(batch.len() as u64, Ordering::SeqCst);
            on_upload(&key);
            if opts.max_files.is_some_and(|m| n >= m) {
                return Ok(());
            }
        }
        next += every;
        let now = Instant::now();
        if next > now {
            std::thread::sleep(next - now);
        } else {
            // Behind the rate (a slow store): do not burst to catch up.
            next = now;
        }
    }
    Ok(())
}
