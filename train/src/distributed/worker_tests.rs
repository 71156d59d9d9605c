//! Tests of the worker: the pointer follower and the uploader's last pass.

use super::*;
use crate::distributed::{POINTER_KEY, PROTOCOL};
use crate::store::Location;

fn pointer(epoch: u64, generation: u32, heartbeat: f64) -> Pointer {
    Pointer {
        protocol: PROTOCOL,
        epoch,
        generation,
        net: 0,
        checkpoint: "checkpoints/gen-0000/net.crnet".into(),
        sha256: "00".into(),
        config: String::new(),
        heartbeat,
        finished: false,
    }
}

/// A fresh directory `name` holding a store and a spool, and a worker's options on them.
fn worker_in(name: &str, poll: Duration) -> (PathBuf, Store, Spool, WorkerOptions) {
    let base = std::env::temp_dir().join(format!(
        "crumble-{name}-{}-{}",
        std::process::id(),
        crate::store::conformance::unique_id()
    ));
    let store = Store::open(&Location::Local(base.join("store"))).unwrap();
    let spool = Spool::open(&base.join("spool"), store.name()).unwrap();
    let opts = WorkerOptions {
        store: store.clone(),
        spool: base.join("spool"),
        threads: 1,
        poll,
        stale_after: Duration::from_secs(60),
        max_games: None,
        parallel_games: None,
        games_per_file: None,
        interrupt: Arc::default(),
    };
    (base, store, spool, opts)
}

#[test]
fn the_follower_ignores_a_pointer_that_goes_back_and_times_changes_itself() {
    let (base, store, spool, opts) = worker_in("follower", Duration::from_millis(20));
    let put = |p: &Pointer| {
        store
            .put(POINTER_KEY, serde_json::to_vec(p).unwrap())
            .unwrap()
    };
    let seen = |f: &Mutex<Follow>| lock(f).pointer.as_ref().map(Pointer::order);
    let wait = |f: &Mutex<Follow>, want: (u64, u32)| {
        for _ in 0..500 {
            if seen(f) == Some(want) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the follower never took {want:?}");
    };
    let follow = Mutex::new(Follow::default());
    let stop = AtomicBool::new(false);
    let back = std::sync::atomic::AtomicU32::new(0);
    std::thread::scope(|s| {
        s.spawn(|| {
            follower(&opts, &spool, &follow, &stop, &|e| {
                if let WorkerEvent::PointerBack { .. } = e {
                    back.fetch_add(1, Ordering::SeqCst);
                }
            })
        });
        // A heartbeat far in the past (another machine's clock) is no reason to wait.
        put(&pointer(2, 3, 1.0));
        wait(&follow, (2, 3));
        assert!(
            lock(&follow).changed.is_none(),
            "first sight is not a change"
        );
        put(&pointer(2, 3, 2.0));
        for _ in 0..500 {
            if lock(&follow).changed.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            lock(&follow).changed.is_some(),
            "a new heartbeat is a change"
        );
        // A trainer that was taken over writes its older pointer: ignored.
        put(&pointer(1, 9, 3.0));
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(seen(&follow), Some((2, 3)));
        assert!(back.load(Ordering::SeqCst) > 0);
        // A newer epoch goes on from any generation.
        put(&pointer(3, 3, 4.0));
        wait(&follow, (3, 3));
        stop.store(true, Ordering::SeqCst);
    });
    drop(spool);
    std::fs::remove_dir_all(base).unwrap();
}

/// An interrupt (a scheduler's SIGTERM) makes the uploader send every finished file,
/// then say it is done, while the batch in progress is left to resume.
#[test]
fn an_interrupt_uploads_the_finished_files_first() {
    let (base, store, spool, opts) = worker_in("drain", Duration::from_secs(3600));
    // Two finished batches of record files waiting for upload.
    for seq in [1, 2] {
        let batch = spool.new_batch(0, seq).unwrap();
        std::fs::write(batch.join("selfplay-000000.crsp"), format!("games {seq}")).unwrap();
        spool.finish_batch(&batch).unwrap();
    }
    assert_eq!(spool.pending().unwrap().len(), 2);
    let stop = AtomicBool::new(false);
    let left = std::thread::scope(|s| {
        let up = s.spawn(|| uploader(&opts, &spool, &stop, &|_| {}));
        assert!(!opts.interrupt.wait_drained(Duration::from_millis(300)));
        opts.interrupt.ask();
        assert!(opts.interrupt.wait_drained(Duration::from_secs(30)));
        up.join().unwrap()
    });
    assert_eq!(left, 0);
    assert!(spool.pending().unwrap().is_empty());
    assert_eq!(store.list("incoming/").unwrap().len(), 2);
    drop(spool);
    std::fs::remove_dir_all(base).unwrap();
}
