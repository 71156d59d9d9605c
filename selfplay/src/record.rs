//! Self-play game records and their file format, for any game ([`GameState`]).
//!
//! A record names its game and its start, and holds every decision of the game (forced,
//! random and searched ones), and for each searched decision the search value, whether it was
//! a full search, the policy target over all its legal decisions (so the legal mask is in the
//! record too), and at the start of a turn that goes on the joint distribution over the
//! turn's first two decisions ([`crate::Search::joint_first_two`]); then the result and how
//! the game ended.
//!
//! # File format, version 6 (`*.crsp`)
//!
//! All integers little-endian. `MAGIC` (8 bytes `CRMBSP\r\n`), `u32` version, `u32` number of
//! games, the games, then a `u64` FNV-1a checksum of everything before it. A game:
//! `u64` index, `u8` length and the bytes of the game's name ([`GameState::NAME`]), `u32`
//! length and the bytes of the start specification as JSON ([`GameState::Start`]), `u32` max
//! turns, `u8` result (0 draw, 1 the first player won, 2 the second), `u8` ending (index in
//! [`Ending::ALL`]), `u8` would-resign (0 none, 1 first player, 2 second), the agents (`u8`
//! 0 none, or 1 and for each seat a `u8` length and the bytes of its agent string), `u32`
//! number of steps, and per step: `u32` decision, `u8` kind (0 forced, 1 random, 2 searched, 3 exact
//! play, 4 from a book); for a
//! searched step `f32` value, `u8` full, `u8` proven (0 no, 1 yes) and if proven the `f32`
//! exact value, `u32` n, n × (`u32` decision, `f32` target), `u8` prior flag (0 none, 1
//! then n × `f32`: the network's prior of each of those decisions), `u32` m, m × (`u32`
//! first, `u32` second, `f32` mass).
//!
//! Versions 1 and 2 hold Crumble games only: instead of the name and start they have `u16`
//! board, `u16` resolution, `u32` max turns, and a `u32`-length start-position JSON (0 = the
//! standard start); instead of result and ending a winner (0 none, 1 black, 2 white) and
//! Crumble's reason (index in `crumble_core::games::crumble::Reason::ALL`). Version 1 has no proven byte.
//! Both are still read, as Crumble records. Version 3 is version 4 without the agents; version
//! 4 is version 5 without book steps; version 5 is version 6 without the prior flag.
//!
//! Files are written to a temporary name and renamed, so a file that exists is complete; a
//! truncated or damaged file is refused with a typed [`RecordError`].

use crumble_core::game::hash::fnv1a;
use crumble_core::{Decision, GameResult, GameState, Player};
use std::path::Path;

mod decode;
pub use decode::decode_file;

pub const MAGIC: [u8; 8] = *b"CRMBSP\r\n";
pub const VERSION: u32 = 6;
/// The oldest format version this build still reads.
pub const OLDEST_VERSION: u32 = 1;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// By the game's rules (including its turn limit).
    Rules,
    /// A player resigned (search value below the resignation threshold).
    Resignation,
    /// Stopped after a fixed number of turns, as a draw (the tactics harness).
    Stopped,
}

impl Ending {
    pub const ALL: [Ending; 3] = [Ending::Rules, Ending::Resignation, Ending::Stopped];

    pub fn name(self) -> &'static str {
        match self {
            Ending::Rules => "rules",
            Ending::Resignation => "resignation",
            Ending::Stopped => "stopped",
        }
    }
}

/// The JSON text records and job queues store for a start specification.
pub fn start_json<G: GameState>(start: &G::Start) -> String {
    // A start is plain data (the contract's rule 9): serialising it cannot fail.
    serde_json::to_string(start).expect("a start serialises")
}

/// How a decision was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// The only legal decision.
    Forced,
    /// Random play.
    Random,
    /// Chosen by search; see [`SearchRecord`].
    Searched,
    /// Perfect play (the `solver` agent).
    Exact,
    /// From an opening book (`book:` agents).
    Book,
}

/// What the search said about one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchRecord {
    /// Root value from the view of the deciding player.
    pub value: f32,
    /// A full search (playout cap randomisation): its target trains the policy.
    pub full: bool,
    /// The root's exact value from the deciding player's view (+1 won, 0 drawn, -1 lost)
    /// when the search proved it (`SearchOutput::proven`); the policy target then points at
    /// the proving decisions.
    pub proven: Option<f32>,
    /// Policy target over every legal decision (sorted by decision), summing to 1.
    pub policy: Vec<(Decision, f32)>,
    /// The network's prior of each decision of `policy` (same order), before root noise:
    /// how much the search's target surprised the network (replay's policy-surprise
    /// weighting). Empty when not recorded (files before version 6, matches).
    pub prior: Vec<f32>,
    /// At the start of a turn that goes on: the joint distribution over the turn's first two
    /// decisions (Crumble's choose and extent; see [`crate::Search::joint_first_two`]).
    pub joint: Vec<(Decision, Decision, f32)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StepRecord {
    pub decision: Decision,
    pub kind: StepKind,
    pub search: Option<SearchRecord>,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Number of the game in its run (its random stream derives from the seed and this).
    pub index: u64,
    /// The game's name ([`GameState::NAME`]).
    pub game: String,
    /// The start specification as JSON ([`GameState::Start`], [`start_json`]).
    pub start: String,
    pub max_turns: u32,
    pub steps: Vec<StepRecord>,
    pub result: GameResult,
    pub ending: Ending,
    /// In a game played out despite resignation: who would have resigned first.
    pub would_resign: Option<Player>,
    /// The agents that played the first and second seat, when the game was a match between
    /// named agents (version 4 on; `None` for self-play and for older files).
    pub agents: Option<[String; 2]>,
}

/// Why a record or record file was refused.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("not a self-play record file (bad magic bytes)")]
    BadMagic,
    #[error(
        "record format version {found} is not supported (this build reads versions {OLDEST_VERSION} to {VERSION})"
    )]
    UnsupportedVersion { found: u32 },
    #[error("record file truncated at byte {offset}")]
    Truncated { offset: usize },
    #[error("record file damaged: checksum mismatch")]
    Checksum,
    #[error("record file damaged at byte {offset}: {what}")]
    Corrupt { offset: usize, what: String },
    #[error("game {index}: {what}")]
    Replay { index: u64, what: String },
    #[error("game {index} is a game of {found}, not of {expected}")]
    WrongGame {
        index: u64,
        found: String,
        expected: &'static str,
    },
    /// A game of a file that does not replay; `position` is its 0-based place in the file.
    #[error("game index {position} in the file: {source}")]
    InFile {
        position: usize,
        #[source]
        source: Box<RecordError>,
    },
}

fn player_code(p: Option<Player>) -> u8 {
    match p {
        None => 0,
        Some(Player::First) => 1,
        Some(Player::Second) => 2,
    }
}

impl GameRecord {
    /// The game at its start, with the turn limit set; refused when the record holds another
    /// game or a start the game does not accept.
    pub fn start_state<G: GameState>(&self) -> Result<G, RecordError> {
        if self.game != G::NAME {
            return Err(RecordError::WrongGame {
                index: self.index,
                found: self.game.clone(),
                expected: G::NAME,
            });
        }
        let replay = |what: String| RecordError::Replay {
            index: self.index,
            what,
        };
        let spec: G::Start =
            serde_json::from_str(&self.start).map_err(|e| replay(format!("start: {e}")))?;
        let mut g = G::from_start(&spec).map_err(|e| replay(format!("start: {e}")))?;
        g.set_turn_limit(self.max_turns);
        Ok(g)
    }

    /// Replays every decision through the rules (checked) and checks that the game ends as
    /// recorded: with the recorded result by the rules, or still live when it was adjudicated
    /// (a resignation, a stop).
    pub fn replay<G: GameState>(&self) -> Result<G, RecordError> {
        let mut g: G = self.start_state()?;
        for (i, s) in self.steps.iter().enumerate() {
            g.apply(s.decision).map_err(|e| RecordError::Replay {
                index: self.index,
                what: format!("decision {i} ({}) refused: {e}", s.decision.0),
            })?;
        }
        let ok = match self.ending {
            Ending::Rules => g.game_result() == Some(self.result),
            Ending::Resignation | Ending::Stopped => !g.is_over(),
        };
        if ok {
            return Ok(g);
        }
        let end = |r: Option<GameResult>| match r {
            Some(r) => result_text(r).to_string(),
            None => "a live game".into(),
        };
        Err(RecordError::Replay {
            index: self.index,
            what: format!(
                "replay ends with {} but the record says {} ({})",
                end(g.game_result()),
                result_text(self.result),
                self.ending.name()
            ),
        })
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Player> {
        self.result.winner()
    }

    fn encode(&self, b: &mut Vec<u8>) {
        b.extend_from_slice(&self.index.to_le_bytes());
        // Names are short ASCII words (`GameState::NAME`); longer would not fit the byte.
        let name = &self.game.as_bytes()[..self.game.len().min(255)];
        b.push(name.len() as u8);
        b.extend_from_slice(name);
        b.extend_from_slice(&(self.start.len() as u32).to_le_bytes());
        b.extend_from_slice(self.start.as_bytes());
        b.extend_from_slice(&self.max_turns.to_le_bytes());
        b.push(player_code(self.result.winner()));
        b.push(
            Ending::ALL
                .iter()
                .position(|e| *e == self.ending)
                .unwrap_or(0) as u8,
        );
        b.push(player_code(self.would_resign));
        match &self.agents {
            None => b.push(0),
            Some(names) => {
                b.push(1);
                for name in names {
                    // Agent strings are short; a longer one is cut at a character boundary.
                    let mut end = name.len().min(255);
                    while !name.is_char_boundary(end) {
                        end -= 1;
                    }
                    b.push(end as u8);
                    b.extend_from_slice(&name.as_bytes()[..end]);
                }
            }
        }
        b.extend_from_slice(&(self.steps.len() as u32).to_le_bytes());
        for s in &self.steps {
            b.extend_from_slice(&s.decision.0.to_le_bytes());
            match (&s.kind, &s.search) {
                (StepKind::Searched, Some(r)) => {
                    b.push(2);
                    b.extend_from_slice(&r.value.to_le_bytes());
                    b.push(u8::from(r.full));
                    match r.proven {
                        Some(v) => {
                            b.push(1);
                            b.extend_from_slice(&v.to_le_bytes());
                        }
                        None => b.push(0),
                    }
                    b.extend_from_slice(&(r.policy.len() as u32).to_le_bytes());
                    for (d, p) in &r.policy {
                        b.extend_from_slice(&d.0.to_le_bytes());
                        b.extend_from_slice(&p.to_le_bytes());
                    }
                    // A prior list that does not match the policy's is not a prior: dropped.
                    if r.prior.len() == r.policy.len() && !r.prior.is_empty() {
                        b.push(1);
                        for p in &r.prior {
                            b.extend_from_slice(&p.to_le_bytes());
                        }
                    } else {
                        b.push(0);
                    }
                    b.extend_from_slice(&(r.joint.len() as u32).to_le_bytes());
                    for (c, e, p) in &r.joint {
                        b.extend_from_slice(&c.0.to_le_bytes());
                        b.extend_from_slice(&e.0.to_le_bytes());
                        b.extend_from_slice(&p.to_le_bytes());
                    }
                }
                (StepKind::Random, _) => b.push(1),
                (StepKind::Exact, _) => b.push(3),
                (StepKind::Book, _) => b.push(4),
                _ => b.push(0),
            }
        }
    }
}

/// Encodes games as one file image (header, games, checksum).
pub fn encode_file(games: &[GameRecord]) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&(games.len() as u32).to_le_bytes());
    for g in games {
        g.encode(&mut b);
    }
    let h = fnv1a(&b);
    b.extend_from_slice(&h.to_le_bytes());
    b
}

/// A result as a score: `1-0` (the first player won), `0-1`, `1/2-1/2`.
pub fn result_text(r: GameResult) -> &'static str {
    match r {
        GameResult::Win(Player::First) => "1-0",
        GameResult::Win(Player::Second) => "0-1",
        GameResult::Draw => "1/2-1/2",
    }
}

/// Writes `games` to `path` (through a temporary file and a rename: the file appears whole
/// or not at all). Refuses to overwrite an existing file.
pub fn write_file(path: &Path, games: &[GameRecord]) -> Result<(), RecordError> {
    let io = |source| RecordError::Io {
        path: path.display().to_string(),
        source,
    };
    if path.exists() {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "refusing to overwrite",
        )));
    }
    crate::files::write_atomic(path, &encode_file(games)).map_err(io)
}

/// [`decode_file`], then every game replayed through the rules ([`GameRecord::replay`]): for
/// readers that show or count games (`view`, `openings`), where a game whose moves do not
/// reach its recorded result would be shown or counted wrongly. Training reads do not pay
/// for the replay: their files are the run's own, checksummed as written.
pub fn decode_file_checked<G: GameState>(bytes: &[u8]) -> Result<Vec<GameRecord>, RecordError> {
    let games = decode_file(bytes)?;
    for (position, g) in games.iter().enumerate() {
        g.replay::<G>().map_err(|e| RecordError::InFile {
            position,
            source: Box::new(e),
        })?;
    }
    Ok(games)
}

/// [`read_file`] with every game replayed, as [`decode_file_checked`].
pub fn read_file_checked<G: GameState>(path: &Path) -> Result<Vec<GameRecord>, RecordError> {
    let bytes = std::fs::read(path).map_err(|source| RecordError::Io {
        path: path.display().to_string(),
        source,
    })?;
    decode_file_checked::<G>(&bytes)
}

/// Reads a record file.
pub fn read_file(path: &Path) -> Result<Vec<GameRecord>, RecordError> {
    let bytes = std::fs::read(path).map_err(|source| RecordError::Io {
        path: path.display().to_string(),
        source,
    })?;
    decode_file(&bytes)
}
