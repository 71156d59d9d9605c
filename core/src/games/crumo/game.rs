//! A Crumo game: the position of rule 12 (stacks, colour to move, pie state, seats, the
//! previous turn's kind, captures, result), the turn as one or two atomic decisions, removal
//! of dead stacks (rule 6.3), passing, the pie rule and the turn limit.
//!
//! # The action space
//!
//! With `P` points (indexed by rank, then file: see [`super::board`]) and
//! `HMAX = D = 2(n−1)` the largest placement height of the size, a decision is one integer
//! below `(HMAX + 2) · P + 2`:
//!
//! | decisions | meaning |
//! | --- | --- |
//! | `(h − 1) · P + p`, `h` in `1..=HMAX` | `Place`: a stack of height `h` on point `p` (a whole turn) |
//! | `HMAX · P + p` | `From`: move (part of) the stack on `p`; the turn continues |
//! | `(HMAX + 1) · P + t` | `To`: the target `t` of the move begun by `From`; ends the turn |
//! | `(HMAX + 2) · P` | `Pass` |
//! | `(HMAX + 2) · P + 1` | `Swap` (rule 8.2) |
//!
//! Size 5: `P = 61`, `HMAX = 8`, 612 decisions; size 7: `P = 127`, `HMAX = 12`, 1780.
//!
//! A move is `From(s)` then `To(t)`: the number of pieces `k` and the direction follow from
//! `t − s` (rule 11.3). `From(s)` is legal only when some `To` is legal after it. Between
//! the two the state is *pending*: the mover still decides, nothing on the board has
//! changed, and the state has no JSON or notation form.

use super::board::{
    BoardView, Cells, Geometry, GuardTable, MAX_POINTS, Point, Stack, geometry, is_color, stack_of,
};
use crate::game::Color;
use crate::game::hash::mix64;
use crate::game::{Decision, TurnCount};

pub use super::status::{Outcome, Pie, Previous, Reason};

mod capture;
mod interface;

/// A decoded decision.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    Place { point: Point, height: u32 },
    From { point: Point },
    To { point: Point },
    Pass,
    Swap,
}

/// One Crumo game.
#[derive(PartialEq, Eq, Debug)]
pub struct Crumo {
    pub(crate) size: u8,
    /// One word per point (see [`super::board`]'s `cell_of`): `+h` black, `−h` white.
    pub(crate) cells: Vec<i64>,
    pub(crate) to_move: Color,
    pub(crate) pie: Pie,
    pub(crate) swapped: bool,
    pub(crate) previous: Previous,
    /// `[black, white]`: enemy pieces captured for each colour (rule 6.4).
    pub(crate) captures: [u64; 2],
    /// The source chosen by `From`, awaiting its `To`.
    pub(crate) pending: Option<Point>,
    pub(crate) result: Option<Outcome>,
    pub(crate) turns: TurnCount,
}

impl Clone for Crumo {
    fn clone(&self) -> Crumo {
        let mut c = Crumo {
            cells: Vec::new(),
            ..*self
        };
        c.cells.clone_from(&self.cells);
        c
    }

    /// Reuses the cell buffer: search copies states into scratch states without allocating.
    fn clone_from(&mut self, source: &Crumo) {
        self.cells.clone_from(&source.cells);
        self.size = source.size;
        self.to_move = source.to_move;
        self.pie = source.pie;
        self.swapped = source.swapped;
        self.previous = source.previous;
        self.captures = source.captures;
        self.pending = source.pending;
        self.result = source.result;
        self.turns.played = source.turns.played;
        self.turns.limit = source.turns.limit;
    }
}

impl Crumo {
    /// The standard start of rule 8.1 on a board of `size`, or `None` for a size outside
    /// rule 1.1's range (checked before anything is allocated).
    pub fn standard(size: u8) -> Option<Crumo> {
        let geo = geometry(size)?;
        Some(Crumo {
            size,
            cells: vec![0; geo.points()],
            to_move: Color::Black,
            pie: Pie::First,
            swapped: false,
            previous: Previous::Other,
            captures: [0, 0],
            pending: None,
            result: None,
            turns: TurnCount::default(),
        })
    }

    // ------------------------------------------------------------------- accessors

    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        geometry(self.size).expect("a game's size is supported")
    }
    #[inline]
    pub fn size(&self) -> u8 {
        self.size
    }
    /// `P`, the number of points.
    #[inline]
    pub fn points(&self) -> usize {
        self.cells.len()
    }
    /// `HMAX = D = 2(n−1)`: the largest placement height of this size.
    #[inline]
    pub fn max_height(&self) -> u32 {
        2 * (u32::from(self.size) - 1)
    }
    /// The stack on a point, if any.
    #[inline]
    pub fn stack(&self, p: Point) -> Option<Stack> {
        stack_of(self.cells[usize::from(p)])
    }
    /// Every stack with its point, in point order (rank, then file).
    pub fn stacks(&self) -> impl Iterator<Item = (Point, Stack)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(p, &c)| stack_of(c).map(|s| (p as Point, s)))
    }
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    #[inline]
    pub fn pie(&self) -> Pie {
        self.pie
    }
    /// Did the second seat take Black (rule 8.3)?
    #[inline]
    pub fn swapped(&self) -> bool {
        self.swapped
    }
    /// Does the first seat play `c` (rule 8.3)?
    #[inline]
    pub fn first_seat_plays(&self, c: Color) -> bool {
        (c == Color::Black) != self.swapped
    }
    #[inline]
    pub fn previous(&self) -> Previous {
        self.previous
    }
    /// Enemy pieces captured for `c` (rule 6.4).
    #[inline]
    pub fn captures(&self, c: Color) -> u64 {
        self.captures[c as usize]
    }
    /// The source chosen by a `From` decision, while its `To` is awaited.
    #[inline]
    pub fn pending_source(&self) -> Option<Point> {
        self.pending
    }
    #[inline]
    pub fn is_pending(&self) -> bool {
        self.pending.is_some()
    }
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    /// Ends a live game at a turn start by a result outside the moves (rule 10.2's
    /// resignation or agreement). Returns `false`, with the game unchanged, when the game is
    /// over or in the middle of a turn.
    pub fn finish(&mut self, outcome: Outcome) -> bool {
        if self.result.is_some() || self.pending.is_some() {
            return false;
        }
        self.result = Some(outcome);
        true
    }

    #[inline]
    pub(crate) fn view(&self) -> BoardView<'_> {
        BoardView {
            cells: &self.cells,
            geo: self.geometry(),
        }
    }

    /// `[G_black(x), G_white(x)]` (rule 3.2) on the current board.
    pub fn guards(&self, x: Point) -> [u32; 2] {
        self.view().guards(x)
    }

    // ------------------------------------------------------------------- decisions

    #[inline]
    fn p32(&self) -> u32 {
        self.cells.len() as u32
    }

    /// The decision of an action (which must fit this size).
    #[inline]
    pub fn encode(&self, action: Action) -> Decision {
        let (p, hmax) = (self.p32(), self.max_height());
        Decision(match action {
            Action::Place { point, height } => (height - 1) * p + u32::from(point),
            Action::From { point } => hmax * p + u32::from(point),
            Action::To { point } => (hmax + 1) * p + u32::from(point),
            Action::Pass => (hmax + 2) * p,
            Action::Swap => (hmax + 2) * p + 1,
        })
    }

    /// The action of a decision, if it is inside the action space.
    #[inline]
    pub fn decode(&self, d: Decision) -> Option<Action> {
        let (p, hmax) = (self.p32(), self.max_height());
        let (plane, point) = (d.0 / p, (d.0 % p) as Point);
        Some(match plane {
            _ if plane < hmax => Action::Place {
                point,
                height: plane + 1,
            },
            _ if plane == hmax => Action::From { point },
            _ if plane == hmax + 1 => Action::To { point },
            _ if d.0 == (hmax + 2) * p => Action::Pass,
            _ if d.0 == (hmax + 2) * p + 1 => Action::Swap,
            _ => return None,
        })
    }

    /// The heights `h` (bit `h − 1`) that colour `c` could place on the empty point `p`
    /// (rule 5.2 a–c), whoever is to move; `0` when `p` is occupied or none is legal.
    pub fn placement_heights(&self, c: Color, p: Point) -> u32 {
        if self.cells[usize::from(p)] != 0 {
            return 0;
        }
        // One walk of the 12 lines from `p` gathers both tests: the stacks that guard `p`
        // (a stack `k` steps away of height `k`) and the distances with an enemy stack.
        let geo = self.geometry();
        let enemy_color = c.opposite();
        let (mut g, mut lines, mut enemy) = ([0u32; 2], 0u32, 0u32);
        for d in 0..12 {
            let len = geo.ray_len(p, d);
            lines |= (1 << len) - 1;
            for k in 1..=len {
                let cell = self.cells[usize::from(geo.step_on_board(p, d, k))];
                if cell.unsigned_abs() == u64::from(k) {
                    g[usize::from(cell < 0)] += 1;
                }
                if is_color(cell, enemy_color) {
                    enemy |= 1 << (k - 1);
                }
            }
        }
        // (c): the new stack adds 1 to its own defence; its height does not matter.
        if g[enemy_color as usize] > 1 + g[c as usize] {
            return 0;
        }
        // (a) a point at distance h along some line, (b) no enemy stack at that distance.
        lines & !enemy
    }

    /// [`placement_heights`](Crumo::placement_heights) of every point into `out`, and their
    /// total number of bits. Computed from the stacks rather than from each point: a stack
    /// of height `h` guards the ≤ 12 points `h` steps away, and an enemy stack bars, on
    /// each point of its lines, the height equal to the distance; far cheaper than walking
    /// the 12 lines from every empty point.
    pub(crate) fn placement_masks(
        &self,
        c: Color,
        guards: &GuardTable,
        out: &mut [u32; MAX_POINTS],
    ) -> u64 {
        let geo = self.geometry();
        let points = self.points();
        let mut barred = [0u32; MAX_POINTS];
        for y in 0..points as Point {
            if !is_color(self.cells[usize::from(y)], c.opposite()) {
                continue;
            }
            for d in 0..12 {
                for k in 1..=geo.ray_len(y, d) {
                    barred[usize::from(geo.step_on_board(y, d, k))] |= 1 << (k - 1);
                }
            }
        }
        let (mine, theirs) = (c as usize, c.opposite() as usize);
        let mut total = 0;
        for p in 0..points {
            let g = guards.get(p as Point);
            // Rule 5.2 (c) as in `placement_heights`, then (a) and (b).
            out[p] = if self.cells[p] != 0 || g[theirs] > 1 + g[mine] {
                0
            } else {
                ((1 << geo.longest_line(p as Point)) - 1) & !barred[p]
            };
            total += u64::from(out[p].count_ones());
        }
        total
    }

    /// Could `c` place some stack on `p` (rule 9.1's test)?
    #[inline]
    pub fn could_place(&self, c: Color, p: Point) -> bool {
        self.placement_heights(c, p) != 0
    }

    /// Would the complete-stack move `s → t` capture (rule 6.5): does phase 1 of its
    /// removal remove an enemy stack?
    pub fn complete_move_captures(&self, s: Point, t: Point) -> bool {
        let view = self.view();
        self.complete_move_captures_by(s, t, &|y| view.guards(y))
    }

    /// [`complete_move_captures`](Crumo::complete_move_captures) with the guard counts of
    /// the position (rule 3.2) from `guards`. Between turns no stack is dead (rule 4.3),
    /// so only the enemy stacks the moved stack guards from `t` can die: the movement adds
    /// that one attacker to them and takes away the
    /// stack that stood on `s` if it guarded them (the stack that stood on `t` was lower
    /// than the merged one, so it did not); their defenders do not move.
    fn complete_move_captures_by<G: Fn(Point) -> [u32; 2]>(
        &self,
        s: Point,
        t: Point,
        guards: &G,
    ) -> bool {
        let (sc, tc) = (self.cells[usize::from(s)], self.cells[usize::from(t)]);
        let mover = if sc > 0 { Color::Black } else { Color::White };
        let (hs, h) = (sc.unsigned_abs(), (tc + sc).unsigned_abs());
        if h > u64::from(self.max_height()) {
            return false;
        }
        let (geo, h) = (self.geometry(), h as u32);
        (0..12).any(|d| {
            if h > geo.ray_len(t, d) {
                return false;
            }
            let y = geo.step_on_board(t, d, h);
            if !is_color(self.cells[usize::from(y)], mover.opposite()) {
                return false;
            }
            let g = guards(y);
            let s_guarded = geo
                .line_between(s, y)
                .is_some_and(|(_, k)| u64::from(k) == hs);
            g[mover as usize] + 1 - u32::from(s_guarded) > g[mover.opposite() as usize]
        })
    }

    /// Is the move of the stack on `s` to `t` legal for the player to move (rule 6.1, 6.5)?
    /// `s` must hold a stack of theirs.
    pub(crate) fn target_ok(&self, s: Point, t: Point) -> bool {
        let view = self.view();
        match self.geometry().line_between(s, t) {
            Some((_, k)) => self.target_ok_by(s, t, k, &|y| view.guards(y)),
            None => false,
        }
    }

    /// [`target_ok`](Crumo::target_ok) for a `t` known to lie `k` steps from `s` on a line,
    /// with the guard counts from `guards`.
    #[inline]
    fn target_ok_by<G: Fn(Point) -> [u32; 2]>(
        &self,
        s: Point,
        t: Point,
        k: u32,
        guards: &G,
    ) -> bool {
        let h = self.cells[usize::from(s)].unsigned_abs();
        if u64::from(k) > h || is_color(self.cells[usize::from(t)], self.to_move.opposite()) {
            return false;
        }
        let complete = u64::from(k) == h;
        !(complete
            && self.previous == Previous::CompleteMove
            && !self.complete_move_captures_by(s, t, guards))
    }

    /// Calls `f` with every legal target of the player's stack on `s` (in no fixed order)
    /// until it returns `false`.
    pub(crate) fn for_each_target(&self, s: Point, f: impl FnMut(Point) -> bool) {
        let view = self.view();
        self.for_each_target_by(s, &|y| view.guards(y), f);
    }

    /// [`for_each_target`](Crumo::for_each_target) with the guard counts of the position
    /// from `table`: for a turn's many tests.
    pub(crate) fn for_each_target_in(
        &self,
        s: Point,
        table: &GuardTable,
        f: impl FnMut(Point) -> bool,
    ) {
        self.for_each_target_by(s, &|y| table.get(y), f);
    }

    fn for_each_target_by<G: Fn(Point) -> [u32; 2]>(
        &self,
        s: Point,
        guards: &G,
        mut f: impl FnMut(Point) -> bool,
    ) {
        let geo = self.geometry();
        let h = self.cells[usize::from(s)].unsigned_abs();
        let reach = h.min(u64::from(self.max_height())) as u32;
        for d in 0..12 {
            for k in 1..=reach.min(geo.ray_len(s, d)) {
                let t = geo.step_on_board(s, d, k);
                if self.target_ok_by(s, t, k, guards) && !f(t) {
                    return;
                }
            }
        }
    }

    /// Has the player's stack on `s` a legal move?
    pub fn has_target(&self, s: Point) -> bool {
        let view = self.view();
        self.has_target_by(s, &|y| view.guards(y))
    }

    fn has_target_by<G: Fn(Point) -> [u32; 2]>(&self, s: Point, guards: &G) -> bool {
        let mut any = false;
        self.for_each_target_by(s, guards, |_| {
            any = true;
            false
        });
        any
    }

    pub fn is_legal(&self, d: Decision) -> bool {
        if self.result.is_some() {
            return false;
        }
        let me = self.to_move;
        match (self.decode(d), self.pending) {
            (Some(Action::To { point }), Some(s)) => point != s && self.target_ok(s, point),
            (_, Some(_)) | (None, None) | (Some(Action::To { .. }), None) => false,
            (Some(Action::Place { point, height }), None) => {
                self.placement_heights(me, point) & (1 << (height - 1)) != 0
            }
            (Some(Action::From { point }), None) => {
                self.pie != Pie::First
                    && is_color(self.cells[usize::from(point)], me)
                    && self.has_target(point)
            }
            (Some(Action::Pass), None) => self.pie != Pie::First,
            (Some(Action::Swap), None) => self.pie == Pie::Choice,
        }
    }

    /// The legal decisions, ascending, into `out` (cleared first). No allocation once `out`
    /// is large enough.
    pub(crate) fn decisions_into(&self, out: &mut Vec<Decision>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        if let Some(s) = self.pending {
            self.for_each_target(s, |t| {
                out.push(self.encode(Action::To { point: t }));
                true
            });
            // Each (direction, distance) reaches a different point: sorting is enough.
            out.sort_unstable();
            return;
        }
        let me = self.to_move;
        let table = self.view().guard_table();
        let mut masks = [0u32; MAX_POINTS];
        self.placement_masks(me, &table, &mut masks);
        for h in 1..=self.max_height() {
            for (p, &m) in masks[..self.points()].iter().enumerate() {
                if m & (1 << (h - 1)) != 0 {
                    out.push(self.encode(Action::Place {
                        point: p as Point,
                        height: h,
                    }));
                }
            }
        }
        if self.pie == Pie::First {
            return;
        }
        for p in 0..self.points() as Point {
            if is_color(self.cells[usize::from(p)], me) && self.has_target_by(p, &|y| table.get(y))
            {
                out.push(self.encode(Action::From { point: p }));
            }
        }
        out.push(self.encode(Action::Pass));
        if self.pie == Pie::Choice {
            out.push(self.encode(Action::Swap));
        }
    }

    fn end_turn(&mut self) {
        self.end_turn_then(|_| ());
    }

    /// The end of an ordinary turn (Appendix B): the other colour moves, the pie state
    /// advances, `then` may end the game, the turn is counted and the limit checked.
    fn end_turn_then(&mut self, then: impl FnOnce(&mut Crumo)) {
        self.to_move = self.to_move.opposite();
        self.pie = if self.pie == Pie::First {
            Pie::Choice
        } else {
            Pie::Over
        };
        then(self);
        self.turns.played += 1;
        self.check_turn_limit();
    }

    /// Ends a live game between turns by the turn limit once it is reached (rule 10.1).
    fn check_turn_limit(&mut self) {
        if self.result.is_none() && self.pending.is_none() && self.turns.limit_reached() {
            self.result = Some(Outcome::scored(Reason::TurnLimit, self.score_halves(None)));
        }
    }

    /// 64-bit hash of everything equality compares.
    pub fn hash(&self) -> u64 {
        let mut h = mix64(
            u64::from(self.size)
                | (self.to_move as u64) << 8
                | (self.pie as u64) << 10
                | u64::from(self.swapped) << 12
                | (self.previous as u64) << 13
                | u64::from(self.pending.map_or(0xffff, |p| p)) << 16
                | u64::from(self.turns.played) << 32,
        );
        for (p, &c) in self.cells.iter().enumerate() {
            if c != 0 {
                h ^= mix64((p as u64) << 48 ^ c as u64);
            }
        }
        h ^= mix64(self.captures[0] ^ 0x0ca0_0000_0000_0000);
        h ^= mix64(self.captures[1] ^ 0x0ca1_0000_0000_0000).rotate_left(17);
        if let Some(o) = self.result {
            let [b, w] = o.score_halves.unwrap_or([u64::MAX, u64::MAX]);
            h ^= mix64(
                0x4e5d_0000_0000 | o.reason as u64 | o.winner.map_or(0, |c| 1 + c as u64) << 8,
            ) ^ mix64(b).rotate_left(7)
                ^ mix64(w).rotate_left(29);
        }
        h ^ mix64(u64::from(self.turns.limit) ^ 0x7e7e_0000_0000_0000)
    }
}
