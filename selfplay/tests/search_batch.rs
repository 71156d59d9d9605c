//! Leaf batching within one search (`Search::run_batch`, virtual loss): a batch of one is
//! the sequential search step for step; larger batches count every simulation, spread over
//! distinct leaves, leave no virtual visit behind, and keep the exact checks' wins and
//! defences; a batch left unanswered is dropped cleanly.

mod common;
use common::{load, rollout, search_turn};
use crumble_core::Color;
use crumble_core::GameState as _;
use crumble_core::games::crumble::Crumble;
use crumble_selfplay::mcts::Search;
use crumble_selfplay::{Evaluation, Evaluator, Leaf, SearchConfig, Step, UniformEvaluator};
use rand::SeedableRng;

/// Positions: the start, the test positions, and positions of random games.
fn positions() -> Vec<Crumble> {
    let mut out = vec![Crumble::new(6, 8).unwrap()];
    for name in ["win-in-one-1-step.json", "defend-win-in-one.json"] {
        out.push(load(name));
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for turns in [2, 5, 9] {
        let mut g = Crumble::new(6, 8).unwrap();
        for _ in 0..turns {
            if g.is_over() {
                break;
            }
            g.play_random_turn(&mut rng);
        }
        if !g.is_over() {
            out.push(g);
        }
    }
    out
}

/// The configs compared: the play settings (exact checks at every node and the two-turn
/// lookahead), the same with a PUCT root, and self-play's full search.
fn configs() -> Vec<SearchConfig> {
    let play = SearchConfig::default().for_play();
    let mut puct = play.clone();
    puct.gumbel.enabled = false;
    vec![play, puct, SearchConfig::default()]
}

#[test]
fn a_batch_of_one_is_the_sequential_search() {
    for (c, cfg) in configs().into_iter().enumerate() {
        for (p, g) in positions().iter().enumerate() {
            let mut one = Search::new(cfg.clone(), 3);
            let a = one
                .search_with(g, 120, true, &mut rollout(7))
                .unwrap()
                .clone();
            let mut batched = Search::new(cfg.clone(), 3);
            let b = batched
                .search_batched(g, 120, true, 1, &mut rollout(7))
                .unwrap()
                .clone();
            assert_eq!(a, b, "config {c}, position {p}");
            assert_eq!(one.pick(0.0), batched.pick(0.0));
        }
    }
}

#[test]
fn batched_searches_count_every_simulation() {
    for (c, cfg) in configs().into_iter().enumerate() {
        for (p, g) in positions().iter().enumerate() {
            for batch in [4, 16] {
                let mut s = Search::new(cfg.clone(), 11);
                let out = s
                    .search_batched(g, 300, true, batch, &mut rollout(9))
                    .unwrap()
                    .clone();
                let what = format!("config {c}, position {p}, batch {batch}");
                let mut probe = g.clone();
                assert_eq!(out.legal, probe.legal_decisions(), "{what}");
                assert!(
                    (out.target.iter().sum::<f32>() - 1.0).abs() < 1e-5,
                    "{what}"
                );
                assert!(out.value.is_finite() && out.value.abs() <= 1.0, "{what}");
                if out.proven.is_none() {
                    // Every simulation once, the root's own evaluation included; no virtual
                    // visit is left in the counts.
                    assert_eq!(out.root_visits, 300, "{what}");
                    assert_eq!(out.visits.iter().sum::<u32>(), 299, "{what}");
                }
                assert!(out.legal.contains(&s.pick(0.0)), "{what}");
            }
        }
    }
}

#[test]
fn virtual_loss_spreads_a_batch_over_distinct_leaves() {
    let g = Crumble::new(6, 8).unwrap();
    let mut cfg = SearchConfig::default().for_play();
    cfg.gumbel.enabled = false;
    let mut s = Search::new(cfg, 1);
    s.begin(&g, 100, false);
    // The root alone first: nothing else can be chosen before it is expanded.
    assert_eq!(s.run_batch(8), 1);
    let mut e = vec![Evaluation::default()];
    UniformEvaluator
        .evaluate(&[s.batch_leaf(0)], &mut e)
        .unwrap();
    s.provide_batch(&e);
    assert_eq!(s.run_batch(8), 8, "eight leaves under a fresh root");
    let hashes: std::collections::BTreeSet<u64> =
        (0..8).map(|i| s.batch_leaf(i).game.state_hash()).collect();
    assert_eq!(hashes.len(), 8, "distinct leaves");
    let leaves: Vec<Leaf<'_, Crumble>> = (0..8).map(|i| s.batch_leaf(i)).collect();
    let mut e = vec![Evaluation::default(); 8];
    UniformEvaluator.evaluate(&leaves, &mut e).unwrap();
    drop(leaves);
    s.provide_batch(&e);
    assert_eq!(s.root_visits(), 9);
}

#[test]
fn an_unanswered_batch_is_dropped_and_its_leaves_evaluated_later() {
    let g = Crumble::new(6, 8).unwrap();
    let mut s = Search::new(SearchConfig::default().for_play(), 2);
    s.search_with(&g, 50, false, &mut UniformEvaluator).unwrap();
    s.begin(&g, 50, false);
    let waiting = s.run_batch(8);
    assert!(waiting > 1);
    // A new search of the same position reuses the tree without the batch.
    s.begin(&g, 200, false);
    let before = s.root_visits();
    while s.run() == Step::NeedsEval {
        let leaf = s.leaf().unwrap();
        let mut e = [Evaluation::default()];
        UniformEvaluator.evaluate(&[leaf], &mut e).unwrap();
        s.provide(&e[0]);
    }
    let out = s.finish().clone();
    assert_eq!(out.root_visits, before + 200);
    assert_eq!(out.visits.iter().sum::<u32>(), out.root_visits - 1);
}

#[test]
fn batched_searches_keep_the_exact_wins_and_defences() {
    let play = SearchConfig::default().for_play();
    let mut g = load("win-in-one-1-step.json");
    let path = search_turn(&mut g, &play, 200, 16, &mut rollout(1), 4);
    let winner = g.outcome().and_then(|o| o.winner);
    assert_eq!(winner, Some(Color::Black), "{path:?}");
    let mut g = load("defend-win-in-one.json");
    let path = search_turn(&mut g, &play, 400, 16, &mut UniformEvaluator, 4);
    assert!(!g.is_over(), "{path:?}");
    let mut check = Default::default();
    assert!(
        g.win_this_turn(&mut check).is_none(),
        "after Black's {path:?} White still wins in one"
    );
}
