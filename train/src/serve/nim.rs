//! Nim on the board: the page's default drawing (the heaps as text; a button a heap, then a
//! button a count: `2-…`, then `2-3`).

use super::ServeGame;
use crumble_core::games::nim::Nim;

impl ServeGame for Nim {}
