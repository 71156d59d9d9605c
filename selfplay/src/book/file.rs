//! The book file (`*.crbook`): versioned, checksummed, written whole through a rename so a
//! killed build leaves the last book it wrote; read back with every field checked and every
//! position replayed, so a damaged or foreign file is refused with what and where.
//!
//! # Format, version 2
//!
//! All integers little-endian; a string is a `u32` length and UTF-8 bytes; a move is a
//! `u32` count and that many `u32` decisions. `MAGIC` (8 bytes `CRMBOOK\n`), `u32` version,
//! then the header ([`super::BookHeader`]): game name, start JSON, agent, `u32`
//! simulations, `[search]` TOML, `[book]` TOML, `u32` max turns, `u64` seed, `u64` searches
//! made; `u32` node count and the nodes; a `u64` FNV-1a checksum of everything before it.
//!
//! A node: `u64` canonical key, `u32` parent and `u32` edge it was first reached by
//! (`u32::MAX` twice for the root), `u32` searches, `u64` simulations, the other-moves
//! entry (`u8` 0 none, or 1 then the move, `f32` prior, `f32` value, `u32` visits, `u8`
//! proof: 0 none, 1 a loss, 2 a draw, 3 a win for the first player), `u32` edge count and
//! per edge the move, `u32` child, `u16` symmetry, `f32` prior.
//!
//! Only what the searches found is stored: values, bounds and costs are recomputed on
//! loading, positions replayed from the start. So the same book is the same bytes.
//!
//! Version 1 is the same bytes with keys from the state hash
//! ([`GameState::state_hash`]), the position hash of version 2 for every game but Crumble,
//! whose state hash includes the draw rule's history (so its transpositions were nodes of
//! their own): a version-1 book reads, and is written back as version 2, except Crumble's,
//! which is refused saying so (its nodes would be keyed and oriented anew: grow it again).

use super::{Book, BookConfig, BookHeader, Edge, Node, Other};
use crate::bytes::{self, ByteError};
use crate::evaluator::EvalError;
use crumble_core::game::hash::fnv1a;
use crumble_core::game::symmetry::canonical_state;
use crumble_core::{Decision, GameState};
use std::path::Path;

pub const MAGIC: [u8; 8] = *b"CRMBOOK\n";
pub const VERSION: u32 = 2;
/// The oldest version this build reads (see the module docs).
const OLDEST: u32 = 1;
const NONE: u32 = u32::MAX;

/// Why a book could not be built, read or written.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("not a book file (bad magic bytes)")]
    BadMagic,
    #[error(
        "book format version {found} is not supported (this build reads versions {OLDEST} to {VERSION})"
    )]
    UnsupportedVersion { found: u32 },
    #[error("book file truncated at byte {offset}")]
    Truncated { offset: usize },
    #[error("book file damaged: checksum mismatch")]
    Checksum,
    #[error("book file damaged at byte {offset}: {what}")]
    Corrupt { offset: usize, what: String },
    #[error("the book is a book of {found}, not of {expected}")]
    WrongGame {
        found: String,
        expected: &'static str,
    },
    #[error("book header: {0}")]
    Header(String),
    #[error("book node {node}: {what}")]
    Replay { node: u32, what: String },
    #[error("book evaluator: {0}")]
    Evaluator(String),
}

impl From<ByteError> for BookError {
    fn from(e: ByteError) -> BookError {
        match e {
            ByteError::Truncated { offset } => BookError::Truncated { offset },
            ByteError::Corrupt { offset, what } => BookError::Corrupt { offset, what },
        }
    }
}

impl From<EvalError> for BookError {
    fn from(e: EvalError) -> BookError {
        BookError::Evaluator(e.to_string())
    }
}

type Reader<'a> = bytes::Reader<'a, BookError>;

fn put_str(b: &mut Vec<u8>, s: &str) {
    b.extend_from_slice(&(s.len() as u32).to_le_bytes());
    b.extend_from_slice(s.as_bytes());
}

fn put_turn(b: &mut Vec<u8>, turn: &[Decision]) {
    b.extend_from_slice(&(turn.len() as u32).to_le_bytes());
    for d in turn {
        b.extend_from_slice(&d.0.to_le_bytes());
    }
}

fn proof_code(p: Option<i8>) -> u8 {
    match p {
        None => 0,
        Some(v) => (v + 2) as u8,
    }
}

/// The file image of `book`.
pub fn encode<G: GameState>(book: &Book<G>) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    let h = &book.header;
    put_str(&mut b, &h.game);
    put_str(&mut b, &h.start);
    put_str(&mut b, &h.agent);
    b.extend_from_slice(&h.simulations.to_le_bytes());
    put_str(&mut b, &h.search);
    put_str(&mut b, &h.config.to_toml_string());
    b.extend_from_slice(&h.max_turns.to_le_bytes());
    b.extend_from_slice(&h.seed.to_le_bytes());
    b.extend_from_slice(&book.searches.to_le_bytes());
    b.extend_from_slice(&(book.nodes.len() as u32).to_le_bytes());
    for n in &book.nodes {
        b.extend_from_slice(&n.key.to_le_bytes());
        let (p, e) = n.via.unwrap_or((NONE, NONE));
        b.extend_from_slice(&p.to_le_bytes());
        b.extend_from_slice(&e.to_le_bytes());
        b.extend_from_slice(&n.searches.to_le_bytes());
        b.extend_from_slice(&n.visits.to_le_bytes());
        match &n.other {
            None => b.push(0),
            Some(o) => {
                b.push(1);
                put_turn(&mut b, &o.turn);
                b.extend_from_slice(&o.prior.to_le_bytes());
                b.extend_from_slice(&o.value.to_le_bytes());
                b.extend_from_slice(&o.visits.to_le_bytes());
                b.push(proof_code(o.proven));
            }
        }
        b.extend_from_slice(&(n.edges.len() as u32).to_le_bytes());
        for e in &n.edges {
            put_turn(&mut b, &e.turn);
            b.extend_from_slice(&e.child.to_le_bytes());
            b.extend_from_slice(&e.sym.to_le_bytes());
            b.extend_from_slice(&e.prior.to_le_bytes());
        }
    }
    let sum = fnv1a(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    b
}

/// Writes `book` to `path` whole (a temporary file renamed over it).
pub fn save<G: GameState>(book: &Book<G>, path: &Path) -> Result<(), BookError> {
    crate::files::write_atomic(path, &encode(book)).map_err(|source| BookError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// The game a book image is of (its header's name), checked as far as the name: a program
/// that knows several games picks the game with it, then reads the book with [`decode`].
pub fn peek_game(bytes: &[u8]) -> Result<String, BookError> {
    if bytes.len() < 8 || bytes[..8] != MAGIC {
        return Err(BookError::BadMagic);
    }
    let mut r = Reader::new(bytes, 8);
    let version = r.u32()?;
    if !(OLDEST..=VERSION).contains(&version) {
        return Err(BookError::UnsupportedVersion { found: version });
    }
    string(&mut r, "game name")
}

/// Reads the book at `path` (see [`decode`]).
pub fn load<G: GameState>(path: &Path) -> Result<Book<G>, BookError> {
    let bytes = std::fs::read(path).map_err(|source| BookError::Io {
        path: path.display().to_string(),
        source,
    })?;
    decode(&bytes)
}

fn string(r: &mut Reader<'_>, what: &str) -> Result<String, BookError> {
    let n = r.count(1)?;
    r.text(n, what)
}

fn turn(r: &mut Reader<'_>) -> Result<Vec<Decision>, BookError> {
    let n = r.count(4)?;
    (0..n).map(|_| Ok(Decision(r.u32()?))).collect()
}

fn proof(r: &mut Reader<'_>) -> Result<Option<i8>, BookError> {
    match r.u8()? {
        0 => Ok(None),
        c @ 1..=3 => Ok(Some(c as i8 - 2)),
        c => Err(r.corrupt(format!("proof code {c}"))),
    }
}

/// A node as the file holds it, before its position is replayed.
struct Raw {
    key: u64,
    via: Option<(u32, u32)>,
    searches: u32,
    visits: u64,
    other: Option<Other>,
    edges: Vec<Edge>,
}

/// Reads a book image: the bytes (magic, version, checksum, every field's range), then the
/// book itself (its game, every position replayed from the start to its key, every move
/// legal and reaching its child).
pub fn decode<G: GameState>(bytes: &[u8]) -> Result<Book<G>, BookError> {
    if bytes.len() < 8 || bytes[..8] != MAGIC {
        return Err(BookError::BadMagic);
    }
    if bytes.len() < 20 {
        return Err(BookError::Truncated {
            offset: bytes.len(),
        });
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    let version = u32::from_le_bytes(body[8..12].try_into().expect("4 bytes"));
    if !(OLDEST..=VERSION).contains(&version) {
        return Err(BookError::UnsupportedVersion { found: version });
    }
    if fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err(BookError::Checksum);
    }
    let mut r = Reader::new(body, 12);
    let game = string(&mut r, "game name")?;
    if game != G::NAME {
        return Err(BookError::WrongGame {
            found: game,
            expected: G::NAME,
        });
    }
    let start = string(&mut r, "start")?;
    let agent = string(&mut r, "agent")?;
    let simulations = r.u32()?;
    let search_at = r.offset();
    let search = string(&mut r, "search settings")?;
    crate::SearchConfig::from_toml_str(&search, "the book's [search]").map_err(|e| {
        BookError::Corrupt {
            offset: search_at,
            what: e.to_string(),
        }
    })?;
    let config_at = r.offset();
    let config_text = string(&mut r, "book settings")?;
    let config = BookConfig::from_toml_str(&config_text, "the book's [book]").map_err(|e| {
        BookError::Corrupt {
            offset: config_at,
            what: e.to_string(),
        }
    })?;
    let max_turns = r.u32()?;
    let seed = r.u64()?;
    let searches = r.u64()?;
    // A node takes at least 41 bytes: the count is checked before anything is allocated.
    let count = r.count(41)?;
    let mut raws = Vec::with_capacity(count);
    for i in 0..count {
        raws.push(read_node(&mut r, i, count)?);
    }
    if r.left() != 0 {
        return Err(r.corrupt("bytes after the last node"));
    }
    let spec: G::Start = serde_json::from_str(&start)
        .map_err(|e| BookError::Header(format!("start {start}: {e}")))?;
    let state =
        G::from_start(&spec).map_err(|e| BookError::Header(format!("start {start}: {e}")))?;
    let header = BookHeader {
        game,
        start,
        agent,
        simulations,
        search,
        config,
        max_turns,
        seed,
    };
    if version < VERSION && state.position_hash() != state.state_hash() {
        return Err(BookError::Header(format!(
            "a version-{version} book of {} keys positions with the draw rule's history, which \
             this build leaves out to merge transpositions: grow the book again",
            G::NAME
        )));
    }
    rebuild(Book::new(header, state), raws, searches)
}

/// Node `i` of a book of `count` nodes as the file holds it: key, first parent, counts, the
/// other-moves entry and the moves.
fn read_node(r: &mut Reader<'_>, i: usize, count: usize) -> Result<Raw, BookError> {
    let key = r.u64()?;
    let (p, e) = (r.u32()?, r.u32()?);
    let via = match (i, p, e) {
        (0, NONE, NONE) => None,
        (0, _, _) => return Err(r.corrupt("the root has a parent")),
        (_, NONE, _) | (_, _, NONE) => {
            return Err(r.corrupt(format!("node {i} has no parent")));
        }
        (_, p, _) if p as usize >= i => {
            return Err(r.corrupt(format!("node {i} is first reached from later node {p}")));
        }
        (_, p, e) => Some((p, e)),
    };
    let searches = r.u32()?;
    let visits = r.u64()?;
    let other = match r.u8()? {
        0 => None,
        1 => Some(Other {
            turn: turn(r)?,
            prior: r.f32_in(0.0, 1.0, "prior")?,
            value: r.f32_in(-1.0, 1.0, "value")?,
            visits: r.u32()?,
            proven: proof(r)?,
        }),
        c => return Err(r.corrupt(format!("other-moves flag {c}"))),
    };
    let n_edges = r.count(14)?;
    let mut edges = Vec::with_capacity(n_edges);
    for _ in 0..n_edges {
        let turn = turn(r)?;
        let child = r.u32()?;
        if child as usize >= count {
            return Err(r.corrupt(format!(
                "node {i}: a move to node {child} of a book of {count}"
            )));
        }
        edges.push(Edge {
            turn,
            child,
            sym: r.u16()?,
            prior: r.f32_in(0.0, 1.0, "prior")?,
        });
    }
    Ok(Raw {
        key,
        via,
        searches,
        visits,
        other,
        edges,
    })
}

/// The state `turn` reaches from `state` in its canonical orientation, with its key and
/// symmetry; `Err` saying why when the move is not a legal complete move.
fn reach<G: GameState>(state: &G, turn: &[Decision]) -> Result<(G, u64, u16), String> {
    let mut s = state.clone();
    for (k, &d) in turn.iter().enumerate() {
        if k > 0 && (s.at_turn_start() || s.is_over()) {
            return Err(format!("move {turn:?} goes on after its turn ended"));
        }
        s.apply(d)
            .map_err(|e| format!("move {turn:?}: decision {k}: {e}"))?;
    }
    if turn.is_empty() || !(s.at_turn_start() || s.is_over()) {
        return Err(format!("move {turn:?} is not a whole turn"));
    }
    let (canon, c) = canonical_state(&s);
    Ok((canon, c.key, c.sym as u16))
}

/// The book of `raws` on `book`'s root: each node's position replayed along the move that
/// first reached it, then every move checked to reach its child.
fn rebuild<G: GameState>(
    mut book: Book<G>,
    raws: Vec<Raw>,
    searches: u64,
) -> Result<Book<G>, BookError> {
    let bad = |node: usize, what: String| BookError::Replay {
        node: node as u32,
        what,
    };
    if raws.first().map(|r| r.key) != Some(book.nodes[0].key) {
        return Err(bad(0, "the root is not the start's position".into()));
    }
    book.nodes.clear();
    book.index.clear();
    book.by_position.clear();
    for (i, raw) in raws.iter().enumerate() {
        let (state, key) = match raw.via {
            None => (book.start.clone(), raw.key),
            Some((p, e)) => {
                let edge = raws[p as usize].edges.get(e as usize).ok_or_else(|| {
                    bad(
                        i,
                        format!("first reached by move {e} of node {p}, which has fewer"),
                    )
                })?;
                if edge.child as usize != i {
                    return Err(bad(
                        i,
                        format!("move {e} of node {p} leads to node {}", edge.child),
                    ));
                }
                let (state, key, _) =
                    reach(&book.nodes[p as usize].state, &edge.turn).map_err(|w| bad(i, w))?;
                (state, key)
            }
        };
        let (state, key) = if raw.via.is_none() {
            let (canon, c) = canonical_state(&state);
            (canon, c.key)
        } else {
            (state, key)
        };
        if key != raw.key {
            return Err(bad(
                i,
                format!(
                    "its line reaches key {key:#018x}, the file says {:#018x}",
                    raw.key
                ),
            ));
        }
        if book.index.contains_key(&key) {
            return Err(bad(i, format!("key {key:#018x} is another node's")));
        }
        let mut node = Node::new(key, state, raw.via);
        node.searches = raw.searches;
        node.visits = raw.visits;
        node.other = raw.other.clone();
        book.push_node(node);
    }
    for (i, raw) in raws.into_iter().enumerate() {
        check_moves(&book, i, &raw).map_err(|what| bad(i, what))?;
        book.nodes[i].edges = raw.edges;
    }
    book.searches = searches;
    book.recompute();
    Ok(book)
}

/// Every move of node `i` (`raw`) reaches its child by its symmetry, and its other move (if
/// any) is legal; `Err` saying what is wrong.
fn check_moves<G: GameState>(book: &Book<G>, i: usize, raw: &Raw) -> Result<(), String> {
    for (k, e) in raw.edges.iter().enumerate() {
        let (_, key, sym) =
            reach(&book.nodes[i].state, &e.turn).map_err(|w| format!("move {k}: {w}"))?;
        if key != book.nodes[e.child as usize].key || sym != e.sym {
            return Err(format!(
                "move {k} does not reach node {} by symmetry {}",
                e.child, e.sym
            ));
        }
    }
    if let Some(o) = &raw.other {
        reach(&book.nodes[i].state, &o.turn).map_err(|w| format!("its other move: {w}"))?;
    }
    Ok(())
}
