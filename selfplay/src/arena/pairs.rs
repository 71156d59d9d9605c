//! Game pairs: one opening, each agent first once, for any list of pairings; their tallies.

use super::*;

/// Two pool agents; `a` is the first player in the first game of every pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub a: usize,
    pub b: usize,
}

/// Settings of [`play_pairings`].
#[derive(Clone, Debug)]
pub struct PairSettings {
    /// Game pairs per pairing.
    pub pairs: u64,
    /// Turn limit of every game, counted from its opening (0 = none).
    pub max_turns: u32,
    /// Games at once.
    pub concurrency: usize,
    /// With the game's number (pair `p` of every pairing plays games `2p` and `2p + 1`, A
    /// first in the even one), what every game's randomness derives from: a pairing's games
    /// do not depend on the other pairings played with it.
    pub seed: u64,
    /// When games end early by their searches' agreement (off by default).
    pub adjudication: Adjudication,
}

/// A finished game pair.
#[derive(Clone, Debug)]
pub struct PairOutcome {
    /// Index into the pairings.
    pub pairing: usize,
    /// Pair number within the pairing.
    pub pair: u64,
    /// The two games: A the first player in the first, the second player in the second.
    pub games: [GameRecord; 2],
    /// A's points in each game (1, 1/2 or 0).
    pub a_points: [f64; 2],
    /// Was A the first player in each game (yes in the first, no in the second)?
    pub a_first: [bool; 2],
    /// Turns played in each game.
    pub turns: [u32; 2],
}

impl PairOutcome {
    /// The outcome of a pair from its two games, numbered as they were played (agent A,
    /// agent 0, is first in the even-numbered games): for a pair just played, or read back
    /// from a match's records to resume it.
    pub fn of_games<G: GameState>(
        pairing: usize,
        pair: u64,
        games: [GameRecord; 2],
    ) -> Result<PairOutcome, ArenaError> {
        let mut turns = [0u32; 2];
        for (t, g) in turns.iter_mut().zip(&games) {
            *t = g.replay::<G>()?.turns_played();
        }
        let a_first = games.each_ref().map(|g| g.index.is_multiple_of(2));
        let side = |first: bool| if first { Player::First } else { Player::Second };
        Ok(PairOutcome {
            pairing,
            pair,
            a_points: [
                points(games[0].winner(), side(a_first[0])),
                points(games[1].winner(), side(a_first[1])),
            ],
            a_first,
            games,
            turns,
        })
    }
}

/// A's points in a game where A played `a_side`.
pub fn points(winner: Option<Player>, a_side: Player) -> f64 {
    match winner {
        None => 0.5,
        Some(w) if w == a_side => 1.0,
        Some(_) => 0.0,
    }
}

/// Plays `settings.pairs` game pairs for every pairing, pair `p` of every pairing from
/// `openings[p]` as games `2p` and `2p + 1`, and hands each finished pair to `on_pair`: each
/// pairing's pairs in order, different pairings' pairs as they finish (a slow pair holds back
/// only its own pairing's later pairs, so a tournament can store what is done). `done[k]` pairs of pairing `k` were played
/// before (0 where `done` has no entry): its pairs from there on are played, so a stopped
/// match or tournament goes on to the games an unbroken one plays. `on_round` sees the
/// engine's progress after every round of moves: games finish out of order, so a long match
/// can show progress before its first pair in order is done.
pub fn play_pairings<G: GameState>(
    pool: &Pool<G>,
    pairings: &[Pairing],
    done: &[u64],
    openings: &[G],
    settings: &PairSettings,
    on_pair: &mut dyn FnMut(&PairOutcome) -> Result<Flow, ArenaError>,
    on_round: &mut dyn FnMut(&Progress),
) -> Result<RunTotals, ArenaError> {
    if (openings.len() as u64) < settings.pairs {
        return Err(ArenaError::Openings(format!(
            "{} openings for {} game pairs",
            openings.len(),
            settings.pairs
        )));
    }
    let mut jobs = Vec::new();
    // (pairing, pair) of each job; the pairing is its lane.
    let mut keys = Vec::new();
    for (k, pg) in pairings.iter().enumerate() {
        for p in done.get(k).copied().unwrap_or(0)..settings.pairs {
            let first = 2 * p;
            jobs.push(Job {
                agents: vec![pg.a, pg.b],
                seating: Seating::Alternate,
                start: openings[p as usize].clone(),
                max_turns: settings.max_turns,
                stop_after_turns: 0,
                games: first..first + 2,
                seed: settings.seed,
            });
            keys.push((k, p));
        }
    }
    let adjudication = settings.adjudication;
    let lanes: Vec<usize> = keys.iter().map(|&(pairing, _)| pairing).collect();
    run_adjudicated(
        pool,
        &jobs,
        &lanes,
        settings.concurrency,
        adjudication,
        &mut |j, records| {
            let (pairing, pair) = keys[j];
            let [g0, g1]: [GameRecord; 2] = records.try_into().map_err(|v: Vec<GameRecord>| {
                ArenaError::Openings(format!("a game pair returned {} games", v.len()))
            })?;
            let out = PairOutcome::of_games::<G>(pairing, pair, [g0, g1])?;
            on_pair(&out)
        },
        on_round,
    )
}

/// A against B (pool agents 0 and 1): `settings.pairs` game pairs from `openings` as
/// [`play_pairings`] plays them, `on_pair` told A's tally after every pair (and saying
/// whether to go on). Returns A's tally.
pub fn play_match<G: GameState>(
    pool: &Pool<G>,
    openings: &[G],
    settings: &PairSettings,
    on_pair: &mut dyn FnMut(&Tally) -> Flow,
) -> Result<Tally, ArenaError> {
    let mut tally = Tally::default();
    let mut add = |p: &PairOutcome| {
        tally.add(p);
        Ok(on_pair(&tally))
    };
    let a_b = [Pairing { a: 0, b: 1 }];
    play_pairings(pool, &a_b, &[], openings, settings, &mut add, &mut |_| {})?;
    Ok(tally)
}

/// Running totals of one pairing, from A's side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// A's wins as the first and as the second player.
    pub a_wins_first: u64,
    pub a_wins_second: u64,
    /// Games won by the first player (either agent): the first-move advantage.
    pub first_wins: u64,
    pub second_wins: u64,
    pub turns: u64,
}

impl Tally {
    pub fn add(&mut self, pair: &PairOutcome) {
        for (i, &pts) in pair.a_points.iter().enumerate() {
            if pts == 1.0 {
                self.wdl.wins += 1;
                if pair.a_first[i] {
                    self.a_wins_first += 1;
                } else {
                    self.a_wins_second += 1;
                }
            } else if pts == 0.0 {
                self.wdl.losses += 1;
            } else {
                self.wdl.draws += 1;
            }
            match pair.games[i].winner() {
                Some(Player::First) => self.first_wins += 1,
                Some(Player::Second) => self.second_wins += 1,
                None => {}
            }
            self.turns += u64::from(pair.turns[i]);
        }
        self.penta.add(pair.a_points[0], pair.a_points[1]);
    }

    pub fn mean_turns(&self) -> f64 {
        let n = self.wdl.games();
        if n == 0 {
            0.0
        } else {
            self.turns as f64 / n as f64
        }
    }
}
