//! Playing from a book and counting played games over it (`book:` agents, game evidence),
//! on tic-tac-toe.

use super::tests::{cells, grow, ttt_book};
use super::*;
use crate::SearchConfig;
use crumble_core::games::nim::Nim;
use crumble_core::games::tictactoe::{TicTacToe, TicTacToeStart};
use crumble_core::{Decision, GameState, Player};

/// A small tic-tac-toe book saved in a fresh temporary folder (`crumble-NAME-PID`): the book,
/// the folder (for the test to remove) and the file.
fn saved_book(name: &str) -> (Book<TicTacToe>, std::path::PathBuf, std::path::PathBuf) {
    let book = grow(ttt_book(4, 3), 3);
    let dir = std::env::temp_dir().join(format!("crumble-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.crbook");
    file::save(&book, &path).unwrap();
    (book, dir, path)
}

/// A `book:` agent plays the book's best move while it is a book move (in either seat and
/// whatever the orientation the game reached the position in), then its agent.
#[test]
fn a_book_agent_plays_the_books_moves_then_searches() {
    use crate::agent::{AgentError, AgentSpec, NoCheckpoints};
    use crate::arena::{Job, Pool, run_jobs};
    use crate::driver::{Flow, Seating};
    use crate::record::StepKind;
    let (book, dir, path) = saved_book("book-agent");
    let specs = [
        AgentSpec::parse(&format!("book:{}@mcts:uniform:4", path.display())).unwrap(),
        AgentSpec::Random,
    ];
    let play = SearchConfig::default().for_play();
    let pool = Pool::<TicTacToe>::new(&specs, &play, &NoCheckpoints).unwrap();
    let jobs = [Job {
        agents: vec![0, 1],
        seating: Seating::Alternate,
        start: TicTacToe::from_start(&TicTacToeStart::default()).unwrap(),
        max_turns: 0,
        stop_after_turns: 0,
        games: 0..8,
        seed: 4,
    }];
    let mut games = Vec::new();
    run_jobs(&pool, &jobs, 4, &mut |_, g| {
        games.extend(g);
        Ok(Flow::Continue)
    })
    .unwrap();
    let (mut from_book, mut searched) = (0, 0);
    for g in &games {
        let mut state = TicTacToe::from_start(&TicTacToeStart::default()).unwrap();
        // Agent 0 moves first in the even games.
        let book_seat = if g.index % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        let mut left_book = false;
        if book_seat == Player::First {
            assert_eq!(g.steps[0].kind, StepKind::Book, "the root is in the book");
        }
        for s in &g.steps {
            let mover = state.decider().unwrap();
            let expected = book.best_move_seen(&state);
            if mover == book_seat && !left_book {
                match expected {
                    Some(turn) => {
                        assert_eq!((s.kind, vec![s.decision]), (StepKind::Book, turn));
                        from_book += 1;
                    }
                    None => left_book = true,
                }
            }
            if mover == book_seat && left_book && s.kind != StepKind::Forced {
                assert_eq!(s.kind, StepKind::Searched, "game {}", g.index);
                searched += 1;
            }
            if mover != book_seat {
                assert_eq!(s.kind, StepKind::Random);
            }
            state.apply(s.decision).unwrap();
        }
    }
    assert!(from_book >= 4, "{from_book} moves from the book");
    assert!(searched > 0, "the agent searches once out of the book");
    // The book's own agent when none is named; a missing or foreign book is refused.
    let own = Pool::<TicTacToe>::new(
        &[AgentSpec::parse(&format!("book:{}", path.display())).unwrap()],
        &play,
        &NoCheckpoints,
    )
    .unwrap();
    assert_eq!(own.spec(0).to_string(), format!("book:{}", path.display()));
    for (spec, says) in [
        (
            format!("book:{}", dir.join("none.crbook").display()),
            "none.crbook",
        ),
        (format!("book:{}@random", path.display()), "nim"),
    ] {
        let spec = AgentSpec::parse(&spec).unwrap();
        let err = Pool::<Nim>::new(&[spec], &play, &NoCheckpoints).unwrap_err();
        assert!(matches!(err, AgentError::Book { .. }), "{err:?}");
        assert!(err.to_string().contains(says), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A finished tic-tac-toe game as a record: `first`, then the lowest free cell each turn.
fn ttt_record(first: Decision, index: u64) -> crate::record::GameRecord {
    use crate::record::{Ending, GameRecord, StepKind, StepRecord};
    let mut g = cells(&[]);
    let mut steps = vec![first];
    g.apply(first).unwrap();
    while !g.is_over() {
        let mut legal = Vec::new();
        g.legal_decisions_into(&mut legal);
        g.apply(legal[0]).unwrap();
        steps.push(legal[0]);
    }
    GameRecord {
        index,
        game: TicTacToe::NAME.into(),
        start: crate::record::start_json::<TicTacToe>(&TicTacToeStart::default()),
        max_turns: 0,
        steps: steps
            .into_iter()
            .map(|decision| StepRecord {
                decision,
                kind: StepKind::Random,
                search: None,
            })
            .collect(),
        result: g.game_result().unwrap(),
        ending: Ending::Rules,
        would_resign: None,
        agents: None,
    }
}

/// Played games count at every book position and move they pass through, once a game,
/// mirror images together; a game of another game counts as outside; the JSON and the
/// pages show them beside the search values, which they leave as they were.
#[test]
fn game_evidence_counts_each_game_once_per_position_and_move() {
    let book = grow(ttt_book(4, 3), 3);
    let root = book.node(0);
    let turn = root.edges[0].turn.clone();
    // The same first move in another orientation.
    let mirrored = root
        .state
        .symmetries()
        .into_iter()
        .filter_map(|v| root.state.symmetry_turn(v, &turn))
        .find(|t| *t != turn)
        .expect("a corner or an edge cell has a mirror image");
    let mut nim = ttt_record(turn[0], 9);
    nim.game = "nim".into();
    let mut games = [ttt_record(turn[0], 0), ttt_record(mirrored[0], 1), nim];
    // A game under another turn limit (a match's) reaches the same positions.
    games[1].max_turns = 50;
    let before = book.to_json(&[]);
    let ev = book.evidence("test games", &games);
    assert_eq!((ev.games, ev.outside), (3, 1));
    assert_eq!(ev.node(0).games(), 2);
    assert_eq!(ev.edge(0, 0).games(), 2, "mirror images are one move");
    assert_eq!(ev.node(root.edges[0].child).games(), 2);
    let other = ev.other(0, root.edges.len() as u32);
    assert_eq!(other.games(), 0);
    // Each game once at each position it passed through, whatever else it did.
    assert!(ev.nodes.values().all(|t| t.games() <= 2));
    let t = ev.node(0);
    assert_eq!(t.for_player(Some(Player::Second)).wins, t.second_wins);
    // JSON: by source, beside unchanged values.
    let json = book.to_json(std::slice::from_ref(&ev));
    assert_eq!(json["nodes"][0]["games"][0]["games"], 2);
    assert_eq!(json["nodes"][0]["games"][0]["source"], "test games");
    assert_eq!(json["nodes"][0]["moves"][0]["games"][0]["games"], 2);
    assert_eq!(json["game_sources"][0]["outside"], 1);
    assert_eq!(json["nodes"][0]["value"], before["nodes"][0]["value"]);
    // Pages: a line for the position and a column for the moves.
    let pages = book.html_pages(std::slice::from_ref(&ev));
    let root_page = &pages.iter().find(|(p, _)| p == "p/0.html").unwrap().1;
    assert!(
        root_page.contains("Games through here (test games): 2 ("),
        "{root_page}"
    );
    assert!(
        root_page.contains("<th>games (test games)</th>"),
        "{root_page}"
    );
}

/// The one-game agent of `play` and `serve` plays as matches do: a `book:` agent's book move
/// while it has one (then its agent), and `solver` only exactly best decisions.
#[test]
fn a_turn_agent_plays_book_moves_and_the_solvers_best() {
    use crate::agent::{AgentSpec, NoCheckpoints};
    use crate::turn_agent::TurnAgent;
    let (book, dir, path) = saved_book("turn-agent");
    let play = SearchConfig::default();
    let spec = AgentSpec::parse(&format!("book:{}@random", path.display())).unwrap();
    let start = cells(&[]);
    let want = book
        .best_move_seen(&start)
        .expect("the start is in the book");
    for seed in 0..4 {
        let mut agent = TurnAgent::new(&spec, &play, seed, &NoCheckpoints).unwrap();
        assert_eq!(agent.choose_turn(&start).unwrap().0, want, "seed {seed}");
    }
    std::fs::remove_dir_all(&dir).ok();
    // x on cells 0 and 1, o on 3 and 4, x to move: only cell 2 wins at once (and so keeps
    // the win); random play finds it in few of the seeds.
    let threat = cells(&[0, 3, 1, 4]);
    let mut solver = TurnAgent::new(&AgentSpec::Solver, &play, 0, &NoCheckpoints).unwrap();
    let mut random = TurnAgent::new(&AgentSpec::Random, &play, 0, &NoCheckpoints).unwrap();
    let mut random_wins = 0;
    for _ in 0..8 {
        assert_eq!(
            solver.choose_turn(&threat).unwrap(),
            (vec![Decision(2)], None)
        );
        random_wins += usize::from(random.choose_turn(&threat).unwrap().0 == [Decision(2)]);
    }
    assert!(
        random_wins < 8,
        "the position does not tell the solver from random play"
    );
    // A finished game has no turn to play.
    let mut over = threat.clone();
    over.apply(Decision(2)).unwrap();
    assert!(solver.choose_turn(&over).is_err());
}
