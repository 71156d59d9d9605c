//! End-to-end tests of `crumble train` on `configs/tiny.toml`: a run, its resume, its files
//! and logs, runs killed with SIGKILL and resumed, and bad input.

mod common;
use common::{crumble, write_in};

use crumble_train::ledger::{self, COLUMNS};
use crumble_train::tb::{event_files, read_event_file};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn tiny() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../configs/tiny.toml")
}

fn fresh_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("crumble-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "exit {:?}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
}

fn train(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["train", "--run-dir", dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    crumble(&args)
}

fn files_under(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out
}

/// Every scalar in the run's event files, by tag: (step, value).
fn scalars(dir: &Path) -> BTreeMap<String, Vec<(i64, f32)>> {
    let mut by_tag: BTreeMap<String, Vec<(i64, f32)>> = BTreeMap::new();
    let files = event_files(&dir.join("tb")).unwrap();
    assert!(!files.is_empty(), "no event files");
    for f in files {
        // A kill between creating an event file and writing its first record leaves it
        // empty; TensorBoard reads such a file as no events, and the generation is logged
        // again when it is redone.
        if std::fs::metadata(&f).unwrap().len() == 0 {
            continue;
        }
        let ev = read_event_file(&f).unwrap();
        assert_eq!(ev.file_version.as_deref(), Some("brain.Event:2"), "{f:?}");
        for s in ev.scalars {
            assert!(s.value.is_finite(), "{}: {}", s.tag, s.value);
            assert!(s.wall_time > 1.6e9, "wall time {}", s.wall_time);
            by_tag.entry(s.tag).or_default().push((s.step, s.value));
        }
    }
    by_tag
}

/// Checks that generations `1..=n` are complete and consistent.
/// With `cleaned`, no temporary file may be left (a killed run leaves some until resumed).
fn check_complete(dir: &Path, n: usize) {
    check_generations(dir, n, true)
}

fn check_generations(dir: &Path, n: usize, cleaned: bool) {
    let rows = ledger::read(&dir.join("progress.csv")).unwrap();
    assert_eq!(rows.len(), n);
    for (i, r) in rows.iter().enumerate() {
        let g = i as u32 + 1;
        assert_eq!(r.generation, f64::from(g));
        assert_eq!(r.games, 4.0, "gen {g}: the tiny config plays 4 games");
        let ck = dir.join(format!("checkpoints/gen-{g:04}/net.crnet"));
        crumble_model::checkpoint::load(&ck, &crumble_model::default_device()).unwrap();
        let games = crumble_train::replay::read_generation(&dir.join(format!("replay/gen-{g:04}")))
            .unwrap();
        assert_eq!(games.len(), 4, "gen {g}");
        for rec in &games {
            rec.replay::<crumble_core::games::crumble::Crumble>()
                .unwrap();
        }
    }
    assert!(dir.join("checkpoints/gen-0000/net.crnet").exists());
    if cleaned {
        for f in files_under(dir) {
            assert!(!f.ends_with(".tmp"), "temporary file left: {f}");
        }
    }
}

#[test]
fn tiny_run_then_resume_grows_every_file_and_logs_measured_scalars() {
    let dir = fresh_dir("resume");
    ok(&train(&dir, &["--config", tiny().to_str().unwrap()]));
    check_complete(&dir, 2);
    let before = files_under(&dir);
    for want in [
        "config.toml",
        "progress.csv",
        "checkpoints/gen-0000/net.crnet",
        "checkpoints/gen-0002/net.crnet",
        "checkpoints/gen-0002/net.json",
        "checkpoints/gen-0002/optimizer.bpk",
        "replay/gen-0002/selfplay-000000.crsp",
        "replay/gen-0002/selfplay-000000.txt",
    ] {
        assert!(before.contains(want), "missing {want}: {before:?}");
    }
    let csv_before = std::fs::read_to_string(dir.join("progress.csv")).unwrap();

    // Resume to 3 generations: the saved config is used, earlier files stay as they were.
    ok(&train(&dir, &["--generations", "3"]));
    check_complete(&dir, 3);
    let after = files_under(&dir);
    assert!(before.is_subset(&after));
    for want in [
        "checkpoints/gen-0003/net.crnet",
        "replay/gen-0003/selfplay-000000.crsp",
    ] {
        assert!(after.contains(want), "missing {want}");
    }
    let csv_after = std::fs::read_to_string(dir.join("progress.csv")).unwrap();
    assert!(csv_after.starts_with(&csv_before), "earlier rows changed");
    // Without --generations the target is the config's 2, fewer than the run has: it says
    // so and how to continue, and changes nothing.
    let o = train(&dir, &[]);
    ok(&o);
    let said =
        String::from_utf8_lossy(&o.stderr).into_owned() + &String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("has 3 generations already") && said.contains("--generations N continues it"),
        "{said}"
    );
    assert_eq!(files_under(&dir), after);
    assert_eq!(csv_after.lines().count(), 4);
    assert_eq!(
        csv_after.lines().next().unwrap(),
        COLUMNS.iter().map(|c| c.name).collect::<Vec<_>>().join(",")
    );
    let tb_files = event_files(&dir.join("tb")).unwrap();
    // Each generation's scalars close their event file (that is how they reach the disk).
    assert_eq!(tb_files.len(), 3, "one event file per generation logged");

    // Every scalar is logged once per generation with measured values.
    let s = scalars(&dir);
    for tag in [
        "loss/policy",
        "loss/value",
        "loss/l2",
        "loss/total",
        "train/policy_entropy",
        "train/learning_rate",
        "selfplay/games_per_hour",
        "selfplay/simulations_per_second",
        "selfplay/mean_game_length",
        "selfplay/black_score",
        "selfplay/draw_rate",
        "eval/score_vs_previous",
        "eval/score_vs_random",
        "eval/score_vs_rollout",
        "eval/elo",
        "replay/window_positions",
    ] {
        let v = s.get(tag).unwrap_or_else(|| panic!("tag {tag} missing"));
        let steps: Vec<i64> = v.iter().map(|x| x.0).collect();
        assert_eq!(steps, vec![1, 2, 3], "{tag}");
    }
    // Measured, not stand-ins: losses and rates positive and varying between generations,
    // the window growing, the game length within the turn limit.
    for tag in [
        "loss/policy",
        "loss/value",
        "loss/l2",
        "train/policy_entropy",
        "selfplay/simulations_per_second",
        "selfplay/games_per_hour",
    ] {
        let v: Vec<f32> = s[tag].iter().map(|x| x.1).collect();
        assert!(v.iter().all(|&x| x > 0.0), "{tag}: {v:?}");
        assert!(v.windows(2).any(|w| w[0] != w[1]), "{tag} constant: {v:?}");
    }
    let total: Vec<f32> = s["loss/total"].iter().map(|x| x.1).collect();
    let parts: Vec<f32> = (0..3)
        .map(|i| s["loss/policy"][i].1 + s["loss/value"][i].1 + s["loss/l2"][i].1)
        .collect();
    for (t, p) in total.iter().zip(&parts) {
        assert!((t - p).abs() < 1e-3, "total {t} vs parts {p}");
    }
    let window: Vec<f32> = s["replay/window_positions"].iter().map(|x| x.1).collect();
    assert!(window[2] > window[0], "{window:?}");
    for &(_, len) in &s["selfplay/mean_game_length"] {
        assert!(len > 0.0 && len <= 24.0, "{len}");
    }
    let rows = ledger::read(&dir.join("progress.csv")).unwrap();
    for (r, &(_, v)) in rows.iter().zip(&s["loss/policy"]) {
        assert!((r.policy_loss as f32 - v).abs() < 1e-5);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run with every auxiliary head on (ownership, short-term value, soft policy) trains
/// them: each loss is measured in every generation, logged, and counted in the total with
/// its weight; a run without them leaves their columns empty.
#[test]
fn auxiliary_heads_train_and_their_losses_enter_the_total() {
    let dir = fresh_dir("aux");
    let weights = [0.5, 0.25, 2.0]; // ownership, short-term value, soft policy
    let config = std::fs::read_to_string(tiny()).unwrap().replacen(
        "[optim]\n",
        &format!(
            "[optim]\nownership_weight = {}\nshort_value_weight = {}\nsoft_policy_weight = {}\n",
            weights[0], weights[1], weights[2]
        ),
        1,
    );
    std::fs::create_dir_all(&dir).unwrap();
    let path = write_in(&dir, "aux.toml", config);
    ok(&train(
        &dir.join("run"),
        &["--config", path.to_str().unwrap()],
    ));
    let rows = ledger::read(&dir.join("run/progress.csv")).unwrap();
    assert_eq!(rows.len(), 2);
    for r in &rows {
        let aux = [r.ownership_loss, r.short_value_loss, r.soft_policy_loss];
        assert!(aux.iter().all(|&l| l.is_finite() && l > 0.0), "{aux:?}");
        let want = r.policy_loss
            + r.value_loss
            + r.l2_loss
            + aux.iter().zip(weights).map(|(l, w)| l * w).sum::<f64>();
        assert!(
            (r.total_loss - want).abs() < 1e-5,
            "{} vs {want}",
            r.total_loss
        );
    }
    let s = scalars(&dir.join("run"));
    for tag in ["loss/ownership", "loss/short_value", "loss/soft_policy"] {
        assert_eq!(s.get(tag).map(Vec::len), Some(2), "{tag}");
    }
    let plain = fresh_dir("aux-off");
    ok(&train(
        &plain,
        &["--config", tiny().to_str().unwrap(), "--generations", "1"],
    ));
    let r = &ledger::read(&plain.join("progress.csv")).unwrap()[0];
    assert!(
        r.ownership_loss.is_nan() && r.short_value_loss.is_nan() && r.soft_policy_loss.is_nan()
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&plain).unwrap();
}

/// The ledger without its wall-clock columns, which differ between any two runs.
fn ledger_without_times(dir: &Path) -> Vec<Vec<String>> {
    let rows = ledger::read(&dir.join("progress.csv")).unwrap();
    rows.iter()
        .map(|r| {
            COLUMNS
                .iter()
                .zip(r.values())
                .filter(|(c, _)| !ledger::TIME_COLUMNS.contains(&c.name))
                .map(|(c, v)| format!("{}={v}", c.name))
                .collect()
        })
        .collect()
}

/// Asserts that two runs hold the same checkpoints, replay files and ledger (apart from
/// times), byte for byte. The optimiser states are compared by their presence only: burn
/// writes their tensors in hash-map order, which differs between processes; that they were
/// restored exactly shows in the equal weights of every later checkpoint.
fn assert_same_run(reference: &Path, dir: &Path) {
    let kept = |d: &Path| -> BTreeSet<String> {
        files_under(d)
            .into_iter()
            .filter(|f| f.starts_with("checkpoints") || f.starts_with("replay"))
            .collect()
    };
    let files = kept(reference);
    assert_eq!(files, kept(dir), "different files");
    assert!(files.iter().any(|f| f.ends_with(".crsp")));
    assert!(files.iter().any(|f| f.ends_with("net.crnet")));
    for f in files.iter().filter(|f| !f.ends_with("optimizer.bpk")) {
        let (a, b) = (
            std::fs::read(reference.join(f)).unwrap(),
            std::fs::read(dir.join(f)).unwrap(),
        );
        assert!(a == b, "{f} differs from the uninterrupted run's");
    }
    assert_eq!(ledger_without_times(reference), ledger_without_times(dir));
}

#[test]
fn runs_killed_at_any_moment_resume_to_the_uninterrupted_run() {
    const GENERATIONS: usize = 3;
    let config = tiny();
    let cfg = config.display().to_string();
    let gens = GENERATIONS.to_string();
    // The uninterrupted run, and how long it takes here (start-up included), to spread the
    // kills over every phase of a run.
    let reference = fresh_dir("kill-reference");
    let t0 = std::time::Instant::now();
    ok(&train(
        &reference,
        &["--generations", &gens, "--config", &cfg],
    ));
    let whole = t0.elapsed();
    check_complete(&reference, GENERATIONS);

    // Runs of the same config killed (SIGKILL) at pseudo-random moments, each resumed until
    // it finishes: kills land in start-up, self-play, training, checkpointing, evaluation
    // and the ledger update. After each kill what finished must be intact; at the end every
    // checkpoint, optimiser state, replay file and ledger row must equal the uninterrupted
    // run's.
    let mut kills = 0;
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut run = 0;
    // Kills land only while an attempt still runs: on a loaded machine the reference run can
    // be slower than the attempts, so more runs may be needed to reach 20 kills.
    while run < 2 || (kills < 20 && run < 40) {
        run += 1;
        let dir = fresh_dir(&format!("kill-{run}"));
        for attempt in 0.. {
            assert!(attempt < 200, "run {run} never finished");
            let mut args = vec![
                "train",
                "--run-dir",
                dir.to_str().unwrap(),
                "--generations",
                &gens,
            ];
            if !dir.join("config.toml").exists() {
                args.extend(["--config", &cfg]);
            }
            // Its messages go to a file beside the run, for the failure message.
            let log = dir.with_extension("stderr");
            let mut child = Command::new(env!("CARGO_BIN_EXE_crumble"))
                .args(&args)
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(&log).unwrap())
                .spawn()
                .unwrap();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let frac = 0.05 + 0.6 * (state % 1000) as f64 / 1000.0;
            std::thread::sleep(whole.mul_f64(frac));
            let killed = child.try_wait().unwrap().is_none();
            if killed {
                child.kill().unwrap(); // SIGKILL
                kills += 1;
            }
            let status = child.wait().unwrap();
            if dir.join("progress.csv").exists() {
                let done = ledger::read(&dir.join("progress.csv")).unwrap().len();
                check_generations(&dir, done, false);
            }
            if !killed {
                assert!(
                    status.success(),
                    "attempt {attempt} of run {run}: {status:?}, stderr:\n{}",
                    std::fs::read_to_string(&log).unwrap_or_default()
                );
                let _ = std::fs::remove_file(&log);
                break;
            }
        }
        check_complete(&dir, GENERATIONS);
        assert_same_run(&reference, &dir);
        // A generation killed between logging and committing is logged again when redone.
        let s = scalars(&dir);
        let steps: BTreeSet<i64> = s["loss/policy"].iter().map(|x| x.0).collect();
        assert_eq!(steps, (1..=GENERATIONS as i64).collect());
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert!(kills >= 20, "only {kills} kills");
    std::fs::remove_dir_all(&reference).unwrap();
}

fn refused(o: &Output, parts: &[&str]) {
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let e = String::from_utf8_lossy(&o.stderr);
    for p in parts {
        assert!(e.contains(p), "stderr lacks `{p}`:\n{e}");
    }
}

#[test]
fn bad_input_is_refused_with_the_reason_and_nothing_is_lost() {
    // Missing and corrupt configs, unknown keys.
    let dir = fresh_dir("bad");
    refused(
        &train(&dir, &["--config", "/nonexistent/c.toml"]),
        &["/nonexistent/c.toml", "cannot read"],
    );
    let cfg = std::env::temp_dir().join(format!("crumble-bad-{}.toml", std::process::id()));
    std::fs::write(&cfg, "[optim\nlr = 1").unwrap();
    refused(
        &train(&dir, &["--config", cfg.to_str().unwrap()]),
        &[cfg.to_str().unwrap()],
    );
    std::fs::write(&cfg, "[optim]\nlearnig_rate = 0.1\n").unwrap();
    refused(
        &train(&dir, &["--config", cfg.to_str().unwrap()]),
        &["learnig_rate"],
    );
    assert!(!dir.exists() || files_under(&dir).is_empty());

    // A run, then a resume with a different config: refused, naming the keys.
    ok(&train(&dir, &["--config", tiny().to_str().unwrap()]));
    let snapshot = files_under(&dir);
    let changed = std::fs::read_to_string(tiny())
        .unwrap()
        .replace("lr = 0.002", "lr = 0.004")
        .replace("games = 4 ", "games = 6 ");
    std::fs::write(&cfg, changed).unwrap();
    refused(
        &train(&dir, &["--config", cfg.to_str().unwrap()]),
        &["generation.games", "optim.lr", "differing keys"],
    );
    assert_eq!(files_under(&dir), snapshot);

    // A checkpoint whose architecture does not match the run's config.
    let ck = dir.join("checkpoints/gen-0002/net.crnet");
    let original = std::fs::read(&ck).unwrap();
    let other = crumble_model::NetConfig::new()
        .with_resolution(4)
        .with_channels(4)
        .with_blocks(1);
    let net = other.init(&crumble_model::default_device()).unwrap();
    crumble_model::checkpoint::save(&ck, &other, &net).unwrap();
    refused(
        &train(&dir, &["--generations", "3"]),
        &["gen-0002/net.crnet", "does not match"],
    );
    // A truncated checkpoint.
    std::fs::write(&ck, &original[..original.len() / 2]).unwrap();
    refused(
        &train(&dir, &["--generations", "3"]),
        &["gen-0002/net.crnet", "truncated"],
    );
    std::fs::write(&ck, &original).unwrap();

    // A half-written replay file of a finished generation.
    let rf = dir.join("replay/gen-0001/selfplay-000000.crsp");
    let bytes = std::fs::read(&rf).unwrap();
    std::fs::write(&rf, &bytes[..bytes.len() / 2]).unwrap();
    refused(
        &train(&dir, &["--generations", "3"]),
        &["gen-0001/selfplay-000000.crsp", "truncated"],
    );
    // Nothing was removed or rewritten by the refused resumes.
    assert_eq!(files_under(&dir), snapshot);
    std::fs::write(&rf, &bytes).unwrap();
    ok(&train(&dir, &["--generations", "3"]));
    check_complete(&dir, 3);

    // A non-empty directory that is not a run.
    let stray = fresh_dir("stray");
    std::fs::create_dir_all(&stray).unwrap();
    std::fs::write(stray.join("notes.txt"), "mine").unwrap();
    refused(
        &train(&stray, &["--config", tiny().to_str().unwrap()]),
        &["not empty"],
    );
    assert_eq!(
        std::fs::read_to_string(stray.join("notes.txt")).unwrap(),
        "mine"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&stray).unwrap();
    std::fs::remove_file(&cfg).unwrap();
}

/// Every file of the run but its TensorBoard logs, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files_under(dir)
        .into_iter()
        .filter(|f| !f.starts_with("tb"))
        .map(|f| {
            let bytes = std::fs::read(dir.join(&f)).unwrap();
            (f, bytes)
        })
        .collect()
}

#[test]
fn a_lost_ledger_or_lost_records_are_refused_and_nothing_is_deleted() {
    let dir = fresh_dir("lost");
    let cfg = tiny().display().to_string();
    ok(&train(&dir, &["--generations", "3", "--config", &cfg]));
    let ledger_path = dir.join("progress.csv");
    let full_ledger = std::fs::read(&ledger_path).unwrap();
    let before = snapshot(&dir);

    // The ledger deleted: refused, nothing touched.
    std::fs::remove_file(&ledger_path).unwrap();
    refused(
        &train(&dir, &["--generations", "4"]),
        &["progress.csv", "missing", "Nothing was changed"],
    );
    assert!(!ledger_path.exists());
    std::fs::write(&ledger_path, &full_ledger).unwrap();
    assert_eq!(snapshot(&dir), before);

    // Cut to its header, or to one row: refused, naming the newest generation on disk.
    let text = String::from_utf8(full_ledger.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for keep in [1, 2] {
        std::fs::write(&ledger_path, lines[..keep].join("\n") + "\n").unwrap();
        refused(
            &train(&dir, &["--generations", "4"]),
            &["progress.csv", "generation 3", "lost rows"],
        );
        std::fs::write(&ledger_path, &full_ledger).unwrap();
        assert_eq!(
            snapshot(&dir),
            before,
            "after a ledger cut to {keep} line(s)"
        );
    }

    // A record file of a generation in the replay window deleted: refused, not skipped.
    let gen3 = dir.join("replay/gen-0003");
    let first = crumble_selfplay::selfplay::record_files(&gen3).unwrap()[0].clone();
    let saved = std::fs::read(&first).unwrap();
    std::fs::remove_file(&first).unwrap();
    refused(
        &train(&dir, &["--generations", "4"]),
        &["gen-0003", "games", "progress.csv says"],
    );
    std::fs::write(&first, &saved).unwrap();
    assert_eq!(snapshot(&dir), before);

    // Poisoned training data under a valid checksum: refused before anything is trained.
    let mut games = crumble_selfplay::record::read_file(&first).unwrap();
    let search = games
        .iter_mut()
        .flat_map(|g| g.steps.iter_mut())
        .find_map(|s| s.search.as_mut().filter(|r| !r.policy.is_empty()))
        .unwrap();
    search.policy[0].1 = f32::NAN;
    std::fs::write(&first, crumble_selfplay::record::encode_file(&games)).unwrap();
    refused(
        &train(&dir, &["--generations", "4"]),
        &[first.to_str().unwrap(), "policy target NaN"],
    );
    assert!(!dir.join("checkpoints/gen-0004").exists());
    std::fs::write(&first, &saved).unwrap();
    assert_eq!(snapshot(&dir), before);

    // With everything restored, the run goes on.
    ok(&train(&dir, &["--generations", "4"]));
    check_complete(&dir, 4);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unwritable_logs_and_absurd_thread_counts_are_errors_not_panics() {
    // TensorBoard's directory cannot be written (even by root: a directory of /proc).
    let dir = fresh_dir("tb-unwritable");
    let cfg = tiny().display().to_string();
    ok(&train(&dir, &["--generations", "1", "--config", &cfg]));
    std::fs::remove_dir_all(dir.join("tb")).unwrap();
    std::os::unix::fs::symlink("/proc/1", dir.join("tb")).unwrap();
    let o = train(&dir, &["--generations", "2"]);
    refused(&o, &["tb"]);
    assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    std::fs::remove_file(dir.join("tb")).unwrap();
    ok(&train(&dir, &["--generations", "2"]));
    std::fs::remove_dir_all(&dir).unwrap();

    // Thread counts that would exhaust the machine are refused before any work.
    let out = fresh_dir("threads");
    refused(
        &crumble(&[
            "selfplay",
            "--agent",
            "mcts:uniform:4",
            "--games",
            "1",
            "--threads",
            "100000",
            "--out",
            out.to_str().unwrap(),
        ]),
        &["100000", "1024"],
    );
    assert!(!out.exists());
    let bad = std::env::temp_dir().join(format!("crumble-threads-{}.toml", std::process::id()));
    let text = std::fs::read_to_string(tiny())
        .unwrap()
        .replace("threads = 2", "threads = 100000");
    std::fs::write(&bad, text).unwrap();
    let dir = fresh_dir("threads-config");
    refused(
        &train(&dir, &["--config", bad.to_str().unwrap()]),
        &["generation.threads", "100000"],
    );
    std::fs::remove_file(&bad).unwrap();
}

#[test]
fn ctrl_c_stops_training_and_says_what_was_kept_and_how_to_resume() {
    let dir = fresh_dir("ctrl-c");
    let cfg = tiny().display().to_string();
    ok(&train(&dir, &["--generations", "1", "--config", &cfg]));
    let child = Command::new(env!("CARGO_BIN_EXE_crumble"))
        .args([
            "train",
            "--run-dir",
            dir.to_str().unwrap(),
            "--generations",
            "50",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once the second generation is finished, Ctrl-C (SIGINT).
    let t0 = std::time::Instant::now();
    while ledger::read(&dir.join("progress.csv")).unwrap().len() < 2 {
        assert!(t0.elapsed().as_secs() < 120, "no second generation");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    let done = ledger::read(&dir.join("progress.csv")).unwrap().len();
    assert!(
        err.contains(&format!(
            "interrupted: {done} finished generation(s) are kept"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("crumble train --run-dir {}", dir.display())),
        "{err}"
    );
    ok(&train(&dir, &["--generations", &(done + 1).to_string()]));
    check_complete(&dir, done + 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_config_with_an_unknown_section_is_refused_by_every_command() {
    let bad = std::env::temp_dir().join(format!("crumble-serach-{}.toml", std::process::id()));
    std::fs::write(&bad, "[serach]\nsimulations = 8\n").unwrap();
    let b = bad.to_str().unwrap();
    let out = fresh_dir("serach");
    let o = out.to_str().unwrap();
    for args in [
        vec!["match", "random", "random", "--games", "2", "--config", b],
        vec![
            "selfplay",
            "--agent",
            "mcts:uniform:4",
            "--games",
            "1",
            "--out",
            o,
            "--config",
            b,
        ],
        vec!["train", "--run-dir", o, "--config", b],
    ] {
        refused(&crumble(&args), &["serach"]);
    }
    assert!(!out.exists() || files_under(&out).is_empty());
    std::fs::remove_file(&bad).unwrap();
}
