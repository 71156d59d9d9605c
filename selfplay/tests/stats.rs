//! Elo, intervals, the pentanomial GSPRT and the rating fit against hand-computed numbers and
//! a published Fishtest result.

use crumble_selfplay::ratings::{self, FitOptions, PairResult, RatingError};
use crumble_selfplay::stats::{
    Pentanomial, Sprt, SprtStatus, StatsError, Wdl, elo_from_score, score_from_elo, wilson,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} vs {b} (tolerance {tol})");
}

#[test]
fn elo_of_a_score_by_hand() {
    // 0.75 = 3 points for 1: -400·log10(1/3) = 400·log10(3) = 190.8485.
    close(elo_from_score(0.75), 190.848_5, 1e-3);
    close(elo_from_score(0.25), -190.848_5, 1e-3);
    close(elo_from_score(0.5), 0.0, 1e-12);
    // 10/11: odds 10, 400 Elo exactly.
    close(elo_from_score(10.0 / 11.0), 400.0, 1e-9);
    assert_eq!(elo_from_score(1.0), f64::INFINITY);
    assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    for e in [-350.0, -12.5, 0.0, 77.0, 600.0] {
        close(elo_from_score(score_from_elo(e)), e, 1e-9);
    }
}

#[test]
fn trinomial_interval_by_hand() {
    // 60 wins, 20 draws, 20 losses: s = 0.7, per-game variance
    // 0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.054 + 0.008 + 0.098 = 0.16, se = sqrt(0.16/100) = 0.04,
    // interval 0.7 ± 1.96·0.04 = [0.62160, 0.77840] (z = 1.959964: ± 0.0783986).
    let w = Wdl {
        wins: 60,
        draws: 20,
        losses: 20,
    };
    close(w.score(), 0.7, 1e-12);
    close(w.variance(), 0.16, 1e-12);
    let e = w.elo_estimate();
    close(e.score_low, 0.7 - 0.078_398_6, 1e-6);
    close(e.score_high, 0.7 + 0.078_398_6, 1e-6);
    // elo(0.7) = 400·log10(7/3) = 147.1907; elo(0.6216014) = 400·log10(0.6216014/0.3783986)
    // = 86.2250; elo(0.7783986) = 400·log10(0.7783986/0.2216014) = 218.2518.
    close(e.elo, 147.190_7, 1e-3);
    close(e.elo_low, 86.225, 2e-3);
    close(e.elo_high, 218.252, 2e-3);
}

#[test]
fn pentanomial_interval_by_hand() {
    // 10 pairs: 1 LL, 2 LD, 4 (WL or DD), 2 WD, 1 WW. Pair scores 0, .25, .5, .75, 1:
    // mean 0.5; variance (1·0.25 + 2·0.0625 + 0 + 2·0.0625 + 1·0.25) / 10 = 0.075;
    // se = sqrt(0.075/10) = 0.0866025, half-width 1.959964·se = 0.1697379.
    let p = Pentanomial([1, 2, 4, 2, 1]);
    assert_eq!(p.pairs(), 10);
    close(p.score(), 0.5, 1e-12);
    close(p.variance(), 0.075, 1e-12);
    let e = p.elo_estimate();
    close(e.score_low, 0.5 - 0.169_737_9, 1e-6);
    close(e.score_high, 0.5 + 0.169_737_9, 1e-6);
    close(e.elo, 0.0, 1e-12);
    // elo(0.6697379) = 400·log10(0.6697379/0.3302621) = 122.8184, symmetric below.
    close(e.elo_high, 122.818, 2e-3);
    close(e.elo_low, -122.818, 2e-3);
    // add() files a pair by its points.
    let mut q = Pentanomial::default();
    q.add(1.0, 0.5);
    q.add(0.5, 0.5);
    q.add(0.0, 1.0);
    q.add(0.0, 0.0);
    assert_eq!(q.0, [1, 0, 2, 1, 0]);
}

#[test]
fn a_sweep_gets_a_wilson_bound() {
    // 20 wins of 20: the normal interval has no width; Wilson's lower bound is
    // (1 + z²/40 - z·sqrt(z²/1600)) / (1 + z²/20) = 20/(20 + z²) = 0.838875.
    let w = Wdl {
        wins: 20,
        draws: 0,
        losses: 0,
    };
    let e = w.elo_estimate();
    assert_eq!(e.elo, f64::INFINITY);
    close(e.score_low, 20.0 / (20.0 + 1.959_964f64.powi(2)), 1e-6);
    assert!(e.elo_low.is_finite() && e.elo_low > 250.0, "{}", e.elo_low);
    let (lo, hi) = wilson(0.0, 10.0, 1.959_964);
    close(lo, 0.0, 1e-12);
    close(hi, 3.841_459 / 13.841_459, 1e-6);
}

#[test]
fn sprt_bounds_and_parse() {
    let s = Sprt::parse("0, 10, 0.05, 0.05").unwrap();
    let (lo, hi) = s.bounds();
    // ln(0.05/0.95) = -2.944439.
    close(lo, -2.944_439, 1e-6);
    close(hi, 2.944_439, 1e-6);
    let s = Sprt::new(-1.0, 4.0, 0.05, 0.1).unwrap();
    close(s.bounds().0, (0.1f64 / 0.95).ln(), 1e-12);
    close(s.bounds().1, (0.9f64 / 0.05).ln(), 1e-12);
    // Malformed SPRT settings, each refused with its kind of error.
    // Whether an error is of the kind expected.
    type Kind = fn(&StatsError) -> bool;
    let refusals: [(&str, Kind); 5] = [
        ("0,10,0.05", |e| matches!(e, StatsError::SprtSyntax(_))),
        ("0,x,0.05,0.05", |e| matches!(e, StatsError::SprtSyntax(_))),
        ("10,0,0.05,0.05", |e| {
            matches!(e, StatsError::SprtElo { .. })
        }),
        ("0,10,0,0.05", |e| {
            matches!(e, StatsError::SprtErrorRates { .. })
        }),
        ("0,10,0.6,0.5", |e| {
            matches!(e, StatsError::SprtErrorRates { .. })
        }),
    ];
    for (text, expected) in refusals {
        let e = Sprt::parse(text).unwrap_err();
        assert!(expected(&e), "{text}: {e:?}");
    }
}

/// Published: Stockfish PR #3273 (December 2020), Fishtest tests 5fe50b9d3932f79192d3973c
/// (STC) and 5fe552e43932f79192d39744 (LTC), logistic bounds, α = β = 0.05:
/// `LLR: 2.95 (-2.94,2.94) {-0.25,1.25}`, `Ptnml(0-2): 292, 5905, 28939, 6129, 299` and
/// `LLR: 2.92 (-2.94,2.94) {0.25,1.25}`, `Ptnml(0-2): 5, 418, 6043, 506, 12`.
#[test]
fn sprt_matches_a_published_fishtest_result() {
    let stc = Sprt::new(-0.25, 1.25, 0.05, 0.05).unwrap();
    let p = Pentanomial([292, 5905, 28939, 6129, 299]);
    let llr = stc.llr(&p);
    close(llr, 2.95, 0.005);
    assert_eq!(stc.status(llr), SprtStatus::AcceptH1);
    // The closed-form approximation agrees to about 0.01 here.
    close(stc.llr_approx(&p), 2.95, 0.01);

    let ltc = Sprt::new(0.25, 1.25, 0.05, 0.05).unwrap();
    let p = Pentanomial([5, 418, 6043, 506, 12]);
    close(ltc.llr(&p), 2.92, 0.005);
    close(ltc.llr_approx(&p), 2.92, 0.01);
    assert_eq!(ltc.status(ltc.llr(&p)), SprtStatus::Continue);
}

#[test]
fn sprt_moves_the_right_way() {
    let s = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
    assert_eq!(s.llr(&Pentanomial::default()), 0.0);
    // A stronger A pushes the LLR up, a weaker one down; a big enough sample stops.
    let strong = Pentanomial([2, 10, 40, 30, 18]);
    let weak = Pentanomial([18, 30, 40, 10, 2]);
    assert!(s.llr(&strong) > 0.0);
    assert!(s.llr(&weak) < 0.0);
    assert_eq!(s.status(s.llr(&weak)), SprtStatus::AcceptH0);
    let many = Pentanomial([20, 100, 400, 300, 180]);
    assert_eq!(s.status(s.llr(&many)), SprtStatus::AcceptH1);
}

#[test]
fn ratings_of_two_players_by_hand() {
    // Two players: the Davidson model is saturated, so the fit reproduces the frequencies:
    // πa/πb = wins_a / wins_b = 6/2 → 400·log10(3) = 190.85 Elo; ν = draws / sqrt(wa·wb)
    // = 4 / sqrt(12) = 1.1547.
    let res = [PairResult {
        a: 0,
        b: 1,
        a_wins: 6,
        draws: 4,
        b_wins: 2,
    }];
    let r = ratings::fit(
        2,
        &res,
        &FitOptions {
            anchor: 1,
            prior_draws: 0.0,
        },
    )
    .unwrap();
    close(r.elo[0], 190.848_5, 1e-4);
    close(r.elo[1], 0.0, 0.0);
    close(r.draw_nu, 4.0 / 12f64.sqrt(), 1e-6);
    assert!(r.low[0] < r.elo[0] && r.elo[0] < r.high[0]);
    assert_eq!(r.stderr[1], 0.0);
    // Without draws it is Bradley–Terry: 3 wins to 1 is 190.85 Elo as well.
    let res = [PairResult {
        a: 0,
        b: 1,
        a_wins: 3,
        draws: 0,
        b_wins: 1,
    }];
    let r = ratings::fit(
        2,
        &res,
        &FitOptions {
            anchor: 0,
            prior_draws: 0.0,
        },
    )
    .unwrap();
    close(r.elo[1], -190.848_5, 1e-4);
    assert_eq!(r.draw_nu, 0.0);
    // BT standard error by hand: information = n·p(1-p) = 4·0.75·0.25 = 0.75 in θ units,
    // se = sqrt(1/0.75)·400/ln10 = 200.59 Elo.
    close(
        r.stderr[1],
        (1.0f64 / 0.75).sqrt() * 400.0 / std::f64::consts::LN_10,
        1e-3,
    );
}

#[test]
fn rating_fit_recovers_known_strengths() {
    // Simulate a round robin of five players with known Davidson ratings, then fit.
    let truth = [0.0, 120.0, -80.0, 300.0, 200.0];
    let nu = 0.6;
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut results = Vec::new();
    for a in 0..truth.len() {
        for b in a + 1..truth.len() {
            let (pw, pd, _) = ratings::outcome_probabilities(truth[a] - truth[b], nu);
            let mut r = PairResult {
                a,
                b,
                ..PairResult::default()
            };
            for _ in 0..400 {
                let u: f64 = rng.random();
                if u < pw {
                    r.a_wins += 1;
                } else if u < pw + pd {
                    r.draws += 1;
                } else {
                    r.b_wins += 1;
                }
            }
            results.push(r);
        }
    }
    let fit = ratings::fit(
        truth.len(),
        &results,
        &FitOptions {
            anchor: 0,
            prior_draws: 0.0,
        },
    )
    .unwrap();
    for (p, t) in truth.iter().enumerate() {
        assert!(
            (fit.elo[p] - t).abs() <= 3.0 * fit.stderr[p] + 1e-9,
            "player {p}: fitted {} ± {} vs true {t}",
            fit.elo[p],
            fit.stderr[p]
        );
        if p > 0 {
            // 1,600 games per player: the intervals are tens of Elo wide, not hundreds.
            assert!(
                fit.stderr[p] > 5.0 && fit.stderr[p] < 30.0,
                "{}",
                fit.stderr[p]
            );
        }
    }
    close(fit.draw_nu, nu, 0.1);
    // The default prior (one virtual draw per pairing) barely moves 400-game pairings.
    let with_prior = ratings::fit(
        truth.len(),
        &results,
        &FitOptions {
            anchor: 0,
            prior_draws: 1.0,
        },
    )
    .unwrap();
    for p in 0..truth.len() {
        close(with_prior.elo[p], fit.elo[p], 5.0);
    }
    // The expected score of the model is logistic Elo without draws.
    close(ratings::expected_score(190.848_5, 0.0), 0.75, 1e-6);
    close(ratings::expected_score(0.0, 2.0), 0.5, 1e-12);
}

#[test]
fn rating_fit_refuses_bad_input() {
    let opts = FitOptions {
        anchor: 0,
        prior_draws: 1.0,
    };
    assert_eq!(ratings::fit(0, &[], &opts), Err(RatingError::NoPlayers));
    let r = |a, b, w| PairResult {
        a,
        b,
        a_wins: w,
        draws: 0,
        b_wins: 1,
    };
    assert!(matches!(
        ratings::fit(3, &[r(0, 1, 3)], &opts),
        Err(RatingError::Disconnected { player: 2, .. })
    ));
    assert!(matches!(
        ratings::fit(2, &[r(0, 5, 3)], &opts),
        Err(RatingError::BadPlayer { player: 5, .. })
    ));
    assert!(matches!(
        ratings::fit(2, &[r(1, 1, 3)], &opts),
        Err(RatingError::SelfPairing { .. })
    ));
    assert!(matches!(
        ratings::fit(
            2,
            &[r(0, 1, 3)],
            &FitOptions {
                anchor: 0,
                prior_draws: -1.0
            }
        ),
        Err(RatingError::BadPrior(_))
    ));
    // A sweep without a prior has no finite maximum; with the prior it does.
    let sweep = [PairResult {
        a: 0,
        b: 1,
        a_wins: 10,
        draws: 0,
        b_wins: 0,
    }];
    assert!(matches!(
        ratings::fit(
            2,
            &sweep,
            &FitOptions {
                anchor: 1,
                prior_draws: 0.0
            }
        ),
        Err(RatingError::Unbounded { player: 0, .. })
    ));
    let r = ratings::fit(
        2,
        &sweep,
        &FitOptions {
            anchor: 1,
            prior_draws: 1.0,
        },
    )
    .unwrap();
    assert!(r.elo[0] > 200.0 && r.elo[0].is_finite(), "{}", r.elo[0]);
}
