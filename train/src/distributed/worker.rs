//! `crumble worker`: follows the run's pointer, plays self-play games with its network, and
//! uploads each finished record file from the spool.
//!
//! Three threads: the *follower* reads the pointer every `poll` and downloads a new network
//! in the background (checked against the pointer's SHA-256); the *player* plays batches of
//! games (one batch: enough games for `[selfplay] parallel_games`, in whole record files)
//! and switches to the newest downloaded network between batches; the *uploader* empties
//! the spool's `pending/`, retrying with backoff. The player pauses while the trainer's
//! heartbeat is older than `stale_after`, and stops when the pointer says the run finished.

use super::pointer::Pointer;
use super::spool::Spool;
use super::{DistError, MAX_NET_FILE, mix, sha256_hex};
use crate::config::TrainConfig;
use crate::games::TrainGame;
use crate::store::{Store, conformance};
use crumble_selfplay::Progress;
use crumble_selfplay::driver::with_threads;
use crumble_selfplay::selfplay::run_selfplay;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What `crumble worker` was asked to do.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    pub store: Store,
    pub spool: PathBuf,
    /// Self-play threads (0: one per core).
    pub threads: usize,
    /// How often the pointer is read and the spool looked at.
    pub poll: Duration,
    /// Pause when the trainer's heartbeat is older than this.
    pub stale_after: Duration,
    /// Stop after this many games of this process (`None`: until the run finishes).
    pub max_games: Option<u64>,
}

/// What the worker reports as it goes (from any of its threads).
#[derive(Clone, Debug)]
pub enum WorkerEvent<'a> {
    Started {
        id: &'a str,
        resumed_uploads: usize,
    },
    Waiting {
        why: &'a str,
    },
    Paused {
        heartbeat_age: f64,
    },
    Net {
        net: u32,
        generation: u32,
    },
    Batch {
        name: &'a str,
        net: u32,
        games: u64,
    },
    SelfPlay {
        progress: &'a Progress,
    },
    Played {
        name: &'a str,
        files: usize,
        games_total: u64,
    },
    Uploaded {
        key: &'a str,
    },
    UploadFailed {
        file: &'a str,
        error: String,
        retry_in: f64,
    },
    NetFailed {
        error: String,
    },
    Stopped {
        why: &'a str,
        games: u64,
        left_in_spool: usize,
    },
}

/// What the follower has seen.
#[derive(Debug, Default)]
struct Follow {
    pointer: Option<Pointer>,
    /// The newest network downloaded and checked.
    ready: Option<u32>,
    fatal: Option<DistError>,
}

/// Runs a worker until the run finishes, `max_games` are played, or an error.
pub fn run_worker(
    opts: &WorkerOptions,
    on_event: &(dyn Fn(WorkerEvent) + Sync),
) -> Result<u64, DistError> {
    let spool = Spool::open(&opts.spool)?;
    conformance::probe(&opts.store)?;
    on_event(WorkerEvent::Started {
        id: spool.id(),
        resumed_uploads: spool.pending()?.len(),
    });
    // The pointer names the game and settings: wait for the trainer's first one.
    let pointer = loop {
        if let Some(p) = Pointer::read(&opts.store)? {
            break p;
        }
        on_event(WorkerEvent::Waiting {
            why: "no pointer yet: the trainer has not started",
        });
        std::thread::sleep(opts.poll);
    };
    let cfg = TrainConfig::from_toml_str(&pointer.config, "latest.json (config)")
        .map_err(crate::run::TrainError::from)?;
    let name = cfg.game.name.clone();
    crate::for_game!(name.as_str(), G => worker_game::<G>(opts, &spool, &cfg, on_event))
}

fn worker_game<G: TrainGame>(
    opts: &WorkerOptions,
    spool: &Spool,
    cfg: &TrainConfig,
    on_event: &(dyn Fn(WorkerEvent) + Sync),
) -> Result<u64, DistError> {
    let follow = Mutex::new(Follow::default());
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| follower(opts, spool, &follow, &stop, on_event));
        let uploader = s.spawn(|| uploader(opts, spool, &stop, on_event));
        let played = player::<G>(opts, spool, cfg, &follow, on_event);
        stop.store(true, Ordering::SeqCst);
        let left = uploader.join().unwrap_or(0);
        let (why, games) = match &played {
            Ok((why, games)) => (*why, *games),
            Err(_) => ("error", 0),
        };
        on_event(WorkerEvent::Stopped {
            why,
            games,
            left_in_spool: left,
        });
        played.map(|p| p.1)
    })
}

fn lock(f: &Mutex<Follow>) -> std::sync::MutexGuard<'_, Follow> {
    f.lock().unwrap_or_else(|e| e.into_inner())
}

/// Plays batches until told to stop; returns why it stopped and the games played.
fn player<G: TrainGame>(
    opts: &WorkerOptions,
    spool: &Spool,
    cfg: &TrainConfig,
    follow: &Mutex<Follow>,
    on_event: &(dyn Fn(WorkerEvent) + Sync),
) -> Result<(&'static str, u64), DistError> {
    let standard =
        G::standard_start(cfg).map_err(|e| crate::run::TrainError::Start(Box::new(e)))?;
    let per_file = cfg.selfplay.games_per_file.max(1) as u64;
    let batch_games = (cfg.selfplay.parallel_games.max(1) as u64).div_ceil(per_file) * per_file;
    let mut games = 0u64;
    let mut paused = false;
    loop {
        if opts.max_games.is_some_and(|m| games >= m) {
            return Ok(("played the games asked for", games));
        }
        let (pointer, ready) = {
            let mut f = lock(follow);
            if let Some(e) = f.fatal.take() {
                return Err(e);
            }
            (f.pointer.clone(), f.ready)
        };
        let (Some(p), Some(net)) = (pointer, ready) else {
            std::thread::sleep(opts.poll);
            continue;
        };
        if p.finished {
            return Ok(("the run finished", games));
        }
        let age = p.age();
        if age > opts.stale_after.as_secs_f64() {
            if !paused {
                on_event(WorkerEvent::Paused { heartbeat_age: age });
            }
            paused = true;
            std::thread::sleep(opts.poll);
            continue;
        }
        paused = false;
        let (dir, net, seq) = match spool.unfinished_batch()? {
            Some((d, n, _)) if !spool.net_path(n).exists() => {
                spool.drop_batch(&d)?;
                continue;
            }
            Some(b) => b,
            None => {
                let seq = spool.next_seq()?;
                (spool.new_batch(net, seq)?, net, seq)
            }
        };
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        on_event(WorkerEvent::Batch {
            name: &name,
            net,
            games: batch_games,
        });
        // Distinct per worker (its id) and per batch; the same after a crash, so a resumed
        // batch plays the games it lacks as it would have.
        let seed = cfg.selfplay.seed ^ mix(spool.seed() ^ mix(seq));
        let agent = crate::run::selfplay_agent::<G>(
            cfg,
            &spool.net_path(net),
            net,
            p.generation + 1,
            seed,
        )?;
        let mut sp = cfg.selfplay.clone();
        sp.seed = seed;
        with_threads(opts.threads, || {
            run_selfplay(agent, &sp, &standard, &dir, batch_games, &mut |progress| {
                on_event(WorkerEvent::SelfPlay { progress })
            })
        })?;
        let files = spool.finish_batch(&dir)?;
        games += batch_games;
        on_event(WorkerEvent::Played {
            name: &name,
            files,
            games_total: games,
        });
    }
}

/// Reads the pointer and downloads new networks until `stop`.
fn follower(
    opts: &WorkerOptions,
    spool: &Spool,
    follow: &Mutex<Follow>,
    stop: &AtomicBool,
    on_event: &(dyn Fn(WorkerEvent) + Sync),
) {
    while !stop.load(Ordering::SeqCst) {
        match Pointer::read(&opts.store) {
            Err(e @ DistError::Protocol { .. }) => {
                lock(follow).fatal = Some(e);
                return;
            }
            Err(e) => on_event(WorkerEvent::NetFailed {
                error: e.to_string(),
            }),
            Ok(None) => {}
            Ok(Some(p)) => {
                let want = p.net;
                let have = lock(follow).ready;
                if have != Some(want) {
                    match download(&opts.store, spool, &p) {
                        Ok(()) => {
                            on_event(WorkerEvent::Net {
                                net: want,
                                generation: p.generation,
                            });
                            let _ = spool.prune_nets(&[want, have.unwrap_or(want)]);
                            lock(follow).ready = Some(want);
                        }
                        Err(e) => on_event(WorkerEvent::NetFailed {
                            error: e.to_string(),
                        }),
                    }
                }
                lock(follow).pointer = Some(p);
            }
        }
        sleep_unless(stop, opts.poll);
    }
}

/// Downloads the pointer's network into the spool, checked against its SHA-256.
fn download(store: &Store, spool: &Spool, p: &Pointer) -> Result<(), DistError> {
    let path = spool.net_path(p.net);
    if path.exists() && std::fs::read(&path).is_ok_and(|b| sha256_hex(&b) == p.sha256) {
        return Ok(());
    }
    let bytes = store
        .get(&p.checkpoint, MAX_NET_FILE)?
        .ok_or_else(|| DistError::Corrupt {
            store: store.name().into(),
            key: p.checkpoint.clone(),
            what: "the pointer names this network, but it is not there".into(),
        })?;
    let got = sha256_hex(&bytes);
    if got != p.sha256 {
        return Err(DistError::Checksum {
            store: store.name().into(),
            key: p.checkpoint.clone(),
            want: p.sha256.clone(),
            got,
        });
    }
    crumble_selfplay::files::write_atomic(&path, &bytes).map_err(super::io_err(&path))
}

/// Uploads pending files until `stop`, then makes a last pass; returns the files left.
fn uploader(
    opts: &WorkerOptions,
    spool: &Spool,
    stop: &AtomicBool,
    on_event: &(dyn Fn(WorkerEvent) + Sync),
) -> usize {
    let mut backoff = Duration::from_millis(500);
    loop {
        let last = stop.load(Ordering::SeqCst);
        let mut failed = false;
        for stem in spool.pending().unwrap_or_default() {
            match spool.upload(&opts.store, &stem) {
                Ok(key) => {
                    on_event(WorkerEvent::Uploaded { key: &key });
                    backoff = Duration::from_millis(500);
                }
                Err(e) => {
                    on_event(WorkerEvent::UploadFailed {
                        file: &stem,
                        error: e.to_string(),
                        retry_in: backoff.as_secs_f64(),
                    });
                    failed = true;
                    break;
                }
            }
        }
        if last {
            return spool.pending().map_or(0, |p| p.len());
        }
        if failed {
            sleep_unless(stop, backoff);
            backoff = (backoff * 2).min(Duration::from_secs(60));
        } else {
            sleep_unless(stop, opts.poll.min(Duration::from_millis(500)));
        }
    }
}

/// Sleeps `d`, waking early when `stop` is set.
fn sleep_unless(stop: &AtomicBool, d: Duration) {
    let tick = Duration::from_millis(50);
    let mut slept = Duration::ZERO;
    while slept < d && !stop.load(Ordering::SeqCst) {
        std::thread::sleep(tick.min(d - slept));
        slept += tick;
    }
}
