//! Crumo's text layer ([`GameText`]): moves in the notation of rule 11, positions as the
//! position JSON of rule 12, results as its result value with both scores.

use super::{Crumo, Outcome, Reason, position};
use crate::game::moves::complete_moves_text_methods;
use crate::game::record::{BoardTagError, Ending, tag_value};
use crate::game::{Color, CompleteMoves, Decision, GameText, Player, StartOption, TextError};

impl GameText for Crumo {
    type Notation = ();
    const TITLE: &'static str = "Crumo";
    const START_OPTIONS: &'static [StartOption] = &[StartOption {
        name: "size",
        value_name: "N",
        help: "points per side N of the standard start, 2 to 13 [default: 5]",
    }];

    /// The limit of random games of rule 10.4.
    const RANDOM_GAME_TURNS: u32 = 200;
    const END_REASONS: &'static [&'static str] = &["two-passes"];

    /// A move after the end is refused by the rules' own error (rule 11.8).
    fn parse_move(&self, text: &str, (): ()) -> Result<Vec<Decision>, TextError> {
        self.turn_of_text(text)
    }

    // Move texts, legal moves, position and result JSON, the end's reason.
    complete_moves_text_methods!(position);

    fn board_text(&self) -> String {
        format!("size {} ({} points)", self.geometry().size(), self.points())
    }

    fn board_tags(&self) -> Vec<(&'static str, String)> {
        vec![("Size", self.size().to_string())]
    }

    /// `Size "N"`, the empty board of rule 1.1.
    fn standard_start_of(tags: &[(&str, &str)]) -> Result<Crumo, BoardTagError> {
        let size = tag_value(tags, "Size").ok_or(BoardTagError::Missing("Size"))?;
        size.parse::<u8>()
            .ok()
            .filter(|n| n.to_string() == size)
            .and_then(Crumo::standard)
            .ok_or_else(|| BoardTagError::Bad {
                tag: "Size",
                why: "not a supported size (rule 1.1)".into(),
            })
    }

    /// The seats swap colours when the second seat swaps (rule 8.3).
    fn colour_of(&self, p: Player) -> Color {
        if (p == Player::First) == self.first_seat_plays(Color::Black) {
            Color::Black
        } else {
            Color::White
        }
    }

    fn notation_help(&self) -> String {
        "\
A move is HEIGHT POINT to place a new stack (3e5), FROM-TO to move as many pieces as the
distance (e5-e7 moves 2), pass, or swap (second turn only: the seats swap colours).
Points are a file letter and a rank number as along the board's edges (a1 lower left);
each row lists its first and last file on the right. In the plain board B3 is a black stack
of height 3, W1 a white one; the last move's points are in brackets. Two passes in a row
end the game: controlled points plus captures, and half a point to the first passer.
"
        .into()
    }

    /// The second seat may swap on its first turn (rule 8).
    fn seat_note(&self, p: Player) -> Option<&'static str> {
        Some(match p {
            Player::First => "the first seat",
            Player::Second => "the second seat, which may swap on turn 2",
        })
    }

    fn move_words(&self) -> &'static [&'static str] {
        &["pass", "swap"]
    }

    fn prompt_note(&self) -> Option<&'static str> {
        (self.pie() == super::Pie::Choice).then_some("or swap")
    }

    /// A turn limit scores the final position (rule 10.1).
    fn end_as(&mut self, end: Ending, winner: Option<Color>) {
        let outcome = match end {
            Ending::Rules => return,
            Ending::TurnLimit => Outcome::scored(Reason::TurnLimit, self.score_halves(None)),
            Ending::Resignation { .. } => Outcome {
                winner,
                reason: Reason::Resignation,
                score_halves: None,
            },
            Ending::Agreement => Outcome {
                winner: None,
                reason: Reason::Agreement,
                score_halves: None,
            },
        };
        self.finish(outcome);
    }
}
