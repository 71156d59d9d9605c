//! Proofs and priors in self-play records: the search's proven root value (format version 2)
//! and the network's priors (version 6) are recorded, round-trip, are validated like the
//! other targets, and version 1 and 5 files still load.

#[path = "common/short_games.rs"]
mod short_games;
use crumble_core::GameState;
use crumble_core::games::crumble::Crumble;
use crumble_core::games::tictactoe::TicTacToe;
use crumble_selfplay::record::{OLDEST_VERSION, VERSION, decode_file, encode_file};
use crumble_selfplay::{GameRecord, Lookahead, SearchConfig};
use short_games::{ShortGames, quick_rollouts, short_games};

/// Short rollout self-play games on a 4x4 board with the lookahead on, so roots get proven.
fn proving_games() -> Vec<GameRecord> {
    let how = ShortGames {
        games: 6,
        seed: 5,
        parallel_games: 4,
        threads: 1,
        rollout: true,
    };
    let cfg = SearchConfig {
        lookahead: Lookahead::AtVisit(1),
        ..quick_rollouts()
    };
    short_games(&cfg, how)
}

#[test]
fn proven_values_are_recorded_and_round_trip() {
    let games = proving_games();
    let mut proven = 0;
    for g in &games {
        let mut game: Crumble = g.start_state().unwrap();
        for s in &g.steps {
            if let Some(r) = &s.search {
                // Self-play records the evaluator's prior of every decision of the target.
                assert_eq!(r.prior.len(), r.policy.len(), "game {}", g.index);
                let sum: f32 = r.prior.iter().sum();
                assert!((sum - 1.0).abs() < 1e-3, "priors sum to {sum}");
            }
            if let Some(p) = s.search.as_ref().and_then(|r| r.proven) {
                proven += 1;
                assert!([-1.0, 0.0, 1.0].contains(&p), "{p}");
                let r = s.search.as_ref().unwrap();
                if p == 1.0 {
                    // The policy target at a proven win: uniform over the proving decisions,
                    // and the one played is among them.
                    let support: Vec<f32> =
                        r.policy.iter().map(|x| x.1).filter(|&t| t > 0.0).collect();
                    assert!(support.iter().all(|&t| (t - support[0]).abs() < 1e-6));
                    let played = r.policy.iter().find(|x| x.0 == s.decision).unwrap();
                    assert!(played.1 > 0.0, "a proven win plays a proving decision");
                    // The proof is right: the decider wins this game (no resignation here).
                    let decider = GameState::decider(&game).unwrap();
                    assert_eq!(g.winner(), Some(decider), "game {}", g.index);
                }
            }
            game.apply(s.decision).unwrap();
        }
    }
    assert!(proven > 0, "the test games should contain proven roots");
    let bytes = encode_file(&games);
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
        VERSION
    );
    assert_eq!(decode_file(&bytes).unwrap(), games);
    // A proven value outside [-1, 1] or not finite is refused, naming the field.
    for poison in [1.5f32, f32::NAN] {
        let mut bad = games.clone();
        let r = bad
            .iter_mut()
            .flat_map(|g| g.steps.iter_mut())
            .find_map(|s| s.search.as_mut().filter(|r| r.proven.is_some()))
            .unwrap();
        r.proven = Some(poison);
        let err = decode_file(&encode_file(&bad)).unwrap_err().to_string();
        assert!(err.contains("proven value"), "{err}");
    }
}

/// A file written by the version 1 code (before proofs were recorded; made by `crumble
/// selfplay` on a 4x4 board): it still loads, its games replay, and none has a proof.
#[test]
fn version_1_files_still_load() {
    assert_eq!(OLDEST_VERSION, 1);
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/records-v1.crsp"
    ))
    .unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 1);
    let games = decode_file(&bytes).unwrap();
    assert!(!games.is_empty());
    let mut searched = 0;
    for g in &games {
        g.replay::<Crumble>().unwrap();
        for s in &g.steps {
            if let Some(r) = &s.search {
                searched += 1;
                assert_eq!(r.proven, None);
            }
        }
    }
    assert!(searched > 0);
    // Written again, they become files of the current version with the same content.
    let again = encode_file(&games);
    assert_eq!(
        u32::from_le_bytes(again[8..12].try_into().unwrap()),
        VERSION
    );
    assert_eq!(decode_file(&again).unwrap(), games);
}

/// A file written by the version 5 code (before priors were recorded; made by `crumble
/// selfplay --agent mcts:uniform:16 --games 3 --config configs/tictactoe.toml`): it still
/// loads with no priors, its games replay, and written again it reads back the same.
#[test]
fn version_5_files_still_load_without_priors() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/records-v5-tictactoe.crsp"
    ))
    .unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 5);
    let games = decode_file(&bytes).unwrap();
    assert_eq!(games.len(), 3);
    let mut searched = 0;
    for g in &games {
        g.replay::<TicTacToe>().unwrap();
        for r in g.steps.iter().filter_map(|s| s.search.as_ref()) {
            searched += 1;
            assert!(!r.policy.is_empty() && r.prior.is_empty());
        }
    }
    assert!(searched > 0);
    assert_eq!(decode_file(&encode_file(&games)).unwrap(), games);
}
