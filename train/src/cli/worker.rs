//! `crumble worker --run LOCATION [--spool DIR] [--threads T] [--games N]`: a self-play
//! worker of a shared run (`crumble_train::distributed::worker`), with a line per event on
//! stderr (progress at most every 10 seconds).

use crumble_train::distributed::worker::{WorkerEvent, WorkerOptions, run_worker};
use crumble_train::store::{Location, Store};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
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
    /// Pause while the trainer's heartbeat is older than this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0, value_parser = crate::cli::seconds_arg)]
    stale_after: f64,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    super::on_interrupt(format!(
        "finished files not yet uploaded stay in {} and are uploaded when a worker starts \
         with this spool again; the batch in progress goes on from its finished games",
        a.spool.display()
    ))?;
    let store = Store::open(&Location::parse(&a.run)?)?;
    let opts = WorkerOptions {
        store,
        spool: a.spool.clone(),
        threads: a.threads,
        poll: Duration::from_secs_f64(a.poll),
        stale_after: Duration::from_secs_f64(a.stale_after),
        max_games: a.games,
    };
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
        WorkerEvent::Paused { heartbeat_age } => format!(
            "paused: the trainer's last heartbeat is {heartbeat_age:.0} s old; going on when it beats again"
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
