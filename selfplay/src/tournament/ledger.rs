//! The tournament's output directory: its settings and the finished pairings, stored as
//! they finish so that a later run plays only the rest.

use super::*;
use crate::arena::PairOutcome;
use crumble_core::GameText;
use crumble_core::game::hash::fnv1a;

/// A finished pairing as stored in `pairings.jsonl`, by agent string.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StoredPairing {
    pub a: String,
    pub b: String,
    pub tally: Tally,
}

impl StoredPairing {
    fn to_json(&self, records: &str) -> Value {
        let t = &self.tally;
        json!({
            "a": self.a, "b": self.b,
            "a_wins": t.wdl.wins, "draws": t.wdl.draws, "b_wins": t.wdl.losses,
            "a_wins_black": t.a_wins_first, "a_wins_white": t.a_wins_second,
            "black_wins": t.first_wins, "white_wins": t.second_wins,
            "pentanomial": t.penta.0, "turns": t.turns, "records": records,
        })
    }

    fn from_json(v: &Value) -> Option<StoredPairing> {
        let u = |k: &str| v.get(k)?.as_u64();
        let mut t = Tally::default();
        t.wdl.wins = u("a_wins")?;
        t.wdl.draws = u("draws")?;
        t.wdl.losses = u("b_wins")?;
        // The ledger's keys name Crumble's colours: Black is the first player.
        t.a_wins_first = u("a_wins_black")?;
        t.a_wins_second = u("a_wins_white")?;
        t.first_wins = u("black_wins")?;
        t.second_wins = u("white_wins")?;
        t.turns = u("turns")?;
        let p = v.get("pentanomial")?.as_array()?;
        if p.len() != 5 {
            return None;
        }
        for (k, x) in p.iter().enumerate() {
            t.penta.0[k] = x.as_u64()?;
        }
        Some(StoredPairing {
            a: v.get("a")?.as_str()?.into(),
            b: v.get("b")?.as_str()?.into(),
            tally: t,
        })
    }
}

/// The settings a stored tournament must share with this run to be continued: the game
/// pairs per pairing, turn limit, seed and adjudication of `play`, the openings (as described
/// to people), the game's start (its start JSON, [`crate::record::start_json`]) and the search.
pub fn settings_json(
    play: &PairSettings,
    openings: &str,
    start: &str,
    cfg: &ConfigFile,
) -> Result<Value, TournamentError> {
    let start: Value = serde_json::from_str(start).map_err(TournamentError::Settings)?;
    let mut settings = json!({
        "pairs_per_pairing": play.pairs,
        "max_turns": play.max_turns,
        "openings": openings,
        "seed": play.seed,
        "start": start,
        "search": serde_json::to_value(cfg.search.for_play()).map_err(TournamentError::Settings)?,
    });
    // Only when on, so that tournaments stored before adjudication existed still resume.
    if play.adjudication.is_on() {
        settings["adjudication"] =
            serde_json::to_value(play.adjudication).map_err(TournamentError::Settings)?;
    }
    Ok(settings)
}

/// Stored settings as [`settings_json`] writes them now: tournaments before the game's start
/// was stored kept Crumble's board as `board` and `resolution`, which is its start JSON.
fn upgraded(mut settings: Value) -> Value {
    if let Some(map) = settings.as_object_mut()
        && !map.contains_key("start")
        && let (Some(board), Some(resolution)) = (map.remove("board"), map.remove("resolution"))
    {
        map.insert(
            "start".into(),
            json!({ "board": board, "resolution": resolution }),
        );
    }
    settings
}

/// A tournament's output directory: `tournament.json` (the settings), `pairings.jsonl`
/// (one line per finished pairing, appended and synced whole) and `games/` (each pairing's
/// records, written after every game pair: `pairing-HASH-*`, or `pairing-NNNN-*` by the
/// order they finished in tournaments stored before).
#[derive(Debug)]
pub struct Ledger {
    dir: PathBuf,
    stored: Vec<StoredPairing>,
}

impl Ledger {
    /// Reads the stored settings and pairings of `dir`, refusing other settings
    /// ([`TournamentError::OtherSettings`]), or starts a new tournament there.
    pub fn open(dir: &Path, settings: &Value) -> Result<Ledger, TournamentError> {
        std::fs::create_dir_all(dir).map_err(io_err("create", dir))?;
        let sp = dir.join("tournament.json");
        if sp.exists() {
            let text = std::fs::read_to_string(&sp).map_err(io_err("read", &sp))?;
            let stored: Value =
                serde_json::from_str(&text).map_err(|source| TournamentError::Json {
                    path: sp.clone(),
                    source,
                })?;
            if stored.get("settings").cloned().map(upgraded).as_ref() != Some(settings) {
                return Err(TournamentError::OtherSettings(dir.to_path_buf()));
            }
        } else {
            std::fs::write(&sp, format!("{:#}\n", json!({ "settings": settings })))
                .map_err(io_err("write", &sp))?;
        }
        let jp = dir.join("pairings.jsonl");
        let mut stored = Vec::new();
        if jp.exists() {
            let text = std::fs::read_to_string(&jp).map_err(io_err("read", &jp))?;
            for (no, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let d = serde_json::from_str::<Value>(line)
                    .ok()
                    .as_ref()
                    .and_then(StoredPairing::from_json)
                    .ok_or_else(|| TournamentError::BadLine {
                        path: jp.clone(),
                        line: no + 1,
                    })?;
                stored.push(d);
            }
        }
        Ok(Ledger {
            dir: dir.to_path_buf(),
            stored,
        })
    }

    /// The finished pairings, in the order they were stored.
    pub fn stored(&self) -> &[StoredPairing] {
        &self.stored
    }

    /// The result of `a` against `b` from A's side, found among the stored ones in either
    /// order.
    pub fn lookup(&self, a: &str, b: &str) -> Option<Tally> {
        self.stored.iter().find_map(|d| {
            if d.a == a && d.b == b {
                Some(d.tally)
            } else if d.a == b && d.b == a {
                let mut t = d.tally;
                std::mem::swap(&mut t.wdl.wins, &mut t.wdl.losses);
                t.penta.0.reverse();
                // A's wins by colour are not kept for the swapped side: the ratings do not use them.
                (t.a_wins_first, t.a_wins_second) = (0, 0);
                Some(t)
            } else {
                None
            }
        })
    }

    /// The games of the pairing of `a` against `b` played so far (whole game pairs, in
    /// order, as pairing `pairing` of [`arena::play_pairings`] of `pairs` pairs), with the
    /// writer that adds the next ones to `games/`: a stopped tournament keeps every finished
    /// pair, not only finished pairings. A pairing's records are named by its two agents
    /// (`pairing-HASH`), so they are found again whatever order pairings finish in.
    pub fn open_pairing<G: GameText>(
        &self,
        a: &Entry,
        b: &Entry,
        pairing: usize,
        pairs: u64,
    ) -> Result<(RecordWriter<G>, Vec<PairOutcome>), TournamentError> {
        let dir = self.dir.join("games");
        std::fs::create_dir_all(&dir).map_err(io_err("create", &dir))?;
        let prefix = records_prefix(&a.spec.to_string(), &b.spec.to_string());
        let names = [a.name.as_str(), b.name.as_str()];
        Ok(RecordWriter::resume_pairs(
            &dir,
            &prefix,
            RECORDS_PER_FILE,
            names,
            pairing,
            pairs,
        )?)
    }

    /// Stores a finished pairing, whose games [`Ledger::open_pairing`]'s writer holds: its
    /// line in `pairings.jsonl` (one write, synced).
    pub fn commit(&mut self, a: &Entry, b: &Entry, tally: &Tally) -> Result<(), TournamentError> {
        let d = StoredPairing {
            a: a.spec.to_string(),
            b: b.spec.to_string(),
            tally: *tally,
        };
        let records = format!("games/{}", records_prefix(&d.a, &d.b));
        append_line(&self.dir.join("pairings.jsonl"), &d.to_json(&records))?;
        self.stored.push(d);
        Ok(())
    }
}

/// Games per record file: a pairing's games all go to one file, rewritten whole after every
/// pair.
const RECORDS_PER_FILE: usize = 1 << 20;

/// The records' name of the pairing of agents `a` and `b` (agent strings, A first): stable
/// across runs and Rust versions (FNV-1a).
pub(super) fn records_prefix(a: &str, b: &str) -> String {
    format!("pairing-{:016x}", fnv1a(format!("{a}\n{b}").as_bytes()))
}

fn append_line(path: &Path, v: &Value) -> Result<(), TournamentError> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io_err("open", path))?;
    writeln!(f, "{v}").map_err(io_err("write", path))?;
    f.sync_all().map_err(io_err("write", path))
}
