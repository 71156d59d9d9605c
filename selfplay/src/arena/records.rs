//! Saving games: record files with readable game records beside, resumable.

use super::*;

/// Writes finished games as `PREFIX-NNNNNN.crsp` record files ([`crate::record`]), with the
/// same games as readable text ([`text_record`](crate::text_record::text_record) with the agents' names; for
/// Crumble, game records with tags `Black`, `White`, `Game` and the start position when it
/// is not the standard one) in `PREFIX-NNNNNN.txt`.
#[derive(Debug)]
pub struct RecordWriter<G> {
    dir: PathBuf,
    prefix: String,
    per_file: usize,
    next_file: u64,
    batch: Vec<(GameRecord, String, String)>,
    game: PhantomData<fn() -> G>,
}

impl<G: GameText> RecordWriter<G> {
    /// Creates `dir` if needed. Refuses a directory that already holds `PREFIX-*.crsp` files:
    /// games of two runs would mix.
    pub fn new(dir: &Path, prefix: &str, per_file: usize) -> Result<RecordWriter<G>, ArenaError> {
        let io = |error| ArenaError::Io {
            path: dir.display().to_string(),
            error,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        for e in std::fs::read_dir(dir).map_err(io)? {
            let name = e.map_err(io)?.file_name();
            let name = name.to_string_lossy();
            if name.starts_with(&format!("{prefix}-")) && name.ends_with(".crsp") {
                return Err(ArenaError::Io {
                    path: dir.join(&*name).display().to_string(),
                    error: std::io::Error::new(
                        std::io::ErrorKind::AlreadyExists,
                        "games of an earlier run are here; choose another directory",
                    ),
                });
            }
        }
        Ok(RecordWriter {
            dir: dir.to_path_buf(),
            prefix: prefix.into(),
            per_file: per_file.max(1),
            next_file: 0,
            batch: Vec::new(),
            game: PhantomData,
        })
    }

    /// Continues the games in `dir` that an earlier writer with the same `prefix` left
    /// there: returns them in order (files `PREFIX-000000.crsp`, `-000001`, ..., which must
    /// be numbered without gaps) with a writer that adds the next games to the last file
    /// until it holds `per_file`. Every game must carry its agents' names.
    pub fn resume(
        dir: &Path,
        prefix: &str,
        per_file: usize,
    ) -> Result<(RecordWriter<G>, Vec<GameRecord>), ArenaError> {
        let io = |path: &Path, error| ArenaError::Io {
            path: path.display().to_string(),
            error,
        };
        let mut numbers = Vec::new();
        for e in std::fs::read_dir(dir).map_err(|e| io(dir, e))? {
            let name = e.map_err(|e| io(dir, e))?.file_name();
            let name = name.to_string_lossy();
            if let Some(n) = name
                .strip_prefix(&format!("{prefix}-"))
                .and_then(|rest| rest.strip_suffix(".crsp"))
            {
                let bad = || ArenaError::Io {
                    path: dir.join(&*name).display().to_string(),
                    error: std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        "not a file this writer names (PREFIX-NNNNNN.crsp)",
                    ),
                };
                numbers.push(n.parse::<u64>().map_err(|_| bad())?);
            }
        }
        numbers.sort_unstable();
        if let Some(gap) = (0..numbers.len() as u64).find(|&i| numbers[i as usize] != i) {
            return Err(io(
                &dir.join(format!("{prefix}-{gap:06}.crsp")),
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "missing: the files have a gap",
                ),
            ));
        }
        let mut games = Vec::new();
        let mut last = Vec::new();
        for &n in &numbers {
            let path = dir.join(format!("{prefix}-{n:06}.crsp"));
            let file = crate::record::read_file_checked::<G>(&path)?;
            games.extend(file.iter().cloned());
            last = file;
        }
        let mut w = RecordWriter {
            dir: dir.to_path_buf(),
            prefix: prefix.into(),
            per_file: per_file.max(1),
            next_file: numbers.len() as u64,
            batch: Vec::new(),
            game: PhantomData,
        };
        if !last.is_empty() && last.len() < w.per_file {
            w.next_file -= 1;
            for g in last {
                let Some([first, second]) = g.agents.clone() else {
                    return Err(io(
                        &w.current_path(),
                        std::io::Error::new(
                            std::io::ErrorKind::InvalidData,
                            format!("game {} has no agent names", g.index),
                        ),
                    ));
                };
                w.batch.push((g, first, second));
            }
        }
        Ok((w, games))
    }

    /// [`RecordWriter::resume`] for the games of pairing `pairing` between agents named
    /// `names` (A, B): the game pairs finished so far, as [`play_pairings`] numbered them
    /// (pair `p` is games `2p`, A first, and `2p + 1`), read back as outcomes. Refuses an odd
    /// number of games, more than `pairs` pairs, or a game with another number or other
    /// agents: the directory holds another match's games.
    pub fn resume_pairs(
        dir: &Path,
        prefix: &str,
        per_file: usize,
        names: [&str; 2],
        pairing: usize,
        pairs: u64,
    ) -> Result<(RecordWriter<G>, Vec<PairOutcome>), ArenaError> {
        let (writer, games) = RecordWriter::<G>::resume(dir, prefix, per_file)?;
        let finished = pairs_of::<G>(dir, prefix, &games, names, pairing, pairs)?;
        Ok((writer, finished))
    }

    /// The game pairs of pairing `pairing` saved in `dir` (as [`RecordWriter::resume_pairs`]
    /// reads them, with no bound on their number), to report a match without playing on.
    pub fn saved_pairs(
        dir: &Path,
        prefix: &str,
        names: [&str; 2],
        pairing: usize,
    ) -> Result<Vec<PairOutcome>, ArenaError> {
        let (_, games) = RecordWriter::<G>::resume(dir, prefix, 1)?;
        pairs_of::<G>(dir, prefix, &games, names, pairing, u64::MAX / 2)
    }

    /// Queues a game with its agents' names; writes its file when it is full.
    pub fn push(
        &mut self,
        mut game: GameRecord,
        first: &str,
        second: &str,
    ) -> Result<(), ArenaError> {
        // The names travel in the file itself (format version 4), not only in the text.
        game.agents = Some([first.into(), second.into()]);
        self.batch.push((game, first.into(), second.into()));
        if self.batch.len() >= self.per_file {
            self.flush()?;
            self.batch.clear();
            self.next_file += 1;
        }
        Ok(())
    }

    fn current_path(&self) -> PathBuf {
        self.dir
            .join(format!("{}-{:06}.crsp", self.prefix, self.next_file))
    }

    /// Writes the queued games (if any) to the current file, replacing what an earlier
    /// flush wrote there (write and rename: a stop at any moment leaves a whole file); the
    /// next games join the same file until it holds `per_file`. Flushing after every game
    /// pair keeps every finished game on disk.
    pub fn flush(&mut self) -> Result<(), ArenaError> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let path = self.current_path();
        let mut text = String::new();
        for (g, first, second) in &self.batch {
            text.push_str(&crate::text_record::text_record::<G>(
                g,
                Some([first, second]),
            )?);
            text.push('\n');
        }
        let games: Vec<GameRecord> = self.batch.iter().map(|(g, ..)| g.clone()).collect();
        let write = |path: &Path, bytes: &[u8]| {
            crate::files::write_atomic(path, bytes).map_err(|error| ArenaError::Io {
                path: path.display().to_string(),
                error,
            })
        };
        write(&path, &crate::record::encode_file(&games))?;
        write(&path.with_extension("txt"), text.as_bytes())
    }
}

/// The saved `games` of `dir` as game pairs between `names`, checked as
/// [`RecordWriter::resume_pairs`] says.
fn pairs_of<G: GameState>(
    dir: &Path,
    prefix: &str,
    games: &[GameRecord],
    names: [&str; 2],
    pairing: usize,
    pairs: u64,
) -> Result<Vec<PairOutcome>, ArenaError> {
    let other = |what: String| ArenaError::Io {
        path: dir.join(format!("{prefix}-*.crsp")).display().to_string(),
        error: std::io::Error::new(std::io::ErrorKind::InvalidData, what),
    };
    if games.len() % 2 == 1 || games.len() as u64 > 2 * pairs {
        return Err(other(format!(
            "{} games; {pairs} game pairs can only have an even number up to {}",
            games.len(),
            2 * pairs
        )));
    }
    let mut finished = Vec::with_capacity(games.len() / 2);
    for (pair, two) in games.chunks_exact(2).enumerate() {
        for (i, g) in two.iter().enumerate() {
            let index = (2 * pair + i) as u64;
            let seats = if index.is_multiple_of(2) {
                names
            } else {
                [names[1], names[0]]
            };
            let agents = g.agents.as_ref().map(|[x, y]| [x.as_str(), y.as_str()]);
            if g.index != index || agents != Some(seats) {
                return Err(other(format!(
                    "game {} is not game {index} of {} against {}",
                    g.index, seats[0], seats[1]
                )));
            }
        }
        let two = [two[0].clone(), two[1].clone()];
        finished.push(PairOutcome::of_games::<G>(pairing, pair as u64, two)?);
    }
    Ok(finished)
}
