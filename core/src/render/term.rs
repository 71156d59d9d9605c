//! What every game's terminal pictures share: the ANSI 256-colour palette of the two sides and
//! the last move, and the escape that switches colours.

use std::fmt::Write as _;

// ANSI 256-colour palette: the two sides' pieces and the last move, in every game's picture.
pub const BG_BLACK: u8 = 236;
pub const BG_WHITE: u8 = 254;
pub const BG_HOT: u8 = 208;
pub const FG_HOT: u8 = 16;

/// Switches the terminal to foreground `fg` (or the default) on background `bg` (ANSI
/// 256-colour codes, other attributes reset).
pub fn sgr(out: &mut String, fg: Option<u8>, bg: u8) {
    let _ = match fg {
        Some(f) => write!(out, "\x1b[0;38;5;{f};48;5;{bg}m"),
        None => write!(out, "\x1b[0;48;5;{bg}m"),
    };
}
