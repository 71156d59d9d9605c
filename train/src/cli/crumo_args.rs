//! Crumo's start for the commands that take `--game crumo`: `--size` or a `--position`
//! file, and the turn limit; the moves given on the command line played on it.

use super::PositionArgs;
use super::game_args::GameArgs;
use anyhow::{Context as _, bail};
use crumble_core::crumo::{Crumo, MAX_SIZE, MIN_SIZE, position};
use std::path::PathBuf;

/// A Crumo start as the flags name it, validated: the standard start of a size, or a
/// position file; and the turn limit (rule 10.1).
#[derive(Debug, Clone)]
pub struct CrumoSetup {
    pub size: u8,
    pub position: Option<PathBuf>,
    pub max_turns: u32,
}

impl GameArgs {
    /// For a Crumo command: refuses the other games' flags and `others` (flag, given) that
    /// the command takes only for them, then validates the size.
    pub fn crumo(
        &self,
        pos: &PositionArgs,
        max_turns: u32,
        others: &[(&str, bool)],
    ) -> anyhow::Result<CrumoSetup> {
        let foreign = pos
            .crumble_flags()
            .into_iter()
            .chain(
                [
                    ("--width", self.width.is_some()),
                    ("--height", self.height.is_some()),
                ]
                .into_iter()
                .chain(others.iter().copied())
                .filter(|(_, g)| *g)
                .map(|(f, _)| f),
            )
            .next();
        if let Some(flag) = foreign {
            bail!("{flag} is not a Crumo flag (its board is --size N or a --position file)");
        }
        if pos.position.is_some() && self.size.is_some() {
            bail!("--size names the standard start: a --position file has its own size");
        }
        Ok(CrumoSetup {
            size: self.crumo_size()?,
            position: pos.position.clone(),
            max_turns,
        })
    }

    /// The size `--size` names (default 5), refused outside rule 1.1, and Splinter's board
    /// flags refused.
    pub fn crumo_size(&self) -> anyhow::Result<u8> {
        if self.width.is_some() || self.height.is_some() {
            bail!("--width/--height are Splinter flags: a Crumo board is --size N");
        }
        let size = self
            .size
            .unwrap_or(u32::from(crumble_core::crumo::DEFAULT_SIZE));
        if size < u32::from(MIN_SIZE) || size > u32::from(MAX_SIZE) {
            bail!(
                "--size {size}: a Crumo board has {MIN_SIZE} to {MAX_SIZE} points per side (RULES-crumo.md rule 1.1)"
            );
        }
        Ok(size as u8)
    }
}

impl CrumoSetup {
    /// The start: the standard start of the size, or the position file (strict, rule 12.3);
    /// with the turn limit set (turns count from here, rule 10.1).
    pub fn start(&self) -> anyhow::Result<Crumo> {
        let mut game = match &self.position {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read position file {}", path.display()))?;
                position::from_json(&text)
                    .with_context(|| format!("position file {} refused", path.display()))?
            }
            None => Crumo::standard(self.size).context("the size was checked with the flags")?,
        };
        game.set_turn_limit(self.max_turns);
        Ok(game)
    }

    /// The start with `moves` played on it (rule 11.8); an error names the move's 1-based
    /// index, its text and why it was refused.
    pub fn replay(&self, moves: &[String]) -> anyhow::Result<Crumo> {
        let mut game = self.start()?;
        game.play_texts(moves)?;
        Ok(game)
    }
}
