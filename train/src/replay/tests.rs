//! Policy-surprise weighting: known priors and targets give the expected sampling shares.

use super::*;
use crumble_core::games::tictactoe::TicTacToe;
use crumble_core::{Decision, GameResult};
use crumble_model::TicTacToeEncoder;
use crumble_selfplay::record::{Ending, SearchRecord, StepKind, StepRecord, start_json};
use rand::SeedableRng;

/// A tic-tac-toe record with one full search per `(target, prior)`, over decisions 0 and 1.
fn record(index: u64, searches: &[([f32; 2], Option<[f32; 2]>)]) -> GameRecord {
    let steps = searches
        .iter()
        .map(|(target, prior)| StepRecord {
            decision: Decision(0),
            kind: StepKind::Searched,
            search: Some(SearchRecord {
                value: 0.0,
                full: true,
                proven: None,
                policy: vec![(Decision(0), target[0]), (Decision(1), target[1])],
                prior: prior.map_or_else(Vec::new, |p| p.to_vec()),
                joint: Vec::new(),
            }),
        })
        .collect();
    GameRecord {
        index,
        game: "tictactoe".into(),
        start: start_json::<TicTacToe>(&Default::default()),
        max_turns: 0,
        steps,
        result: GameResult::Draw,
        ending: Ending::Rules,
        would_resign: None,
        agents: None,
    }
}

/// How often each (generation, step) is drawn in `n` draws.
fn shares(window: &ReplayWindow<TicTacToeEncoder>, n: usize) -> BTreeMap<(u32, u32), f64> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut count = BTreeMap::new();
    for r in window.draw(n, &mut rng) {
        *count.entry((r.generation, r.step)).or_insert(0.0) += 1.0 / n as f64;
    }
    count
}

#[test]
fn the_surprise_is_the_targets_divergence_from_the_prior() {
    let rec = record(0, &[([1.0, 0.0], Some([0.5, 0.5])), ([0.5, 0.5], None)]);
    let surprise = |s: usize| policy_surprise(rec.steps[s].search.as_ref().unwrap());
    assert!((surprise(0).unwrap() - std::f64::consts::LN_2).abs() < 1e-6);
    assert_eq!(surprise(1), None, "no priors, no surprise");
    // A prior of 0 under a positive target is a finite, large surprise, not infinity.
    let zero = record(0, &[([1.0, 0.0], Some([0.0, 1.0]))]);
    let s = policy_surprise(zero.steps[0].search.as_ref().unwrap()).unwrap();
    assert!(s.is_finite() && s > 10.0, "{s}");
}

#[test]
fn surprised_samples_get_their_share_of_the_draws() {
    // Sample 0 surprised the network (KL ln 2), sample 1 not at all (KL 0): the mean is
    // ln 2 / 2, so with w = 0.5 their weights are 0.5 + 0.5 * 2 = 1.5 and 0.5.
    let searches = [
        ([1.0, 0.0], Some([0.5, 0.5])),
        ([0.5, 0.5], Some([0.5, 0.5])),
    ];
    let n = 40_000;
    let mut uniform = ReplayWindow::new(TicTacToeEncoder, 3);
    uniform
        .insert::<TicTacToe>(1, vec![record(0, &searches)])
        .unwrap();
    let s = shares(&uniform, n);
    assert!((s[&(1, 0)] - 0.5).abs() < 0.015, "{s:?}");

    let mut weighted = ReplayWindow::new(TicTacToeEncoder, 3).surprise_weighted(0.5);
    weighted
        .insert::<TicTacToe>(1, vec![record(0, &searches)])
        .unwrap();
    // A generation recorded without priors: weight 1 for each of its samples.
    weighted
        .insert::<TicTacToe>(2, vec![record(1, &[([1.0, 0.0], None)])])
        .unwrap();
    let s = shares(&weighted, n);
    // Weights 1.5, 0.5 and 1 of 3 in all.
    for (at, want) in [((1, 0), 0.5), ((1, 1), 1.0 / 6.0), ((2, 0), 1.0 / 3.0)] {
        assert!(
            (s[&at] - want).abs() < 0.015,
            "{at:?}: {} vs {want}",
            s[&at]
        );
    }

    // w = 1: the draws follow the surprise alone; the unsurprising sample is never drawn.
    let mut all = ReplayWindow::new(TicTacToeEncoder, 3).surprise_weighted(1.0);
    all.insert::<TicTacToe>(1, vec![record(0, &searches)])
        .unwrap();
    let s = shares(&all, 1000);
    assert_eq!(s.get(&(1, 1)), None, "{s:?}");
}

#[test]
fn weights_average_one_and_leave_unknown_samples_alone() {
    let w = surprise_weights(&[Some(3.0), Some(1.0), None, Some(0.0)], 0.25);
    // Mean surprise 4/3: 0.75 + 0.25 * s / (4/3).
    let want = [0.75 + 0.25 * 2.25, 0.75 + 0.25 * 0.75, 1.0, 0.75];
    for (a, b) in w.iter().zip(want) {
        assert!((a - b).abs() < 1e-12, "{w:?}");
    }
    let known = [w[0], w[1], w[3]];
    assert!((known.iter().sum::<f64>() / 3.0 - 1.0).abs() < 1e-12);
    // No surprise anywhere: uniform.
    assert_eq!(
        surprise_weights(&[Some(0.0), Some(0.0)], 0.5),
        vec![1.0, 1.0]
    );
}

#[test]
fn the_short_term_value_discounts_later_turns_toward_the_result() {
    use crumble_core::Player::{First, Second};
    // λ = 1/2: weights 1/2 (now), 1/4, 1/8, 1/16 for the three later turns, 1/16 the result.
    // Turn 1 is the opponent's 0.4 (−0.4 for me), turn 2 had no search (holds −0.4), turn 3
    // is mine at 1.0; the result is my win.
    let later = [Some((Second, 0.4)), None, Some((First, 1.0))];
    let t = short_value_target(&later, First, 0.2, 1.0, 2.0);
    let want = 0.5 * 0.2 - 0.25 * 0.4 - 0.125 * 0.4 + 0.0625 + 0.0625;
    assert!((f64::from(t) - want).abs() < 1e-6, "{t} vs {want}");
    // A horizon of one turn is the search value now; a long one leans on the result.
    assert_eq!(short_value_target(&later, First, 0.2, 1.0, 1.0), 0.2);
    let long = short_value_target(&[], Second, -0.3, -1.0, 1000.0);
    assert!((f64::from(long) - (-0.001 * 0.3 - 0.999)).abs() < 1e-6);
}
