//! The text layer's contract (`crumble_core::game::text::check_text`) on every game core
//! holds: moves print and parse back, listed moves round-trip, positions read back.

use crumble_core::game::text::{check_text, play_move_text, random_move_texts};
use crumble_core::game::{GameState, GameText, TextError};
use crumble_core::games::crumble::{Crumble, Frame};
use crumble_core::games::crumo::Crumo;
use crumble_core::games::nim::Nim;
use crumble_core::games::splinter::Splinter;
use crumble_core::games::tictactoe::TicTacToe;
use rand::SeedableRng;

fn rng(seed: u64) -> rand_chacha::ChaCha8Rng {
    rand_chacha::ChaCha8Rng::seed_from_u64(seed)
}

fn check<G: GameText>(start: G, games: usize, notation: G::Notation) {
    let turns = check_text(&start, games, notation, &mut rng(7)).unwrap_or_else(|v| panic!("{v}"));
    assert!(turns > 0, "{}: no turn checked", G::NAME);
}

#[test]
fn crumble_text_round_trips_in_both_frames() {
    for (n, r) in [(3, 2), (4, 2)] {
        for frame in [Frame::PerPlayer, Frame::Absolute] {
            let mut g = Crumble::new(n, r).unwrap();
            g.set_max_turns(60);
            check(g, 3, frame);
        }
    }
}

#[test]
fn splinter_text_round_trips() {
    let mut g = Splinter::standard(6, 7).unwrap();
    g.set_turn_limit(80);
    check(g, 3, ());
}

#[test]
fn crumo_text_round_trips() {
    for size in [3, 5] {
        let mut g = Crumo::standard(size).unwrap();
        g.set_turn_limit(80);
        check(g, 3, ());
    }
}

#[test]
fn test_games_text_round_trips() {
    check(TicTacToe::from_start(&Default::default()).unwrap(), 50, ());
    check(Nim::from_start(&Default::default()).unwrap(), 50, ());
}

#[test]
fn tictactoe_cells_are_files_and_ranks() {
    let mut g = TicTacToe::from_start(&Default::default()).unwrap();
    play_move_text(&mut g, "b2", ()).unwrap();
    play_move_text(&mut g, "a3", ()).unwrap();
    assert_eq!(g.position_json(), r#"{"cells":"o...x...."}"#);
    let taken = play_move_text(&mut g, "b2", ()).unwrap_err();
    assert_eq!(taken.to_string(), "b2 is taken");
    let bad = play_move_text(&mut g, "d1", ()).unwrap_err();
    assert!(matches!(bad, TextError::Move(_)), "{bad:?}");
}

#[test]
fn nim_moves_name_a_heap_and_a_count() {
    let mut g = Nim::from_start(&Default::default()).unwrap();
    play_move_text(&mut g, "3-5", ()).unwrap();
    assert_eq!(
        g.legal_move_texts(()).unwrap(),
        ["1-1", "2-1", "2-2", "2-3"]
    );
    for (text, why) in [
        ("4-1", "there is no heap 4 (heaps 1 to 3)"),
        ("3-1", "heap 3 holds 0: cannot take 1"),
        ("2", "\"2\" is not a move: write heap-count, as in 2-3"),
    ] {
        assert_eq!(
            play_move_text(&mut g, text, ()).unwrap_err().to_string(),
            why
        );
    }
    let mut rest = g.clone();
    let texts = random_move_texts(&mut rest, &mut rng(1), ()).unwrap();
    assert!(!texts.is_empty() && rest.game_result().is_some());
    let over = play_move_text(&mut rest, "1-1", ()).unwrap_err();
    assert!(
        over.to_string()
            .starts_with("the game is over (result {\"winner\":"),
        "{over}"
    );
}

#[test]
fn a_position_json_that_is_not_a_position_is_refused() {
    for text in ["{", r#"{"cells":"xx......."}"#, r#"{"cells":"........."}x"#] {
        let e = TicTacToe::from_position_json(text).unwrap_err();
        assert!(matches!(e, TextError::Position(_)), "{text}: {e:?}");
    }
    assert!(Crumble::from_position_json("[]").is_err());
    assert!(Splinter::from_position_json("{}").is_err());
    assert!(Crumo::from_position_json("null").is_err());
}

/// Splinter's and Crumo's notations share one alphabet check: each kind of stray character
/// is named, with the game's own alphabet.
#[test]
fn move_texts_outside_the_alphabet_are_refused_by_kind() {
    fn refused<G: GameText<Notation = ()>>(game: &G, text: &str) -> String {
        match game.parse_move(text, ()) {
            Err(e) => e.to_string(),
            Ok(d) => panic!("{}: {text:?} read as {d:?}", G::NAME),
        }
    }
    let splinter = Splinter::from_start(&Default::default()).unwrap();
    let crumo = Crumo::from_start(&Default::default()).unwrap();
    for (text, why) in [
        ("a1 -b2", "white space is not allowed"),
        ("A1-b2", "upper case is not allowed"),
    ] {
        assert!(refused(&splinter, text).contains(why), "{text}");
        assert!(refused(&crumo, text).contains(why), "{text}");
    }
    let s = refused(&splinter, "a1-b2+");
    assert!(s.contains("only a-z, 0-9, '-' and '/' are allowed"), "{s}");
    let c = refused(&crumo, "a1/b2");
    assert!(c.contains("only a-z, 0-9 and '-' are allowed"), "{c}");
}
