//! Reading a record file image back (all versions from [`OLDEST_VERSION`] to [`VERSION`]):
//! the header and checksum, then each game's head, agents and steps.

use super::{
    Ending, GameRecord, MAGIC, OLDEST_VERSION, RecordError, SearchRecord, StepKind, StepRecord,
    VERSION,
};
use crate::bytes::{self, ByteError};
use crumble_core::game::hash::fnv1a;
use crumble_core::games::crumble::Reason;
use crumble_core::{Decision, GameResult, GameState, Player};

impl From<ByteError> for RecordError {
    fn from(e: ByteError) -> RecordError {
        match e {
            ByteError::Truncated { offset } => RecordError::Truncated { offset },
            ByteError::Corrupt { offset, what } => RecordError::Corrupt { offset, what },
        }
    }
}

type Reader<'a> = bytes::Reader<'a, RecordError>;

impl Reader<'_> {
    fn player(&mut self) -> Result<Option<Player>, RecordError> {
        match self.u8()? {
            0 => Ok(None),
            1 => Ok(Some(Player::First)),
            2 => Ok(Some(Player::Second)),
            c => Err(self.corrupt(format!("player code {c}"))),
        }
    }
}

/// A game's fields before its steps.
struct Head {
    game: String,
    start: String,
    max_turns: u32,
    result: GameResult,
    ending: Ending,
    would_resign: Option<Player>,
}

/// A version 3 game head: name, start, max turns, result, ending, would-resign.
fn read_head(r: &mut Reader<'_>) -> Result<Head, RecordError> {
    let len = usize::from(r.u8()?);
    let game = r.text(len, "game name")?;
    let len = r.count(1)?;
    let start = r.text(len, "start")?;
    let max_turns = r.u32()?;
    let winner = r.player()?;
    let code = r.u8()?;
    let ending = *Ending::ALL
        .get(usize::from(code))
        .ok_or_else(|| r.corrupt(format!("ending code {code}")))?;
    let fits = match ending {
        Ending::Rules => true,
        Ending::Resignation => winner.is_some(),
        Ending::Stopped => winner.is_none(),
    };
    if !fits {
        return Err(r.corrupt(format!("ending {} with winner {winner:?}", ending.name())));
    }
    Ok(Head {
        game,
        start,
        max_turns,
        result: winner.map_or(GameResult::Draw, GameResult::Win),
        ending,
        would_resign: r.player()?,
    })
}

/// A version 1 or 2 game head (Crumble only): board, resolution, max turns, start position,
/// winner and reason, would-resign; read into the start JSON Crumble's start takes.
fn read_crumble_head(r: &mut Reader<'_>) -> Result<Head, RecordError> {
    let board = r.u16()?;
    let resolution = r.u16()?;
    let max_turns = r.u32()?;
    let len = r.count(1)?;
    let at = r.offset();
    let position = r.text(len, "start position")?;
    let mut start = serde_json::json!({ "board": board, "resolution": resolution });
    if !position.is_empty() {
        let value: serde_json::Value =
            serde_json::from_str(&position).map_err(|e| RecordError::Corrupt {
                offset: at,
                what: format!("start position is not JSON: {e}"),
            })?;
        start["position"] = value;
    }
    let winner = r.player()?;
    let code = r.u8()?;
    let reason = *Reason::ALL
        .get(usize::from(code))
        .ok_or_else(|| r.corrupt(format!("reason code {code}")))?;
    if winner.is_some() != reason.has_winner() {
        return Err(r.corrupt(format!("result {} with winner {winner:?}", reason.name())));
    }
    let ending = match reason {
        Reason::Resignation => Ending::Resignation,
        Reason::Agreement => Ending::Stopped,
        _ => Ending::Rules,
    };
    Ok(Head {
        // Version 1 files held Crumble's games only.
        game: <crumble_core::games::crumble::Crumble as GameState>::NAME.into(),
        start: start.to_string(),
        max_turns,
        result: winner.map_or(GameResult::Draw, GameResult::Win),
        ending,
        would_resign: r.player()?,
    })
}

/// Decodes a file image written by [`super::encode_file`].
pub fn decode_file(bytes: &[u8]) -> Result<Vec<GameRecord>, RecordError> {
    if bytes.len() < 8 || bytes[..8] != MAGIC {
        return Err(RecordError::BadMagic);
    }
    let mut r = Reader::new(bytes, 8);
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
    let mut r = Reader::new(body, 12);
    let n = r.count(1)?;
    let mut games = Vec::with_capacity(n);
    for _ in 0..n {
        games.push(read_game(&mut r, version)?);
    }
    if r.offset() != body.len() {
        return Err(r.corrupt("bytes after the last game"));
    }
    if fnv1a(body) != stored {
        return Err(RecordError::Checksum);
    }
    Ok(games)
}

/// One game as `version` wrote it: index, head, agents (version 4 on), steps.
fn read_game(r: &mut Reader<'_>, version: u32) -> Result<GameRecord, RecordError> {
    let index = r.u64()?;
    let head = if version >= 3 {
        read_head(r)?
    } else {
        read_crumble_head(r)?
    };
    let agents = if version >= 4 { read_agents(r)? } else { None };
    let steps_n = r.count(5)?;
    let mut steps = Vec::with_capacity(steps_n);
    for _ in 0..steps_n {
        steps.push(read_step(r, version)?);
    }
    Ok(GameRecord {
        index,
        game: head.game,
        start: head.start,
        max_turns: head.max_turns,
        steps,
        result: head.result,
        ending: head.ending,
        would_resign: head.would_resign,
        agents,
    })
}

/// The agents flag, and when set the two seats' agent strings.
fn read_agents(r: &mut Reader<'_>) -> Result<Option<[String; 2]>, RecordError> {
    match r.u8()? {
        0 => Ok(None),
        1 => {
            let mut name = || {
                let len = usize::from(r.u8()?);
                r.text(len, "agent name")
            };
            Ok(Some([name()?, name()?]))
        }
        c => Err(r.corrupt(format!("agents flag {c}"))),
    }
}

/// One step: its decision, its kind and, for a searched one, what the search said.
fn read_step(r: &mut Reader<'_>, version: u32) -> Result<StepRecord, RecordError> {
    let decision = Decision(r.u32()?);
    let kind = r.u8()?;
    Ok(match kind {
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
        2 => StepRecord {
            decision,
            kind: StepKind::Searched,
            search: Some(read_search(r, version)?),
        },
        3 if version >= 3 => StepRecord {
            decision,
            kind: StepKind::Exact,
            search: None,
        },
        4 if version >= 5 => StepRecord {
            decision,
            kind: StepKind::Book,
            search: None,
        },
        k => return Err(r.corrupt(format!("step kind {k}"))),
    })
}

/// A searched step's record: value, full flag, proven value (version 2 on), policy target,
/// priors (version 6 on) and joint target.
fn read_search(r: &mut Reader<'_>, version: u32) -> Result<SearchRecord, RecordError> {
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
    let mut prior = Vec::new();
    if version >= 6 {
        match r.u8()? {
            0 => {}
            1 if pn > 0 => {
                prior.reserve(pn);
                for _ in 0..pn {
                    prior.push(r.f32_in(0.0, 1.0, "prior")?);
                }
            }
            c => return Err(r.corrupt(format!("prior flag {c} with {pn} policy entries"))),
        }
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
    Ok(SearchRecord {
        value,
        full,
        proven,
        policy,
        prior,
        joint,
    })
}
