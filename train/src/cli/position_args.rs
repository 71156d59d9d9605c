//! The flags shared by every subcommand that works on a position: Crumble's notation frame
//! and a `--position` file (the standard start's options are each game's: `game_args.rs`).

use clap::ValueEnum;
use crumble_core::GameText;
use crumble_core::games::crumble::notation::{self, Frame};
use crumble_core::games::crumble::{Crumble, position};
use std::path::PathBuf;

/// Notation frame of the moves read and printed (games/crumble/RULES.md section 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FrameArg {
    /// Each player writes in their own frame: White's view is rotated by 180°.
    PerPlayer,
    /// Every move in Black's frame.
    Absolute,
}

impl From<FrameArg> for Frame {
    fn from(f: FrameArg) -> Frame {
        match f {
            FrameArg::PerPlayer => Frame::PerPlayer,
            FrameArg::Absolute => Frame::Absolute,
        }
    }
}

// `--frame` has no clap default, so that a command can tell it given from left out (a game
// whose moves have no frames refuses it); the default is applied below.
#[derive(Debug, clap::Args)]
pub struct PositionArgs {
    /// Crumble: notation frame of the moves, read and printed [default: per-player].
    #[arg(long, value_enum)]
    pub frame: Option<FrameArg>,
    /// Start from this position file (the game's position JSON) instead of the standard start.
    #[arg(long, value_name = "FILE.json")]
    pub position: Option<PathBuf>,
}

impl PositionArgs {
    /// No position flag given: the standard start, Crumble's default frame.
    pub fn none() -> PositionArgs {
        PositionArgs {
            frame: None,
            position: None,
        }
    }

    pub fn frame(&self) -> Frame {
        self.frame.unwrap_or(FrameArg::PerPlayer).into()
    }

    /// Does `G` write its moves in a frame (`--frame`)? A game with one way to write them
    /// has `()` for its notation.
    pub fn takes_frame<G: GameText>(&self) -> bool {
        std::mem::size_of::<G::Notation>() > 0
    }

    /// Crumble's `game` with `moves` played on it; an error names the move's 1-based index,
    /// its text and why it was refused.
    pub fn replay_from(&self, mut game: Crumble, moves: &[String]) -> anyhow::Result<Crumble> {
        let frame = self.frame();
        for (i, text) in moves.iter().enumerate() {
            let refuse = |why: String| anyhow::anyhow!("move {} ({text:?}) refused: {why}", i + 1);
            if let Some(o) = game.outcome() {
                return Err(refuse(format!(
                    "the game is over (result {})",
                    position::outcome_text(Some(o))
                )));
            }
            let mv = notation::parse_move(&game, text, frame).map_err(|e| refuse(e.to_string()))?;
            game.play_move(&mv).map_err(|e| refuse(e.to_string()))?;
        }
        Ok(game)
    }
}
