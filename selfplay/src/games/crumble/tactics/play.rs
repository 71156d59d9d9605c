//! Playing the suite: each position inside a real game, the first turn judged against the
//! exact answers, and the scores with their intervals.

use super::*;

/// What an agent did with one tactic.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    pub id: String,
    pub kind: Kind,
    /// The agent's move in per-player notation.
    pub played: String,
    pub solved: bool,
}

/// Solve rates by kind.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Score {
    /// (kind, solved, total) for each kind present.
    pub by_kind: Vec<(Kind, usize, usize)>,
}

impl Score {
    pub fn of(attempts: &[Attempt]) -> Score {
        let mut by_kind = Vec::new();
        for k in Kind::ALL {
            let n = attempts.iter().filter(|a| a.kind == k).count();
            if n > 0 {
                let solved = attempts.iter().filter(|a| a.kind == k && a.solved).count();
                by_kind.push((k, solved, n));
            }
        }
        Score { by_kind }
    }

    pub fn total(&self) -> (usize, usize) {
        self.by_kind
            .iter()
            .fold((0, 0), |(s, n), &(_, a, b)| (s + a, n + b))
    }

    /// Solve rate with its 95% Wilson interval.
    pub fn rate(solved: usize, total: usize) -> (f64, f64, f64) {
        let (lo, hi) = wilson(solved as f64, total as f64, Z95);
        (
            if total == 0 {
                0.0
            } else {
                solved as f64 / total as f64
            },
            lo,
            hi,
        )
    }
}

/// Plays every tactic of `suite` with pool agent `agent` inside games with turn limit
/// `max_turns` (0 = none; see the module docs) and reports each attempt, in suite order.
pub fn run(
    pool: &Pool<Crumble>,
    agent: usize,
    suite: &Suite,
    max_turns: u32,
    concurrency: usize,
    seed: u64,
) -> Result<Vec<Attempt>, arena::ArenaError> {
    let jobs: Vec<Job<Crumble>> = suite
        .tactics
        .iter()
        .enumerate()
        .map(|(i, t)| Job {
            agents: vec![agent],
            seating: Seating::SelfPlay,
            start: t.position.clone(),
            max_turns,
            stop_after_turns: 1,
            games: i as u64..i as u64 + 1,
            seed,
        })
        .collect();
    let mut out = Vec::with_capacity(jobs.len());
    arena::run_jobs(pool, &jobs, concurrency, &mut |k, records| {
        let t = &suite.tactics[k];
        let fail = |message: String| {
            arena::ArenaError::Sink(Box::new(TacticsError::Replay {
                id: t.id.clone(),
                message,
            }))
        };
        let rec = records
            .first()
            .ok_or_else(|| fail("no game was played".into()))?;
        let mut g = t.position.clone();
        let turn = g.turns_played();
        let mut path = Vec::new();
        for s in &rec.steps {
            if g.turns_played() != turn || g.is_over() {
                break;
            }
            path.push(s.decision);
            g.apply(s.decision)
                .map_err(|e| fail(format!("replaying the game: {e}")))?;
        }
        let mv = t
            .position
            .move_from_decisions(&path)
            .map_err(|e| fail(format!("the first turn: {e}")))?;
        out.push(Attempt {
            id: t.id.clone(),
            kind: t.kind,
            played: format_moves(&t.position, std::slice::from_ref(&mv))
                .pop()
                .unwrap_or_default(),
            solved: t.is_answer(&mv),
        });
        Ok(Flow::Continue)
    })?;
    Ok(out)
}
