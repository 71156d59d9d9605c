//! `crumble worker --run LOCATION [--spool DIR] [--threads T] [--games N]`: a self-play
//! worker of a shared run (`crumble_train::distributed::worker`), with a line per event on
//! stderr (progress at most every 10 seconds). The hidden `--synthetic RATE --synthetic-from
//! PATH` uploads copies of ready-made record files instead of playing
//! (`crumble_train::distributed::synthetic`), to measure a trainer's intake.

use crumble_train::distributed::synthetic::{SyntheticOptions, run_synthetic};
use crumble_train::distributed::worker::{WorkerEvent, WorkerOptions, run_worker};
use crumble_train::store::{Location, Store};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The run's location: its directory (or a shared filesystem's), or s3://BUCKET/PREFIX
    /// (built with --features s3; credentials and endpoint from AWS_* variables).
    #[arg(long, value_name = "LOCATION")]
    run: String,
    /// The local spool: finished files wait here until uploaded, and survive a crash. One
    /// per worker process. Default: worker-spool/ in the working directory.
    #[arg(long, value_name = "DIR", default_value = "worker-spool")]
    spool: PathBuf,
    /// Self-play threads (0 = one per core).
    #[arg(long, default_value_t = 0, value_parser = crate::cli::threads_arg)]
    threads: usize,
    /// Stop after this many games, in whole batches (default: when the run finishes).
    #[arg(long, value_name = "N", value_parser = crate::cli::positive::<u64>)]
    games: Option<u64>,
    /// Seconds between looks at the pointer.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0, value_parser = crate::cli::seconds_arg)]
    poll: f64,
    /// Pause while the pointer has not changed (the trainer's heartbeat rewrites it) for
    /// this many seconds, timed on this machine's monotonic clock.
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0, value_parser = crate::cli::seconds_arg)]
    stale_after: f64,
    /// Games played at once (default: the run config's [selfplay] parallel_games, at most
    /// 16 a self-play thread). They finish together: a batch is the delay before the first
    /// upload.
    #[arg(long, value_name = "N", value_parser = crate::cli::positive::<usize>)]
    parallel_games: Option<usize>,
    /// Games per record file; each file is uploaded as soon as it is complete (default: the
    /// run config's [selfplay] games_per_file, at most a quarter of --parallel-games).
    #[arg(long, value_name = "N", value_parser = crate::cli::positive::<usize>)]
    games_per_file: Option<usize>,
    /// Testing: upload copies of the record files of --synthetic-from at RATE files per
    /// second per worker instead of playing.
    #[arg(long, value_name = "RATE", hide = true, requires = "synthetic_from")]
    synthetic: Option<f64>,
    #[arg(long, value_name = "PATH", hide = true)]
    synthetic_from: Option<PathBuf>,
    /// Testing: synthetic workers in this process.
    #[arg(long, value_name = "N", hide = true, default_value_t = 1)]
    synthetic_workers: usize,
    /// Testing: synthetic files to send in all (default: until the run finishes).
    #[arg(long, value_name = "N", hide = true)]
    synthetic_files: Option<u64>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let store = Store::open(&Location::parse(&a.run)?)?;
    if let (Some(rate), Some(source)) = (a.synthetic, &a.synthetic_from) {
        super::on_interrupt("the files uploaded so far stay in the store".into())?;
        if !(rate > 0.0 && rate.is_finite()) {
            anyhow::bail!("--synthetic {rate}: the rate is files per second, above 0");
        }
        let opts = SyntheticOptions {
            store,
            source: source.clone(),
            rate,
            workers: a.synthetic_workers,
            max_files: a.synthetic_files,
            poll: Duration::from_secs_f64(a.poll),
        };
        let (files, games) = run_synthetic(&opts, &|_| {})?;
        eprintln!("worker: synthetic: {files} files ({games} games) uploaded");
        return Ok(ExitCode::SUCCESS);
    }
    let opts = WorkerOptions {
        store,
        spool: a.spool.clone(),
        threads: a.threads,
        poll: Duration::from_secs_f64(a.poll),
        stale_after: Duration::from_secs_f64(a.stale_after),
        max_games: a.games,
        parallel_games: a.parallel_games,
        games_per_file: a.games_per_file,
        interrupt: Arc::default(),
    };
    // Ctrl-C or SIGTERM (Slurm's requeue, preemption or time limit, which waits 30 s by
    // default before SIGKILL): the finished files are uploaded first, then the worker exits.
    let interrupt = opts.interrupt.clone();
    let spool = a.spool.display().to_string();
    ctrlc::set_handler(move || {
        eprintln!("\ninterrupted: uploading the finished record files first (at most 20 s)");
        interrupt.ask();
        let done = interrupt.wait_drained(Duration::from_secs(20));
        let sent = if done {
            "finished files are uploaded; "
        } else {
            ""
        };
        eprintln!(
            "interrupted: {sent}files not yet uploaded stay in {spool} and are uploaded when a \
             worker starts with this spool again; the batch in progress goes on from its \
             finished games"
        );
        std::process::exit(130);
    })
    .map_err(|e| anyhow::anyhow!("cannot catch Ctrl-C: {e}"))?;
    let last = Mutex::new(Instant::now() - Duration::from_secs(60));
    let games = run_worker(&opts, &|e| say(e, &last))?;
    eprintln!("worker: done, {games} games played");
    Ok(ExitCode::SUCCESS)
}

fn say(e: WorkerEvent, last: &Mutex<Instant>) {
    let line = match e {
        WorkerEvent::Started {
            id,
            resumed_uploads,
        } => format!("worker {id} started ({resumed_uploads} files in the spool to upload)"),
        WorkerEvent::Waiting { why } => {
            let mut l = last.lock().unwrap_or_else(|p| p.into_inner());
            if l.elapsed() < Duration::from_secs(10) {
                return;
            }
            *l = Instant::now();
            format!("waiting: {why}")
        }
        WorkerEvent::Paused { unchanged_for } => format!(
            "paused: the pointer has not changed for {unchanged_for:.0} s (no heartbeat of the \
             trainer); going on when it changes again"
        ),
        WorkerEvent::PointerBack { seen, kept } => format!(
            "ignored a pointer of epoch {} generation {}: older than epoch {} generation {} \
             seen before (a trainer that was taken over)",
            seen.0, seen.1, kept.0, kept.1
        ),
        WorkerEvent::Net { net, generation } => {
            format!("network {net} ready (trainer at generation {generation})")
        }
        WorkerEvent::Batch { name, net, games } => {
            format!("batch {name}: {games} games with network {net}")
        }
        WorkerEvent::SelfPlay { progress } => {
            let mut l = last.lock().unwrap_or_else(|p| p.into_inner());
            if l.elapsed() < Duration::from_secs(10) {
                return;
            }
            *l = Instant::now();
            format!(
                "selfplay: {}/{} games, {} simulations",
                progress.games_done, progress.games_total, progress.simulations
            )
        }
        WorkerEvent::Played {
            name,
            files,
            games_total,
        } => format!("batch {name} finished: {files} files spooled, {games_total} games in all"),
        WorkerEvent::Uploaded { key } => format!("uploaded {key}"),
        WorkerEvent::UploadFailed {
            file,
            error,
            retry_in,
        } => format!("upload of {file} failed ({error}); retrying in {retry_in:.1} s"),
        WorkerEvent::NetFailed { error } => format!("pointer or network: {error}; retrying"),
        WorkerEvent::Stopped {
            why,
            games,
            left_in_spool,
        } => format!(
            "stopping: {why} ({games} games; {left_in_spool} files left in the spool for the next start)"
        ),
    };
    eprintln!("worker: {}", crate::cli::text::escape_controls(&line));
}
