//! Calls to the board's HTTP API in-process (tower's `oneshot`, no port, no browser), shared
//! by the tests of `crumble serve`.
#![allow(dead_code)] // each test binary uses its own subset

use axum::body::Body;
use axum::http::{Request, StatusCode};
use crumble_selfplay::SearchConfig;
use crumble_train::serve::{self, AppState};
use http_body_util::BodyExt as _;
use serde_json::{Value, json};
use std::sync::Arc;
use tower::ServiceExt as _;

/// The server of `game` with `agent` as its default opponent.
pub fn app_for(game: &str, agent: &str) -> axum::Router {
    let state = AppState::new(game, SearchConfig::default(), Some(agent), &[]).unwrap();
    serve::router(Arc::new(state))
}

/// The Crumble server with `agent`.
pub fn app(agent: &str) -> axum::Router {
    app_for("crumble", agent)
}

/// One request; the answer's status and body (JSON when it parses, else a string).
pub async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: Option<Body>,
) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(body.unwrap_or_else(Body::empty))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

pub async fn post(app: &axum::Router, uri: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", uri, Some(Body::from(body.to_string()))).await
}

/// A new session: its id and first state.
pub async fn session(app: &axum::Router) -> (String, Value) {
    let (st, v) = post(app, "/api/session", json!({})).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    (v["id"].as_str().unwrap().to_string(), v["state"].clone())
}

pub fn first(state: &Value, kind: &str) -> u64 {
    state["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} decision in {}", state["decisions"]))["d"]
        .as_u64()
        .unwrap()
}

pub fn error_of(v: &Value) -> String {
    v["error"].as_str().unwrap_or_default().to_string()
}
