//! Strict readers of JSON objects for the games' position formats: an unknown or missing key,
//! or a value of the wrong type, is a [`KeyError`] that names the key by its path
//! (`captures.black`). [`parse`] reads the text itself, refusing a repeated key; a position
//! refused is a [`PositionError`].

use crate::game::Color;
use serde_json::{Map, Value};

/// A key is missing, unknown, or holds a value of the wrong type or range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {problem}")]
pub struct KeyError {
    pub key: String,
    pub problem: String,
}

/// Why a position's JSON was refused: by what the games' position formats share (the
/// JSON, its keys, the names of places, one entry a place), or by the game's own rules
/// (`R`). Each game names its instance `PositionError` (`N`: its error for a malformed name
/// of a place on its board).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError<N, R>
where
    N: std::error::Error + 'static,
    R: std::error::Error + 'static,
{
    /// Not JSON, or an object with a repeated key.
    #[error("malformed JSON: {0}")]
    Json(String),
    /// A key is missing, unknown, or holds a value of the wrong type or range.
    #[error(transparent)]
    Key(#[from] KeyError),
    /// A place's name (a point, a square) that is not one, or is off the board.
    #[error("{key}: {source}")]
    Place {
        key: String,
        #[source]
        source: N,
    },
    /// Two entries of the list `list` (`stacks`, `pieces`) on one place.
    #[error("{list}: two {list} on {place}")]
    Occupied { list: &'static str, place: String },
    /// The position breaks the game's rules.
    #[error(transparent)]
    Rules(R),
}

/// The JSON value of a position's text ([`parse`]), or why it is no JSON.
pub fn parse_position<N, R>(text: &str) -> Result<Value, PositionError<N, R>>
where
    N: std::error::Error + 'static,
    R: std::error::Error + 'static,
{
    parse(text).map_err(|e| PositionError::Json(e.to_string()))
}

/// The error of key `key`, as a [`KeyError`] or any error made from one (a game's position
/// error).
pub fn key_err<E: From<KeyError>>(key: impl Into<String>, problem: impl Into<String>) -> E {
    KeyError {
        key: key.into(),
        problem: problem.into(),
    }
    .into()
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

/// The root object of a position, with exactly the keys `required` (plus any of `optional`).
pub fn position_object<'a>(
    root: &'a Value,
    required: &[&str],
    optional: &[&str],
) -> Result<&'a Map<String, Value>, KeyError> {
    let obj = object(root, "position")?;
    only_keys(obj, required, optional, "")?;
    Ok(obj)
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

/// `v` as a colour, `"black"` or `"white"`.
pub fn color(v: &Value, key: &str) -> Result<Color, KeyError> {
    named(v, key, Color::from_name, "\"black\" or \"white\"")
}

/// `v` as a result's winner: a colour, or `null` for none.
pub fn winner(v: &Value, key: &str) -> Result<Option<Color>, KeyError> {
    match v {
        Value::Null => Ok(None),
        w => named(w, key, Color::from_name, "\"black\", \"white\" or null").map(Some),
    }
}

/// The JSON value of `text`, read like [`Value`] except that an object with a repeated key is
/// an error (serde_json alone would keep the last one).
pub fn parse(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<Strict>(text).map(|s| s.0)
}

/// A JSON value read like [`Value`], except that an object with a repeated key is an error
/// (serde_json would silently keep the last one).
struct Strict(Value);

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Strict;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Strict, E> {
        Ok(Strict(Value::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Strict, E> {
        Ok(Strict(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Strict, E> {
        Ok(Strict(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Strict, E> {
        Ok(Strict(v.into()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Strict, E> {
        Ok(Strict(Value::String(v.into())))
    }
    fn visit_string<E>(self, v: String) -> Result<Strict, E> {
        Ok(Strict(Value::String(v)))
    }
    fn visit_unit<E>(self) -> Result<Strict, E> {
        Ok(Strict(Value::Null))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        let mut v = Vec::new();
        while let Some(Strict(x)) = seq.next_element()? {
            v.push(x);
        }
        Ok(Strict(Value::Array(v)))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Strict, A::Error> {
        let mut map = Map::new();
        while let Some(k) = m.next_key::<String>()? {
            if map.contains_key(&k) {
                return Err(serde::de::Error::custom(format!("duplicate key {k:?}")));
            }
            let Strict(v) = m.next_value()?;
            map.insert(k, v);
        }
        Ok(Strict(Value::Object(map)))
    }
}
