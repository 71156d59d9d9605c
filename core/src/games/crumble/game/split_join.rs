//! Where a split run or a join outline lies on the board (rules 4.1 and 4.2): the walks
//! along a cut line and the join outlines from a piece's corner that the listing
//! (`bases.rs`), the legality checks and the end-of-game check are built on.

use super::*;

impl Crumble {
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
    pub(super) fn joins_from(
        b: &Board,
        s: &mut Scratch,
        p: u32,
        color: Color,
        f: impl FnMut(Rect) -> bool,
    ) {
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
    pub(super) fn has_split_or_join(&mut self, color: Color) -> bool {
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
}
