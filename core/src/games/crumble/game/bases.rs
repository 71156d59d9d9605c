//! The complete splits and joins of the player to move (rules 4.1 and 4.2), listed for random
//! play and for lists of moves, and kept piece by piece from one turn to the next.
//!
//! Random play lists them at every turn, and a turn changes only a few pieces, so each piece's
//! share (the split runs it starts, the joins from its corner) is kept with the blocks of the
//! board it was read from ([`Reads`]). The board notes the blocks every change touches
//! ([`Board::take_changed`]); a share is worked out again only when its piece or a block it
//! read has changed since its owner's last listing. A copied board counts as changed
//! everywhere. The listing, and so random play, is the same as without the cache (checked
//! against a listing from nothing in debug builds and by the tests below).

use super::Crumble;
use crate::game::{Color, Decision};
use crate::games::crumble::board::{Blocks, Board};
use crate::games::crumble::decision::DecisionKind;
use crate::games::crumble::geom::{Cut, Rect};

/// Told every unit cell a rules query looks up on the grid, so that its answer can be kept
/// until the piece on one of them changes (a change to a piece touches all of its cells, so
/// the pieces found there, and all that was read of them, are covered). `()` ignores them.
pub(crate) trait Reads {
    fn cell(&mut self, x: u16, y: u16);
}

impl Reads for () {
    #[inline(always)]
    fn cell(&mut self, _: u16, _: u16) {}
}

/// One piece's share of the listing, as worked out for its owner.
#[derive(Clone, Copy, Debug, Default)]
struct Share {
    /// The piece it was worked out for (a dead slot's default never matches a live piece).
    rect: Rect,
    color: Option<Color>,
    /// The blocks of every piece the answer was read from.
    reads: Blocks,
    /// The length of the horizontal and the vertical split run this piece starts (0: none).
    runs: [u32; 2],
    /// Where the joins from its corner lie in the cache's pool (start, count), in the order
    /// `joins_from_read` finds them.
    joins: (u32, u32),
}

/// The kept shares, by slot, and the last listing.
#[derive(Debug, Default)]
pub(crate) struct BaseCache {
    shares: Vec<Share>,
    /// The shares' joins, one range each; the ranges of shares worked out again are left
    /// behind until the pool is compacted (into `spare`), so that nothing is allocated once
    /// both are warm.
    pool: Vec<Rect>,
    spare: Vec<Rect>,
    /// Joins in the pool that no share points to.
    garbage: usize,
    /// The listing: split runs (cut, first piece, length), then joins (piece, outline), each
    /// in slot order. A run of `m` pieces holds `m(m + 1) / 2` splits.
    runs: Vec<(Cut, u32, u32)>,
    listed: Vec<(u32, Rect)>,
    xs: Vec<u16>,
    ys: Vec<u16>,
    /// Debug builds: a second cache that lists from nothing, to check this one against.
    #[cfg(debug_assertions)]
    check: Option<Box<BaseCache>>,
}

impl BaseCache {
    /// Lists `color`'s splits and joins, working out again only the shares that `changed`
    /// (the blocks changed since `color`'s last listing) may have altered. Returns how many.
    fn list(&mut self, b: &Board, color: Color, changed: Blocks) -> usize {
        let slots = b.slot_capacity();
        if self.shares.len() < slots {
            self.shares.resize(slots, Share::default());
        }
        if self.garbage > 256 && self.garbage * 2 > self.pool.len() {
            self.compact();
        }
        self.runs.clear();
        self.listed.clear();
        let mut total = 0;
        for p in b.slots_of(color) {
            let share = &mut self.shares[p as usize];
            let r = b.rect(p);
            if share.rect != r || share.color != Some(color) || share.reads.meets(&changed) {
                self.garbage += share.joins.1 as usize;
                *share =
                    BaseCache::share_of(b, p, color, &mut self.pool, &mut self.xs, &mut self.ys);
            }
            for (cut, m) in [Cut::H, Cut::V].into_iter().zip(share.runs) {
                if m > 0 {
                    let m = m as usize;
                    total += m * (m + 1) / 2;
                    self.runs.push((cut, p, m as u32));
                }
            }
            let (start, count) = (share.joins.0 as usize, share.joins.1 as usize);
            self.listed
                .extend(self.pool[start..start + count].iter().map(|&o| (p, o)));
        }
        total + self.listed.len()
    }

    /// Moves the joins that shares point to into the spare pool and swaps the pools.
    fn compact(&mut self) {
        self.spare.clear();
        for share in &mut self.shares {
            let (start, count) = (share.joins.0 as usize, share.joins.1 as usize);
            share.joins.0 = self.spare.len() as u32;
            self.spare
                .extend_from_slice(&self.pool[start..start + count]);
        }
        std::mem::swap(&mut self.pool, &mut self.spare);
        self.garbage = 0;
    }

    /// Works out piece `p`'s share from nothing, its joins appended to `pool`.
    fn share_of(
        b: &Board,
        p: u32,
        color: Color,
        pool: &mut Vec<Rect>,
        xs: &mut Vec<u16>,
        ys: &mut Vec<u16>,
    ) -> Share {
        let r = b.rect(p);
        // The piece's own corner: a new piece in this slot with the same shape and colour
        // touches it.
        let mut span = b.block_reads();
        span.cell(r.x, r.y);
        let mut runs = [0; 2];
        for (cut, m) in [Cut::H, Cut::V].into_iter().zip(&mut runs) {
            let Some(c) = r.midline(cut) else { continue };
            let start = Crumble::run_start(r, cut);
            if Crumble::run_read::<false>(b, cut, c, start, color, &mut span).is_some() {
                continue; // not the first piece of its run; its run is listed from there
            }
            let mut q = p;
            *m = 1;
            while let Some(n) = Crumble::run_read::<true>(
                b,
                cut,
                c,
                Crumble::run_end(b.rect(q), cut),
                color,
                &mut span,
            ) {
                *m += 1;
                q = n;
            }
        }
        let start = pool.len();
        Crumble::joins_from_read(
            b,
            xs,
            ys,
            p,
            color,
            |o| {
                pool.push(o);
                true
            },
            &mut span,
        );
        Share {
            rect: r,
            color: Some(color),
            reads: span.blocks,
            runs,
            joins: (start as u32, (pool.len() - start) as u32),
        }
    }
}

impl Crumble {
    /// Finds every legal split and join of the player to move (into the cache's listing) and
    /// returns how many there are.
    fn find_bases(&mut self) -> usize {
        let color = self.to_move;
        let changed = self.board.take_changed(color);
        let n = self.s.bases.list(&self.board, color, changed);
        #[cfg(debug_assertions)]
        {
            let mut fresh = self.s.bases.check.take().unwrap_or_default();
            let m = fresh.list(&self.board, color, Blocks::ALL);
            let cache = &self.s.bases;
            debug_assert!(
                m == n && fresh.runs == cache.runs && fresh.listed == cache.listed,
                "the kept splits and joins differ from a fresh listing"
            );
            self.s.bases.check = Some(fresh);
        }
        n
    }

    /// The pieces of the split run of `cut` that starts at `first`, in order.
    fn run_members(&self, cut: Cut, first: u32, out: &mut Vec<u32>) {
        let c = self
            .board
            .rect(first)
            .midline(cut)
            .expect("a run piece has a midline");
        out.clear();
        out.push(first);
        let mut q = first;
        while let Some(n) = Crumble::run_next(
            &self.board,
            cut,
            c,
            Crumble::run_end(self.board.rect(q), cut),
            self.to_move,
        ) {
            out.push(n);
            q = n;
        }
    }

    /// The split of `cut` from piece `a` to piece `b` of one run, as (choose, extent).
    fn split_decisions(&self, cut: Cut, a: u32, b: u32) -> (Decision, Decision) {
        let g = self.board.grid_size();
        let (a, b) = (self.board.rect(a), self.board.rect(b));
        (
            Decision::encode(
                DecisionKind::Split {
                    cut,
                    x: a.x,
                    y: a.y,
                },
                g,
            ),
            Decision::encode(DecisionKind::End { x: b.x, y: b.y }, g),
        )
    }

    /// The join of outline `o`, as (choose, extent).
    fn join_decisions(&self, o: Rect) -> (Decision, Decision) {
        let g = self.board.grid_size();
        (
            Decision::encode(DecisionKind::Join { x: o.x, y: o.y }, g),
            Decision::encode(
                DecisionKind::End {
                    x: o.right() - 1,
                    y: o.top() - 1,
                },
                g,
            ),
        )
    }

    /// The `k`-th complete split or join found by [`Crumble::find_bases`], as (choose,
    /// extent): the runs' splits first (by start, then by length), then the joins.
    pub(crate) fn nth_base(&self, mut k: usize) -> (Decision, Decision) {
        let cache = &self.s.bases;
        for &(cut, first, m) in &cache.runs {
            let m = m as usize;
            if k >= m * (m + 1) / 2 {
                k -= m * (m + 1) / 2;
                continue;
            }
            let c = self
                .board
                .rect(first)
                .midline(cut)
                .expect("a run piece has a midline");
            let next = |q: u32| {
                let end = Crumble::run_end(self.board.rect(q), cut);
                Crumble::run_next(&self.board, cut, c, end, self.to_move).expect("inside the run")
            };
            let mut a = first;
            for i in 0..m {
                if k < m - i {
                    let b = (0..k).fold(a, |q, _| next(q));
                    return self.split_decisions(cut, a, b);
                }
                k -= m - i;
                a = next(a);
            }
        }
        self.join_decisions(cache.listed[k].1)
    }

    /// Picks one complete split or join uniformly with `pick(n) in 0..n`; `None` if there is none.
    pub(crate) fn pick_base(
        &mut self,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<(Decision, Decision)> {
        let n = self.find_bases();
        (n > 0).then(|| self.nth_base(pick(n)))
    }

    /// Every legal (choose, extent) pair of the player to move, in [`Crumble::nth_base`]'s
    /// order: all complete splits (each contiguous run of each cut line) and joins.
    pub(crate) fn collect_bases(&mut self, out: &mut Vec<(Decision, Decision)>) {
        out.clear();
        self.find_bases();
        let mut members = Vec::new();
        for &(cut, first, _) in &self.s.bases.runs {
            self.run_members(cut, first, &mut members);
            for (i, &a) in members.iter().enumerate() {
                out.extend(
                    members[i..]
                        .iter()
                        .map(|&b| self.split_decisions(cut, a, b)),
                );
            }
        }
        out.extend(
            self.s
                .bases
                .listed
                .iter()
                .map(|&(_, o)| self.join_decisions(o)),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::games::crumble::for_random_states;

    /// At every state of random games, on boards of several sizes, the kept listing equals a
    /// listing from nothing (a fresh copy of the game), in content and order, so random play
    /// is unchanged; copies taken mid-game (which start from nothing) are followed as well.
    #[test]
    fn kept_listing_equals_a_fresh_one() {
        let sizes = [(4, 2), (4, 4), (6, 8), (3, 8)];
        let (mut listings, mut kept) = (0, 0);
        let (mut got, mut want) = (Vec::new(), Vec::new());
        for_random_states(0..24, &sizes, 80, false, |seed, g| {
            if g.is_over() || !g.at_turn_start() {
                return;
            }
            let before = g.s.bases.shares.iter().filter(|s| s.rect.w != 0).count();
            g.collect_bases(&mut got);
            kept += usize::from(before > 0);
            g.clone().collect_bases(&mut want);
            assert_eq!(got, want, "seed {seed} turn {}", g.turns_played());
            listings += 1;
        });
        assert!(
            listings >= 1000 && kept * 2 >= listings,
            "{listings} listings, {kept} kept"
        );
    }
}
