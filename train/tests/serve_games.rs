//! The board's HTTP API for every game of the registry (in-process, no browser): a new game of each,
//! decisions by clicks placed on the game's picture, moves typed in notation, the agent's
//! answer, the evaluator's prior and value, an analysis, records saved and loaded back, a
//! session switching games, and the refusals (bad moves, bad positions, unknown games, the
//! built-in network asked for a game it does not play). Small boards and tiny searches keep
//! it fast.

mod serve_common;

use axum::body::Body;
use axum::http::StatusCode;
use serde_json::{Value, json};
use serve_common::{app_for, call, error_of, first, post, session};

/// The texts of the line's moves.
fn texts(s: &Value) -> Vec<String> {
    s["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect()
}

/// Every decision has a prior, and they sum to one.
fn check_priors(s: &Value) {
    let priors = s["eval"]["priors"]
        .as_array()
        .unwrap_or_else(|| panic!("{s}"));
    assert_eq!(priors.len(), s["decisions"].as_array().unwrap().len());
    let sum: f64 = priors.iter().map(|p| p.as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-3, "{sum}");
    assert!(s["eval"]["black"].as_f64().unwrap().abs() <= 1.0);
}

/// Posts `body` to `path` and expects a refusal with `word` in its message.
async fn refused(app: &axum::Router, path: &str, body: Value, word: &str) {
    let (st, v) = post(app, path, body.clone()).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{path} {body}: {v}");
    assert!(error_of(&v).contains(word), "{path} {body}: {v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn splinter_plays_by_clicks_and_notation() {
    let app = app_for("splinter", "random");
    let (id, s) = session(&app).await;
    let api = |p: &str| format!("/api/s/{id}/{p}");
    assert_eq!(
        (s["game"].as_str(), s["to_move"].as_str()),
        (Some("splinter"), Some("black"))
    );
    assert!(
        s["svg"].as_str().unwrap().starts_with("<svg"),
        "the game's picture"
    );
    check_priors(&s);
    // A small board: one move by a click (a move is one decision), placed on the picture.
    let (st, s) = post(&app, &api("new"), json!({ "board": "9x10" })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    let d = &s["decisions"][0];
    assert_eq!(d["kind"], "move");
    assert_eq!(d["from"].as_array().unwrap().len(), 2);
    let (st, s) = post(&app, &api("decide"), json!({ "d": first(&s, "move") })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(s["moves"].as_array().unwrap().len(), 1);
    assert!(texts(&s)[0].contains('-'), "{}", texts(&s)[0]);
    assert_eq!(s["to_move"], "white");
    // The agent answers; the value graph covers the line.
    let (st, s) = post(&app, &api("agent"), json!({})).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(s["moves"][1]["agent"], true);
    let (_, v) = call(&app, "GET", &api("values"), None).await;
    assert_eq!(v["values"].as_array().unwrap().len(), 3, "{v}");

    // Typed moves on the standard board: rule 9's notation, and the no-return rule refused.
    let (_, s) = post(&app, &api("new"), json!({})).await;
    assert!(s["svg"].as_str().unwrap().contains("15x18"));
    let (st, s) = post(&app, &api("move"), json!({ "text": "h9-h10" })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(texts(&s), ["h9-h10"]);
    refused(
        &app,
        &api("move"),
        json!({ "text": "h11-h10" }),
        "no-return",
    )
    .await;
    refused(&app, &api("move"), json!({ "text": "zz" }), "bad move").await;
    refused(&app, &api("decide"), json!({ "d": 0 }), "bad move").await;
    // An analysis of the position shown.
    let (st, events) = call(&app, "GET", &api("search?sims=16"), None).await;
    assert_eq!(st, StatusCode::OK);
    assert!(events.as_str().unwrap().contains("event: done"), "{events}");

    // The record names the game and loads back to the same moves.
    let (_, s) = post(&app, &api("move"), json!({ "text": "g11-g10" })).await;
    let (st, rec) = call(&app, "GET", &api("record"), None).await;
    assert_eq!(st, StatusCode::OK);
    let rec = rec.as_str().unwrap().to_string();
    assert!(rec.contains("[Game \"splinter\"]"), "{rec}");
    let (st, s2) = call(&app, "POST", &api("load"), Some(Body::from(rec))).await;
    assert_eq!(st, StatusCode::OK, "{s2}");
    assert_eq!((texts(&s2), s2["ply"].as_u64()), (texts(&s), Some(0)));

    // Refusals: sizes, positions, the built-in network, unknown games.
    for (body, word) in [
        (json!({ "board": "3x3" }), "WxH"),
        (json!({ "board": 15 }), "WxH"),
        (
            json!({ "position": { "width": 9, "height": 10 } }),
            "bad position",
        ),
        (json!({ "game": "go" }), "unknown game `go`"),
    ] {
        refused(&app, &api("new"), body, word).await;
    }
    // Splinter has a built-in network: `bot` plays it.
    let (st, s) = post(&app, &api("new"), json!({ "agent": "bot:8" })).await;
    assert_eq!(
        (st, s["agent"].as_str()),
        (StatusCode::OK, Some("bot:8")),
        "{s}"
    );
    // A position in rule 10's JSON starts a game.
    let pos = include_str!("../../core/tests/data/splinter-examples/02-slide-corner-contact.json");
    let pos: Value = serde_json::from_str(pos).unwrap();
    let (st, s) = post(&app, &api("new"), json!({ "position": pos["expected"] })).await;
    assert_eq!(st, StatusCode::OK, "{s}");

    // A move that leaves equal largest groups: the move, then a click on the group that stays.
    let tie = include_str!("../../core/tests/data/splinter-examples/15-tie-mover-keeps-first.json");
    let tie: Value = serde_json::from_str(tie).unwrap();
    let (st, s) = post(&app, &api("new"), json!({ "position": tie["start"] })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    // The decision of `kind` at `square` (a move's: south-west).
    let find = |s: &Value, kind: &str, square: &str| -> u64 {
        let ds = s["decisions"].as_array().unwrap();
        let d = ds.iter().find(|d| {
            d["kind"] == kind && d["square"] == square && (kind != "move" || d["dir"] == "sw")
        });
        d.unwrap_or_else(|| panic!("no {kind} at {square} in {ds:?}"))["d"]
            .as_u64()
            .unwrap()
    };
    let (_, s) = post(&app, &api("decide"), json!({ "d": find(&s, "move", "e4") })).await;
    assert_eq!(
        (s["phase"].as_str(), s["building"].as_str()),
        (Some("keep"), Some("e4-d3/…"))
    );
    let keeps: Vec<&Value> = s["decisions"].as_array().unwrap().iter().collect();
    assert_eq!(keeps.len(), 2, "two groups of 7 may stay");
    assert!(
        keeps
            .iter()
            .all(|k| k["kind"] == "keep" && k["squares"].as_array().unwrap().len() == 7)
    );
    let (_, s) = post(&app, &api("decide"), json!({ "d": find(&s, "keep", "d3") })).await;
    assert_eq!(texts(&s)[0], "e4-d3/d3");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crumo_places_moves_swaps_and_passes() {
    let app = app_for("crumo", "mcts:uniform:8");
    let (id, s) = session(&app).await;
    let api = |p: &str| format!("/api/s/{id}/{p}");
    assert_eq!(s["game"], "crumo");
    check_priors(&s);
    // Size 3 against the page's random agent; Black's first turn places (rule 8.1).
    let (st, s) = post(&app, &api("new"), json!({ "board": 3, "agent": "random" })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert!(
        s["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["kind"] == "place")
    );
    let (st, s) = post(&app, &api("move"), json!({ "text": "2c3" })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    // White may swap: a button; after it the person's first seat plays White.
    let swap = s["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == "swap");
    assert!(swap.unwrap()["button"].is_string(), "{}", s["decisions"]);
    let (_, s) = post(&app, &api("decide"), json!({ "d": first(&s, "swap") })).await;
    assert_eq!(texts(&s), ["2c3", "swap"]);
    assert_eq!(
        (s["human"].as_str(), s["to_move"].as_str()),
        (Some("white"), Some("white"))
    );
    // A move by clicks: the stack, then the target; the notation is built on the way.
    let (st, s) = post(&app, &api("decide"), json!({ "d": first(&s, "place") })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    let (_, s) = post(&app, &api("agent"), json!({})).await;
    assert_eq!(s["moves"].as_array().unwrap().len(), 4, "{s}");
    let has_from = s["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["kind"] == "from");
    if has_from {
        let (_, s) = post(&app, &api("decide"), json!({ "d": first(&s, "from") })).await;
        assert_eq!(s["phase"], "to");
        assert!(
            s["building"].as_str().unwrap().ends_with("-…"),
            "{}",
            s["building"]
        );
        assert!(s["pending"].is_array());
        let (_, s) = post(&app, &api("decide"), json!({ "d": first(&s, "to") })).await;
        assert!(texts(&s)[4].contains('-'), "{:?}", texts(&s));
        post(&app, &api("undo"), json!({})).await;
    }
    let (st, s) = post(&app, &api("move"), json!({ "text": "pass" })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(texts(&s)[4], "pass");
    refused(&app, &api("move"), json!({ "text": "swap" }), "second turn").await;
    refused(&app, &api("move"), json!({ "text": "9z9" }), "bad move").await;

    // The record names the game and loads back to the same moves.
    let (_, rec) = call(&app, "GET", &api("record"), None).await;
    let rec = rec.as_str().unwrap().to_string();
    assert!(
        rec.contains("[Game \"crumo\"]") && rec.contains("swap"),
        "{rec}"
    );
    let (st, s2) = call(&app, "POST", &api("load"), Some(Body::from(rec))).await;
    assert_eq!(st, StatusCode::OK, "{s2}");
    assert_eq!(texts(&s2), texts(&s));

    for (path, body, word) in [
        ("new", json!({ "board": 1 }), "2 to 13"),
        (
            "new",
            json!({ "position": "{\"size\": 5}" }),
            "bad position",
        ),
    ] {
        refused(&app, &api(path), body, word).await;
    }
    // Crumo has a built-in network: `bot` plays it (size 3, a place or a move answered).
    let (st, s) = post(&app, &api("new"), json!({ "board": 3, "agent": "bot:8" })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    let (st, s) = post(&app, &api("agent"), json!({})).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(s["moves"].as_array().unwrap().len(), 1, "{s}");
    assert_eq!(s["agent"], "bot:8");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_changes_game_and_records_pick_theirs() {
    let app = app_for("crumble", "random");
    let (id, s) = session(&app).await;
    let api = |p: &str| format!("/api/s/{id}/{p}");
    assert_eq!(s["game"], "crumble");
    let (st, s) = post(&app, &api("new"), json!({ "game": "crumo", "board": "4" })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(
        (s["game"].as_str(), s["agent"].as_str()),
        (Some("crumo"), Some("bot:64"))
    );
    // A Splinter record dropped on the Crumo page starts a Splinter game.
    let rec = "[Game \"splinter\"]\n[Board \"9x10\"]\n[Result \"*\"]\n\n1. f4-e4 *\n";
    let (st, s) = call(&app, "POST", &api("load"), Some(Body::from(rec))).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(
        (s["game"].as_str(), texts(&s)),
        (Some("splinter"), vec!["f4-e4".to_string()])
    );
    // A Crumble record switches back; a broken one of another game is refused with its reason.
    let text = include_str!("../../core/tests/data/records/opening-with-comments.rec");
    let (_, s) = call(&app, "POST", &api("load"), Some(Body::from(text))).await;
    assert_eq!(s["game"], "crumble");
    let broken = "[Game \"crumo\"]\n[Size \"3\"]\n[Result \"*\"]\n\n1. 9a1 *\n";
    let (st, v) = call(&app, "POST", &api("load"), Some(Body::from(broken))).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("bad record"), "{v}");
    let (_, s) = call(&app, "GET", &api("state"), None).await;
    assert_eq!(
        s["game"], "crumble",
        "a refused load leaves the session as it was"
    );
}

/// Every game of the registry on the board, through the same API: a new game, a move made of
/// decisions (each one a click, or a button where the game has no script of its own), the
/// agent's answer, its record saved and loaded back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_of_the_registry_plays_on_the_board() {
    for &game in crumble_train::games::GAMES {
        let app = app_for(game, "random");
        let (id, s) = session(&app).await;
        let api = |p: &str| format!("/api/s/{id}/{p}");
        assert_eq!(s["game"], game);
        assert!(
            !s["decisions"].as_array().unwrap().is_empty(),
            "{game}: {s}"
        );
        check_priors(&s);
        // One move, a decision at a time: the first one offered each time.
        let mut s = s;
        while s["moves"].as_array().unwrap().is_empty() {
            let d = &s["decisions"][0];
            let label = d["button"].as_str().or(d["text"].as_str()).unwrap_or("");
            assert!(!label.is_empty(), "{game}: a decision without a name: {d}");
            let (st, next) = post(&app, &api("decide"), json!({ "d": d["d"] })).await;
            assert_eq!(st, StatusCode::OK, "{game}: {next}");
            s = next;
        }
        let (st, s) = post(&app, &api("agent"), json!({})).await;
        assert_eq!(st, StatusCode::OK, "{game}: {s}");
        let line = texts(&s);
        assert_eq!(line.len(), 2, "{game}: {line:?}");
        let (st, rec) = call(&app, "GET", &api("record"), None).await;
        assert_eq!(st, StatusCode::OK, "{game}: {rec}");
        let (st, loaded) = call(
            &app,
            "POST",
            &api("load"),
            Some(Body::from(rec.as_str().unwrap().to_string())),
        )
        .await;
        assert_eq!(st, StatusCode::OK, "{game}: {loaded}");
        assert_eq!(
            (loaded["game"].as_str(), texts(&loaded)),
            (Some(game), line)
        );
    }
}

/// A game the page draws by default: each button names the move it makes, or the part of it
/// that every move it can still become shares (Nim: `2-…`, then `2-3`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_without_a_script_names_its_buttons_by_the_moves_they_make() {
    let app = app_for("nim", "random");
    let (id, s) = session(&app).await;
    let api = |p: &str| format!("/api/s/{id}/{p}");
    let buttons = |s: &Value| -> Vec<String> {
        s["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["button"].as_str().unwrap().to_string())
            .collect()
    };
    // Heap 1 holds one object: its one move, still a click away.
    assert_eq!(buttons(&s), ["1-1…", "2-…", "3-…"], "{s}");
    let (_, s) = post(&app, &api("decide"), json!({ "d": s["decisions"][1]["d"] })).await;
    assert_eq!(s["building"], "2-…");
    assert_eq!(buttons(&s), ["2-1", "2-2", "2-3"], "{s}");
    let (_, s) = post(&app, &api("decide"), json!({ "d": s["decisions"][2]["d"] })).await;
    assert_eq!(texts(&s), ["2-3"]);
    // A typed move, a size refused, a position accepted.
    let (st, s) = post(&app, &api("move"), json!({ "text": "3-5" })).await;
    assert_eq!(st, StatusCode::OK, "{s}");
    refused(
        &app,
        &api("new"),
        json!({ "board": "7" }),
        "nim has one board",
    )
    .await;
    let (st, s) = post(
        &app,
        &api("new"),
        json!({ "position": "{\"heaps\": [2, 2]}" }),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{s}");
    assert_eq!(buttons(&s), ["1-…", "2-…"], "{s}");
    let (_, s) = post(&app, &api("new"), json!({ "game": "tictactoe" })).await;
    assert_eq!(buttons(&s).len(), 9, "{s}");
    assert!(s["svg"].as_str().unwrap().contains("<text"), "{s}");
}

/// `solver` plays the games small enough to solve from the page, exactly: in Nim with heaps
/// 1 and 2 the only winning move takes one from the second heap (leaving 1 and 1).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_solver_plays_the_test_games_exactly_and_only_them() {
    let app = app_for("nim", "random");
    let (id, _) = session(&app).await;
    let api = |p: &str| format!("/api/s/{id}/{p}");
    for _ in 0..4 {
        let body = json!({ "agent": "solver", "position": "{\"heaps\": [1, 2]}" });
        let (st, s) = post(&app, &api("new"), body).await;
        assert_eq!(st, StatusCode::OK, "{s}");
        let (st, s) = post(&app, &api("agent"), json!({})).await;
        assert_eq!(st, StatusCode::OK, "{s}");
        assert_eq!(texts(&s), ["2-1"], "{s}");
    }
    // The solver refused for Crumble; Nim's `bot` refused (no built-in network), with what
    // to choose instead.
    for (body, word) in [
        (
            json!({ "game": "crumble", "agent": "solver" }),
            "small enough to solve",
        ),
        (
            json!({ "game": "nim", "agent": "bot:8" }),
            "has no built-in network",
        ),
    ] {
        refused(&app, &api("new"), body, word).await;
    }
}
