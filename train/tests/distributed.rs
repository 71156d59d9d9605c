//! A shared run end to end on `configs/tiny.toml` through a local directory: one trainer
//! with `--selfplay external`, one `crumble worker`, a corrupt file and a duplicate put in
//! by hand, a second trainer refused. (The same against a real S3 server:
//! `scripts/distributed-smoke.sh`.)

mod common;
use common::{crumble, selfplay_into, stderr};

use crumble_train::distributed::commit::Commit;
use crumble_train::ledger;
use crumble_train::store::{Location, Store};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn tiny() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../configs/tiny.toml")
}

fn fresh_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("crumble-dist-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn spawn(args: &[&str], log: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_crumble"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap()
}

/// `crumble train` of the run in `run` on `config` with `--selfplay external` (the workers
/// play), polling every 0.2 s, `extra` flags added; its stderr goes to `log`.
fn spawn_external_trainer(run: &str, config: &str, extra: &[&str], log: &Path) -> Child {
    let mut args = vec![
        "train",
        "--run-dir",
        run,
        "--config",
        config,
        "--selfplay",
        "external",
        "--poll",
        "0.2",
    ];
    args.extend_from_slice(extra);
    spawn(&args, log)
}

/// The arguments of `crumble worker` for the run in `run`, spooling to `spool`, one thread,
/// polling every 0.2 s, `extra` flags added.
fn worker_args<'a>(run: &'a str, spool: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["worker", "--run", run, "--spool", spool.to_str().unwrap()];
    args.extend(["--threads", "1", "--poll", "0.2"]);
    args.extend_from_slice(extra);
    args
}

fn wait_for(what: &str, timeout: Duration, mut f: impl FnMut() -> bool) {
    let t0 = Instant::now();
    while !f() {
        assert!(t0.elapsed() < timeout, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn wait_ok(child: &mut Child, log: &Path, what: &str) {
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let text = std::fs::read_to_string(log).unwrap_or_default();
            assert!(status.success(), "{what}: {status:?}\n{text}");
            return;
        }
        if t0.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            panic!(
                "{what} did not finish:\n{}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_trainer_and_a_worker_share_a_run_and_consume_each_file_at_most_once() {
    let dir = fresh_dir("run");
    let spool = fresh_dir("spool");
    let made = fresh_dir("made");
    let logs = fresh_dir("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let tiny = tiny();
    let cfg = tiny.to_str().unwrap();
    let run = dir.to_str().unwrap();

    let tlog = logs.join("trainer.log");
    let mut trainer =
        spawn_external_trainer(run, cfg, &["--generations", "2", "--heartbeat", "1"], &tlog);
    wait_for("the pointer", Duration::from_secs(120), || {
        if let Some(status) = trainer.try_wait().unwrap() {
            panic!(
                "the trainer stopped: {status:?}\n{}",
                std::fs::read_to_string(&tlog).unwrap_or_default()
            );
        }
        dir.join("latest.json").exists()
    });
    // By hand, before any worker runs: a valid record file uploaded twice under two keys
    // (the second is a duplicate), and a corrupt one.
    selfplay_into(&made, cfg, "mcts:uniform:8", "2", &["--threads", "1"]);
    let good = std::fs::read(made.join("selfplay-000000.crsp")).unwrap();
    let store = Store::open(&Location::Local(dir.clone())).unwrap();
    store
        .put("incoming/n0000/byhand/000001-0.crsp", good.clone())
        .unwrap();
    std::thread::sleep(Duration::from_millis(20));
    store
        .put("incoming/n0000/byhand/000002-0.crsp", good.clone())
        .unwrap();
    let mut corrupt = good.clone();
    let mid = corrupt.len() / 2;
    corrupt[mid] ^= 0x55;
    store
        .put("incoming/n0000/byhand/000003-0.crsp", corrupt)
        .unwrap();

    // A second trainer on the same run is refused while the first holds it.
    let o = crumble(&["train", "--run-dir", run, "--selfplay", "external"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("another trainer holds this run"),
        "{}",
        stderr(&o)
    );

    let wlog = logs.join("worker.log");
    let mut worker = spawn(&worker_args(run, &spool, &[]), &wlog);
    wait_ok(&mut trainer, &tlog, "the trainer");
    // The worker stops on its own once the pointer says the run finished.
    wait_ok(&mut worker, &wlog, "the worker");

    let rows = ledger::read(&dir.join("progress.csv")).unwrap();
    assert_eq!(rows.len(), 2);
    let commits: Vec<Commit> = (1..=2)
        .map(|g| {
            Commit::read(&store, g)
                .unwrap()
                .expect("a commit per generation")
        })
        .collect();
    // Every file used at most once, by key and by content; every used file was deleted
    // after its commit (its hash stays in the commit).
    let mut keys = BTreeSet::new();
    let mut hashes = BTreeSet::new();
    for (c, row) in commits.iter().zip(&rows) {
        let games: u64 = c.used.iter().map(|u| u.games).sum();
        assert!(games >= 4, "generation {} used {games} games", c.generation);
        assert_eq!(row.games, games as f64);
        let committed = c.row().expect("the commit holds the ledger's row");
        assert_eq!(
            (committed.generation, committed.games),
            (row.generation, row.games)
        );
        for u in &c.used {
            assert!(keys.insert(u.key.clone()), "{} used twice", u.key);
            assert!(
                hashes.insert(u.sha256.clone()),
                "{} bytes used twice",
                u.key
            );
            assert!(
                store.get(&u.key, 1 << 30).unwrap().is_none(),
                "{} still there after its commit",
                u.key
            );
        }
    }
    // The hand-made file was used once; its copy was set aside as a duplicate.
    let c1 = &commits[0];
    let pair = [
        "incoming/n0000/byhand/000001-0.crsp",
        "incoming/n0000/byhand/000002-0.crsp",
    ];
    let used: Vec<_> = c1
        .used
        .iter()
        .filter(|u| pair.contains(&u.key.as_str()))
        .collect();
    let dup: Vec<_> = c1
        .duplicates
        .iter()
        .filter(|d| pair.contains(&d.key.as_str()))
        .collect();
    assert_eq!((used.len(), dup.len()), (1, 1), "{c1:?}");
    // The commits name every checkpoint and replay file with its hash, and the audit
    // confirms them.
    assert!(
        c1.files
            .iter()
            .any(|f| f.key == "checkpoints/gen-0001/net.crnet"),
        "{c1:?}"
    );
    let o = crumble(&["store-check", "--audit", run]);
    assert!(o.status.success(), "{}", stderr(&o));
    let audit = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        audit.contains("audit ok: 2 committed generations"),
        "{audit}"
    );
    // The corrupt file is in quarantine, out of incoming/, and named in the ledger.
    assert!(
        c1.quarantined
            .iter()
            .any(|q| q.key == "incoming/n0000/byhand/000003-0.crsp"),
        "{c1:?}"
    );
    assert!(dir.join("quarantine/n0000/byhand/000003-0.crsp").exists());
    assert!(!dir.join("incoming/n0000/byhand/000003-0.crsp").exists());
    let q = std::fs::read_to_string(dir.join("quarantine.csv")).unwrap();
    assert!(q.contains("1,incoming/n0000/byhand/000003-0.crsp,"), "{q}");
    // Nothing the worker finished is left behind, and the lock was released.
    let pending: Vec<_> = std::fs::read_dir(spool.join("pending")).unwrap().collect();
    assert!(pending.is_empty(), "{pending:?}");
    assert!(!dir.join("trainer.lock").exists());
    let pointer = std::fs::read_to_string(dir.join("latest.json")).unwrap();
    assert!(pointer.contains("\"finished\": true"), "{pointer}");
    for d in [&dir, &spool, &made, &logs] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_worker_follows_pointer_changes_not_clocks_and_refuses_an_unknown_protocol() {
    let dir = fresh_dir("stale-run");
    let spool = fresh_dir("stale-spool");
    let logs = fresh_dir("stale-logs");
    std::fs::create_dir_all(&logs).unwrap();
    let tiny = tiny();
    let run = dir.to_str().unwrap();
    // A trainer publishes its pointer, then dies: its heartbeat stops.
    let tlog = logs.join("trainer.log");
    let mut trainer = spawn_external_trainer(run, tiny.to_str().unwrap(), &[], &tlog);
    wait_for("the pointer", Duration::from_secs(120), || {
        dir.join("latest.json").exists()
    });
    trainer.kill().unwrap();
    trainer.wait().unwrap();
    let pointer = dir.join("latest.json");
    let mut p: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&pointer).unwrap()).unwrap();

    let wlog = logs.join("worker.log");
    let args = worker_args(run, &spool, &["--stale-after", "3", "--games", "2"]);
    let mut worker = spawn(&args, &wlog);
    wait_for("the wait", Duration::from_secs(60), || {
        std::fs::read_to_string(&wlog)
            .is_ok_and(|l| l.contains("the pointer has not changed since this worker started"))
    });
    // A pointer that never changes is a dead trainer: nothing is played.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(worker.try_wait().unwrap().is_none(), "the worker exited");
    assert!(
        !dir.join("incoming").exists(),
        "a worker of a dead trainer uploaded games"
    );
    // A live trainer whose clock is an hour behind the worker's (or the worker's an hour
    // ahead): its heartbeats change the pointer, and the worker plays and uploads.
    let beats = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let beating = {
        let (beats, pointer, mut p) = (beats.clone(), pointer.clone(), p.clone());
        std::thread::spawn(move || {
            let mut t = p["heartbeat"].as_f64().unwrap() - 3600.0;
            while beats.load(std::sync::atomic::Ordering::SeqCst) {
                t += 0.5;
                p["heartbeat"] = t.into();
                let tmp = pointer.with_extension("tmp");
                std::fs::write(&tmp, serde_json::to_vec(&p).unwrap()).unwrap();
                std::fs::rename(&tmp, &pointer).unwrap();
                std::thread::sleep(Duration::from_millis(500));
            }
        })
    };
    wait_ok(&mut worker, &wlog, "the worker");
    beats.store(false, std::sync::atomic::Ordering::SeqCst);
    beating.join().unwrap();
    let uploaded = std::fs::read_to_string(&wlog).unwrap();
    assert!(uploaded.contains("uploaded incoming/n0000/"), "{uploaded}");

    p["protocol"] = 7.into();
    std::fs::write(&pointer, serde_json::to_vec(&p).unwrap()).unwrap();
    let o = crumble(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("latest.json speaks protocol 7; this crumble knows protocol 2"),
        "{}",
        stderr(&o)
    );
    for d in [&dir, &spool, &logs] {
        std::fs::remove_dir_all(d).unwrap();
    }
}
