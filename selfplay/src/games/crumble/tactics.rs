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

// ---------------------------------------------------------------------------------------
// Classification and generation.

/// What the solver says about a position, if it is a tactic.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub kind: Kind,
    pub answers: Vec<Move>,
    pub moves: usize,
    pub solve_ms: u64,
}

/// Settings of [`classify`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassifyOptions {
    /// Look for `win2` tactics (the depth-2 solve is the expensive part).
    pub depth2: bool,
    /// Keep a tactic only if at most this fraction of the moves are answers (a position
    /// where most moves win or defend tests nothing).
    pub max_answer_fraction: f64,
    /// Time limit of one position's classification: the solver checks the clock as it goes
    /// and gives up at the limit (the position is then unknown and skipped).
    pub max_solve_ms: u64,
    /// Try the depth-2 solve only when 1 to this many moves threaten a win at once (`+`):
    /// a forcing move nearly always is one (the exception, a reply forced to open a win, is
    /// given up). This selects which positions become tactics; the answers of a kept one
    /// are still all its forcing moves, since the solve itself enumerates every move. The
    /// default is no real cap: the time limit bounds the solve (an earlier cap of 16 left
    /// almost no `win2` positions, every swap path of a threatening move counting as one).
    pub max_threats: usize,
}

impl Default for ClassifyOptions {
    fn default() -> Self {
        ClassifyOptions {
            depth2: true,
            max_answer_fraction: 0.5,
            max_solve_ms: 2000,
            max_threats: 100_000,
        }
    }
}

/// A classification stopped at its time limit ([`ClassifyOptions::max_solve_ms`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfTime;

/// Classifies a live position at a turn start (priority `win1`, then `defend`, then `win2`);
/// `None` when it is no tactic or its solve hit the time limit (see [`classify_timed`]).
pub fn classify(game: &Crumble, solver: &mut Solver, opts: &ClassifyOptions) -> Option<Found> {
    classify_timed(game, solver, opts).ok().flatten()
}

/// [`classify`], telling "no tactic" (`Ok(None)`) from "gave up at the time limit".
pub fn classify_timed(
    game: &Crumble,
    solver: &mut Solver,
    opts: &ClassifyOptions,
) -> Result<Option<Found>, OutOfTime> {
    if game.is_over() || !game.at_turn_start() {
        return Ok(None);
    }
    let t0 = Instant::now();
    solver.set_deadline(Some(t0 + Duration::from_millis(opts.max_solve_ms)));
    let found = classify_inner(game, solver, opts, t0);
    let aborted = solver.aborted();
    solver.set_deadline(None);
    if aborted { Err(OutOfTime) } else { Ok(found) }
}

/// The classification itself; its answers are meaningless once the solver has aborted (the
/// caller checks).
fn classify_inner(
    game: &Crumble,
    solver: &mut Solver,
    opts: &ClassifyOptions,
    t0: Instant,
) -> Option<Found> {
    let paths = solver.move_paths(game);
    if solver.aborted() {
        return None;
    }
    let all: Vec<Move> = paths
        .iter()
        .map(|p| {
            game.move_from_decisions(p)
                .expect("a walked path is a legal move")
        })
        .collect();
    let keep = |answers: &[Move]| {
        !answers.is_empty() && answers.len() as f64 <= opts.max_answer_fraction * all.len() as f64
    };
    let ms = |t0: Instant| t0.elapsed().as_millis() as u64;
    let mover = game.to_move();
    if solver.can_win(game) {
        let wins = solver.winning_moves(game);
        return keep(&wins).then(|| Found {
            kind: Kind::Win1,
            answers: wins,
            moves: all.len(),
            solve_ms: ms(t0),
        });
    }
    // What each move leads to, solved once per distinct result (many swap paths share one).
    let afters: Vec<Crumble> = paths
        .iter()
        .map(|p| {
            let mut after = game.clone();
            for &d in p {
                after.apply_unchecked(d);
            }
            after
        })
        .collect();
    let passed = Crumble::from_board(game.board().clone(), mover.opposite(), None);
    if !passed.is_over() && solver.can_win(&passed) {
        let mut memo = EndMemo::new(game);
        let defences: Vec<Move> = all
            .iter()
            .zip(&afters)
            .filter(|(_, after)| {
                memo.get_or_insert_with(after, || match after.outcome() {
                    Some(o) => o.winner != Some(mover.opposite()),
                    None => !solver.can_win(after),
                })
            })
            .map(|(mv, _)| mv.clone())
            .collect();
        return keep(&defences).then(|| Found {
            kind: Kind::Defend,
            answers: defences,
            moves: all.len(),
            solve_ms: ms(t0),
        });
    }
    if !opts.depth2 {
        return None;
    }
    // Counting stops one past the cap: positions full of threats are refused early.
    let mut memo = EndMemo::new(game);
    let threats = afters
        .iter()
        .filter(|after| memo.get_or_insert_with(after, || solver.threatens_after(after, mover)))
        .take(opts.max_threats + 1)
        .count();
    if threats == 0 || threats > opts.max_threats {
        return None;
    }
    let forcing: Vec<Move> = solver
        .forced_wins(game)
        .into_iter()
        .filter(|(_, how)| *how == ForcedWin::NextTurn)
        .map(|(m, _)| m)
        .collect();
    let solve_ms = ms(t0);
    keep(&forcing).then_some(Found {
        kind: Kind::Win2,
        answers: forcing,
        moves: all.len(),
        solve_ms,
    })
}

/// Collects tactics from games. Positions are taken through position JSON (the form they are
/// stored and played in) and deduplicated. Classifying costs a solver walk over every move
/// (about a second on a midgame 6×6 board), so not every position is classified in full:
///
/// * every turn start is checked for a win at once and for the opponent's threat (the exact
///   one-turn check, `crumble_core::games::crumble::lookahead`, microseconds to milliseconds): `win1` and
///   `defend` candidates;
/// * every full classification is bounded by [`ClassifyOptions::max_solve_ms`]: the solver
///   stops at the limit and the position is skipped ([`Generator::out_of_time`] counts them),
///   so no position can hold the generator up, whatever its swap paths;
/// * a position is tried for `win2` only if its player had a win at once on their next
///   turn in the game and the move they played forced it whatever the reply (a walk over
///   the replies that stops at the first refutation): most such wins are the opponent's
///   mistakes, which this rules out before the full depth-2 solve;
/// * at most [`Generator::per_game`] positions of each kind (four times as many `win2`
///   hints) are classified per game, which
///   spreads the suite over games and bounds the cost of long, threat-filled random games.
#[derive(Debug, Default)]
pub struct Generator {
    pub opts: ClassifyOptions,
    solver: Solver,
    /// The exact one-turn check for the hints (each swap state once: cheap where the
    /// solver's path enumeration is not).
    check: WinCheck,
    seen: std::collections::HashSet<String>,
    /// Candidates: (the game's number, position, what was found, source).
    pub found: Vec<(u64, Crumble, Found, String)>,
    /// Positions classified in full.
    pub positions: u64,
    /// Positions whose classification hit the time limit (skipped).
    pub out_of_time: u64,
    /// Of [`Generator::positions`], those solved for `win2` without a hint
    /// ([`Generator::scan`]).
    pub scanned: u64,
    /// Stop looking for a kind once this many candidates are found (0 = never stop): a suite
    /// needs only so many of each kind.
    pub enough: usize,
    /// Full classifications per game and kind.
    pub per_game: usize,
    /// Kinds not looked for (as if they had enough already).
    pub skip: Vec<Kind>,
    /// Further turn starts per game solved for `win2` without a hint (neither player could
    /// win at once or was threatened), in a pseudo-random order: the hints find only forcing
    /// moves that were played, and good players rarely get the chance.
    pub scan: usize,
}

impl Generator {
    pub fn new(opts: ClassifyOptions, enough: usize) -> Generator {
        Generator {
            opts,
            enough,
            per_game: 2,
            ..Generator::default()
        }
    }

    fn count(&self, kind: Kind) -> usize {
        self.found.iter().filter(|f| f.2.kind == kind).count()
    }

    fn full(&self, kind: Kind) -> bool {
        self.skip.contains(&kind) || (self.enough > 0 && self.count(kind) >= self.enough)
    }

    /// Found so far: (win1, win2, defend).
    pub fn counts(&self) -> (usize, usize, usize) {
        (
            self.count(Kind::Win1),
            self.count(Kind::Win2),
            self.count(Kind::Defend),
        )
    }

    /// Has every kind enough candidates?
    pub fn done(&self) -> bool {
        Kind::ALL.into_iter().all(|k| self.full(k))
    }

    /// Classifies the turn starts of `game`; `number` tells games apart (for spreading the
    /// suite over games) and `label` names the game in `source`.
    pub fn add_game(
        &mut self,
        game: &GameRecord,
        number: u64,
        label: &str,
    ) -> Result<(), crate::record::RecordError> {
        if self.done() {
            return Ok(());
        }
        let starts = turn_starts(game)?;
        let wins_now: Vec<bool> = starts
            .iter()
            .map(|(p, _, _)| self.check.can_win(p))
            .collect();
        let mut tried = [0usize; 3];
        for (i, (p, turn, played)) in starts.iter().enumerate() {
            let passed = Crumble::from_board(p.board().clone(), p.to_move().opposite(), None);
            let threatened = !passed.is_over() && self.check.can_win(&passed);
            let kind = if wins_now[i] {
                Kind::Win1
            } else if threatened {
                Kind::Defend
            } else if wins_now.get(i + 2) == Some(&true) {
                Kind::Win2
            } else {
                continue;
            };
            let k = kind as usize;
            // Two-turn wins are rare and most hints fail, so they get more tries.
            let cap = if kind == Kind::Win2 {
                4 * self.per_game
            } else {
                self.per_game
            };
            if tried[k] >= cap || self.full(kind) {
                continue;
            }
            if !self.seen.insert(position::to_json(p)) {
                continue;
            }
            // A win two turns later is mostly the opponent's mistake: the full solve is spent
            // only where the move played forced it (an early-exit walk over the replies).
            if kind == Kind::Win2 {
                match self.played_move_forces(p, played) {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(OutOfTime) => {
                        self.out_of_time += 1;
                        continue;
                    }
                }
            }
            tried[k] += 1;
            self.classify_as(kind, p, number, &format!("{label} turn {turn}"));
        }
        if self.scan == 0 || self.full(Kind::Win2) {
            return Ok(());
        }
        self.scan_quiet(&starts, &wins_now, number, label);
        Ok(())
    }

    /// Up to `scan` quiet turn starts of one game (no win now, not seen), in an order
    /// fixed by the game's `number`, classified for a two-turn win: a second chance at the
    /// rare kind beyond the starts the game's own play pointed at.
    fn scan_quiet(&mut self, starts: &[TurnStart], wins_now: &[bool], number: u64, label: &str) {
        let mut quiet: Vec<(u64, usize)> = (0..starts.len())
            .filter(|&i| !wins_now[i] && !self.seen.contains(&position::to_json(&starts[i].0)))
            .map(|i| {
                (
                    crumble_core::game::hash::mix64(starts[i].0.hash() ^ number),
                    i,
                )
            })
            .collect();
        quiet.sort_unstable();
        let mut scanned = 0;
        for (_, i) in quiet {
            if scanned >= self.scan || self.full(Kind::Win2) {
                break;
            }
            let (p, turn, _) = &starts[i];
            let passed = Crumble::from_board(p.board().clone(), p.to_move().opposite(), None);
            if !passed.is_over() && self.check.can_win(&passed) {
                continue;
            }
            self.seen.insert(position::to_json(p));
            scanned += 1;
            self.scanned += 1;
            self.classify_as(Kind::Win2, p, number, &format!("{label} turn {turn}"));
        }
    }

    /// Classifies `p` in full and keeps it if it is a tactic of `kind`.
    fn classify_as(&mut self, kind: Kind, p: &Crumble, number: u64, source: &str) {
        self.positions += 1;
        let opts = ClassifyOptions {
            depth2: self.opts.depth2 && kind == Kind::Win2,
            ..self.opts
        };
        match classify_timed(p, &mut self.solver, &opts) {
            Ok(Some(f)) if f.kind == kind => {
                self.found.push((number, p.clone(), f, source.to_string()));
            }
            Ok(_) => {}
            Err(OutOfTime) => self.out_of_time += 1,
        }
    }

    /// Does the move played from `p` (its decisions) force a win on its player's next turn,
    /// whatever the reply? Bounded by the time limit.
    fn played_move_forces(&mut self, p: &Crumble, played: &[Decision]) -> Result<bool, OutOfTime> {
        let Ok(mv) = p.move_from_decisions(played) else {
            return Ok(false);
        };
        self.solver.set_deadline(Some(
            Instant::now() + Duration::from_millis(self.opts.max_solve_ms),
        ));
        let forced = self.solver.forces_win(p, &mv);
        let aborted = self.solver.aborted();
        self.solver.set_deadline(None);
        if aborted {
            Err(OutOfTime)
        } else {
            Ok(forced == Some(ForcedWin::NextTurn))
        }
    }

    /// Up to `per_kind` tactics of each kind, spread over the games (at most one per game
    /// and kind while others are left), ids `KIND-NNN` in order.
    pub fn select(&self, per_kind: usize) -> Suite {
        let mut s = Suite::default();
        for kind in Kind::ALL {
            let cands: Vec<&(u64, Crumble, Found, String)> =
                self.found.iter().filter(|c| c.2.kind == kind).collect();
            let mut taken = vec![false; cands.len()];
            let mut chosen = Vec::new();
            while chosen.len() < per_kind && taken.iter().any(|t| !t) {
                let mut games_used = std::collections::HashSet::new();
                for (i, c) in cands.iter().enumerate() {
                    if chosen.len() >= per_kind {
                        break;
                    }
                    if !taken[i] && games_used.insert(c.0) {
                        taken[i] = true;
                        chosen.push(*c);
                    }
                }
            }
            for (k, (_, g, f, source)) in chosen.into_iter().enumerate() {
                s.tactics.push(Tactic {
                    id: format!("{}-{:03}", kind.name(), k + 1),
                    kind,
                    position: g.clone(),
                    answers: format_moves(g, &f.answers),
                    answer_moves: f.answers.clone(),
                    moves: f.moves,
                    source: source.clone(),
                    solve_ms: f.solve_ms,
                });
            }
        }
        s
    }
}

/// A turn start of a recorded game: the position (as stored, through position JSON), its
/// turn number and the decisions of the move played from it.
type TurnStart = (Crumble, u32, Vec<Decision>);

/// Every turn start of `game` that is not over, replayed from its start.
fn turn_starts(game: &GameRecord) -> Result<Vec<TurnStart>, crate::record::RecordError> {
    let mut starts: Vec<TurnStart> = Vec::new();
    let mut g: Crumble = game.start_state()?;
    let push = |g: &Crumble, starts: &mut Vec<TurnStart>| {
        if !g.is_over()
            && let Ok(p) = position::from_json(&position::to_json(g))
        {
            starts.push((p, g.turns_played() + 1, Vec::new()));
        }
    };
    push(&g, &mut starts);
    for s in &game.steps {
        let turn = g.turns_played();
        g.apply(s.decision)
            .map_err(|e| crate::record::RecordError::Replay {
                index: game.index,
                what: e.to_string(),
            })?;
        if let Some(last) = starts.last_mut() {
            last.2.push(s.decision);
        }
        if g.turns_played() != turn {
            push(&g, &mut starts);
        }
    }
    Ok(starts)
}

// ---------------------------------------------------------------------------------------
// Playing the suite.

/// What an agent did with one tactic.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    pub id: String,
    pub kind: Kind,
    /// The agent's move in per-player notation.
    pub played: String,
    pub solved: bool,
}

/// Solve rates by kind.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Score {
    /// (kind, solved, total) for each kind present.
    pub by_kind: Vec<(Kind, usize, usize)>,
}

impl Score {
    pub fn of(attempts: &[Attempt]) -> Score {
        let mut by_kind = Vec::new();
        for k in Kind::ALL {
            let n = attempts.iter().filter(|a| a.kind == k).count();
            if n > 0 {
                let solved = attempts.iter().filter(|a| a.kind == k && a.solved).count();
                by_kind.push((k, solved, n));
            }
        }
        Score { by_kind }
    }

    pub fn total(&self) -> (usize, usize) {
        self.by_kind
            .iter()
            .fold((0, 0), |(s, n), &(_, a, b)| (s + a, n + b))
    }

    /// Solve rate with its 95% Wilson interval.
    pub fn rate(solved: usize, total: usize) -> (f64, f64, f64) {
        let (lo, hi) = wilson(solved as f64, total as f64, Z95);
        (
            if total == 0 {
                0.0
            } else {
                solved as f64 / total as f64
            },
            lo,
            hi,
        )
    }
}

/// Plays every tactic of `suite` with pool agent `agent` inside games with turn limit
/// `max_turns` (0 = none; see the module docs) and reports each attempt, in suite order.
pub fn run(
    pool: &Pool<Crumble>,
    agent: usize,
    suite: &Suite,
    max_turns: u32,
    concurrency: usize,
    seed: u64,
) -> Result<Vec<Attempt>, arena::ArenaError> {
    let jobs: Vec<Job<Crumble>> = suite
        .tactics
        .iter()
        .enumerate()
        .map(|(i, t)| Job {
            agents: vec![agent],
            seating: Seating::SelfPlay,
            start: t.position.clone(),
            max_turns,
            stop_after_turns: 1,
            games: i as u64..i as u64 + 1,
            seed,
        })
        .collect();
    let mut out = Vec::with_capacity(jobs.len());
    arena::run_jobs(pool, &jobs, concurrency, &mut |k, records| {
        let t = &suite.tactics[k];
        let fail = |message: String| {
            arena::ArenaError::Sink(Box::new(TacticsError::Replay {
                id: t.id.clone(),
                message,
            }))
        };
        let rec = records
            .first()
            .ok_or_else(|| fail("no game was played".into()))?;
        let mut g = t.position.clone();
        let turn = g.turns_played();
        let mut path = Vec::new();
        for s in &rec.steps {
            if g.turns_played() != turn || g.is_over() {
                break;
            }
            path.push(s.decision);
            g.apply(s.decision)
                .map_err(|e| fail(format!("replaying the game: {e}")))?;
        }
        let mv = t
            .position
            .move_from_decisions(&path)
            .map_err(|e| fail(format!("the first turn: {e}")))?;
        out.push(Attempt {
            id: t.id.clone(),
            kind: t.kind,
            played: format_moves(&t.position, std::slice::from_ref(&mv))
                .pop()
                .unwrap_or_default(),
            solved: t.is_answer(&mv),
        });
        Ok(Flow::Continue)
    })?;
    Ok(out)
}
