//! The game state: the board plus the turn in progress, the rules of RULES.md sections 3–5,
//! and the turn as atomic decisions (see [`crate::games::crumble::decision`]).

use crate::game::Color;
use crate::game::Decision;
use crate::game::hash::mix64;
use crate::game::named::named_enum;
use crate::games::crumble::board::{Board, NO_SLOT};
use crate::games::crumble::chains::SwapChains;
use crate::games::crumble::decision::{DecisionKind, action_count};
use crate::games::crumble::error::SizeError;
use crate::games::crumble::geom::{Cut, Dir, Piece, Rect, rect_key};

mod bases;
pub(crate) use bases::Reads;

named_enum! {
    /// Why a game ended (RULES.md section 5).
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    pub enum Reason {
        FourSides,
        DrawRule,
        NoSplitOrJoin,
        TurnLimit,
        Resignation,
        Agreement,
    }
}

impl Reason {
    /// Does this reason need a winner (`true`) or forbid one (`false`)?
    pub fn has_winner(self) -> bool {
        matches!(self, Reason::FourSides | Reason::Resignation)
    }
}

/// The result of a finished game.
pub type Outcome = crate::game::outcome::Outcome<Reason>;

/// Where the turn in progress stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    /// Start of a turn: choose a split or a join.
    Choose,
    /// A split or join was chosen at `start`; decide where it ends.
    Extent { kind: ChoiceKind, start: Rect },
    /// After the split or join: swap steps or stop.
    Swap,
    /// The game has a result.
    Over,
}

/// The pending choice of an extent decision.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ChoiceKind {
    Split(Cut),
    Join,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Choose,
    Extent { kind: ChoiceKind, start: u32 },
    Swap,
    Over,
}

/// What one turn did, for the automatic draw rule (5.2).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TurnRecord {
    /// Pieces split (before the cut), or the join outline: disjoint rectangles.
    pub(crate) region: Vec<Rect>,
    /// The swap's targets, in order.
    pub(crate) targets: Vec<Rect>,
}

impl TurnRecord {
    fn clear(&mut self) {
        self.region.clear();
        self.targets.clear();
    }
    fn copy_from(&mut self, o: &TurnRecord) {
        self.region.clear();
        self.region.extend_from_slice(&o.region);
        self.targets.clear();
        self.targets.extend_from_slice(&o.targets);
    }
    fn hash(&self) -> u64 {
        let mut h = 0x51_7cc1_b727_220au64;
        for r in &self.region {
            h = mix64(h ^ rect_key(*r));
        }
        h = mix64(h ^ 0xff);
        for r in &self.targets {
            h = mix64(h ^ rect_key(*r));
        }
        h
    }
}

/// The last six turns (three of each player), oldest first.
#[derive(Clone, Debug, Default)]
struct DrawWindow {
    turns: [TurnRecord; 6],
    head: usize,
    len: usize,
}

impl DrawWindow {
    fn push(&mut self, rec: &TurnRecord) {
        let i = (self.head + self.len) % 6;
        self.turns[i].copy_from(rec);
        if self.len < 6 {
            self.len += 1;
        } else {
            self.head = (self.head + 1) % 6;
        }
    }
    fn get(&self, i: usize) -> &TurnRecord {
        &self.turns[(self.head + i) % 6]
    }
    fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
    }
}

/// `a` lies inside `b` as point sets; both are lists of disjoint rectangles.
fn region_inside(a: &[Rect], b: &[Rect]) -> bool {
    a.iter()
        .all(|ra| b.iter().map(|rb| ra.overlap_area(*rb)).sum::<u64>() == ra.area())
}

/// One loop-guard state of the turn: colouring (hash + snapshot of colour bits) and swapper.
#[derive(Clone, Copy, Debug)]
struct GuardEntry {
    key: u64,
    swapper: u32,
    offset: u32,
}

/// Buffers reused across decisions so the hot path does not allocate.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    mark: Vec<u32>,
    mark_id: u32,
    safe: Vec<u32>,
    stack: Vec<u32>,
    group: Vec<u32>,
    seeds: Vec<u32>,
    /// By slot, a piece that last proved the slot's group safe: of its colour, touching it
    /// and a side. Checked before it is trusted (slots are reused and colours change), so it
    /// can be stale but never wrong; kept across steps, turns and copies of the game.
    anchor: Vec<u32>,
    to_flip: Vec<u32>,
    /// Slots whose colour changed in the current step, in order (for undo).
    pub(crate) flips: Vec<u32>,
    xs: Vec<u16>,
    ys: Vec<u16>,
    run: Vec<u32>,
    /// Splits and joins of the player to move, by piece, kept between turns (`bases.rs`).
    bases: bases::BaseCache,
    /// Buffers for `is_legal`, `any_step` and random play: each user its own, because they
    /// nest (applying a decision checks for steps while random play holds its list).
    legal: Vec<Decision>,
    pub(crate) random: Vec<Decision>,
    /// For the debug-build check of the cached swap steps.
    #[cfg(debug_assertions)]
    check: Vec<Decision>,
}

impl Clone for Scratch {
    /// Scratch space holds no state: a clone starts empty.
    fn clone(&self) -> Scratch {
        Scratch::default()
    }
}

impl Scratch {
    /// A fresh stamp for `mark`/`safe`, sized for `slots` slots.
    fn stamp(&mut self, slots: usize) -> u32 {
        if self.mark.len() < slots {
            self.mark.resize(slots, 0);
            self.safe.resize(slots, 0);
        }
        if self.mark_id == u32::MAX {
            self.mark.fill(0);
            self.safe.fill(0);
            self.mark_id = 0;
        }
        self.mark_id += 1;
        self.mark_id
    }
}

/// A game in progress: position, turn state, draw-rule history and result.
#[derive(Debug)]
pub struct Crumble {
    board: Board,
    to_move: Color,
    state: State,
    fresh: Vec<u32>,
    swapper: u32,
    /// The legal steps of the current swap state, sorted (see `any_step`).
    steps: Vec<Decision>,
    guard: Vec<GuardEntry>,
    guard_bits: Vec<u64>,
    turn: TurnRecord,
    window: DrawWindow,
    turns_played: u32,
    max_turns: u32,
    outcome: Option<Outcome>,
    /// The chains at the swap's start, to skip the win test of most steps (a cache: not part
    /// of the state's identity).
    chains: SwapChains,
    s: Scratch,
}

impl Clone for Crumble {
    fn clone(&self) -> Crumble {
        let mut g = Crumble {
            board: self.board.clone(),
            to_move: self.to_move,
            state: self.state,
            fresh: Vec::new(),
            swapper: self.swapper,
            steps: Vec::new(),
            guard: Vec::new(),
            guard_bits: Vec::new(),
            turn: TurnRecord::default(),
            window: DrawWindow::default(),
            turns_played: self.turns_played,
            max_turns: self.max_turns,
            outcome: self.outcome,
            chains: SwapChains::default(),
            s: Scratch::default(),
        };
        g.clone_from(self);
        g
    }

    /// Copies `src` into `self` reusing every buffer (scratch space included): no heap
    /// allocation once the buffers are large enough, which search relies on.
    fn clone_from(&mut self, src: &Crumble) {
        self.board.clone_from(&src.board);
        self.to_move = src.to_move;
        self.state = src.state;
        self.fresh.clone_from(&src.fresh);
        self.swapper = src.swapper;
        self.steps.clone_from(&src.steps);
        self.guard.clone_from(&src.guard);
        self.guard_bits.clone_from(&src.guard_bits);
        self.turn.copy_from(&src.turn);
        self.window.head = src.window.head;
        self.window.len = src.window.len;
        for (a, b) in self.window.turns.iter_mut().zip(&src.window.turns) {
            a.copy_from(b);
        }
        self.turns_played = src.turns_played;
        self.max_turns = src.max_turns;
        self.outcome = src.outcome;
        self.chains.clone_from(&src.chains);
    }
}

impl PartialEq for Crumble {
    /// Equal positions in equal turn states with equal draw-rule windows (slot layouts may
    /// differ): equal exactly when everything `hash` covers is equal.
    fn eq(&self, o: &Crumble) -> bool {
        self.board == o.board
            && self.to_move == o.to_move
            && self.phase() == o.phase()
            && self.outcome == o.outcome
            && self.fresh_pieces() == o.fresh_pieces()
            && self.swapper_piece() == o.swapper_piece()
            && self.max_turns == o.max_turns
            // The turn count matters only under a turn limit (as in `hash`).
            && (self.max_turns == 0 || self.turns_played == o.turns_played)
            && self.window_hash() == o.window_hash()
            && self.guard_hash() == o.guard_hash()
    }
}

impl Crumble {
    /// The standard start (rule 1.4) on an `n × n` board at resolution `r`.
    pub fn new(n: u16, r: u16) -> Result<Crumble, SizeError> {
        let board = Board::standard(n, r)?;
        Ok(Crumble::from_board(board, Color::Black, None))
    }

    /// A game from a loaded position (rule 3.6): surrounded groups are resolved, a four-side
    /// chain becomes a result, then rule 5.3 is checked. A given result is kept.
    pub fn from_board(board: Board, to_move: Color, result: Option<Outcome>) -> Crumble {
        let mut game = Crumble {
            board,
            to_move,
            state: State::Choose,
            fresh: Vec::new(),
            swapper: NO_SLOT,
            steps: Vec::new(),
            guard: Vec::new(),
            guard_bits: Vec::new(),
            turn: TurnRecord::default(),
            window: DrawWindow::default(),
            turns_played: 0,
            max_turns: 0,
            outcome: result,
            chains: SwapChains::default(),
            s: Scratch::default(),
        };
        game.resolve_all();
        if game.outcome.is_none() {
            if let Some(w) = game.winner_full() {
                game.outcome = Some(Outcome {
                    winner: Some(w),
                    reason: Reason::FourSides,
                });
            } else if !game.has_split_or_join(to_move) {
                game.outcome = Some(Outcome::draw(Reason::NoSplitOrJoin));
            }
        }
        if game.outcome.is_some() {
            game.state = State::Over;
        }
        game
    }

    /// This position between turns (or finished) with every rectangle moved by `map`, a
    /// symmetry of the board ([`crate::games::crumble::symmetry::image`]): pieces and the draw
    /// rule's window mapped, everything else kept. `None` within a turn.
    pub(crate) fn mapped(&self, map: &dyn Fn(Rect) -> Rect) -> Option<Crumble> {
        if !matches!(self.state, State::Choose | State::Over) {
            return None;
        }
        let b = &self.board;
        let pieces: Vec<Piece> = b
            .sorted_pieces()
            .into_iter()
            .map(|p| Piece {
                rect: map(p.rect),
                color: p.color,
            })
            .collect();
        let mut window = DrawWindow::default();
        for i in 0..self.window.len {
            let t = self.window.get(i);
            let mut region: Vec<Rect> = t.region.iter().map(|&r| map(r)).collect();
            // A split lists its pieces along the run, first to last, as `do_split` does; a
            // mirror may reverse the run. Pieces side by side run along x, else along y.
            if region.len() > 1 {
                let along_x = region[0].right() <= region[1].x || region[1].right() <= region[0].x;
                if along_x {
                    region.sort_unstable_by_key(|r| r.x);
                } else {
                    region.sort_unstable_by_key(|r| r.y);
                }
            }
            let targets: Vec<Rect> = t.targets.iter().map(|&r| map(r)).collect();
            window.push(&TurnRecord { region, targets });
        }
        // A position's image resolves to nothing new and keeps the original's result.
        let board = Board::from_valid_pieces(b.board_size(), b.resolution(), &pieces);
        let mut g = Crumble::from_board(board, self.to_move, self.outcome);
        debug_assert_eq!(
            g.state, self.state,
            "an image is live or over as its original"
        );
        g.window = window;
        g.turns_played = self.turns_played;
        g.max_turns = self.max_turns;
        Some(g)
    }

    /// Sets the turn limit of rule 5.4 (`0` = none), counted from the start or loaded position.
    pub fn set_max_turns(&mut self, max_turns: u32) {
        self.max_turns = max_turns;
        if self.outcome.is_none()
            && self.state == State::Choose
            && max_turns > 0
            && self.turns_played >= max_turns
        {
            self.finish(Outcome::draw(Reason::TurnLimit));
        }
    }

    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }

    /// Restarts from the standard start, keeping the buffers (and the turn limit).
    pub fn reset_standard(&mut self) {
        self.board.reset_standard();
        self.to_move = Color::Black;
        self.state = State::Choose;
        self.fresh.clear();
        self.swapper = NO_SLOT;
        self.guard.clear();
        self.guard_bits.clear();
        self.turn.clear();
        self.window.clear();
        self.turns_played = 0;
        self.outcome = None;
    }

    /// Ends the game now with `outcome` (resignation, agreement, or any result from outside).
    pub fn finish(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
        self.state = State::Over;
    }

    #[inline]
    pub(crate) fn scratch(&mut self) -> &mut Scratch {
        &mut self.s
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }
    #[inline]
    pub fn grid_size(&self) -> u16 {
        self.board.grid_size()
    }
    /// Size of the action space, `8·G·G + 1`.
    #[inline]
    pub fn action_count(&self) -> u32 {
        action_count(self.board.grid_size())
    }
    /// The player whose turn it is (after the game ended: who would move next).
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }
    /// Who makes the next decision: the player to move, or `None` when the game is over.
    #[inline]
    pub fn decider(&self) -> Option<Color> {
        (self.state != State::Over).then_some(self.to_move)
    }
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    #[inline]
    pub fn is_over(&self) -> bool {
        self.state == State::Over
    }
    /// Turns completed since the start or the loaded position.
    #[inline]
    pub fn turns_played(&self) -> u32 {
        self.turns_played
    }
    pub fn phase(&self) -> Phase {
        match self.state {
            State::Choose => Phase::Choose,
            State::Extent { kind, start } => Phase::Extent {
                kind,
                start: self.board.rect(start),
            },
            State::Swap => Phase::Swap,
            State::Over => Phase::Over,
        }
    }
    /// The turn's fresh pieces (rule 4.1.6, 4.2.2), sorted by `(y, x)`; empty outside the swap.
    pub fn fresh_pieces(&self) -> Vec<Rect> {
        let mut v: Vec<Rect> = self.fresh.iter().map(|&s| self.board.rect(s)).collect();
        v.sort_unstable_by_key(|r| (r.y, r.x));
        v
    }
    /// The current swapper, once a first step has been taken.
    pub fn swapper_piece(&self) -> Option<Rect> {
        (self.swapper != NO_SLOT && self.state == State::Swap)
            .then(|| self.board.rect(self.swapper))
    }
    /// Is the game at the beginning of a turn (where complete moves start)?
    #[inline]
    pub fn at_turn_start(&self) -> bool {
        self.state == State::Choose
    }

    // ---------------------------------------------------------------- hash

    fn window_hash(&self) -> u64 {
        let mut h = self.window.len as u64;
        for i in 0..self.window.len {
            h = mix64(h ^ self.window.get(i).hash());
        }
        h
    }
    fn guard_hash(&self) -> u64 {
        // The set of states visited this turn: order-free, so XOR.
        self.guard.iter().fold(0, |h, e| h ^ mix64(e.key))
    }

    /// 64-bit hash of everything that affects the legal decisions or the outcome: pieces and
    /// colours, who decides, phase, pending choice, fresh pieces, swapper, the loop-guard states
    /// of the turn, the draw-rule window, the result, and the turn count when a limit is set.
    pub fn hash(&self) -> u64 {
        self.position_hash() ^ mix64(self.window_hash() ^ 0x77)
    }

    /// [`Crumble::hash`] without the draw-rule window: the same for every order of moves
    /// that reaches this position ([`GameState::position_hash`](crate::game::GameState::position_hash)).
    pub fn position_hash(&self) -> u64 {
        let mut h = self.board.hash() ^ mix64(0xC0 + self.to_move as u64);
        let phase = match self.state {
            State::Choose => 1,
            State::Extent { kind, start } => {
                let k = match kind {
                    ChoiceKind::Split(Cut::H) => 2,
                    ChoiceKind::Split(Cut::V) => 3,
                    ChoiceKind::Join => 4,
                };
                mix64(k ^ rect_key(self.board.rect(start)) << 3)
            }
            State::Swap => 5,
            State::Over => 6,
        };
        h ^= mix64(0xA1 ^ phase);
        if self.state == State::Swap {
            for &f in &self.fresh {
                h ^= mix64(0xF5E5 ^ rect_key(self.board.rect(f)));
            }
            if self.swapper != NO_SLOT {
                h ^= mix64(0x5a5a ^ rect_key(self.board.rect(self.swapper)));
            }
            h ^= mix64(self.guard_hash() ^ 0x6d);
        }
        if let Some(o) = self.outcome {
            h ^= mix64(((o.reason as u64) << 8) ^ o.winner.map_or(3, |c| c as u64));
        }
        if self.max_turns > 0 {
            h ^= mix64(0x7e7e ^ u64::from(self.turns_played) << 20 ^ u64::from(self.max_turns));
        }
        h
    }

    // ---------------------------------------------------------------- captures and wins

    /// BFS of the group (touching, same colour) of `seed`. Returns true as soon as it reaches a
    /// side of the board or a piece already known safe under stamp `safe_id`; then every piece
    /// visited is marked safe. Otherwise the whole group is left in `s.group`.
    fn group_reaches_side(&mut self, seed: u32, safe_id: u32) -> bool {
        let b = &self.board;
        let s = &mut self.s;
        let g = b.grid_size();
        let id = s.stamp(b.slot_limit());
        let color = b.color(seed);
        // The seed's last anchor, if it still touches the seed with its colour and a side.
        if let Some(&a) = s.anchor.get(seed as usize)
            && (a as usize) < b.slot_capacity()
            && b.is_live(a)
            && b.color(a) == color
            && b.rect(a).touches_side(g)
            && b.rect(a).touches(b.rect(seed))
        {
            s.safe[seed as usize] = safe_id;
            return true;
        }
        s.group.clear();
        s.stack.clear();
        s.stack.push(seed);
        s.mark[seed as usize] = id;
        let mut found = false;
        while let Some(p) = s.stack.pop() {
            s.group.push(p);
            if b.rect(p).touches_side(g) {
                found = true;
                break;
            }
            // A neighbour on a side (or known safe) settles it before it is even pushed.
            let mut hit_safe = false;
            b.for_each_touching(p, |q| {
                if b.color(q) == color {
                    if b.rect(q).touches_side(g) {
                        if p == seed {
                            if s.anchor.len() <= p as usize {
                                s.anchor.resize(p as usize + 1, NO_SLOT);
                            }
                            s.anchor[p as usize] = q;
                        }
                        hit_safe = true;
                    } else if s.safe[q as usize] == safe_id {
                        hit_safe = true;
                    } else if s.mark[q as usize] != id {
                        s.mark[q as usize] = id;
                        s.stack.push(q);
                    }
                }
            });
            if hit_safe {
                found = true;
                break;
            }
        }
        if found {
            for &p in &s.group {
                s.safe[p as usize] = safe_id;
            }
        }
        found
    }

    /// Captures after a step that flipped `a` and `b`: only groups touching them can have lost
    /// their contact with the sides. Returns whether anything was captured.
    fn resolve_after_step(&mut self, a: u32, b: u32) -> bool {
        let safe_id = self.s.stamp(self.board.slot_limit());
        let mut seeds = std::mem::take(&mut self.s.seeds);
        seeds.clear();
        seeds.push(a);
        seeds.push(b);
        self.board.for_each_touching(a, |q| seeds.push(q));
        self.board.for_each_touching(b, |q| seeds.push(q));
        // A surrounded group found is flipped at once, and the groups touching it are looked
        // at again (only they can have changed); any order of flips gives the same result.
        // Groups found safe stay safe: flips only ever grow side-touching groups.
        let mut captured = false;
        let mut i = 0;
        while i < seeds.len() {
            let seed = seeds[i];
            i += 1;
            if self.s.safe[seed as usize] == safe_id || self.group_reaches_side(seed, safe_id) {
                continue;
            }
            captured = true;
            let group = std::mem::take(&mut self.s.group);
            for &p in &group {
                self.board.flip(p);
                self.s.flips.push(p);
            }
            for &p in &group {
                seeds.push(p);
                self.board.for_each_touching(p, |q| seeds.push(q));
            }
            self.s.group = group;
        }
        self.s.seeds = seeds;
        captured
    }

    /// Resolves every surrounded group (rule 3.3) of the current colouring; returns whether
    /// anything was captured. Positions reached by play are always resolved already, so this
    /// is for benchmarks and checks.
    pub fn resolve_captures(&mut self) -> bool {
        self.s.flips.clear();
        self.resolve_all()
    }

    /// The capture rule (3.3) from scratch: while some group touches no side, flip it. All
    /// surrounded groups of a pass flip together; the result is the same in any order.
    pub(crate) fn resolve_all(&mut self) -> bool {
        let mut any = false;
        loop {
            let id = self.s.stamp(self.board.slot_limit());
            self.s.to_flip.clear();
            let g = self.board.grid_size();
            for p in 0..self.board.slot_capacity() as u32 {
                if !self.board.is_live(p) || self.s.mark[p as usize] == id {
                    continue;
                }
                let color = self.board.color(p);
                let b = &self.board;
                let s = &mut self.s;
                s.group.clear();
                s.stack.clear();
                s.stack.push(p);
                s.mark[p as usize] = id;
                let mut side = false;
                while let Some(x) = s.stack.pop() {
                    s.group.push(x);
                    side |= b.rect(x).touches_side(g);
                    b.for_each_touching(x, |q| {
                        if b.color(q) == color && s.mark[q as usize] != id {
                            s.mark[q as usize] = id;
                            s.stack.push(q);
                        }
                    });
                }
                if !side {
                    s.to_flip.extend_from_slice(&s.group);
                }
            }
            if self.s.to_flip.is_empty() {
                return any;
            }
            any = true;
            for i in 0..self.s.to_flip.len() {
                let p = self.s.to_flip[i];
                self.board.flip(p);
                self.s.flips.push(p);
            }
        }
    }

    /// Sides (mask, see [`Rect::side_mask`]) touched by the chain (edge-neighbours, same colour)
    /// of `seed`; stops early once all four are found.
    fn chain_sides(&mut self, seed: u32, id: u32) -> u8 {
        let b = &self.board;
        let s = &mut self.s;
        let g = b.grid_size();
        let color = b.color(seed);
        s.stack.clear();
        s.stack.push(seed);
        s.mark[seed as usize] = id;
        let mut mask = 0u8;
        while let Some(p) = s.stack.pop() {
            mask |= b.rect(p).side_mask(g);
            if mask == 15 {
                break;
            }
            b.for_each_edge_neighbour(p, |q| {
                if b.color(q) == color && s.mark[q as usize] != id {
                    s.mark[q as usize] = id;
                    s.stack.push(q);
                }
            });
        }
        mask
    }

    /// Labels the chains for the turn's swaps ([`SwapChains`]), for a search about to try many
    /// splits and joins from here: each child copies the labels instead of making its own.
    /// Only before the turn's first step; nothing otherwise.
    pub(crate) fn label_chains(&mut self) {
        if self.swapper == NO_SLOT && !self.is_over() {
            self.chains.label(&self.board, &mut self.s.stack);
        }
    }

    /// Could the chain of colour `color` through `pieces` touch all four sides after this
    /// step ([`SwapChains::may_win`])? Debug builds check every "no" against the walk.
    fn may_win(&mut self, pieces: &[u32], color: Color) -> bool {
        let may = self.chains.may_win(&self.board, pieces, color);
        #[cfg(debug_assertions)]
        if !may {
            let id = self.s.stamp(self.board.slot_limit());
            debug_assert!(
                self.chain_sides(pieces[0], id) != 15,
                "the swap's chains ruled out a four-side chain that is there"
            );
        }
        may
    }

    /// Rule 3.1 over the whole board: a winning chain must contain a piece on the west side.
    pub(crate) fn winner_full(&mut self) -> Option<Color> {
        let id = self.s.stamp(self.board.slot_limit());
        let mut winner = None;
        let mut y = 0;
        while y < self.board.grid_size() {
            let p = self.board.slot_at(0, y);
            y = self.board.rect(p).top();
            if self.s.mark[p as usize] == id {
                continue;
            }
            if self.chain_sides(p, id) == 15 {
                let c = self.board.color(p);
                debug_assert!(
                    winner.is_none_or(|w| w == c),
                    "both players have a four-side chain"
                );
                winner = Some(c);
            }
        }
        winner
    }

    // ---------------------------------------------------------------- splits and joins

    /// Next piece of a cut run along line `c` from `pos` (along the line), if the cut can reach
    /// it: the line may run along piece sides, and the first piece it crosses must be one of
    /// `color`'s with its legal midline on the line (rules 4.1.2, 4.1.3).
    #[inline]
    pub(crate) fn run_next(b: &Board, cut: Cut, c: u16, pos: u16, color: Color) -> Option<u32> {
        Crumble::run_read::<true>(b, cut, c, pos, color, &mut ())
    }

    /// [`Crumble::run_next`] (`FORWARD`) or the same walk back from `pos` (exclusive),
    /// telling `reads` every cell it looks at.
    #[inline]
    pub(crate) fn run_read<const FORWARD: bool>(
        b: &Board,
        cut: Cut,
        c: u16,
        pos: u16,
        color: Color,
        reads: &mut impl Reads,
    ) -> Option<u32> {
        match cut {
            Cut::H => Crumble::run_walk::<true, FORWARD>(b, c, pos, color, reads),
            Cut::V => Crumble::run_walk::<false, FORWARD>(b, c, pos, color, reads),
        }
    }

    /// The walk behind [`Crumble::run_read`] (`FORWARD` or back), specialised
    /// for horizontal (`H`) and vertical lines, since it runs for every piece every turn.
    fn run_walk<const H: bool, const FORWARD: bool>(
        b: &Board,
        c: u16,
        mut pos: u16,
        color: Color,
        reads: &mut impl Reads,
    ) -> Option<u32> {
        let g = b.grid_size();
        let cut = if H { Cut::H } else { Cut::V };
        loop {
            if FORWARD && pos >= g || !FORWARD && pos == 0 {
                return None;
            }
            let at = if FORWARD { pos } else { pos - 1 };
            let (p, q) = if H {
                reads.cell(at, c);
                reads.cell(at, c - 1);
                (b.slot_at(at, c), b.slot_at(at, c - 1))
            } else {
                reads.cell(c, at);
                reads.cell(c - 1, at);
                (b.slot_at(c, at), b.slot_at(c - 1, at))
            };
            if p == q {
                return (b.color(p) == color && b.rect(p).midline(cut) == Some(c)).then_some(p);
            }
            let (rp, rq) = (b.rect(p), b.rect(q));
            pos = match (H, FORWARD) {
                (true, true) => rp.right().min(rq.right()),
                (false, true) => rp.top().min(rq.top()),
                (true, false) => rp.x.max(rq.x),
                (false, false) => rp.y.max(rq.y),
            };
        }
    }

    #[inline]
    pub(crate) fn run_end(r: Rect, cut: Cut) -> u16 {
        match cut {
            Cut::H => r.right(),
            Cut::V => r.top(),
        }
    }
    #[inline]
    pub(crate) fn run_start(r: Rect, cut: Cut) -> u16 {
        match cut {
            Cut::H => r.x,
            Cut::V => r.y,
        }
    }

    /// Checks that `outline` is a union of whole pieces of `color` (rule 4.2), given that the
    /// pieces along its bottom and left sides are already known to sit inside it.
    fn outline_is_own(b: &Board, o: Rect, color: Color, reads: &mut impl Reads) -> bool {
        let (x1, y1) = (o.right(), o.top());
        // Cheap filter first: the upper-right piece must be own and fit the corner.
        reads.cell(x1 - 1, y1 - 1);
        let ur = b.slot_at(x1 - 1, y1 - 1);
        let r = b.rect(ur);
        if r.right() != x1 || r.top() != y1 || b.color(ur) != color {
            return false;
        }
        let mut x = o.x;
        while x < x1 {
            reads.cell(x, y1 - 1);
            let r = b.rect(b.slot_at(x, y1 - 1));
            if r.top() != y1 {
                return false;
            }
            x = r.right();
        }
        let mut y = o.y;
        while y < y1 {
            reads.cell(x1 - 1, y);
            let r = b.rect(b.slot_at(x1 - 1, y));
            if r.right() != x1 {
                return false;
            }
            y = r.top();
        }
        // Rows between `y` and the lowest top of the pieces on row `y` hold the same pieces.
        let mut y = o.y;
        while y < y1 {
            let mut x = o.x;
            let mut next = y1;
            while x < x1 {
                reads.cell(x, y);
                let s = b.slot_at(x, y);
                let r = b.rect(s);
                if b.color(s) != color {
                    return false;
                }
                next = next.min(r.top());
                x = r.right();
            }
            y = next;
        }
        true
    }

    /// Calls `f` with every legal join outline whose lower-left corner is the corner of piece
    /// `p` (of colour `color`), until `f` returns false.
    fn joins_from(b: &Board, s: &mut Scratch, p: u32, color: Color, f: impl FnMut(Rect) -> bool) {
        Crumble::joins_from_read(b, &mut s.xs, &mut s.ys, p, color, f, &mut ());
    }

    /// [`Crumble::joins_from`] with the candidate buffers given, telling `reads` every piece
    /// it looks at.
    pub(crate) fn joins_from_read(
        b: &Board,
        xs: &mut Vec<u16>,
        ys: &mut Vec<u16>,
        p: u32,
        color: Color,
        mut f: impl FnMut(Rect) -> bool,
        reads: &mut impl Reads,
    ) {
        let g = b.grid_size();
        let pr = b.rect(p);
        let (x0, y0) = (pr.x, pr.y);
        // Candidate tops: the pieces up the left side must sit on it. The first `ys_flat` of
        // them also end at the piece's right side: a column of whole pieces.
        ys.clear();
        ys.push(pr.top());
        let mut ys_flat = 1;
        let mut y = pr.top();
        while y < g {
            reads.cell(x0, y);
            let q = b.slot_at(x0, y);
            let r = b.rect(q);
            if r.x != x0 || b.color(q) != color {
                break;
            }
            y = r.top();
            ys.push(y);
            if ys_flat == ys.len() - 1 && r.right() == pr.right() {
                ys_flat += 1;
            }
        }
        // Candidate right sides, no further than twice the tallest candidate height; the
        // first `xs_flat` also end at the piece's top: a row of whole pieces.
        let x_max = (u32::from(x0) + 2 * u32::from(y - y0)).min(u32::from(g)) as u16;
        xs.clear();
        let mut xs_flat = 0;
        let mut x = x0;
        if pr.right() <= x_max {
            xs.push(pr.right());
            xs_flat = 1;
            x = pr.right();
        }
        while x < x_max {
            reads.cell(x, y0);
            let q = b.slot_at(x, y0);
            let r = b.rect(q);
            if r.y != y0 || b.color(q) != color || r.right() > x_max {
                break;
            }
            x = r.right();
            xs.push(x);
            if xs_flat == xs.len() - 1 && r.top() == pr.top() {
                xs_flat += 1;
            }
        }
        if xs.len() + ys.len() <= 2 {
            return; // only the piece itself fits
        }
        for (k, &x1) in xs.iter().enumerate() {
            let w = x1 - x0;
            let mut hs = [w / 2, w, 2 * w];
            if w % 2 != 0 {
                hs[0] = 0;
            }
            for h in hs {
                if h == 0 || (w == pr.w && h == pr.h) {
                    continue;
                }
                let y1 = u32::from(y0) + u32::from(h);
                if y1 > u32::from(y) {
                    break; // taller than the left side allows; larger h only more so
                }
                let Ok(j) = ys.binary_search(&(y1 as u16)) else {
                    continue;
                };
                let o = Rect::new(x0, y0, w, h);
                // A row or column of whole own pieces needs no further check.
                let whole = (h == pr.h && k < xs_flat) || (w == pr.w && j < ys_flat);
                if (whole || Crumble::outline_is_own(b, o, color, reads)) && !f(o) {
                    return;
                }
            }
        }
    }

    fn has_join_from(&mut self, p: u32, color: Color) -> bool {
        let mut found = false;
        Crumble::joins_from(&self.board, &mut self.s, p, color, |_| {
            found = true;
            false
        });
        found
    }

    /// Rule 5.3: does `color` have any legal split or join?
    fn has_split_or_join(&mut self, color: Color) -> bool {
        let mut own = std::mem::take(&mut self.s.run);
        own.clear();
        let mut any_split = false;
        for p in self.board.slots_of(color) {
            let r = self.board.rect(p);
            if r.h_midline().is_some() || r.v_midline().is_some() {
                any_split = true;
                break;
            }
            own.push(p);
        }
        let found = any_split || own.iter().any(|&p| self.has_join_from(p, color));
        self.s.run = own;
        found
    }

    // ---------------------------------------------------------------- legal decisions

    /// The legal decisions, sorted ascending; never empty while the game goes on.
    pub fn legal_decisions(&mut self) -> Vec<Decision> {
        let mut v = Vec::new();
        self.legal_decisions_into(&mut v);
        v
    }

    /// [`Crumble::legal_decisions`] into a caller's buffer (cleared first), without allocating
    /// once the buffer is large enough.
    pub fn legal_decisions_into(&mut self, out: &mut Vec<Decision>) {
        out.clear();
        let g = self.board.grid_size();
        let color = self.to_move;
        match self.state {
            State::Over => {}
            State::Choose => {
                for p in self.board.slots_of(color) {
                    let r = self.board.rect(p);
                    if r.h_midline().is_some() {
                        out.push(Decision::encode(
                            DecisionKind::Split {
                                cut: Cut::H,
                                x: r.x,
                                y: r.y,
                            },
                            g,
                        ));
                    }
                    if r.v_midline().is_some() {
                        out.push(Decision::encode(
                            DecisionKind::Split {
                                cut: Cut::V,
                                x: r.x,
                                y: r.y,
                            },
                            g,
                        ));
                    }
                    let mut join = false;
                    Crumble::joins_from(&self.board, &mut self.s, p, color, |_| {
                        join = true;
                        false
                    });
                    if join {
                        out.push(Decision::encode(DecisionKind::Join { x: r.x, y: r.y }, g));
                    }
                }
                out.sort_unstable();
            }
            State::Extent {
                kind: ChoiceKind::Split(cut),
                start,
            } => {
                let c = self
                    .board
                    .rect(start)
                    .midline(cut)
                    .expect("pending split has a midline");
                let mut q = start;
                loop {
                    let r = self.board.rect(q);
                    out.push(Decision::encode(DecisionKind::End { x: r.x, y: r.y }, g));
                    match Crumble::run_next(&self.board, cut, c, Crumble::run_end(r, cut), color) {
                        Some(n) => q = n,
                        None => break,
                    }
                }
                out.sort_unstable();
            }
            State::Extent {
                kind: ChoiceKind::Join,
                start,
            } => {
                Crumble::joins_from(&self.board, &mut self.s, start, color, |o| {
                    out.push(Decision::encode(
                        DecisionKind::End {
                            x: o.right() - 1,
                            y: o.top() - 1,
                        },
                        g,
                    ));
                    true
                });
                out.sort_unstable();
            }
            State::Swap => {
                // Computed when the swap state was entered; stop is the largest index.
                #[cfg(debug_assertions)]
                {
                    let mut fresh = std::mem::take(&mut self.s.check);
                    fresh.clear();
                    self.push_steps(&mut fresh);
                    fresh.sort_unstable();
                    debug_assert_eq!(fresh, self.steps, "stale cached swap steps");
                    self.s.check = fresh;
                }
                out.extend_from_slice(&self.steps);
                out.push(Decision::stop(g));
            }
        }
    }

    /// The legal swap steps (without stop), unsorted.
    pub(crate) fn push_steps(&mut self, out: &mut Vec<Decision>) {
        let g = self.board.grid_size();
        if self.swapper == NO_SLOT {
            for i in 0..self.fresh.len() {
                let f = self.fresh[i];
                let r = self.board.rect(f);
                for dir in Dir::ALL {
                    // A first step never recreates the state before it: the swapper changes.
                    if self.target(f, dir).is_some() {
                        out.push(Decision::encode(
                            DecisionKind::Step {
                                dir,
                                x: r.x,
                                y: r.y,
                            },
                            g,
                        ));
                    }
                }
            }
        } else {
            let s = self.swapper;
            let r = self.board.rect(s);
            for dir in Dir::ALL {
                if self.guarded_target(s, dir).is_some() {
                    out.push(Decision::encode(
                        DecisionKind::Step {
                            dir,
                            x: r.x,
                            y: r.y,
                        },
                        g,
                    ));
                }
            }
        }
    }

    /// An opponent two-point neighbour of `s` in `dir` (rule 4.3.2), ignoring the loop guard.
    #[inline]
    fn target(&self, s: u32, dir: Dir) -> Option<u32> {
        let t = self.board.two_point_neighbour(s, dir)?;
        (self.board.color(t) != self.to_move).then_some(t)
    }

    /// [`Crumble::target`] that also passes the loop guard (rule 4.3.4).
    fn guarded_target(&mut self, s: u32, dir: Dir) -> Option<u32> {
        let t = self.target(s, dir)?;
        if self.guard.iter().any(|e| e.swapper == t) {
            // Only a state with the same swapper can be recreated: simulate and undo.
            self.s.flips.clear();
            self.flip_step(s, t);
            let repeat = self.guard_contains(t);
            for i in (0..self.s.flips.len()).rev() {
                let p = self.s.flips[i];
                self.board.flip(p);
            }
            if repeat {
                return None;
            }
        }
        Some(t)
    }

    /// Colours of one step: `s` to the opponent, `t` to the mover, then captures.
    fn flip_step(&mut self, s: u32, t: u32) -> bool {
        let mover = self.to_move;
        self.board.set_color(s, mover.opposite());
        self.board.set_color(t, mover);
        self.s.flips.push(s);
        self.s.flips.push(t);
        self.resolve_after_step(s, t)
    }

    fn guard_key(&self, swapper: u32) -> u64 {
        self.board.hash() ^ mix64(rect_key(self.board.rect(swapper)) ^ 0x6a09_e667)
    }

    /// The current swap state as the loop guard keys it (colouring after captures and the
    /// swapper's slot), for searches that visit each state of a turn once; `None` before the
    /// first step or outside a swap. Slots are stable within a turn, so within one turn two
    /// states are equal iff their swapper slots and `black_bits` are.
    pub(crate) fn swap_state(&self) -> Option<(u64, u32, &[u64])> {
        (self.state == State::Swap && self.swapper != NO_SLOT).then(|| {
            (
                self.guard_key(self.swapper),
                self.swapper,
                self.board.black_bits(),
            )
        })
    }

    fn guard_contains(&self, swapper: u32) -> bool {
        let key = self.guard_key(swapper);
        let bits = self.board.black_bits();
        self.guard.iter().any(|e| {
            e.swapper == swapper && e.key == key && {
                let o = e.offset as usize;
                &self.guard_bits[o..o + bits.len()] == bits
            }
        })
    }

    fn guard_push(&mut self, swapper: u32) {
        let key = self.guard_key(swapper);
        let offset = self.guard_bits.len() as u32;
        self.guard_bits.extend_from_slice(self.board.black_bits());
        self.guard.push(GuardEntry {
            key,
            swapper,
            offset,
        });
    }

    // ---------------------------------------------------------------- applying decisions

    /// Is `d` legal here?
    pub fn is_legal(&mut self, d: Decision) -> bool {
        let mut buf = std::mem::take(&mut self.s.legal);
        self.legal_decisions_into(&mut buf);
        let ok = buf.binary_search(&d).is_ok();
        self.s.legal = buf;
        ok
    }

    /// Applies a decision known to be legal (search's hot path); legality is only
    /// debug-asserted.
    pub fn apply_unchecked(&mut self, d: Decision) {
        debug_assert!(
            self.is_legal(d),
            "illegal decision {:?}",
            d.decode(self.grid_size())
        );
        let g = self.board.grid_size();
        let kind = d.decode(g).expect("decision in range");
        match (self.state, kind) {
            (State::Choose, DecisionKind::Split { cut, x, y }) => {
                let start = self
                    .board
                    .slot_with_corner(x, y)
                    .expect("piece at split start");
                self.state = State::Extent {
                    kind: ChoiceKind::Split(cut),
                    start,
                };
            }
            (State::Choose, DecisionKind::Join { x, y }) => {
                let start = self
                    .board
                    .slot_with_corner(x, y)
                    .expect("piece at join corner");
                self.state = State::Extent {
                    kind: ChoiceKind::Join,
                    start,
                };
            }
            (
                State::Extent {
                    kind: ChoiceKind::Split(cut),
                    start,
                },
                DecisionKind::End { x, y },
            ) => self.do_split(cut, start, x, y),
            (
                State::Extent {
                    kind: ChoiceKind::Join,
                    start,
                },
                DecisionKind::End { x, y },
            ) => {
                let r = self.board.rect(start);
                let outline = Rect::new(r.x, r.y, x + 1 - r.x, y + 1 - r.y);
                self.turn.region.clear();
                self.turn.region.push(outline);
                let chain = self.chains.chain_of(start);
                let slot = self.board.join(outline, self.to_move);
                self.chains.inherit(slot, chain);
                self.fresh.clear();
                self.fresh.push(slot);
                self.begin_swap();
            }
            (State::Swap, DecisionKind::Step { dir, x, y }) => {
                let s = if self.swapper == NO_SLOT {
                    self.board
                        .slot_with_corner(x, y)
                        .expect("fresh piece at step")
                } else {
                    self.swapper
                };
                self.do_step(s, dir);
            }
            (State::Swap, DecisionKind::Stop) => self.end_turn(),
            (state, kind) => panic!("decision {kind} does not fit state {state:?}"),
        }
    }

    fn do_split(&mut self, cut: Cut, start: u32, ex: u16, ey: u16) {
        let color = self.to_move;
        let c = self.board.rect(start).midline(cut).expect("midline");
        let mut run = std::mem::take(&mut self.s.run);
        run.clear();
        let mut q = start;
        loop {
            run.push(q);
            let r = self.board.rect(q);
            if r.x == ex && r.y == ey {
                break;
            }
            q = Crumble::run_next(&self.board, cut, c, Crumble::run_end(r, cut), color)
                .expect("end lies on the run");
        }
        self.turn.region.clear();
        self.fresh.clear();
        for &p in &run {
            self.turn.region.push(self.board.rect(p));
            let chain = self.chains.chain_of(p);
            let (lo, hi) = self.board.split(p, cut);
            self.chains.inherit(lo, chain);
            self.chains.inherit(hi, chain);
            self.fresh.push(lo);
            self.fresh.push(hi);
        }
        self.s.run = run;
        self.begin_swap();
    }

    fn begin_swap(&mut self) {
        self.state = State::Swap;
        self.swapper = NO_SLOT;
        self.guard.clear();
        self.guard_bits.clear();
        if !self.any_step() {
            self.end_turn();
        }
    }

    /// Computes the legal steps of the swap state just entered into `steps` (sorted), which
    /// stays valid until the next decision; returns whether there is any.
    fn any_step(&mut self) -> bool {
        let mut buf = std::mem::take(&mut self.steps);
        buf.clear();
        self.push_steps(&mut buf);
        buf.sort_unstable();
        let any = !buf.is_empty();
        self.steps = buf;
        any
    }

    /// The legal steps (without stop), sorted; only meaningful in the swap phase.
    #[inline]
    pub(crate) fn swap_steps(&self) -> &[Decision] {
        &self.steps
    }

    fn do_step(&mut self, s: u32, dir: Dir) {
        let t = self
            .board
            .two_point_neighbour(s, dir)
            .expect("target of a legal step");
        if self.swapper == NO_SLOT {
            self.guard_push(s);
            self.chains.begin(s);
        }
        self.s.flips.clear();
        let captured = self.flip_step(s, t);
        self.turn.targets.push(self.board.rect(t));
        let winner = if captured {
            self.chains.captured();
            self.winner_full()
        } else {
            let id = self.s.stamp(self.board.slot_limit());
            let (ct, cs) = (self.board.color(t), self.board.color(s));
            let wt = self.may_win(&[t], ct) && self.chain_sides(t, id) == 15;
            let ws = cs != ct
                && self.may_win(&[s, self.chains.origin()], cs)
                && self.chain_sides(s, id) == 15;
            debug_assert!(!(wt && ws), "both players have a four-side chain");
            if wt {
                Some(self.board.color(t))
            } else if ws {
                Some(self.board.color(s))
            } else {
                None
            }
        };
        if let Some(w) = winner {
            self.outcome = Some(Outcome {
                winner: Some(w),
                reason: Reason::FourSides,
            });
            self.end_turn();
            return;
        }
        if self.board.color(t) != self.to_move {
            self.end_turn(); // the swapper was captured (rule 4.3.3)
            return;
        }
        self.guard_push(t);
        self.swapper = t;
        if !self.any_step() {
            self.end_turn();
        }
    }

    fn end_turn(&mut self) {
        self.chains.reset();
        self.window.push(&self.turn);
        self.turn.clear();
        self.turns_played += 1;
        self.to_move = self.to_move.opposite();
        self.fresh.clear();
        self.swapper = NO_SLOT;
        self.guard.clear();
        self.guard_bits.clear();
        self.state = State::Choose;
        if self.outcome.is_some() {
            self.state = State::Over;
            return;
        }
        let outcome = if self.draw_rule() {
            Some(Outcome::draw(Reason::DrawRule))
        } else if !self.has_split_or_join(self.to_move) {
            Some(Outcome::draw(Reason::NoSplitOrJoin))
        } else if self.max_turns > 0 && self.turns_played >= self.max_turns {
            Some(Outcome::draw(Reason::TurnLimit))
        } else {
            None
        };
        if let Some(o) = outcome {
            self.finish(o);
        }
    }

    /// The swap targets of the turn in progress, in order; at a turn start (or once over),
    /// those of the turn just ended.
    pub(crate) fn turn_targets(&self) -> &[Rect] {
        match self.state {
            State::Choose | State::Over if self.window.len > 0 => {
                &self.window.get(self.window.len - 1).targets
            }
            _ => &self.turn.targets,
        }
    }

    /// The pieces through which the targets of the turn in progress can still decide an
    /// automatic draw (rule 5.2) at the end of this turn or of the next one: the draw needs
    /// one piece among the targets of six consecutive turns, so only a piece that was a
    /// target of each of the last four turns before this one can. Empty when fewer than four
    /// turns are in the window (no draw within two turns then).
    pub(crate) fn draw_candidates(&self) -> Vec<Rect> {
        let w = &self.window;
        if w.len < 4 {
            return Vec::new();
        }
        let mut out: Vec<Rect> = Vec::new();
        for &x in &w.get(w.len - 1).targets {
            if !out.contains(&x) && (w.len - 4..w.len - 1).all(|i| w.get(i).targets.contains(&x)) {
                out.push(x);
            }
        }
        out
    }

    /// The automatic draw of rule 5.2 over the last six turns.
    fn draw_rule(&self) -> bool {
        let w = &self.window;
        if w.len < 6 {
            return false;
        }
        let nested = |i: usize| {
            let latest = &w.get(i).region;
            region_inside(latest, &w.get(i - 2).region)
                && region_inside(latest, &w.get(i - 4).region)
        };
        if !(nested(5) && nested(4)) {
            return false;
        }
        w.get(5)
            .targets
            .iter()
            .any(|x| (0..5).all(|i| w.get(i).targets.contains(x)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(region: &[Rect], targets: &[Rect]) -> TurnRecord {
        TurnRecord {
            region: region.to_vec(),
            targets: targets.to_vec(),
        }
    }

    /// A game whose draw-rule window holds `turns` (oldest first).
    fn with_window(turns: &[TurnRecord]) -> Crumble {
        let mut g = Crumble::new(6, 8).unwrap();
        for t in turns {
            g.window.push(t);
        }
        g
    }

    const A: Rect = Rect::new(0, 0, 16, 16);
    const A1: Rect = Rect::new(0, 0, 8, 16);
    const A2: Rect = Rect::new(8, 0, 8, 16);
    const B: Rect = Rect::new(32, 32, 16, 16);
    const X: Rect = Rect::new(16, 16, 8, 8);
    const Y: Rect = Rect::new(24, 16, 8, 8);

    #[test]
    fn rule_5_2_draw_when_regions_nest_and_one_piece_is_always_a_target() {
        // Black splits A, joins A's halves back, splits A again; White works inside B; both
        // swap into X every turn (also with other targets on the way).
        let turns = [
            rec(&[A], &[X]),
            rec(&[B], &[Y, X]),
            rec(&[A], &[X]),
            rec(&[B], &[X]),
            rec(&[A1, A2], &[X, Y]),
            rec(&[B], &[X]),
        ];
        assert!(with_window(&turns).draw_rule());
        // A latest region inside the union of two pieces split earlier also nests.
        let mut t2 = turns.clone();
        t2[0] = rec(&[A1, A2], &[X]);
        t2[4] = rec(&[A], &[X]);
        assert!(with_window(&t2).draw_rule());
    }

    #[test]
    fn rule_5_2_no_draw_otherwise() {
        let good = [
            rec(&[A], &[X]),
            rec(&[B], &[X]),
            rec(&[A], &[X]),
            rec(&[B], &[X]),
            rec(&[A], &[X]),
            rec(&[B], &[X]),
        ];
        assert!(with_window(&good).draw_rule());
        // Fewer than six turns.
        assert!(!with_window(&good[..5]).draw_rule());
        // One turn without a swap has no targets.
        let mut t = good.clone();
        t[2] = rec(&[A], &[]);
        assert!(!with_window(&t).draw_rule());
        // A target other than X on one turn.
        let mut t = good.clone();
        t[3] = rec(&[B], &[Y]);
        assert!(!with_window(&t).draw_rule());
        // Black's latest region not inside the one two turns back.
        let mut t3 = good.clone();
        t3[4] = rec(&[B], &[X]); // Black's latest turn worked in White's region
        assert!(!with_window(&t3).draw_rule());
        // White's latest region larger than an earlier one.
        let mut t4 = good.clone();
        t4[1] = rec(&[Rect::new(32, 32, 8, 16)], &[X]);
        assert!(!with_window(&t4).draw_rule());
        // Only the last six turns count: an old non-matching turn is forgotten.
        let mut g = with_window(&[rec(&[B], &[Y])]);
        for r in &good {
            g.window.push(r);
        }
        assert!(g.draw_rule());
    }

    #[test]
    fn draw_candidates_are_the_targets_of_the_last_four_turns() {
        let four = [
            rec(&[A], &[X, Y]),
            rec(&[B], &[X]),
            rec(&[A], &[Y, X]),
            rec(&[B], &[X, Y]),
        ];
        assert_eq!(with_window(&four).draw_candidates(), vec![X]);
        // Fewer than four turns: no draw within two turns, so no candidate.
        assert!(with_window(&four[1..]).draw_candidates().is_empty());
        // Only the last four count: an old turn without X does not remove it.
        let mut six = vec![rec(&[A], &[Y]), rec(&[B], &[Y])];
        six.extend_from_slice(&four);
        assert_eq!(with_window(&six).draw_candidates(), vec![X]);
        // One of the four without a swap: no candidate.
        let mut gap = four.to_vec();
        gap[1] = rec(&[B], &[]);
        assert!(with_window(&gap).draw_candidates().is_empty());
    }

    #[test]
    fn region_inside_compares_point_sets() {
        assert!(region_inside(&[A1], &[A]));
        assert!(region_inside(&[A], &[A1, A2]));
        assert!(!region_inside(&[A], &[A1]));
        assert!(!region_inside(&[B], &[A]));
    }
}
