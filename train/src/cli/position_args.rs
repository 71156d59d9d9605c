//! The flags shared by every subcommand that works on a position: the notation frame and the
//! start (the standard start of `--board`/`--resolution`, or a `--position` file).

use anyhow::Context as _;
use clap::ValueEnum;
use crumble_core::games::crumble::Crumble;
use crumble_core::games::crumble::notation::{self, Frame};
use crumble_core::games::crumble::{board, position};
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

// The Crumble flags have no clap defaults, so that a command can tell a flag given from one
// left out (`--game splinter` refuses them); the defaults are applied below.
#[derive(Debug, clap::Args)]
pub struct PositionArgs {
    /// Notation frame of the moves, read and printed [default: per-player].
    #[arg(long, value_enum)]
    pub frame: Option<FrameArg>,
    /// Board size N (cells a side) of the standard start [default: 6].
    #[arg(long, value_name = "N")]
    pub board: Option<u32>,
    /// Resolution R (grid units per cell, a power of two) of the standard start [default: 8].
    #[arg(long, value_name = "R")]
    pub resolution: Option<u32>,
    /// Start from this position file (JSON, see README) instead of the standard start.
    #[arg(long, value_name = "FILE.json", conflicts_with_all = ["board", "resolution"])]
    pub position: Option<PathBuf>,
}

impl PositionArgs {
    /// No position flag given: the standard start, Crumble's default frame.
    pub fn none() -> PositionArgs {
        PositionArgs {
            frame: None,
            board: None,
            resolution: None,
            position: None,
        }
    }

    pub fn frame(&self) -> Frame {
        self.frame.unwrap_or(FrameArg::PerPlayer).into()
    }

    /// The Crumble-only flags given on the command line (`--frame`, `--board`,
    /// `--resolution`), for a game that has none of them to refuse.
    pub fn crumble_flags(&self) -> Vec<&'static str> {
        [
            ("--frame", self.frame.is_some()),
            ("--board", self.board.is_some()),
            ("--resolution", self.resolution.is_some()),
        ]
        .into_iter()
        .filter_map(|(flag, given)| given.then_some(flag))
        .collect()
    }

    /// The start position these flags name, validated.
    pub fn start(&self) -> anyhow::Result<Crumble> {
        match &self.position {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read position file {}", path.display()))?;
                position::from_json(&text)
                    .with_context(|| format!("position file {} refused", path.display()))
            }
            None => {
                let (n, r) = (self.board.unwrap_or(6), self.resolution.unwrap_or(8));
                board::check_size(n, r).context("bad --board/--resolution")?;
                // check_size bounds both by 1024, so they fit u16.
                Ok(Crumble::new(n as u16, r as u16)?)
            }
        }
    }

    /// The start position with `moves` played on it; an error names the move's 1-based
    /// index, its text and why it was refused.
    pub fn replay(&self, moves: &[String]) -> anyhow::Result<Crumble> {
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
