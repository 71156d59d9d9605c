//! Match statistics: Elo from a score, confidence intervals, and the pentanomial GSPRT.
//!
//! Pure arithmetic, no games. Conventions, as in chess engine testing (Fishtest, cutechess-cli):
//!
//! * **Score** `s` = (wins + draws / 2) / games, in `[0, 1]`.
//! * **Elo** (logistic): `elo(s) = -400 · log10(1/s - 1)`, the inverse of
//!   `s(elo) = 1 / (1 + 10^(-elo/400))`; `±∞` at `s = 1` and `s = 0`.
//! * **Interval of a score** (normal approximation): `s ± z · sqrt(var / n)` where `var` is the
//!   sample variance of one unit's score (a game for win/draw/loss counts, a game pair for
//!   pentanomial counts) and `n` the number of units; the Elo interval is `elo()` of its ends.
//!   This is Fishtest's `stat_util.get_elo`. When every unit scored the same (variance 0, e.g.
//!   a 20–0 sweep), the normal approximation has no width; the Wilson score interval of the
//!   score over the games is used instead, so a sweep still gets a finite one-sided bound.
//! * **Pentanomial counts** (game pairs: one opening, each agent Black once): pairs by A's
//!   points `0, 1/2, 1, 3/2, 2` (LL, LD, WL+DD, WD, WW). Pairs are independent where single
//!   games of a pair are not (the opening favours one side), so pair-based intervals are the
//!   honest ones for paired matches, and usually narrower.
//!
//! # The GSPRT
//!
//! [`Sprt`] tests H0: `elo = elo0` against H1: `elo = elo1` (logistic Elo) on pentanomial
//! counts, with Wald's bounds `ln(β / (1 - α))` and `ln((1 - β) / α)`. The log-likelihood ratio
//! is the *generalized* one (GSPRT) used by Fishtest since 2020 (`LLRcalc.LLR_logistic`):
//! for each hypothesis the pentanomial distribution is replaced by its maximum-likelihood
//! estimate under the constraint "expected pair score = `s(elo)`", and
//! `LLR = N · Σ p̂ᵢ · ln(p₁ᵢ / p₀ᵢ)` over the five outcomes, with `p̂` the observed frequencies
//! (a zero count is replaced by 10⁻³, as Fishtest regularizes). The constrained MLE is
//! `pᵢ = p̂ᵢ / (1 + x·(aᵢ - s))` with `x` the root of the secular equation
//! `Σ p̂ᵢ (aᵢ - s) / (1 + x (aᵢ - s)) = 0` (M. Van den Bergh, "Computing the MLE of a
//! multinomial distribution with given expectation value", Proposition 1.1,
//! <https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf>), found here by bisection
//! (the left side is strictly decreasing in `x`).
//!
//! [`Sprt::llr_approx`] is Van den Bergh's closed-form approximation
//! `LLR ≈ N · (s₁ - s₀)(2s - s₀ - s₁) / (2 σ²)` with `s`, `σ²` the observed mean and variance
//! of the pair score ("A simple approximation of the GSPRT",
//! <https://www.cantate.be/Fishtest/GSPRT_approximation.pdf>; Fishtest's `LLR_alt2`).
//!
//! Worked example (tested): Stockfish test 5fe50b9d3932f79192d3973c (commit message of
//! Stockfish PR #3273, December 2020), bounds `{-0.25, 1.25}` logistic Elo, α = β = 0.05,
//! pentanomial `292, 5905, 28939, 6129, 299`: Fishtest reported `LLR: 2.95 (-2.94,2.94)`.

/// The 97.5% quantile of the standard normal law: two-sided 95% intervals.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Logistic Elo difference of a score: `-400 · log10(1/s - 1)`; `+∞` for `s ≥ 1`, `-∞` for
/// `s ≤ 0`.
pub fn elo_from_score(s: f64) -> f64 {
    if s >= 1.0 {
        f64::INFINITY
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score of a logistic Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Wilson score interval of a proportion: `successes` out of `n` trials (fractional successes
/// allowed, e.g. a score with draws counting half), `z` standard deviations. `(0, 1)` for
/// `n = 0`.
pub fn wilson(successes: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = (successes / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// A score with its 95% interval, and the same in logistic Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub score: f64,
    pub score_low: f64,
    pub score_high: f64,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
}

impl EloEstimate {
    /// From a mean score, the variance of one unit's score, the number of units and the
    /// number of games (for the Wilson fallback when the variance is 0).
    fn new(score: f64, var: f64, units: f64, games: f64) -> EloEstimate {
        let (lo, hi) = if units <= 0.0 {
            (0.0, 1.0)
        } else if var <= 1e-15 {
            wilson(score * games, games, Z95)
        } else {
            let half = Z95 * (var / units).sqrt();
            ((score - half).max(0.0), (score + half).min(1.0))
        };
        EloEstimate {
            score,
            score_low: lo,
            score_high: hi,
            elo: elo_from_score(score),
            elo_low: elo_from_score(lo),
            elo_high: elo_from_score(hi),
        }
    }
}

/// Wins, draws and losses of one side (trinomial counts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// (wins + draws/2) / games; 0.5 when there are no games.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
        }
    }

    /// Sample variance of one game's score (1, 1/2 or 0).
    pub fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s * s)
            / n
    }

    /// Score and Elo with 95% intervals, games taken as independent.
    pub fn elo_estimate(&self) -> EloEstimate {
        let n = self.games() as f64;
        EloEstimate::new(self.score(), self.variance(), n, n)
    }
}

/// Game pairs counted by A's points in the pair: `0, 1/2, 1, 3/2, 2` (LL, LD, WL+DD, WD, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Adds a pair given A's score in each game (each 0, 0.5 or 1).
    pub fn add(&mut self, first: f64, second: f64) {
        let k = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[k] += 1;
    }

    /// Mean score per game; 0.5 when there are no pairs.
    pub fn score(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        self.0
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * i as f64 / 4.0)
            .sum::<f64>()
            / n as f64
    }

    /// Sample variance of one pair's score (its points / 2: 0, 1/4, 1/2, 3/4 or 1).
    pub fn variance(&self) -> f64 {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        self.0
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * (i as f64 / 4.0 - s).powi(2))
            .sum::<f64>()
            / n
    }

    /// Score and Elo with 95% intervals, pairs taken as the independent units.
    pub fn elo_estimate(&self) -> EloEstimate {
        let n = self.pairs() as f64;
        EloEstimate::new(self.score(), self.variance(), n, 2.0 * n)
    }

    /// The observed distribution of the pair score (outcome, frequency), zero counts replaced
    /// by 10⁻³ as Fishtest does (`LLRcalc.regularize`), so that every constrained MLE exists.
    fn regularized_pdf(&self) -> (f64, [(f64, f64); 5]) {
        let counts = self.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let n: f64 = counts.iter().sum();
        let mut pdf = [(0.0, 0.0); 5];
        for (i, c) in counts.iter().enumerate() {
            pdf[i] = (i as f64 / 4.0, c / n);
        }
        (n, pdf)
    }
}

/// Why a statistic could not be set up.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum StatsError {
    #[error("SPRT `{0}`: expected four numbers elo0,elo1,alpha,beta (for example 0,10,0.05,0.05)")]
    SprtSyntax(String),
    #[error("SPRT: elo0 ({elo0}) must be smaller than elo1 ({elo1}), both finite")]
    SprtElo { elo0: f64, elo1: f64 },
    #[error("SPRT: alpha ({alpha}) and beta ({beta}) must lie in (0, 1) with alpha + beta < 1")]
    SprtErrorRates { alpha: f64, beta: f64 },
}

/// The state of a sequential test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtStatus {
    /// Neither bound crossed.
    Continue,
    /// The LLR fell to the lower bound: H0 (`elo = elo0`) accepted.
    AcceptH0,
    /// The LLR reached the upper bound: H1 (`elo = elo1`) accepted.
    AcceptH1,
}

impl SprtStatus {
    pub fn name(self) -> &'static str {
        match self {
            SprtStatus::Continue => "continue",
            SprtStatus::AcceptH0 => "H0 accepted",
            SprtStatus::AcceptH1 => "H1 accepted",
        }
    }
}

/// A pentanomial GSPRT of `elo = elo0` against `elo = elo1` (logistic Elo, A's view); see the
/// module documentation for the formulas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, StatsError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(StatsError::SprtElo { elo0, elo1 });
        }
        let ok = |p: f64| p > 0.0 && p < 1.0;
        if !(ok(alpha) && ok(beta) && alpha + beta < 1.0) {
            return Err(StatsError::SprtErrorRates { alpha, beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Parses `elo0,elo1,alpha,beta`.
    pub fn parse(text: &str) -> Result<Sprt, StatsError> {
        let v: Vec<f64> = text
            .split(',')
            .map(|t| t.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| StatsError::SprtSyntax(text.into()))?;
        match v[..] {
            [e0, e1, a, b] => Sprt::new(e0, e1, a, b),
            _ => Err(StatsError::SprtSyntax(text.into())),
        }
    }

    /// Wald's bounds `(ln(β/(1-α)), ln((1-β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalized log-likelihood ratio of H1 against H0 (Fishtest's `LLR_logistic`);
    /// 0 without pairs.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        let (n, pdf) = p.regularized_pdf();
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        let p0 = mle_with_mean(&pdf, s0);
        let p1 = mle_with_mean(&pdf, s1);
        n * pdf
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(&(_, ph), (&q0, &q1))| ph * (q1.ln() - q0.ln()))
            .sum::<f64>()
    }

    /// Van den Bergh's closed-form approximation of [`Sprt::llr`] (Fishtest's `LLR_alt2`).
    pub fn llr_approx(&self, p: &Pentanomial) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        let (n, pdf) = p.regularized_pdf();
        let s: f64 = pdf.iter().map(|(a, q)| a * q).sum();
        let var: f64 = pdf.iter().map(|(a, q)| q * (a - s).powi(2)).sum();
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// Which bound, if any, `llr` has crossed.
    pub fn status(&self, llr: f64) -> SprtStatus {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtStatus::AcceptH1
        } else if llr <= lo {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

/// The maximum-likelihood distribution on the outcomes of `pdf` with expected value `s`
/// (Van den Bergh, Proposition 1.1): `pᵢ / (1 + x (aᵢ - s))`, `x` the root of the secular
/// equation. Needs `min aᵢ < s < max aᵢ` and every `pᵢ > 0` (the regularized pdf has both).
fn mle_with_mean(pdf: &[(f64, f64); 5], s: f64) -> [f64; 5] {
    let shifted = pdf.map(|(a, p)| (a - s, p));
    let (v, w) = shifted
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &(a, _)| {
            (lo.min(a), hi.max(a))
        });
    debug_assert!(
        v < 0.0 && w > 0.0,
        "the expectation must lie inside the outcomes"
    );
    // f(x) = Σ pᵢ aᵢ / (1 + x aᵢ) decreases strictly from +∞ at x = -1/w to -∞ at x = -1/v.
    let f = |x: f64| {
        shifted
            .iter()
            .map(|&(a, p)| p * a / (1.0 + x * a))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (-1.0 / w, -1.0 / v);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    shifted.map(|(a, p)| p / (1.0 + x * a))
}

/// Formats an Elo value for people: `+123.4`, `-5.0`, `+inf`, `-inf`.
pub fn fmt_elo(e: f64) -> String {
    if e == f64::INFINITY {
        "+inf".into()
    } else if e == f64::NEG_INFINITY {
        "-inf".into()
    } else if (e * 10.0).round() == 0.0 {
        // No "-0.0" or "+0.0" for an anchor or an even match.
        "0.0".into()
    } else {
        format!("{e:+.1}")
    }
}

/// An Elo value for JSON: `null` when infinite.
pub fn json_elo(e: f64) -> Option<f64> {
    e.is_finite().then_some((e * 100.0).round() / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mle_keeps_a_feasible_mean() {
        let p = Pentanomial([3, 10, 20, 12, 5]);
        let (_, pdf) = p.regularized_pdf();
        for s in [0.3, 0.5, 0.61] {
            let q = mle_with_mean(&pdf, s);
            let total: f64 = q.iter().sum();
            let mean: f64 = q.iter().zip(&pdf).map(|(q, (a, _))| q * a).sum();
            assert!((total - 1.0).abs() < 1e-9, "{total}");
            assert!((mean - s).abs() < 1e-9, "{mean} vs {s}");
        }
    }
}
