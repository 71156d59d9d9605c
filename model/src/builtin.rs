//! Networks shipped inside the program (`model/assets/README.md` says how each was trained
//! and how strong it is): the agent `bot[:SIMS]` of every command that takes an agent, with
//! no file to find at run time. A game has one when its encoder names it
//! ([`crate::Encoder::BUILTIN`]).

use crate::checkpoint::{self, CheckpointError};
use crate::net::{CrumbleNet, NetConfig};
use burn::tensor::Device;

/// A checkpoint compiled into the program.
#[derive(Debug, Clone, Copy)]
pub struct Builtin {
    /// The name errors and evaluators give it.
    pub name: &'static str,
    /// The checkpoint's bytes (the `*.crnet` format).
    pub bytes: &'static [u8],
}

impl Builtin {
    /// Decodes the network onto `device`. It is checked like any checkpoint file (magic,
    /// checksum, config, weights), so a damaged build fails here with a clear error.
    pub fn load(&self, device: &Device) -> Result<(NetConfig, CrumbleNet), CheckpointError> {
        checkpoint::decode(self.bytes, self.name, device)
    }
}
