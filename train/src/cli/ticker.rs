//! The clock of a long command's progress lines: when it started, and whether the next line
//! is due.

use std::time::{Duration, Instant};

/// Started when created; [`Ticker::due`] is true at most once per period.
pub(crate) struct Ticker {
    start: Instant,
    last: Instant,
    every: Duration,
}

impl Ticker {
    /// A line at most every `secs` seconds, the first after `secs` seconds.
    pub(crate) fn every(secs: u64) -> Ticker {
        let now = Instant::now();
        Ticker {
            start: now,
            last: now,
            every: Duration::from_secs(secs),
        }
    }

    /// Whether a progress line is due (and if so, the next one a period later).
    pub(crate) fn due(&mut self) -> bool {
        let due = self.last.elapsed() >= self.every;
        if due {
            self.last = Instant::now();
        }
        due
    }

    /// Seconds since the start.
    pub(crate) fn secs(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}
