//! Search tests: wins in one, defence, backup signs, visit counts, targets.
//!
//! Positions in `tests/data/` (absolute-frame position JSON): `win-in-one-1-step.json` (the
//! start of core's worked example 05-1: Black wins with `0,2J2,1E`), `win-in-one-3-steps.json`
//! (White to move; every winning turn takes three swap steps, found by exhaustive search of
//! the turn), `win-in-one-2-steps.json` (the mover's shortest win takes two steps), `defend-win-in-one.json` (Black to move, no win of its own; White threatens a
//! win in one after 54 of 59 random Black turns, and a defence exists).

mod common;
use common::{advance_past_forced, load, rollout, search_turn, uniform_then};
use crumble_core::GameState as _;
use crumble_core::games::crumble::Crumble;
use crumble_core::{Color, Decision, Player};
use crumble_selfplay::mcts::Search;
use crumble_selfplay::{
    EvalError, Evaluation, Evaluator, Leaf, RolloutConfig, RolloutEvaluator, SearchConfig,
    UniformEvaluator,
};

fn play_cfg() -> SearchConfig {
    SearchConfig::default().for_play()
}

/// The game ended with `winner` winning, after the turn `path` played.
fn assert_won_by(g: &Crumble, winner: Color, path: &[Decision]) {
    let won = g.outcome().and_then(|o| o.winner);
    assert_eq!(won, Some(winner), "played {path:?}");
}

/// Every winning turn path for the player to move (exhaustive; positions here are small).
fn mover_can_win(g: &Crumble) -> bool {
    let me = g.to_move();
    let turn = g.turns_played();
    let mut probe = g.clone();
    for d in probe.legal_decisions() {
        let mut h = g.clone();
        h.apply(d).unwrap();
        if let Some(o) = h.outcome() {
            if o.winner == Some(me) {
                return true;
            }
        } else if h.turns_played() == turn && mover_can_win(&h) {
            return true;
        }
    }
    false
}

#[test]
fn finds_win_in_one_with_one_step() {
    let mut g = load("win-in-one-1-step.json");
    assert!(mover_can_win(&g));
    let path = search_turn(&mut g, &play_cfg(), 300, 1, &mut rollout(1), 1);
    assert_won_by(&g, Color::Black, &path);
}

#[test]
fn finds_win_in_one_with_a_two_step_swap_by_rollouts() {
    let mut g = load("win-in-one-2-steps.json");
    let me = g.to_move();
    let path = search_turn(&mut g, &play_cfg(), 800, 1, &mut rollout(2), 2);
    assert_won_by(&g, me, &path);
    let steps = path
        .iter()
        .filter(|d| d.0 >= 4 * 48 * 48 && d.0 < 8 * 48 * 48)
        .count();
    assert!(steps >= 2, "a multi-step swap: {path:?}");
}

#[test]
fn finds_win_in_one_with_a_three_step_swap() {
    let mut g = load("win-in-one-3-steps.json");
    assert_eq!(g.to_move(), Color::White);
    // Pure tree search (uniform priors, value 0, exact terminals) over the whole turn.
    let path = search_turn(&mut g, &play_cfg(), 3000, 1, &mut UniformEvaluator, 2);
    assert_won_by(&g, Color::White, &path);
    assert!(path.len() >= 5, "choose, extent and three steps: {path:?}");
}

#[test]
fn defends_against_a_win_in_one() {
    let g0 = load("defend-win-in-one.json");
    assert_eq!(g0.to_move(), Color::Black);
    assert!(!mover_can_win(&g0));
    let mut g = g0.clone();
    let path = search_turn(&mut g, &play_cfg(), 2000, 1, &mut UniformEvaluator, 3);
    assert!(!g.is_over());
    assert!(
        !mover_can_win(&g),
        "after Black's {path:?} White still wins in one"
    );
}

#[test]
fn backup_flips_sign_only_where_the_decider_changes() {
    // Black's turn from the start: choose, extent, then swap decisions are all Black's, so
    // every node inside the turn must see the +0.5 of Black's leaves as +0.5, and nodes after
    // the turn (White decides) as -0.5 from Black's side.
    let g = Crumble::new(6, 8).unwrap();
    let mut cfg = play_cfg();
    cfg.eval_cache = false;
    let mut s = Search::new(cfg, 0);
    // Value `+0.5` for the decider of every leaf, uniform priors.
    let mut half_for_decider = uniform_then("half", |_, out| {
        out.iter_mut().for_each(|o| o.value = 0.5);
    });
    let out = s
        .search_with(&g, 400, false, &mut half_for_decider)
        .unwrap()
        .clone();
    // Same-player sequence: the root and its first-level children are Black's.
    for (k, &d) in out.legal.iter().enumerate() {
        if out.visits[k] == 1 {
            let (v, n, who) = s.node_stats(&[d]).unwrap();
            assert_eq!((n, who), (1, Some(Player::First)));
            assert!(
                (v - 0.5).abs() < 1e-9,
                "a Black node's own +0.5 is +0.5 for Black, got {v}"
            );
        }
    }
    // Walk every path of the tree: each node's value is its own evaluation (sign of its
    // decider) plus its children's, and its visits are 1 plus its children's.
    let mut checked_white = 0;
    let mut stack: Vec<Vec<Decision>> = vec![vec![]];
    let mut probe_legal = Vec::new();
    while let Some(path) = stack.pop() {
        let (v, n, who) = s.node_stats(&path).unwrap();
        let mut g2 = g.clone();
        for &d in &path {
            g2.apply(d).unwrap();
            g2.legal_decisions_into(&mut probe_legal);
            while probe_legal.len() == 1 && !g2.is_over() {
                g2.apply(probe_legal[0]).unwrap();
                g2.legal_decisions_into(&mut probe_legal);
            }
        }
        assert_eq!(who, g2.decider().map(Player::from));
        let own = match who {
            Some(Player::First) => 0.5,
            Some(Player::Second) => -0.5,
            None => 0.0,
        };
        let mut sum_w = own;
        let mut sum_n = 1u32;
        g2.legal_decisions_into(&mut probe_legal);
        for &d in &probe_legal {
            let mut p = path.clone();
            p.push(d);
            if let Some((cv, cn, _)) = s.node_stats(&p) {
                sum_w += cv * f64::from(cn);
                sum_n += cn;
                stack.push(p);
            }
        }
        if who == Some(Player::Second) {
            checked_white += 1;
        }
        assert_eq!(n, sum_n, "visits at {path:?}");
        assert!(
            (v * f64::from(n) - sum_w).abs() < 1e-6,
            "value at {path:?}: {v} x {n} vs {sum_w}"
        );
    }
    assert!(checked_white > 0, "the tree reached White's turn");
    // From the root (Black's view) the mean lies strictly between the two signs.
    assert!(out.value < 0.5 && out.value > -0.5);
}

#[test]
fn winning_line_has_value_one_for_the_winner() {
    let g = load("win-in-one-1-step.json");
    // Tree search alone (the lookaheads would prove the root before any value is backed up).
    let cfg = SearchConfig {
        lookahead: crumble_selfplay::Lookahead::Off,
        forcing_budget: 0,
        ..play_cfg()
    };
    let mut s = Search::new(cfg, 5);
    let out = s
        .search_with(&g, 2000, false, &mut UniformEvaluator)
        .unwrap();
    // The search proves the win and stops early, so the mean of the values backed up so far
    // need not be near 1; the proof is exact.
    assert_eq!(out.proven, Some(1.0), "Black wins in one");
    assert!(
        out.value > 0.0,
        "Black wins in one: root value {} from Black's view",
        out.value
    );
}

#[test]
fn visit_counts_sum_correctly() {
    let g = Crumble::new(6, 8).unwrap();
    let mut s = Search::new(SearchConfig::default(), 9);
    let out = s
        .search_with(&g, 300, true, &mut UniformEvaluator)
        .unwrap()
        .clone();
    assert_eq!(out.root_visits, 300);
    assert_eq!(
        out.visits.iter().sum::<u32>(),
        299,
        "every simulation but the root's own evaluation"
    );
    assert_eq!(out.legal.len(), out.target.len());
    assert!((out.target.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    // Tree reuse keeps the subtree: the next search starts with the child's visits.
    let mut g2 = g.clone();
    let d = s.pick(0.0);
    let k = out.legal.iter().position(|&x| x == d).unwrap();
    // Forced decisions (a single legal extent) are played without search.
    advance_past_forced(&mut g2, &mut s, d);
    s.begin(&g2, 100, true);
    assert_eq!(s.root_visits(), out.visits[k]);
    while s.run() == crumble_selfplay::Step::NeedsEval {
        let leaf = s.leaf().unwrap();
        let mut e = [Evaluation::default()];
        UniformEvaluator.evaluate(&[leaf], &mut e).unwrap();
        s.provide(&e[0]);
    }
    let out2 = s.finish();
    assert_eq!(out2.root_visits, out.visits[k] + 100);
}

#[test]
fn gumbel_target_sums_to_one_over_legal_decisions() {
    for (name, sims) in [
        ("start", 50u32),
        ("win-in-one-1-step.json", 200),
        ("defend-win-in-one.json", 16),
    ] {
        let g = if name == "start" {
            Crumble::new(6, 8).unwrap()
        } else {
            load(name)
        };
        let mut cfg = SearchConfig::default();
        cfg.gumbel.enabled = true;
        cfg.gumbel.sampled_actions = 8;
        let mut s = Search::new(cfg, 4);
        let out = s.search_with(&g, sims, true, &mut rollout(4)).unwrap();
        let mut probe = g.clone();
        assert_eq!(out.legal, probe.legal_decisions());
        let sum: f32 = out.target.iter().sum();
        assert!((sum - 1.0).abs() < 1e-5, "{name}: sum {sum}");
        assert!(out.target.iter().all(|&p| p >= 0.0 && p.is_finite()));
        assert!(out.gumbel_choice.is_some());
    }
}

#[test]
fn gumbel_finds_the_win_in_one() {
    let mut g = load("win-in-one-1-step.json");
    let mut cfg = play_cfg();
    cfg.gumbel.enabled = true;
    let path = search_turn(&mut g, &cfg, 200, 1, &mut rollout(6), 6);
    assert_won_by(&g, Color::Black, &path);
}

#[test]
fn pruned_targets_are_never_negative() {
    for seed in 0..4 {
        let g = if seed % 2 == 0 {
            Crumble::new(6, 8).unwrap()
        } else {
            load("defend-win-in-one.json")
        };
        let mut cfg = SearchConfig::default();
        cfg.forced_playouts.enabled = true;
        cfg.forced_playouts.prune = true;
        let mut s = Search::new(cfg, seed);
        let out = s.search_with(&g, 200, true, &mut rollout(seed)).unwrap();
        assert!(
            out.target.iter().all(|&p| p >= 0.0),
            "seed {seed}: {:?}",
            out.target
        );
        assert!((out.target.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        // Pruning only removes visits from the others: the most visited child's share grows.
        let total: u32 = out.visits.iter().sum();
        let best = (0..out.visits.len())
            .max_by_key(|&k| out.visits[k])
            .unwrap();
        assert!(out.target[best] + 1e-6 >= out.visits[best] as f32 / total as f32);
    }
}

#[test]
fn joint_first_two_distribution_sums_to_one_and_matches_the_target() {
    let g = Crumble::new(6, 8).unwrap();
    let mut s = Search::new(SearchConfig::default(), 8);
    let out = s
        .search_with(&g, 200, true, &mut UniformEvaluator)
        .unwrap()
        .clone();
    let mut joint = Vec::new();
    s.joint_first_two(&mut joint);
    let sum: f32 = joint.iter().map(|x| x.2).sum();
    assert!((sum - 1.0).abs() < 1e-4, "sum {sum}");
    for (k, &c) in out.legal.iter().enumerate() {
        let m: f32 = joint.iter().filter(|x| x.0 == c).map(|x| x.2).sum();
        assert!((m - out.target[k]).abs() < 1e-5);
    }
    // Every pair is a legal (choose, extent).
    for &(c, e, _) in &joint {
        let mut h = g.clone();
        h.apply(c).unwrap();
        h.apply(e).unwrap();
    }
}

/// The mixed evaluator keeps the network's priors and blends the values: weight 0 is the
/// network alone, weight 1 the playouts alone (the same playouts the rollout evaluator plays
/// with the same seed), and weights between are the straight line between the two.
#[test]
fn mixed_evaluator_blends_network_and_playout_values() {
    use crumble_selfplay::MixedEvaluator;
    /// Priors favouring the first decision and a fixed value, to tell the sources apart.
    #[derive(Debug)]
    struct Fixed;
    impl Evaluator<Crumble> for Fixed {
        fn name(&self) -> String {
            "fixed".into()
        }
        fn evaluate(
            &mut self,
            leaves: &[Leaf<'_, Crumble>],
            out: &mut [Evaluation],
        ) -> Result<(), EvalError> {
            for (leaf, o) in leaves.iter().zip(out.iter_mut()) {
                o.priors.clear();
                o.priors.resize(leaf.legal.len(), 0.0);
                o.priors[0] = 1.0;
                o.value = 0.5;
            }
            Ok(())
        }
    }
    let cfg = RolloutConfig {
        playouts: 8,
        max_turns: 200,
    };
    let mut games: Vec<Crumble> = ["defend-win-in-one.json", "win-in-one-2-steps.json"]
        .iter()
        .map(|n| load(n))
        .collect();
    games.push(Crumble::new(6, 8).unwrap());
    let legal: Vec<Vec<Decision>> = games.iter_mut().map(|g| g.legal_decisions()).collect();
    let leaves: Vec<Leaf<'_, Crumble>> = games
        .iter()
        .zip(&legal)
        .map(|(game, legal)| Leaf { game, legal })
        .collect();
    let run = |e: &mut dyn Evaluator<Crumble>| {
        let mut out = vec![Evaluation::default(); leaves.len()];
        e.evaluate(&leaves, &mut out).unwrap();
        out
    };
    let playouts = run(&mut RolloutEvaluator::new(cfg.clone(), 7));
    assert!(
        playouts.iter().any(|o| o.value != 0.5 && o.value != 0.0),
        "the playouts say something: {:?}",
        playouts.iter().map(|o| o.value).collect::<Vec<_>>()
    );
    for w in [0.0f32, 0.25, 1.0] {
        let mixed = run(&mut MixedEvaluator::new(Fixed, cfg.clone(), w, 7));
        for (m, p) in mixed.iter().zip(&playouts) {
            assert_eq!(m.priors[0], 1.0, "priors are the network's");
            let want = (1.0 - w) * 0.5 + w * p.value;
            assert!(
                (m.value - want).abs() < 1e-6,
                "w {w}: {} vs {want}",
                m.value
            );
        }
    }
}

/// KataGo's refinements (root policy temperature, no first-play reduction at the noised
/// root, exploration scaled by the spread of values, the LCB choice) keep the search sound:
/// targets sum to one, and a win in one and a defence are still found with them on.
#[test]
fn the_search_refinements_keep_wins_defences_and_targets() {
    let mut on = play_cfg();
    on.stdev_exploration.scale = 0.85;
    on.lcb.enabled = true;
    let mut g = load("win-in-one-1-step.json");
    let path = search_turn(&mut g, &on, 200, 1, &mut rollout(3), 3);
    assert_won_by(&g, Color::Black, &path);
    let mut g = load("defend-win-in-one.json");
    search_turn(&mut g, &on, 400, 1, &mut rollout(4), 4);
    assert!(!g.is_over() && !mover_can_win(&g), "the defence is found");

    let mut noised = SearchConfig::default();
    noised.noise.root_policy_temperature = 1.5;
    noised.noise.fpu_at_root = false;
    noised.stdev_exploration.scale = 0.85;
    let plain = SearchConfig::default();
    let g = Crumble::new(6, 8).unwrap();
    let mut differs = false;
    for seed in 0..3 {
        let mut a = Search::new(noised.clone(), seed);
        let out = a
            .search_with(&g, 200, true, &mut rollout(seed))
            .unwrap()
            .clone();
        let sum: f32 = out.target.iter().sum();
        assert!((sum - 1.0).abs() < 1e-4 && out.target.iter().all(|&t| t >= 0.0));
        let mut b = Search::new(plain.clone(), seed);
        differs |= b
            .search_with(&g, 200, true, &mut rollout(seed))
            .unwrap()
            .visits
            != out.visits;
    }
    assert!(differs, "the switches change the search");
}
