//! Self-play from varied openings: a configured share of the games starts after a few random
//! turns, chosen from the seed and the game's index alone, and their records replay.

use crumble_core::GameState;
use crumble_core::games::crumble::Crumble;
use crumble_selfplay::record::{read_file, start_json};
use crumble_selfplay::{AgentSpec, NoCheckpoints, SearchConfig, SelfPlayConfig, selfplay};

fn sp(share: f64) -> SelfPlayConfig {
    SelfPlayConfig {
        max_turns: 30,
        parallel_games: 3,
        games_per_file: 4,
        seed: 21,
        opening_share: share,
        opening_turns: 3,
    }
}

#[test]
fn the_share_is_respected_and_openings_are_deterministic_per_game() {
    let standard = Crumble::new(4, 2).unwrap();
    for share in [0.0, 0.25, 1.0] {
        let cfg = sp(share);
        let n = 400u64;
        let mut varied = 0;
        for i in 0..n {
            let (start, max_turns) = selfplay::opening(&cfg, &standard, i);
            // The same game index gives the same opening, whatever was drawn before.
            assert_eq!(
                selfplay::opening(&cfg, &standard, i),
                (start.clone(), max_turns)
            );
            if start != standard {
                varied += 1;
                assert!(!start.is_over());
                // The opening's turns count towards the run's turn limit.
                assert_eq!(max_turns, 30 - 3);
            } else {
                assert_eq!(max_turns, 30);
            }
        }
        let want = share * n as f64;
        // Binomial: 4 standard deviations around the share (0 and 1 are exact).
        let sd = (n as f64 * share * (1.0 - share)).sqrt();
        assert!(
            (varied as f64 - want).abs() <= 4.0 * sd + 1e-9,
            "share {share}: {varied} of {n} games from openings"
        );
    }
    // Openings differ between games and between seeds.
    let cfg = sp(1.0);
    let a: Vec<Crumble> = (0..8)
        .map(|i| selfplay::opening(&cfg, &standard, i).0)
        .collect();
    assert!(a.windows(2).any(|w| w[0] != w[1]));
    let other = SelfPlayConfig { seed: 22, ..cfg };
    let b: Vec<Crumble> = (0..8)
        .map(|i| selfplay::opening(&other, &standard, i).0)
        .collect();
    assert_ne!(a, b);
}

#[test]
fn games_from_openings_are_recorded_with_their_start_and_replay() {
    let dir = std::env::temp_dir().join(format!("crumble-openings-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = sp(0.5);
    cfg.validate().unwrap();
    let spec = AgentSpec::parse("mcts:rollout:8").unwrap();
    let search = SearchConfig::default();
    let standard = Crumble::new(4, 2).unwrap();
    let p = selfplay::make_agent(&spec, &search, 0, &NoCheckpoints, false).unwrap();
    selfplay::run_selfplay(p, &cfg, &standard, &dir, 8, &mut |_| {}).unwrap();
    let standard_start = start_json::<Crumble>(&standard.to_start());
    let mut games = Vec::new();
    for f in selfplay::record_files(&dir).unwrap() {
        games.extend(read_file(&f).unwrap());
    }
    games.sort_by_key(|g| g.index);
    assert_eq!(games.len(), 8);
    let mut varied = 0;
    for g in &games {
        let (start, max_turns) = selfplay::opening(&cfg, &standard, g.index);
        let mut recorded: Crumble = g.start_state().unwrap();
        recorded.set_max_turns(0);
        let mut want = start.clone();
        want.set_max_turns(0);
        assert_eq!(recorded, want, "game {}", g.index);
        let custom = g.start != standard_start;
        assert_eq!(custom, start != standard, "game {}", g.index);
        assert_eq!(g.max_turns, max_turns);
        varied += usize::from(custom);
        g.replay::<Crumble>().unwrap();
        // The human-readable record carries the start position and reads back.
        let text = crumble_selfplay::text_record::text_record::<Crumble>(g, None).unwrap();
        let rec = crumble_core::game::record::Record::<Crumble>::parse(&text).unwrap();
        rec.final_position().unwrap();
    }
    assert!(
        varied > 0 && varied < 8,
        "{varied} of 8 games from openings"
    );
    // Bad settings are refused by name.
    let e = SelfPlayConfig {
        opening_share: 1.5,
        ..cfg.clone()
    }
    .validate()
    .unwrap_err();
    assert!(e.to_string().contains("selfplay.opening_share"), "{e}");
    let e = SelfPlayConfig {
        opening_turns: 30,
        ..cfg.clone()
    }
    .validate()
    .unwrap_err();
    assert!(e.to_string().contains("selfplay.opening_turns"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
