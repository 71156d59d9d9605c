//! The generic conformance test (`crumble_core::game::conformance`) on every game core holds:
//! Crumble on small boards and from a mid-game position, Splinter and Crumo on standard starts
//! of several sizes and from positions of their worked examples, and the test games.

use crumble_core::game::conformance::{ConformanceConfig, ConformanceReport, Rule, check_game};
use crumble_core::games::crumble::position::{self, MIDGAME_6X6_JSON};
use crumble_core::games::crumble::{Crumble, CrumbleStart};
use crumble_core::games::crumo::{Crumo, CrumoStart};
use crumble_core::games::nim::{Nim, NimStart};
use crumble_core::games::splinter::{Splinter, SplinterStart};
use crumble_core::games::tictactoe::{TicTacToe, TicTacToeStart, TicTacToeStartError};
use crumble_core::{
    Decision, DecisionError, DecisionLog, GameResult, GameState, Player, TurnCount,
};
use rand::Rng;
use serde_json::{Value, json};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

/// Runs the conformance test on `starts` and checks that the run explored: games ended every
/// way, and random play and single decisions both ran.
fn explored_run<G: GameState>(
    starts: &[G::Start],
    config: &ConformanceConfig,
) -> ConformanceReport {
    let r = check_game::<G>(starts, config).unwrap_or_else(|v| panic!("{}: {v}", G::NAME));
    eprintln!("{}: {r:?}", G::NAME);
    assert_eq!(r.games, config.games);
    assert!(
        r.wins[0] > 0 && r.wins[1] > 0,
        "both players won some games: {r:?}"
    );
    assert!(r.limit_draws > 0, "the turn limit ended some games: {r:?}");
    assert!(r.random_turns > 0 && r.decisions > r.random_turns, "{r:?}");
    assert!(r.illegal_tried > r.decisions, "{r:?}");
    r
}

/// The start position of a worked example in `tests/data/{dir}`.
fn example_position(dir: &str, file: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir)
        .join(file);
    let case: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    case["start"].clone()
}

fn crumble_starts() -> Vec<CrumbleStart> {
    let midgame = position::from_json(MIDGAME_6X6_JSON).unwrap();
    vec![
        CrumbleStart::standard(3, 2),
        CrumbleStart::standard(4, 2),
        CrumbleStart::standard(2, 4),
        CrumbleStart::standard(3, 4),
        CrumbleStart::from_position(&midgame),
    ]
}

#[test]
fn crumble_passes_the_conformance_test() {
    let config = ConformanceConfig {
        games: 1_000,
        seed: 15,
        max_turn_limit: 40,
        ..ConformanceConfig::default()
    };
    explored_run::<Crumble>(&crumble_starts(), &config);
}

/// Standard starts of several sizes (also a square board, whose 8 symmetries the property
/// tests use) and positions near the end of a game, with equal largest groups (a `Keep`
/// decision) and knockouts close.
#[test]
fn splinter_passes_the_conformance_test() {
    let example = |file| {
        let pos = example_position("splinter-examples", file);
        SplinterStart {
            width: pos["width"].as_u64().unwrap() as u8,
            height: pos["height"].as_u64().unwrap() as u8,
            position: Some(pos),
        }
    };
    let starts = vec![
        SplinterStart::standard(5, 6),
        SplinterStart::standard(7, 8),
        SplinterStart::standard(6, 6),
        example("15-tie-mover-keeps-first.json"),
        example("18-three-groups-two-tied.json"),
        example("19-knockouts-one-then-two.json"),
        example("21-both-reach-two-more-knockouts.json"),
        SplinterStart::standard(15, 18),
    ];
    let config = ConformanceConfig {
        games: 1_000,
        seed: 17,
        max_turn_limit: 60,
        illegal_samples: 16,
        ..ConformanceConfig::default()
    };
    let r = explored_run::<Splinter>(&starts, &config);
    // Some turns took two decisions (a move, then the group that stays).
    assert!(r.decisions > r.turns, "{r:?}");
}

/// Standard starts of several sizes, and positions of the worked examples (a pending
/// complete-stack rule, removals close, a loaded choice turn).
#[test]
fn crumo_passes_the_conformance_test() {
    let example = |file| {
        let pos = example_position("crumo-examples", file);
        CrumoStart {
            size: pos["size"].as_u64().unwrap() as u8,
            position: Some(pos),
        }
    };
    let choice = json!({
        "size": 4, "to_move": "white", "pie": "choice", "swapped": false, "previous": "other",
        "captures": {"black": 0, "white": 0},
        "stacks": [{"point": "d4", "color": "black", "height": 2}], "result": null
    });
    let starts = vec![
        CrumoStart::standard(3),
        CrumoStart::standard(4),
        CrumoStart::standard(5),
        example("06-3-enemy-cascade.json"),
        example("06-5-complete-capture-allowed.json"),
        example("06-3-own-cascade.json"),
        example("09-territory.json"),
        CrumoStart {
            size: 4,
            position: Some(choice),
        },
        CrumoStart::standard(2),
        CrumoStart::standard(7),
    ];
    let config = ConformanceConfig {
        games: 200,
        seed: 23,
        max_turn_limit: 40,
        illegal_samples: 8,
        ..ConformanceConfig::default()
    };
    let r = explored_run::<Crumo>(&starts, &config);
    // Moves take two decisions (source, then target).
    assert!(r.decisions > r.turns, "{r:?}");
}

fn tictactoe_starts() -> Vec<TicTacToeStart> {
    [
        ".........",
        "x...o....",
        "xx.oo....",
        "xoxxoo.x.",
        "xxxoo....",
    ]
    .map(|cells| TicTacToeStart {
        cells: cells.into(),
    })
    .to_vec()
}

fn tictactoe_config() -> ConformanceConfig {
    ConformanceConfig {
        games: 2_000,
        seed: 9,
        max_turn_limit: 12,
        ..ConformanceConfig::default()
    }
}

#[test]
fn tictactoe_passes_the_conformance_test() {
    let report = explored_run::<TicTacToe>(&tictactoe_starts(), &tictactoe_config());
    // Every illegal cell of every live state was tried (fewer than `illegal_samples`).
    assert!(report.distinct_states > 1_000, "{report:?}");
}

#[test]
fn nim_passes_the_conformance_test() {
    let starts = [
        vec![1, 3, 5],
        vec![2, 2],
        vec![4],
        vec![0, 3, 0, 6],
        vec![0],
    ]
    .map(|heaps| NimStart {
        heaps,
        ..NimStart::default()
    })
    .to_vec();
    let config = ConformanceConfig {
        games: 2_000,
        seed: 3,
        max_turn_limit: 12,
        ..ConformanceConfig::default()
    };
    let report = explored_run::<Nim>(&starts, &config);
    // Turns of two decisions: more decisions than turns.
    assert!(report.decisions > report.turns, "{report:?}");
}

// ------------------------------------------------------------------ flawed games are caught

/// Tic-tac-toe with one rule of the contract broken on purpose (`FLAW`), to show that the
/// conformance test catches each kind of flaw.
#[derive(Clone, PartialEq, Debug)]
struct Flawed<const FLAW: u8>(TicTacToe);

const HASH_IGNORES_TURNS: u8 = 1;
const LEGAL_DESCENDING: u8 = 2;
const ACCEPTS_TAKEN_CELL: u8 = 3;
const IGNORES_TURN_LIMIT: u8 = 4;
const RECORDED_RANDOM_DIFFERS: u8 = 5;
const START_FORGETS_BOARD: u8 = 6;
const SYMMETRIC_MOVE_MISMAPPED: u8 = 7;
const SYMMETRIES_NOT_A_GROUP: u8 = 8;

impl<const FLAW: u8> GameState for Flawed<FLAW> {
    const NAME: &'static str = "flawed-tictactoe";
    type Start = TicTacToeStart;
    type StartError = TicTacToeStartError;

    fn from_start(start: &TicTacToeStart) -> Result<Self, TicTacToeStartError> {
        TicTacToe::from_start(start).map(Flawed)
    }
    fn to_start(&self) -> TicTacToeStart {
        if FLAW == START_FORGETS_BOARD {
            return TicTacToeStart::default();
        }
        self.0.to_start()
    }
    type WinCheck = ();
    type ForcingCheck = ();
    fn action_count(&self) -> u32 {
        self.0.action_count()
    }
    fn decider(&self) -> Option<Player> {
        self.0.decider()
    }
    fn game_result(&self) -> Option<GameResult> {
        self.0.game_result()
    }
    fn legal_decisions_into(&mut self, out: &mut Vec<Decision>) {
        self.0.legal_decisions_into(out);
        if FLAW == LEGAL_DESCENDING {
            out.reverse();
        }
    }
    fn apply(&mut self, d: Decision) -> Result<(), DecisionError> {
        if FLAW == ACCEPTS_TAKEN_CELL && self.0.cell(d.0 as usize % 9).is_some() {
            return Ok(()); // "accepted", nothing done
        }
        self.0.apply(d)
    }
    fn apply_unchecked(&mut self, d: Decision) {
        self.0.apply_unchecked(d);
    }
    fn state_hash(&self) -> u64 {
        if FLAW == HASH_IGNORES_TURNS {
            let mut h = DefaultHasher::new();
            let g = &self.0;
            (g.cells_text(), g.decider(), g.game_result(), g.turn_limit()).hash(&mut h);
            return h.finish();
        }
        self.0.state_hash()
    }
    fn at_turn_start(&self) -> bool {
        self.0.at_turn_start()
    }
    fn turn_count(&self) -> TurnCount {
        self.0.turn_count()
    }
    fn set_turn_limit(&mut self, limit: u32) {
        if FLAW != IGNORES_TURN_LIMIT {
            self.0.set_turn_limit(limit);
        }
    }
    fn symmetries(&self) -> Vec<usize> {
        match FLAW {
            SYMMETRIC_MOVE_MISMAPPED => self.0.symmetries(),
            // A quarter turn without the half and three-quarter turns.
            SYMMETRIES_NOT_A_GROUP => vec![0, 5],
            _ => vec![0],
        }
    }
    fn symmetry_image(&self, sym: usize) -> Option<Self> {
        if !self.symmetries().contains(&sym) {
            return None;
        }
        self.0.symmetry_image(sym).map(Flawed)
    }
    fn symmetry_turn(&self, sym: usize, turn: &[Decision]) -> Option<Vec<Decision>> {
        if !self.symmetries().contains(&sym) {
            return None;
        }
        // The move mapped by another symmetry than the position.
        let other = if FLAW == SYMMETRIC_MOVE_MISMAPPED && sym > 0 {
            sym ^ 1
        } else {
            sym
        };
        self.0.symmetry_turn(other, turn)
    }
    fn random_turn<R: Rng + ?Sized>(&mut self, rng: &mut R, log: DecisionLog) -> u32 {
        self.0.random_turn(rng, log)
    }
    fn play_random_turn_recorded<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        path: &mut Vec<Decision>,
    ) -> u32 {
        if FLAW == RECORDED_RANDOM_DIFFERS {
            let _: u32 = rng.random(); // one extra draw: other choices than the unrecorded form
        }
        self.0.play_random_turn_recorded(rng, path)
    }
}

fn broken_rule<G: GameState<Start = TicTacToeStart>>() -> Rule {
    match check_game::<G>(&tictactoe_starts(), &tictactoe_config()) {
        Ok(report) => panic!("a flawed game passed: {report:?}"),
        Err(v) => {
            eprintln!("{v}");
            v.rule
        }
    }
}

#[test]
fn the_conformance_test_catches_each_kind_of_flaw() {
    // The wrapper itself is sound: without a flaw it passes.
    check_game::<Flawed<0>>(&tictactoe_starts(), &tictactoe_config())
        .unwrap_or_else(|v| panic!("{v}"));
    // Equal boards reached from different starts have different turn counts.
    assert_eq!(broken_rule::<Flawed<HASH_IGNORES_TURNS>>(), Rule::Hash);
    assert_eq!(
        broken_rule::<Flawed<LEGAL_DESCENDING>>(),
        Rule::LegalDecisions
    );
    assert_eq!(
        broken_rule::<Flawed<ACCEPTS_TAKEN_CELL>>(),
        Rule::IllegalRefused
    );
    assert_eq!(broken_rule::<Flawed<IGNORES_TURN_LIMIT>>(), Rule::TurnLimit);
    assert_eq!(
        broken_rule::<Flawed<RECORDED_RANDOM_DIFFERS>>(),
        Rule::RandomPlay
    );
    assert_eq!(
        broken_rule::<Flawed<START_FORGETS_BOARD>>(),
        Rule::StateAsStart
    );
    assert_eq!(
        broken_rule::<Flawed<SYMMETRIC_MOVE_MISMAPPED>>(),
        Rule::Symmetry
    );
    assert_eq!(
        broken_rule::<Flawed<SYMMETRIES_NOT_A_GROUP>>(),
        Rule::Symmetry
    );
}

/// Contract 11 by hand on tic-tac-toe: two symmetric first moves and two move orders reach
/// one canonical key; a position with no symmetry of its own has 8 distinct images.
#[test]
fn symmetric_lines_and_transpositions_share_a_canonical_key() {
    use crumble_core::game::symmetry::{canonical, canonical_state, orientations};
    let start = TicTacToe::from_start(&TicTacToeStart::default()).unwrap();
    let play = |cells: &[u32]| {
        let mut g = start.clone();
        for &c in cells {
            g.apply(Decision(c)).unwrap();
        }
        g
    };
    // Corner openings: all four corners are one class, the centre and an edge are others.
    let corners: Vec<u64> = [0, 2, 6, 8]
        .iter()
        .map(|&c| canonical(&play(&[c])).key)
        .collect();
    assert!(corners.windows(2).all(|w| w[0] == w[1]), "{corners:?}");
    assert_ne!(canonical(&play(&[0])).key, canonical(&play(&[4])).key);
    assert_ne!(canonical(&play(&[0])).key, canonical(&play(&[1])).key);
    // x0 o4 x8 and x8 o4 x0: a transposition.
    assert_eq!(play(&[0, 4, 8]), play(&[8, 4, 0]));
    assert_eq!(
        canonical(&play(&[0, 4, 8])).key,
        canonical(&play(&[2, 4, 6])).key
    );
    // A position without symmetry: 8 distinct images, each with one orientation.
    let s = play(&[0, 1]);
    let (canon, c) = canonical_state(&s);
    assert_eq!(canon.state_hash(), c.key);
    let images: std::collections::HashSet<u64> = s
        .symmetries()
        .into_iter()
        .map(|k| s.symmetry_image(k).unwrap().state_hash())
        .collect();
    assert_eq!(images.len(), 8);
    let u = orientations(&canon, &s);
    assert_eq!(u.len(), 1);
    assert_eq!(canon.symmetry_image(u[0]).unwrap(), s);
    // The centre opening is symmetric under all 8: every orientation shows it.
    assert_eq!(orientations(&play(&[4]), &play(&[4])).len(), 8);
}
