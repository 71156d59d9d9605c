//! Move notation (RULES.md section 6): parse and print complete moves in the per-player frame
//! (each player's own view: White's board is rotated by 180°) or the absolute frame.
//!
//! Parsing and printing work in the *writer's view*: the position rotated into the writer's
//! frame. The rules are symmetric under that rotation, so a move is resolved and checked in the
//! view and then rotated back into the absolute frame in which the engine stores moves.

use crate::board::Board;
use crate::game::Game;
use crate::geom::{Color, Cut, Dir, Piece, Rect};
use crate::moves::{Base, Move, Swap};
use std::fmt;

/// The frame a move is written in (RULES.md section 6).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum Frame {
    /// Each player in their own frame: Black absolute, White rotated by 180° (the default).
    #[default]
    PerPlayer,
    /// Both players in Black's frame.
    Absolute,
}

impl Frame {
    pub fn name(self) -> &'static str {
        match self {
            Frame::PerPlayer => "per-player",
            Frame::Absolute => "absolute",
        }
    }
    pub fn from_name(s: &str) -> Option<Frame> {
        match s {
            "per-player" => Some(Frame::PerPlayer),
            "absolute" => Some(Frame::Absolute),
            _ => None,
        }
    }
    /// Does `writer` see the board rotated in this frame?
    pub fn rotates_for(self, writer: Color) -> bool {
        self == Frame::PerPlayer && writer == Color::White
    }
}

/// How positions are written on output.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PositionStyle {
    /// Canonical staircase (rule 6.1), the default.
    #[default]
    Staircase,
    /// Reduced fractions of the board side (rule 6.2).
    Fraction,
}

/// A move that could not be read: what is wrong, and where: the span is in characters
/// (0-based, end exclusive) of the input, as a person counts them; the parser works in byte
/// offsets and converts them once, where the error leaves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotationError {
    pub message: String,
    pub span: Option<(usize, usize)>,
}

impl NotationError {
    /// The error with its span turned from byte offsets into character offsets of `text`.
    fn in_chars(mut self, text: &str) -> NotationError {
        let chars = |b: usize| text.get(..b).map_or(b, |t| t.chars().count());
        self.span = self.span.map(|(a, b)| (chars(a), chars(b)));
        self
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.span {
            Some((a, b)) if b > a + 1 => {
                write!(f, "{} (at characters {}-{})", self.message, a + 1, b)
            }
            Some((a, _)) => write!(f, "{} (at character {})", self.message, a + 1),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for NotationError {}

fn err<T>(message: impl Into<String>, span: Option<(usize, usize)>) -> Result<T, NotationError> {
    Err(NotationError {
        message: message.into(),
        span,
    })
}

// ------------------------------------------------------------------------- the writer's view

/// The position seen from the writer's frame, with the boundary and corner maps that staircase
/// positions and join extents count on.
#[derive(Debug)]
pub struct View {
    game: Game,
    rotated: bool,
    g: u16,
    /// `corner[y * (g+1) + x]`: the grid point is a corner of some piece.
    corner: Vec<bool>,
    /// Canonical staircase of each point, computed on first use.
    stairs: Option<Vec<Option<Vec<u32>>>>,
}

impl View {
    /// The view of the player to move in `frame`.
    pub fn new(game: &Game, frame: Frame) -> View {
        let rotated = frame.rotates_for(game.to_move());
        let b = game.board();
        let g = b.grid_size();
        let vgame = if rotated {
            let pieces: Vec<Piece> = b
                .sorted_pieces()
                .into_iter()
                .map(|p| Piece {
                    rect: p.rect.rotated(g),
                    color: p.color,
                })
                .collect();
            let board = Board::from_valid_pieces(b.board_size(), b.resolution(), &pieces);
            Game::from_board(board, game.to_move(), game.outcome())
        } else {
            game.clone()
        };
        let gp = usize::from(g) + 1;
        let mut corner = vec![false; gp * gp];
        for p in vgame.board().sorted_pieces() {
            let r = p.rect;
            for (x, y) in [
                (r.x, r.y),
                (r.right(), r.y),
                (r.x, r.top()),
                (r.right(), r.top()),
            ] {
                corner[usize::from(y) * gp + usize::from(x)] = true;
            }
        }
        View {
            game: vgame,
            rotated,
            g,
            corner,
            stairs: None,
        }
    }

    #[inline]
    fn is_corner(&self, x: u16, y: u16) -> bool {
        self.corner[usize::from(y) * (usize::from(self.g) + 1) + usize::from(x)]
    }
    /// The unit segment from `(x, y)` to `(x+1, y)` lies on a piece side or the board edge.
    #[inline]
    fn h_open(&self, x: u16, y: u16) -> bool {
        let b = self.game.board();
        y == 0 || y == self.g || b.slot_at(x, y) != b.slot_at(x, y - 1)
    }
    /// The unit segment from `(x, y)` to `(x, y+1)` lies on a piece side or the board edge.
    #[inline]
    fn v_open(&self, x: u16, y: u16) -> bool {
        let b = self.game.board();
        x == 0 || x == self.g || b.slot_at(x, y) != b.slot_at(x - 1, y)
    }

    /// Walks `n` intersections from `(x, y)` rightwards or upwards along piece sides; `None`
    /// if the walk leaves the board or would cross the inside of a piece first.
    fn walk(&self, (mut x, mut y): (u16, u16), up: bool, n: u32) -> Option<(u16, u16)> {
        let mut seen = 0;
        while seen < n {
            if up {
                if y >= self.g || !self.v_open(x, y) {
                    return None;
                }
                y += 1;
            } else {
                if x >= self.g || !self.h_open(x, y) {
                    return None;
                }
                x += 1;
            }
            if self.is_corner(x, y) {
                seen += 1;
            }
        }
        Some((x, y))
    }

    /// Intersections between `(x, y)` and the point `len` units further right or up.
    fn count(&self, (x, y): (u16, u16), up: bool, len: u16) -> u32 {
        (1..=len)
            .filter(|&d| {
                if up {
                    self.is_corner(x, y + d)
                } else {
                    self.is_corner(x + d, y)
                }
            })
            .count() as u32
    }

    /// Canonical staircase (rule 6.1 Decision) of every point, by layers of path length: the
    /// first layer that reaches a point has the fewest numbers; within a layer the label with
    /// the smallest sum, then the smallest sequence, wins, and both orders are kept by
    /// extending paths, so the best label of each point per layer suffices.
    fn stairs(&mut self) -> &Vec<Option<Vec<u32>>> {
        if self.stairs.is_none() {
            let gp = usize::from(self.g) + 1;
            let mut best: Vec<Option<Vec<u32>>> = vec![None; gp * gp];
            let mut layer: Vec<Option<(u32, Vec<u32>)>> = vec![None; gp * gp];
            layer[0] = Some((0, vec![0]));
            // Layer 1: rightwards from the origin, the only move that may be 0.
            let mut n = 0;
            let mut p = (0u16, 0u16);
            while let Some(q) = self.walk(p, false, 1) {
                n += 1;
                layer[usize::from(q.1) * gp + usize::from(q.0)] = Some((n, vec![n]));
                p = q;
            }
            let mut remaining =
                self.corner.iter().filter(|&&c| c).count() + usize::from(!self.corner[0]);
            let mut up = true;
            for _ in 0..(4 * usize::from(self.g) + 4) {
                let mut any = false;
                for (i, l) in layer.iter().enumerate() {
                    if let Some((_, seq)) = l {
                        any = true;
                        if best[i].is_none() {
                            best[i] = Some(seq.clone());
                            remaining -= 1;
                        }
                    }
                }
                if !any || remaining == 0 {
                    break;
                }
                let mut next: Vec<Option<(u32, Vec<u32>)>> = vec![None; gp * gp];
                for (i, l) in layer.iter().enumerate() {
                    let Some((sum, seq)) = l else { continue };
                    let mut p = ((i % gp) as u16, (i / gp) as u16);
                    let mut k = 0;
                    while let Some(q) = self.walk(p, up, 1) {
                        k += 1;
                        p = q;
                        let j = usize::from(q.1) * gp + usize::from(q.0);
                        let cand_sum = sum + k;
                        let better = match &next[j] {
                            None => true,
                            Some((s2, q2)) => {
                                cand_sum < *s2
                                    || (cand_sum == *s2 && seq.iter().chain([&k]).lt(q2.iter()))
                            }
                        };
                        if better {
                            let mut s = seq.clone();
                            s.push(k);
                            next[j] = Some((cand_sum, s));
                        }
                    }
                }
                layer = next;
                up = !up;
            }
            self.stairs = Some(best);
        }
        self.stairs.as_ref().unwrap()
    }

    fn staircase_of(&mut self, (x, y): (u16, u16)) -> String {
        let gp = usize::from(self.g) + 1;
        match &self.stairs()[usize::from(y) * gp + usize::from(x)] {
            Some(seq) => seq
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(","),
            None => fraction_of(self.g, x, y), // unreachable in a valid tiling; never lose the move
        }
    }

    /// Rotation by 180° is its own inverse: this maps view to absolute and back.
    fn to_abs(&self, r: Rect) -> Rect {
        if self.rotated { r.rotated(self.g) } else { r }
    }
    fn dir_to(&self, d: Dir) -> Dir {
        if self.rotated { d.opposite() } else { d }
    }

    /// Converts a move between the absolute frame and this view (`to_view` chooses the
    /// direction); `src` is the game in the move's current frame.
    fn convert(&self, src: &Game, mv: &Move) -> Option<Move> {
        if !self.rotated {
            return Some(mv.clone());
        }
        let base = match mv.base {
            Base::Split { cut, first, count } => {
                let pieces = src.split_pieces(cut, first, count).ok()?;
                Base::Split {
                    cut,
                    first: self.to_abs(*pieces.last()?),
                    count,
                }
            }
            Base::Join { outline } => Base::Join {
                outline: self.to_abs(outline),
            },
        };
        let swap = mv.swap.as_ref().map(|s| Swap {
            from: self.to_abs(s.from),
            steps: s.steps.iter().map(|&d| self.dir_to(d)).collect(),
        });
        Some(Move { base, swap })
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn fraction(g: u16, v: u16) -> String {
    if v == 0 {
        return "0".into();
    }
    let d = gcd(u32::from(v), u32::from(g));
    format!("{}/{}", u32::from(v) / d, u32::from(g) / d)
}

fn fraction_of(g: u16, x: u16, y: u16) -> String {
    if y == 0 {
        fraction(g, x)
    } else {
        format!("{},{}", fraction(g, x), fraction(g, y))
    }
}

// ------------------------------------------------------------------------- printing

/// Prints moves of one position; reuses the view and its staircase map across moves.
#[derive(Debug)]
pub struct Formatter {
    view: View,
    style: PositionStyle,
}

impl Formatter {
    pub fn new(game: &Game, frame: Frame) -> Formatter {
        Formatter {
            view: View::new(game, frame),
            style: PositionStyle::Staircase,
        }
    }
    pub fn with_style(mut self, style: PositionStyle) -> Formatter {
        self.style = style;
        self
    }

    fn pos(&mut self, x: u16, y: u16) -> String {
        match self.style {
            PositionStyle::Staircase => self.view.staircase_of((x, y)),
            PositionStyle::Fraction => fraction_of(self.view.g, x, y),
        }
    }

    /// Canonical notation of a legal move (absolute frame) of the player to move; `abs` is
    /// the game the formatter was made for. Returns `None` if the move is not legal there.
    pub fn format(&mut self, abs: &Game, mv: &Move) -> Option<String> {
        let vm = self.view.convert(abs, mv)?;
        let mut out = String::new();
        match vm.base {
            Base::Split { cut, first, count } => {
                out += &self.pos(first.x, first.y);
                out.push(cut.letter());
                if count >= 2 {
                    out += &count.to_string();
                }
                if let Some(swap) = &vm.swap {
                    let pieces = self.view.game.split_pieces(cut, first, count).ok()?;
                    let idx = pieces.iter().position(|p| p.overlap_area(swap.from) > 0)?;
                    let (lo, _) = pieces[idx].halves(cut);
                    let half = match (cut, swap.from == lo) {
                        (Cut::H, true) => 'S',
                        (Cut::H, false) => 'N',
                        (Cut::V, true) => 'W',
                        (Cut::V, false) => 'E',
                    };
                    if count >= 2 {
                        out += &format!("-{}{half}-", idx + 1);
                    } else if self.first_step_takers(&vm, swap.steps[0])? > 1 {
                        out.push(half);
                        out.push('-');
                    }
                }
            }
            Base::Join { outline } => {
                out += &self.pos(outline.x, outline.y);
                let a = self.view.count((outline.x, outline.y), false, outline.w);
                let b = self
                    .view
                    .count((outline.right(), outline.y), true, outline.h);
                out += &format!("J{a},{b}");
            }
        }
        if let Some(swap) = &vm.swap {
            out.extend(swap.steps.iter().map(|d| d.letter()));
        }
        // Check the move really is legal before handing out a string for it.
        self.view.game.move_decisions(&vm).ok()?;
        Some(out)
    }

    /// Fresh pieces that could take a first step in `dir` just after the base of `vm`.
    fn first_step_takers(&self, vm: &Move, dir: Dir) -> Option<usize> {
        let mut g = self.view.game.clone();
        g.play_move(&Move {
            base: vm.base,
            swap: None,
        })
        .ok()?;
        // The split is done but the turn ended there; count from the board instead.
        let fresh = split_halves(&self.view.game, &vm.base)?;
        let b = g.board();
        Some(
            fresh
                .iter()
                .filter(|f| {
                    let slot = b.slot_with_corner(f.x, f.y).expect("fresh piece");
                    b.two_point_neighbour(slot, dir)
                        .is_some_and(|t| b.color(t) != self.view.game.to_move())
                })
                .count(),
        )
    }
}

/// The fresh pieces of a split base.
fn split_halves(game: &Game, base: &Base) -> Option<Vec<Rect>> {
    match *base {
        Base::Split { cut, first, count } => {
            let pieces = game.split_pieces(cut, first, count).ok()?;
            Some(
                pieces
                    .iter()
                    .flat_map(|p| {
                        let (a, b) = p.halves(cut);
                        [a, b]
                    })
                    .collect(),
            )
        }
        Base::Join { outline } => Some(vec![outline]),
    }
}

/// Canonical notation of a legal move (absolute frame) in `frame`, staircase positions.
/// Returns `None` if the move is not legal in `game`.
pub fn format_move(game: &Game, mv: &Move, frame: Frame) -> Option<String> {
    Formatter::new(game, frame).format(game, mv)
}

// ------------------------------------------------------------------------- parsing

#[derive(Clone, Copy, Debug)]
struct Tok {
    c: u8,
    at: usize,
}

struct Cursor<'a> {
    toks: &'a [Tok],
    i: usize,
    len: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.toks.get(self.i).map(|t| t.c)
    }
    fn at(&self) -> usize {
        self.toks.get(self.i).map_or(self.len, |t| t.at)
    }
    fn span_from(&self, i0: usize) -> Option<(usize, usize)> {
        let a = self.toks.get(i0).map_or(self.len, |t| t.at);
        let b = if self.i > i0 {
            self.toks[self.i - 1].at + 1
        } else {
            a + 1
        };
        Some((a, b))
    }
    fn number(&mut self) -> Option<(u32, (usize, usize))> {
        let i0 = self.i;
        let mut v: u64 = 0;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            v = (v * 10 + u64::from(c - b'0')).min(u64::from(u32::MAX));
            self.i += 1;
        }
        (self.i > i0).then(|| (v as u32, self.span_from(i0).unwrap()))
    }
}

enum PosSyntax {
    Stairs(Vec<u32>),
    Fraction { x: (u32, u32), y: (u32, u32) },
}

/// Parses `text` as a move of the player to move in `game`, written in `frame`.
pub fn parse_move(game: &Game, text: &str, frame: Frame) -> Result<Move, NotationError> {
    let view = View::new(game, frame);
    parse_in_view(&view, game, text)
}

/// Parses many moves of one position (reusing the view).
#[derive(Debug)]
pub struct Parser {
    view: View,
}

impl Parser {
    pub fn new(game: &Game, frame: Frame) -> Parser {
        Parser {
            view: View::new(game, frame),
        }
    }
    pub fn parse(&self, game: &Game, text: &str) -> Result<Move, NotationError> {
        parse_in_view(&self.view, game, text)
    }
}

fn lex(text: &str) -> Result<Vec<Tok>, NotationError> {
    let mut toks = Vec::new();
    for (at, ch) in text.char_indices() {
        if ch.is_whitespace() {
            continue;
        }
        let ok =
            ch.is_ascii_digit() || ch.is_ascii_uppercase() || matches!(ch, ',' | '/' | '-' | '+');
        if !ok {
            let why = if ch.is_ascii_lowercase() {
                format!("lower-case letter '{ch}': notation uses upper-case letters")
            } else if ch.is_numeric() {
                format!("'{ch}' is not an ASCII digit")
            } else {
                format!("unexpected character '{ch}'")
            };
            return err(why, Some((at, at + ch.len_utf8())));
        }
        toks.push(Tok { c: ch as u8, at });
    }
    Ok(toks)
}

/// A swap's piece as written: its staircase number and cell, the step letter, and where it
/// stands in the text.
type PieceSpec = (Option<(u32, (usize, usize))>, u8, usize);

fn parse_in_view(view: &View, game: &Game, text: &str) -> Result<Move, NotationError> {
    parse_in_view_bytes(view, game, text).map_err(|e| e.in_chars(text))
}

/// [`parse_in_view`] with errors spanning byte offsets.
fn parse_in_view_bytes(view: &View, game: &Game, text: &str) -> Result<Move, NotationError> {
    if game.is_over() {
        return err("the game is over: no move can be played", None);
    }
    if !game.at_turn_start() {
        return err("the game is in the middle of a turn", None);
    }
    let mut toks = lex(text)?;
    if toks.is_empty() {
        return err("empty move", None);
    }
    // Trailing annotation: at most one '+' or '++'.
    let plus = toks.iter().rev().take_while(|t| t.c == b'+').count();
    if plus > 2 {
        let t = toks[toks.len() - plus];
        return err(
            "at most '++' may end a move",
            Some((t.at, toks.last().unwrap().at + 1)),
        );
    }
    toks.truncate(toks.len() - plus);
    if let Some(t) = toks.iter().find(|t| t.c == b'+') {
        return err("'+' may only end a move", Some((t.at, t.at + 1)));
    }
    let mut cur = Cursor {
        toks: &toks,
        i: 0,
        len: text.len(),
    };

    // Position: everything up to the first letter.
    let pos_i0 = cur.i;
    let pos_end = toks
        .iter()
        .position(|t| t.c.is_ascii_uppercase())
        .unwrap_or(toks.len());
    let pos_text: String = toks[..pos_end].iter().map(|t| t.c as char).collect();
    let pos = parse_position(&mut cur, pos_end)?;
    let pos_span = cur.span_from(pos_i0);
    let g = view.g;
    let point = match pos {
        PosSyntax::Stairs(nums) => {
            let mut p = (0u16, 0u16);
            if nums != [0, 0] {
                for (k, &n) in nums.iter().enumerate() {
                    if n == 0 && k > 0 {
                        return err(
                            format!("staircase '{pos_text}': only the first number may be 0"),
                            pos_span,
                        );
                    }
                    p = view.walk(p, k % 2 == 1, n).ok_or_else(|| NotationError {
                        message: format!(
                            "staircase '{pos_text}': number {} ({n} {}) leaves the board or crosses a piece",
                            k + 1,
                            if k % 2 == 1 { "up" } else { "right" }
                        ),
                        span: pos_span,
                    })?;
                }
            }
            p
        }
        PosSyntax::Fraction { x, y } => {
            let unit = |(a, b): (u32, u32), axis: &str| -> Result<u16, NotationError> {
                let v = u64::from(a) * u64::from(g);
                if b == 0 || v % u64::from(b) != 0 || v / u64::from(b) >= u64::from(g) {
                    return err(
                        format!(
                            "fraction position '{pos_text}': {axis} = {a}/{b} is not a piece corner on this {g}-unit board"
                        ),
                        pos_span,
                    );
                }
                Ok((v / u64::from(b)) as u16)
            };
            (unit(x, "x")?, unit(y, "y")?)
        }
    };
    let vgame = &view.game;
    // A split names a piece; a join names its outline's corner, which a bad outline may not
    // share with any piece (then the join check below says what is wrong).
    let piece = vgame.board().piece_with_corner(point.0, point.1);
    let no_piece = || NotationError {
        message: format!("no piece has its lower-left corner at '{pos_text}'"),
        span: pos_span,
    };

    // Action.
    let act_at = cur.at();
    let act_i0 = cur.i;
    let (base, count_written) = match cur.peek() {
        Some(c @ (b'H' | b'V')) => {
            cur.i += 1;
            let cut = if c == b'H' { Cut::H } else { Cut::V };
            let count = match cur.number() {
                Some((k, span)) if k < 2 => {
                    return err(
                        format!("a long split counts at least 2 pieces, not {k}"),
                        Some(span),
                    );
                }
                Some((k, span)) => u16::try_from(k).map_err(|_| NotationError {
                    message: format!("split count {k} is too large"),
                    span: Some(span),
                })?,
                None => 1,
            };
            (
                Base::Split {
                    cut,
                    first: piece.ok_or_else(no_piece)?.rect,
                    count,
                },
                count >= 2,
            )
        }
        Some(b'J') => {
            cur.i += 1;
            let (a, sa) = cur.number().ok_or_else(|| NotationError {
                message: "'J' must be followed by 'a,b'".into(),
                span: Some((cur.at(), cur.at() + 1)),
            })?;
            if cur.peek() != Some(b',') {
                return err(
                    "a join's extent is written 'a,b'",
                    Some((cur.at(), cur.at() + 1)),
                );
            }
            cur.i += 1;
            let (bn, sb) = cur.number().ok_or_else(|| NotationError {
                message: "a join's extent is written 'a,b'".into(),
                span: Some((cur.at(), cur.at() + 1)),
            })?;
            let Some(right) = view.walk(point, false, a) else {
                return err(
                    format!("join: {a} intersections rightwards leave the board or cross a piece"),
                    Some(sa),
                );
            };
            let Some(top) = view.walk(right, true, bn) else {
                return err(
                    format!("join: {bn} intersections upwards leave the board or cross a piece"),
                    Some(sb),
                );
            };
            if a == 0 || bn == 0 {
                return err(
                    "a join's extent counts at least one intersection each way",
                    cur.span_from(act_i0),
                );
            }
            let outline = Rect::new(point.0, point.1, top.0 - point.0, top.1 - point.1);
            (Base::Join { outline }, false)
        }
        Some(c) => {
            return err(
                format!(
                    "expected H, V or J after the position, found '{}'",
                    c as char
                ),
                Some((act_at, act_at + 1)),
            );
        }
        None => {
            return err(
                "the move has a position but no split or join (H, V or J)",
                None,
            );
        }
    };
    let act_span = cur.span_from(act_i0);
    // Check the base alone first, for a precise message.
    vgame
        .move_decisions(&Move { base, swap: None })
        .map_err(|e| NotationError {
            message: e.to_string(),
            span: act_span,
        })?;

    // Swap.
    let rest_i0 = cur.i;
    let rest: Vec<Tok> = toks[cur.i..].to_vec();
    let dash = rest.iter().position(|t| t.c == b'-');
    let mut piece_spec: Option<PieceSpec> = None;
    let steps_from;
    match (base, dash) {
        (_, None) => steps_from = cur.i,
        (Base::Join { .. }, Some(d)) => {
            return err(
                "a join's swap names no piece: no '-'",
                Some((rest[d].at, rest[d].at + 1)),
            );
        }
        (Base::Split { .. }, Some(_)) => {
            let mut number = None;
            if cur.peek() == Some(b'-') {
                if !count_written {
                    return err(
                        "the '-number half-' form is only for a long split",
                        Some((cur.at(), cur.at() + 1)),
                    );
                }
                cur.i += 1;
                number = Some(cur.number().ok_or_else(|| NotationError {
                    message: "a long split's swap names the piece: '-number half-'".into(),
                    span: Some((cur.at(), cur.at() + 1)),
                })?);
            } else if count_written {
                return err(
                    "a long split's swap names the piece as '-number half-'",
                    Some((cur.at(), cur.at() + 1)),
                );
            }
            let half_at = cur.at();
            let Some(h) = cur.peek().filter(|c| c.is_ascii_uppercase()) else {
                return err(
                    "expected a half (N, S, E or W) before '-'",
                    Some((half_at, half_at + 1)),
                );
            };
            cur.i += 1;
            if cur.peek() != Some(b'-') {
                return err(
                    "a half is one letter followed by '-'",
                    Some((cur.at(), cur.at() + 1)),
                );
            }
            cur.i += 1;
            piece_spec = Some((number, h, half_at));
            steps_from = cur.i;
        }
    }
    let _ = rest_i0;
    let mut steps = Vec::new();
    for t in &toks[steps_from..] {
        match Dir::from_letter(t.c as char) {
            Some(d) => steps.push(d),
            None => {
                return err(
                    format!(
                        "expected a swap step (N, E, S or W), found '{}'",
                        t.c as char
                    ),
                    Some((t.at, t.at + 1)),
                );
            }
        }
    }
    if piece_spec.is_some() && steps.is_empty() {
        return err(
            "'-' must be followed by at least one swap step",
            Some((text.len().saturating_sub(1), text.len())),
        );
    }
    if steps.is_empty() && piece_spec.is_none() {
        return Ok(view_to_abs(view, game, &Move { base, swap: None }));
    }
    let steps_span = toks
        .get(steps_from)
        .map(|t| (t.at, toks.last().unwrap().at + 1));

    // Which fresh piece swaps.
    let candidates: Vec<Rect> = match (base, piece_spec) {
        (Base::Join { outline }, _) => vec![outline],
        (Base::Split { cut, first, count }, Some((number, h, half_at))) => {
            let pieces = vgame
                .split_pieces(cut, first, count)
                .expect("checked above");
            let idx = match number {
                Some((k, span)) => {
                    if k == 0 || k as usize > pieces.len() {
                        return err(
                            format!(
                                "piece number {k} is not one of the {} split pieces",
                                pieces.len()
                            ),
                            Some(span),
                        );
                    }
                    k as usize - 1
                }
                None => 0,
            };
            let (lo, hi) = pieces[idx].halves(cut);
            let pick = match (cut, h) {
                (Cut::H, b'S') | (Cut::V, b'W') => lo,
                (Cut::H, b'N') | (Cut::V, b'E') => hi,
                _ => {
                    return err(
                        format!(
                            "'{}' is not a half of a {} cut (use {})",
                            h as char,
                            if cut == Cut::H {
                                "horizontal"
                            } else {
                                "vertical"
                            },
                            if cut == Cut::H { "N or S" } else { "E or W" }
                        ),
                        Some((half_at, half_at + 1)),
                    );
                }
            };
            vec![pick]
        }
        (b @ Base::Split { .. }, None) => split_halves(vgame, &b).expect("checked above"),
    };
    let mut ok: Vec<Move> = Vec::new();
    let mut first_err = None;
    for from in candidates {
        let mv = Move {
            base,
            swap: Some(Swap {
                from,
                steps: steps.clone(),
            }),
        };
        match vgame.move_decisions(&mv) {
            Ok(_) => ok.push(mv),
            Err(e) => {
                // Report the candidate that got furthest: one whose first step is legal.
                let first_step = Move {
                    base,
                    swap: Some(Swap {
                        from,
                        steps: steps[..1].to_vec(),
                    }),
                };
                if first_err.is_none() || vgame.move_decisions(&first_step).is_ok() {
                    first_err = Some(e);
                }
            }
        }
    }
    match ok.len() {
        1 => Ok(view_to_abs(view, game, &ok[0])),
        0 => {
            let e = first_err.expect("at least one candidate");
            let which = if matches!(base, Base::Split { .. }) && piece_spec.is_none() {
                " from either half"
            } else {
                ""
            };
            err(format!("illegal swap{which}: {e}"), steps_span)
        }
        _ => err(
            "both halves can make this swap: name the half, as in 'HN-...'",
            steps_span,
        ),
    }
}

fn parse_position(cur: &mut Cursor<'_>, end: usize) -> Result<PosSyntax, NotationError> {
    let i0 = cur.i;
    let toks = &cur.toks[i0..end];
    if toks.is_empty() {
        return err(
            "the move must start with a position",
            Some((cur.at(), cur.at() + 1)),
        );
    }
    let span = Some((toks[0].at, toks.last().unwrap().at + 1));
    let text: String = toks.iter().map(|t| t.c as char).collect();
    let parse_num = |s: &str| -> Result<u32, NotationError> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return err(format!("position '{text}' is malformed"), span);
        }
        s.parse::<u32>().map_err(|_| NotationError {
            message: format!("number '{s}' is too large"),
            span,
        })
    };
    cur.i = end;
    if text.contains('/') {
        let parts: Vec<&str> = text.split(',').collect();
        if parts.len() > 2 {
            return err(
                format!("fraction position '{text}' has more than two coordinates"),
                span,
            );
        }
        let frac = |s: &str| -> Result<(u32, u32), NotationError> {
            match s.split_once('/') {
                Some((a, b)) => {
                    let (a, b) = (parse_num(a)?, parse_num(b)?);
                    if b == 0 {
                        return err(format!("fraction position '{text}' divides by zero"), span);
                    }
                    Ok((a, b))
                }
                None => Ok((parse_num(s)?, 1)),
            }
        };
        let x = frac(parts[0])?;
        let y = if parts.len() == 2 {
            frac(parts[1])?
        } else {
            (0, 1)
        };
        Ok(PosSyntax::Fraction { x, y })
    } else {
        let nums = text
            .split(',')
            .map(parse_num)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PosSyntax::Stairs(nums))
    }
}

fn view_to_abs(view: &View, game: &Game, vm: &Move) -> Move {
    let _ = game;
    view.convert(&view.game, vm)
        .expect("a move legal in the view converts")
}

/// The move `mv` (absolute) as seen in the writer's view of `game` in `frame`; for tests.
pub fn to_view_move(game: &Game, mv: &Move, frame: Frame) -> Option<Move> {
    let view = View::new(game, frame);
    view.convert(game, mv)
}
