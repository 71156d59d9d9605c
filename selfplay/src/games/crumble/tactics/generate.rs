//! Classifying positions by the exact solver and generating a suite from played games
//! ([`Generator`]).

use super::*;

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
