//! The Crumble network shipped inside the program (`model/assets/README.md` says how it was
//! trained and how strong it is): the agent `bot[:SIMS]` of every command that takes an
//! agent, with no file to find at run time.

use crate::checkpoint::{self, CheckpointError};
use crate::net::{CrumbleNet, NetConfig};
use burn::tensor::Device;

/// The checkpoint's bytes (the `*.crnet` format).
pub const BYTES: &[u8] = include_bytes!("../assets/crumble-gen0079.crnet");

/// The name errors and evaluators give the built-in network.
pub const NAME: &str = "<built-in network gen-0079>";

/// Decodes the built-in network onto `device`. It is checked like any checkpoint file
/// (magic, checksum, config, weights), so a damaged build fails here with a clear error.
pub fn load(device: &Device) -> Result<(NetConfig, CrumbleNet), CheckpointError> {
    checkpoint::decode(BYTES, NAME, device)
}
