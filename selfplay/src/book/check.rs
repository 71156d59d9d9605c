//! The book's choices against deeper searches: for book positions, the move a search with
//! more simulations plays there against the book's best option, and where they differ, both
//! moves valued by such searches. How far a book built at one search size can be trusted.

use super::Book;
use super::OptionRef;
use super::minimax::{best_option, sign};
use crate::arena::{ArenaError, Job, Pool, run_jobs};
use crate::driver::{Flow, Seating};
use crate::record::{GameRecord, StepKind};
use crumble_core::game::symmetry::canonical;
use crumble_core::{Decision, GameResult, GameText, Player};

/// One position checked.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckRow {
    pub node: u32,
    /// The book's best option (in the node's canonical orientation) and its value for the
    /// player to move; `other` when it is the best move outside the book.
    pub book_move: String,
    pub book_value: f32,
    pub other: bool,
    /// The deeper search's move and its root value (player to move).
    pub deep_move: String,
    pub deep_root: f32,
    /// Both moves reach the same position up to symmetry.
    pub agree: bool,
    /// Where they differ: each move's position valued by a deeper search, for the player
    /// who moved (`None` where they agree).
    pub values: Option<(f32, f32)>,
}

/// The live book positions with a book move, cheapest to reach first: those the book
/// thinks matter most, `count` at most.
pub fn positions_to_check<G: GameText>(book: &Book<G>, count: usize) -> Vec<u32> {
    let mut ids: Vec<u32> = (0..book.nodes().len() as u32)
        .filter(|&id| {
            let n = book.node(id);
            !n.is_over() && !n.edges.is_empty() && n.cost.is_finite()
        })
        .collect();
    ids.sort_by(|&a, &b| {
        book.node(a)
            .cost
            .total_cmp(&book.node(b).cost)
            .then(a.cmp(&b))
    });
    ids.truncate(count);
    ids
}

/// A turn's decisions and its first search's root value.
type Turn = (Vec<Decision>, Option<f32>);

/// One turn of the pool's agent 0 from each of `starts`: its decisions and the root value of
/// its first search (the mover's view; `None` when every decision was forced).
fn one_turn<G: GameText>(
    pool: &Pool<G>,
    starts: &[G],
    max_turns: u32,
    seed: u64,
    concurrency: usize,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<Turn>, ArenaError> {
    let jobs: Vec<Job<G>> = starts
        .iter()
        .map(|s| Job {
            agents: vec![0],
            seating: Seating::SelfPlay,
            start: s.clone(),
            max_turns,
            stop_after_turns: 1,
            games: 0..1,
            seed,
        })
        .collect();
    let mut out = vec![(Vec::new(), None); starts.len()];
    let mut done = 0;
    run_jobs(
        pool,
        &jobs,
        concurrency,
        &mut |k, games: Vec<GameRecord>| {
            done += 1;
            progress(done, starts.len());
            let g = &games[0];
            let value = g
                .steps
                .iter()
                .find(|s| s.kind == StepKind::Searched)
                .and_then(|s| s.search.as_ref().map(|r| r.value));
            out[k] = (g.steps.iter().map(|s| s.decision).collect(), value);
            Ok(Flow::Continue)
        },
    )?;
    Ok(out)
}

/// The value of `s` for the player who just moved into it: exact where the game is over,
/// else minus the deeper search's root value for the player to move.
fn value_after<G: GameText>(s: &G, mover: Option<Player>, searched: Option<f32>) -> f32 {
    match s.game_result() {
        Some(GameResult::Draw) => 0.0,
        Some(GameResult::Win(p)) if Some(p) == mover => 1.0,
        Some(GameResult::Win(_)) => -1.0,
        None => -searched.unwrap_or(0.0),
    }
}

impl<G: GameText> Book<G> {
    /// Checks nodes `ids` against `pool`'s agent 0 (a deeper search: the book's agent with
    /// more simulations, at match settings), `concurrency` searches at once. `progress`
    /// hears (phase, searches done, searches in the phase): phase 1 searches the positions,
    /// phase 2 values both moves where the deeper search disagrees.
    pub fn check_deeper(
        &self,
        ids: &[u32],
        pool: &Pool<G>,
        concurrency: usize,
        progress: &mut dyn FnMut(u8, usize, usize),
    ) -> Result<Vec<CheckRow>, ArenaError> {
        let max_turns = self.header.max_turns;
        let seed = self.header.seed;
        let starts: Vec<G> = ids.iter().map(|&id| self.node(id).state.clone()).collect();
        let deep = one_turn(pool, &starts, max_turns, seed, concurrency, &mut |d, n| {
            progress(1, d, n)
        })?;
        let mut rows = Vec::new();
        let mut to_value: Vec<G> = Vec::new();
        for (&id, (turn, root)) in ids.iter().zip(&deep) {
            let node = self.node(id);
            let mover = node.mover();
            let options = self.options(id);
            let k = best_option(sign(mover), &options).expect("a live node has options");
            let (book_turn, other) = match options[k].0 {
                OptionRef::Edge(e) => (node.edges[e as usize].turn.clone(), false),
                OptionRef::Other => (node.other.as_ref().expect("its entry").turn.clone(), true),
            };
            let after = |t: &[Decision]| {
                let mut s = node.state.clone();
                for &d in t {
                    s.apply_unchecked(d);
                }
                s
            };
            let (b, d) = (after(&book_turn), after(turn));
            let agree = canonical(&b).key == canonical(&d).key;
            let text = |t: &[Decision]| {
                node.state
                    .move_text(t, G::Notation::default())
                    .unwrap_or_else(|e| format!("<{e}>"))
            };
            if !agree {
                to_value.push(b);
                to_value.push(d);
            }
            rows.push(CheckRow {
                node: id,
                book_move: text(&book_turn),
                book_value: options[k].1.for_player(mover).value,
                other,
                deep_move: text(turn),
                deep_root: root.unwrap_or(0.0),
                agree,
                values: None,
            });
        }
        let live: Vec<G> = to_value.iter().filter(|s| !s.is_over()).cloned().collect();
        let mut searched = one_turn(
            pool,
            &live,
            max_turns,
            seed ^ 1,
            concurrency,
            &mut |d, n| progress(2, d, n),
        )?
        .into_iter();
        let mut values = to_value.iter().map(|s| {
            let v = if s.is_over() {
                None
            } else {
                searched.next().and_then(|x| x.1)
            };
            (s, v)
        });
        for row in rows.iter_mut().filter(|r| !r.agree) {
            let mover = self.node(row.node).mover();
            let (b, vb) = values.next().expect("a value per move");
            let (d, vd) = values.next().expect("a value per move");
            row.values = Some((value_after(b, mover, vb), value_after(d, mover, vd)));
        }
        Ok(rows)
    }
}
