//! Self-play game records and their file format.
//!
//! A record holds every decision of a game (forced, random and searched ones), and for each
//! searched decision the search value, whether it was a full search, the policy target over
//! all its legal decisions (so the legal mask is in the record too), and for a decision at the
//! start of a turn the joint (choose, extent) distribution; then the result.
//!
//! # File format, version 2 (`*.crsp`)
//!
//! All integers little-endian. `MAGIC` (8 bytes `CRMBSP\r\n`), `u32` version, `u32` number of
//! games, the games, then a `u64` FNV-1a checksum of everything before it. A game:
//! `u64` index, `u16` board, `u16` resolution, `u32` max turns, `u32` start-position JSON
//! length and its bytes (0 = the standard start), `u8` winner (0 none, 1 black, 2 white),
//! `u8` reason (index in [`Reason::ALL`]), `u8` would-resign (0 none, 1 black, 2 white),
//! `u32` number of steps, and per step: `u32` decision, `u8` kind (0 forced, 1 random,
//! 2 searched); for a searched step `f32` value, `u8` full, `u8` proven (0 no, 1 yes) and
//! if proven the `f32` exact value, `u32` n, n × (`u32` decision, `f32` target), `u32` m,
//! m × (`u32` choose, `u32` extent, `f32` mass).
//!
//! Version 1 is version 2 without the proven byte and value (written before the search
//! proved results); it is still read, its searched steps having no proofs.
//!
//! Files are written to a temporary name and renamed, so a file that exists is complete; a
//! truncated or damaged file is refused with a typed [`RecordError`].

use crumble_core::{Color, Decision, Frame, Game, Outcome, Reason, position};
use std::path::Path;

pub const MAGIC: [u8; 8] = *b"CRMBSP\r\n";
pub const VERSION: u32 = 2;
/// The oldest format version this build still reads.
pub const OLDEST_VERSION: u32 = 1;

/// How a decision was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// The only legal decision.
    Forced,
    /// Random play.
    Random,
    /// Chosen by search; see [`SearchRecord`].
    Searched,
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
    /// At the start of a turn: joint distribution over (choose, extent) pairs, summing to 1.
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
    pub board: u16,
    pub resolution: u16,
    pub max_turns: u32,
    /// Start position as JSON when it is not the standard start.
    pub start: Option<String>,
    pub steps: Vec<StepRecord>,
    pub outcome: Outcome,
    /// In a game played out despite resignation: who would have resigned first.
    pub would_resign: Option<Color>,
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
    /// A game of a file that does not replay; `position` is its 0-based place in the file.
    #[error("game index {position} in the file: {source}")]
    InFile {
        position: usize,
        #[source]
        source: Box<RecordError>,
    },
}

use crumble_core::hash::fnv1a;

fn color_code(c: Option<Color>) -> u8 {
    match c {
        None => 0,
        Some(Color::Black) => 1,
        Some(Color::White) => 2,
    }
}

impl GameRecord {
    /// The game at its start (standard or the recorded position), with the turn limit set.
    pub fn start_game(&self) -> Result<Game, RecordError> {
        let mut g = match &self.start {
            None => Game::new(self.board, self.resolution).map_err(|e| RecordError::Replay {
                index: self.index,
                what: e.to_string(),
            })?,
            Some(json) => position::from_json(json).map_err(|e| RecordError::Replay {
                index: self.index,
                what: format!("start position: {e}"),
            })?,
        };
        g.set_max_turns(self.max_turns);
        Ok(g)
    }

    /// Replays every decision through the rules engine (checked) and checks that the game
    /// ends with the recorded result (a resignation is applied after the last decision).
    pub fn replay(&self) -> Result<Game, RecordError> {
        let mut g = self.start_game()?;
        for (i, s) in self.steps.iter().enumerate() {
            g.apply(s.decision).map_err(|e| RecordError::Replay {
                index: self.index,
                what: format!("decision {i} ({}) refused: {e}", s.decision.0),
            })?;
        }
        if !g.is_over() && matches!(self.outcome.reason, Reason::Resignation | Reason::Agreement) {
            g.finish(self.outcome);
        }
        match g.outcome() {
            Some(o) if o == self.outcome => Ok(g),
            o => Err(RecordError::Replay {
                index: self.index,
                what: format!(
                    "replay ends with {} but the record says {}",
                    position::outcome_text(o),
                    position::outcome_text(Some(self.outcome))
                ),
            }),
        }
    }

    /// The game as a human-readable game record (`crumble_core::record`, per-player frame):
    /// tags `Game` (its number in the run) and the result, the moves in notation.
    pub fn to_game_record(&self) -> Result<crumble_core::record::GameRecord, RecordError> {
        let start = self.start_game()?;
        // The record's start is the position alone: the turn limit is a setting of the run
        // (the result says when it ended a game), and would make a standard start look custom.
        let mut plain = start.clone();
        plain.set_max_turns(0);
        let mut rec = crumble_core::record::GameRecord::new(plain, Frame::PerPlayer);
        rec.set_tag("Game", &self.index.to_string());
        let mut g = start;
        let mut before = g.clone();
        let mut path: Vec<Decision> = Vec::new();
        let mut turn = g.turns_played();
        for s in &self.steps {
            path.push(s.decision);
            g.apply(s.decision).map_err(|e| RecordError::Replay {
                index: self.index,
                what: format!("decision refused: {e}"),
            })?;
            if g.turns_played() != turn || g.is_over() {
                let mv = before
                    .move_from_decisions(&path)
                    .map_err(|e| RecordError::Replay {
                        index: self.index,
                        what: format!("turn {}: {e}", turn + 1),
                    })?;
                rec.push_move(mv, None);
                path.clear();
                before.clone_from(&g);
                turn = g.turns_played();
            }
        }
        rec.result = Some(self.outcome);
        Ok(rec)
    }

    /// The game as the text of a game record (see [`GameRecord::to_game_record`]).
    pub fn to_text(&self) -> Result<String, RecordError> {
        Ok(self.to_game_record()?.write())
    }

    fn encode(&self, b: &mut Vec<u8>) {
        b.extend_from_slice(&self.index.to_le_bytes());
        b.extend_from_slice(&self.board.to_le_bytes());
        b.extend_from_slice(&self.resolution.to_le_bytes());
        b.extend_from_slice(&self.max_turns.to_le_bytes());
        let start = self.start.as_deref().unwrap_or("");
        b.extend_from_slice(&(start.len() as u32).to_le_bytes());
        b.extend_from_slice(start.as_bytes());
        b.push(color_code(self.outcome.winner));
        b.push(
            Reason::ALL
                .iter()
                .position(|r| *r == self.outcome.reason)
                .unwrap_or(0) as u8,
        );
        b.push(color_code(self.would_resign));
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
                    b.extend_from_slice(&(r.joint.len() as u32).to_le_bytes());
                    for (c, e, p) in &r.joint {
                        b.extend_from_slice(&c.0.to_le_bytes());
                        b.extend_from_slice(&e.0.to_le_bytes());
                        b.extend_from_slice(&p.to_le_bytes());
                    }
                }
                (StepKind::Random, _) => b.push(1),
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

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], RecordError> {
        if self.b.len() - self.at < n {
            return Err(RecordError::Truncated {
                offset: self.b.len(),
            });
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, RecordError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, RecordError> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().expect("2 bytes"),
        ))
    }
    fn u32(&mut self) -> Result<u32, RecordError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self) -> Result<u64, RecordError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    fn f32(&mut self) -> Result<f32, RecordError> {
        Ok(f32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    /// An `f32` that must be finite and within `lo..=hi` (a value or a probability): damaged
    /// or poisoned training targets are refused here, where every reader passes.
    fn f32_in(&mut self, lo: f32, hi: f32, what: &str) -> Result<f32, RecordError> {
        let at = self.at;
        let v = self.f32()?;
        if v.is_finite() && (lo..=hi).contains(&v) {
            Ok(v)
        } else {
            Err(RecordError::Corrupt {
                offset: at,
                what: format!("{what} {v} is not a number in [{lo}, {hi}]"),
            })
        }
    }
    /// A count of items of `size` bytes each that must fit in what is left.
    fn count(&mut self, size: usize) -> Result<usize, RecordError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(size) > self.b.len() - self.at {
            return Err(RecordError::Truncated {
                offset: self.b.len(),
            });
        }
        Ok(n)
    }
    fn corrupt(&self, what: impl Into<String>) -> RecordError {
        RecordError::Corrupt {
            offset: self.at,
            what: what.into(),
        }
    }
    fn color(&mut self) -> Result<Option<Color>, RecordError> {
        match self.u8()? {
            0 => Ok(None),
            1 => Ok(Some(Color::Black)),
            2 => Ok(Some(Color::White)),
            c => Err(self.corrupt(format!("colour code {c}"))),
        }
    }
}

/// Decodes a file image written by [`encode_file`].
pub fn decode_file(bytes: &[u8]) -> Result<Vec<GameRecord>, RecordError> {
    if bytes.len() < 8 || bytes[..8] != MAGIC {
        return Err(RecordError::BadMagic);
    }
    let mut r = Reader { b: bytes, at: 8 };
    let version = r.u32()?;
    if !(OLDEST_VERSION..=VERSION).contains(&version) {
        return Err(RecordError::UnsupportedVersion { found: version });
    }
    if bytes.len() < 8 + 4 + 4 + 8 {
        return Err(RecordError::Truncated {
            offset: bytes.len(),
        });
    }
    let body = &bytes[..bytes.len() - 8];
    let stored = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
    let mut r = Reader { b: body, at: 12 };
    let n = r.count(1)?;
    let mut games = Vec::with_capacity(n);
    for _ in 0..n {
        let index = r.u64()?;
        let board = r.u16()?;
        let resolution = r.u16()?;
        let max_turns = r.u32()?;
        let len = r.count(1)?;
        let at = r.at;
        let start = std::str::from_utf8(r.take(len)?)
            .map_err(|_| RecordError::Corrupt {
                offset: at,
                what: "start position is not UTF-8".into(),
            })?
            .to_string();
        let start = (!start.is_empty()).then_some(start);
        let winner = r.color()?;
        let reason = r.u8()?;
        let reason = *Reason::ALL
            .get(reason as usize)
            .ok_or_else(|| r.corrupt(format!("reason code {reason}")))?;
        if winner.is_some() != reason.has_winner() {
            return Err(r.corrupt(format!("result {} with winner {winner:?}", reason.name())));
        }
        let would_resign = r.color()?;
        let steps_n = r.count(5)?;
        let mut steps = Vec::with_capacity(steps_n);
        for _ in 0..steps_n {
            let decision = Decision(r.u32()?);
            let kind = r.u8()?;
            steps.push(match kind {
                0 => StepRecord {
                    decision,
                    kind: StepKind::Forced,
                    search: None,
                },
                1 => StepRecord {
                    decision,
                    kind: StepKind::Random,
                    search: None,
                },
                2 => {
                    let value = r.f32_in(-1.0, 1.0, "search value")?;
                    // Only 0 and 1: any other byte would read as `true` and be written back
                    // as 1, a silent change (found by fuzzing).
                    let full = match r.u8()? {
                        0 => false,
                        1 => true,
                        b => return Err(r.corrupt(format!("full-search flag {b}"))),
                    };
                    let proven = if version >= 2 {
                        match r.u8()? {
                            0 => None,
                            1 => Some(r.f32_in(-1.0, 1.0, "proven value")?),
                            c => return Err(r.corrupt(format!("proven flag {c}"))),
                        }
                    } else {
                        None
                    };
                    let pn = r.count(8)?;
                    let mut policy = Vec::with_capacity(pn);
                    for _ in 0..pn {
                        policy.push((Decision(r.u32()?), r.f32_in(0.0, 1.0, "policy target")?));
                    }
                    let jn = r.count(12)?;
                    let mut joint = Vec::with_capacity(jn);
                    for _ in 0..jn {
                        joint.push((
                            Decision(r.u32()?),
                            Decision(r.u32()?),
                            r.f32_in(0.0, 1.0, "joint target")?,
                        ));
                    }
                    StepRecord {
                        decision,
                        kind: StepKind::Searched,
                        search: Some(SearchRecord {
                            value,
                            full,
                            proven,
                            policy,
                            joint,
                        }),
                    }
                }
                k => return Err(r.corrupt(format!("step kind {k}"))),
            });
        }
        games.push(GameRecord {
            index,
            board,
            resolution,
            max_turns,
            start,
            steps,
            outcome: Outcome { winner, reason },
            would_resign,
        });
    }
    if r.at != body.len() {
        return Err(r.corrupt("bytes after the last game"));
    }
    if fnv1a(body) != stored {
        return Err(RecordError::Checksum);
    }
    Ok(games)
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
pub fn decode_file_checked(bytes: &[u8]) -> Result<Vec<GameRecord>, RecordError> {
    let games = decode_file(bytes)?;
    for (position, g) in games.iter().enumerate() {
        g.replay().map_err(|e| RecordError::InFile {
            position,
            source: Box::new(e),
        })?;
    }
    Ok(games)
}

/// [`read_file`] with every game replayed, as [`decode_file_checked`].
pub fn read_file_checked(path: &Path) -> Result<Vec<GameRecord>, RecordError> {
    let bytes = std::fs::read(path).map_err(|source| RecordError::Io {
        path: path.display().to_string(),
        source,
    })?;
    decode_file_checked(&bytes)
}

/// Reads a record file.
pub fn read_file(path: &Path) -> Result<Vec<GameRecord>, RecordError> {
    let bytes = std::fs::read(path).map_err(|source| RecordError::Io {
        path: path.display().to_string(),
        source,
    })?;
    decode_file(&bytes)
}
