//! Splinter's text layer ([`GameText`]): moves in the notation of rule 9, positions as the
//! position JSON of rule 10, results as its result value.

use super::{MoveError, MoveRuleError, Outcome, Reason, Splinter, position};
use crate::game::moves::complete_moves_text_methods;
use crate::game::record::{BoardTagError, Ending, tag_value};
use crate::game::{Color, CompleteMoves, Decision, GameText, StartOption, TextError};

impl GameText for Splinter {
    type Notation = ();
    const TITLE: &'static str = "Splinter";
    const START_OPTIONS: &'static [StartOption] = &[
        StartOption {
            name: "width",
            value_name: "W",
            help: "files W of the standard start, 5 to 26 [default: 15]",
        },
        StartOption {
            name: "height",
            value_name: "H",
            help: "ranks H of the standard start, 6 to 26 [default: 18]",
        },
    ];

    /// Rule 8.8 leaves the limit of random games to the project (the reference engine's).
    const RANDOM_GAME_TURNS: u32 = 300;
    const END_REASONS: &'static [&'static str] =
        &["knockouts", "more-knockouts", "more-pieces", "tie"];

    fn parse_move(&self, text: &str, (): ()) -> Result<Vec<Decision>, TextError> {
        self.refuse_when_over()?;
        self.turn_of_text(text)
    }

    // Move texts, legal moves, position and result JSON, the end's reason.
    complete_moves_text_methods!(position);

    fn board_text(&self) -> String {
        let b = self.board();
        format!("{}x{} board", b.width(), b.height())
    }

    fn board_tags(&self) -> Vec<(&'static str, String)> {
        let b = self.board();
        vec![("Board", format!("{}x{}", b.width(), b.height()))]
    }

    /// `Board "WxH"`, the standard start of rule 2.7 on that board.
    fn standard_start_of(tags: &[(&str, &str)]) -> Result<Splinter, BoardTagError> {
        let size = tag_value(tags, "Board").ok_or(BoardTagError::Missing("Board"))?;
        let bad = |why: String| BoardTagError::Bad { tag: "Board", why };
        let (w, h) = size
            .split_once('x')
            .and_then(|(w, h)| Some((w.parse::<u8>().ok()?, h.parse::<u8>().ok()?)))
            .ok_or_else(|| bad(format!("{size:?} is not WxH")))?;
        Splinter::standard(w, h)
            .ok_or_else(|| bad(format!("{size} is outside 5..=26 x 6..=26 (rule 2.1)")))
    }

    fn notation_help(&self) -> String {
        "\
A move is FROM-TO, e.g. h9-h10 (one square in any of the 8 directions, pushing the pieces
in the way); when the move leaves two or more equal largest groups, name the group that
stays with /SQUARE, e.g. e5-e6/f2.
Squares are a file letter and a rank number as along the board's edges (a1 lower left).
In the plain board bK is Black's king, wP a White pawn (R rook, B bishop); the pieces the
last move moved are in brackets and the square it left shows its direction.
"
        .into()
    }

    /// For a move that leaves equal largest groups, the groups that may stay.
    fn refusal_hint(&self, text: &str, e: &TextError) -> Option<String> {
        let TextError::Move(inner) = e else {
            return None;
        };
        let missing = matches!(
            inner.downcast_ref::<MoveError>(),
            Some(MoveError::Rules(
                MoveRuleError::ChoiceMissing | MoveRuleError::ChoiceNotLargest { .. }
            ))
        );
        if !missing {
            return None;
        }
        let squares = text.split('/').next().unwrap_or(text);
        let prefix = format!("{squares}/");
        let choices: Vec<String> = CompleteMoves::legal_move_texts(self)
            .into_iter()
            .filter(|m| m.starts_with(&prefix))
            .collect();
        Some(format!(
            "  the groups that may stay (any square of the group will do): {}\n",
            choices.join(" ")
        ))
    }

    fn end_as(&mut self, end: Ending, winner: Option<Color>) {
        if let Some(reason) = end.name().and_then(Reason::from_name) {
            self.finish(Outcome { winner, reason });
        }
    }
}
