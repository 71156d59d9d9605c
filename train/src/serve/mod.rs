//! `crumble serve`: a board in the browser to play and analyse with the bot.
//!
//! A small HTTP server (axum) hands out one page (its HTML, script and styles compiled into
//! the program: [`assets`]) and a JSON API under `/api/`. Each browser tab opens a session
//! (`POST /api/session`) and then works on its own game at `/api/s/ID/...`:
//!
//! | request | what it does |
//! | --- | --- |
//! | `GET state` | the position shown, its legal decisions and where each is drawn, the moves, the network's prior and value |
//! | `POST new` `{game, board, position, human, agent}` | a new game (`position`: position JSON) |
//! | `POST decide` `{d}` | one decision of the turn (a click) |
//! | `POST move` `{text}` | a move in notation |
//! | `POST undo`, `POST goto` `{ply}` | take back; show another position of the line |
//! | `POST agent` | the agent plays the turn |
//! | `GET search?sims=N` | the analysis search, as server-sent events; `POST stop` ends it |
//! | `GET values` | the network's value of every position of the line (Black's view) |
//! | `POST load?index=K` (body: a `.rec` text or a `.crsp` file) | load a game; `GET record` saves it |
//!
//! Safety: the server binds to loopback unless told otherwise, bodies are capped at
//! [`MAX_BODY`], simulations at the [`engine`] limits, sessions at [`MAX_SESSIONS`] (the
//! least recently used goes), one analysis runs per session, and it reads no file the page
//! names: agents from the page cannot load networks, records come in the request body.

mod assets;
mod engine;
mod routes;
mod session;
mod view;

pub use engine::{Engine, MAX_AGENT_SIMULATIONS, MAX_ANALYSIS_SIMULATIONS};

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use session::Session;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Largest request body: a self-play file of a few dozen games fits.
pub const MAX_BODY: usize = 16 * 1024 * 1024;
/// Sessions kept at once.
pub const MAX_SESSIONS: usize = 64;

/// Why a request was refused. Each becomes an HTTP status and `{"error": message}`.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("{0}")]
    BadRequest(String),
    #[error("bad position: {0}")]
    BadPosition(String),
    #[error("bad move: {0}")]
    BadMove(String),
    #[error("bad agent: {0}")]
    BadAgent(String),
    #[error("bad record: {0}")]
    BadRecord(String),
    #[error("unknown game `{0}`: the board plays crumble")]
    UnknownGame(String),
    #[error("no session `{0}` (it may have expired: reload the page)")]
    NoSession(String),
    #[error("{0}")]
    Conflict(String),
    #[error("the network cannot evaluate this position: {0}")]
    Analysis(String),
    #[error("internal error: {0}")]
    Internal(String),
}

impl ServeError {
    fn status(&self) -> StatusCode {
        match self {
            ServeError::NoSession(_) => StatusCode::NOT_FOUND,
            ServeError::Conflict(_) => StatusCode::CONFLICT,
            ServeError::Analysis(_) | ServeError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::BAD_REQUEST,
        }
    }
}

impl IntoResponse for ServeError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.to_string() });
        (self.status(), Json(body)).into_response()
    }
}

/// Everything the handlers share.
#[derive(Debug)]
pub struct AppState {
    pub engine: Engine,
    sessions: Mutex<HashMap<String, Arc<Mutex<Session>>>>,
    /// Seeds session ids and agents' random streams.
    counter: Mutex<u64>,
}

impl AppState {
    pub fn new(engine: Engine) -> AppState {
        AppState {
            engine,
            sessions: Mutex::new(HashMap::new()),
            counter: Mutex::new(0),
        }
    }

    fn next(&self) -> u64 {
        let mut c = self.counter.lock().unwrap_or_else(|e| e.into_inner());
        *c += 1;
        *c
    }
}

/// The server's routes, with the body limit: `crumble serve` runs it, tests call it directly.
pub fn router(state: Arc<AppState>) -> axum::Router {
    routes::router(state)
}

/// Is `addr` on this machine only?
pub fn is_loopback(addr: &std::net::SocketAddr) -> bool {
    addr.ip().is_loopback()
}

/// Serves on `listener` until Ctrl-C.
pub async fn serve(listener: tokio::net::TcpListener, state: Arc<AppState>) -> std::io::Result<()> {
    axum::serve(listener, router(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
