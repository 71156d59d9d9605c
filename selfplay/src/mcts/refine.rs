//! KataGo's search refinements, each a config switch and each a pure function of the numbers
//! it reads, so that it can be tested alone: the root policy temperature, exploration scaled
//! by the spread of values, and the move choice by lower confidence bound.

use crate::config::{LcbConfig, StdevExplorationConfig};

/// `priors` raised to `1/temperature` and renormalised (KataGo's root policy temperature);
/// unchanged at temperature 1 or when nothing has mass.
pub(super) fn temper_priors(priors: &mut [f32], temperature: f32) {
    if (temperature - 1.0).abs() < 1e-6 {
        return;
    }
    let inv = 1.0 / temperature;
    let mut sum = 0.0f32;
    for p in priors.iter_mut() {
        *p = p.max(0.0).powf(inv);
        sum += *p;
    }
    if sum > 0.0 {
        priors.iter_mut().for_each(|p| *p /= sum);
    }
}

/// The standard deviation of the values backed up `n` times with sum `w` and sum of squares
/// `w2`, blended with `prior` as if it had been seen `prior_weight` times.
pub(super) fn value_stdev(n: u32, w: f64, w2: f32, prior: f32, prior_weight: f32) -> f32 {
    let n = n as f32;
    let sample_var = if n > 0.0 {
        let mean = (w / f64::from(n)) as f32;
        (w2 / n - mean * mean).max(0.0)
    } else {
        0.0
    };
    let var = (prior_weight * prior * prior + n * sample_var) / (prior_weight + n).max(1e-6);
    var.sqrt()
}

/// The multiplier of `c_puct` at a node with these backed-up values (`1` when off).
pub(super) fn exploration_scale(cfg: &StdevExplorationConfig, n: u32, w: f64, w2: f32) -> f32 {
    if cfg.scale == 0.0 {
        return 1.0;
    }
    let sigma = value_stdev(n, w, w2, cfg.prior, cfg.prior_weight);
    (1.0 + cfg.scale * (sigma / cfg.prior - 1.0)).max(0.0)
}

/// One root child as the LCB choice reads it: visits, mean value from the root decider's
/// view, and the sum of squared values.
#[derive(Clone, Copy, Debug)]
pub(super) struct ChildStats {
    pub visits: u32,
    pub q: f32,
    pub w2: f32,
}

/// The child with the highest lower confidence bound among those with at least
/// `min_visit_share` of the most visits, skipping `avoid`ed ones; `None` when none
/// qualifies. The spread is the value's standard deviation with a prior of 0.5 seen once,
/// so that a child of few visits is not trusted on them alone.
pub(super) fn lcb_choice(
    cfg: &LcbConfig,
    children: &[ChildStats],
    avoid: impl Fn(usize) -> bool,
) -> Option<usize> {
    let most = (0..children.len())
        .filter(|&k| !avoid(k))
        .map(|k| children[k].visits)
        .max()?;
    let floor = (cfg.min_visit_share * most as f32).max(1.0);
    let mut best: Option<(usize, f32)> = None;
    for (k, c) in children.iter().enumerate() {
        if avoid(k) || (c.visits as f32) < floor {
            continue;
        }
        let w = f64::from(c.q) * f64::from(c.visits);
        let sigma = value_stdev(c.visits, w, c.w2, 0.5, 1.0);
        let lcb = c.q - cfg.stdevs * sigma / (c.visits as f32).sqrt();
        if best.is_none_or(|(_, b)| lcb > b) {
            best = Some((k, lcb));
        }
    }
    best.map(|(k, _)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_temperature_above_one_flattens_the_priors_and_one_leaves_them() {
        let mut p = [0.64, 0.36];
        temper_priors(&mut p, 2.0);
        // sqrt: 0.8 and 0.6, renormalised.
        assert!((p[0] - 0.8 / 1.4).abs() < 1e-6 && (p[1] - 0.6 / 1.4).abs() < 1e-6);
        let mut q = [0.7, 0.2, 0.1];
        temper_priors(&mut q, 1.0);
        assert_eq!(q, [0.7, 0.2, 0.1]);
    }

    #[test]
    fn the_stdev_blends_the_prior_with_the_sample() {
        // No visits: the prior.
        assert!((value_stdev(0, 0.0, 0.0, 0.4, 2.0) - 0.4).abs() < 1e-6);
        // Values +1 and -1 twice each: sample variance 1; blended (2·0.16 + 4·1) / 6 = 0.72.
        let s = value_stdev(4, 0.0, 4.0, 0.4, 2.0);
        assert!((s - 0.72f32.sqrt()).abs() < 1e-6, "{s}");
        let cfg = StdevExplorationConfig {
            scale: 0.5,
            ..StdevExplorationConfig::default()
        };
        // σ = prior: no change; a wider spread explores more, none at all less.
        assert!((exploration_scale(&cfg, 0, 0.0, 0.0) - 1.0).abs() < 1e-6);
        assert!(exploration_scale(&cfg, 4, 0.0, 4.0) > 1.0);
        assert!(exploration_scale(&cfg, 100, 50.0, 25.0) < 1.0);
        let off = StdevExplorationConfig::default();
        assert_eq!(exploration_scale(&off, 4, 0.0, 4.0), 1.0);
    }

    #[test]
    fn lcb_prefers_a_sure_value_to_a_slightly_better_guess_and_ignores_the_rarely_visited() {
        // KataGo's 5 standard deviations, children under 15% of the most visits ignored.
        let cfg = LcbConfig::default();
        let steady = |visits: u32, q: f32| ChildStats {
            visits,
            q,
            w2: visits as f32 * q * q,
        };
        // The most visited child has the higher LCB: it is chosen.
        let a = [steady(100, 0.2), steady(60, 0.1)];
        assert_eq!(lcb_choice(&cfg, &a, |_| false), Some(0));
        // A child of fewer visits with a clearly higher value and no spread wins.
        let b = [steady(100, 0.1), steady(60, 0.5)];
        assert_eq!(lcb_choice(&cfg, &b, |_| false), Some(1));
        // The same value with a wide spread (values of ±1) loses to the steady child.
        let noisy = ChildStats {
            visits: 60,
            q: 0.5,
            w2: 60.0,
        };
        assert_eq!(
            lcb_choice(&cfg, &[steady(100, 0.1), noisy], |_| false),
            Some(0)
        );
        // Under 15% of the most visits: not eligible, however good.
        let c = [steady(100, 0.1), steady(10, 0.9)];
        assert_eq!(lcb_choice(&cfg, &c, |_| false), Some(0));
        // Avoided children (proven losses) are never chosen.
        assert_eq!(lcb_choice(&cfg, &b, |k| k == 1), Some(0));
        assert_eq!(lcb_choice(&cfg, &b, |_| true), None);
    }
}
