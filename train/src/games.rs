//! The games a training run can learn, and what the training loop needs of each beyond the
//! generic pipeline: its encoder, the start of its self-play games and its network's
//! resolution. A program picks the game at its edge (`[game] name`) and runs generic code.

use crate::config::TrainConfig;
use crumble_core::testgames::TicTacToe;
use crumble_core::{Game, GameState, SizeError};
use crumble_model::{CrumbleEncoder, Encoder, NetConfig, TicTacToeEncoder};
use crumble_selfplay::GameHooks;

/// The names `[game] name` accepts.
pub const GAMES: &[&str] = &[<Game as GameState>::NAME, TicTacToe::NAME];

/// A game the training loop can learn.
pub trait TrainGame: GameHooks {
    /// The game's encoder for the network.
    type Encoder: Encoder<Self> + Clone + Default;

    /// The start of every self-play and evaluation game of a run with `cfg`.
    fn standard_start(cfg: &TrainConfig) -> Result<Self, SizeError>;

    /// The network of a run with `cfg`: `[net]`'s sizes with the encoder's shapes.
    fn net_config(cfg: &TrainConfig) -> NetConfig {
        cfg.net_config().with_encoder(&Self::Encoder::default())
    }
}

impl TrainGame for Game {
    type Encoder = CrumbleEncoder;

    fn standard_start(cfg: &TrainConfig) -> Result<Game, SizeError> {
        Game::new(cfg.selfplay.board, cfg.selfplay.resolution)
    }
}

impl TrainGame for TicTacToe {
    type Encoder = TicTacToeEncoder;

    fn standard_start(_cfg: &TrainConfig) -> Result<TicTacToe, SizeError> {
        Ok(TicTacToe::from_start(&Default::default()).expect("the empty board is a start"))
    }

    /// One grid cell per board cell: `[selfplay] resolution` and `[net] cell_pixels` are
    /// Crumble's and do not apply.
    fn net_config(cfg: &TrainConfig) -> NetConfig {
        cfg.net_config()
            .with_resolution(1)
            .with_cell_pixels(1)
            .with_encoder(&TicTacToeEncoder)
    }
}
