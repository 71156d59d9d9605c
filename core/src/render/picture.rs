//! How a game draws one position for a person ([`Pictures`]): in a terminal and as SVG, the
//! last move highlighted, with the status line under it. `play` and `show` are written once
//! against it; a game without pictures of its own draws its [`GameText::diagram`].

use super::capital;
use crate::game::{Color, Decision, GameText};

/// How to draw a position. `H` is the game's own mark of the last move, which its picture
/// functions take; callers of [`Pictures`] leave it `()` and pass the move instead.
#[derive(Clone, Debug)]
pub struct PictureStyle<H = ()> {
    /// ANSI colours and box-drawing characters (terminal pictures only).
    pub color: bool,
    /// Label the edges with the notation's coordinates.
    pub coords: bool,
    /// Whose side of the board is at the bottom, for a game that turns its board.
    pub view: Color,
    /// Text of the last move for the status lines (its notation and who played it).
    pub last_move: Option<String>,
    /// The game's mark of the last move.
    pub highlight: Option<H>,
}

impl<H> Default for PictureStyle<H> {
    fn default() -> PictureStyle<H> {
        PictureStyle {
            color: false,
            coords: true,
            view: Color::Black,
            last_move: None,
            highlight: None,
        }
    }
}

impl PictureStyle {
    /// This style with the game's mark of the last move.
    pub fn with_highlight<H>(&self, highlight: Option<H>) -> PictureStyle<H> {
        PictureStyle {
            color: self.color,
            coords: self.coords,
            view: self.view,
            last_move: self.last_move.clone(),
            highlight,
        }
    }
}

/// The last complete move: the position it was played from and its decisions.
pub type LastMove<'a, G> = Option<(&'a G, &'a [Decision])>;

/// A game's pictures of one position. Every method has a default built on the game's text
/// layer, so a game without pictures implements it with an empty `impl`.
pub trait Pictures: GameText {
    /// The position for a terminal, `last` highlighted. By default the game's
    /// [`diagram`](GameText::diagram) (or its position JSON) and the status lines.
    fn term_picture(&self, last: LastMove<'_, Self>, style: &PictureStyle) -> String {
        let _ = last;
        let mut out = self
            .diagram()
            .unwrap_or_else(|| self.position_json() + "\n");
        if let Some(m) = &style.last_move {
            out += &format!("last move: {m}\n");
        }
        out + &self.status_line() + "\n"
    }

    /// The position as a standalone SVG picture, `last` highlighted; `None` for a game that
    /// has no SVG pictures (the default).
    fn svg_picture(&self, last: LastMove<'_, Self>, style: &PictureStyle) -> Option<String> {
        let _ = (last, style);
        None
    }

    /// What the colours of the pictures mean, for the page's legend (HTML); none by default.
    fn picture_legend() -> &'static str {
        ""
    }

    /// The status under a picture of the page: by default the status line.
    fn page_status(&self) -> String {
        self.status_line()
    }

    /// One line: whose turn it is, or how the game ended, e.g. `Black to move (turn 3)`,
    /// `White wins (knockouts)` or `Draw (turn-limit)` (the reason is the game's
    /// [`end_reason`](GameText::end_reason); a game that names none leaves it out).
    fn status_line(&self) -> String {
        let Some(result) = self.game_result() else {
            let who = self
                .decider()
                .map_or("Nobody", |p| capital(self.colour_of(p)));
            let turn = self.turns_played() + 1;
            return format!("{who} to move (turn {turn}{})", self.status_note());
        };
        let how = self
            .end_reason()
            .map_or(String::new(), |r| format!(" ({r})"));
        match result.winner() {
            Some(p) => format!("{} wins{how}", capital(self.colour_of(p))),
            None => format!("Draw{how}"),
        }
    }

    /// What the status line adds to the turn while the game goes on (Crumo's pie rule:
    /// `, White may swap`); nothing by default.
    fn status_note(&self) -> &'static str {
        ""
    }
}
