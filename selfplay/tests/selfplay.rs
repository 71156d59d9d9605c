//! Self-play driver, records, agents and config: records replay to their result, the same
//! seed gives the same games, the file format round-trips and refuses damage, agent strings
//! and configs are parsed strictly.

#[path = "common/short_games.rs"]
mod short_games;
use crumble_core::GameState as _;
use crumble_core::Player;
use crumble_core::games::crumble::Crumble;
use crumble_selfplay::record::{RecordError, decode_file, encode_file, read_file};
use crumble_selfplay::{
    AgentError, AgentSpec, ConfigFile, EvaluatorSpec, GameRecord, NoCheckpoints, SearchConfig,
    SelfPlayConfig, StepKind, selfplay,
};
use short_games::{ShortGames, quick_rollouts, short_games};

fn small_cfg() -> SearchConfig {
    let mut c = quick_rollouts();
    c.resign.enabled = true;
    c.resign.threshold = -0.8;
    c.resign.playout_fraction = 0.5;
    c.playout_cap.enabled = true;
    c.playout_cap.fast_simulations = 4;
    c
}

fn play(cfg: &SearchConfig, threads: usize, games: u64, rollout: bool) -> Vec<GameRecord> {
    let how = ShortGames {
        games,
        seed: 42,
        parallel_games: 3,
        threads,
        rollout,
    };
    short_games(cfg, how)
}

#[test]
fn records_replay_to_their_result_and_carry_targets() {
    for (gumbel, rollout) in [(false, true), (true, false)] {
        let mut cfg = small_cfg();
        cfg.gumbel.enabled = gumbel;
        cfg.forced_playouts.enabled = !gumbel;
        let games = play(&cfg, 2, 6, rollout);
        assert_eq!(games.len(), 6);
        let mut indices: Vec<u64> = games.iter().map(|g| g.index).collect();
        indices.sort();
        assert_eq!(indices, (0..6).collect::<Vec<_>>());
        for g in &games {
            let end: Crumble = g.replay().unwrap();
            let outcome = crumble_selfplay::games::crumble::outcome(g, &end);
            assert_eq!(outcome.winner.map(Player::from), g.winner());
            // The human-readable game record reads back and replays to the same position.
            let text = crumble_selfplay::text_record::text_record::<Crumble>(g, None).unwrap();
            let rec = crumble_core::game::record::Record::<Crumble>::parse(&text)
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            let replayed = rec.ended_positions().unwrap().pop().unwrap();
            assert_eq!(replayed.outcome(), Some(outcome));
            assert!(
                text.contains("[Start \"standard\"]"),
                "a standard start is said so:\n{text}"
            );
            assert_eq!(replayed.board(), end.board(), "{text}");
            let mut replay: Crumble = g.start_state().unwrap();
            for s in &g.steps {
                if let Some(r) = &s.search {
                    assert_eq!(s.kind, StepKind::Searched);
                    let legal = replay.legal_decisions();
                    let ds: Vec<_> = r.policy.iter().map(|x| x.0).collect();
                    assert_eq!(ds, legal, "the target covers exactly the legal decisions");
                    let sum: f32 = r.policy.iter().map(|x| x.1).sum();
                    assert!((sum - 1.0).abs() < 1e-4 && r.policy.iter().all(|x| x.1 >= 0.0));
                    assert!((-1.0..=1.0).contains(&r.value));
                    if replay.at_turn_start() {
                        let js: f32 = r.joint.iter().map(|x| x.2).sum();
                        assert!((js - 1.0).abs() < 1e-3, "joint sums to {js}");
                    } else {
                        assert!(r.joint.is_empty());
                    }
                } else {
                    assert_eq!(s.kind, StepKind::Forced);
                    assert_eq!(replay.legal_decisions(), vec![s.decision]);
                }
                replay.apply(s.decision).unwrap();
            }
        }
        assert!(games.iter().any(|g| {
            g.steps
                .iter()
                .any(|s| s.search.as_ref().is_some_and(|r| !r.full))
        }));
    }
}

#[test]
fn same_seed_gives_the_same_games() {
    let cfg = small_cfg();
    let a = play(&cfg, 1, 4, true);
    let b = play(&cfg, 1, 4, true);
    assert_eq!(a, b);
    // The batches do not depend on the number of threads either.
    let c = play(&cfg, 2, 4, true);
    assert_eq!(a, c);
    let mut other = cfg.clone();
    other.noise.epsilon = 0.5;
    assert_ne!(play(&other, 1, 4, true), a);
}

#[test]
fn record_files_round_trip_and_refuse_damage() {
    let games = play(&small_cfg(), 1, 3, false);
    let bytes = encode_file(&games);
    assert_eq!(decode_file(&bytes).unwrap(), games);
    assert!(matches!(
        decode_file(&bytes[..bytes.len() - 3]),
        Err(RecordError::Truncated { .. } | RecordError::Checksum)
    ));
    assert!(matches!(
        decode_file(&bytes[..40]),
        Err(RecordError::Truncated { .. })
    ));
    assert!(matches!(
        decode_file(b"NOTAFILE1234567890123456"),
        Err(RecordError::BadMagic)
    ));
    let mut v = bytes.clone();
    v[8] = 9;
    assert!(matches!(
        decode_file(&v),
        Err(RecordError::UnsupportedVersion { found: 9 })
    ));
    let mut v = bytes.clone();
    let n = v.len();
    v[n / 2] ^= 0x55;
    assert!(decode_file(&v).is_err());
    // Poisoned targets under a valid checksum: a NaN policy target, an infinite value, a
    // probability above 1 are all refused, naming what is wrong.
    for poison in 0..3 {
        let mut bad = games.clone();
        let search = bad
            .iter_mut()
            .flat_map(|g| g.steps.iter_mut())
            .find_map(|s| s.search.as_mut().filter(|r| !r.policy.is_empty()))
            .expect("a searched step with a policy target");
        match poison {
            0 => search.policy[0].1 = f32::NAN,
            1 => search.value = f32::INFINITY,
            _ => search.policy[0].1 = 1.5,
        }
        let err = decode_file(&encode_file(&bad)).unwrap_err().to_string();
        let want = if poison == 1 {
            "search value"
        } else {
            "policy target"
        };
        assert!(err.contains(want), "{err}");
    }
    // A record whose result is wrong does not replay.
    let mut bad = games[0].clone();
    bad.result = match bad.result {
        crumble_core::GameResult::Win(p) => crumble_core::GameResult::Win(p.opponent()),
        crumble_core::GameResult::Draw => crumble_core::GameResult::Win(Player::First),
    };
    bad.ending = crumble_selfplay::Ending::Rules;
    assert!(matches!(
        bad.replay::<Crumble>(),
        Err(RecordError::Replay { .. })
    ));
    assert!(
        crumble_selfplay::text_record::text_record::<Crumble>(&games[0], None)
            .unwrap()
            .contains(&format!("[Index \"{}\"]", games[0].index))
    );
}

/// Runs `agent` (with `cfg`, search seed `seed`) as a self-play job of `sp` on its standard
/// Crumble board, into `dir` until it holds `games` games; what the directory held before,
/// and the job's progress.
fn selfplay_job(
    agent: &str,
    cfg: &SearchConfig,
    seed: u64,
    (sp, (board, resolution)): (&SelfPlayConfig, (u16, u16)),
    dir: &std::path::Path,
    games: u64,
) -> (selfplay::Existing, crumble_selfplay::Progress) {
    let spec = AgentSpec::parse(agent).unwrap();
    let p = selfplay::make_agent(&spec, cfg, seed, &NoCheckpoints, false).unwrap();
    let standard = Crumble::new(board, resolution).unwrap();
    selfplay::run_selfplay(p, sp, &standard, dir, games, &mut |_| {}).unwrap()
}

#[test]
fn selfplay_job_writes_files_and_continues() {
    let dir = std::env::temp_dir().join(format!("crumble-selfplay-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let sp = SelfPlayConfig {
        max_turns: 30,
        parallel_games: 2,
        games_per_file: 2,
        seed: 3,
        ..SelfPlayConfig::default()
    };
    let cfg = SearchConfig::default();
    selfplay_job("mcts:uniform:8", &cfg, 0, (&sp, (4, 2)), &dir, 3);
    let files = selfplay::record_files(&dir).unwrap();
    assert_eq!(files.len(), 2);
    let (existing, progress) = selfplay_job("mcts:uniform:8", &cfg, 0, (&sp, (4, 2)), &dir, 5);
    assert_eq!((existing.games(), progress.games_done), (3, 2));
    let mut all = Vec::new();
    for f in selfplay::record_files(&dir).unwrap() {
        all.extend(read_file(&f).unwrap());
        assert!(f.with_extension("txt").exists());
    }
    let mut idx: Vec<u64> = all.iter().map(|g| g.index).collect();
    idx.sort();
    assert_eq!(idx, vec![0, 1, 2, 3, 4]);
    for g in &all {
        g.replay::<Crumble>().unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn agent_strings_parse_strictly() {
    assert_eq!(AgentSpec::parse("random").unwrap(), AgentSpec::Random);
    assert_eq!(
        AgentSpec::parse("mcts:rollout:400").unwrap(),
        AgentSpec::Mcts {
            evaluator: EvaluatorSpec::Rollout,
            simulations: Some(400)
        }
    );
    assert_eq!(
        AgentSpec::parse("ckpt:runs/a:b/gen-0003:64").unwrap(),
        AgentSpec::Mcts {
            evaluator: EvaluatorSpec::Checkpoint("runs/a:b/gen-0003".into()),
            simulations: Some(64)
        }
    );
    assert_eq!(
        AgentSpec::parse("ckpt:runs/gen-0003").unwrap(),
        AgentSpec::Mcts {
            evaluator: EvaluatorSpec::Checkpoint("runs/gen-0003".into()),
            simulations: None
        }
    );
    // The built-in network: 64 simulations unless told, written back with its count.
    for (text, sims, back) in [("bot", 64, "bot:64"), ("bot:200", 200, "bot:200")] {
        let spec = AgentSpec::parse(text).unwrap();
        assert_eq!(
            spec,
            AgentSpec::Mcts {
                evaluator: EvaluatorSpec::Builtin,
                simulations: Some(sims)
            }
        );
        assert_eq!(spec.to_string(), back);
    }
    assert_eq!(
        AgentSpec::parse("mcts:uniform:25").unwrap().to_string(),
        "mcts:uniform:25"
    );
    // A book, with the agent after it or the book's own; a path may hold `@` and `:`.
    for (text, path, then) in [
        ("book:b.crbook", "b.crbook", None),
        ("book:b.crbook@bot:200", "b.crbook", Some("bot:200")),
        ("book:me@x/b:1.crbook", "me@x/b:1.crbook", None),
        (
            "book:me@x/b.crbook@mcts:rollout:8",
            "me@x/b.crbook",
            Some("mcts:rollout:8"),
        ),
    ] {
        let spec = AgentSpec::parse(text).unwrap();
        assert_eq!(
            spec,
            AgentSpec::Book {
                path: path.into(),
                then: then.map(|t| Box::new(AgentSpec::parse(t).unwrap())),
            },
            "{text}"
        );
        assert_eq!(spec.to_string(), text);
    }
    // Malformed agent strings, each refused with its kind of error.
    // Whether an error is of the kind expected.
    type Kind = fn(&AgentError) -> bool;
    let refusals: [(&str, Kind); 10] = [
        ("book:", |e| matches!(e, AgentError::Missing { .. })),
        ("book:a@book:b", |e| {
            matches!(e, AgentError::NestedBook { .. })
        }),
        ("bot:0", |e| matches!(e, AgentError::BadSimulations { .. })),
        ("bot:x", |e| matches!(e, AgentError::BadSimulations { .. })),
        ("alphazero", |e| matches!(e, AgentError::UnknownKind { .. })),
        ("mcts:net:5", |e| {
            matches!(e, AgentError::UnknownEvaluator { .. })
        }),
        ("mcts:rollout", |e| matches!(e, AgentError::Missing { .. })),
        ("mcts:rollout:0", |e| {
            matches!(e, AgentError::BadSimulations { .. })
        }),
        ("mcts:rollout:-3", |e| {
            matches!(e, AgentError::BadSimulations { .. })
        }),
        ("mcts:rollout:5:x", |e| {
            matches!(e, AgentError::Trailing { .. })
        }),
    ];
    for (text, expected) in refusals {
        let e = AgentSpec::parse(text).unwrap_err();
        assert!(expected(&e), "{text}: {e:?}");
    }
    // Without the network crate a checkpoint agent is a clear error, not a panic.
    let spec = AgentSpec::parse("ckpt:x.ckpt").unwrap();
    let err =
        selfplay::make_agent::<Crumble>(&spec, &SearchConfig::default(), 0, &NoCheckpoints, false)
            .unwrap_err();
    assert!(err.to_string().contains("x.ckpt"), "{err}");
    let spec = AgentSpec::parse("bot").unwrap();
    let err =
        selfplay::make_agent::<Crumble>(&spec, &SearchConfig::default(), 0, &NoCheckpoints, false)
            .unwrap_err();
    assert!(err.to_string().contains("no built-in network"), "{err}");
    // A book agent reads its book first: a missing one is refused, naming it.
    let spec = AgentSpec::parse("book:b.crbook@bot").unwrap();
    let err =
        selfplay::make_agent::<Crumble>(&spec, &SearchConfig::default(), 0, &NoCheckpoints, false)
            .unwrap_err();
    assert!(
        err.to_string().contains("cannot read the book b.crbook"),
        "{err}"
    );
}

#[test]
fn config_loads_from_toml_and_refuses_unknown_keys() {
    let text = r#"
        [search]
        simulations = 64
        [search.gumbel]
        enabled = true
        sampled_actions = 8
        [search.rollout]
        playouts = 2
        [selfplay]
        parallel_games = 32
        [training]           # another crate's section: left alone
        lr = 0.1
    "#;
    let c = ConfigFile::from_toml_str(text, "t.toml").unwrap();
    assert_eq!(c.search.simulations, 64);
    assert!(c.search.gumbel.enabled);
    assert_eq!(c.search.gumbel.sampled_actions, 8);
    assert_eq!(c.search.rollout.playouts, 2);
    assert_eq!(c.search.rollout.max_turns, 200);
    assert_eq!(c.selfplay.parallel_games, 32);
    assert_eq!(c.search.c_puct, SearchConfig::default().c_puct);
    let e = ConfigFile::from_toml_str("[search]\nsimulatons = 3\n", "t.toml").unwrap_err();
    assert!(e.to_string().contains("simulatons"), "{e}");
    let e = ConfigFile::from_toml_str("[search.noise]\nepsilon = 2.0\n", "t.toml").unwrap_err();
    assert!(e.to_string().contains("search.noise.epsilon"), "{e}");
    // The default config round-trips through TOML.
    let d = SearchConfig::default();
    assert_eq!(
        SearchConfig::from_toml_str(&d.to_toml_string(), "x").unwrap(),
        d
    );
}

/// `[search] lookahead` reads as off, the root only, on at creation (`true` = 1) or on at a
/// visit; 0, negative numbers and other values are refused with the key named; each setting
/// round-trips.
#[test]
fn lookahead_settings_parse_and_bad_ones_are_refused() {
    use crumble_selfplay::Lookahead;
    for (text, want) in [
        ("false", Lookahead::Off),
        ("true", Lookahead::AtVisit(1)),
        ("1", Lookahead::AtVisit(1)),
        ("3", Lookahead::AtVisit(3)),
        ("\"root\"", Lookahead::Root),
    ] {
        let c = SearchConfig::from_toml_str(&format!("lookahead = {text}\n"), "t.toml").unwrap();
        assert_eq!(c.lookahead, want, "{text}");
        let back = SearchConfig::from_toml_str(&c.to_toml_string(), "t.toml").unwrap();
        assert_eq!(back.lookahead, want, "{text} round-trips");
    }
    for bad in ["0", "-2", "\"yes\"", "1.5", "4294967296"] {
        let e = SearchConfig::from_toml_str(&format!("lookahead = {bad}\n"), "t.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("t.toml") && e.contains("lookahead"),
            "{bad}: {e}"
        );
        assert!(
            e.contains("false, \"root\", true or the visit"),
            "{bad}: {e}"
        );
    }
    // Matches play with `play_lookahead`.
    let c =
        SearchConfig::from_toml_str("lookahead = false\nplay_lookahead = 2\n", "t.toml").unwrap();
    assert_eq!(c.for_play().lookahead, Lookahead::AtVisit(2));
}

/// A self-play directory that lost games (a run killed with finished games of an unwritten
/// block, or a file deleted) is completed with exactly the missing games: the files end up
/// byte for byte those of a run that was never interrupted, however many games ran at once.
#[test]
fn selfplay_resumed_after_losing_games_writes_the_uninterrupted_files() {
    let base = std::env::temp_dir().join(format!("crumble-selfplay-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let sp = SelfPlayConfig {
        max_turns: 30,
        parallel_games: 3,
        games_per_file: 2,
        seed: 11,
        // Some games from random openings: they resume exactly too.
        opening_share: 0.5,
        opening_turns: 2,
    };
    let cfg = SearchConfig::default();
    let play = |dir: &std::path::Path, sp: &SelfPlayConfig, games: u64| {
        selfplay_job("mcts:rollout:8", &cfg, 5, (sp, (4, 2)), dir, games)
    };
    let whole = base.join("whole");
    play(&whole, &sp, 7);
    let resumed = base.join("resumed");
    play(&resumed, &sp, 7);
    // Lose the block of games 2 and 3 and the last (odd-sized) block.
    for first in [2, 6] {
        let f = selfplay::record_file_path(&resumed, first);
        std::fs::remove_file(&f).unwrap();
        std::fs::remove_file(f.with_extension("txt")).unwrap();
    }
    let one_at_a_time = SelfPlayConfig {
        parallel_games: 1,
        ..sp.clone()
    };
    let (existing, progress) = play(&resumed, &one_at_a_time, 7);
    assert_eq!(existing.missing(7), vec![2, 3, 6]);
    assert_eq!(progress.games_done, 3);
    let names = |dir: &std::path::Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&whole), names(&resumed));
    assert_eq!(names(&whole).len(), 8, "{:?}", names(&whole));
    for n in names(&whole) {
        assert!(
            std::fs::read(whole.join(&n)).unwrap() == std::fs::read(resumed.join(&n)).unwrap(),
            "{n} differs"
        );
    }
    // Nothing left to play: a third run adds nothing.
    let (_, progress) = play(&resumed, &sp, 7);
    assert_eq!(progress.games_done, 0);
    std::fs::remove_dir_all(&base).unwrap();
}

/// The games of a fixed self-play job, held against a recorded reference: refactors of the
/// search, the engine or the records must leave Crumble's games exactly as they are
/// (moves and results). Rules-only agents (uniform and rollout), so the reference holds on
/// any CPU. `CRUMBLE_BLESS=1` rewrites it after an intended change.
#[test]
fn selfplay_games_match_the_recorded_reference() {
    let reference =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference-selfplay.txt");
    let dir = std::env::temp_dir().join(format!("crumble-reference-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let sp = SelfPlayConfig {
        max_turns: 40,
        parallel_games: 3,
        games_per_file: 2,
        seed: 2026,
        opening_share: 0.0,
        opening_turns: 4,
    };
    let mut text = String::new();
    for spec in ["mcts:uniform:24", "mcts:rollout:16"] {
        let sub = dir.join(spec.replace(':', "-"));
        let mut cfg = SearchConfig::default();
        cfg.playout_cap.enabled = true;
        // Recorded before the lookahead was on by default.
        cfg.lookahead = crumble_selfplay::Lookahead::Off;
        selfplay_job(spec, &cfg, 9, (&sp, (4, 4)), &sub, 5);
        text.push_str(&format!("# {spec}\n"));
        for f in selfplay::record_files(&sub).unwrap() {
            text.push_str(&std::fs::read_to_string(f.with_extension("txt")).unwrap());
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    if std::env::var_os("CRUMBLE_BLESS").is_some() {
        std::fs::create_dir_all(reference.parent().unwrap()).unwrap();
        std::fs::write(&reference, &text).unwrap();
    }
    let want = std::fs::read_to_string(&reference)
        .expect("the reference file (CRUMBLE_BLESS=1 writes it)");
    // The games, not their text: the reference was written before the generic record (its
    // `Game` tag numbers the game), and reading it is part of the check.
    let games = |text: &str| -> Vec<(Vec<Vec<crumble_core::Decision>>, Option<String>, String)> {
        let records: String = text
            .lines()
            .filter(|l| !l.starts_with("# "))
            .map(|l| format!("{l}\n"))
            .collect();
        crumble_core::game::record::split_records(&records)
            .into_iter()
            .map(|(_, r)| {
                let rec = crumble_core::game::record::Record::<Crumble>::parse(&r)
                    .unwrap_or_else(|e| panic!("{e}\n{r}"));
                let last = rec.final_position().unwrap();
                let result = format!("{} {:?}", rec.result_token(&last), rec.termination(&last));
                let index = rec.tag("Index").map(String::from);
                (rec.moves, index, result)
            })
            .collect()
    };
    let (got, reference_games) = (games(&text), games(&want));
    assert_eq!(got.len(), 10, "{text}");
    assert!(
        got == reference_games,
        "self-play games differ from {}",
        reference.display()
    );
}
