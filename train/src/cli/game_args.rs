//! `--game crumble|splinter|crumo` with Splinter's board flags and Crumo's `--size`, shared
//! by `replay`, `moves`, `random-game`, `show` and `bench rules`. Crumble stays the default and
//! keeps its own flags (`--frame`, `--board`, `--resolution`); each game refuses the others'
//! flags instead of ignoring them.

use super::PositionArgs;
use anyhow::{Context as _, bail};
use clap::ValueEnum;
use crumble_core::splinter::board::{MAX_HEIGHT, MAX_WIDTH, MIN_HEIGHT, MIN_WIDTH};
use crumble_core::splinter::{Splinter, position};
use std::path::PathBuf;

/// The games the program knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameArg {
    /// Crumble (RULES.md).
    Crumble,
    /// Splinter (RULES-splinter.md).
    Splinter,
    /// Crumo (RULES-crumo.md).
    Crumo,
}

/// Splinter's default board (rule 2.1).
pub const SPLINTER_WIDTH: u8 = 15;
pub const SPLINTER_HEIGHT: u8 = 18;

#[derive(Debug, clap::Args)]
pub struct GameArgs {
    /// The game.
    #[arg(long, value_enum, default_value_t = GameArg::Crumble)]
    pub game: GameArg,
    /// Splinter: files W of the standard start, 5 to 26 [default: 15].
    #[arg(long, value_name = "W")]
    pub width: Option<u32>,
    /// Splinter: ranks H of the standard start, 6 to 26 [default: 18].
    #[arg(long, value_name = "H")]
    pub height: Option<u32>,
    /// Crumo: points per side of the standard start, 2 to 13 [default: 5].
    #[arg(long, value_name = "N")]
    pub size: Option<u32>,
}

/// A Splinter start as the flags name it, validated: the standard start of a size, or a
/// position file; and the turn limit (rule 8.4).
#[derive(Debug, Clone)]
pub struct SplinterSetup {
    pub width: u8,
    pub height: u8,
    pub position: Option<PathBuf>,
    pub max_turns: u32,
}

impl GameArgs {
    pub fn is_splinter(&self) -> bool {
        self.game == GameArg::Splinter
    }

    pub fn is_crumo(&self) -> bool {
        self.game == GameArg::Crumo
    }

    /// For a Crumble command: refuses Splinter's flags, and `others` (flag, given) that the
    /// command takes only for Splinter.
    pub fn check_crumble(&self, others: &[(&str, bool)]) -> anyhow::Result<()> {
        let splinter_flags = [
            ("--width", self.width.is_some()),
            ("--height", self.height.is_some()),
        ];
        if let Some((flag, _)) = splinter_flags
            .iter()
            .chain(others)
            .find(|(_, given)| *given)
        {
            bail!("{flag} is a Splinter flag: use it with --game splinter");
        }
        if self.size.is_some() {
            bail!("--size is a Crumo flag: use it with --game crumo");
        }
        Ok(())
    }

    /// The board size `--width`/`--height` name (defaults 15 × 18), refused outside rule 2.1.
    pub fn splinter_size(&self) -> anyhow::Result<(u8, u8)> {
        let check = |flag: &str, v: Option<u32>, default: u8, min: u8, max: u8, what: &str| {
            let v = v.unwrap_or(u32::from(default));
            if v < u32::from(min) || v > u32::from(max) {
                bail!(
                    "{flag} {v}: a Splinter board has {min} to {max} {what} (RULES-splinter.md rule 2.1)"
                );
            }
            Ok(v as u8)
        };
        Ok((
            check(
                "--width",
                self.width,
                SPLINTER_WIDTH,
                MIN_WIDTH,
                MAX_WIDTH,
                "files",
            )?,
            check(
                "--height",
                self.height,
                SPLINTER_HEIGHT,
                MIN_HEIGHT,
                MAX_HEIGHT,
                "ranks",
            )?,
        ))
    }

    /// For a Splinter command: refuses Crumble's position flags and `others` (flag, given)
    /// that the command takes only for Crumble, then validates the start and turn limit.
    pub fn splinter(
        &self,
        pos: &PositionArgs,
        max_turns: u32,
        others: &[(&str, bool)],
    ) -> anyhow::Result<SplinterSetup> {
        let crumble_flags = pos.crumble_flags();
        let given = crumble_flags
            .iter()
            .copied()
            .chain(others.iter().filter(|(_, g)| *g).map(|(f, _)| *f))
            .next();
        if let Some(flag) = given {
            bail!(
                "{flag} is a Crumble flag: Splinter does not take it (its board is --width/--height)"
            );
        }
        if self.size.is_some() {
            bail!("--size is a Crumo flag: Splinter's board is --width/--height");
        }
        if pos.position.is_some() && (self.width.is_some() || self.height.is_some()) {
            bail!("--width/--height name the standard start: a --position file has its own size");
        }
        let (width, height) = self.splinter_size()?;
        Ok(SplinterSetup {
            width,
            height,
            position: pos.position.clone(),
            max_turns,
        })
    }
}

impl SplinterSetup {
    /// The start: the standard start of the size, or the position file (strict, rule 10.3);
    /// with the turn limit set (turns count from here, rule 8.4).
    pub fn start(&self) -> anyhow::Result<Splinter> {
        let mut game = match &self.position {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read position file {}", path.display()))?;
                position::from_json(&text)
                    .with_context(|| format!("position file {} refused", path.display()))?
            }
            None => Splinter::standard(self.width, self.height)
                .context("the size was checked with the flags")?,
        };
        game.set_turn_limit(self.max_turns);
        Ok(game)
    }

    /// The start with `moves` played on it; an error names the move's 1-based index, its
    /// text and why it was refused.
    pub fn replay(&self, moves: &[String]) -> anyhow::Result<Splinter> {
        let mut game = self.start()?;
        for (i, text) in moves.iter().enumerate() {
            let refuse = |why: String| anyhow::anyhow!("move {} ({text:?}) refused: {why}", i + 1);
            if let Some(o) = game.outcome() {
                return Err(refuse(format!(
                    "the game is over (result {})",
                    position::outcome_value(Some(o))
                )));
            }
            game.play_text(text).map_err(|e| refuse(e.to_string()))?;
        }
        Ok(game)
    }
}
