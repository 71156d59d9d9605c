//! Tests of the trainer's side: fencing, gaps, lost acknowledgements, recovery.

use super::*;
use crate::store::Location;

#[test]
fn an_empty_working_copy_is_filled_with_the_run_but_not_the_uploads() {
    let base = std::env::temp_dir().join(format!(
        "crumble-syncdown-{}-{}",
        std::process::id(),
        conformance::unique_id()
    ));
    let store = Store::open(&Location::Local(base.join("store"))).unwrap();
    for (k, v) in [
        ("config.toml", "cfg"),
        ("progress.csv", "rows"),
        ("checkpoints/gen-0000/net.crnet", "net"),
        ("replay/gen-0001/selfplay-000000.crsp", "games"),
        ("tb/events.out.tfevents.1", "tb"),
        ("incoming/w1/n0000-000000-0.crsp", "upload"),
        ("commits/gen-0001.json", "{}"),
    ] {
        store.put(k, v.as_bytes().to_vec()).unwrap();
    }
    let copy = base.join("copy");
    sync_down(&store, &copy).unwrap();
    let read = |k: &str| std::fs::read_to_string(copy.join(k)).ok();
    assert_eq!(read("config.toml").as_deref(), Some("cfg"));
    assert_eq!(
        read("checkpoints/gen-0000/net.crnet").as_deref(),
        Some("net")
    );
    assert_eq!(
        read("replay/gen-0001/selfplay-000000.crsp").as_deref(),
        Some("games")
    );
    assert_eq!(read("tb/events.out.tfevents.1").as_deref(), Some("tb"));
    assert!(!copy.join("incoming").exists() && !copy.join("commits").exists());
    // A working copy that holds a run is left as it is.
    store.put("config.toml", b"changed".to_vec()).unwrap();
    sync_down(&store, &copy).unwrap();
    assert_eq!(read("config.toml").as_deref(), Some("cfg"));
    std::fs::remove_dir_all(base).unwrap();
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "crumble-trainer-{name}-{}-{}",
        std::process::id(),
        conformance::unique_id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn shared(store: &Store, take_over: bool) -> Shared {
    Shared {
        store: store.clone(),
        external: true,
        max_lag: 1,
        intake_cap: None,
        poll: Duration::from_millis(10),
        heartbeat: Duration::from_millis(200),
        take_over,
    }
}

fn commit(g: u32, epoch: u64) -> Commit {
    let mut row = Row::new(g);
    row.games = 4.0;
    row.best_net = f64::from(g);
    let mut c = Commit {
        protocol: PROTOCOL,
        epoch,
        generation: g,
        used: Vec::new(),
        duplicates: Vec::new(),
        quarantined: Vec::new(),
        dropped: Vec::new(),
        files: Vec::new(),
        row: Vec::new(),
    };
    c.set_row(&row);
    c
}

/// A run directory with `rows` finished generations, each committed in `store`, and
/// the initial network.
fn run_with(dir: &Path, store: &Store, rows: u32) {
    std::fs::create_dir_all(dir).unwrap();
    let csv = dir.join("progress.csv");
    ledger::create(&csv).unwrap();
    let fence = Fence::take(store, 0).unwrap();
    for g in 1..=rows {
        let c = commit(g, fence.epoch());
        c.write(store, &fence).unwrap();
        ledger::append(&csv, &c.row().unwrap()).unwrap();
    }
    let net = crate::run::checkpoint_path(dir, 0);
    std::fs::create_dir_all(net.parent().unwrap()).unwrap();
    std::fs::write(net, b"net").unwrap();
}

#[test]
fn a_trainer_that_was_taken_over_stops_without_writing() {
    let dir = temp("zombie");
    let store = Store::open(&Location::Local(dir.clone())).unwrap();
    run_with(&dir, &store, 0);
    let mut a = TrainerSide::start(shared(&store, false), &dir).unwrap();
    a.open(&dir, "cfg", 0, 0, false).unwrap();
    assert_eq!(a.epoch(), 2);
    // A is frozen; B takes the run over and publishes.
    let mut b = TrainerSide::start(shared(&store, true), &dir).unwrap();
    assert_eq!(b.epoch(), 3);
    b.open(&dir, "cfg", 0, 0, false).unwrap();
    b.stop_heartbeat();
    let before = std::fs::read(dir.join("latest.json")).unwrap();
    // A wakes: its heartbeat stops at the first beat, every write is refused.
    std::thread::sleep(Duration::from_millis(500));
    let e = a.fenced().unwrap_err().to_string();
    assert!(
        e.contains("trainer epoch 3 exists, this trainer holds epoch 2"),
        "{e}"
    );
    let row = commit(1, 2).row().unwrap();
    assert!(a.before_row(&dir, 1, &row).is_err());
    assert!(a.after_row(&dir, "cfg", 1, 0, false).is_err());
    let p = Pointer::read(&store).unwrap().unwrap();
    assert_eq!(p.order(), (3, 0));
    assert!(!store.exists(&commit::commit_key(1)).unwrap());
    drop(a);
    // A's drop left B's lock alone.
    assert!(dir.join(super::super::LOCK_KEY).exists());
    assert_eq!(std::fs::read(dir.join("latest.json")).unwrap(), before);
    drop(b);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_commit_hidden_from_the_store_is_a_gap_named_by_key() {
    let dir = temp("gap");
    let inner = Store::open(&Location::Local(dir.join("store"))).unwrap();
    run_with(&dir.join("run"), &inner, 3);
    let faulty = Arc::new(crate::store::testing::Faulty::new(inner));
    let store = Store::from_backend(faulty.clone(), "faulty");
    // Missing from listings only: commits are read by key, so nothing is wrong.
    faulty.unlisted.lock().unwrap().push(commit::commit_key(3));
    let side = TrainerSide::start(shared(&store, false), &dir.join("run")).unwrap();
    // Networks 2 and 3 are fresh: only generation 3's commit can name their files.
    assert_eq!(side.consumed.len(), 1);
    drop(side);
    // Gone altogether: refused, naming the key.
    faulty.hidden.lock().unwrap().push(commit::commit_key(3));
    let e = TrainerSide::start(shared(&store, false), &dir.join("run"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("commits/gen-0003.json is missing"), "{e}");
    assert!(e.contains("the ledger holds 3 generations"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_lost_acknowledgement_of_its_own_commit_is_not_another_trainer() {
    let dir = temp("ack");
    let inner = Store::open(&Location::Local(dir.join("store"))).unwrap();
    run_with(&dir.join("run"), &inner, 0);
    let faulty = Arc::new(crate::store::testing::Faulty::new(inner.clone()));
    let store = Store::from_backend(faulty.clone(), "faulty");
    let fence = Fence::take(&store, 0).unwrap();
    faulty.ack_lost.lock().unwrap().push("commits/".into());
    // The create went through and reported an error: recognised by content.
    commit(1, fence.epoch()).write(&store, &fence).unwrap();
    // Another trainer's commit of the same generation is still refused.
    let e = commit(1, fence.epoch() + 1)
        .write(&store, &fence)
        .unwrap_err()
        .to_string();
    assert!(e.contains("another trainer committed generation 1"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_store_ahead_of_the_working_copy_is_refused() {
    let dir = temp("ahead");
    let store = Store::open(&Location::Local(dir.clone())).unwrap();
    run_with(&dir, &store, 1);
    let fence = Fence::take(&store, 0).unwrap();
    commit(2, fence.epoch()).write(&store, &fence).unwrap();
    commit(3, fence.epoch()).write(&store, &fence).unwrap();
    let e = TrainerSide::start(shared(&store, false), &dir)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the store holds generation 3, this working copy 1"),
        "{e}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_commit_without_its_ledger_row_gives_the_row_on_resume() {
    let dir = std::env::temp_dir().join(format!(
        "crumble-recover-{}-{}",
        std::process::id(),
        conformance::unique_id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("progress.csv");
    ledger::create(&csv).unwrap();
    let store = Store::open(&Location::Local(dir.clone())).unwrap();
    // Generation 1 committed in the store, killed before its row; generation 2's
    // gathered games were on their way when the trainer died.
    let mut row = Row::new(1);
    row.games = 4.0;
    row.best_net = 1.0;
    let mut c = commit(1, 0);
    c.set_row(&row);
    let fence = Fence::take(&store, 0).unwrap();
    c.write(&store, &fence).unwrap();
    let gen2 = crate::replay::generation_dir(&dir, 2);
    std::fs::create_dir_all(&gen2).unwrap();
    let side = TrainerSide::start(shared(&store, false), &dir).unwrap();
    let rows = ledger::read(&csv).unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].generation, rows[0].games), (1.0, 4.0));
    assert!(!gen2.exists());
    // The generation is committed: a second commit of it (by this trainer's epoch, so
    // other bytes) is refused.
    c.epoch = side.epoch();
    let e = c.write(&store, &side.fence).unwrap_err().to_string();
    assert!(e.contains("another trainer committed generation 1"), "{e}");
    drop(side);
    assert!(!dir.join(super::super::LOCK_KEY).exists());
    std::fs::remove_dir_all(dir).unwrap();
}

/// A trainer stopped after mirroring a generation's files but before its commit (its
/// commit's create fails, so it stops where a kill would leave it), restarted with other
/// settings (another intake cap and lag) after more games arrived: the generation is made
/// again from other games, the store holds the new files (not the first attempt's), the
/// audit confirms every hash against the commit, and the pointer names the new network.
#[test]
fn a_trainer_stopped_between_mirror_and_commit_restarts_with_other_settings() {
    use super::super::synthetic::{SyntheticOptions, run_synthetic};
    use crate::run::{TrainOptions, train, train_shared};
    let base = temp("mirror-commit");
    let tiny = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../configs/tiny.toml");
    // Valid record files of the run's game and grid: a local run's first generation.
    let src = base.join("src");
    let local = |dir: &Path, generations| TrainOptions {
        config: Some(tiny.clone()),
        run_dir: Some(dir.to_path_buf()),
        runs_root: base.clone(),
        generations: Some(generations),
        cpu_budget_s: None,
    };
    train(&local(&src, 1), &mut |_| {}).unwrap();
    let upload = |store: &Store, files: u64| {
        let opts = SyntheticOptions {
            store: store.clone(),
            source: crate::replay::generation_dir(&src, 1),
            rate: 1000.0,
            workers: 1,
            max_files: Some(files),
            poll: Duration::from_millis(20),
        };
        run_synthetic(&opts, &|_| {}).unwrap()
    };
    let inner = Store::open(&Location::Local(base.join("store"))).unwrap();
    let faulty = Arc::new(crate::store::testing::Faulty::new(inner.clone()));
    faulty.refused.lock().unwrap().push("commits/".into());
    let store_a = Store::from_backend(faulty, "faulty");
    let copy = base.join("copy");
    let net_key = "checkpoints/gen-0001/net.crnet";

    // Trainer A: its pointer out, two files in, generation 1 trained and mirrored, then
    // the commit fails. (A aims at 2 generations: the gather of a run's last generation
    // tells workers to stop, and this one's should not.)
    let a = {
        let (copy, store_a) = (copy.clone(), store_a.clone());
        let opts = local(&copy, 2);
        std::thread::spawn(move || {
            let mut sh = shared(&store_a, false);
            sh.poll = Duration::from_millis(20);
            train_shared(&opts, Some(&sh), &mut |_| {})
        })
    };
    upload(&inner, 2);
    let e = a.join().unwrap().unwrap_err().to_string();
    assert!(e.contains("connection reset"), "{e}");
    let first = inner
        .get(net_key, u64::MAX)
        .unwrap()
        .expect("mirrored before the commit");
    assert!(!inner.exists(&commit::commit_key(1)).unwrap());

    // More games arrive; trainer B starts on A's working copy with other settings.
    upload(&inner, 3);
    let mut sh = shared(&inner, false);
    sh.poll = Duration::from_millis(20);
    sh.max_lag = 2;
    sh.intake_cap = Some(1000);
    train_shared(&local(&copy, 1), Some(&sh), &mut |_| {}).unwrap();

    let audit = super::super::audit::audit(&inner).unwrap();
    assert_eq!(audit.generations, 1);
    assert_eq!(audit.used_files, 5, "A's files and the new ones, each once");
    assert!(
        audit.generation_files >= 2,
        "checkpoint and replay files confirmed"
    );
    let second = inner.get(net_key, u64::MAX).unwrap().unwrap();
    assert_ne!(first, second, "the store holds the generation made again");
    let p = Pointer::read(&inner).unwrap().unwrap();
    assert_eq!((p.net, p.generation), (1, 1));
    assert_eq!(
        p.sha256,
        sha256_hex(&second),
        "workers take the new network"
    );
    std::fs::remove_dir_all(base).unwrap();
}

/// A shared run's CPU time is its trainer's alone, so it takes no CPU budget: refused before
/// anything is read or written.
#[test]
fn a_cpu_budget_is_refused_for_a_shared_run() {
    use crate::run::{TrainError, TrainOptions, train_shared};
    let base = temp("budget");
    let store = Store::open(&Location::Local(base.join("store"))).unwrap();
    let opts = TrainOptions {
        config: Some(
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../configs/tiny.toml"),
        ),
        run_dir: Some(base.join("copy")),
        runs_root: base.clone(),
        generations: Some(1),
        cpu_budget_s: Some(3600.0),
    };
    let e = train_shared(&opts, Some(&shared(&store, false)), &mut |_| {}).unwrap_err();
    assert!(matches!(e, TrainError::SharedCpuBudget), "{e}");
    assert!(!base.join("copy").exists(), "nothing written");
    std::fs::remove_dir_all(base).unwrap();
}

#[test]
fn the_last_gather_tells_workers_to_stop_before_the_last_commit() {
    let dir = temp("close");
    let store = Store::open(&Location::Local(dir.clone())).unwrap();
    run_with(&dir, &store, 0);
    let mut side = TrainerSide::start(shared(&store, false), &dir).unwrap();
    side.open(&dir, "cfg", 0, 0, false).unwrap();
    assert!(!Pointer::read(&store).unwrap().unwrap().finished);
    side.close_intake().unwrap();
    let p = Pointer::read(&store).unwrap().unwrap();
    assert!(p.finished, "workers would go on playing");
    assert_eq!(p.order(), (2, 0), "the pointer still names the last commit");
    // No heartbeat rewrites it any more.
    let before = std::fs::read(dir.join("latest.json")).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(std::fs::read(dir.join("latest.json")).unwrap(), before);
    drop(side);
    std::fs::remove_dir_all(dir).unwrap();
}
