//! Strict readers of JSON objects for the games' position formats: an unknown or missing key,
//! or a value of the wrong type, is a [`KeyError`] that names the key by its path
//! (`captures.black`).

use serde_json::{Map, Value};

/// A key is missing, unknown, or holds a value of the wrong type or range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {problem}")]
pub struct KeyError {
    pub key: String,
    pub problem: String,
}

/// The error of key `key`.
pub fn key_err(key: impl Into<String>, problem: impl Into<String>) -> KeyError {
    KeyError {
        key: key.into(),
        problem: problem.into(),
    }
}

/// `v` as an object.
pub fn object<'a>(v: &'a Value, key: &str) -> Result<&'a Map<String, Value>, KeyError> {
    v.as_object()
        .ok_or_else(|| key_err(key, format!("expected an object, found {v}")))
}

/// Exactly the keys `required` (plus any of `optional`) in `obj`, the object at path `key`
/// (empty at the root): the first unknown key, else the first missing one, is refused.
pub fn only_keys(
    obj: &Map<String, Value>,
    required: &[&str],
    optional: &[&str],
    key: &str,
) -> Result<(), KeyError> {
    let at = |k: &str| {
        if key.is_empty() {
            k.to_string()
        } else {
            format!("{key}.{k}")
        }
    };
    if let Some(k) = obj
        .keys()
        .find(|k| !required.contains(&k.as_str()) && !optional.contains(&k.as_str()))
    {
        return Err(key_err(at(k), "unknown key"));
    }
    if let Some(r) = required.iter().find(|r| !obj.contains_key(**r)) {
        return Err(key_err(at(r), "missing"));
    }
    Ok(())
}

/// `v` as a string.
pub fn string<'a>(v: &'a Value, key: &str) -> Result<&'a str, KeyError> {
    v.as_str()
        .ok_or_else(|| key_err(key, format!("expected a string, found {v}")))
}

/// `v` as a string that `parse` reads as one of `what` (`"a colour"`).
pub fn named<T>(
    v: &Value,
    key: &str,
    parse: fn(&str) -> Option<T>,
    what: &str,
) -> Result<T, KeyError> {
    let s = string(v, key)?;
    parse(s).ok_or_else(|| key_err(key, format!("{s:?} is not {what}")))
}
