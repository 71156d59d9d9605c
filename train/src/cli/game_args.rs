//! `--game NAME` (any game of the registry) with Splinter's board flags and Crumo's `--size`,
//! shared by `replay`, `moves`, `random-game`, `show` and `bench rules`. Crumble stays the
//! default and keeps its own flags (`--frame`, `--board`, `--resolution`); each game refuses
//! the others' flags instead of ignoring them. [`Setup`] is the start of any game as the flags
//! name it, which the commands written once for every game play from.

use super::PositionArgs;
use anyhow::{Context as _, bail};
use clap::builder::PossibleValuesParser;
use crumble_core::games::crumble::{Crumble, CrumbleStart, Frame, board};
use crumble_core::games::crumo::{Crumo, CrumoStart};
use crumble_core::games::splinter::board::{MAX_HEIGHT, MAX_WIDTH, MIN_HEIGHT, MIN_WIDTH};
use crumble_core::games::splinter::{Splinter, SplinterStart};
use crumble_core::{GameState, GameText};
use crumble_train::games::GAMES;
use std::path::PathBuf;

/// Splinter's default board (rule 2.1).
pub const SPLINTER_WIDTH: u8 = 15;
pub const SPLINTER_HEIGHT: u8 = 18;

#[derive(Debug, clap::Args)]
pub struct GameArgs {
    /// The game (its rules book: `core/src/games/NAME/RULES.md`).
    #[arg(long, value_parser = PossibleValuesParser::new(GAMES), default_value = GAMES[0])]
    pub game: String,
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

/// A game and where it starts: `--game` with its board flags, and the position flags.
#[derive(Debug, clap::Args)]
pub struct StartArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub pos: PositionArgs,
}

impl StartArgs {
    /// The start these flags name: [`GameArgs::setup`].
    pub fn setup(&self, max_turns: u32, not_crumble: &[(&str, bool)]) -> anyhow::Result<Setup> {
        self.game.setup(&self.pos, max_turns, not_crumble)
    }
}

/// The flags of `replay` and `moves`: a game, its start, a turn limit and moves to play.
#[derive(Debug, clap::Args)]
pub struct PlayedArgs {
    #[command(flatten)]
    pub start: StartArgs,
    /// Turn limit (Splinter rule 8.4, Crumo rule 10.1), counted from the start position; 0
    /// means none [default: 0]. Not Crumble's.
    #[arg(long, value_name = "T")]
    pub max_turns: Option<u32>,
    /// Moves in the game's notation (Crumble, in the chosen frame: `1HN 5,5HSWS`; Splinter:
    /// `h9-h10`; Crumo: `3e5 e5-e7 pass swap`; tic-tac-toe: `b2`; Nim: `2-3`).
    #[arg(value_name = "MOVE")]
    pub moves: Vec<String>,
}

impl PlayedArgs {
    /// The start and the moves' game, validated (`--max-turns` is refused for Crumble).
    pub fn setup(&self) -> anyhow::Result<Setup> {
        let not_crumble = [("--max-turns", self.max_turns.is_some())];
        self.start.setup(self.max_turns.unwrap_or(0), &not_crumble)
    }
}

impl GameArgs {
    /// Game `name` (a registry name) with none of the board flags: its standard start.
    pub fn of(name: &str) -> GameArgs {
        GameArgs {
            game: name.to_string(),
            width: None,
            height: None,
            size: None,
        }
    }

    pub fn is_splinter(&self) -> bool {
        self.game == Splinter::NAME
    }

    pub fn is_crumo(&self) -> bool {
        self.game == Crumo::NAME
    }

    /// The start of the chosen game as the flags name it, validated: each game refuses the
    /// flags of the others, and Crumble also `not_crumble` (flag, given), which the command
    /// takes for the other games only. `max_turns` is the turn limit, counted from the start
    /// (0: none).
    pub fn setup(
        &self,
        pos: &PositionArgs,
        max_turns: u32,
        not_crumble: &[(&str, bool)],
    ) -> anyhow::Result<Setup> {
        let (start, frame) = if self.game == Crumble::NAME {
            self.check_crumble(not_crumble)?;
            let (n, r) = (pos.board.unwrap_or(6), pos.resolution.unwrap_or(8));
            board::check_size(n, r).context("bad --board/--resolution")?;
            // check_size bounds both by 1024, so they fit u16.
            let start = CrumbleStart::standard(n as u16, r as u16);
            (serde_json::to_value(start)?, pos.frame())
        } else if self.is_splinter() {
            let (width, height) = self.splinter(pos, &[])?;
            let start = SplinterStart::standard(width, height);
            (serde_json::to_value(start)?, Frame::default())
        } else if self.is_crumo() {
            let size = self.crumo(pos, &[])?;
            (
                serde_json::to_value(CrumoStart::standard(size))?,
                Frame::default(),
            )
        } else {
            self.check_no_board(pos)?;
            let start = crumble_train::for_game!(self.game.as_str(), G => {
                serde_json::to_value(<G as GameState>::Start::default())?
            });
            (start, Frame::default())
        };
        Ok(Setup {
            game: GAMES
                .iter()
                .copied()
                .find(|g| *g == self.game)
                .context("the game was checked by the flag's parser")?,
            start,
            position: pos.position.clone(),
            frame,
            max_turns,
        })
    }

    /// For a game with no board flags of its own (the test games): refuses every game's
    /// board flags.
    fn check_no_board(&self, pos: &PositionArgs) -> anyhow::Result<()> {
        let given = pos
            .crumble_flags()
            .into_iter()
            .chain(
                [
                    ("--width", self.width.is_some()),
                    ("--height", self.height.is_some()),
                    ("--size", self.size.is_some()),
                ]
                .into_iter()
                .filter(|(_, g)| *g)
                .map(|(f, _)| f),
            )
            .next();
        if let Some(flag) = given {
            bail!(
                "{flag} is not a flag of {}: it starts from its standard start or a --position file",
                self.game
            );
        }
        Ok(())
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
                    "{flag} {v}: a Splinter board has {min} to {max} {what} (core/src/games/splinter/RULES.md rule 2.1)"
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
    /// that the command takes only for Crumble, then validates the board: its width and
    /// height.
    pub fn splinter(
        &self,
        pos: &PositionArgs,
        others: &[(&str, bool)],
    ) -> anyhow::Result<(u8, u8)> {
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
        self.splinter_size()
    }
}

/// The start of any game as the flags name it: the game (a registry name), its standard start
/// as the game's start specification or a position file, Crumble's notation frame and the
/// turn limit.
#[derive(Debug, Clone)]
pub struct Setup {
    pub game: &'static str,
    start: serde_json::Value,
    position: Option<PathBuf>,
    frame: Frame,
    max_turns: u32,
}

impl Setup {
    /// The start position (the position file, read strictly, or the standard start), with
    /// the turn limit set (turns count from here).
    pub fn start<G: GameText>(&self) -> anyhow::Result<G> {
        let mut game = match &self.position {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read position file {}", path.display()))?;
                G::from_position_json(&text)
                    .with_context(|| format!("position file {} refused", path.display()))?
            }
            None => {
                let spec: G::Start = serde_json::from_value(self.start.clone())
                    .context("the start was built from the flags")?;
                G::from_start(&spec).context("the start was checked with the flags")?
            }
        };
        game.set_turn_limit(self.max_turns);
        Ok(game)
    }

    /// How moves are written: Crumble's frame for Crumble (`--frame`, which the other games
    /// refuse); every other game's one notation.
    pub fn notation<G: GameText>(&self) -> G::Notation {
        (&self.frame as &dyn std::any::Any)
            .downcast_ref::<G::Notation>()
            .copied()
            .unwrap_or_default()
    }

    /// The start with `moves` played on it; an error names the move's 1-based index, its
    /// text and why it was refused.
    pub fn replay<G: GameText>(&self, moves: &[String]) -> anyhow::Result<G> {
        let mut game = self.start::<G>()?;
        let notation = self.notation::<G>();
        for (i, text) in moves.iter().enumerate() {
            crumble_core::game::text::play_move_text(&mut game, text, notation)
                .map_err(|e| anyhow::anyhow!("move {} ({text:?}) refused: {e}", i + 1))?;
        }
        Ok(game)
    }
}
