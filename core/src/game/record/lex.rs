//! The words of a text record: tag lines, the movetext's words and `{…}` comments, the
//! escapes that keep a value or a comment from closing early, and the split of a file of
//! several records.

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

/// A tag line `[Name "value"]` (or `[Start {json}]`, the JSON bare, which would need much
/// escaping) -> (name, value); `no` is its line, for the error.
pub(super) fn parse_tag(line: &str, no: usize) -> Result<(String, String), RecordError> {
    let bad = |why: &str| fail(no, RecordErrorKind::BadTag(format!("{why} in {line:?}")));
    let t = line.trim();
    let Some(inner) = t.strip_prefix('[').and_then(|s| s.strip_suffix(']')) else {
        return bad("a tag is '[Name \"value\"]' on one line");
    };
    let inner = inner.trim();
    let name_len = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let (name, rest) = inner.split_at(name_len);
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return bad("the tag name must start with a letter");
    }
    let rest = rest.trim();
    // Crumble's records before the generic one called the start `Position`.
    if matches!(name, "Start" | "Position") && rest.starts_with('{') {
        return Ok((name.to_string(), rest.to_string()));
    }
    match quoted_value(rest) {
        Ok(value) => Ok((name.to_string(), value)),
        Err(why) => bad(why),
    }
}

/// A tag's value `"..."`, with `\"` and `\\` escaped inside; or why it is malformed.
fn quoted_value(rest: &str) -> Result<String, &'static str> {
    let Some(body) = rest.strip_prefix('"').and_then(|s| s.strip_suffix('"')) else {
        return Err("the value must be in double quotes");
    };
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('"' | '\\')) => value.push(e),
                _ => return Err("only \\\" and \\\\ may be escaped"),
            },
            '"' => return Err("a '\"' inside the value must be escaped as \\\""),
            c => value.push(c),
        }
    }
    Ok(value)
}

/// A token of the movetext: a word, or a comment's text.
#[derive(Debug)]
pub(super) enum Token<'a> {
    Word(&'a str),
    Comment(String),
}

/// The movetext's tokens: words split at whitespace, and `{...}` comments (which may span
/// lines, a line break reading as a space), each with the line it starts on (`lines`: each
/// line with its number).
pub(super) fn tokens<'a>(
    lines: &[(usize, &'a str)],
) -> Result<Vec<(usize, Token<'a>)>, RecordError> {
    let mut out = Vec::new();
    let mut comment: Option<(usize, String)> = None;
    for &(no, line) in lines {
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
            let (before, after) = match rest.find(['{', '}']) {
                Some(at) => (&rest[..at], Some(&rest[at..])),
                None => (rest, None),
            };
            out.extend(before.split_whitespace().map(|w| (no, Token::Word(w))));
            match after {
                None => break,
                Some(a) if a.starts_with('}') => return fail(no, RecordErrorKind::StrayBrace),
                Some(a) => {
                    comment = Some((no, String::new()));
                    rest = &a[1..];
                }
            }
        }
    }
    match comment {
        Some((start, _)) => fail(start, RecordErrorKind::UnclosedComment),
        None => Ok(out),
    }
}

/// Splits a text holding one or more game records: a record starts at a tag line that follows
/// movetext (braces are tracked so that a comment line starting with `[` does not count).
/// Returns each record with the 1-based line it starts on; blank chunks are left out.
pub fn split_records(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut first = 1;
    let (mut in_moves, mut in_comment) = (false, false);
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if !in_comment && in_moves && t.starts_with('[') {
            if !cur.trim().is_empty() {
                out.push((first, std::mem::take(&mut cur)));
            }
            cur.clear();
            first = i + 1;
            in_moves = false;
        }
        if !in_moves && !t.is_empty() && !t.starts_with('[') {
            in_moves = true;
        }
        if in_moves {
            for c in line.chars() {
                match c {
                    '{' => in_comment = true,
                    '}' => in_comment = false,
                    _ => {}
                }
            }
        }
        if cur.is_empty() && t.is_empty() {
            // Leading blank lines belong to no record; keep line numbers right.
            first = i + 2;
            continue;
        }
        cur.push_str(line);
        cur.push('\n');
    }
    if !cur.trim().is_empty() {
        out.push((first, cur));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::split_records;

    #[test]
    fn records_split_at_tags_after_movetext_but_not_inside_comments() {
        let text = "\n[Result \"*\"]\n\n1. 1HN {a comment\n[not a tag]} *\n\n[Result \"1-0\"]\n[Termination \"resignation\"]\n\n1. 1HN 1-0\n";
        let v = split_records(text);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].0, 2);
        assert!(v[0].1.contains("[not a tag]"));
        assert_eq!(v[1].0, 7);
        assert!(v[1].1.starts_with("[Result \"1-0\"]"));
    }
}
