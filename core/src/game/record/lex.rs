//! The words of a text record: tag lines, the movetext's words and `{…}` comments, and the
//! escapes that keep a value or a comment from closing early.

use super::{RecordError, RecordErrorKind, fail};

pub(super) fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// A comment as movetext: braces inside cannot close it early.
pub(super) fn comment_text(c: &str) -> String {
    format!("{{{}}}", c.replace('}', ")").replace(['\n', '\r'], " "))
}

/// One tag line `[Name "value"]`, or `[Start {json}]` with the JSON bare.
pub(super) fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let rest = rest.trim();
    if name == "Start" && rest.starts_with('{') {
        return Some((name.to_string(), rest.to_string()));
    }
    let body = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

/// A token of the movetext.
pub(super) enum Token<'a> {
    Word(&'a str),
    Comment(String),
}

/// The movetext's words and comments with their lines.
pub(super) fn tokens(
    text: &str,
    first_line: usize,
) -> Result<Vec<(usize, Token<'_>)>, RecordError> {
    let mut out = Vec::new();
    let mut comment: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let no = first_line + i;
        let mut rest = line;
        loop {
            if let Some((start, c)) = comment.as_mut() {
                match rest.split_once('}') {
                    Some((inside, after)) => {
                        c.push_str(inside);
                        out.push((*start, Token::Comment(c.trim().to_string())));
                        comment = None;
                        rest = after;
                    }
                    None => {
                        c.push_str(rest);
                        c.push(' ');
                        break;
                    }
                }
                continue;
            }
            match rest.split_once('{') {
                Some((before, after)) => {
                    out.extend(before.split_whitespace().map(|w| (no, Token::Word(w))));
                    comment = Some((no, String::new()));
                    rest = after;
                }
                None => {
                    out.extend(rest.split_whitespace().map(|w| (no, Token::Word(w))));
                    break;
                }
            }
        }
    }
    match comment {
        Some((start, _)) => fail(start, RecordErrorKind::OpenComment),
        None => Ok(out),
    }
}
