//! The tactics suite: positions from real games with a short, exactly known answer, to test
//! search and to track checkpoints.
//!
//! Three kinds, each decided by the exhaustive solver (`crumble_core::games::crumble::solve`, the engine of
//! `crumble solve`):
//!
//! | kind | the player to move... | answers |
//! | --- | --- | --- |
//! | `win1` | can win at once (`crumble solve --depth 1`) | every move that wins at once |
//! | `win2` | cannot win at once, but can force a win within two turns (`--depth 2`) | every forcing move (`++`) |
//! | `defend` | cannot win at once, and the opponent threatens to (would win at once if it moved now); some moves stop that, not most | every move after which the opponent has no winning move |
//!
//! A position is **solved** when the agent's move (its whole first turn) is one of the
//! answers. Answers are stored as canonical notation in the per-player frame, and checked
//! when the suite loads (each must be a legal move of the position).
//!
//! # Data files
//!
//! `selfplay/data/tactics/{win1,win2,defend}.jsonl`, one tactic per line:
//! `{"id": "win1-003", "kind": "win1", "position": {position JSON}, "answers": [...],
//! "moves": 96, "source": "...", "solve_ms": 4}` — `moves` counts the position's legal
//! moves (so `answers / moves` is the chance of a uniformly random move), `source` says
//! which game it comes from, `solve_ms` how long the solver took. The files are compiled
//! into the library ([`Suite::builtin`]) and made by `crumble tactics --generate`
//! ([`Generator`]).
//!
//! # Playing the suite
//!
//! [`run`] plays every position inside the real game: a game of one agent against itself
//! from that position, under the normal rules and the caller's turn limit (counted from the
//! position, as for any loaded position), many at once (on the engine, network calls
//! batched). The game is stopped when the agent's first turn is over
//! ([`Job::stop_after_turns`]), and that turn is judged against the exact answers. The
//! searches see the whole game, so nothing makes them score a position a few turns ahead as
//! a draw (an earlier harness played three-turn games, where rollouts and search did).

use crate::arena::{self, Flow, Job, Pool};
use crate::driver::Seating;
use crate::record::GameRecord;
use crate::stats::{Z95, wilson};
use crumble_core::Decision;
use crumble_core::GameState as _;
use crumble_core::games::crumble::ends::EndMemo;
use crumble_core::games::crumble::lookahead::WinCheck;
use crumble_core::games::crumble::notation::{Formatter, Frame, parse_move};
use crumble_core::games::crumble::position;
use crumble_core::games::crumble::solve::{ForcedWin, Solver};
use crumble_core::games::crumble::{Crumble, Move};
use serde_json::{Value, json};
use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};

/// The three kinds of tactic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Win1,
    Win2,
    Defend,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Win1, Kind::Win2, Kind::Defend];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Win1 => "win1",
            Kind::Win2 => "win2",
            Kind::Defend => "defend",
        }
    }

    pub fn from_name(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == s)
    }

    /// What solving one means, for reports.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Win1 => "win at once",
            Kind::Win2 => "force a win within two turns",
            Kind::Defend => "stop the opponent's win at once",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One tactic.
#[derive(Clone, Debug, PartialEq)]
pub struct Tactic {
    pub id: String,
    pub kind: Kind,
    pub position: Crumble,
    /// The answers in canonical per-player notation, sorted.
    pub answers: Vec<String>,
    /// The same as moves (absolute frame).
    pub answer_moves: Vec<Move>,
    /// Legal moves of the position.
    pub moves: usize,
    pub source: String,
    pub solve_ms: u64,
}

impl Tactic {
    /// The tactic as one line of a data file.
    pub fn to_json(&self) -> Value {
        let pos: Value = serde_json::from_str(&position::to_json(&self.position))
            .expect("position JSON is JSON");
        json!({
            "id": self.id,
            "kind": self.kind.name(),
            "position": pos,
            "answers": self.answers,
            "moves": self.moves,
            "source": self.source,
            "solve_ms": self.solve_ms,
        })
    }

    /// Is `mv` (absolute frame, legal in the position) an answer?
    pub fn is_answer(&self, mv: &Move) -> bool {
        self.answer_moves.contains(mv)
    }
}

/// Why a tactics file or suite was refused.
#[derive(Debug, thiserror::Error)]
pub enum TacticsError {
    #[error("{file} line {line}: {message}")]
    Line {
        file: String,
        line: usize,
        message: String,
    },
    /// (The I/O error is part of the message, not a `source`: error chains would repeat it.)
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error(
        "{file} line {line}: tactic id `{id}` appears twice (first at {first_file} line {first_line})"
    )]
    DuplicateId {
        id: String,
        file: String,
        line: usize,
        first_file: String,
        first_line: usize,
    },
    #[error("the tactics suite is empty{0}")]
    Empty(String),
    /// A tactic is on another board than the one the agents are set up for.
    #[error(
        "the suite's tactic {id} is on a {board}x{board} board at resolution {resolution}, \
         but the start given is a {start_board}x{start_board} board at resolution \
         {start_resolution}"
    )]
    OtherBoard {
        id: String,
        board: u16,
        resolution: u16,
        start_board: u16,
        start_resolution: u16,
    },
    /// A played game could not be read back (a bug of the arena or the rules, not bad input).
    #[error("tactic {id}: {message}")]
    Replay { id: String, message: String },
}

/// Where each tactic id was first read (file, line): a map, as a linear scan per tactic
/// made loading a large file quadratic.
type Seen = std::collections::HashMap<String, (String, usize)>;

/// A set of tactics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Suite {
    pub tactics: Vec<Tactic>,
}

/// The data files of the built-in suite.
const BUILTIN: [(&str, &str); 3] = [
    (
        "win1.jsonl",
        include_str!("../../../data/tactics/win1.jsonl"),
    ),
    (
        "win2.jsonl",
        include_str!("../../../data/tactics/win2.jsonl"),
    ),
    (
        "defend.jsonl",
        include_str!("../../../data/tactics/defend.jsonl"),
    ),
];

fn format_moves(game: &Crumble, moves: &[Move]) -> Vec<String> {
    let mut f = Formatter::new(game, Frame::PerPlayer);
    let mut v: Vec<String> = moves
        .iter()
        .map(|m| f.format(game, m).expect("a legal move prints"))
        .collect();
    v.sort();
    v
}

impl Suite {
    /// The suite shipped with the program (`selfplay/data/tactics/`).
    pub fn builtin() -> Result<Suite, TacticsError> {
        let mut s = Suite::default();
        let mut seen = Seen::new();
        for (name, text) in BUILTIN {
            s.parse_into(&format!("data/tactics/{name}"), text, &mut seen)?;
        }
        Ok(s)
    }

    /// Every `*.jsonl` file of `dir`, in name order.
    pub fn load_dir(dir: &Path) -> Result<Suite, TacticsError> {
        let io = |error| TacticsError::Io {
            path: dir.display().to_string(),
            error,
        };
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map_err(io)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect();
        files.sort();
        let mut s = Suite::default();
        let mut seen = Seen::new();
        for p in &files {
            let text = std::fs::read_to_string(p).map_err(|error| TacticsError::Io {
                path: p.display().to_string(),
                error,
            })?;
            s.parse_into(&p.display().to_string(), &text, &mut seen)?;
        }
        if s.tactics.is_empty() {
            return Err(TacticsError::Empty(format!(
                ": no tactics in {} (expected *.jsonl files)",
                dir.display()
            )));
        }
        Ok(s)
    }

    /// Parses one data file (`file` names it in errors).
    pub fn parse(file: &str, text: &str) -> Result<Suite, TacticsError> {
        let mut s = Suite::default();
        s.parse_into(file, text, &mut Seen::new())?;
        Ok(s)
    }

    /// Appends the tactics of one data file; `seen` holds the ids of the files before it.
    fn parse_into(&mut self, file: &str, text: &str, seen: &mut Seen) -> Result<(), TacticsError> {
        for (no, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let err = |message: String| TacticsError::Line {
                file: file.into(),
                line: no + 1,
                message,
            };
            let v: Value = serde_json::from_str(line).map_err(|e| err(format!("not JSON: {e}")))?;
            let t = tactic_from_json(&v).map_err(err)?;
            if let Some((first_file, first_line)) =
                seen.insert(t.id.clone(), (file.to_string(), no + 1))
            {
                return Err(TacticsError::DuplicateId {
                    id: t.id,
                    file: file.into(),
                    line: no + 1,
                    first_file,
                    first_line,
                });
            }
            self.tactics.push(t);
        }
        Ok(())
    }

    /// Refuses a suite with a position on another board (size or resolution) than `start`,
    /// the game the agents are configured for: such a position fails only at its first
    /// network evaluation, or is played on rules the agents were not set up for.
    pub fn check_fits(&self, start: &Crumble) -> Result<(), TacticsError> {
        let shape = |g: &Crumble| (g.board().board_size(), g.board().resolution());
        let (start_board, start_resolution) = shape(start);
        match self
            .tactics
            .iter()
            .find(|t| shape(&t.position) != (start_board, start_resolution))
        {
            None => Ok(()),
            Some(t) => {
                let (board, resolution) = shape(&t.position);
                Err(TacticsError::OtherBoard {
                    id: t.id.clone(),
                    board,
                    resolution,
                    start_board,
                    start_resolution,
                })
            }
        }
    }

    /// The tactics of the given kinds, in order.
    pub fn filter(&self, kinds: &[Kind]) -> Suite {
        Suite {
            tactics: self
                .tactics
                .iter()
                .filter(|t| kinds.contains(&t.kind))
                .cloned()
                .collect(),
        }
    }
}

fn tactic_from_json(v: &Value) -> Result<Tactic, String> {
    let obj = v.as_object().ok_or("expected a JSON object")?;
    for k in obj.keys() {
        if ![
            "id", "kind", "position", "answers", "moves", "source", "solve_ms",
        ]
        .contains(&k.as_str())
        {
            return Err(format!("unknown key `{k}`"));
        }
    }
    let str_of = |k: &str| -> Result<String, String> {
        obj.get(k)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("`{k}` must be a string"))
    };
    let id = str_of("id")?;
    let kind_name = str_of("kind")?;
    let kind = Kind::from_name(&kind_name).ok_or_else(|| {
        format!("{id}: unknown kind `{kind_name}` (expected win1, win2 or defend)")
    })?;
    let pos = obj
        .get("position")
        .ok_or_else(|| format!("{id}: `position` is missing"))?;
    let position =
        position::from_json(&pos.to_string()).map_err(|e| format!("{id}: position: {e}"))?;
    if position.is_over() {
        return Err(format!("{id}: the position is a finished game"));
    }
    let texts: Vec<String> = obj
        .get("answers")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{id}: `answers` must be an array of strings"))?
        .iter()
        .map(|a| {
            a.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("{id}: `answers` must be an array of strings"))
        })
        .collect::<Result<_, _>>()?;
    if texts.is_empty() {
        return Err(format!("{id}: no answers"));
    }
    let mut distinct = std::collections::HashSet::new();
    if let Some(twice) = texts.iter().find(|t| !distinct.insert(t.as_str())) {
        return Err(format!("{id}: answer {twice:?} is listed twice"));
    }
    let mut answer_moves = Vec::with_capacity(texts.len());
    for t in &texts {
        let mv = parse_move(&position, t, Frame::PerPlayer)
            .map_err(|e| format!("{id}: answer {t:?}: {e}"))?;
        let mut g = position.clone();
        g.play_move(&mv)
            .map_err(|e| format!("{id}: answer {t:?} is not a legal move: {e}"))?;
        answer_moves.push(mv);
    }
    let num = |k: &str| -> Result<u64, String> {
        obj.get(k)
            .and_then(Value::as_u64)
            .ok_or_else(|| format!("{id}: `{k}` must be a whole number"))
    };
    let moves = num("moves")? as usize;
    if moves < texts.len() {
        return Err(format!(
            "{id}: {} answers but only {moves} moves",
            texts.len()
        ));
    }
    let solve_ms = num("solve_ms").unwrap_or(0);
    let mut answers = texts;
    answers.sort();
    Ok(Tactic {
        id,
        kind,
        position,
        answers,
        answer_moves,
        moves,
        source: str_of("source").unwrap_or_default(),
        solve_ms,
    })
}

mod generate;
mod play;

pub use generate::{ClassifyOptions, Found, Generator, OutOfTime, classify, classify_timed};
pub use play::{Attempt, Score, run};
