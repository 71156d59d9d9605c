//! Each game's encoder, one file or folder a game: what the network sees of a state and how
//! its decisions map to policy logits. The [`Encoder`](crate::encoder::Encoder) trait and its
//! check are in [`crate::encoder`].

pub mod crumble;
pub mod crumo;
pub mod nim;
pub mod splinter;
pub mod tictactoe;

pub use crumble::CrumbleEncoder;
pub use crumo::CrumoEncoder;
pub use nim::NimEncoder;
pub use splinter::SplinterEncoder;
pub use tictactoe::TicTacToeEncoder;
