//! Tic-tac-toe on the board: the page's default drawing (the game's text picture, each
//! square a button named as the notation writes it).

use super::ServeGame;
use crumble_core::games::tictactoe::TicTacToe;

impl ServeGame for TicTacToe {}
