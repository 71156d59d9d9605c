//! One test per numbered rule of `games/splinter/RULES.md`, rules 7–9: knockouts, the end of
//! the game and the turn limit, notation (rules 1–6 in `splinter_rules.rs`).

mod splinter_common;

use crumble_core::game::{CompleteMoves, TurnError};
use splinter_common::*;

// ------------------------------------------------------------------ 7. knockouts

#[test]
fn rule_7_1_knockouts_are_the_opponents_exhausted_types_after_the_whole_turn() {
    let mut g = example_start("20-two-knockouts-in-one-move.json");
    assert_eq!(g.knockouts(Color::Black), 0);
    play(&mut g, &["e4-e5"]);
    assert_eq!(g.knockouts(Color::Black), 2);
    assert_eq!(g.outcome().unwrap().reason, Reason::Knockouts);
}

#[test]
fn rule_7_2_one_move_can_knock_out_for_both_and_by_losing_ones_own() {
    let mut g = example_start("21-both-reach-two-more-knockouts.json");
    play(&mut g, &["e5-e6"]);
    assert!(g.knockouts(Color::Black) >= 2 && g.knockouts(Color::White) >= 2);
    // Example 24: the mover gives the opponent the knockout by pushing off its own rook.
    let mut g = example_start("24-mover-gives-opponent-the-win.json");
    let before = g.knockouts(Color::White);
    play(&mut g, &["f5-g5"]);
    assert!(g.knockouts(Color::White) > before);
    assert_eq!(g.outcome().unwrap().winner, Some(Color::White));
}

// ------------------------------------------------------------------ 8. the end

#[test]
fn rule_8_1_two_knockouts_win_then_more_knockouts_then_more_pieces_then_a_tie() {
    let reason = |file| final_of(file).outcome().map(|o| (o.winner, o.reason));
    assert_eq!(
        reason("19-knockouts-one-then-two.json").unwrap().1,
        Reason::Knockouts
    );
    assert_eq!(
        reason("21-both-reach-two-more-knockouts.json").unwrap().1,
        Reason::MoreKnockouts
    );
    assert_eq!(
        reason("22-both-reach-two-more-pieces.json").unwrap().1,
        Reason::MorePieces
    );
    assert_eq!(
        reason("23-both-reach-two-tie.json"),
        Some((None, Reason::Tie))
    );
    // One knockout goes on (example 19 after its first move).
    let mut g = example_start("19-knockouts-one-then-two.json");
    play(&mut g, &["f5-g5"]);
    assert!(!g.is_over());
}

#[test]
fn rule_8_2_a_live_position_always_has_a_legal_move() {
    for_each_random_position(3, 50, (5, 6), 80, |g| {
        assert!(!g.legal_moves().is_empty());
    });
}

#[test]
fn rule_8_3_no_repetition_rule_a_four_turn_cycle_is_legal() {
    let mut g = Splinter::standard(15, 18).unwrap();
    let start = position::to_json(&g);
    play(&mut g, &["f9-e9", "f10-e10", "e9-f9", "e10-f10"]);
    assert_eq!(
        position::to_json(&g).replace(
            "\"last_move\":{\"direction\":\"e\",\"moved\":[\"f10\"]}",
            "\"last_move\":null"
        ),
        start
    );
    play(&mut g, &["f9-e9"]);
    assert!(!g.is_over());
}

#[test]
fn rule_8_4_the_turn_limit_draws_and_a_choice_is_part_of_one_turn() {
    let g = final_of("25-turn-limit.json");
    assert_eq!(g.outcome().unwrap().reason, Reason::TurnLimit);
    let g = final_of("28-turn-limit-counts-turns.json");
    assert_eq!(g.turns_played(), 2);
    assert_eq!(g.outcome().unwrap().reason, Reason::TurnLimit);
    // The limit is an unsigned setting (a negative value cannot be given); 0 means none.
    let mut g = Splinter::standard(9, 10).unwrap();
    g.set_turn_limit(0);
    play(&mut g, &["d4-c3"]);
    assert!(!g.is_over());
    // A turn that ends the game keeps its own result at the limit.
    let mut g = example_start("20-two-knockouts-in-one-move.json");
    g.set_turn_limit(1);
    play(&mut g, &["e4-e5"]);
    assert_eq!(g.outcome().unwrap().reason, Reason::Knockouts);
}

#[test]
fn rule_8_5_resignation_and_agreement_load_with_their_winners() {
    let mut v = position::to_value(&Splinter::standard(9, 10).unwrap());
    v["result"] = json!({"winner": "white", "reason": "resignation"});
    let g = position::from_value(&v).unwrap();
    assert_eq!(
        g.game_result(),
        Some(crumble_core::GameResult::Win(Player::Second))
    );
    v["result"] = json!({"winner": null, "reason": "agreement"});
    assert_eq!(
        position::from_value(&v).unwrap().game_result(),
        Some(crumble_core::GameResult::Draw)
    );
}

#[test]
fn rule_8_6_to_move_names_the_next_player_also_after_the_end() {
    let g = final_of("25-turn-limit.json");
    assert_eq!(g.to_move(), Color::Black);
    assert!(g.last_move().is_some(), "last_move describes the last turn");
}

#[test]
fn rule_8_7_no_move_is_legal_after_the_end() {
    assert_eq!(
        refused("26-move-after-the-end-refused.json"),
        MoveError::Turn(TurnError::GameOver)
    );
    assert_eq!(
        refused("27-move-after-turn-limit-refused.json"),
        MoveError::Turn(TurnError::GameOver)
    );
    let mut v = position::to_value(&Splinter::standard(9, 10).unwrap());
    v["result"] = json!({"winner": "white", "reason": "knockouts"});
    let mut g = position::from_value(&v).unwrap();
    assert!(g.legal_move_texts().is_empty());
    let mut legal = vec![Decision(0)];
    g.legal_decisions_into(&mut legal);
    assert!(legal.is_empty());
    assert_eq!(g.apply(Decision(0)), Err(DecisionError::GameOver));
    assert_eq!(g.play_random_turn(&mut ChaCha8Rng::seed_from_u64(0)), 0);
}

#[test]
fn rule_8_8_random_play_draws_from_the_projects_seeded_generator() {
    // Uniformity over complete moves is tested in splinter_random.rs; here: one seed, one game.
    let game = |seed| random_game_json(seed, (5, 6), 50);
    assert_eq!(game(11), game(11));
}

// ------------------------------------------------------------------ 9. notation

#[test]
fn rule_9_1_squares_are_a_letter_and_a_rank_without_leading_zeros() {
    let b = Board::empty(15, 18);
    for bad in ["h09", "h0", "H9", "h", "9", "h9 ", "hh9", "h-9", ""] {
        assert!(notation::parse_square(&b, bad).is_err(), "{bad:?}");
    }
    assert_eq!(
        notation::square_name(&b, notation::parse_square(&b, "o18").unwrap()),
        "o18"
    );
}

#[test]
fn rule_9_2_a_move_is_from_dash_to_between_neighbours() {
    let g = Splinter::standard(15, 18).unwrap();
    let mv = notation::parse_move(g.board(), "f7-e6").unwrap();
    assert_eq!((mv.from, mv.dir), (sq(&g, "f7"), Dir::Sw));
    assert!(matches!(
        notation::parse_move(g.board(), "h9-h11"),
        Err(NotationError::NotOneStep { .. })
    ));
    assert!(matches!(
        notation::parse_move(g.board(), "h9-h9"),
        Err(NotationError::NotOneStep { .. })
    ));
}

#[test]
fn rule_9_3_the_suffix_is_required_exactly_when_groups_are_equal() {
    let g = example_start("15-tie-mover-keeps-first.json");
    assert_eq!(
        g.clone().play_text("e4-d3"),
        Err(MoveError::Rules(MoveRuleError::ChoiceMissing))
    );
    assert_eq!(
        g.clone().play_text("e4-d3/e9"),
        Err(MoveError::Rules(MoveRuleError::ChoiceNotLargest {
            square: "e9".into()
        }))
    );
    let plain = Splinter::standard(15, 18).unwrap();
    assert_eq!(
        plain.clone().play_text("h9-h10/h10"),
        Err(MoveError::Rules(MoveRuleError::ChoiceNotAllowed))
    );
    // Example 18: a smaller group's square is refused.
    let g = example_start("18-three-groups-two-tied.json");
    let small = g.legal_move_texts();
    assert!(small.iter().any(|t| t == "e5-e6/f2"));
}

#[test]
fn rule_9_4_lexical_refusals_and_huge_ranks() {
    let b = Board::empty(15, 18);
    for bad in [
        "H9-H10",
        "h09-h10",
        "h0-h1",
        "h9h10",
        "h9-h10+",
        "h9-h10 ",
        " h9-h10",
        "h9-h10\n",
        "h9 -h10",
        "h9-h10/",
        "h9-h10/f2/g3",
        "h9--h10",
        "h9-h10-h11",
        "é9-h10",
    ] {
        assert!(
            matches!(
                notation::parse_move(&b, bad),
                Err(NotationError::Syntax { .. } | NotationError::BadSquare { .. })
            ),
            "{bad:?}"
        );
    }
    for off in [
        "p5-o5",
        "h19-h18",
        "h99999999999999999999-h10",
        "h9-h10/z99999999999999999999999",
    ] {
        assert!(
            matches!(
                notation::parse_move(&b, off),
                Err(NotationError::OffBoard { .. })
            ),
            "{off:?}"
        );
    }
}

#[test]
fn rule_9_5_the_list_is_every_legal_move_once_sorted_bytewise() {
    let g = example_start("15-tie-mover-keeps-first.json");
    let list = g.legal_move_texts();
    assert!(list.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes()));
    assert!(list.contains(&"e4-d3/d3".into()) && list.contains(&"e4-d3/f4".into()));
    assert!(!list.contains(&"e4-d3".into()));
    // From the default start: 15 pieces, every direction on the board, none forbidden.
    let start = Splinter::standard(15, 18).unwrap();
    assert_eq!(start.legal_move_texts().len(), 120);
}

#[test]
fn rule_9_6_every_legal_move_prints_and_parses_back() {
    let g = example_start("18-three-groups-two-tied.json");
    for t in g.legal_move_texts() {
        let mv = notation::parse_move(g.board(), &t).unwrap();
        assert_eq!(
            notation::move_text(g.board(), &g.canonical(&mv).unwrap()),
            t
        );
    }
}

#[test]
fn rule_9_7_records_write_the_anchor() {
    let g = example_start("18-three-groups-two-tied.json");
    let mv = notation::parse_move(g.board(), "e5-e6/g4").unwrap();
    assert_eq!(
        notation::move_text(g.board(), &g.canonical(&mv).unwrap()),
        "e5-e6/f2"
    );
}
