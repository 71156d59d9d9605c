//! Pictures of a Splinter position (`games/splinter/RULES.md`): [`term`] draws it for a terminal
//! (colour or plain ASCII), [`svg`] as an SVG image; their [`Pictures`] impl gives them to
//! `play`, `show` and the page of a recorded game (`crate::render::record_page`).
//! Both return a `String` (core does no I/O), draw the board as the notation sees it (rank 1 at the bottom, file `a` on the left,
//! rule 2.2), label the edges with the notation's file letters and rank numbers, tell the
//! four piece types apart, and can highlight the last move: the squares of the pieces it
//! moved, the square it left and its direction.

#[cfg(test)]
mod html;
pub mod svg;
pub mod term;

use crate::game::CompleteMoves;
use crate::games::splinter::{Dir, PieceType, Splinter, SplinterMove, Square};
use crate::render::picture::{LastMove, PictureStyle, Pictures};

/// What the last move did, for highlighting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplinterHighlight {
    /// The square the moving piece left; `None` when only the position's `last_move` is known
    /// (a position file names the moved squares and the direction, not the origin).
    pub from: Option<Square>,
    /// The move's direction.
    pub dir: Dir,
    /// The squares on which the pieces the move moved stand after it (rule 4.4: those
    /// eliminated by the move are not among them), in canonical order.
    pub moved: Vec<Square>,
}

impl SplinterHighlight {
    /// The highlight of `mv` played in `before` (a turn start); `None` if it is not legal.
    pub fn of(before: &Splinter, mv: &SplinterMove) -> Option<SplinterHighlight> {
        let mut after = before.clone();
        after.play(mv).ok()?;
        Some(SplinterHighlight {
            from: Some(mv.from),
            dir: mv.dir,
            moved: after
                .last_move()
                .map(|l| l.moved.iter().collect())
                .unwrap_or_default(),
        })
    }

    /// The highlight of the position's own no-return state (`last_move`, rule 10.1), if any.
    pub fn of_last_move(game: &Splinter) -> Option<SplinterHighlight> {
        game.last_move().map(|l| SplinterHighlight {
            from: None,
            dir: l.dir,
            moved: l.moved.iter().collect(),
        })
    }

    fn is_moved(&self, s: Square) -> bool {
        self.moved.contains(&s)
    }
}

/// The letter of a piece type: `K`ing, `R`ook, `B`ishop, `P`awn (as in rule 2.7's diagram).
pub fn type_letter(t: PieceType) -> char {
    match t {
        PieceType::King => 'K',
        PieceType::Rook => 'R',
        PieceType::Bishop => 'B',
        PieceType::Pawn => 'P',
    }
}

/// The knockouts (rule 7) and pieces of both players, e.g.
/// `knockouts: Black 0, White 1; pieces: Black 15, White 12`.
pub fn score_line(game: &Splinter) -> String {
    use crate::game::Color::{Black, White};
    let counts = game.board().type_counts();
    let pieces = |c: usize| counts[c].iter().map(|&n| u32::from(n)).sum::<u32>();
    format!(
        "knockouts: Black {}, White {}; pieces: Black {}, White {}",
        game.knockouts(Black),
        game.knockouts(White),
        pieces(Black as usize),
        pieces(White as usize)
    )
}

impl Pictures for Splinter {
    fn term_picture(&self, last: LastMove<'_, Splinter>, style: &PictureStyle) -> String {
        term::render(self, &style.with_highlight(highlight(self, last)))
    }

    fn svg_picture(&self, last: LastMove<'_, Splinter>, style: &PictureStyle) -> Option<String> {
        Some(svg::render(
            self,
            &style.with_highlight(highlight(self, last)),
        ))
    }

    fn picture_legend() -> &'static str {
        "Orange: the pieces the last move moved; dashed red: the square it left, with an arrow in its direction."
    }

    /// The status line and the score.
    fn page_status(&self) -> String {
        format!("{}; {}", self.status_line(), score_line(self))
    }
}

/// The highlight of the last move, when it is one whole move; with none given, the move the
/// position itself remembers (rule 5.2's no-return state), if any.
fn highlight(game: &Splinter, last: LastMove<'_, Splinter>) -> Option<SplinterHighlight> {
    match last {
        Some((before, turn)) => SplinterHighlight::of(before, &before.move_of_turn(turn)?),
        None => SplinterHighlight::of_last_move(game),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The standard 15 × 18 game after `moves`, with the last move's highlight.
    pub(crate) fn after(moves: &[&str]) -> (Splinter, Option<SplinterHighlight>) {
        let mut g = Splinter::standard(15, 18).unwrap();
        let mut hl = None;
        for m in moves {
            let mv = crate::games::splinter::notation::parse_move(g.board(), m).unwrap();
            hl = SplinterHighlight::of(&g, &mv);
            g.play(&mv).unwrap();
        }
        (g, hl)
    }

    #[test]
    fn highlight_follows_the_move_and_the_position() {
        let start = Splinter::standard(15, 18).unwrap();
        let b = start.board();
        let sq = |name: &str| crate::games::splinter::notation::parse_square(b, name).unwrap();
        let mv = crate::games::splinter::notation::parse_move(b, "h9-h10").unwrap();
        let hl = SplinterHighlight::of(&start, &mv).unwrap();
        assert_eq!(hl.from, Some(sq("h9")));
        assert_eq!(hl.dir, Dir::N);
        assert_eq!(hl.moved, vec![sq("h10"), sq("h11"), sq("h12"), sq("h13")]);
        let mut after = start.clone();
        after.play(&mv).unwrap();
        let own = SplinterHighlight::of_last_move(&after).unwrap();
        assert_eq!((own.from, own.dir, &own.moved), (None, Dir::N, &hl.moved));
        assert!(SplinterHighlight::of_last_move(&start).is_none());
        // Not legal after the move: the no-return rule (rule 5).
        let back = crate::games::splinter::notation::parse_move(b, "h11-h10").unwrap();
        assert!(SplinterHighlight::of(&after, &back).is_none());
        assert_eq!(start.status_line(), "Black to move (turn 1)");
        assert_eq!(after.status_line(), "White to move (turn 2)");
        assert_eq!(
            score_line(&after),
            "knockouts: Black 0, White 0; pieces: Black 15, White 15"
        );
    }
}
