//! The HTTP API of `crumble serve`, called in-process (tower's `oneshot`, no port, no
//! browser): the happy paths (a session, a move by clicks with a swap step, a typed move, the
//! agent's answer, the prior and value, a live analysis, the value graph, a record saved and
//! loaded back) and the refusals (bad positions, bad moves, oversized bodies, unknown games,
//! sessions and keys, agents that would read a file). Searches are tiny, so this is fast.

mod serve_common;

use axum::body::Body;
use axum::http::StatusCode;
use crumble_train::serve::MAX_BODY;
use serde_json::{Value, json};
use serve_common::{app, app_for, call, error_of, first, post, session};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_by_clicks_the_agent_answers_and_the_analysis_follows() {
    let app = app("random");
    let (id, s) = session(&app).await;
    let api = |p: &str| format!("/api/s/{id}/{p}");
    assert_eq!(s["phase"], "choose");
    assert_eq!(s["to_move"], "black");
    // The network's prior covers every legal decision and sums to one; its value is a number.
    let priors = s["eval"]["priors"].as_array().unwrap();
    assert_eq!(priors.len(), s["decisions"].as_array().unwrap().len());
    let sum: f64 = priors.iter().map(|p| p.as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-3, "{sum}");
    assert!(s["eval"]["value"].as_f64().unwrap().abs() <= 1.0);

    // Choose a horizontal split, its end, one swap step, then stop: one complete move.
    let (st, s) = post(&app, &api("decide"), json!({ "d": first(&s, "split-h") })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(s["phase"], "extent");
    assert!(
        s["building"].as_str().unwrap().ends_with("H…"),
        "{}",
        s["building"]
    );
    let (_, s) = post(&app, &api("decide"), json!({ "d": first(&s, "end") })).await;
    assert_eq!(s["phase"], "swap");
    assert_eq!(s["fresh"].as_array().unwrap().len(), 2);
    let (_, s) = post(&app, &api("decide"), json!({ "d": first(&s, "step") })).await;
    // The step may end the turn by itself (no target left); else the notation so far shows it.
    let done = if s["phase"] == "swap" {
        let building = s["building"].as_str().unwrap().to_string();
        assert!(
            building.contains('H') && building.ends_with('…'),
            "{building}"
        );
        post(&app, &api("decide"), json!({ "d": first(&s, "stop") }))
            .await
            .1
    } else {
        s
    };
    assert_eq!(done["moves"].as_array().unwrap().len(), 1, "{done}");
    let text = done["moves"][0]["text"].as_str().unwrap();
    assert!(
        text.contains('H') && text.ends_with(['N', 'E', 'S', 'W']),
        "{text}"
    );
    assert_eq!(done["to_move"], "white");
    assert!(
        done["last"]["path"].as_array().unwrap().len() >= 2,
        "the swap is highlighted"
    );

    // The agent answers; then a move typed in notation is refused when illegal, then undone.
    let (st, s) = post(&app, &api("agent"), json!({})).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(s["moves"].as_array().unwrap().len(), 2);
    assert_eq!(s["moves"][1]["agent"], true);

    // The value graph: one value per position of the line.
    let (st, v) = call(&app, "GET", &api("values"), None).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["values"].as_array().unwrap().len(), 3);

    // A live analysis: updates as server-sent events, ending with `done` and candidates.
    let (st, events) = call(&app, "GET", &api("search?sims=24"), None).await;
    assert_eq!(st, StatusCode::OK);
    let text = events.as_str().unwrap();
    let done = text
        .split("\n\n")
        .find(|e| e.starts_with("event: done"))
        .unwrap_or_else(|| panic!("no done event in {text}"));
    let data: Value = serde_json::from_str(done.split_once("data: ").unwrap().1).unwrap();
    assert!(data["visits"].as_u64().unwrap() >= 24, "{data}");
    let cands = data["candidates"].as_array().unwrap();
    assert!(!cands.is_empty());
    assert!(cands[0]["move"].as_str().unwrap().len() >= 2);
    assert!(!data["pv"].as_array().unwrap().is_empty());

    // Save the game, load it back: the same moves.
    let (st, rec) = call(&app, "GET", &api("record"), None).await;
    assert_eq!(st, StatusCode::OK);
    let rec = rec.as_str().unwrap().to_string();
    assert!(rec.contains("[White \"random\"]"), "{rec}");
    let (st, s2) = call(&app, "POST", &api("load"), Some(Body::from(rec))).await;
    assert_eq!(st, StatusCode::OK, "{s2}");
    assert_eq!(s2["ply"], 0);
    let texts = |s: &Value| -> Vec<Value> {
        s["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].clone())
            .collect()
    };
    assert_eq!(texts(&s2), texts(&s));
    let (_, s3) = post(&app, &api("goto"), json!({ "ply": 2 })).await;
    assert_eq!(s3["ply"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_built_in_network_answers_and_typed_moves_play() {
    let app = app("bot:4");
    let (id, s) = session(&app).await;
    assert_eq!(s["agent"], "bot:4");
    let api = |p: &str| format!("/api/s/{id}/{p}");
    let (st, s) = post(&app, &api("move"), json!({ "text": "1HN" })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(s["moves"][0]["text"], "1HN");
    let (st, s) = post(&app, &api("agent"), json!({})).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(s["moves"].as_array().unwrap().len(), 2);
    assert!(
        s["moves"][1]["value"].is_number(),
        "the bot's value is kept"
    );
    // Undo takes back the agent's reply and the person's move.
    let (_, s) = post(&app, &api("undo"), json!({})).await;
    assert_eq!(s["moves"].as_array().unwrap().len(), 0);
    // A new game as White against a page-chosen agent: the standard start of 4 cells.
    let (st, s) = post(
        &app,
        &api("new"),
        json!({ "board": 4, "human": "white", "agent": "mcts:rollout:8" }),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(
        (s["human"].as_str(), s["agent"].as_str()),
        (Some("white"), Some("mcts:rollout:8"))
    );
    assert_eq!(s["board"]["size"], 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_with_a_reason() {
    let app = app("random");
    let (id, _) = session(&app).await;
    let api = |p: &str| format!("/api/s/{id}/{p}");
    // (request, expected status, a word of the message)
    let cases: Vec<(&str, Value, StatusCode, &str)> = vec![
        (
            "new",
            json!({ "position": "{not json" }),
            StatusCode::BAD_REQUEST,
            "bad position",
        ),
        (
            "new",
            json!({ "position": { "board": 6 } }),
            StatusCode::BAD_REQUEST,
            "bad position",
        ),
        (
            "new",
            json!({ "position": 7 }),
            StatusCode::BAD_REQUEST,
            "position JSON",
        ),
        (
            "new",
            json!({ "board": 40 }),
            StatusCode::BAD_REQUEST,
            "2 to 16",
        ),
        (
            "new",
            json!({ "game": "chess" }),
            StatusCode::BAD_REQUEST,
            "unknown game `chess`: the board plays crumble, splinter, crumo, tictactoe, nim",
        ),
        (
            "new",
            json!({ "human": "red" }),
            StatusCode::BAD_REQUEST,
            "black or white",
        ),
        (
            "new",
            json!({ "agent": "ckpt:/etc/passwd" }),
            StatusCode::BAD_REQUEST,
            "cannot load network files",
        ),
        (
            "new",
            json!({ "agent": "mcts:rollout:999999" }),
            StatusCode::BAD_REQUEST,
            "at most",
        ),
        (
            "new",
            json!({ "agent": "alphazero" }),
            StatusCode::BAD_REQUEST,
            "unknown kind",
        ),
        (
            "new",
            json!({ "colour": "black" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown field",
        ),
        (
            "decide",
            json!({ "d": 99999 }),
            StatusCode::BAD_REQUEST,
            "outside the action space",
        ),
        (
            "decide",
            json!({ "d": 0 }),
            StatusCode::BAD_REQUEST,
            "bad move",
        ),
        (
            "decide",
            json!({ "d": "x" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid type",
        ),
        (
            "move",
            json!({ "text": "1H9" }),
            StatusCode::BAD_REQUEST,
            "bad move",
        ),
        (
            "move",
            json!({ "text": "zz" }),
            StatusCode::BAD_REQUEST,
            "bad move",
        ),
        (
            "undo",
            json!({}),
            StatusCode::BAD_REQUEST,
            "nothing to undo",
        ),
        (
            "goto",
            json!({ "ply": 3 }),
            StatusCode::BAD_REQUEST,
            "0 moves",
        ),
    ];
    for (path, body, status, word) in cases {
        let (st, v) = post(&app, &api(path), body.clone()).await;
        assert_eq!(st, status, "{path} {body}: {v}");
        assert!(error_of(&v).contains(word), "{path} {body}: {v}");
    }
    // Malformed JSON and a malformed record.
    let (st, v) = call(&app, "POST", &api("decide"), Some(Body::from("{\"d\":"))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(!error_of(&v).is_empty());
    let (st, v) = call(
        &app,
        "POST",
        &api("load"),
        Some(Body::from("[Board \"6\"]\n\n1. 9Q *\n")),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(error_of(&v).contains("bad record"), "{v}");
    let (st, v) = call(
        &app,
        "POST",
        &api("load"),
        Some(Body::from(vec![0xffu8, 0xfe, 0x00])),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    // Analysis budgets are bounded.
    let (st, v) = call(&app, "GET", &api("search?sims=999999999"), None).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    // An oversized body is refused before it is read whole.
    let big = vec![b'x'; MAX_BODY + 1024];
    let (st, _) = call(&app, "POST", &api("load"), Some(Body::from(big.clone()))).await;
    assert_eq!(st, StatusCode::PAYLOAD_TOO_LARGE);
    let (st, v) = call(&app, "POST", &api("move"), Some(Body::from(big))).await;
    assert_eq!(st, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(error_of(&v).contains("too large"), "{v}");
    // Unknown sessions and pages.
    let (st, v) = post(&app, "/api/s/nosuch/undo", json!({})).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert!(error_of(&v).contains("no session"), "{v}");
    let (st, _) = call(&app, "GET", "/nothing-here", None).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    // After all of that the session still plays.
    let (st, s) = post(&app, &api("move"), json!({ "text": "1HN" })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_load_from_text_and_self_play_files() {
    let app = app("random");
    let (id, _) = session(&app).await;
    let api = |p: &str| format!("/api/s/{id}/{p}");
    let text = include_str!("../../core/tests/data/records/opening-with-comments.rec");
    let (st, s) = call(&app, "POST", &api("load"), Some(Body::from(text))).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(s["moves"].as_array().unwrap().len(), 5);
    assert_eq!(s["moves"][0]["text"], "1HN");
    let crsp = include_bytes!("../../selfplay/tests/data/records-v1.crsp");
    let (st, s) = call(
        &app,
        "POST",
        &api("load?index=1"),
        Some(Body::from(&crsp[..])),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert!(!s["moves"].as_array().unwrap().is_empty());
    let (st, v) = call(
        &app,
        "POST",
        &api("load?index=999"),
        Some(Body::from(&crsp[..])),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("game index 999"), "{v}");
}

#[tokio::test]
async fn the_page_and_its_scripts_are_served() {
    let app = app("random");
    for (path, word) in [
        ("/", "/games/crumble.js"),
        ("/", r#"<option value="tictactoe">Tic-tac-toe</option>"#),
        ("/app.js", "registerGame"),
        ("/games/crumble.js", "registerGame(\"crumble\""),
        ("/games/splinter.js", "registerGame(\"splinter\""),
        ("/games/crumo.js", "registerGame(\"crumo\""),
        ("/style.css", "#board"),
    ] {
        let (st, v) = call(&app, "GET", path, None).await;
        assert_eq!(st, StatusCode::OK, "{path}");
        assert!(v.as_str().unwrap().contains(word), "{path}");
    }
    // The server's game comes first in the list; a game drawn by the page has no script.
    let (_, v) = call(&app_for("nim", "random"), "GET", "/", None).await;
    let page = v.as_str().unwrap();
    assert!(page.contains(r#"<select id="new-game"><option value="nim">Nim</option>"#));
    assert!(!page.contains("/games/nim.js"));
    for path in ["/games/nim.js", "/games/chess.js", "/games/crumble"] {
        let (st, _) = call(&app, "GET", path, None).await;
        assert_eq!(st, StatusCode::NOT_FOUND, "{path}");
    }
}

/// A small tic-tac-toe book in `dir`, grown by rollouts.
fn tictactoe_book(dir: &std::path::Path) -> std::path::PathBuf {
    use crumble_core::GameState as _;
    use crumble_core::games::tictactoe::{TicTacToe, TicTacToeStart};
    use crumble_selfplay::book::{Book, BookConfig, BookHeader, Builder, file};
    use crumble_selfplay::{RolloutEvaluator, SearchConfig};
    let start = TicTacToeStart::default();
    let header = BookHeader {
        game: "tictactoe".into(),
        start: crumble_selfplay::record::start_json::<TicTacToe>(&start),
        agent: "mcts:rollout:32".into(),
        simulations: 32,
        search: SearchConfig::default().to_toml_string(),
        config: BookConfig {
            batch: 4,
            ..BookConfig::default()
        },
        max_turns: 0,
        seed: 1,
    };
    let book = Book::new(header, TicTacToe::from_start(&start).unwrap());
    let evaluator = Box::new(RolloutEvaluator::new(SearchConfig::default().rollout, 3));
    let mut b = Builder::new(book, evaluator).unwrap().without_solver();
    for _ in 0..3 {
        b.step().unwrap();
    }
    let path = dir.join("ttt.crbook");
    file::save(&b.book, &path).unwrap();
    path
}

/// `serve --book`: the book's values and moves for the position shown, best first for the
/// player to move; a book move plays from its row's text; off the book (or within a turn)
/// the page is told so; the other games show no book; bad book files are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_book_shows_beside_the_analysis() {
    use crumble_selfplay::SearchConfig;
    use crumble_train::serve::{AppState, router};
    use std::sync::Arc;
    let dir = std::env::temp_dir().join(format!("crumble-serve-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = tictactoe_book(&dir);
    let state = AppState::new(
        "tictactoe",
        SearchConfig::default(),
        Some("random"),
        std::slice::from_ref(&path),
    );
    let app = router(Arc::new(state.unwrap()));
    let (id, s) = session(&app).await;
    let api = |p: &str| format!("/api/s/{id}/{p}");
    let book = &s["book"];
    assert_eq!(book["in_book"], true, "{s}");
    assert_eq!(book["agent"], "mcts:rollout:32");
    let options = book["options"].as_array().unwrap();
    assert!(options.len() >= 2, "{book}");
    let values: Vec<f64> = options
        .iter()
        .map(|o| o["values"]["value"].as_f64().unwrap())
        .collect();
    assert!(
        values.windows(2).all(|w| w[0] >= w[1]),
        "best first: {values:?}"
    );
    for o in options {
        let v = &o["values"];
        let (lo, x, hi) = (
            v["lower"].as_f64().unwrap(),
            v["value"].as_f64().unwrap(),
            v["upper"].as_f64().unwrap(),
        );
        assert!(lo <= x && x <= hi, "{o}");
    }
    // The node's value is its best option's, for the player to move.
    assert!(
        (book["values"]["value"].as_f64().unwrap() - values[0]).abs() < 1e-6,
        "{book}"
    );
    // Every book move plays from its text and reaches a book position.
    let in_book: Vec<&Value> = options.iter().filter(|o| o["in_book"] == true).collect();
    assert!(!in_book.is_empty());
    let (st, after) = post(&app, &api("move"), json!({ "text": in_book[0]["move"] })).await;
    assert_eq!(st, StatusCode::OK, "{after}");
    assert_eq!(after["book"]["in_book"], true, "{after}");
    // A line the book never took is outside it.
    let (_, mut s) = post(&app, &api("goto"), json!({ "ply": 0 })).await;
    let mut left = false;
    for _ in 0..5 {
        let other = s["book"]["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["in_book"] == false).cloned());
        let Some(other) = other else { break };
        let (st, next) = post(&app, &api("move"), json!({ "text": other["move"] })).await;
        assert_eq!(st, StatusCode::OK, "{next}");
        s = next;
        if s["book"]["in_book"] == false {
            left = true;
            break;
        }
    }
    assert!(left, "the best move outside the book leads out of it: {s}");
    assert!(s["book"]["positions"].as_u64().unwrap() > 1);
    // Another game's session has no book.
    let (_, s) = post(&app, &api("new"), json!({ "game": "nim" })).await;
    assert!(s.get("book").is_none(), "{s}");
    // Refused: a missing file, a damaged one, two books of one game.
    let damaged = dir.join("bad.crbook");
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0x55;
    std::fs::write(&damaged, &bytes).unwrap();
    for (books, says) in [
        (vec![dir.join("none.crbook")], "none.crbook"),
        (vec![damaged.clone()], "bad.crbook"),
        (vec![path.clone(), path.clone()], "one book a game"),
    ] {
        let err = AppState::new("tictactoe", SearchConfig::default(), None, &books).unwrap_err();
        assert!(err.to_string().contains(says), "{err}");
        assert!(err.to_string().starts_with("bad book"), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
