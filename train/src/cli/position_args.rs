//! The flags shared by every subcommand that works on a position: the notation frame and the
//! start (the standard start of `--board`/`--resolution`, or a `--position` file).

use anyhow::Context as _;
use clap::ValueEnum;
use crumble_core::notation::{self, Frame};
use crumble_core::{Game, board, position};
use std::path::PathBuf;

/// Notation frame of the moves read and printed (RULES.md section 6).
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

#[derive(Debug, clap::Args)]
pub struct PositionArgs {
    /// Notation frame of the moves, read and printed.
    #[arg(long, value_enum, default_value_t = FrameArg::PerPlayer)]
    pub frame: FrameArg,
    /// Board size N (cells a side) of the standard start.
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub board: u32,
    /// Resolution R (grid units per cell, a power of two) of the standard start.
    #[arg(long, value_name = "R", default_value_t = 8)]
    pub resolution: u32,
    /// Start from this position file (JSON, see README) instead of the standard start.
    #[arg(long, value_name = "FILE.json", conflicts_with_all = ["board", "resolution"])]
    pub position: Option<PathBuf>,
}

impl PositionArgs {
    pub fn frame(&self) -> Frame {
        self.frame.into()
    }

    /// The start position these flags name, validated.
    pub fn start(&self) -> anyhow::Result<Game> {
        match &self.position {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read position file {}", path.display()))?;
                position::from_json(&text)
                    .with_context(|| format!("position file {} refused", path.display()))
            }
            None => {
                board::check_size(self.board, self.resolution)
                    .context("bad --board/--resolution")?;
                // check_size bounds both by 1024, so they fit u16.
                Ok(Game::new(self.board as u16, self.resolution as u16)?)
            }
        }
    }

    /// The start position with `moves` played on it; an error names the move's 1-based
    /// index, its text and why it was refused.
    pub fn replay(&self, moves: &[String]) -> anyhow::Result<Game> {
        let mut game = self.start()?;
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
