//! Ratings of many agents from their pairwise results: maximum likelihood in the
//! Bradley–Terry model with draws of Davidson (1970), anchored at one player, with 95%
//! confidence intervals from the observed information.
//!
//! # The model
//!
//! Each player has a rating `rᵢ` (Elo scale) and strength `πᵢ = 10^(rᵢ/400)`; one draw
//! parameter `ν ≥ 0` is shared. In a game of `i` against `j`:
//!
//! ```text
//! P(i wins) = πᵢ / D,   P(j wins) = πⱼ / D,   P(draw) = ν·sqrt(πᵢ πⱼ) / D,
//! D = πᵢ + πⱼ + ν·sqrt(πᵢ πⱼ)
//! ```
//!
//! (R. R. Davidson, "On extending the Bradley–Terry model to accommodate ties in paired
//! comparison experiments", JASA 65, 1970). The odds of a win against a loss are
//! `10^((rᵢ - rⱼ)/400)` whatever `ν`, and without draws (`ν = 0`) the model is Bradley–Terry,
//! whose ratings are logistic Elo. The expected score is [`expected_score`].
//!
//! # The fit
//!
//! With `θ = r·ln(10)/400` and `η = ln ν`, the negative log-likelihood is a sum of
//! log-sum-exp terms of linear functions minus a linear term, so it is **convex**: Newton's
//! method with a backtracking line search finds the global maximum. The anchor's rating is
//! fixed at 0. Standard errors are the square roots of the diagonal of the inverse Hessian
//! (the observed information) at the optimum; intervals are `r ± 1.96·se`, relative to the
//! anchor (whose interval is therefore empty).
//!
//! A player who won (or lost) every game has no finite maximum-likelihood rating. As
//! BayesElo does, a prior of `prior_draws` virtual draws is added to every pairing that was
//! played (default in the CLI: 1), which keeps every rating finite and shrinks ratings that
//! rest on few games; `0` gives the plain maximum-likelihood fit.

use std::collections::VecDeque;

/// The results of player `a` against player `b` (any number of games).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    pub a_wins: u64,
    pub draws: u64,
    pub b_wins: u64,
}

impl PairResult {
    pub fn games(&self) -> u64 {
        self.a_wins + self.draws + self.b_wins
    }
}

/// Settings of [`fit`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// The player whose rating is 0.
    pub anchor: usize,
    /// Virtual draws added to every pairing that has games (see the module docs).
    pub prior_draws: f64,
}

/// The fitted ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Rating of each player (Elo scale, anchor = 0).
    pub elo: Vec<f64>,
    /// Standard error of each rating relative to the anchor (0 for the anchor).
    pub stderr: Vec<f64>,
    /// 95% interval of each rating.
    pub low: Vec<f64>,
    pub high: Vec<f64>,
    /// Davidson's draw parameter `ν` (0 when there were no draws and no prior).
    pub draw_nu: f64,
    /// Newton iterations used.
    pub iterations: usize,
}

/// Why ratings could not be fitted.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum RatingError {
    #[error("no players to rate")]
    NoPlayers,
    #[error("result {index} names player {player}, but there are only {players} players")]
    BadPlayer {
        index: usize,
        player: usize,
        players: usize,
    },
    #[error("result {index} pairs player {player} with itself")]
    SelfPairing { index: usize, player: usize },
    #[error(
        "player {player} has no games linking it to the anchor (player {anchor}): its rating is undetermined"
    )]
    Disconnected { player: usize, anchor: usize },
    #[error(
        "player {player} {how} it played against the rest of the field: its rating has no finite maximum-likelihood value (a prior of virtual draws fixes this)"
    )]
    Unbounded { player: usize, how: &'static str },
    #[error(
        "every game was drawn: the draw rate has no finite maximum-likelihood value (a decisive game is needed)"
    )]
    OnlyDraws,
    #[error("prior_draws must be a finite number ≥ 0, got {0}")]
    BadPrior(f64),
    #[error("the rating fit did not converge in {0} Newton iterations")]
    NotConverged(usize),
}

const NAT: f64 = std::f64::consts::LN_10 / 400.0;
/// `η` used when draws play no part (no draws, no prior): `ν = e^-60`, numerically 0.
const NO_DRAWS_ETA: f64 = -60.0;

/// Expected score of a player rated `diff` Elo above the opponent, draw parameter `nu`:
/// `(P(win) + P(draw)/2)`; logistic Elo when `nu = 0`.
pub fn expected_score(diff: f64, nu: f64) -> f64 {
    let x = 10f64.powf(diff / 400.0);
    let d = nu * x.sqrt();
    (x + 0.5 * d) / (x + 1.0 + d)
}

/// Davidson-model outcome probabilities `(win, draw, loss)` for a player rated `diff` above
/// the opponent.
pub fn outcome_probabilities(diff: f64, nu: f64) -> (f64, f64, f64) {
    let x = 10f64.powf(diff / 400.0);
    let d = nu * x.sqrt();
    let den = x + 1.0 + d;
    (x / den, d / den, 1.0 / den)
}

struct Problem<'a> {
    n: usize,
    anchor: usize,
    results: &'a [PairResult],
    prior: f64,
    fit_draws: bool,
}

impl Problem<'_> {
    /// Number of free parameters: every player but the anchor, then `η` if draws are fitted.
    fn dim(&self) -> usize {
        self.n - 1 + usize::from(self.fit_draws)
    }

    fn index(&self, player: usize) -> Option<usize> {
        match player.cmp(&self.anchor) {
            std::cmp::Ordering::Less => Some(player),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(player - 1),
        }
    }

    fn theta(&self, x: &[f64], player: usize) -> f64 {
        self.index(player).map_or(0.0, |k| x[k])
    }

    fn eta(&self, x: &[f64]) -> f64 {
        if self.fit_draws {
            x[self.n - 1]
        } else {
            NO_DRAWS_ETA
        }
    }

    /// Negative log-likelihood, and optionally its gradient and Hessian (dense, row-major).
    fn eval(&self, x: &[f64], mut grad: Option<(&mut [f64], &mut [f64])>) -> f64 {
        let m = self.dim();
        if let Some((g, h)) = grad.as_mut() {
            g.fill(0.0);
            h.fill(0.0);
        }
        let eta = self.eta(x);
        let mut nll = 0.0;
        for r in self.results {
            if r.games() == 0 {
                continue;
            }
            let (wa, wb) = (r.a_wins as f64, r.b_wins as f64);
            let d = r.draws as f64 + self.prior;
            let n = wa + wb + d;
            let (ta, tb) = (self.theta(x, r.a), self.theta(x, r.b));
            let u = [ta, tb, eta + 0.5 * (ta + tb)];
            let top = u[0].max(u[1]).max(u[2]);
            let e = u.map(|v| (v - top).exp());
            let sum: f64 = e.iter().sum();
            let lse = top + sum.ln();
            nll += n * lse - (wa * u[0] + wb * u[1] + d * u[2]);
            let Some((g, h)) = grad.as_mut() else {
                continue;
            };
            let q = e.map(|v| v / sum);
            let c = [wa, wb, d];
            // d u_k / d (θa, θb, η): rows of J.
            let jac = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 1.0]];
            let vars = [
                self.index(r.a),
                self.index(r.b),
                self.fit_draws.then_some(self.n - 1),
            ];
            // Gradient: Jᵀ (n q - c); Hessian: n Jᵀ (diag q - q qᵀ) J.
            let mut gl = [0.0; 3];
            let mut hl = [[0.0; 3]; 3];
            for k in 0..3 {
                for (p, gp) in gl.iter_mut().enumerate() {
                    *gp += (n * q[k] - c[k]) * jac[k][p];
                }
            }
            for k in 0..3 {
                for l in 0..3 {
                    let cov = n * (if k == l { q[k] } else { 0.0 } - q[k] * q[l]);
                    for (p, row) in hl.iter_mut().enumerate() {
                        for (s, cell) in row.iter_mut().enumerate() {
                            *cell += jac[k][p] * cov * jac[l][s];
                        }
                    }
                }
            }
            for p in 0..3 {
                let Some(ip) = vars[p] else { continue };
                g[ip] += gl[p];
                for s in 0..3 {
                    if let Some(is) = vars[s] {
                        h[ip * m + is] += hl[p][s];
                    }
                }
            }
        }
        nll
    }
}

/// Solves `a · x = b` for a symmetric positive definite `a` (Cholesky); `None` if it is not.
fn cholesky_solve(a: &[f64], b: &[f64], m: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..=i {
            let mut s = a[i * m + j];
            for k in 0..j {
                s -= l[i * m + k] * l[j * m + k];
            }
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i * m + i] = s.sqrt();
            } else {
                l[i * m + j] = s / l[j * m + j];
            }
        }
    }
    let mut y = vec![0.0; m];
    for i in 0..m {
        let mut s = b[i];
        for k in 0..i {
            s -= l[i * m + k] * y[k];
        }
        y[i] = s / l[i * m + i];
    }
    let mut x = vec![0.0; m];
    for i in (0..m).rev() {
        let mut s = y[i];
        for k in i + 1..m {
            s -= l[k * m + i] * x[k];
        }
        x[i] = s / l[i * m + i];
    }
    Some(x)
}

/// Fits ratings of players `0..n` to `results` (see the module documentation).
pub fn fit(n: usize, results: &[PairResult], opts: &FitOptions) -> Result<Ratings, RatingError> {
    check_inputs(n, results, opts)?;
    check_bounded(n, results, opts)?;
    let decisive: u64 = results.iter().map(|r| r.a_wins + r.b_wins).sum();
    if decisive == 0 {
        return Err(RatingError::OnlyDraws);
    }
    let draws: u64 = results.iter().map(|r| r.draws).sum();
    let prob = Problem {
        n,
        anchor: opts.anchor,
        results,
        prior: opts.prior_draws,
        fit_draws: draws > 0 || opts.prior_draws > 0.0,
    };
    let (x, iterations) = prob.maximise()?;
    let var = prob.variances(&x, iterations)?;
    let mut elo = vec![0.0; n];
    let mut stderr = vec![0.0; n];
    for p in 0..n {
        if let Some(k) = prob.index(p) {
            elo[p] = x[k] / NAT;
            stderr[p] = var[k].max(0.0).sqrt() / NAT;
        }
    }
    let z = crate::stats::Z95;
    Ok(Ratings {
        low: elo.iter().zip(&stderr).map(|(e, s)| e - z * s).collect(),
        high: elo.iter().zip(&stderr).map(|(e, s)| e + z * s).collect(),
        elo,
        stderr,
        draw_nu: if prob.fit_draws {
            prob.eta(&x).exp()
        } else {
            0.0
        },
        iterations,
    })
}

/// Refuses no players, a bad prior, an anchor or a player out of range, and a player paired
/// with itself.
fn check_inputs(n: usize, results: &[PairResult], opts: &FitOptions) -> Result<(), RatingError> {
    if n == 0 {
        return Err(RatingError::NoPlayers);
    }
    if !(opts.prior_draws.is_finite() && opts.prior_draws >= 0.0) {
        return Err(RatingError::BadPrior(opts.prior_draws));
    }
    if opts.anchor >= n {
        return Err(RatingError::BadPlayer {
            index: 0,
            player: opts.anchor,
            players: n,
        });
    }
    for (index, r) in results.iter().enumerate() {
        for player in [r.a, r.b] {
            if player >= n {
                return Err(RatingError::BadPlayer {
                    index,
                    player,
                    players: n,
                });
            }
        }
        if r.a == r.b {
            return Err(RatingError::SelfPairing { index, player: r.a });
        }
    }
    Ok(())
}

/// Refuses results whose likelihood has no finite maximum: a player not linked to the
/// anchor by games (its rating is free), or one that won or lost every game against the
/// rest. A finite maximum exists when the "scored against" graph is strongly connected
/// (Ford's condition for Bradley-Terry; a draw scores both ways): every player reaches the
/// anchor and is reached from it.
fn check_bounded(n: usize, results: &[PairResult], opts: &FitOptions) -> Result<(), RatingError> {
    if let Some(player) = linked(n, results, opts, true, true).iter().position(|s| !s) {
        return Err(RatingError::Disconnected {
            player,
            anchor: opts.anchor,
        });
    }
    if let Some(player) = linked(n, results, opts, true, false)
        .iter()
        .position(|s| !s)
    {
        return Err(RatingError::Unbounded {
            player,
            how: "won every game",
        });
    }
    if let Some(player) = linked(n, results, opts, false, true)
        .iter()
        .position(|s| !s)
    {
        return Err(RatingError::Unbounded {
            player,
            how: "lost every game",
        });
    }
    Ok(())
}

/// The players reached from the anchor along "scored against" edges, taken `forward`
/// (p scored against q), `backward` (q scored against p), or both.
fn linked(
    n: usize,
    results: &[PairResult],
    opts: &FitOptions,
    forward: bool,
    backward: bool,
) -> Vec<bool> {
    let mut seen = vec![false; n];
    let mut queue = VecDeque::from([opts.anchor]);
    seen[opts.anchor] = true;
    while let Some(p) = queue.pop_front() {
        for r in results.iter().filter(|r| r.games() > 0) {
            let tie = r.draws > 0 || opts.prior_draws > 0.0;
            // An edge p -> q when p did not lose every game to q ("p scored against q").
            let next = if r.a == p
                && (forward && (r.a_wins > 0 || tie) || backward && (r.b_wins > 0 || tie))
            {
                r.b
            } else if r.b == p
                && (forward && (r.b_wins > 0 || tie) || backward && (r.a_wins > 0 || tie))
            {
                r.a
            } else {
                continue;
            };
            if !seen[next] {
                seen[next] = true;
                queue.push_back(next);
            }
        }
    }
    seen
}

impl Problem<'_> {
    /// Newton's method with a backtracking line search from `ν = 1` and every rating 0: the
    /// parameters at the maximum and the iterations it took.
    fn maximise(&self) -> Result<(Vec<f64>, usize), RatingError> {
        let (n, m) = (self.n, self.dim());
        let mut x = vec![0.0; m];
        if self.fit_draws {
            x[n - 1] = 0.0; // ν = 1 to start
        }
        let mut g = vec![0.0; m];
        let mut h = vec![0.0; m * m];
        let mut iterations = 0;
        let max_iter = 200;
        let mut converged = m == 0;
        while !converged && iterations < max_iter {
            iterations += 1;
            let f = self.eval(&x, Some((&mut g, &mut h)));
            // A tiny ridge keeps the step defined where a direction is flat (e.g. ν → 0).
            let mut hr = h.clone();
            for i in 0..m {
                hr[i * m + i] += 1e-10;
            }
            let neg: Vec<f64> = g.iter().map(|v| -v).collect();
            let Some(step) = cholesky_solve(&hr, &neg, m) else {
                return Err(RatingError::NotConverged(iterations));
            };
            let slope: f64 = g.iter().zip(&step).map(|(a, b)| a * b).sum();
            let mut t = 1.0;
            let mut trial = vec![0.0; m];
            loop {
                for i in 0..m {
                    trial[i] = x[i] + t * step[i];
                }
                let ft = self.eval(&trial, None);
                if ft <= f + 1e-4 * t * slope || t < 1e-12 {
                    break;
                }
                t *= 0.5;
            }
            let moved = step.iter().map(|s| (t * s).abs()).fold(0.0, f64::max);
            x.clone_from(&trial);
            converged = moved < 1e-10 || g.iter().map(|v| v.abs()).fold(0.0, f64::max) < 1e-10;
        }
        if !converged {
            return Err(RatingError::NotConverged(iterations));
        }
        Ok((x, iterations))
    }

    /// The variance of each parameter at `x`: the diagonal of the covariance, the inverse
    /// of the Hessian (solved column by column).
    fn variances(&self, x: &[f64], iterations: usize) -> Result<Vec<f64>, RatingError> {
        let m = self.dim();
        let mut g = vec![0.0; m];
        let mut h = vec![0.0; m * m];
        self.eval(x, Some((&mut g, &mut h)));
        let mut hr = h.clone();
        for i in 0..m {
            hr[i * m + i] += 1e-10;
        }
        let mut var = vec![0.0; m];
        for (i, v) in var.iter_mut().enumerate() {
            let mut e = vec![0.0; m];
            e[i] = 1.0;
            let col = cholesky_solve(&hr, &e, m).ok_or(RatingError::NotConverged(iterations))?;
            *v = col[i];
        }
        Ok(var)
    }
}
