//! Text from the user (a move typed, a file name, a line of a file) that the program writes
//! back to the terminal goes through [`escape_controls`]: a raw escape byte would otherwise be
//! interpreted by the terminal (moving the cursor, changing colours, worse).

use std::borrow::Cow;

/// `s` with every control character except newline and tab written as a Rust escape
/// (`\u{1b}`); other text is unchanged and borrowed.
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_escaped) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_escaped(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn is_escaped(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

#[cfg(test)]
mod tests {
    use super::escape_controls;

    #[test]
    fn control_characters_are_escaped_and_others_kept() {
        assert_eq!(escape_controls("1HN é\tx\n"), "1HN é\tx\n");
        assert_eq!(escape_controls("1H\u{1b}[2J"), "1H\\u{1b}[2J");
        assert_eq!(
            escape_controls("a\rb\u{7f}\u{9b}"),
            "a\\u{d}b\\u{7f}\\u{9b}"
        );
    }
}
