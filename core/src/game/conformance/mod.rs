//! The conformance test every game must pass: random games (OpenSpiel's random-simulation
//! test) checking each rule of the [`GameState`] contract on every state reached.
//!
//! ```
//! use crumble_core::game::conformance::{ConformanceConfig, check_game};
//! use crumble_core::games::crumble::{CrumbleStart, Crumble};
//!
//! let config = ConformanceConfig { games: 3, max_turn_limit: 4, ..ConformanceConfig::default() };
//! let report = check_game::<Crumble>(&[CrumbleStart::standard(3, 2)], &config).unwrap();
//! assert_eq!(report.games, 3);
//! ```
//!
//! It lives in the library (not behind `cfg(test)`) so that every crate's tests and every
//! future game can call it; being generic, it costs nothing in a binary that does not call it.
//! A broken rule is returned as a typed [`Violation`] (which rule, which game, which turn)
//! rather than a panic, so tests can also show that a flawed game is caught.
//!
//! Checks of other layers join through [`ExtraChecks`]: a record round-trip (write the
//! [`PlayedGame`], read it back, replay it) or an encoder's shapes and symmetries on every
//! state, without this module knowing records or tensors.
//!
//! Files: this one the public types, the run of one game and the starts; `live` the checks
//! on live states, decisions and random turns; `ending` the checks on a finished game;
//! `symmetry` the checks of the game's symmetries between turns.

use crate::game::Decision;
use crate::game::DecisionError;
use crate::game::hash::mix64;
use crate::game::state::{GameState, Player};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use thiserror::Error;

/// How much the conformance test plays, and how.
#[derive(Clone, Debug)]
pub struct ConformanceConfig {
    /// Random games to play; the starts are used in turn.
    pub games: u32,
    /// Seed of the first game; game `k` plays from a seed derived from this and `k`.
    pub seed: u64,
    /// Each game gets a turn limit drawn uniformly from `1 ..= max_turn_limit` (at least 1).
    pub max_turn_limit: u32,
    /// Chance that the next turn (or the rest of the current one) is played by the game's own
    /// random play; otherwise one decision is drawn uniformly from the legal ones.
    pub random_turn_share: f64,
    /// Illegal decisions tried on each live state: every one when there are no more than
    /// this many, otherwise this many drawn at random.
    pub illegal_samples: u32,
    /// Apply every legal decision of every live state (checked), not only the one played.
    pub apply_every_legal: bool,
    /// States remembered for the hash-collision check (unequal states with equal hashes).
    pub hashed_states: usize,
    /// Random complete moves mapped by each symmetry of each position between turns
    /// (contract 11; [`crate::game::symmetry`]).
    pub symmetry_moves: u32,
}

impl Default for ConformanceConfig {
    fn default() -> ConformanceConfig {
        ConformanceConfig {
            games: 1_000,
            seed: 0,
            max_turn_limit: 60,
            random_turn_share: 0.5,
            illegal_samples: 8,
            apply_every_legal: true,
            hashed_states: 50_000,
            symmetry_moves: 1,
        }
    }
}

/// The rule of the contract (see [`crate::game::state`]) that a game broke.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Rule {
    /// Contract 9: a start is refused, or does not survive its JSON round-trip.
    Start,
    /// Contract 10: a state's start specification does not play as the state, or does not
    /// round-trip.
    StateAsStart,
    /// Contract 1: `decider`, `is_over` and `game_result` disagree on whether the game is live.
    LiveOrOver,
    /// Contract 1: a finished game changed (accepted a decision, random play moved it).
    FinishedStaysFinished,
    /// Contract 2: the legal decisions are empty, unsorted, out of range or depend on the
    /// buffer's old contents; or the action count changed.
    LegalDecisions,
    /// Contract 3: a legal decision was refused by checked apply.
    LegalApplies,
    /// Contract 3: an illegal decision was accepted, refused with the wrong error, or changed
    /// the state.
    IllegalRefused,
    /// Contract 3: checked and unchecked apply of one decision gave different states.
    CheckedUnchecked,
    /// Contract 4: equal states with different hashes, or unequal states with equal ones.
    Hash,
    /// Contract 5: a clone (or `clone_from`) is not equal to its source.
    Clone,
    /// Contract 6: turn starts, the turn count or the decider's alternation are wrong.
    Turns,
    /// Contract 7: the turn limit was passed, or ended the game other than with the game's
    /// `turn_limit_result` (a draw for most games), or
    /// changed the game before it was reached.
    TurnLimit,
    /// Contract 8: random play did not play exactly the rest of one turn, or its recorded and
    /// unrecorded forms disagree, or its decisions do not replay.
    RandomPlay,
    /// The decisions of a game, replayed from its start, do not reach the same state.
    Replay,
    /// Contract 11: a symmetry's image or mapped move breaks [`crate::game::symmetry`]'s
    /// contract (legality, playing and mapping commuting, the canonical key, the hash).
    Symmetry,
    /// A check of another layer, through [`ExtraChecks`]; the name is [`ExtraChecks::name`].
    Extra(&'static str),
}

/// A broken rule, where it broke, and what was seen.
#[derive(Debug, Error)]
#[error("{rule:?} broken in game {game} (turn {turn}, {ply} decisions played): {detail}")]
pub struct Violation {
    pub rule: Rule,
    /// Index of the game in the run (its seed derives from the config's seed and this).
    pub game: u32,
    pub turn: u32,
    pub ply: usize,
    pub detail: String,
}

/// What a conformance run played: evidence that it explored (tests assert on it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConformanceReport {
    pub games: u32,
    pub decisions: u64,
    pub turns: u64,
    /// Turns (or rests of turns) played by the game's random play.
    pub random_turns: u64,
    /// Wins of the first and the second player.
    pub wins: [u32; 2],
    pub draws: u32,
    /// Games that the turn limit ended (the same decisions without a limit go on): draws for
    /// most games, scored results for a game whose `turn_limit_result` scores.
    pub limit_draws: u32,
    /// Illegal decisions tried with checked apply (all refused).
    pub illegal_tried: u64,
    /// Distinct states remembered for the hash check.
    pub distinct_states: usize,
}

/// One finished game of the run, as the extension checks see it.
#[derive(Debug)]
pub struct PlayedGame<'a, G: GameState> {
    pub start: &'a G::Start,
    pub turn_limit: u32,
    /// Every decision from the start to the end.
    pub decisions: &'a [Decision],
    pub end: &'a G,
}

/// Checks of other layers run on the same games (record round-trips, encoders). Each returns
/// what went wrong as text; the run reports it as [`Rule::Extra`] with [`ExtraChecks::name`].
pub trait ExtraChecks<G: GameState> {
    /// A short name for the reports (`"record round-trip"`).
    fn name(&self) -> &'static str;
    /// Called on every state the run checks, live or over, after the built-in checks.
    fn check_state(&mut self, _state: &G) -> Result<(), String> {
        Ok(())
    }
    /// Called once per game, after the built-in end-of-game checks.
    fn check_game(&mut self, _game: &PlayedGame<'_, G>) -> Result<(), String> {
        Ok(())
    }
}

/// No checks beyond the built-in ones.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoExtraChecks;

impl<G: GameState> ExtraChecks<G> for NoExtraChecks {
    fn name(&self) -> &'static str {
        "none"
    }
}

/// Plays `config.games` random games from `starts` (in turn) and checks the whole
/// [`GameState`] contract on every state; the first broken rule is returned.
pub fn check_game<G: GameState>(
    starts: &[G::Start],
    config: &ConformanceConfig,
) -> Result<ConformanceReport, Violation> {
    check_game_with::<G, _>(starts, config, &mut NoExtraChecks)
}

/// [`check_game`] that also runs `extra` on every state and every finished game.
pub fn check_game_with<G: GameState, E: ExtraChecks<G>>(
    starts: &[G::Start],
    config: &ConformanceConfig,
    extra: &mut E,
) -> Result<ConformanceReport, Violation> {
    assert!(!starts.is_empty(), "the conformance test needs a start");
    let mut run = Run::<G, E> {
        config,
        extra,
        game: 0,
        ply: 0,
        legal: Vec::new(),
        other: Vec::new(),
        path: Vec::new(),
        decisions: Vec::new(),
        seen: HashMap::new(),
        report: ConformanceReport::default(),
    };
    for k in 0..config.games {
        run.game = k;
        run.ply = 0;
        run.play_one(&starts[k as usize % starts.len()], k < starts.len() as u32)?;
        run.report.games += 1;
    }
    run.report.distinct_states = run.seen.len();
    Ok(run.report)
}

macro_rules! ensure {
    ($run:ident, $cond:expr, $rule:expr, $state:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err($run.violation($rule, $state, format!($($fmt)+)));
        }
    };
}

mod ending;
mod live;
mod symmetry;

/// Scratch states of one game, reused through `clone_from` (which is itself under test).
struct Copies<G> {
    before: G,
    other: G,
}

struct Run<'c, G: GameState, E> {
    config: &'c ConformanceConfig,
    extra: &'c mut E,
    game: u32,
    ply: usize,
    legal: Vec<Decision>,
    other: Vec<Decision>,
    path: Vec<Decision>,
    decisions: Vec<Decision>,
    seen: HashMap<u64, G>,
    report: ConformanceReport,
}

impl<G: GameState, E: ExtraChecks<G>> Run<'_, G, E> {
    pub(super) fn violation(&self, rule: Rule, state: &G, detail: String) -> Violation {
        Violation {
            rule,
            game: self.game,
            turn: state.turns_played(),
            ply: self.ply,
            detail,
        }
    }

    pub(super) fn start_state(&self, start: &G::Start) -> Result<G, Violation> {
        G::from_start(start).map_err(|e| Violation {
            rule: Rule::Start,
            game: self.game,
            turn: 0,
            ply: 0,
            detail: format!("start {start:?} refused: {e}"),
        })
    }

    /// Contract 9 for one start: built twice equal, no turn limit, and the JSON round-trip.
    fn check_start(&mut self, start: &G::Start, state: &G) -> Result<(), Violation> {
        let again = self.start_state(start)?;
        ensure!(
            self,
            again == *state,
            Rule::Start,
            state,
            "one start built twice gives unequal states"
        );
        ensure!(
            self,
            again.state_hash() == state.state_hash(),
            Rule::Hash,
            state,
            "one start built twice gives equal states with different hashes"
        );
        ensure!(
            self,
            state.turn_limit() == 0,
            Rule::Start,
            state,
            "a new state has turn limit {}",
            state.turn_limit()
        );
        ensure!(
            self,
            state.action_count() > 0,
            Rule::LegalDecisions,
            state,
            "the action space is empty"
        );
        let text = serde_json::to_string(start).map_err(|e| {
            self.violation(Rule::Start, state, format!("start does not serialise: {e}"))
        })?;
        let back: G::Start = serde_json::from_str(&text).map_err(|e| {
            self.violation(
                Rule::Start,
                state,
                format!("start {text} does not read back: {e}"),
            )
        })?;
        ensure!(
            self,
            back == *start,
            Rule::Start,
            state,
            "start {text} reads back as {back:?}"
        );
        let rebuilt = self.start_state(&back)?;
        ensure!(
            self,
            rebuilt == *state,
            Rule::Start,
            state,
            "start {text} read back builds another state"
        );
        Ok(())
    }

    fn play_one(&mut self, start: &G::Start, first_use: bool) -> Result<(), Violation> {
        let mut rng = StdRng::seed_from_u64(mix64(self.config.seed ^ mix64(u64::from(self.game))));
        let mut state = self.start_state(start)?;
        if first_use {
            self.check_start(start, &state)?;
        }
        let limit = rng.random_range(1..=self.config.max_turn_limit.max(1));
        state.set_turn_limit(limit);
        ensure!(
            self,
            state.turn_limit() == limit,
            Rule::TurnLimit,
            &state,
            "set_turn_limit({limit}) reads back as {}",
            state.turn_limit()
        );
        let action_count = state.action_count();
        let mut copies = Copies {
            before: state.clone(),
            other: state.clone(),
        };
        self.decisions.clear();
        if !state.is_over() {
            ensure!(
                self,
                state.at_turn_start(),
                Rule::Turns,
                &state,
                "a live start state is not at a turn start"
            );
        }
        while !state.is_over() {
            self.check_live(&mut state, action_count, &mut copies, &mut rng)?;
            if state.at_turn_start() && state.turns_played() % 3 == 0 {
                self.check_state_as_start(&state)?;
            }
            if state.at_turn_start() {
                self.check_symmetries(&state)?;
            } else {
                ensure!(
                    self,
                    state.symmetries() == [0],
                    Rule::Symmetry,
                    &state,
                    "within a turn the symmetries are {:?}, not the identity alone",
                    state.symmetries()
                );
            }
            if rng.random_bool(self.config.random_turn_share) {
                self.random_turn(&mut state, &mut copies, &mut rng)?;
            } else {
                let d = self.legal[rng.random_range(0..self.legal.len())];
                let (decider, turns) = (state.decider(), state.turns_played());
                copies.other.clone_from(&state);
                if let Err(e) = copies.other.apply(d) {
                    return Err(self.violation(
                        Rule::LegalApplies,
                        &state,
                        format!("legal {d:?} refused: {e}"),
                    ));
                }
                state.apply_unchecked(d);
                ensure!(
                    self,
                    copies.other == state && copies.other.state_hash() == state.state_hash(),
                    Rule::CheckedUnchecked,
                    &state,
                    "checked and unchecked apply of {d:?} differ"
                );
                self.decisions.push(d);
                self.ply += 1;
                self.report.decisions += 1;
                self.after_decision(decider, turns, &state)?;
            }
        }
        self.check_over(&mut state, &mut copies)?;
        self.check_symmetries(&state)?;
        self.check_finished_game(start, limit, &state)
    }
}
