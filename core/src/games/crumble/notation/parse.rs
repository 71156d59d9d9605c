//! Parsing a complete move. The grammar of a move (RULES.md section 6), after whitespace is dropped:
//!
//! ```text
//! move       = position action [swap] [annotation]
//! position   = staircase | fraction                 (6.1, 6.2: up to the first letter)
//! action     = ("H" | "V") [count] | "J" a "," b     (6.3, 6.4)
//! swap       = [["-" number] half "-"] step {step}   (6.5: "-number" after a long split)
//! annotation = "+" | "++"                            (6.6)
//! ```
//!
//! One function reads each production, in this order; each reports its own errors, so the
//! order of the checks (and so which error a bad move gets) follows the text.

use super::*;

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
