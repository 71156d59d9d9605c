//! Move notation (RULES.md section 6): parse and print complete moves in the per-player frame
//! (each player's own view: White's board is rotated by 180°) or the absolute frame.
//!
//! Parsing and printing work in the *writer's view*: the position rotated into the writer's
//! frame. The rules are symmetric under that rotation, so a move is resolved and checked in the
//! view and then rotated back into the absolute frame in which the engine stores moves.

use crate::game::Color;
use crate::game::named::named_enum;
use crate::games::crumble::board::Board;
use crate::games::crumble::game::Crumble;
use crate::games::crumble::geom::{Cut, Dir, Piece, Rect};
use crate::games::crumble::moves::{Base, Move, Swap};
use std::fmt;

named_enum! {
    /// The frame a move is written in (RULES.md section 6).
    #[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
    pub enum Frame {
        /// Each player in their own frame: Black absolute, White rotated by 180° (the default).
        #[default]
        PerPlayer,
        /// Both players in Black's frame.
        Absolute,
    }
}

impl Frame {
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
    game: Crumble,
    rotated: bool,
    g: u16,
    /// `corner[y * (g+1) + x]`: the grid point is a corner of some piece.
    corner: Vec<bool>,
    /// Canonical staircase of each point, computed on first use.
    stairs: Option<Vec<Option<Vec<u32>>>>,
}

impl View {
    /// The view of the player to move in `frame`.
    pub fn new(game: &Crumble, frame: Frame) -> View {
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
            Crumble::from_board(board, game.to_move(), game.outcome())
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
    fn convert(&self, src: &Crumble, mv: &Move) -> Option<Move> {
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
    pub fn new(game: &Crumble, frame: Frame) -> Formatter {
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
    pub fn format(&mut self, abs: &Crumble, mv: &Move) -> Option<String> {
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
fn split_halves(game: &Crumble, base: &Base) -> Option<Vec<Rect>> {
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
pub fn format_move(game: &Crumble, mv: &Move, frame: Frame) -> Option<String> {
    Formatter::new(game, frame).format(game, mv)
}

// ------------------------------------------------------------------------- parsing
//
// The grammar of a move (RULES.md section 6), after whitespace is dropped:
//
//     move       = position action [swap] [annotation]
//     position   = staircase | fraction                 (6.1, 6.2: up to the first letter)
//     action     = ("H" | "V") [count] | "J" a "," b     (6.3, 6.4)
//     swap       = [["-" number] half "-"] step {step}   (6.5: "-number" after a long split)
//     annotation = "+" | "++"                            (6.6)
//
// One function reads each production, in this order; each reports its own errors, so the
// order of the checks (and so which error a bad move gets) follows the text.

/// Where in the text (byte offsets, end exclusive) an error points, if anywhere.
type Span = Option<(usize, usize)>;

/// One character of the move (whitespace dropped) and its byte offset in the text.
#[derive(Clone, Copy, Debug)]
struct Tok {
    c: u8,
    at: usize,
}

/// The move's characters and how far the productions read so far have come.
struct Cursor<'a> {
    toks: &'a [Tok],
    i: usize,
    /// The text's length in bytes: where errors at the end of the move point.
    len: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.toks.get(self.i).map(|t| t.c)
    }
    /// The byte offset of the character at the cursor (the text's end past the last).
    fn at(&self) -> usize {
        self.toks.get(self.i).map_or(self.len, |t| t.at)
    }
    /// The span of the one character at the cursor (or just past the end).
    fn here(&self) -> Span {
        Some((self.at(), self.at() + 1))
    }
    /// The span of the characters from token `i0` up to the cursor (at least one).
    fn span_from(&self, i0: usize) -> Span {
        let a = self.toks.get(i0).map_or(self.len, |t| t.at);
        let b = if self.i > i0 {
            self.toks[self.i - 1].at + 1
        } else {
            a + 1
        };
        Some((a, b))
    }
    /// A run of digits, saturating at `u32::MAX`, and its span.
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

/// A position's numbers as written, before they are resolved on the board.
enum PosSyntax {
    Stairs(Vec<u32>),
    Fraction { x: (u32, u32), y: (u32, u32) },
}

/// A position as written and the grid point of the view it names.
struct WrittenPos {
    point: (u16, u16),
    /// The position's text without whitespace, and its span, for messages.
    text: String,
    span: Span,
}

/// The swapping piece as a split's swap names it, `[-number] half -`: the piece's number
/// along a long split and its span, the half's letter, and where that letter stands.
struct PieceSpec {
    number: Option<(u32, (usize, usize))>,
    half: u8,
    half_at: usize,
}

/// Parses `text` as a move of the player to move in `game`, written in `frame`.
pub fn parse_move(game: &Crumble, text: &str, frame: Frame) -> Result<Move, NotationError> {
    let view = View::new(game, frame);
    parse_in_view(&view, game, text)
}

/// Parses many moves of one position (reusing the view).
#[derive(Debug)]
pub struct Parser {
    view: View,
}

impl Parser {
    pub fn new(game: &Crumble, frame: Frame) -> Parser {
        Parser {
            view: View::new(game, frame),
        }
    }
    pub fn parse(&self, game: &Crumble, text: &str) -> Result<Move, NotationError> {
        parse_in_view(&self.view, game, text)
    }
}

/// A whole move read in `view`, with error spans in characters.
fn parse_in_view(view: &View, game: &Crumble, text: &str) -> Result<Move, NotationError> {
    parse_in_view_bytes(view, game, text).map_err(|e| e.in_chars(text))
}

/// [`parse_in_view`] with errors spanning byte offsets: the `move` production.
fn parse_in_view_bytes(view: &View, game: &Crumble, text: &str) -> Result<Move, NotationError> {
    check_turn_start(game)?;
    let toks = move_tokens(text)?;
    let mut cur = Cursor {
        toks: &toks,
        i: 0,
        len: text.len(),
    };
    let pos = read_position(view, &mut cur)?;
    let act_i0 = cur.i;
    let (base, count_written) = read_action(view, &mut cur, &pos)?;
    // Check the base alone first, for a precise message.
    view.game
        .move_decisions(&Move { base, swap: None })
        .map_err(|e| NotationError {
            message: e.to_string(),
            span: cur.span_from(act_i0),
        })?;
    let spec = read_swap_piece(&mut cur, base, count_written)?;
    let (steps, steps_span) = read_steps(&mut cur)?;
    if spec.is_some() && steps.is_empty() {
        return err(
            "'-' must be followed by at least one swap step",
            Some((text.len().saturating_sub(1), text.len())),
        );
    }
    if steps.is_empty() {
        return Ok(view_to_abs(view, game, &Move { base, swap: None }));
    }
    let candidates = swap_candidates(&view.game, base, spec.as_ref())?;
    let named = spec.is_some();
    resolve_swap(view, game, base, &candidates, &steps, named, steps_span)
}

/// Moves are read only at the start of a turn of a game that goes on.
fn check_turn_start(game: &Crumble) -> Result<(), NotationError> {
    if game.is_over() {
        return err("the game is over: no move can be played", None);
    }
    if !game.at_turn_start() {
        return err("the game is in the middle of a turn", None);
    }
    Ok(())
}

/// The characters of a move, checked (rule 6.8) and without whitespace or the trailing
/// annotation (rule 6.6), which only comments on the move.
fn move_tokens(text: &str) -> Result<Vec<Tok>, NotationError> {
    let mut toks = lex(text)?;
    if toks.is_empty() {
        return err("empty move", None);
    }
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
    Ok(toks)
}

/// The lexical rules (rule 6.8): ASCII digits, upper-case letters and `,/-+`, whitespace
/// skipped; one token per character.
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

/// The `position` production: everything up to the first letter, read as a staircase or
/// a fraction and resolved to a grid point of the view.
fn read_position(view: &View, cur: &mut Cursor<'_>) -> Result<WrittenPos, NotationError> {
    let end = cur.i
        + cur.toks[cur.i..]
            .iter()
            .position(|t| t.c.is_ascii_uppercase())
            .unwrap_or(cur.toks.len() - cur.i);
    let (syntax, text, span) = position_syntax(cur, end)?;
    let point = match syntax {
        PosSyntax::Stairs(nums) => staircase_point(view, &nums, &text, span)?,
        PosSyntax::Fraction { x, y } => (
            fraction_unit(view.g, x, "x", &text, span)?,
            fraction_unit(view.g, y, "y", &text, span)?,
        ),
    };
    Ok(WrittenPos { point, text, span })
}

/// The position's characters (up to `end`) as numbers: a fraction `x[,y]` if a `/` is
/// among them (rule 6.2), otherwise a staircase `a,b,...` (rule 6.1); with the text and
/// span they were read from.
fn position_syntax(
    cur: &mut Cursor<'_>,
    end: usize,
) -> Result<(PosSyntax, String, Span), NotationError> {
    let toks = &cur.toks[cur.i..end];
    if toks.is_empty() {
        return err("the move must start with a position", cur.here());
    }
    let span = Some((toks[0].at, toks.last().unwrap().at + 1));
    let text: String = toks.iter().map(|t| t.c as char).collect();
    cur.i = end;
    let syntax = if text.contains('/') {
        let parts: Vec<&str> = text.split(',').collect();
        if parts.len() > 2 {
            return err(
                format!("fraction position '{text}' has more than two coordinates"),
                span,
            );
        }
        let x = fraction_syntax(parts[0], &text, span)?;
        let y = match parts.get(1) {
            Some(p) => fraction_syntax(p, &text, span)?,
            None => (0, 1),
        };
        PosSyntax::Fraction { x, y }
    } else {
        let nums = text
            .split(',')
            .map(|s| position_number(s, &text, span))
            .collect::<Result<Vec<_>, _>>()?;
        PosSyntax::Stairs(nums)
    };
    Ok((syntax, text, span))
}

/// One coordinate of a fraction position, `a/b` or a whole `a`.
fn fraction_syntax(s: &str, text: &str, span: Span) -> Result<(u32, u32), NotationError> {
    match s.split_once('/') {
        Some((a, b)) => {
            let (a, b) = (
                position_number(a, text, span)?,
                position_number(b, text, span)?,
            );
            if b == 0 {
                return err(format!("fraction position '{text}' divides by zero"), span);
            }
            Ok((a, b))
        }
        None => Ok((position_number(s, text, span)?, 1)),
    }
}

/// One number of a position; `text` is the whole position, for the message.
fn position_number(s: &str, text: &str, span: Span) -> Result<u32, NotationError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return err(format!("position '{text}' is malformed"), span);
    }
    s.parse::<u32>().map_err(|_| NotationError {
        message: format!("number '{s}' is too large"),
        span,
    })
}

/// The point a staircase reaches (rule 6.1): right, up, right, ... counting intersections.
fn staircase_point(
    view: &View,
    nums: &[u32],
    text: &str,
    span: Span,
) -> Result<(u16, u16), NotationError> {
    let mut p = (0u16, 0u16);
    // `0,0` is the origin, though no later number may be 0 otherwise.
    if nums == [0, 0] {
        return Ok(p);
    }
    for (k, &n) in nums.iter().enumerate() {
        if n == 0 && k > 0 {
            return err(
                format!("staircase '{text}': only the first number may be 0"),
                span,
            );
        }
        let up = k % 2 == 1;
        p = view.walk(p, up, n).ok_or_else(|| NotationError {
            message: format!(
                "staircase '{text}': number {} ({n} {}) leaves the board or crosses a piece",
                k + 1,
                if up { "up" } else { "right" }
            ),
            span,
        })?;
    }
    Ok(p)
}

/// One coordinate of a fraction position in board units: it must fall on the grid.
fn fraction_unit(
    g: u16,
    (a, b): (u32, u32),
    axis: &str,
    text: &str,
    span: Span,
) -> Result<u16, NotationError> {
    let v = u64::from(a) * u64::from(g);
    if b == 0 || v % u64::from(b) != 0 || v / u64::from(b) >= u64::from(g) {
        return err(
            format!(
                "fraction position '{text}': {axis} = {a}/{b} is not a piece corner on this {g}-unit board"
            ),
            span,
        );
    }
    Ok((v / u64::from(b)) as u16)
}

/// The `action` production: a split or a join at `pos`; also whether a split's count was
/// written, which decides how its swap must name the piece.
fn read_action(
    view: &View,
    cur: &mut Cursor<'_>,
    pos: &WrittenPos,
) -> Result<(Base, bool), NotationError> {
    match cur.peek() {
        Some(c @ (b'H' | b'V')) => {
            cur.i += 1;
            let cut = if c == b'H' { Cut::H } else { Cut::V };
            let count = read_split_count(cur)?;
            // A split names a piece by its corner; a join names its outline's corner, which
            // a bad outline may not share with any piece (the rules then say what is wrong).
            let Some(piece) = view
                .game
                .board()
                .piece_with_corner(pos.point.0, pos.point.1)
            else {
                return err(
                    format!("no piece has its lower-left corner at '{}'", pos.text),
                    pos.span,
                );
            };
            let first = piece.rect;
            Ok((Base::Split { cut, first, count }, count >= 2))
        }
        Some(b'J') => Ok((read_join(view, cur, pos.point)?, false)),
        Some(c) => err(
            format!(
                "expected H, V or J after the position, found '{}'",
                c as char
            ),
            cur.here(),
        ),
        None => err(
            "the move has a position but no split or join (H, V or J)",
            None,
        ),
    }
}

/// A split's optional count `k` (rule 6.3): a long split of `k ≥ 2` pieces; 1 if absent.
fn read_split_count(cur: &mut Cursor<'_>) -> Result<u16, NotationError> {
    match cur.number() {
        Some((k, span)) if k < 2 => err(
            format!("a long split counts at least 2 pieces, not {k}"),
            Some(span),
        ),
        Some((k, span)) => u16::try_from(k).map_err(|_| NotationError {
            message: format!("split count {k} is too large"),
            span: Some(span),
        }),
        None => Ok(1),
    }
}

/// A join `J a,b` (rule 6.4) from the outline's lower-left corner `point`: `a`
/// intersections rightwards, then `b` upwards, reach its upper-right corner.
fn read_join(view: &View, cur: &mut Cursor<'_>, point: (u16, u16)) -> Result<Base, NotationError> {
    let i0 = cur.i;
    cur.i += 1;
    let (a, sa) = cur.number().ok_or_else(|| NotationError {
        message: "'J' must be followed by 'a,b'".into(),
        span: cur.here(),
    })?;
    if cur.peek() != Some(b',') {
        return err("a join's extent is written 'a,b'", cur.here());
    }
    cur.i += 1;
    let (b, sb) = cur.number().ok_or_else(|| NotationError {
        message: "a join's extent is written 'a,b'".into(),
        span: cur.here(),
    })?;
    let Some(right) = view.walk(point, false, a) else {
        return err(
            format!("join: {a} intersections rightwards leave the board or cross a piece"),
            Some(sa),
        );
    };
    let Some(top) = view.walk(right, true, b) else {
        return err(
            format!("join: {b} intersections upwards leave the board or cross a piece"),
            Some(sb),
        );
    };
    if a == 0 || b == 0 {
        return err(
            "a join's extent counts at least one intersection each way",
            cur.span_from(i0),
        );
    }
    let outline = Rect::new(point.0, point.1, top.0 - point.0, top.1 - point.1);
    Ok(Base::Join { outline })
}

/// The piece part of the `swap` production, `[-number] half -` (rule 6.5): present when a
/// `-` follows; a join's swap has none (its one fresh piece swaps).
fn read_swap_piece(
    cur: &mut Cursor<'_>,
    base: Base,
    count_written: bool,
) -> Result<Option<PieceSpec>, NotationError> {
    let Some(dash) = cur.toks[cur.i..].iter().find(|t| t.c == b'-') else {
        return Ok(None);
    };
    if let Base::Join { .. } = base {
        return err(
            "a join's swap names no piece: no '-'",
            Some((dash.at, dash.at + 1)),
        );
    }
    let mut number = None;
    if cur.peek() == Some(b'-') {
        if !count_written {
            return err(
                "the '-number half-' form is only for a long split",
                cur.here(),
            );
        }
        cur.i += 1;
        number = Some(cur.number().ok_or_else(|| NotationError {
            message: "a long split's swap names the piece: '-number half-'".into(),
            span: cur.here(),
        })?);
    } else if count_written {
        return err(
            "a long split's swap names the piece as '-number half-'",
            cur.here(),
        );
    }
    let half_at = cur.at();
    let Some(half) = cur.peek().filter(|c| c.is_ascii_uppercase()) else {
        return err(
            "expected a half (N, S, E or W) before '-'",
            Some((half_at, half_at + 1)),
        );
    };
    cur.i += 1;
    if cur.peek() != Some(b'-') {
        return err("a half is one letter followed by '-'", cur.here());
    }
    cur.i += 1;
    Ok(Some(PieceSpec {
        number,
        half,
        half_at,
    }))
}

/// The steps of the `swap` production: the rest of the move, one direction letter each;
/// with their span.
fn read_steps(cur: &mut Cursor<'_>) -> Result<(Vec<Dir>, Span), NotationError> {
    let toks = cur.toks;
    let span = toks.get(cur.i).map(|t| (t.at, toks.last().unwrap().at + 1));
    let mut steps = Vec::new();
    for t in &toks[cur.i..] {
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
    cur.i = toks.len();
    Ok((steps, span))
}

/// The fresh pieces that may be the swapper: a join's outline, the named half of a split,
/// or either half of a single split when none is named.
fn swap_candidates(
    vgame: &Crumble,
    base: Base,
    spec: Option<&PieceSpec>,
) -> Result<Vec<Rect>, NotationError> {
    match (base, spec) {
        (Base::Join { outline }, _) => Ok(vec![outline]),
        (Base::Split { cut, first, count }, Some(spec)) => {
            let pieces = vgame
                .split_pieces(cut, first, count)
                .expect("checked above");
            let idx = match spec.number {
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
            Ok(vec![named_half(pieces[idx], cut, spec)?])
        }
        (b @ Base::Split { .. }, None) => Ok(split_halves(vgame, &b).expect("checked above")),
    }
}

/// The half of the split piece `piece` that `spec` names: N or S of an H cut, E or W of
/// a V cut.
fn named_half(piece: Rect, cut: Cut, spec: &PieceSpec) -> Result<Rect, NotationError> {
    let (lo, hi) = piece.halves(cut);
    match (cut, spec.half) {
        (Cut::H, b'S') | (Cut::V, b'W') => Ok(lo),
        (Cut::H, b'N') | (Cut::V, b'E') => Ok(hi),
        _ => err(
            format!(
                "'{}' is not a half of a {} cut (use {})",
                spec.half as char,
                if cut == Cut::H {
                    "horizontal"
                } else {
                    "vertical"
                },
                if cut == Cut::H { "N or S" } else { "E or W" }
            ),
            Some((spec.half_at, spec.half_at + 1)),
        ),
    }
}

/// The one move among the `candidates` swappers that can make the whole swap `steps`;
/// `named` says whether the text named a split's piece (otherwise both halves were tried).
fn resolve_swap(
    view: &View,
    game: &Crumble,
    base: Base,
    candidates: &[Rect],
    steps: &[Dir],
    named: bool,
    steps_span: Span,
) -> Result<Move, NotationError> {
    let vgame = &view.game;
    let with_swap = |from: Rect, steps: &[Dir]| Move {
        base,
        swap: Some(Swap {
            from,
            steps: steps.to_vec(),
        }),
    };
    let mut ok: Vec<Move> = Vec::new();
    let mut first_err = None;
    for &from in candidates {
        let mv = with_swap(from, steps);
        match vgame.move_decisions(&mv) {
            Ok(_) => ok.push(mv),
            Err(e) => {
                // Report the candidate that got furthest: one whose first step is legal.
                if first_err.is_none()
                    || vgame.move_decisions(&with_swap(from, &steps[..1])).is_ok()
                {
                    first_err = Some(e);
                }
            }
        }
    }
    match ok.len() {
        1 => Ok(view_to_abs(view, game, &ok[0])),
        0 => {
            let e = first_err.expect("at least one candidate");
            let which = if matches!(base, Base::Split { .. }) && !named {
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

fn view_to_abs(view: &View, game: &Crumble, vm: &Move) -> Move {
    let _ = game;
    view.convert(&view.game, vm)
        .expect("a move legal in the view converts")
}

/// The move `mv` (absolute) as seen in the writer's view of `game` in `frame`; for tests.
pub fn to_view_move(game: &Crumble, mv: &Move, frame: Frame) -> Option<Move> {
    let view = View::new(game, frame);
    view.convert(game, mv)
}
