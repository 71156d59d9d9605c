//! The two colours players' pieces wear in the project's games (Black moves first in each).

use crate::game::state::Player;
use std::fmt;

/// A player, and the colour of that player's pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    #[inline]
    pub fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// Lower-case name used in JSON and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    pub fn from_name(s: &str) -> Option<Color> {
        match s {
            "black" => Some(Color::Black),
            "white" => Some(Color::White),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The seat that plays a colour where seats keep their colours (every game but Crumo after a
/// swap): Black is the first seat.
impl From<Color> for Player {
    #[inline]
    fn from(c: Color) -> Player {
        match c {
            Color::Black => Player::First,
            Color::White => Player::Second,
        }
    }
}

impl From<Player> for Color {
    #[inline]
    fn from(p: Player) -> Color {
        match p {
            Player::First => Color::Black,
            Player::Second => Color::White,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_and_colours_convert_with_black_first() {
        assert_eq!(Player::from(Color::Black), Player::First);
        assert_eq!(Player::from(Color::White), Player::Second);
        assert_eq!(Color::from(Player::First), Color::Black);
        assert_eq!(Color::from(Player::Second), Color::White);
    }
}
