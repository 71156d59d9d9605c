//! `crumble worker`: follows the run's pointer, plays self-play games with its network, and
//! uploads each finished record file from the spool.
//!
//! Three threads: the *follower* reads the pointer every `poll` and downloads a new network
//! in the background (checked against the pointer's SHA-256), ignoring a pointer whose
//! (epoch, generation) goes back; the *player* plays batches of games (one batch: enough
//! games for the worker's `parallel_games`, in whole record files of its own size) and
//! switches to the newest downloaded network between batches; the *uploader* sends each
//! record file as soon as it is complete, and empties the spool's `pending/`, retrying with
//! backoff.
//!
//! The trainer is judged alive by the pointer changing (its heartbeat rewrites it), timed
//! on this worker's monotonic clock: the player starts once it has seen one change, pauses
//! while none was seen for `stale_after`, and stops when the pointer says the run finished.
//! No clock of another machine is compared with this one's.

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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    /// Games played at once (`None`: the run config's `[selfplay] parallel_games`, at most
    /// 16 a thread).
    pub parallel_games: Option<usize>,
    /// Games per record file, each uploaded when complete (`None`: the run config's, at
    /// most a quarter of `parallel_games`).
    pub games_per_file: Option<usize>,
    /// A stop asked from outside the worker (Ctrl-C, a scheduler's SIGTERM).
    pub interrupt: Arc<Interrupt>,
}

/// A stop asked from outside the worker: the uploader makes its last pass over the finished
/// record files and says when it is done, so that a process ended by a signal (Slurm's
/// requeue, preemption or time limit) leaves no finished game behind while it has time.
#[derive(Debug, Default)]
pub struct Interrupt {
    asked: AtomicBool,
    drained: AtomicBool,
}

impl Interrupt {
    /// Asks the worker to stop (from a signal handler's thread).
    pub fn ask(&self) {
        self.asked.store(true, Ordering::SeqCst);
    }

    /// Waits until the uploader's last pass is over, at most `limit`; whether it is.
    pub fn wait_drained(&self, limit: Duration) -> bool {
        let t = std::time::Instant::now();
        while !self.drained.load(Ordering::SeqCst) && t.elapsed() < limit {
            std::thread::sleep(Duration::from_millis(20));
        }
        self.drained.load(Ordering::SeqCst)
    }
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
    /// No change of the pointer seen for this many seconds (this worker's clock).
    Paused {
        unchanged_for: f64,
    },
    /// A pointer older than one already seen (a trainer that was taken over): ignored.
    PointerBack {
        seen: (u64, u32),
        kept: (u64, u32),
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
    /// When the pointer was last seen to change (`None`: not since the start).
    changed: Option<Instant>,
    fatal: Option<DistError>,
}

/// Runs a worker until the run finishes, `max_games` are played, or an error.
pub fn run_worker(
    opts: &WorkerOptions,
    on_event: &(dyn Fn(WorkerEvent) + Sync),
) -> Result<u64, DistError> {
    let spool = Spool::open(&opts.spool, opts.store.name())?;
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
    // The worker's own sizes: the run config's are made for the trainer's machine. Games
    // played at once finish together, so a batch is the delay before the first upload:
    // at most 16 games a thread (network batches hardly gain past 16 on a CPU), in files
    // of a quarter batch.
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    };
    let mut sp = cfg.selfplay.clone();
    sp.parallel_games = opts
        .parallel_games
        .unwrap_or(sp.parallel_games.min(16 * threads))
        .max(1);
    sp.games_per_file = opts
        .games_per_file
        .unwrap_or(sp.games_per_file.min(sp.parallel_games.div_ceil(4)))
        .max(1);
    let per_file = sp.games_per_file as u64;
    let batch_games = (sp.parallel_games as u64).div_ceil(per_file) * per_file;
    let mut games = 0u64;
    let mut paused = false;
    loop {
        if opts.max_games.is_some_and(|m| games >= m) {
            return Ok(("played the games asked for", games));
        }
        let (pointer, ready, changed) = {
            let mut f = lock(follow);
            if let Some(e) = f.fatal.take() {
                return Err(e);
            }
            (f.pointer.clone(), f.ready, f.changed)
        };
        let (Some(p), Some(net)) = (pointer, ready) else {
            std::thread::sleep(opts.poll);
            continue;
        };
        if p.finished {
            return Ok(("the run finished", games));
        }
        let Some(changed) = changed else {
            on_event(WorkerEvent::Waiting {
                why: "the pointer has not changed since this worker started: waiting for the \
                      trainer's next heartbeat",
            });
            std::thread::sleep(opts.poll);
            continue;
        };
        let unchanged_for = changed.elapsed();
        if unchanged_for > opts.stale_after {
            if !paused {
                on_event(WorkerEvent::Paused {
                    unchanged_for: unchanged_for.as_secs_f64(),
                });
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
                let kept = lock(follow).pointer.as_ref().map(Pointer::order);
                if let Some(kept) = kept.filter(|&k| p.order() < k) {
                    on_event(WorkerEvent::PointerBack {
                        seen: p.order(),
                        kept,
                    });
                    sleep_unless(stop, opts.poll);
                    continue;
                }
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
                let mut f = lock(follow);
                if f.pointer.as_ref().is_some_and(|old| *old != p) {
                    f.changed = Some(Instant::now());
                }
                f.pointer = Some(p);
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

/// Uploads pending files until `stop` or an interrupt, then makes a last pass; returns the
/// files left.
fn uploader(
    opts: &WorkerOptions,
    spool: &Spool,
    stop: &AtomicBool,
    on_event: &(dyn Fn(WorkerEvent) + Sync),
) -> usize {
    let mut backoff = Duration::from_millis(500);
    let interrupt = &opts.interrupt;
    let stopping = || stop.load(Ordering::SeqCst) || interrupt.asked.load(Ordering::SeqCst);
    loop {
        let last = stopping();
        let mut failed = false;
        // Complete files of the batch in progress first: the trainer may take them now.
        for b in spool.building().unwrap_or_default() {
            match spool.upload_building(&opts.store, &b) {
                Ok(Some(key)) => {
                    on_event(WorkerEvent::Uploaded { key: &key });
                    backoff = Duration::from_millis(500);
                }
                Ok(None) => {}
                Err(e) => {
                    on_event(WorkerEvent::UploadFailed {
                        file: &b.stem,
                        error: e.to_string(),
                        retry_in: backoff.as_secs_f64(),
                    });
                    failed = true;
                    break;
                }
            }
        }
        for stem in spool.pending().unwrap_or_default() {
            if failed {
                break;
            }
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
            let left = spool.pending().map_or(0, |p| p.len());
            interrupt.drained.store(true, Ordering::SeqCst);
            return left;
        }
        if failed {
            sleep_while(&|| !stopping(), backoff);
            backoff = (backoff * 2).min(Duration::from_secs(60));
        } else {
            sleep_while(&|| !stopping(), opts.poll.min(Duration::from_millis(500)));
        }
    }
}

/// Sleeps `d`, waking early when `stop` is set.
fn sleep_unless(stop: &AtomicBool, d: Duration) {
    sleep_while(&|| !stop.load(Ordering::SeqCst), d);
}

/// Sleeps `d`, waking early once `go_on` says no.
fn sleep_while(go_on: &dyn Fn() -> bool, d: Duration) {
    let tick = Duration::from_millis(50);
    let mut slept = Duration::ZERO;
    while slept < d && go_on() {
        std::thread::sleep(tick.min(d - slept));
        slept += tick;
    }
}

#[cfg(test)]
#[path = "worker_tests.rs"]
mod tests;
