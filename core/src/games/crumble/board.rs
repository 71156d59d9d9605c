//! The tiling: pieces in slots plus a grid that names the piece covering every unit cell.
//!
//! Slots are stable while a turn's swap runs (geometry only changes in a split or join), which
//! lets the loop guard and the capture code work on slot indices.

use crate::game::Color;
use crate::games::crumble::error::SizeError;
use crate::games::crumble::game::Reads;
use crate::games::crumble::geom::{Dir, Piece, Rect, piece_hash};

pub(crate) const NO_SLOT: u32 = u32::MAX;

// The three accessors the rules' inner loops call millions of times skip bounds checks (17%
// fewer instructions in random play); their preconditions are debug-asserted, and the test
// profile keeps debug assertions on under the random-game property tests.
#[inline(always)]
fn assert_in_grid(x: u16, y: u16, g: u16) {
    debug_assert!(x < g && y < g, "cell ({x}, {y}) outside a {g}-unit grid");
}

/// Largest board side in cells (rule 1.1).
pub const MAX_BOARD: u16 = 32;
/// Largest resolution (rule 1.1).
pub const MAX_RESOLUTION: u16 = 64;
/// Largest board side in grid units (rule 1.1).
pub const MAX_GRID: u32 = 1024;

/// Checks rule 1.1 before anything is allocated.
pub fn check_size(board: u32, resolution: u32) -> Result<(), SizeError> {
    if !(2..=u32::from(MAX_BOARD)).contains(&board) {
        return Err(SizeError::Board(board));
    }
    if !(1..=u32::from(MAX_RESOLUTION)).contains(&resolution) || !resolution.is_power_of_two() {
        return Err(SizeError::Resolution(resolution));
    }
    if board * resolution > MAX_GRID {
        return Err(SizeError::Grid { board, resolution });
    }
    Ok(())
}

#[derive(Debug)]
pub struct Board {
    n: u16,
    r: u16,
    g: u16,
    /// Slot of the piece covering each unit cell, row-major from the bottom row.
    grid: Vec<u32>,
    /// Pieces by slot; a dead slot has `w == 0`.
    slots: Vec<Piece>,
    free: Vec<u32>,
    live: u32,
    /// Colour by slot as bits (1 = black): the loop guard snapshots this.
    black_bits: Vec<u64>,
    /// White pieces by slot as bits: with `black_bits`, one colour's pieces without a scan.
    white_bits: Vec<u64>,
    /// XOR of `piece_hash` over all pieces.
    hash: u64,
    /// Reused buffer for joins (no allocation per move).
    scratch: Vec<u32>,
    /// Grid units per block side, as a shift: the grid is seen as at most 16 × 16 blocks.
    block_shift: u8,
    /// By colour: the blocks changed since that colour's splits and joins were last listed
    /// (see [`Board::take_changed`]); every block in a new or copied board.
    changed: [Blocks; 2],
}

/// A set of the board's blocks (at most 16 × 16 of them; row `y` is bits `16y..16y + 16`):
/// where the tiling changed, or which part of it an answer was read from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Blocks([u64; 4]);

/// The blocks of the cells a query read (see [`Board::block_reads`]).
pub(crate) struct BlockReads {
    shift: u8,
    pub(crate) blocks: Blocks,
}

impl Reads for BlockReads {
    #[inline]
    fn cell(&mut self, x: u16, y: u16) {
        let (bx, by) = (u32::from(x >> self.shift), u32::from(y >> self.shift));
        self.blocks.0[(by >> 2) as usize] |= 1 << (16 * (by & 3) + bx);
    }
}

impl Blocks {
    pub(crate) const ALL: Blocks = Blocks([u64::MAX; 4]);

    #[inline]
    pub(crate) fn meets(&self, o: &Blocks) -> bool {
        (0..4).any(|i| self.0[i] & o.0[i] != 0)
    }

    #[inline]
    fn add(&mut self, o: &Blocks) {
        for i in 0..4 {
            self.0[i] |= o.0[i];
        }
    }
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            n: self.n,
            r: self.r,
            g: self.g,
            grid: self.grid.clone(),
            slots: self.slots.clone(),
            free: self.free.clone(),
            live: self.live,
            black_bits: self.black_bits.clone(),
            white_bits: self.white_bits.clone(),
            hash: self.hash,
            scratch: Vec::new(),
            block_shift: self.block_shift,
            changed: [Blocks::ALL; 2],
        }
    }

    /// Copies `src` into `self` reusing `self`'s buffers: search resets its simulation state
    /// from the root this way once per simulation, without touching the heap.
    fn clone_from(&mut self, src: &Board) {
        self.n = src.n;
        self.r = src.r;
        self.g = src.g;
        self.grid.clone_from(&src.grid);
        self.slots.clone_from(&src.slots);
        self.free.clone_from(&src.free);
        self.live = src.live;
        self.black_bits.clone_from(&src.black_bits);
        self.white_bits.clone_from(&src.white_bits);
        self.hash = src.hash;
        // What the copy's owner listed before was another board's.
        self.block_shift = src.block_shift;
        self.changed = [Blocks::ALL; 2];
    }
}

impl PartialEq for Board {
    /// Equal tilings with equal colours, whatever the slot layout.
    fn eq(&self, other: &Board) -> bool {
        self.g == other.g
            && self.r == other.r
            && self.hash == other.hash
            && self.sorted_pieces() == other.sorted_pieces()
    }
}
impl Eq for Board {}

impl Board {
    /// The pieces of the start position of rule 1.4: cell `(i, j)` is black iff `i + j` is odd.
    fn start_pieces(n: u16, r: u16) -> impl Iterator<Item = Piece> {
        (0..n).flat_map(move |j| {
            (0..n).map(move |i| {
                let color = if (i + j) % 2 == 1 {
                    Color::Black
                } else {
                    Color::White
                };
                Piece {
                    rect: Rect::new(i * r, j * r, r, r),
                    color,
                }
            })
        })
    }

    /// The start position of rule 1.4.
    pub fn standard(n: u16, r: u16) -> Result<Board, SizeError> {
        check_size(u32::from(n), u32::from(r))?;
        let pieces: Vec<Piece> = Board::start_pieces(n, r).collect();
        Ok(Board::from_valid_pieces(n, r, &pieces))
    }

    /// Back to the start position of rule 1.4, reusing every buffer (no allocation).
    pub(crate) fn reset_standard(&mut self) {
        self.slots.clear();
        self.free.clear();
        self.black_bits.clear();
        self.white_bits.clear();
        self.hash = 0;
        self.live = 0;
        for p in Board::start_pieces(self.n, self.r) {
            self.add(p);
        }
    }

    /// Upper bound on slot indices: every live piece covers at least one unit cell, and slots
    /// are recycled before new ones are made.
    #[inline]
    pub(crate) fn slot_limit(&self) -> usize {
        usize::from(self.g) * usize::from(self.g)
    }

    /// Builds a board from pieces already known to tile it exactly with legal shapes.
    pub(crate) fn from_valid_pieces(n: u16, r: u16, pieces: &[Piece]) -> Board {
        let g = n * r;
        let gu = usize::from(g);
        let mut b = Board {
            n,
            r,
            g,
            grid: vec![NO_SLOT; gu * gu],
            slots: Vec::with_capacity(pieces.len() * 4),
            free: Vec::new(),
            live: 0,
            black_bits: Vec::new(),
            white_bits: Vec::new(),
            hash: 0,
            scratch: Vec::new(),
            block_shift: (0..16u8).find(|&s| (g - 1) >> s < 16).expect("g <= 1024"),
            changed: [Blocks::ALL; 2],
        };
        for p in pieces {
            b.add(*p);
        }
        b
    }

    #[inline]
    pub fn board_size(&self) -> u16 {
        self.n
    }
    #[inline]
    pub fn resolution(&self) -> u16 {
        self.r
    }
    /// Board side in grid units, `G = N·R`.
    #[inline]
    pub fn grid_size(&self) -> u16 {
        self.g
    }
    #[inline]
    pub fn piece_count(&self) -> usize {
        self.live as usize
    }
    /// XOR of the piece hashes: equal for equal colourings of equal tilings.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    #[inline]
    pub(crate) fn slot_capacity(&self) -> usize {
        self.slots.len()
    }
    #[inline]
    pub(crate) fn piece(&self, slot: u32) -> Piece {
        self.slots[slot as usize]
    }
    #[inline]
    #[allow(unsafe_code)]
    pub(crate) fn rect(&self, slot: u32) -> Rect {
        debug_assert!(
            (slot as usize) < self.slots.len(),
            "slot {slot} out of range"
        );
        // SAFETY: slot numbers come from the grid or from lists of live slots, and `slots`
        // never shrinks except in `reset_standard`, which repaints the whole grid.
        unsafe { self.slots.get_unchecked(slot as usize).rect }
    }
    #[inline]
    #[allow(unsafe_code)]
    pub(crate) fn color(&self, slot: u32) -> Color {
        debug_assert!(
            (slot as usize) < self.slots.len(),
            "slot {slot} out of range"
        );
        // SAFETY: as in `rect`.
        unsafe { self.slots.get_unchecked(slot as usize).color }
    }
    #[inline]
    pub(crate) fn is_live(&self, slot: u32) -> bool {
        self.slots[slot as usize].rect.w != 0
    }
    /// Slot of the piece covering unit cell `(x, y)`.
    #[inline]
    #[allow(unsafe_code)]
    pub(crate) fn slot_at(&self, x: u16, y: u16) -> u32 {
        assert_in_grid(x, y, self.g);
        // SAFETY: `grid.len() == g·g` from construction on, and `x, y < g` is every caller's
        // precondition (walks stop at the board's sides), checked in debug builds above.
        unsafe {
            *self
                .grid
                .get_unchecked(usize::from(y) * usize::from(self.g) + usize::from(x))
        }
    }
    /// The piece covering unit cell `(x, y)` (absolute frame).
    pub fn piece_at(&self, x: u16, y: u16) -> Piece {
        self.piece(self.slot_at(x, y))
    }
    /// The piece whose lower-left corner is the grid point `(x, y)`, if there is one.
    pub fn piece_with_corner(&self, x: u16, y: u16) -> Option<Piece> {
        self.slot_with_corner(x, y).map(|s| self.piece(s))
    }
    pub(crate) fn slot_with_corner(&self, x: u16, y: u16) -> Option<u32> {
        if x >= self.g || y >= self.g {
            return None;
        }
        let s = self.slot_at(x, y);
        let r = self.rect(s);
        (r.x == x && r.y == y).then_some(s)
    }
    /// All pieces sorted by `(y, x)` of their lower-left corners.
    pub fn sorted_pieces(&self) -> Vec<Piece> {
        let mut v: Vec<Piece> = self
            .slots
            .iter()
            .filter(|p| p.rect.w != 0)
            .copied()
            .collect();
        v.sort_unstable_by_key(|p| (p.rect.y, p.rect.x));
        v
    }
    #[inline]
    pub(crate) fn black_bits(&self) -> &[u64] {
        &self.black_bits
    }

    /// The blocks that `r` covers.
    #[inline]
    pub(crate) fn blocks_of(&self, r: Rect) -> Blocks {
        let s = self.block_shift;
        let (bx0, bx1) = (r.x >> s, (r.right() - 1) >> s);
        let row = u64::from((((2u32 << bx1) - (1u32 << bx0)) & 0xffff) as u16);
        let mut b = Blocks::default();
        for by in (r.y >> s)..=((r.top() - 1) >> s) {
            b.0[usize::from(by >> 2)] |= row << (16 * (by & 3));
        }
        b
    }

    /// A [`Reads`] that gathers the blocks of the cells read.
    pub(crate) fn block_reads(&self) -> BlockReads {
        BlockReads {
            shift: self.block_shift,
            blocks: Blocks::default(),
        }
    }

    /// Notes that the piece on `r` changed, for both colours' listings.
    #[inline]
    fn touch(&mut self, r: Rect) {
        let b = self.blocks_of(r);
        self.changed[0].add(&b);
        self.changed[1].add(&b);
    }

    /// The blocks changed since the last call for `color` (every block after a copy), and
    /// forgets them: the cache of `color`'s splits and joins keeps what lies elsewhere.
    pub(crate) fn take_changed(&mut self, color: Color) -> Blocks {
        std::mem::take(&mut self.changed[usize::from(color == Color::White)])
    }

    fn fill(&mut self, r: Rect, slot: u32) {
        let g = usize::from(self.g);
        for y in r.y..r.top() {
            let row = usize::from(y) * g;
            self.grid[row + usize::from(r.x)..row + usize::from(r.right())].fill(slot);
        }
    }

    /// Records the colour of `slot` (`None`: a dead slot) in the colour bit sets.
    fn set_color_bits(&mut self, slot: u32, color: Option<Color>) {
        let (w, b) = ((slot / 64) as usize, slot % 64);
        if w >= self.black_bits.len() {
            self.black_bits.resize(w + 1, 0);
            self.white_bits.resize(w + 1, 0);
        }
        let (black, white) = (color == Some(Color::Black), color == Some(Color::White));
        self.black_bits[w] = self.black_bits[w] & !(1 << b) | u64::from(black) << b;
        self.white_bits[w] = self.white_bits[w] & !(1 << b) | u64::from(white) << b;
    }

    /// The slots of `color`'s pieces, in slot order.
    #[inline]
    pub(crate) fn slots_of(&self, color: Color) -> impl Iterator<Item = u32> + '_ {
        let bits = if color == Color::Black {
            &self.black_bits
        } else {
            &self.white_bits
        };
        bits.iter().enumerate().flat_map(|(i, &word)| {
            let mut w = word;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    i as u32 * 64 + b
                })
            })
        })
    }

    /// Adds a piece in a fresh or recycled slot and paints it on the grid.
    pub(crate) fn add(&mut self, p: Piece) -> u32 {
        let slot = match self.free.pop() {
            Some(s) => {
                self.slots[s as usize] = p;
                s
            }
            None => {
                self.slots.push(p);
                (self.slots.len() - 1) as u32
            }
        };
        self.live += 1;
        self.hash ^= piece_hash(p.rect, p.color);
        self.set_color_bits(slot, Some(p.color));
        self.fill(p.rect, slot);
        self.touch(p.rect);
        slot
    }

    /// Removes a piece from its slot; the caller repaints the grid.
    pub(crate) fn remove(&mut self, slot: u32) {
        let p = self.slots[slot as usize];
        debug_assert!(p.rect.w != 0);
        self.hash ^= piece_hash(p.rect, p.color);
        self.touch(p.rect);
        self.slots[slot as usize].rect = Rect::default();
        self.set_color_bits(slot, None);
        self.free.push(slot);
        self.live -= 1;
    }

    #[inline]
    pub(crate) fn set_color(&mut self, slot: u32, c: Color) {
        let p = &mut self.slots[slot as usize];
        if p.color != c {
            self.hash ^= piece_hash(p.rect, p.color) ^ piece_hash(p.rect, c);
            p.color = c;
            let r = p.rect;
            self.set_color_bits(slot, Some(c));
            self.touch(r);
        }
    }

    #[inline]
    pub(crate) fn flip(&mut self, slot: u32) {
        let c = self.color(slot).opposite();
        self.set_color(slot, c);
    }

    /// Splits the piece in `slot` along its legal midline: the south/west half keeps the slot.
    pub(crate) fn split(&mut self, slot: u32, cut: crate::games::crumble::geom::Cut) -> (u32, u32) {
        let p = self.piece(slot);
        debug_assert!(p.rect.midline(cut).is_some());
        let (lo, hi) = p.rect.halves(cut);
        self.hash ^= piece_hash(p.rect, p.color) ^ piece_hash(lo, p.color);
        self.touch(p.rect);
        self.slots[slot as usize].rect = lo;
        let hi_slot = self.add(Piece {
            rect: hi,
            color: p.color,
        });
        (slot, hi_slot)
    }

    /// Replaces every piece inside `outline` (which must be a union of whole pieces) by one.
    pub(crate) fn join(&mut self, outline: Rect, color: Color) -> u32 {
        // Every piece inside has its lower-left corner on some row of the outline; the row walk
        // lands on left edges only, because no piece crosses the outline.
        let mut doomed = std::mem::take(&mut self.scratch);
        doomed.clear();
        // Rows between `y` and the lowest top of the pieces on row `y` hold the same pieces.
        let mut y = outline.y;
        while y < outline.top() {
            let mut x = outline.x;
            let mut next = outline.top();
            while x < outline.right() {
                let s = self.slot_at(x, y);
                let r = self.rect(s);
                if r.y == y {
                    doomed.push(s);
                }
                next = next.min(r.top());
                x = r.right();
            }
            y = next;
        }
        for &s in &doomed {
            self.remove(s);
        }
        self.scratch = doomed;
        self.add(Piece {
            rect: outline,
            color,
        })
    }

    /// The two-point neighbour of `slot` on its side `dir` (rule 2.4), if any.
    #[inline]
    pub(crate) fn two_point_neighbour(&self, slot: u32, dir: Dir) -> Option<u32> {
        let r = self.rect(slot);
        let (cx, cy) = r.beside(dir, self.g)?;
        let q = self.slot_at(cx, cy);
        let o = self.rect(q);
        let ok = match dir {
            Dir::N => o.x == r.x && o.w == r.w && o.y == r.top(),
            Dir::S => o.x == r.x && o.w == r.w && o.top() == r.y,
            Dir::E => o.y == r.y && o.h == r.h && o.x == r.right(),
            Dir::W => o.y == r.y && o.h == r.h && o.right() == r.x,
        };
        ok.then_some(q)
    }

    /// Calls `f` for every piece that touches `slot` from outside (corner points included,
    /// rule 2.2). A piece may be reported more than once.
    #[inline]
    pub(crate) fn for_each_touching(&self, slot: u32, mut f: impl FnMut(u32)) {
        let r = self.rect(slot);
        let g = self.g;
        let x_lo = r.x.saturating_sub(1);
        let x_hi = if r.right() < g {
            r.right()
        } else {
            r.right() - 1
        };
        if r.y > 0 {
            let mut x = x_lo;
            while x <= x_hi {
                let q = self.slot_at(x, r.y - 1);
                f(q);
                x = self.rect(q).right();
            }
        }
        if r.top() < g {
            let mut x = x_lo;
            while x <= x_hi {
                let q = self.slot_at(x, r.top());
                f(q);
                x = self.rect(q).right();
            }
        }
        self.for_each_side_column(r, &mut f);
    }

    /// Calls `f` for every edge-neighbour of `slot` (rule 2.3). A piece may repeat.
    #[inline]
    pub(crate) fn for_each_edge_neighbour(&self, slot: u32, mut f: impl FnMut(u32)) {
        let r = self.rect(slot);
        if r.y > 0 {
            let mut x = r.x;
            while x < r.right() {
                let q = self.slot_at(x, r.y - 1);
                f(q);
                x = self.rect(q).right();
            }
        }
        if r.top() < self.g {
            let mut x = r.x;
            while x < r.right() {
                let q = self.slot_at(x, r.top());
                f(q);
                x = self.rect(q).right();
            }
        }
        self.for_each_side_column(r, &mut f);
    }

    #[inline]
    fn for_each_side_column(&self, r: Rect, f: &mut impl FnMut(u32)) {
        if r.x > 0 {
            let mut y = r.y;
            while y < r.top() {
                let q = self.slot_at(r.x - 1, y);
                f(q);
                y = self.rect(q).top();
            }
        }
        if r.right() < self.g {
            let mut y = r.y;
            while y < r.top() {
                let q = self.slot_at(r.right(), y);
                f(q);
                y = self.rect(q).top();
            }
        }
    }

    /// Checks the internal invariants (exact tiling, legal shapes, consistent hash and bits).
    /// For tests; returns a description of the first broken invariant.
    pub fn check_invariants(&self) -> Result<(), String> {
        let g = self.g;
        let mut area = 0u64;
        let mut hash = 0u64;
        let mut live = 0;
        for (i, p) in self.slots.iter().enumerate() {
            if p.rect.w == 0 {
                continue;
            }
            live += 1;
            let r = p.rect;
            if !r.has_legal_shape() {
                return Err(format!("piece {r} has an illegal shape"));
            }
            if r.right() > g || r.top() > g {
                return Err(format!("piece {r} leaves the board"));
            }
            area += r.area();
            hash ^= piece_hash(r, p.color);
            for y in r.y..r.top() {
                for x in r.x..r.right() {
                    if self.slot_at(x, y) != i as u32 {
                        return Err(format!(
                            "cell ({x}, {y}) of piece {r} is painted with another slot"
                        ));
                    }
                }
            }
            let black = self
                .black_bits
                .get(i / 64)
                .is_some_and(|w| w >> (i % 64) & 1 == 1);
            let white = self
                .white_bits
                .get(i / 64)
                .is_some_and(|w| w >> (i % 64) & 1 == 1);
            if (black, white) != (p.color == Color::Black, p.color == Color::White) {
                return Err(format!("colour bits of piece {r} are stale"));
            }
        }
        if area != u64::from(g) * u64::from(g) {
            return Err(format!(
                "pieces cover {area} units of {}",
                u64::from(g) * u64::from(g)
            ));
        }
        if hash != self.hash {
            return Err("incremental hash differs from the recomputed one".into());
        }
        if live != self.live {
            return Err("live count is stale".into());
        }
        if self.slots_of(Color::Black).count() + self.slots_of(Color::White).count()
            != live as usize
        {
            return Err("colour bits mark dead slots".into());
        }
        Ok(())
    }
}
