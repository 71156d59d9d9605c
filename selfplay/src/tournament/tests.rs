//! Unit tests of the tournament's parts.

use super::*;
use crate::agent::NoCheckpoints;
use crate::arena::{Openings, opening_positions};
use crate::config::SearchConfig;
use crate::stats::{Pentanomial, Wdl};
use crumble_core::GameState;
use crumble_core::games::tictactoe::TicTacToe;

fn entries(specs: &[&str]) -> Vec<Entry> {
    specs
        .iter()
        .map(|s| Entry::agent(AgentSpec::parse(s).unwrap()))
        .collect()
}

/// A tally of `pairs` game pairs from `penta` (A's points per pair: 0, ½, 1, 1½, 2).
fn tally(wins: u64, draws: u64, losses: u64, penta: [u64; 5]) -> Tally {
    Tally {
        wdl: Wdl {
            wins,
            draws,
            losses,
        },
        penta: Pentanomial(penta),
        a_wins_first: wins / 2,
        a_wins_second: wins - wins / 2,
        first_wins: wins / 2 + losses / 2,
        second_wins: (wins + losses) - (wins / 2 + losses / 2),
        turns: 10 * (wins + draws + losses),
    }
}

#[test]
fn schedules_parse_and_pair() {
    let pairs = |s: &str, n| -> Vec<(usize, usize)> {
        let sch: Schedule = s.parse().unwrap();
        sch.pairings(n).iter().map(|p| (p.a, p.b)).collect()
    };
    assert_eq!(
        pairs("round-robin", 4),
        [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    );
    assert_eq!(pairs("gauntlet", 4), [(0, 1), (0, 2), (0, 3)]);
    assert_eq!(pairs("ladder:1", 4), [(0, 1), (1, 2), (2, 3)]);
    // ladder:2 over 5 agents: 4 + 3 = 7 pairings.
    assert_eq!(pairs("ladder:2", 5).len(), 7);
    assert_eq!(pairs("ladder:9", 4), pairs("round-robin", 4));
    assert!(pairs("gauntlet", 1).is_empty());
    // Two anchors against everyone, then a ladder among the rest.
    assert_eq!(
        pairs("anchored:2", 5),
        [
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 2),
            (1, 3),
            (1, 4),
            (2, 3),
            (3, 4)
        ]
    );
    assert_eq!(pairs("anchored:4", 4), pairs("round-robin", 4));
    assert_eq!(pairs("anchored:1", 3), [(0, 1), (0, 2), (1, 2)]);
    for bad in [
        "swiss",
        "ladder:0",
        "ladder:",
        "ladder:x",
        "anchored:0",
        "anchored:",
        "Round-Robin",
        "",
    ] {
        let e = bad.parse::<Schedule>().unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "unknown schedule `{bad}` (expected round-robin, gauntlet, ladder:K or anchored:K with K ≥ 1)"
            )
        );
    }
}

#[test]
fn entries_are_checked_and_named() {
    let e =
        Tournament::new(entries(&["random", "mcts:rollout:4", "random"]), "gauntlet").unwrap_err();
    assert_eq!(e.to_string(), "agent `random` is listed twice");
    let e = Tournament::new(entries(&["random"]), "round-robin").unwrap_err();
    assert_eq!(
        e.to_string(),
        "a tournament needs at least two agents, got 1"
    );
    // The entries are checked before the schedule.
    let e = Tournament::new(entries(&["random"]), "swiss").unwrap_err();
    assert!(matches!(e, TournamentError::TooFew(1)), "{e}");
    let t = Tournament::new(entries(&["random", "mcts:uniform:8"]), "round-robin").unwrap();
    assert_eq!((t.pairings.len(), t.to_play()), (1, 1));

    let ck =
        Entry::agent(AgentSpec::parse("ckpt:runs/a/checkpoints/gen-0012/net.crnet:8").unwrap());
    assert_eq!(ck.generation, Some(12));
    assert_eq!(ck.name, "ckpt:runs/a/checkpoints/gen-0012/net.crnet:8");
    let other = AgentSpec::parse("ckpt:nets/best.crnet").unwrap();
    assert_eq!(generation_of(&other), None);
    assert_eq!(Entry::checkpoint(other, 3).name, "gen-0003");
    let names: Vec<String> = baselines(100)
        .unwrap()
        .into_iter()
        .map(|e| e.name)
        .collect();
    assert_eq!(names, ["random", "mcts:rollout:100"]);
    assert_eq!(baselines(0).unwrap().len(), 1);
}

#[test]
fn the_ledger_resumes_finished_pairings_and_refuses_other_settings() {
    let dir = std::env::temp_dir().join(format!("crumble-tournament-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut play = PairSettings {
        pairs: 2,
        max_turns: 50,
        concurrency: 4,
        seed: 7,
        adjudication: Default::default(),
    };
    let cfg = ConfigFile::default();
    let start = r#"{"board":6,"resolution":8}"#;
    let settings = settings_json(&play, "openings: 4 random turns", start, &cfg).unwrap();
    let list = entries(&["random", "mcts:uniform:8", "mcts:uniform:16"]);
    let t01 = tally(3, 0, 1, [0, 1, 0, 1, 0]);
    {
        let mut l = Ledger::open(&dir, &settings).unwrap();
        assert!(l.stored().is_empty());
        l.commit(&list[0], &list[1], &t01).unwrap();
        // Stored as B against A: found from A's side.
        l.commit(&list[2], &list[1], &tally(0, 2, 2, [1, 1, 0, 0, 0]))
            .unwrap();
    }
    let text = std::fs::read_to_string(dir.join("pairings.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 2);
    let records = format!(
        r#""records":"games/{}""#,
        ledger::records_prefix("mcts:uniform:16", "mcts:uniform:8")
    );
    assert!(text.contains(&records), "{text}");

    let l = Ledger::open(&dir, &settings).unwrap();
    assert_eq!(l.stored().len(), 2);
    assert_eq!(l.lookup("random", "mcts:uniform:8"), Some(t01));
    let swapped = l.lookup("mcts:uniform:8", "mcts:uniform:16").unwrap();
    assert_eq!(
        (swapped.wdl.wins, swapped.wdl.draws, swapped.wdl.losses),
        (2, 2, 0)
    );
    assert_eq!(swapped.penta, Pentanomial([0, 0, 0, 1, 1]));
    assert_eq!(l.lookup("random", "mcts:uniform:16"), None);

    let mut t = Tournament::new(list.clone(), "round-robin").unwrap();
    t.resume(&l);
    assert_eq!(t.to_play(), 1);
    assert_eq!(t.tallies[0], Some(t01));
    assert_eq!(t.tallies[1], None);
    assert!(t.tallies[2].is_some());

    play.seed = 8;
    let other = settings_json(&play, "openings: 4 random turns", start, &cfg).unwrap();
    let e = Ledger::open(&dir, &other).unwrap_err();
    assert!(matches!(e, TournamentError::OtherSettings(_)), "{e}");
    assert!(
        e.to_string()
            .contains("holds a tournament with other settings"),
        "{e}"
    );

    // A tournament stored before the start was: Crumble's board as board and resolution.
    let mut old = settings.clone();
    let map = old.as_object_mut().unwrap();
    map.remove("start");
    map.insert("board".into(), 6.into());
    map.insert("resolution".into(), 8.into());
    let stored = serde_json::json!({ "settings": old }).to_string();
    std::fs::write(dir.join("tournament.json"), stored).unwrap();
    assert_eq!(Ledger::open(&dir, &settings).unwrap().stored().len(), 2);

    std::fs::write(
        dir.join("pairings.jsonl"),
        format!("{text}\n{{\"a\":\"random\"}}\n"),
    )
    .unwrap();
    let e = Ledger::open(&dir, &settings).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("pairings.jsonl line 4: not a pairing result"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Copies the first `pairs` game pairs of the records `prefix` from games directory `from`
/// into `to`, as a tournament stopped after them left them.
fn copy_pairs(from: &Path, to: &Path, prefix: &str, pairs: usize) {
    let file = from.join(format!("{prefix}-000000.crsp"));
    let all = crate::record::read_file_checked::<TicTacToe>(&file).unwrap();
    assert!(all.len() >= 2 * pairs, "{}", file.display());
    let mut w = RecordWriter::<TicTacToe>::new(to, prefix, 1 << 20).unwrap();
    for g in &all[..2 * pairs] {
        let [first, second] = g.agents.clone().unwrap();
        w.push(g.clone(), &first, &second).unwrap();
    }
    w.flush().unwrap();
}

/// The files of directory `dir`, each with its bytes, by name.
fn files_of(dir: &Path) -> Vec<(std::ffi::OsString, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name(), std::fs::read(e.path()).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// A tournament stopped with one pairing stored, one with its first pair stored and one with
/// every pair stored but not its line goes on to exactly the games, tallies and stored lines
/// of an unbroken one.
#[test]
fn a_stopped_tournament_keeps_its_finished_pairs_and_resumes_to_the_unbroken_result() {
    let play = PairSettings {
        pairs: 3,
        max_turns: 0,
        concurrency: 4,
        seed: 11,
        adjudication: Default::default(),
    };
    let base = std::env::temp_dir().join(format!("crumble-stopped-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let list = entries(&["random", "mcts:uniform:4", "mcts:uniform:8"]);
    let start = TicTacToe::from_start(&Default::default()).unwrap();
    let openings = opening_positions(&start, &Openings::RandomTurns(1), 3, 5).unwrap();
    let specs: Vec<AgentSpec> = list.iter().map(|e| e.spec.clone()).collect();
    let pool = Pool::<TicTacToe>::new(&specs, &SearchConfig::default().for_play(), &NoCheckpoints)
        .unwrap();
    let settings = settings_json(&play, "1 random turn", "{}", &ConfigFile::default()).unwrap();
    let run = |dir: &Path| {
        let mut l = Ledger::open(dir, &settings).unwrap();
        let mut t = Tournament::new(list.clone(), "round-robin").unwrap();
        t.resume(&l);
        let mut reported = Vec::new();
        let on_finished =
            &mut |a: &Entry, b: &Entry, _: &Tally| reported.push(format!("{} {}", a.name, b.name));
        t.play(
            &pool,
            &openings,
            &play,
            Some(&mut l),
            on_finished,
            &mut |_| {},
        )
        .unwrap();
        (t.tallies, reported)
    };
    let (whole, part) = (base.join("whole"), base.join("part"));
    let (tallies, reported) = run(&whole);
    assert_eq!(reported.len(), 3);
    // The stop: pairing 0 stored, pairing 1 its first pair only, pairing 2 (mcts:uniform:4
    // against mcts:uniform:8) every pair but not its line.
    let (from, to) = (whole.join("games"), part.join("games"));
    std::fs::create_dir_all(&to).unwrap();
    let lines = std::fs::read_to_string(whole.join("pairings.jsonl")).unwrap();
    let first_line = lines.lines().next().unwrap();
    std::fs::write(part.join("pairings.jsonl"), format!("{first_line}\n")).unwrap();
    std::fs::copy(whole.join("tournament.json"), part.join("tournament.json")).unwrap();
    for (k, keep) in [(0, 3), (1, 1), (2, 3)] {
        let (a, b) = (&specs[[0, 0, 1][k]], &specs[[1, 2, 2][k]]);
        let prefix = ledger::records_prefix(&a.to_string(), &b.to_string());
        copy_pairs(&from, &to, &prefix, keep);
    }
    let (resumed, reported) = run(&part);
    assert_eq!(resumed, tallies);
    // Pairing 2 is finished from its records alone, then pairing 1 is played.
    assert_eq!(
        reported,
        ["mcts:uniform:4 mcts:uniform:8", "random mcts:uniform:8"]
    );
    let sorted = |dir: &Path| {
        let text = std::fs::read_to_string(dir.join("pairings.jsonl")).unwrap();
        let mut v: Vec<String> = text.lines().map(String::from).collect();
        v.sort();
        v
    };
    assert_eq!(sorted(&whole), sorted(&part));
    assert_eq!(files_of(&from).len(), 6);
    assert!(files_of(&from) == files_of(&to), "the records differ");
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn tables_rank_the_fitted_ratings() {
    let list = vec![
        Entry::agent(AgentSpec::Random),
        Entry::agent(AgentSpec::parse("mcts:rollout:4").unwrap()),
        Entry::checkpoint(AgentSpec::parse("ckpt:r/gen-0002/net.crnet").unwrap(), 2),
    ];
    let mut t = Tournament::new(list, "round-robin").unwrap();
    // Unplayed pairings are left out of the fit and the counts.
    t.tallies = vec![
        Some(tally(1, 2, 5, [2, 1, 1, 0, 0])),
        Some(tally(0, 0, 8, [4, 0, 0, 0, 0])),
        None,
    ];
    let opts = FitOptions {
        anchor: 0,
        prior_draws: 1.0,
    };
    let table = t.table(&opts).unwrap();
    let names: Vec<&str> = table.rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["gen-0002", "mcts:rollout:4", "random"]);
    assert!(table.rows.windows(2).all(|w| w[0].elo >= w[1].elo));
    let random = &table.rows[2];
    assert_eq!((random.player, random.elo, random.games), (0, 0.0, 16));
    assert!((random.score - 2.0 / 16.0).abs() < 1e-12);
    let rollout = &table.rows[1];
    assert_eq!(rollout.games, 8);
    assert!((rollout.score - 6.0 / 8.0).abs() < 1e-12);
    assert_eq!(table.anchor, "random");
    assert_eq!(table.pairings.len(), 2);
    assert_eq!(
        (table.pairings[1].a.as_str(), table.pairings[1].b.as_str()),
        ("random", "gen-0002")
    );

    let csv = table.csv();
    assert_eq!(csv.lines().count(), 4);
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("1,\"gen-0002\",\"ckpt:r/gen-0002/net.crnet\",2,")
    );
    let v = table.json();
    assert_eq!(v["anchor"], "random");
    assert_eq!(v["ratings"][2]["elo"], 0.0);
    assert_eq!(v["pairings"].as_array().unwrap().len(), 2);
    let md = table.markdown("h", "f");
    assert!(
        md.contains("| 1 | gen-0002 (`ckpt:r/gen-0002/net.crnet`) |"),
        "{md}"
    );
    assert!(
        md.contains("| random | mcts:rollout:4 | 1 | 2 | 5 | 25.0% |"),
        "{md}"
    );
    assert!(table.text().lines().nth(3).unwrap().contains("random"));

    let chart = table.chart().unwrap();
    assert_eq!(chart.points.len(), 1);
    assert_eq!(chart.references.len(), 2);
    assert_eq!(chart.title, "Rating by generation (random = 0)");
    assert_eq!(chart.points[0].x, 2.0);
    // Against another measure of the checkpoint (the run's CPU hours): mapped, or left out.
    let hours = table
        .chart_by("CPU hours", &|g| (g == 2).then_some(0.75))
        .unwrap();
    assert_eq!(
        (hours.points[0].x, hours.points[0].y),
        (0.75, chart.points[0].y)
    );
    assert_eq!(hours.x_label, "CPU hours");
    assert!(table.chart_by("CPU hours", &|_| None).is_none());
    let mut no_run = Tournament::new(
        vec![
            Entry::agent(AgentSpec::Random),
            Entry::agent(AgentSpec::parse("mcts:uniform:2").unwrap()),
        ],
        "gauntlet",
    )
    .unwrap();
    // Nothing played: no rating, and the error names the players.
    let e = no_run.table(&opts).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("rating fit failed (players: 0 = random, 1 = mcts:uniform:2)"),
        "{e}"
    );
    no_run.tallies = vec![Some(tally(1, 0, 1, [0, 1, 0, 0, 0]))];
    assert!(no_run.table(&opts).unwrap().chart().is_none());
}
