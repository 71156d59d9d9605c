//! Crumble's text layer ([`GameText`]): moves in the notation of rule 6 in either frame,
//! positions as position JSON (`position.md`), results as the schema's result object.

use super::notation::{self, Formatter, Frame, NotationError};
use super::{Crumble, Outcome, Reason, SizeError, board, position};
use crate::game::record::{BoardTagError, Ending, TagLine, tag_value};
use crate::game::{Color, Decision, GameState, GameText, StartOption, TextError};

impl GameText for Crumble {
    type Notation = Frame;
    const TITLE: &'static str = "Crumble";
    const START_OPTIONS: &'static [StartOption] = &[
        StartOption {
            name: "board",
            value_name: "N",
            help: "board size N (cells a side) of the standard start [default: 6]",
        },
        StartOption {
            name: "resolution",
            value_name: "R",
            help: "resolution R (grid units per cell, a power of two) of the standard start [default: 8]",
        },
    ];

    /// Random games end by the draw rule long before this; the limit only bounds a run.
    const RANDOM_GAME_TURNS: u32 = 200;
    const END_REASONS: &'static [&'static str] = &["four-sides", "draw-rule", "no-split-or-join"];
    const NUMBER_BY_ROUND: bool = true;

    fn parse_move(&self, text: &str, frame: Frame) -> Result<Vec<Decision>, TextError> {
        self.refuse_when_over()?;
        let mv = notation::parse_move(self, text, frame).map_err(TextError::of_move)?;
        self.move_decisions(&mv).map_err(TextError::of_move)
    }

    fn move_text(&self, turn: &[Decision], frame: Frame) -> Result<String, TextError> {
        let mv = self.move_from_decisions(turn).map_err(TextError::of_move)?;
        notation::format_move(self, &mv, frame)
            .ok_or_else(|| TextError::Internal(format!("the move {mv:?} cannot be printed")))
    }

    /// The splits and joins of the player to move without their swap paths, in byte order.
    fn legal_move_texts(&self, frame: Frame) -> Result<Vec<String>, TextError> {
        if self.is_over() {
            return Ok(Vec::new());
        }
        let mut game = self.clone();
        // One formatter for all moves: it builds the writer's view of the position once.
        let mut formatter = Formatter::new(&game, frame);
        let mut lines = Vec::new();
        for mv in game.base_moves() {
            let text = formatter.format(&game, &mv).ok_or_else(|| {
                TextError::Internal(format!("the listed move {mv:?} cannot be printed"))
            })?;
            lines.push(text);
        }
        lines.sort_unstable();
        Ok(lines)
    }

    fn position_json(&self) -> String {
        let mut json = position::to_json(self);
        json.truncate(json.trim_end().len());
        json
    }

    fn from_position_json(text: &str) -> Result<Crumble, TextError> {
        position::from_json(text).map_err(TextError::of_position)
    }

    fn result_json(&self) -> serde_json::Value {
        position::outcome_json(self.outcome())
    }

    fn result_text(&self) -> String {
        position::outcome_text(self.outcome())
    }

    fn board_tags(&self) -> Vec<(&'static str, String)> {
        let b = self.board();
        vec![
            ("Board", b.board_size().to_string()),
            ("Resolution", b.resolution().to_string()),
        ]
    }

    /// `Board` and `Resolution` (6 and 8 when left out), the standard start of rule 1.4.
    fn standard_start_of(tags: &[(&str, &str)]) -> Result<Crumble, BoardTagError> {
        let number = |tag: &'static str, default: u32| match tag_value(tags, tag) {
            None => Ok(default),
            Some(v) => v.parse::<u32>().map_err(|_| BoardTagError::Bad {
                tag,
                why: format!("{v:?} is not a whole number"),
            }),
        };
        let (board, resolution) = (number("Board", 6)?, number("Resolution", 8)?);
        if let Err(e) = board::check_size(board, resolution) {
            let tag = match e {
                SizeError::Resolution(_) => "Resolution",
                _ => "Board",
            };
            let why = e.to_string();
            return Err(BoardTagError::Bad { tag, why });
        }
        Ok(Crumble::new(board as u16, resolution as u16).expect("size checked"))
    }

    fn notation_tag(frame: Frame) -> Option<(&'static str, &'static str)> {
        Some(("Frame", frame.name()))
    }

    /// `Frame`: `per-player` (the default) or `absolute`.
    fn notation_of(tags: &[(&str, &str)]) -> Result<Frame, BoardTagError> {
        match tag_value(tags, "Frame") {
            None => Ok(Frame::PerPlayer),
            Some(v) => Frame::from_name(v).ok_or_else(|| BoardTagError::Bad {
                tag: "Frame",
                why: format!("{v:?} is neither \"per-player\" nor \"absolute\""),
            }),
        }
    }

    /// Crumble's records before the generic record had no `Game` tag, or a `Game` that
    /// numbered the game in its run (now `Index`), and called the start `Position`.
    fn upgrade_tags(tags: &mut Vec<TagLine>) {
        for (_, name, value) in tags.iter_mut() {
            if name == "Game" && value.parse::<u64>().is_ok() {
                *name = "Index".into();
            }
        }
        if !tags.iter().any(|(_, n, _)| n == "Game") {
            tags.insert(0, (1, "Game".into(), Self::NAME.into()));
        }
        if !tags.iter().any(|(_, n, _)| n == "Start")
            && let Some(t) = tags.iter_mut().find(|(_, n, _)| n == "Position")
        {
            t.1 = "Start".into();
        }
    }

    fn end_reason(&self) -> Option<&'static str> {
        self.outcome().map(|o| o.reason.name())
    }

    fn board_text(&self) -> String {
        let b = self.board();
        let n = b.board_size();
        format!("{n}x{n} (resolution {})", b.resolution())
    }

    /// Section 6 of the rules book in brief, in the writer's own view.
    fn notation_help(&self) -> String {
        "Notation (core/src/games/crumble/RULES.md section 6), in your own view in the per-player
frame: a piece is named by its lower-left corner, a staircase a,b,c... of intersections
counted from your lower-left corner (a right, then b up, then c right...); the numbers along
the board's bottom and left edges are those counts. Then H or V splits the piece (H3: a long
split through 3 pieces), or J a,b joins everything up to the corner a intersections right
and b up. Swap steps follow: 1HN splits the piece at 1 horizontally and swaps its new
northern half north. Examples: 1HN, 0,2J2,1, 3,2H2-1N-N.
"
        .into()
    }

    fn refusal_span(e: &TextError) -> Option<(usize, usize)> {
        match e {
            TextError::Move(inner) => inner.downcast_ref::<NotationError>()?.span,
            _ => None,
        }
    }

    /// The list holds splits and joins without their swaps.
    fn moves_summary(&self, texts: &[String]) -> String {
        let split = texts
            .iter()
            .find(|t| t.ends_with('H'))
            .map_or("1H", String::as_str);
        format!(
            "{} splits and joins; add swap steps (N, E, S, W) to swap, e.g. {split}N",
            texts.len()
        )
    }

    fn view_for(frame: Frame, writer: Color) -> Color {
        if frame.rotates_for(writer) {
            Color::White
        } else {
            Color::Black
        }
    }

    fn end_as(&mut self, end: Ending, winner: Option<Color>) {
        if let Some(reason) = end.name().and_then(Reason::from_name) {
            self.finish(Outcome { winner, reason });
        }
    }
}
