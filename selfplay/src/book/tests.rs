//! The book on the test games, whose exact values are known.

use super::*;
use crate::evaluator::{RolloutEvaluator, UniformEvaluator};
use crate::{Evaluator, SearchConfig};
use crumble_core::games::nim::{Nim, NimStart};
use crumble_core::games::tictactoe::{TicTacToe, TicTacToeStart};
use crumble_core::{Decision, GameState, Player};

pub(super) fn header<G: GameState>(start: &G::Start, batch: usize, seed: u64) -> BookHeader {
    BookHeader {
        game: G::NAME.into(),
        start: crate::record::start_json::<G>(start),
        agent: "mcts:rollout:48".into(),
        simulations: 48,
        search: SearchConfig::default().to_toml_string(),
        config: BookConfig {
            batch,
            ..BookConfig::default()
        },
        max_turns: 0,
        seed,
    }
}

pub(super) fn ttt_book(batch: usize, seed: u64) -> Book<TicTacToe> {
    let start = TicTacToeStart::default();
    Book::new(
        header::<TicTacToe>(&start, batch, seed),
        TicTacToe::from_start(&start).unwrap(),
    )
}

pub(super) fn rollout<G: GameState>() -> Box<dyn Evaluator<G>> {
    Box::new(RolloutEvaluator::new(
        SearchConfig::default().rollout.clone(),
        5,
    ))
}

pub(super) fn grow<G: crumble_core::GameText>(book: Book<G>, steps: usize) -> Book<G> {
    grow_with(book, steps, true)
}

/// `steps` steps of a build, with or without the exact solver.
pub(super) fn grow_with<G: crumble_core::GameText>(
    book: Book<G>,
    steps: usize,
    solver: bool,
) -> Book<G> {
    let mut b = Builder::new(book, rollout()).unwrap();
    if !solver {
        b = b.without_solver();
    }
    for _ in 0..steps {
        if b.step().unwrap().finished {
            break;
        }
    }
    b.book
}

pub(super) fn cells(moves: &[u32]) -> TicTacToe {
    let mut g = TicTacToe::from_start(&TicTacToeStart::default()).unwrap();
    for &m in moves {
        g.apply(Decision(m)).unwrap();
    }
    g
}

#[test]
fn symmetric_lines_reach_one_node() {
    let mut book = ttt_book(4, 1);
    let (a, new_a) = book.add_move(0, &[Decision(0)], 0.1).unwrap();
    assert!(new_a);
    // The root is the empty board, in its canonical orientation: another corner is the same
    // node, and the book keeps one move for it.
    let (b, new_b) = book.add_move(0, &[Decision(8)], 0.1).unwrap();
    assert_eq!((a, new_b), (b, false));
    assert_eq!(book.node(0).edges.len(), 1);
    for corner in [0, 2, 6, 8] {
        assert_eq!(book.lookup(&cells(&[corner])), Some(a));
    }
    assert_ne!(book.lookup(&cells(&[4])), Some(a));
    // Seen from a line that opened in the corner 6, the book's corner move shows as 6.
    let seen = book.moves_as_seen(0, &cells(&[])).unwrap();
    assert_eq!(seen.len(), 1);
    let (c, _) = book.add_move(a, &[Decision(4)], 0.5).unwrap();
    let line_state = cells(&[6]);
    let shown = book.moves_as_seen(a, &line_state).unwrap();
    let mut after = line_state.clone();
    after.apply(shown[0][0]).unwrap();
    assert_eq!(
        shown[0],
        vec![Decision(4)],
        "the centre reply is the centre"
    );
    assert_eq!(book.lookup(&after), Some(c));
}

#[test]
fn two_move_orders_reach_one_node() {
    let mut book = ttt_book(4, 1);
    // x0 o4 x8, added as the line sees each position.
    let line = [0, 4, 8];
    let mut ids = Vec::new();
    for k in 0..line.len() {
        let (id, new) = book
            .add_move_seen(&cells(&line[..k]), &[Decision(line[k])], 0.1)
            .unwrap();
        assert!(new);
        ids.push(id);
    }
    assert_eq!(book.lookup(&cells(&line)), Some(ids[2]));
    // The same marks in another order, and mirrored: x8 o4 x0, x2 o4 x6, x6 o4 x2.
    for other in [[8, 4, 0], [2, 4, 6], [6, 4, 2]] {
        assert_eq!(book.lookup(&cells(&other)), Some(ids[2]), "{other:?}");
    }
    // Adding another order's last move finds the node: a new edge, no new position.
    let (id, new) = book
        .add_move_seen(&cells(&[8, 4]), &[Decision(0)], 0.1)
        .unwrap();
    assert_eq!((id, new), (ids[2], false));
    assert_eq!(book.nodes().len(), 4);
    // An x2 o4 opening is the x0 o4 node (a mirror image): its book move x6 is seen as 6.
    let seen = book.moves_as_seen(ids[1], &cells(&[2, 4])).unwrap();
    assert_eq!(seen, vec![vec![Decision(6)]]);
}

/// `book` grown by rollouts without the solver until every move is in it (at most 1,000
/// steps).
fn grown_to_the_end<G: crumble_core::GameText>(book: Book<G>) -> Book<G> {
    let mut b = Builder::new(book, rollout()).unwrap().without_solver();
    let mut steps = 0;
    while !b.step().unwrap().finished {
        steps += 1;
        assert!(steps < 1000, "the book keeps growing");
    }
    b.book
}

/// Every node's values are the minimax of its options, its bounds hold its value, and a
/// proof is never contradicted by the solver.
fn check_minimax<G: crumble_core::GameText>(book: &Book<G>) {
    let mut solver = crumble_core::game::Negamax::<G>::new();
    for (id, n) in book.nodes().iter().enumerate() {
        let v = n.values;
        assert!(
            v.lower <= v.value && v.value <= v.upper && v.lower >= -1.0 && v.upper <= 1.0,
            "node {id}: {v:?}"
        );
        if let Some(p) = v.proven {
            assert_eq!(p, solver.value_for(&n.state, Player::First), "node {id}");
            assert_eq!((v.lower, v.upper), (v.value, v.value));
            continue;
        }
        let options = book.options(id as u32);
        let s = if n.mover() == Some(Player::Second) {
            -1.0
        } else {
            1.0
        };
        let best = |f: &dyn Fn(&Values) -> f32| {
            options
                .iter()
                .map(|(_, o)| s * f(o))
                .fold(f32::MIN, f32::max)
                * s
        };
        assert_eq!(v.value, best(&|o| o.value), "node {id}");
        assert_eq!(v.lower, best(&|o| o.lower), "node {id}");
        assert_eq!(v.upper, best(&|o| o.upper), "node {id}");
    }
}

#[test]
fn bounds_are_monotone_under_minimax() {
    // Without the solver: the searches' own proofs and intervals.
    let book = grow_with(ttt_book(3, 2), 8, false);
    assert!(book.nodes().len() > 10, "{} nodes", book.nodes().len());
    let unproven = book
        .nodes()
        .iter()
        .filter(|n| n.values.proven.is_none())
        .count();
    assert!(unproven > 5, "{unproven} unproven nodes");
    check_minimax(&book);
    // Raising a leaf's evidence can only raise its ancestors' (for their movers) : the root
    // of a book whose values all move up moves up.
    let mut up = book.clone();
    for id in 0..up.nodes().len() as u32 {
        if let Some(o) = up.node_mut(id).other.as_mut() {
            o.value = (o.value + 0.5).min(1.0);
            o.proven = None;
        }
        up.node_mut(id).exact = None;
    }
    let mut down = up.clone();
    for id in 0..down.nodes().len() as u32 {
        if let Some(o) = down.node_mut(id).other.as_mut() {
            o.value = (o.value - 0.5).max(-1.0);
        }
    }
    up.recompute();
    down.recompute();
    for id in 0..up.nodes().len() {
        let (u, d) = (up.nodes()[id].values, down.nodes()[id].values);
        assert!(
            u.value >= d.value && u.lower >= d.lower && u.upper >= d.upper,
            "node {id}: {u:?} vs {d:?}"
        );
    }
}

/// A proof of the other-moves entry covers every move outside the book: with the book's
/// moves proven too, the node is proven; a proven win for the mover proves it alone.
#[test]
fn proofs_carry_up_through_the_book_and_the_other_moves() {
    let mut book = ttt_book(4, 1);
    let (centre, _) = book.add_move(0, &[Decision(4)], 0.5).unwrap();
    let other = |value: f32, proven: Option<i8>| Other {
        turn: vec![Decision(0)],
        prior: 0.3,
        value,
        visits: 100,
        proven,
    };
    let check = |book: &mut Book<TicTacToe>, child: Option<i8>, o: Other, want: Option<i8>| {
        book.node_mut(centre).exact = child;
        book.node_mut(centre).other = Some(other(0.1, None));
        book.node_mut(0).other = Some(o);
        book.recompute();
        assert_eq!(
            book.node(0).values.proven,
            want,
            "{:?}",
            book.node(0).values
        );
    };
    check(&mut book, Some(0), other(-1.0, Some(-1)), Some(0));
    check(&mut book, Some(0), other(0.0, None), None);
    check(&mut book, Some(1), other(0.0, None), Some(1));
    check(&mut book, None, other(1.0, Some(1)), Some(1));
    check(&mut book, None, other(-1.0, Some(-1)), None);
    let v = book.node(0).values;
    assert!(
        v.lower >= -1.0 && v.upper <= 1.0 && v.lower < v.upper,
        "{v:?}"
    );
}

#[test]
fn a_whole_tictactoe_book_is_the_solved_game() {
    // Without the solver, grown until every move is in the book: the proofs of the
    // finished games carry up to the root.
    let book = grown_to_the_end(ttt_book(32, 3));
    check_minimax(&book);
    assert_eq!(book.node(0).values.proven, Some(0), "tic-tac-toe is a draw");
    assert!(book.nodes().iter().all(|n| n.values.proven.is_some()));
    // Symmetry merged the first moves into 3 classes (corner, edge, centre), and the
    // positions into the 765 classes of tic-tac-toe.
    assert_eq!(book.node(0).edges.len(), 3);
    assert_eq!(book.nodes().len(), 765);
}

#[test]
fn searches_avoid_the_moves_in_the_book() {
    // A batch large enough that the root adds its next move at every step.
    let mut b = Builder::new(ttt_book(16, 4), Box::new(UniformEvaluator)).unwrap();
    let child = |book: &Book<TicTacToe>, t: &[Decision]| {
        let mut s = book.node(0).state.clone();
        for &d in t {
            s.apply(d).unwrap();
        }
        book.lookup(&s)
    };
    b.step().unwrap(); // the root's search
    let mut seen = Vec::new();
    for k in 0..3 {
        let other = b.book.node(0).other.clone().unwrap();
        // The search picked a move outside the book: a position class not yet in it.
        assert_eq!(child(&b.book, &other.turn), None, "search {k}");
        seen.push(other.turn);
        b.step().unwrap();
        assert_eq!(b.book.node(0).edges.len(), k + 1);
    }
    // Corner, edge and centre are in the book: nothing is left outside it.
    assert!(b.book.node(0).other.is_none());
    let mut cls: Vec<u64> = seen
        .iter()
        .map(|t| b.book.node(child(&b.book, t).unwrap()).key)
        .collect();
    cls.dedup();
    assert_eq!(cls.len(), 3);
}

/// The moves in the book cost the restricted search a visit each, valued as losses: the
/// other-moves value leaves those visits out.
#[test]
fn the_other_moves_value_leaves_out_the_visits_to_book_moves() {
    let mut book = ttt_book(1, 5);
    book.add_move(0, &[Decision(0)], 0.3).unwrap(); // the corners
    book.add_move(0, &[Decision(1)], 0.3).unwrap(); // the edges
    let mut b = Builder::new(book, Box::new(UniformEvaluator))
        .unwrap()
        .without_solver();
    b.step().unwrap(); // the root's search: only the centre is outside the book
    let o = b.book.node(0).other.clone().unwrap();
    assert_eq!(o.turn, vec![Decision(4)]);
    // Eight moves reach the book (four corners, four edges), each visited once as a loss.
    assert!(o.visits <= 48 - 8, "{} visits", o.visits);
    assert!(
        o.value > -0.05,
        "value {} dragged down by the book's moves",
        o.value
    );
}

fn nim_book(seed: u64) -> Book<Nim> {
    let start = NimStart::default();
    Book::new(
        header::<Nim>(&start, 3, seed),
        Nim::from_start(&start).unwrap(),
    )
}

/// Nim's turns are two decisions (a heap, then how many): the search restricted to the
/// moves outside the book bars whole turns, and a book grown to the end is the solved game.
#[test]
fn a_whole_nim_book_is_the_solved_game() {
    let book = grown_to_the_end(nim_book(2));
    check_minimax(&book);
    let mut solver = crumble_core::game::Negamax::<Nim>::new();
    let exact = solver.value_for(&book.start, Player::First);
    assert_eq!(book.node(0).values.proven, Some(exact));
    assert!(book.nodes().iter().all(|n| n.other.is_none()));
}

#[test]
fn a_killed_build_resumes_to_the_same_book_byte_for_byte() {
    let straight = file::encode(&grow(nim_book(6), 9));
    // Killed after 4 steps: what was saved then is read back and grown on.
    let saved = file::encode(&grow(nim_book(6), 4));
    let read: Book<Nim> = file::decode(&saved).unwrap();
    assert_eq!(file::encode(&read), saved, "reading loses nothing");
    let resumed = file::encode(&grow(read, 5));
    assert_eq!(resumed, straight);
    // The threads the searches run on do not matter either.
    let one = crate::driver::with_threads(1, || file::encode(&grow(nim_book(6), 9)));
    assert_eq!(one, straight);
    let ttt = file::encode(&grow(ttt_book(4, 8), 6));
    let ttt_resumed = file::encode(&grow(
        file::decode::<TicTacToe>(&file::encode(&grow(ttt_book(4, 8), 2))).unwrap(),
        4,
    ));
    assert_eq!(ttt, ttt_resumed);
}

#[test]
fn malformed_book_files_are_refused_with_what_and_where() {
    let bytes = file::encode(&grow(ttt_book(4, 9), 3));
    let err = |b: &[u8]| file::decode::<TicTacToe>(b).unwrap_err();
    assert!(matches!(err(b"not a book"), BookError::BadMagic));
    assert!(matches!(
        err(&bytes[..bytes.len() - 3]),
        BookError::Checksum
    ));
    let mut flipped = bytes.clone();
    flipped[40] ^= 1;
    assert!(matches!(err(&flipped), BookError::Checksum));
    let mut v3 = bytes.clone();
    v3[8] = 3;
    assert!(matches!(
        err(&v3),
        BookError::UnsupportedVersion { found: 3 }
    ));
    assert!(matches!(
        file::decode::<Nim>(&bytes).unwrap_err(),
        BookError::WrongGame { .. }
    ));
    // Damage the checksum would not catch: a file written so, with a sound checksum.
    let reseal = |mut b: Vec<u8>| {
        let n = b.len() - 8;
        let sum = crumble_core::game::hash::fnv1a(&b[..n]);
        b[n..].copy_from_slice(&sum.to_le_bytes());
        b
    };
    let mut book = grow(ttt_book(4, 9), 3);
    book.node_mut(1).edges.clear();
    let e = err(&reseal(file::encode(&book)));
    assert!(
        matches!(&e, BookError::Replay { node, .. } if *node > 1),
        "a node reached by a move that is gone: {e}"
    );
    let mut book = grow(ttt_book(4, 9), 3);
    book.node_mut(0).edges[0].turn = vec![Decision(9)];
    let e = err(&reseal(file::encode(&book)));
    assert!(matches!(&e, BookError::Replay { .. }), "{e}");
    assert!(e.to_string().contains("move"), "{e}");
    let mut book = grow(ttt_book(4, 9), 3);
    book.node_mut(1).key ^= 1;
    let e = err(&reseal(file::encode(&book)));
    assert!(matches!(&e, BookError::Replay { node: 1, .. }), "{e}");
    // Bytes after the last node.
    let mut longer = bytes.clone();
    longer.splice(bytes.len() - 8..bytes.len() - 8, [0u8; 4]);
    let e = err(&reseal(longer));
    assert!(matches!(e, BookError::Corrupt { .. }), "{e}");
}

/// The static site: a page a position, and every link on a page leads to a page of the
/// site; the start's page shows its board and its moves.
#[test]
fn the_html_site_links_every_position() {
    let book = grow(ttt_book(4, 10), 5);
    let pages = book.html_pages(&[]);
    assert_eq!(pages.len(), book.nodes().len() + 1);
    let names: std::collections::HashSet<&str> = pages.iter().map(|(p, _)| p.as_str()).collect();
    for (path, html) in &pages {
        let dir = if path.starts_with("p/") { "p/" } else { "" };
        for link in html.split("href=\"").skip(1) {
            let target = link.split('"').next().unwrap();
            let resolved = match target.strip_prefix("../") {
                Some(t) => t.to_string(),
                None => format!("{dir}{target}"),
            };
            assert!(
                names.contains(resolved.as_str()),
                "{path} links to {target}"
            );
        }
    }
    // Phones get the page at their width; the line reads as words when copied.
    for (path, html) in &pages {
        assert!(html.contains("name=\"viewport\""), "{path}");
        if let Some(line) = html.split("<p class=\"line\">").nth(1) {
            let line = line.split("</p>").next().unwrap();
            assert!(!line.contains("</a><a"), "{path}: {line}");
        }
    }
    let root = &pages.iter().find(|(p, _)| p == "p/0.html").unwrap().1;
    assert!(root.contains("<pre>") && root.contains("<table>"), "{root}");
    assert_eq!(
        root.matches("<tr><td><a href=").count(),
        book.node(0).edges.len()
    );
}

/// `bytes` (a book image) as a version-`v` file, checksum and all.
fn as_version(mut bytes: Vec<u8>, v: u32) -> Vec<u8> {
    bytes[8..12].copy_from_slice(&v.to_le_bytes());
    let n = bytes.len() - 8;
    let sum = crumble_core::game::hash::fnv1a(&bytes[..n]);
    bytes[n..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// Crumble's state keeps the draw rule's last six turns, but the book keys a position
/// without them: the same position read from its JSON (no history) is the node its line
/// added, and its moves show there.
#[test]
fn crumble_lines_merge_whatever_their_draw_history() {
    use crumble_core::games::crumble::{Crumble, position};
    use rand::SeedableRng;
    let start = Crumble::new(6, 2).unwrap();
    let mut book = Book::new(header::<Crumble>(&start.to_start(), 4, 1), start.clone());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let (mut s, mut id) = (start, 0);
    for _ in 0..4 {
        let before = s.clone();
        let mut turn = Vec::new();
        s.play_random_turn_recorded(&mut rng, &mut turn);
        id = book.add_move_seen(&before, &turn, 0.1).unwrap().0;
    }
    assert!(!s.is_over());
    let mut turn = Vec::new();
    s.clone().play_random_turn_recorded(&mut rng, &mut turn);
    let (child, _) = book.add_move_seen(&s, &turn, 0.1).unwrap();
    let fresh = position::from_json(&position::to_json(&s)).unwrap();
    assert_ne!(
        fresh.state_hash(),
        s.state_hash(),
        "the JSON has no history"
    );
    assert_eq!(book.lookup(&fresh), Some(id));
    let seen = book.moves_as_seen(id, &fresh).unwrap();
    let mut after = fresh.clone();
    for &d in &seen[0] {
        after.apply(d).unwrap();
    }
    assert_eq!(book.lookup(&after), Some(child));
    // A book with a turn limit (its positions' hashes count their turns) is found from a
    // position that counts its turns from itself under another limit (a match's opening).
    let mut limited = header::<Crumble>(&Crumble::new(6, 2).unwrap().to_start(), 4, 1);
    limited.max_turns = 200;
    let mut book200 = Book::new(limited, Crumble::new(6, 2).unwrap());
    let mut line = Crumble::new(6, 2).unwrap();
    line.set_turn_limit(200);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut last = 0;
    for _ in 0..3 {
        let before = line.clone();
        let mut turn = Vec::new();
        line.play_random_turn_recorded(&mut rng, &mut turn);
        last = book200.add_move_seen(&before, &turn, 0.1).unwrap().0;
    }
    let mut opening = position::from_json(&position::to_json(&line)).unwrap();
    opening.set_turn_limit(150);
    assert_eq!(opening.turns_played(), 0);
    assert_eq!(book200.lookup(&opening), Some(last));
    assert!(book200.orientation_of(last, &opening).is_some());
    // A version-1 Crumble book keyed positions with their history: refused, saying so.
    let e = file::decode::<Crumble>(&as_version(file::encode(&book), 1)).unwrap_err();
    assert!(e.to_string().contains("grow the book again"), "{e}");
}

/// A version-1 book of a game whose keys did not change reads as it was.
#[test]
fn version_1_books_of_the_other_games_read() {
    let book = grow(ttt_book(4, 9), 3);
    let old = file::decode::<TicTacToe>(&as_version(file::encode(&book), 1)).unwrap();
    assert_eq!(file::encode(&old), file::encode(&book));
}
