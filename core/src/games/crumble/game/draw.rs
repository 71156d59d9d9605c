//! The automatic draw of rule 5.2: the last six turns' regions and swap targets.

use super::*;

/// What one turn did, for the automatic draw rule (5.2).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TurnRecord {
    /// Pieces split (before the cut), or the join outline: disjoint rectangles.
    pub(crate) region: Vec<Rect>,
    /// The swap's targets, in order.
    pub(crate) targets: Vec<Rect>,
}

impl TurnRecord {
    pub(super) fn clear(&mut self) {
        self.region.clear();
        self.targets.clear();
    }
    pub(super) fn copy_from(&mut self, o: &TurnRecord) {
        self.region.clear();
        self.region.extend_from_slice(&o.region);
        self.targets.clear();
        self.targets.extend_from_slice(&o.targets);
    }
    pub(super) fn hash(&self) -> u64 {
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
pub(super) struct DrawWindow {
    turns: [TurnRecord; 6],
    head: usize,
    len: usize,
}

impl DrawWindow {
    pub(super) fn push(&mut self, rec: &TurnRecord) {
        let i = (self.head + self.len) % 6;
        self.turns[i].copy_from(rec);
        if self.len < 6 {
            self.len += 1;
        } else {
            self.head = (self.head + 1) % 6;
        }
    }
    pub(super) fn get(&self, i: usize) -> &TurnRecord {
        &self.turns[(self.head + i) % 6]
    }
    pub(super) fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
    }
    /// The turns it holds (at most six).
    pub(super) fn len(&self) -> usize {
        self.len
    }
    /// Becomes a copy of `o`, reusing its buffers.
    pub(super) fn copy_from(&mut self, o: &DrawWindow) {
        self.head = o.head;
        self.len = o.len;
        for (a, b) in self.turns.iter_mut().zip(&o.turns) {
            a.copy_from(b);
        }
    }
}

/// `a` lies inside `b` as point sets; both are lists of disjoint rectangles.
fn region_inside(a: &[Rect], b: &[Rect]) -> bool {
    a.iter()
        .all(|ra| b.iter().map(|rb| ra.overlap_area(*rb)).sum::<u64>() == ra.area())
}

impl Crumble {
    /// The pieces through which the targets of the turn in progress can still decide an
    /// automatic draw (rule 5.2) at the end of this turn or of the next one: the draw needs
    /// one piece among the targets of six consecutive turns, so only a piece that was a
    /// target of each of the last four turns before this one can. Empty when fewer than four
    /// turns are in the window (no draw within two turns then).
    pub(crate) fn draw_candidates(&self) -> Vec<Rect> {
        let w = &self.window;
        if w.len() < 4 {
            return Vec::new();
        }
        let mut out: Vec<Rect> = Vec::new();
        for &x in &w.get(w.len() - 1).targets {
            if !out.contains(&x)
                && (w.len() - 4..w.len() - 1).all(|i| w.get(i).targets.contains(&x))
            {
                out.push(x);
            }
        }
        out
    }

    /// The automatic draw of rule 5.2 over the last six turns.
    pub(super) fn draw_rule(&self) -> bool {
        let w = &self.window;
        if w.len() < 6 {
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
