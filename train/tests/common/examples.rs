//! A game's worked examples (`core/tests/data/<game>-examples/*.json`: a start, the moves,
//! and the result JSON or the 1-based index of the first refused move), played through the
//! `crumble` program.

use super::{TempFile, crumble, json, stderr, stdout, temp_file_of};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

/// The worked examples of one game: its name, and the keys of a standard start's size in an
/// example, which are also the program's flags (`width` -> `--width`).
pub struct Examples {
    pub game: &'static str,
    pub size_keys: &'static [&'static str],
}

impl Examples {
    pub fn dir(&self) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../core/tests/data/{}-examples", self.game))
    }

    /// The examples' file names, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".json"))
            .collect();
        names.sort();
        names
    }

    pub fn get(&self, name: &str) -> Value {
        let path = self.dir().join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        serde_json::from_str(&text).unwrap()
    }

    /// The start flags of example `name`: `--game` and its size flags, or `--position` with
    /// its start written to a file (removed when the caller drops it); and `--max-turns` when
    /// it has one.
    pub fn start_args(&self, name: &str, case: &Value) -> (Vec<String>, Option<TempFile>) {
        let mut file = None;
        let mut args = vec!["--game".to_string(), self.game.to_string()];
        if case["start"] == "standard" {
            for key in self.size_keys {
                args.extend([format!("--{key}"), case[*key].to_string()]);
            }
        } else {
            let suite = format!("{}-test", self.game);
            let path = temp_file_of(&suite, name, &case["start"].to_string());
            args.extend(["--position".into(), path.to_string_lossy().into_owned()]);
            file = Some(path);
        }
        if let Some(t) = case.get("max_turns") {
            args.extend(["--max-turns".into(), t.to_string()]);
        }
        (args, file)
    }

    /// `replay` plays each of the `count` examples: the result JSON is the expected one (both
    /// through `normalise`), on one line; a refused move exits 2 naming its index and text,
    /// and every move before it is accepted.
    pub fn replay_all(&self, count: usize, normalise: fn(&Value) -> Value) {
        let names = self.names();
        assert_eq!(names.len(), count);
        for name in &names {
            let case = self.get(name);
            let (args, _file) = self.start_args(name, &case);
            let moves = strings(&case["moves"]);
            let o = run("replay", &args, &moves);
            if let Some(want) = case.get("expected") {
                assert!(o.status.success(), "{name}: {}", stderr(&o));
                assert_eq!(normalise(&json(&stdout(&o))), normalise(want), "{name}");
                assert!(stdout(&o).ends_with("}\n"), "{name}: one line of JSON");
            } else {
                let k = case["error_move_index"].as_u64().unwrap() as usize;
                assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
                assert!(o.stdout.is_empty(), "{name}");
                let err = stderr(&o);
                assert!(
                    err.contains(&format!("move {k} ({:?}) refused: ", moves[k - 1])),
                    "{name}: {err}"
                );
                let o = run("replay", &args, &moves[..k - 1]);
                assert!(o.status.success(), "{name}: {}", stderr(&o));
            }
        }
    }
}

pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// `crumble CMD ARGS... MOVES...`.
pub fn run(cmd: &str, args: &[String], moves: &[String]) -> Output {
    let mut all: Vec<&str> = vec![cmd];
    all.extend(args.iter().map(String::as_str));
    all.extend(moves.iter().map(String::as_str));
    crumble(&all)
}
