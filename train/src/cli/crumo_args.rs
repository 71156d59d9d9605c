//! Crumo's flags for the commands that take `--game crumo`: `--size` or a `--position` file,
//! the other games' flags refused.

use super::PositionArgs;
use super::game_args::GameArgs;
use anyhow::bail;
use crumble_core::games::crumo::{MAX_SIZE, MIN_SIZE};

impl GameArgs {
    /// For a Crumo command: refuses the other games' flags and `others` (flag, given) that
    /// the command takes only for them, then validates the size.
    pub fn crumo(&self, pos: &PositionArgs, others: &[(&str, bool)]) -> anyhow::Result<u8> {
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
        self.crumo_size()
    }

    /// The size `--size` names (default 5), refused outside rule 1.1, and Splinter's board
    /// flags refused.
    pub fn crumo_size(&self) -> anyhow::Result<u8> {
        if self.width.is_some() || self.height.is_some() {
            bail!("--width/--height are Splinter flags: a Crumo board is --size N");
        }
        let size = self
            .size
            .unwrap_or(u32::from(crumble_core::games::crumo::DEFAULT_SIZE));
        if size < u32::from(MIN_SIZE) || size > u32::from(MAX_SIZE) {
            bail!(
                "--size {size}: a Crumo board has {MIN_SIZE} to {MAX_SIZE} points per side (core/src/games/crumo/RULES.md rule 1.1)"
            );
        }
        Ok(size as u8)
    }
}
