//! Slow, obviously-correct reference implementations for the property tests: everything here
//! works on plain piece lists with O(P²) geometry, independent of the engine's grid walks.

#![allow(dead_code)]

use crumble_core::Color;
use crumble_core::games::crumble::{Base, Crumble, Cut, Move, Piece, Rect};

pub fn touching(a: Rect, b: Rect) -> bool {
    a.x <= b.right() && b.x <= a.right() && a.y <= b.top() && b.y <= a.top()
}

pub fn edge_neighbours(a: Rect, b: Rect) -> bool {
    let ox = a.right().min(b.right()) as i32 - a.x.max(b.x) as i32;
    let oy = a.top().min(b.top()) as i32 - a.y.max(b.y) as i32;
    touching(a, b) && (ox > 0 || oy > 0)
}

/// Components of same-coloured pieces under `adj`.
pub fn components(pieces: &[Piece], adj: fn(Rect, Rect) -> bool) -> Vec<Vec<usize>> {
    let n = pieces.len();
    let mut comp = vec![usize::MAX; n];
    let mut out = Vec::new();
    for s in 0..n {
        if comp[s] != usize::MAX {
            continue;
        }
        let id = out.len();
        let mut stack = vec![s];
        comp[s] = id;
        let mut members = Vec::new();
        while let Some(p) = stack.pop() {
            members.push(p);
            for q in 0..n {
                if comp[q] == usize::MAX
                    && pieces[q].color == pieces[p].color
                    && adj(pieces[p].rect, pieces[q].rect)
                {
                    comp[q] = id;
                    stack.push(q);
                }
            }
        }
        out.push(members);
    }
    out
}

pub fn surrounded_groups(pieces: &[Piece], g: u16) -> Vec<Vec<usize>> {
    components(pieces, touching)
        .into_iter()
        .filter(|c| !c.iter().any(|&i| pieces[i].rect.touches_side(g)))
        .collect()
}

pub fn four_side_winners(pieces: &[Piece], g: u16) -> Vec<Color> {
    components(pieces, edge_neighbours)
        .into_iter()
        .filter(|c| c.iter().fold(0u8, |m, &i| m | pieces[i].rect.side_mask(g)) == 15)
        .map(|c| pieces[c[0]].color)
        .collect()
}

/// Rule 3.3 one group at a time, in the order `pick` chooses among the surrounded groups.
pub fn resolve_sequentially(pieces: &mut [Piece], g: u16, mut pick: impl FnMut(usize) -> usize) {
    loop {
        let groups = surrounded_groups(pieces, g);
        if groups.is_empty() {
            return;
        }
        let k = pick(groups.len());
        for &i in &groups[k] {
            pieces[i].color = pieces[i].color.opposite();
        }
    }
}

/// Every legal split and join of the player to move, by brute force over the piece list.
pub fn naive_bases(game: &Crumble) -> Vec<Move> {
    let b = game.board();
    let g = b.grid_size();
    let me = game.to_move();
    let pieces = b.sorted_pieces();
    let mut out = Vec::new();
    for p in &pieces {
        if p.color != me {
            continue;
        }
        for cut in [Cut::H, Cut::V] {
            let Some(c) = p.rect.midline(cut) else {
                continue;
            };
            // Pieces whose inside the line crosses, in order along it.
            let mut crossed: Vec<&Piece> = pieces
                .iter()
                .filter(|q| match cut {
                    Cut::H => q.rect.y < c && c < q.rect.top(),
                    Cut::V => q.rect.x < c && c < q.rect.right(),
                })
                .collect();
            crossed.sort_by_key(|q| if cut == Cut::H { q.rect.x } else { q.rect.y });
            let start = crossed.iter().position(|q| q.rect == p.rect).unwrap();
            for (i, q) in crossed[start..].iter().enumerate() {
                if q.color != me || q.rect.midline(cut) != Some(c) {
                    break;
                }
                let count = i as u16 + 1;
                out.push(Move {
                    base: Base::Split {
                        cut,
                        first: p.rect,
                        count,
                    },
                    swap: None,
                });
            }
        }
        let (x0, y0) = (p.rect.x, p.rect.y);
        for w in 1..=(g - x0) {
            for h in [w / 2, w, 2 * w] {
                if h == 0 || (h == w / 2 && w % 2 == 1) || y0 + h > g {
                    continue;
                }
                let o = Rect::new(x0, y0, w, h);
                let mut inside = 0;
                let ok = pieces.iter().all(|q| {
                    let a = q.rect.overlap_area(o);
                    if a == 0 {
                        return true;
                    }
                    inside += 1;
                    a == q.rect.area() && q.color == me
                });
                if ok && inside >= 2 {
                    out.push(Move {
                        base: Base::Join { outline: o },
                        swap: None,
                    });
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}
