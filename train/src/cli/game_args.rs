//! `--game NAME` (any game of the registry) with every game's start options (each game's
//! [`GameText::START_OPTIONS`]: Crumble's `--board`/`--resolution`, Splinter's
//! `--width`/`--height`, Crumo's `--size`), shared by `replay`, `moves`, `random-game`,
//! `show`, `perft`, `solve`, `bench rules` and `play`. A game refuses the options of the
//! others instead of ignoring them. [`Setup`] is the start of any game as the flags name it,
//! which the commands written once for every game play from.

use super::PositionArgs;
use anyhow::{Context as _, anyhow, bail};
use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgMatches, Command};
use crumble_core::game::StartOption;
use crumble_core::games::crumble::{Crumble, Frame};
use crumble_core::{GameState, GameText};
use crumble_train::games::GAMES;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct GameArgs {
    /// The game (its rules book: `core/src/games/NAME/RULES.md`).
    #[arg(long, value_parser = PossibleValuesParser::new(GAMES), default_value = GAMES[0])]
    pub game: String,
    #[command(flatten)]
    pub options: StartFlags,
}

/// The start options of every game of the registry, as flags (`--width W`): the ones given.
#[derive(Debug, Clone, Default)]
pub struct StartFlags {
    pub given: Vec<(&'static str, u32)>,
}

/// Each start option of the registry once, with the titles of the games that have it.
fn registry_options() -> Vec<(StartOption, Vec<&'static str>)> {
    let mut out: Vec<(StartOption, Vec<&'static str>)> = Vec::new();
    for &name in GAMES {
        let (options, title) = crumble_train::for_game!(name, G => (<G as GameText>::START_OPTIONS, <G as GameText>::TITLE));
        for o in options {
            match out.iter_mut().find(|(known, _)| known.name == o.name) {
                Some((_, titles)) => titles.push(title),
                None => out.push((*o, vec![title])),
            }
        }
    }
    out
}

impl clap::FromArgMatches for StartFlags {
    fn from_arg_matches(m: &ArgMatches) -> Result<StartFlags, clap::Error> {
        let given = registry_options()
            .into_iter()
            .filter_map(|(o, _)| m.get_one::<u32>(o.name).map(|v| (o.name, *v)))
            .collect();
        Ok(StartFlags { given })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = StartFlags::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for StartFlags {
    fn augment_args(cmd: Command) -> Command {
        registry_options()
            .into_iter()
            .fold(cmd, |cmd, (o, titles)| {
                let help = format!("{}: {}.", titles.join(", "), o.help);
                cmd.arg(
                    Arg::new(o.name)
                        .long(o.name)
                        .value_name(o.value_name)
                        .value_parser(clap::value_parser!(u32))
                        .help(help),
                )
            })
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        StartFlags::augment_args(cmd)
    }
}

impl StartFlags {
    /// The flags as typed (`--width 4 --height 10`).
    fn text(&self) -> String {
        let words: Vec<String> = self
            .given
            .iter()
            .map(|(n, v)| format!("--{n} {v}"))
            .collect();
        words.join(" ")
    }

    /// Refuses an option that is not one of `G`'s, naming the games it belongs to.
    pub fn refuse_foreign<G: GameText>(&self) -> anyhow::Result<()> {
        let Some((name, _)) = self
            .given
            .iter()
            .find(|(n, _)| !G::START_OPTIONS.iter().any(|o| o.name == *n))
        else {
            return Ok(());
        };
        let owners: Vec<&str> = registry_options()
            .into_iter()
            .find(|(o, _)| o.name == *name)
            .map(|(_, titles)| titles)
            .unwrap_or_default();
        let own: Vec<String> = G::START_OPTIONS
            .iter()
            .map(|o| format!("--{}", o.name))
            .collect();
        let its = if own.is_empty() {
            "it starts from its standard start or a --position file".to_string()
        } else {
            format!("its board is {} or a --position file", own.join("/"))
        };
        bail!(
            "--{name} is a {} flag: {} does not take it ({its})",
            owners.join(", "),
            G::TITLE
        )
    }

    /// `G`'s start specification these flags name: its default start with each option
    /// given set, checked by the game (an option of another game is refused).
    pub fn spec<G: GameText>(&self) -> anyhow::Result<serde_json::Value> {
        self.refuse_foreign::<G>()?;
        let mut spec = serde_json::to_value(G::Start::default())?;
        for (name, v) in &self.given {
            spec[*name] = (*v).into();
        }
        let start: G::Start =
            serde_json::from_value(spec.clone()).map_err(|e| anyhow!("{}: {e}", self.text()))?;
        G::from_start(&start).map_err(|e| anyhow!("{}: {e}", self.text()))?;
        Ok(spec)
    }
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

    /// For a Crumble command: the start these flags name with `moves` played on it, in the
    /// frame of `--frame`.
    pub fn crumble(&self, moves: &[String]) -> anyhow::Result<Crumble> {
        let start = self.setup(0, &[])?.start::<Crumble>()?;
        self.pos.replay_from(start, moves)
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
    /// The start of the chosen game as the flags name it, validated: each game refuses the
    /// start options of the others and `--frame` unless its moves have frames; Crumble also
    /// refuses `not_crumble` (flag, given), which the command takes for the other games only.
    /// `max_turns` is the turn limit, counted from the start (0: none).
    pub fn setup(
        &self,
        pos: &PositionArgs,
        max_turns: u32,
        not_crumble: &[(&str, bool)],
    ) -> anyhow::Result<Setup> {
        let game = GAMES
            .iter()
            .copied()
            .find(|g| *g == self.game)
            .context("the game was checked by the flag's parser")?;
        if game == Crumble::NAME
            && let Some((flag, _)) = not_crumble.iter().find(|(_, given)| *given)
        {
            bail!("{flag} is not a Crumble flag: it is for the other games");
        }
        let start = crumble_train::for_game!(game, G => {
            if pos.frame.is_some() && !pos.takes_frame::<G>() {
                bail!("--frame is a Crumble flag: {} does not take it", <G as GameText>::TITLE);
            }
            self.options.spec::<G>()?
        });
        if pos.position.is_some() && !self.options.given.is_empty() {
            bail!(
                "{} names a standard start: a --position file has its own size",
                self.options.text()
            );
        }
        Ok(Setup {
            game,
            start,
            position: pos.position.clone(),
            frame: pos.frame(),
            max_turns,
        })
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
