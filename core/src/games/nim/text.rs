//! Nim's text layer: a turn is written `heap-count`, heaps numbered from 1 (`2-3` takes three
//! from the second heap); positions are the start JSON (`{"heaps": [1, 3, 5]}`).

use super::Nim;
use crate::game::{Decision, GameState, GameText, TextError};

/// Why a Nim move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NimMoveError {
    #[error("{0:?} is not a move: write heap-count, as in 2-3")]
    Malformed(String),
    #[error("there is no heap {heap} (heaps 1 to {heaps})")]
    NoHeap { heap: usize, heaps: usize },
    #[error("heap {heap} holds {holds}: cannot take {take}")]
    TooMany { heap: usize, holds: u8, take: u32 },
}

impl GameText for Nim {
    type Notation = ();
    const TITLE: &'static str = "Nim";
    const SOLVABLE: bool = true;

    fn parse_move(&self, text: &str, (): ()) -> Result<Vec<Decision>, TextError> {
        self.refuse_when_over()?;
        let malformed = || TextError::of_move(NimMoveError::Malformed(text.into()));
        let (heap, take) = text.trim().split_once('-').ok_or_else(malformed)?;
        let heap: usize = heap.parse().map_err(|_| malformed())?;
        let take: u32 = take.parse().map_err(|_| malformed())?;
        let heaps = self.heaps();
        if heap == 0 || heap > heaps.len() {
            return Err(TextError::of_move(NimMoveError::NoHeap {
                heap,
                heaps: heaps.len(),
            }));
        }
        let holds = heaps[heap - 1];
        if take == 0 || take > u32::from(holds) {
            return Err(TextError::of_move(NimMoveError::TooMany {
                heap,
                holds,
                take,
            }));
        }
        let offset = heaps.len() as u32;
        Ok(vec![Decision(heap as u32 - 1), Decision(offset + take - 1)])
    }

    fn move_text(&self, turn: &[Decision], (): ()) -> Result<String, TextError> {
        let offset = self.heaps().len() as u32;
        match turn {
            [h, k] if h.0 < offset && k.0 >= offset => {
                Ok(format!("{}-{}", h.0 + 1, k.0 - offset + 1))
            }
            _ => Err(TextError::Internal(format!(
                "{turn:?} is not a heap and a count"
            ))),
        }
    }

    /// One line a heap: its number, its objects as `|`, their count.
    fn board_text(&self) -> String {
        let heaps: Vec<String> = self.heaps().iter().map(u8::to_string).collect();
        format!("heaps {}", heaps.join(" "))
    }

    fn diagram(&self) -> Option<String> {
        let mut out = String::new();
        for (h, &n) in self.heaps().iter().enumerate() {
            out += &format!("heap {} {:<15} {n}\n", h + 1, "|".repeat(usize::from(n)));
        }
        Some(out)
    }

    fn legal_move_texts(&self, (): ()) -> Result<Vec<String>, TextError> {
        if self.game_result().is_some() {
            return Ok(Vec::new());
        }
        Ok(self
            .heaps()
            .iter()
            .enumerate()
            .flat_map(|(h, &n)| (1..=n).map(move |k| format!("{}-{k}", h + 1)))
            .collect())
    }
}

impl crate::render::Pictures for Nim {}
