//! The games a training run can learn, and what the training loop needs of each beyond the
//! generic pipeline: its encoder, the start of its self-play games and its network's
//! resolution. A program picks the game at its edge (`[game] name`) and runs generic code.

use crate::config::TrainConfig;
use crumble_core::GameState;
use crumble_core::GameText;
use crumble_core::games::crumble::{Crumble, CrumbleStart};
use crumble_core::games::crumo::Crumo;
use crumble_core::games::nim::Nim;
use crumble_core::games::splinter::Splinter;
use crumble_core::games::tictactoe::TicTacToe;
use crumble_model::{
    CrumbleEncoder, CrumoEncoder, Encoder, NetConfig, NimEncoder, SplinterEncoder, TicTacToeEncoder,
};
use std::path::Path;

/// Why an openings file (`--openings`) was refused.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    #[error("cannot read openings file {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} line {line}: {what}")]
    Line {
        path: String,
        line: usize,
        what: String,
    },
    #[error("openings file {path} holds no openings")]
    Empty { path: String },
}

/// The registry of games: every game the program knows, one line each (its name is its
/// [`GameState::NAME`]), the default first. Everything that maps a name to a game goes
/// through it: [`GAMES`] and [`for_game!`](crate::for_game), and so the CLI's `--game`,
/// config validation, training and `serve`. A new game is one line here.
#[macro_export]
macro_rules! registry {
    ($callback:ident $(, $args:tt)?) => {
        $crate::$callback! {
            $($args;)?
            crumble_core::games::crumble::Crumble,
            crumble_core::games::splinter::Splinter,
            crumble_core::games::crumo::Crumo,
            crumble_core::games::tictactoe::TicTacToe,
            crumble_core::games::nim::Nim,
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __names {
    ($($T:ty),* $(,)?) => {
        &[$(<$T as crumble_core::GameState>::NAME),*]
    };
}

/// The names of the registry's games, the default first.
pub const GAMES: &[&str] = registry!(__names);

/// Runs `$body` with the type `$G` set to the game named `$name`, one of [`GAMES`] (callers
/// validate names first: an unknown one panics).
#[macro_export]
macro_rules! for_game {
    ($name:expr, $G:ident => $body:expr) => {
        $crate::registry!(__for_game_arms, ($name, $G, $body))
    };
}

/// The body of [`for_game!`]: one branch a game of the registry.
#[doc(hidden)]
#[macro_export]
macro_rules! __for_game_arms {
    (($name:expr, $G:ident, $body:expr); $($T:ty),* $(,)?) => {{
        let name: &str = $name;
        $(
            if name == <$T as crumble_core::GameState>::NAME {
                type $G = $T;
                $body
            } else
        )* {
            unreachable!("{name:?} is not a game of the registry: names are validated first")
        }
    }};
}

/// Why a config's start cannot be played ([`TrainGame::standard_start`]).
#[derive(Debug, thiserror::Error)]
#[error("{game}: {why}")]
pub struct StartError {
    pub game: &'static str,
    pub why: String,
}

impl StartError {
    fn of<G: GameState>(why: impl std::fmt::Display) -> StartError {
        StartError {
            game: G::NAME,
            why: why.to_string(),
        }
    }
}

/// The start `[game.start]` names for game `G` (its start JSON as TOML), or `G`'s default
/// start.
pub fn default_standard_start<G: GameState>(cfg: &TrainConfig) -> Result<G, StartError> {
    let spec: G::Start = match &cfg.game.start {
        Some(table) => {
            let json = serde_json::to_value(table).map_err(StartError::of::<G>)?;
            serde_json::from_value(json).map_err(StartError::of::<G>)?
        }
        None => G::Start::default(),
    };
    G::from_start(&spec).map_err(StartError::of::<G>)
}

/// A game the training loop can learn.
pub trait TrainGame: GameText {
    /// The game's encoder for the network.
    type Encoder: Encoder<Self> + Clone + Default;

    /// Does the program carry a network for this game (the agent `bot`; its encoder's
    /// [`Encoder::BUILTIN`])?
    const BUILTIN: bool = <Self::Encoder as Encoder<Self>>::BUILTIN.is_some();

    /// The agent `play` and `serve` use when none is named: the built-in network where the
    /// game has one, else a search without a network.
    const DEFAULT_AGENT: &'static str = if Self::BUILTIN {
        "bot"
    } else {
        "mcts:rollout:200"
    };

    /// The start of every self-play and evaluation game of a run with `cfg`: the game's start
    /// specification `[game.start]` (its start JSON as TOML), or its default start.
    fn standard_start(cfg: &TrainConfig) -> Result<Self, StartError> {
        default_standard_start(cfg)
    }

    /// The network of a run with `cfg`: `[net]`'s sizes with the encoder's shapes, one grid
    /// cell per board cell (Crumble's resolution and `[net] cell_pixels` are its own).
    fn net_config(cfg: &TrainConfig) -> NetConfig {
        cfg.net_config()
            .with_resolution(1)
            .with_cell_pixels(1)
            .with_encoder(&Self::Encoder::default())
    }

    /// The positions of an openings file (`--openings`, `crumble book suite`'s output), in
    /// order: one per line, either a position JSON object on one line, or moves in the
    /// game's notation from the standard start (Crumble's per-player frame: `1HN 5,5HSWS`);
    /// blank lines and lines starting with `#` are skipped. A finished position is refused.
    fn read_openings(path: &Path, cfg: &TrainConfig) -> Result<Vec<Self>, OpeningsError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| OpeningsError::Read {
            path: shown.clone(),
            source,
        })?;
        let mut out = Vec::new();
        for (no, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |what: String| OpeningsError::Line {
                path: shown.clone(),
                line: no + 1,
                what,
            };
            let game = opening_line::<Self>(line, cfg).map_err(&bad)?;
            if game.is_over() {
                return Err(bad(format!(
                    "the game is already over ({})",
                    game.result_text()
                )));
            }
            out.push(game);
        }
        if out.is_empty() {
            return Err(OpeningsError::Empty { path: shown });
        }
        Ok(out)
    }
}

/// One line of an openings file as a position, through position JSON as games store their
/// start.
fn opening_line<G: TrainGame>(line: &str, cfg: &TrainConfig) -> Result<G, String> {
    if line.starts_with('{') {
        return G::from_position_json(line).map_err(|e| e.to_string());
    }
    let mut g = G::standard_start(cfg).map_err(|e| e.to_string())?;
    for (i, m) in line.split_whitespace().enumerate() {
        let refused = |e: String| format!("move {} ({m:?}) refused: {e}", i + 1);
        let turn = g
            .parse_move(m, G::Notation::default())
            .map_err(|e| refused(e.to_string()))?;
        for d in turn {
            g.apply(d).map_err(|e| refused(e.to_string()))?;
        }
    }
    G::from_position_json(&g.position_json()).map_err(|e| e.to_string())
}

impl TrainGame for Crumble {
    type Encoder = CrumbleEncoder;

    /// `[game.start] resolution` grid units per cell (the default start's where the start
    /// does not play), `[net] cell_pixels` pixels per cell.
    fn net_config(cfg: &TrainConfig) -> NetConfig {
        let r = Crumble::standard_start(cfg).map_or(CrumbleStart::default().resolution, |g| {
            g.board().resolution()
        });
        cfg.net_config()
            .with_resolution(usize::from(r))
            .with_encoder(&CrumbleEncoder)
    }
}

impl TrainGame for TicTacToe {
    type Encoder = TicTacToeEncoder;
}

impl TrainGame for Nim {
    type Encoder = NimEncoder;
}

impl TrainGame for Splinter {
    type Encoder = SplinterEncoder;
}

impl TrainGame for Crumo {
    type Encoder = CrumoEncoder;

    /// `[game.start]` (default size 5), on a board the encoder's grid holds.
    fn standard_start(cfg: &TrainConfig) -> Result<Crumo, StartError> {
        let game = default_standard_start::<Crumo>(cfg)?;
        if !CrumoEncoder::fits_size(game.size()) {
            return Err(StartError::of::<Crumo>(format!(
                "a Crumo board for training has 2 to {} points per side",
                crumble_model::encoders::crumo::MAX_ENCODED_SIZE
            )));
        }
        Ok(game)
    }
}
