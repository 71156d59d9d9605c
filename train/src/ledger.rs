//! `progress.csv`, the run's ledger: one typed [`Row`] per finished generation.
//!
//! The columns are described once, in `ledger_columns!`: each is a field of [`Row`], a
//! CSV column of the same name, and (where it has one) the TensorBoard tag it is logged
//! under. A typo in a column name is a compile error, not a panic.
//!
//! The ledger is the run's commit record: a generation is finished exactly when its row is
//! there. It is written (header only) when the run is created, so a missing ledger is never
//! read as "nothing finished"; opening a run checks it against the files on disk (the run
//! module's `layout`). Rows are appended, each line written and synced whole ([`append`]): a
//! run killed in the middle of an append leaves a last line without its newline, which is
//! the unfinished generation's and is dropped when the run resumes ([`read`] skips it,
//! [`drop_torn_tail`] removes it). So each generation costs the same to commit, however long
//! the run.

use crate::run::{TrainError, io_err, write_atomic};
use std::path::Path;

macro_rules! ledger_columns {
    ($( $(#[$doc:meta])* $field:ident => $tag:expr, )*) => {
        /// One row of `progress.csv`: every figure of a finished generation (NaN = not
        /// measured, written as an empty cell).
        #[derive(Clone, Debug, PartialEq)]
        pub struct Row {
            $( $(#[$doc])* pub $field: f64, )*
        }

        impl Default for Row {
            fn default() -> Row {
                Row { $( $field: f64::NAN, )* }
            }
        }

        /// The columns of `progress.csv`, in order, with their TensorBoard tags.
        pub const COLUMNS: &[Column] = &[
            $( Column { name: stringify!($field), tag: $tag }, )*
        ];

        impl Row {
            /// The values in column order.
            pub fn values(&self) -> Vec<f64> {
                vec![$( self.$field, )*]
            }

            /// A row from values in column order (`None` if the count is wrong).
            pub fn from_values(v: &[f64]) -> Option<Row> {
                let mut it = v.iter().copied();
                let row = Row { $( $field: it.next()?, )* };
                it.next().is_none().then_some(row)
            }
        }
    };
}

/// A column of the ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    /// The TensorBoard scalar it is logged as, if any.
    pub tag: Option<&'static str>,
}

ledger_columns! {
    generation => None,
    unix_time => None,
    /// Training time of the run so far, over every process that worked on it.
    elapsed_s => None,
    /// The net self-play used.
    selfplay_net => None,
    /// The net the next generation plays self-play with.
    best_net => None,
    games => None,
    positions => Some("replay/new_positions"),
    selfplay_s => Some("time/selfplay_seconds"),
    games_per_hour => Some("selfplay/games_per_hour"),
    sims_per_s => Some("selfplay/simulations_per_second"),
    mean_turns => Some("selfplay/mean_game_length"),
    black_score => Some("selfplay/black_score"),
    draw_rate => Some("selfplay/draw_rate"),
    resign_fp_rate => Some("selfplay/resign_false_positive_rate"),
    steps => None,
    steps_total => Some("train/steps_total"),
    samples_per_s => Some("train/samples_per_second"),
    lr => Some("train/learning_rate"),
    policy_loss => Some("loss/policy"),
    value_loss => Some("loss/value"),
    l2_loss => Some("loss/l2"),
    total_loss => Some("loss/total"),
    policy_entropy => Some("train/policy_entropy"),
    value_sign_agreement => Some("train/value_sign_agreement"),
    replay_positions => Some("replay/window_positions"),
    train_s => Some("time/train_seconds"),
    score_vs_previous => Some("eval/score_vs_previous"),
    score_vs_random => Some("eval/score_vs_random"),
    score_vs_rollout => Some("eval/score_vs_rollout"),
    elo_vs_previous => Some("eval/elo_vs_previous"),
    elo_vs_random => Some("eval/elo_vs_random"),
    elo_vs_rollout => Some("eval/elo_vs_rollout"),
    /// Running sum of `elo_vs_previous`, carried over in generations without evaluation.
    elo => Some("eval/elo"),
    eval_s => Some("time/eval_seconds"),
    promoted => None,
    /// CPU time (user and system) of the run so far, over every training process that
    /// worked on it (external self-play workers' time is theirs, not counted here). Last, so
    /// that ledgers written before it existed read as a prefix (see [`read`]).
    cpu_s => Some("time/cpu_seconds"),
    /// The checkpoint the row's evaluation columns measured: the row's own generation when
    /// evaluation runs in the loop, an earlier one when it runs beside it (`[eval]
    /// background`); empty in rows without an evaluation.
    eval_net => None,
    /// The mean ownership loss of the generation's steps (`[optim] ownership_weight`);
    /// empty without one.
    ownership_loss => Some("loss/ownership"),
    /// The mean short-term value loss (`[optim] short_value_weight`); empty without one.
    short_value_loss => Some("loss/short_value"),
    /// The mean soft policy loss (`[optim] soft_policy_weight`); empty without one.
    soft_policy_loss => Some("loss/soft_policy"),
}

/// The columns of the oldest ledger [`read`] still accepts: ledgers written before the
/// columns after these existed read with those cells not measured.
const FIRST_COLUMNS: usize = 35;

/// The columns that hold wall-clock measurements: they differ between a run and the same
/// run killed and resumed (everything else is equal).
pub const TIME_COLUMNS: &[&str] = &[
    "unix_time",
    "elapsed_s",
    "selfplay_s",
    "games_per_hour",
    "sims_per_s",
    "samples_per_s",
    "train_s",
    "eval_s",
    "cpu_s",
];

/// The in-run evaluation opponents (each has a score and an Elo column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    Previous,
    Random,
    Rollout,
}

impl Opponent {
    pub fn name(self) -> &'static str {
        match self {
            Opponent::Previous => "previous",
            Opponent::Random => "random",
            Opponent::Rollout => "rollout",
        }
    }
}

impl Row {
    pub fn new(generation: u32) -> Row {
        Row {
            generation: f64::from(generation),
            ..Row::default()
        }
    }

    /// Sets the score and Elo columns of one evaluation opponent.
    pub fn set_eval(&mut self, opponent: Opponent, score: f64, elo: f64) {
        let (s, e) = match opponent {
            Opponent::Previous => (&mut self.score_vs_previous, &mut self.elo_vs_previous),
            Opponent::Random => (&mut self.score_vs_random, &mut self.elo_vs_random),
            Opponent::Rollout => (&mut self.score_vs_rollout, &mut self.elo_vs_rollout),
        };
        *s = score;
        *e = elo;
    }

    /// Was the generation evaluated (its evaluation time measured)?
    pub fn evaluated(&self) -> bool {
        self.eval_s.is_finite()
    }
}

fn header() -> String {
    COLUMNS.iter().map(|c| c.name).collect::<Vec<_>>().join(",")
}

/// Reads `progress.csv`. A missing file is an error: the ledger is created with the run. A
/// last line without its newline (an append cut short) is not a row. A ledger whose header
/// is an older, shorter prefix of [`COLUMNS`] reads with the newer columns not measured
/// ([`upgrade`] rewrites it with the current header).
pub fn read(path: &Path) -> Result<Vec<Row>, TrainError> {
    read_with_width(path).map(|(rows, _)| rows)
}

/// Rewrites a ledger written with an older header under the current one (its rows
/// unchanged, the newer cells empty), so rows can be appended to it again. Returns whether
/// it did.
pub fn upgrade(path: &Path) -> Result<bool, TrainError> {
    let (rows, width) = read_with_width(path)?;
    if width == COLUMNS.len() {
        return Ok(false);
    }
    write(path, &rows)?;
    Ok(true)
}

/// The rows and the number of columns the file's header has.
fn read_with_width(path: &Path) -> Result<(Vec<Row>, usize), TrainError> {
    let mut text = std::fs::read_to_string(path).map_err(io_err(path))?;
    if !text.ends_with('\n') {
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        text.truncate(keep);
    }
    let bad = |what: String| TrainError::Ledger {
        path: path.display().to_string(),
        what,
    };
    let mut lines = text.lines();
    let first = lines.next().ok_or_else(|| bad("empty file".into()))?;
    let width = first.split(',').count();
    let current = header();
    let prefix: Vec<&str> = current.split(',').take(width).collect();
    if width < FIRST_COLUMNS || first != prefix.join(",") {
        return Err(bad(format!("unexpected header `{first}`")));
    }
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() != width {
            return Err(bad(format!(
                "line {}: {} cells, expected {width}",
                i + 2,
                cells.len(),
            )));
        }
        let mut values = Vec::with_capacity(cells.len());
        for c in cells {
            values.push(if c.is_empty() {
                f64::NAN
            } else {
                c.parse()
                    .map_err(|_| bad(format!("line {}: `{c}` is not a number", i + 2)))?
            });
        }
        values.resize(COLUMNS.len(), f64::NAN);
        let row = Row::from_values(&values).expect("the cell count was checked");
        if row.generation != (i + 1) as f64 {
            return Err(bad(format!(
                "line {}: generation {} out of sequence",
                i + 2,
                row.generation
            )));
        }
        rows.push(row);
    }
    Ok((rows, width))
}

/// One row as a CSV line (with its newline).
fn line(r: &Row) -> String {
    let cells: Vec<String> = r
        .values()
        .iter()
        .map(|v| {
            if v.is_finite() {
                if v.fract() == 0.0 && v.abs() < 1e15 {
                    format!("{v:.0}")
                } else {
                    format!("{v:.6}")
                }
            } else {
                String::new()
            }
        })
        .collect();
    let mut s = cells.join(",");
    s.push('\n');
    s
}

/// Writes `progress.csv` whole through a temporary file and a rename.
pub fn write(path: &Path, rows: &[Row]) -> Result<(), TrainError> {
    let mut s = header();
    s.push('\n');
    for r in rows {
        s.push_str(&line(r));
    }
    write_atomic(path, s.as_bytes())
}

/// Commits a generation: appends its row as one write and syncs it to disk.
pub fn append(path: &Path, row: &Row) -> Result<(), TrainError> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(io_err(path))?;
    f.write_all(line(row).as_bytes()).map_err(io_err(path))?;
    f.sync_all().map_err(io_err(path))
}

/// Removes a last line cut short by a kill (see the module docs), so the next append starts
/// on a line of its own.
pub fn drop_torn_tail(path: &Path) -> Result<(), TrainError> {
    let text = std::fs::read(path).map_err(io_err(path))?;
    if text.last().is_some_and(|&b| b != b'\n') {
        let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(io_err(path))?;
        f.set_len(keep as u64).map_err(io_err(path))?;
        f.sync_all().map_err(io_err(path))?;
    }
    Ok(())
}

/// What the generation loop needs of the finished generations, in memory that does not grow
/// with the run: their count, the last row, the total of their positions, and the positions
/// and games of the newest ones the replay window can still hold.
#[derive(Clone, Debug, Default)]
pub struct History {
    pub done: u32,
    pub last: Option<Row>,
    pub total_positions: u64,
    /// `(generation, positions, games)`, oldest first; older generations than these cannot
    /// be in a window of at most `window_max` positions.
    recent: std::collections::VecDeque<(u32, u64, f64)>,
    /// Evaluations in a row, up to the last, that beat `random` and the rollout agent in
    /// every game (generations without an evaluation against one leave its count).
    perfect: [u32; 2],
}

impl History {
    pub fn new(rows: Vec<Row>, window_max: u64) -> History {
        let mut h = History::default();
        for r in rows {
            h.push(r, window_max);
        }
        h
    }

    /// Adds the row of the next finished generation.
    pub fn push(&mut self, row: Row, window_max: u64) {
        self.done = row.generation as u32;
        self.total_positions += row.positions as u64;
        for (k, score) in [row.score_vs_random, row.score_vs_rollout]
            .into_iter()
            .enumerate()
        {
            if score.is_finite() {
                self.perfect[k] = if score >= 1.0 { self.perfect[k] + 1 } else { 0 };
            }
        }
        self.recent
            .push_back((self.done, row.positions as u64, row.games));
        // Keep the newest generations whose positions fit in `window_max` (and one more).
        let mut held = 0u64;
        let mut keep = 0usize;
        for &(_, p, _) in self.recent.iter().rev() {
            keep += 1;
            held += p;
            if held > window_max {
                break;
            }
        }
        while self.recent.len() > keep {
            self.recent.pop_front();
        }
        self.last = Some(row);
    }

    /// Evaluations in a row, up to the last, in which the run's checkpoints beat `opponent`
    /// (`random` or the rollout agent) in every game; 0 for the previous checkpoint.
    pub fn perfect_streak(&self, opponent: Opponent) -> u32 {
        match opponent {
            Opponent::Random => self.perfect[0],
            Opponent::Rollout => self.perfect[1],
            Opponent::Previous => 0,
        }
    }

    /// Positions of finished generation `g`, if it is still tracked.
    pub fn positions_of(&self, g: u32) -> Option<u64> {
        self.recent.iter().find(|e| e.0 == g).map(|e| e.1)
    }

    /// Games of finished generation `g`, if it is still tracked.
    pub fn games_of(&self, g: u32) -> Option<f64> {
        self.recent.iter().find(|e| e.0 == g).map(|e| e.2)
    }
}

/// Creates the ledger of a new run (header only): from then on it always exists.
pub fn create(path: &Path) -> Result<(), TrainError> {
    write(path, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_and_bad_files_are_refused() {
        let dir = std::env::temp_dir().join(format!("crumble-ledger-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("progress.csv");
        assert!(read(&p).is_err(), "a missing ledger is an error");
        let mut r1 = Row::new(1);
        r1.policy_loss = 3.25;
        let mut r2 = Row::new(2);
        r2.elo = -12.5;
        r2.set_eval(Opponent::Random, 1.0, 400.0);
        write(&p, &[r1.clone(), r2.clone()]).unwrap();
        let back = read(&p).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].policy_loss, 3.25);
        assert!(back[0].elo.is_nan());
        assert_eq!(back[1].elo, -12.5);
        assert_eq!(back[1].score_vs_random, 1.0);
        assert_eq!(back[1].elo_vs_random, 400.0);
        std::fs::write(&p, "generation\n1\n").unwrap();
        assert!(read(&p).unwrap_err().to_string().contains("header"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_ledger_from_before_the_newer_columns_reads_and_upgrades() {
        let dir = std::env::temp_dir().join(format!("crumble-ledger-old-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("progress.csv");
        let mut r1 = Row::new(1);
        r1.elapsed_s = 12.5;
        r1.cpu_s = 20.0;
        write(&p, &[r1.clone()]).unwrap();
        // The same ledger as written before the newer columns existed.
        let old: String = std::fs::read_to_string(&p)
            .unwrap()
            .lines()
            .map(|l| {
                format!(
                    "{}\n",
                    l.split(',')
                        .take(FIRST_COLUMNS)
                        .collect::<Vec<_>>()
                        .join(",")
                )
            })
            .collect();
        std::fs::write(&p, &old).unwrap();
        let rows = read(&p).unwrap();
        assert_eq!(rows[0].elapsed_s, 12.5);
        assert!(rows[0].cpu_s.is_nan(), "not measured then");
        assert!(upgrade(&p).unwrap());
        assert!(!upgrade(&p).unwrap(), "once");
        append(&p, &Row::new(2)).unwrap();
        let rows = read(&p).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].elapsed_s, 12.5);
        // A header that is not a prefix of the columns, and a short row, are refused.
        std::fs::write(&p, old.replacen("unix_time", "unix_tim", 1)).unwrap();
        assert!(read(&p).unwrap_err().to_string().contains("header"));
        let mut torn = old.clone();
        torn.push_str("2,1\n");
        std::fs::write(&p, torn).unwrap();
        assert!(
            read(&p)
                .unwrap_err()
                .to_string()
                .contains("line 3: 2 cells")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn rows_are_appended_and_a_torn_last_line_is_dropped() {
        let dir =
            std::env::temp_dir().join(format!("crumble-ledger-append-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("progress.csv");
        create(&p).unwrap();
        append(&p, &Row::new(1)).unwrap();
        append(&p, &Row::new(2)).unwrap();
        assert_eq!(read(&p).unwrap().len(), 2);
        // A kill in the middle of the third append.
        let mut bytes = std::fs::read(&p).unwrap();
        bytes.extend_from_slice(b"3,17");
        std::fs::write(&p, &bytes).unwrap();
        assert_eq!(read(&p).unwrap().len(), 2, "a torn line is not a row");
        drop_torn_tail(&p).unwrap();
        append(&p, &Row::new(3)).unwrap();
        let rows = read(&p).unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2].generation, 3.0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn history_keeps_only_what_the_window_can_hold() {
        let rows: Vec<Row> = (1..=1000)
            .map(|g| Row {
                positions: 100.0,
                games: 4.0,
                ..Row::new(g)
            })
            .collect();
        let h = History::new(rows, 1000);
        assert_eq!(h.done, 1000);
        assert_eq!(h.total_positions, 100_000);
        assert_eq!(h.last.as_ref().unwrap().generation, 1000.0);
        // The newest 11 generations (1,100 positions > 1,000) and nothing older.
        assert_eq!(h.positions_of(1000), Some(100));
        assert_eq!(h.games_of(990), Some(4.0));
        assert_eq!(h.positions_of(989), None);
    }

    /// `[eval] retire_after` reads these streaks: only perfect evaluations in a row count,
    /// generations without an evaluation leave them, and a lost game starts them again.
    #[test]
    fn perfect_streaks_count_evaluations_won_in_every_game() {
        // (score vs random, score vs rollout) per generation; NaN: not evaluated.
        let nan = f64::NAN;
        let scores = [
            (1.0, 0.9),
            (nan, nan),
            (1.0, 1.0),
            (1.0, 1.0),
            (nan, nan),
            (0.95, 1.0),
            (1.0, nan),
        ];
        let rows = scores
            .iter()
            .enumerate()
            .map(|(g, &(random, rollout))| Row {
                score_vs_random: random,
                score_vs_rollout: rollout,
                ..Row::new(g as u32 + 1)
            });
        let h = History::new(rows.collect(), 1000);
        assert_eq!(h.perfect_streak(Opponent::Random), 1);
        assert_eq!(h.perfect_streak(Opponent::Rollout), 3);
        assert_eq!(h.perfect_streak(Opponent::Previous), 0);
    }

    #[test]
    fn columns_are_unique_and_time_columns_exist() {
        let mut names: Vec<&str> = COLUMNS.iter().map(|c| c.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), COLUMNS.len());
        for t in TIME_COLUMNS {
            assert!(names.contains(t), "{t}");
        }
        assert_eq!(Row::default().values().len(), COLUMNS.len());
    }
}
