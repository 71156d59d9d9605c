//! One test (at least) per numbered rule of `games/crumo/RULES.md` sections 7–10: passing and the
//! end, the start, the pie rule and seats, scoring, the turn limit and random play.

mod crumo_common;
use Color::{Black, White};
use crumble_core::game::{CompleteMoves, TurnError};
use crumo_common::*;

fn texts(g: &Crumo) -> Vec<String> {
    g.legal_move_texts()
}

#[test]
fn rule_7_1_pass_is_legal_except_on_the_first_turn() {
    let mut g = Crumo::standard(5).unwrap();
    assert!(!texts(&g).contains(&"pass".to_string()));
    assert!(matches!(
        g.play_text("pass"),
        Err(MoveError::Rules(MoveRuleError::FirstTurnPlaces { .. }))
    ));
    g.play_text("3e5").unwrap();
    assert!(texts(&g).contains(&"pass".to_string()));
    // A loaded position with pie "over" allows pass on its first turn.
    let g = position_with(White, Previous::Other, &[("e5", Black, 1)]);
    assert!(texts(&g).contains(&"pass".to_string()));
}

#[test]
fn rule_7_2_two_passes_in_a_row_end_the_game() {
    let g = after(5, &["3e5", "pass", "pass"]);
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, Reason::TwoPasses);
    // The first passer (White) is to move and has the half point.
    assert_eq!(g.to_move(), White);
    assert_eq!(o.score_halves, Some([2, 1]));
    // Not consecutive: the game goes on.
    let g = after(5, &["3e5", "pass", "e5-e7", "pass"]);
    assert!(!g.is_over());
    assert_eq!((g.previous(), g.to_move()), (Previous::Pass, Black));
}

#[test]
fn rule_7_3_nothing_is_legal_after_the_end() {
    let mut g = after(5, &["3e5", "pass", "pass"]);
    assert!(texts(&g).is_empty());
    let mut legal = Vec::new();
    g.legal_decisions_into(&mut legal);
    assert!(legal.is_empty());
    for m in ["pass", "swap", "1a9", "e5-e7"] {
        assert!(
            matches!(g.play_text(m), Err(MoveError::Turn(TurnError::GameOver))),
            "{m}"
        );
    }
    assert_eq!(
        GameState::apply(&mut g, Decision(0)),
        Err(DecisionError::GameOver)
    );
}

#[test]
fn rule_8_1_the_first_turn_is_a_black_placement() {
    let mut g = Crumo::standard(5).unwrap();
    assert_eq!((g.to_move(), g.pie()), (Black, Pie::First));
    let list = texts(&g);
    assert!(list.iter().all(|m| m.as_bytes()[0].is_ascii_digit()));
    // Every point takes some height: 61 points, heights up to each one's longest line.
    let points: std::collections::BTreeSet<String> = list
        .iter()
        .map(|m| {
            m.trim_start_matches(|c: char| c.is_ascii_digit())
                .to_string()
        })
        .collect();
    assert_eq!(points.len(), 61);
    assert!(matches!(
        g.play_text("swap"),
        Err(MoveError::Rules(MoveRuleError::FirstTurnPlaces { .. }))
    ));
    g.play_text("1e5").unwrap();
    assert_eq!((g.to_move(), g.pie()), (White, Pie::Choice));
}

#[test]
fn rule_8_2_swap_only_on_the_second_turn_keeps_the_board_and_white_to_move() {
    let mut g = after(5, &["3e5"]);
    let before = position::to_value(&g);
    g.play_text("swap").unwrap();
    assert!(g.swapped());
    assert_eq!(g.pie(), Pie::Over);
    assert_eq!(g.to_move(), White);
    assert_eq!(g.turns_played(), 2);
    let after_swap = position::to_value(&g);
    for key in ["stacks", "to_move", "previous", "captures"] {
        assert_eq!(after_swap[key], before[key], "{key}");
    }
    let mut late = after(5, &["3e5", "1e3"]);
    assert!(matches!(
        late.play_text("swap"),
        Err(MoveError::Rules(MoveRuleError::SwapNotNow))
    ));
    let mut twice = after(5, &["3e5", "swap"]);
    assert!(matches!(
        twice.play_text("swap"),
        Err(MoveError::Rules(MoveRuleError::SwapNotNow))
    ));
}

#[test]
fn rule_8_3_seats_follow_the_swap() {
    let mut g = Crumo::standard(5).unwrap();
    assert_eq!(g.decider(), Some(Player::First));
    g.play_text("3e5").unwrap();
    assert_eq!(
        g.decider(),
        Some(Player::Second),
        "the second seat decides the swap"
    );
    let mut swapped = g.clone();
    swapped.play_text("swap").unwrap();
    assert_eq!(
        swapped.decider(),
        Some(Player::First),
        "the first seat now plays White"
    );
    assert_eq!(swapped.seat_of(Black), Player::Second);
    // Black wins 3e5 pass pass; the seat playing Black wins.
    swapped.play_text("pass").unwrap();
    swapped.play_text("pass").unwrap();
    assert_eq!(swapped.outcome().unwrap().winner, Some(Black));
    assert_eq!(
        swapped.game_result(),
        Some(crumble_core::GameResult::Win(Player::Second))
    );
    g.play_text("pass").unwrap();
    g.play_text("pass").unwrap();
    assert_eq!(
        g.game_result(),
        Some(crumble_core::GameResult::Win(Player::First))
    );
}

#[test]
fn rule_9_1_controlled_points_are_stacks_and_sole_placements() {
    let g = example_start("09-territory.json");
    assert_eq!(g.controller(pt(&g, "e5")), Some(Black));
    assert_eq!(g.controller(pt(&g, "b6")), Some(Black));
    assert_eq!(g.controller(pt(&g, "h1")), Some(White));
    assert_eq!(g.controller(pt(&g, "a5")), Some(Black), "a stack");
    assert_eq!(g.controlled_points(), [6, 3]);
    // On an almost empty board both colours could place nearly everywhere: nobody's.
    let g = after(5, &["1e5"]);
    assert_eq!(g.controller(pt(&g, "a9")), None);
    assert_eq!(g.controlled_points(), [1, 0]);
}

#[test]
fn rule_9_2_the_half_point_goes_to_the_first_of_the_two_final_passes() {
    // White passed first in the game, but Black made the first of the two final passes.
    let g = after(5, &["3e5", "pass", "1a9", "1i1", "pass", "pass"]);
    let o = g.outcome().unwrap();
    assert_eq!(g.to_move(), Black);
    let plain = g.score_halves(None);
    assert_eq!(o.score_halves, Some([plain[0] + 1, plain[1]]));
    // Captures count: White captured 2 in 06-3-moved-stack-dies.
    let mut g = example_start("06-3-moved-stack-dies.json");
    g.play_texts(&["f3-f5", "pass", "pass"]).unwrap();
    let o = g.outcome().unwrap();
    let points = g.controlled_points();
    assert_eq!(o.score_halves.unwrap()[1], 2 * (points[1] + 2) + 1);
}

#[test]
fn rule_9_3_two_pass_ends_have_a_winner() {
    let g = after(5, &["1e5", "pass", "pass"]);
    let o = g.outcome().unwrap();
    assert_eq!((o.score(Black), o.score(White)), (Some(1.0), Some(0.5)));
    assert_eq!(o.winner, Some(Black));
    // Symmetric boards: the half point decides.
    let g = after(5, &["1e3", "1e7", "pass", "pass"]);
    let o = g.outcome().unwrap();
    let [b, w] = o.score_halves.unwrap();
    assert_eq!(b.abs_diff(w) % 2, 1);
    assert!(o.winner.is_some());
}

#[test]
fn rule_10_1_the_turn_limit_scores_without_the_half_point() {
    let mut g = Crumo::standard(5).unwrap();
    g.set_turn_limit(2);
    g.play_texts(&["3e5", "3e3"]).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.reason, o.winner, o.score_halves),
        (Reason::TurnLimit, None, Some([2, 2]))
    );
    assert_eq!(g.game_result(), Some(crumble_core::GameResult::Draw));
    assert!(matches!(
        g.play_text("pass"),
        Err(MoveError::Turn(TurnError::GameOver))
    ));
    // A swap is a turn; a two-pass end on the limit turn is a two-pass end.
    let mut g = Crumo::standard(5).unwrap();
    g.set_turn_limit(2);
    g.play_texts(&["3e5", "swap"]).unwrap();
    assert_eq!(g.outcome().unwrap().reason, Reason::TurnLimit);
    assert_eq!(g.outcome().unwrap().winner, Some(Black));
    let mut g = Crumo::standard(5).unwrap();
    g.set_turn_limit(3);
    g.play_texts(&["3e5", "pass", "pass"]).unwrap();
    assert_eq!(g.outcome().unwrap().reason, Reason::TwoPasses);
    // A scored limit result goes to the seat of the higher score.
    let mut g = Crumo::standard(5).unwrap();
    g.set_turn_limit(1);
    g.play_text("3e5").unwrap();
    assert_eq!(
        g.game_result(),
        Some(crumble_core::GameResult::Win(Player::First))
    );
}

#[test]
fn rule_10_2_resignation_and_agreement_carry_no_score() {
    let mut g = after(5, &["3e5", "1a9"]);
    assert!(g.finish(Outcome {
        winner: Some(White),
        reason: Reason::Resignation,
        score_halves: None,
    }));
    let v = position::to_value(&g);
    assert_eq!(
        v["result"],
        json!({"winner": "white", "reason": "resignation", "score": null})
    );
    assert_eq!(position::to_value(&position::from_value(&v).unwrap()), v);
    assert!(g.legal_move_texts().is_empty());
}

#[test]
fn rule_10_3_positions_may_repeat() {
    let mut g = position_with(
        Black,
        Previous::Other,
        &[("e5", Black, 3), ("a9", White, 3)],
    );
    let cycle = ["e5-e6", "pass", "e6-e5", "pass"];
    g.play_texts(&cycle).unwrap();
    let once = position::to_value(&g);
    g.play_texts(&cycle).unwrap();
    assert_eq!(position::to_value(&g), once);
    assert!(!g.is_over());
}

#[test]
fn rule_10_4_random_play_swaps_half_the_time_and_passes_a_tenth() {
    let start = after(5, &["3e5"]);
    let (mut swaps, mut passes, mut turns) = (0, 0, 0);
    for seed in 0..400 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut g = start.clone();
        if g.play_random_move(&mut rng) == Some(CrumoMove::Swap) {
            swaps += 1;
        }
        for _ in 0..5 {
            match g.play_random_move(&mut rng) {
                Some(CrumoMove::Pass) => passes += 1,
                Some(_) => {}
                None => break,
            }
            turns += 1;
        }
    }
    assert!((160..=240).contains(&swaps), "{swaps} swaps in 400");
    assert!(
        passes * 100 > turns * 6 && passes * 100 < turns * 15,
        "{passes}/{turns}"
    );
    // One seed, one game.
    let play = |seed| {
        let mut g = Crumo::standard(5).unwrap();
        g.set_turn_limit(200);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut moves = Vec::new();
        while let Some(m) = g.play_random_move(&mut rng) {
            moves.push(m);
        }
        (moves, g.outcome())
    };
    assert_eq!(play(9), play(9));
    assert!((0..20).any(|s| play(s).1.unwrap().reason == Reason::TwoPasses));
}
