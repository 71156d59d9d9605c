//! The evaluation commands end to end: `match` (pairs, SPRT, records), `tournament` (agents
//! and a training run's checkpoints, resuming, tables and plot), `tactics` and `openings`,
//! and their refusals of bad input. Small boards, tiny agents, few games.

mod common;
use common::{crumble, json, ok, refused, stderr, temp_dir, write_in};

use crumble_model::{NetConfig, checkpoint, default_device};
use std::path::Path;

/// A config for a 4×4 board at R = 8 (quick games; tiny networks accept any board size).
fn small_config(dir: &Path) -> String {
    let p = write_in(dir, "small.toml", "[selfplay]\nboard = 4\nresolution = 8\n");
    p.display().to_string()
}

/// A training run with tiny random checkpoints at the given generations.
fn fake_run(dir: &Path, generations: &[u64]) {
    let cfg = NetConfig::new()
        .with_channels(8)
        .with_blocks(1)
        .with_value_hidden(8);
    for g in generations {
        let d = dir.join(format!("checkpoints/gen-{g:04}"));
        std::fs::create_dir_all(&d).unwrap();
        checkpoint::save(
            &d.join("net.crnet"),
            &cfg,
            &cfg.init(&default_device()).unwrap(),
        )
        .unwrap();
    }
}

#[test]
fn match_reports_pairs_elo_and_sprt() {
    let dir = temp_dir("match");
    let cfg = small_config(&dir);
    let out = dir.join("games");
    let args = [
        "match",
        "mcts:uniform:16",
        "random",
        "--games",
        "8",
        "--max-turns",
        "40",
        "--config",
        &cfg,
    ];
    let text = ok(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    assert!(text.contains("8 games in 4 pairs"), "{text}");
    assert!(text.contains("Elo difference (A - B)"), "{text}");
    assert!(text.contains("pairs by A's points"), "{text}");
    let summary = json(&std::fs::read_to_string(out.join("match.json")).unwrap());
    assert_eq!(summary["games"], 8);
    let w = summary["a_wins"].as_u64().unwrap()
        + summary["draws"].as_u64().unwrap()
        + summary["b_wins"].as_u64().unwrap();
    assert_eq!(w, 8);
    let penta: u64 = summary["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(penta, 4);
    let records = std::fs::read_to_string(out.join("match-000000.txt")).unwrap();
    assert!(records.contains("[Black \"mcts:uniform:16\"]"));
    assert!(records.contains("[White \"mcts:uniform:16\"]"));

    // --parallel still works (an alias of --concurrency); JSON; the same seed, the same result.
    let one = json(&ok(&[&args[..], &["--json", "--parallel", "1"]].concat()));
    let many = json(&ok(&[&args[..], &["--json", "--concurrency", "8"]].concat()));
    for k in ["a_wins", "draws", "b_wins", "pentanomial", "mean_turns"] {
        assert_eq!(one[k], many[k], "{k}");
    }

    // An SPRT with a wide gap stops early once the stronger side is clear.
    let v = json(&ok(&[
        "match",
        "mcts:uniform:64",
        "random",
        "--games",
        "200",
        "--max-turns",
        "40",
        "--config",
        &cfg,
        "--sprt",
        "0,200,0.1,0.1",
        "--json",
    ]));
    let s = &v["sprt"];
    assert_eq!(s["status"], "H1", "{v}");
    assert!(s["llr"].as_f64().unwrap() >= s["upper_bound"].as_f64().unwrap());
    assert!(v["games"].as_u64().unwrap() < 200, "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--b-config` gives agent B its own search settings; a config of another game is refused.
#[test]
fn match_gives_agent_b_its_own_search_settings() {
    let dir = temp_dir("match-b-config");
    let lcb = write_in(
        &dir,
        "lcb.toml",
        "[game]\nname = \"tictactoe\"\n\n[search.lcb]\nenabled = true\n",
    );
    let ttt = common::config("tictactoe.toml");
    let out = ok(&[
        "match",
        "mcts:uniform:8",
        "mcts:uniform:8",
        "--config",
        &ttt,
        "--b-config",
        lcb.to_str().unwrap(),
        "--games",
        "4",
        "--opening-turns",
        "0",
        "--json",
    ]);
    assert_eq!(json(&out)["games"], 4, "{out}");
    refused(
        &[
            "match",
            "random",
            "random",
            "--config",
            &ttt,
            "--b-config",
            &common::config("nim.toml"),
        ],
        &["is a nim config, the match is tictactoe"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn match_refuses_bad_input() {
    let dir = temp_dir("match-bad");
    refused(
        &["match", "mcts:bogus:3", "random"],
        &["mcts:bogus:3", "unknown evaluator"],
    );
    refused(&["match", "random", "alpha"], &["alpha", "unknown kind"]);
    refused(
        &[
            "match",
            "ckpt:/nonexistent/net.crnet",
            "random",
            "--games",
            "2",
        ],
        &["/nonexistent/net.crnet"],
    );
    refused(
        &["match", "random", "random", "--sprt", "5,1,0.05,0.05"],
        &["elo0"],
    );
    refused(&["match", "random", "random", "--sprt", "x"], &["SPRT"]);
    let openings = dir.join("openings.txt");
    // Bad openings files, refused at their line.
    for (text, says) in [
        (
            "# two openings\n1HN\n1HN 9H\n",
            &["openings.txt line 3", "9H"][..],
        ),
        ("{\"board\": 6}\n", &["openings.txt line 1"]),
    ] {
        std::fs::write(&openings, text).unwrap();
        let args = ["match", "random", "random", "--openings"];
        refused(&[&args[..], &[openings.to_str().unwrap()]].concat(), says);
    }
    std::fs::write(&openings, "1HN\n").unwrap();
    let text = ok(&[
        "match",
        "random",
        "random",
        "--games",
        "4",
        "--max-turns",
        "20",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert!(text.contains("openings from"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tournament_rates_a_run_and_resumes() {
    let dir = temp_dir("tournament");
    let cfg = small_config(&dir);
    let run = dir.join("run");
    fake_run(&run, &[0, 1, 2, 3, 4]);
    let args = [
        "tournament",
        "--run-dir",
        run.to_str().unwrap(),
        "--every",
        "2",
        "--sims",
        "4",
        "--rollout-sims",
        "4",
        "--games-per-pair",
        "2",
        "--max-turns",
        "8",
        "--schedule",
        "ladder:2",
        "--config",
        &cfg,
    ];
    let text = ok(&args);
    // Every 2nd checkpoint plus the last: generations 0, 2, 4, with random and rollout.
    for name in [
        "gen-0000",
        "gen-0002",
        "gen-0004",
        "random",
        "mcts:rollout:4",
    ] {
        assert!(text.contains(name), "{name}: {text}");
    }
    assert!(!text.contains("gen-0001"), "{text}");
    let out = run.join("tournament");
    for f in [
        "ratings.md",
        "ratings.csv",
        "ratings.json",
        "ratings.svg",
        "pairings.jsonl",
    ] {
        assert!(out.join(f).is_file(), "{f}");
    }
    let svg = std::fs::read_to_string(out.join("ratings.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("generation") && svg.contains("random"));
    let v = json(&std::fs::read_to_string(out.join("ratings.json")).unwrap());
    assert_eq!(v["anchor"], "random");
    let random = v["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "random")
        .unwrap();
    assert_eq!(random["elo"], 0.0);
    // ladder:2 over 5 agents: 4 + 3 = 7 pairings.
    let lines = std::fs::read_to_string(out.join("pairings.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 7);
    let csv = std::fs::read_to_string(out.join("ratings.csv")).unwrap();
    assert_eq!(csv.lines().count(), 6);
    assert!(csv.starts_with("rank,name,agent,generation,elo,elo_low,elo_high"));

    // Run again with every checkpoint: only pairings with the new ones are played.
    // ... and up to generation 3 only: 0, 1, 2, 3 (the run as it stood at 3).
    let mut again = args.to_vec();
    again[4] = "1";
    again.extend(["--up-to", "3"]);
    let o = crumble(&again);
    assert!(o.status.success(), "{}", stderr(&o));
    let (err, text) = (stderr(&o), String::from_utf8_lossy(&o.stdout));
    assert!(err.contains("stored"), "{err}");
    assert!(
        text.contains("gen-0003") && !text.contains("gen-0004"),
        "{text}"
    );
    let lines = std::fs::read_to_string(out.join("pairings.jsonl")).unwrap();
    // ladder:2 over 6 agents: 5 + 4 = 9 pairings, the 7 earlier ones kept... but not all
    // earlier pairings are in the new ladder; every stored one is reused, none replayed.
    let count = lines.lines().count();
    assert!(count > 7 && count <= 7 + 9, "{count}");
    // Other settings in the same directory are refused.
    let mut other = args.to_vec();
    other[12] = "9";
    refused(&other, &["other settings"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tournament_formats_and_refusals() {
    let dir = temp_dir("tournament-bad");
    let cfg = small_config(&dir);
    let base = [
        "tournament",
        "--games-per-pair",
        "2",
        "--max-turns",
        "10",
        "--config",
        &cfg,
        "--agents",
        "random",
        "mcts:uniform:8",
        "mcts:uniform:16",
    ];
    let md = ok(&[&base[..], &["--format", "markdown"]].concat());
    assert!(md.contains("| rank | agent | rating |"), "{md}");
    assert!(md.contains("## Pairings"), "{md}");
    let csv = ok(&[&base[..], &["--format", "csv", "--schedule", "gauntlet"]].concat());
    assert_eq!(csv.lines().count(), 4, "{csv}");
    let v = json(&ok(&[&base[..], &["--format", "json"]].concat()));
    assert_eq!(v["ratings"].as_array().unwrap().len(), 3);
    assert_eq!(v["pairings"].as_array().unwrap().len(), 3);

    refused(
        &["tournament", "--agents", "random"],
        &["at least two agents"],
    );
    refused(
        &["tournament", "--agents", "random", "random"],
        &["listed twice"],
    );
    refused(
        &["tournament", "--agents", "random", "mcts:x:1"],
        &["mcts:x:1"],
    );
    refused(
        &["tournament", "--agents", "random", "ckpt:missing/net.crnet"],
        &["missing/net.crnet"],
    );
    refused(
        &[
            "tournament",
            "--agents",
            "random",
            "mcts:uniform:2",
            "--schedule",
            "swiss",
        ],
        &["unknown schedule `swiss`"],
    );
    let empty = dir.join("empty-run");
    std::fs::create_dir_all(empty.join("checkpoints")).unwrap();
    refused(
        &["tournament", "--run-dir", empty.to_str().unwrap()],
        &["no checkpoints", "gen-NNNN/net.crnet"],
    );
    refused(
        &[
            "tournament",
            "--run-dir",
            dir.join("nowhere").to_str().unwrap(),
        ],
        &["nowhere"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match stopped after some pairs and resumed with `--resume` ends with the games and the
/// summary of the match played without a stop; a finished match extends the same way; a
/// resume with other settings, fewer games than saved or no saved match is refused.
#[test]
fn a_stopped_match_resumes_to_the_unbroken_result() {
    let dir = temp_dir("resume");
    let cfg = small_config(&dir);
    let (full, part) = (dir.join("full"), dir.join("part"));
    let (full, part) = (full.to_str().unwrap(), part.to_str().unwrap());
    let args = |games: &'static str, seed: &'static str| {
        let base = ["match", "mcts:uniform:16", "random", "--max-turns", "40"];
        let mut v: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        for x in ["--games", games, "--seed", seed, "--config", &cfg] {
            v.push(x.to_string());
        }
        v
    };
    let run = |v: Vec<String>, extra: &[&str]| {
        let mut all: Vec<&str> = v.iter().map(String::as_str).collect();
        all.extend_from_slice(extra);
        ok(&all)
    };
    run(args("10", "3"), &["--out", full]);
    // Stopped after two pairs (a match of 4 games is the same match's first 4).
    run(args("4", "3"), &["--out", part]);
    run(args("6", "3"), &["--out", part, "--resume"]);
    let summary_of = |dir: &str| {
        let mut v = json(&std::fs::read_to_string(Path::new(dir).join("match.json")).unwrap());
        v.as_object_mut().unwrap().remove("seconds");
        v
    };
    assert_eq!(summary_of(part)["games"], 6);
    // ... and finished with the full count: the files and the summary are the unbroken ones.
    run(args("10", "3"), &["--out", part, "--resume"]);
    for f in ["match-000000.crsp", "match-000000.txt"] {
        let bytes = |d: &str| std::fs::read(Path::new(d).join(f)).unwrap();
        assert!(bytes(full) == bytes(part), "{f} differs");
    }
    assert_eq!(summary_of(full), summary_of(part));

    let with = |v: Vec<String>, extra: &[&str]| {
        let mut all: Vec<String> = v;
        all.extend(extra.iter().map(|s| s.to_string()));
        all
    };
    let refuse = |v: Vec<String>, parts: &[&str]| {
        let all: Vec<&str> = v.iter().map(String::as_str).collect();
        refused(&all, parts);
    };
    refuse(
        with(args("10", "4"), &["--out", part, "--resume"]),
        &["other settings (seed)"],
    );
    refuse(
        with(args("4", "3"), &["--out", part, "--resume"]),
        &["10 games", "up to 4"],
    );
    refuse(
        with(args("10", "3"), &["--out", part]),
        &["a match is saved there already; --resume continues it"],
    );
    let empty = dir.join("empty");
    refuse(
        with(
            args("10", "3"),
            &["--out", empty.to_str().unwrap(), "--resume"],
        ),
        &["match-settings.json"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `match-report` reads a saved match back to its own summary, and sums the parts of one
/// match played with different seeds into the pairs of both; parts of two matches, two
/// parts with one seed and a directory without a match are refused.
#[test]
fn match_report_sums_the_parts_of_a_match() {
    let dir = temp_dir("report");
    let cfg = small_config(&dir);
    let part = |name: &str, agent: &str, seed: &str| {
        let out = dir.join(name);
        let out = out.to_str().unwrap().to_string();
        let args = [
            "match",
            agent,
            "random",
            "--max-turns",
            "40",
            "--games",
            "6",
            "--seed",
            seed,
            "--config",
            &cfg,
            "--out",
            &out,
        ];
        ok(&args);
        out
    };
    let (p1, p2) = (
        part("p1", "mcts:uniform:16", "3"),
        part("p2", "mcts:uniform:16", "4"),
    );
    let other = part("other", "mcts:uniform:8", "5");
    let saved = |d: &str| json(&std::fs::read_to_string(Path::new(d).join("match.json")).unwrap());
    let report = |dirs: &[&str]| {
        let mut args = vec!["match-report", "--json"];
        args.extend_from_slice(dirs);
        json(&ok(&args))
    };

    let one = report(&[&p1]);
    let mut want = saved(&p1);
    for key in ["seconds", "seed"] {
        want.as_object_mut().unwrap().remove(key);
    }
    let mut got = one.clone();
    got.as_object_mut().unwrap().remove("seconds");
    assert_eq!(
        got["parts"],
        serde_json::json!([{"dir": p1, "seed": 3, "pairs": 3}])
    );
    got.as_object_mut().unwrap().remove("parts");
    assert_eq!(got, want);

    let both = report(&[&p1, &p2]);
    let (a, b) = (saved(&p1), saved(&p2));
    assert_eq!(both["games"], 12);
    for key in ["a_wins", "draws", "b_wins", "black_wins", "white_wins"] {
        let sum = a[key].as_u64().unwrap() + b[key].as_u64().unwrap();
        assert_eq!(both[key], sum, "{key}");
    }
    let penta: Vec<u64> = (0..5)
        .map(|i| a["pentanomial"][i].as_u64().unwrap() + b["pentanomial"][i].as_u64().unwrap())
        .collect();
    assert_eq!(both["pentanomial"], serde_json::json!(penta));
    let text = ok(&["match-report", &p1, &p2]);
    assert!(text.contains("12 games in 6 pairs"), "{text}");
    assert!(
        text.contains("(seed 3): 3 pairs") && text.contains("(seed 4): 3 pairs"),
        "{text}"
    );

    refused(
        &["match-report", &p1, &other],
        &["another match", "(other settings: a)"],
    );
    refused(
        &["match-report", &p1, &p2, &p1],
        &["both played with seed 3"],
    );
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    refused(
        &["match-report", empty.to_str().unwrap()],
        &["match-settings.json"],
    );
    refused(&["match-report"], &["<DIR>"]);
    let _ = std::fs::remove_dir_all(&dir);
}
