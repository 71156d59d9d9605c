//! The HTTP handlers: each reads its input strictly (unknown JSON keys are refused), works on
//! one session under its lock, and answers with the session's state or a [`ServeError`].
//! Agent moves and analysis searches run on blocking threads; the lock is not held while
//! they think.

use super::board::Board;
use super::engine::MAX_ANALYSIS_SIMULATIONS;
use super::{AppState, Entry, MAX_BODY, MAX_SESSIONS, NewGame, ServeError, assets};
use axum::body::Bytes;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use crumble_core::Player;
use serde::Deserialize;
use serde_json::{Value, json};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Instant;

type Shared = State<Arc<AppState>>;
type Answer = Result<Json<Value>, ServeError>;

pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(index))
        .route(
            "/app.js",
            get(|| async { page(assets::APP_JS, "text/javascript") }),
        )
        .route("/games/{file}", get(game_script))
        .route(
            "/style.css",
            get(|| async { page(assets::STYLE, "text/css") }),
        )
        .route("/api/session", post(open_session))
        .route("/api/s/{id}/state", get(get_state))
        .route("/api/s/{id}/new", post(new_game))
        .route("/api/s/{id}/decide", post(decide))
        .route("/api/s/{id}/move", post(play_move))
        .route("/api/s/{id}/undo", post(undo))
        .route("/api/s/{id}/goto", post(goto))
        .route("/api/s/{id}/agent", post(agent_move))
        .route("/api/s/{id}/search", get(search))
        .route("/api/s/{id}/stop", post(stop))
        .route("/api/s/{id}/values", get(values))
        .route("/api/s/{id}/load", post(load))
        .route("/api/s/{id}/record", get(record))
        .fallback(|| async { ServeError::BadRequest("no such page or API call".into()) })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

fn page(body: &'static str, kind: &'static str) -> Response {
    let mut r = body.into_response();
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    r
}

/// The page, its game list the registry's (the server's game selected first).
async fn index(State(s): Shared) -> Response {
    let mut r = s.index_html().into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    r
}

/// `/games/NAME.js`: the page script of game NAME.
async fn game_script(State(s): Shared, Path(file): Path<String>) -> Response {
    match file
        .strip_suffix(".js")
        .and_then(|name| s.page_script(name))
        .filter(|script| !script.is_empty())
    {
        Some(script) => page(script, "text/javascript"),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// JSON input whose every rejection (syntax, unknown key, wrong type, too large) is a
/// [`ServeError`] with the reason, in the same `{"error": ...}` shape as every refusal.
struct Input<T>(T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for Input<T> {
    type Rejection = Response;
    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Input(v)),
            Err(e) => {
                let status = e.status();
                let message = match &e {
                    JsonRejection::BytesRejection(_) => {
                        format!("the request body is too large (at most {MAX_BODY} bytes)")
                    }
                    _ => e.body_text(),
                };
                Err((status, Json(json!({ "error": message }))).into_response())
            }
        }
    }
}

fn session_of(st: &AppState, id: &str) -> Result<Arc<Mutex<Entry>>, ServeError> {
    let map = st.sessions.lock().unwrap_or_else(|e| e.into_inner());
    map.get(id)
        .cloned()
        .ok_or_else(|| ServeError::NoSession(id.chars().take(40).collect()))
}

/// Changes a session's board (on error, leaves it as `change` left it), stops its analysis
/// (the position it searched is gone), and answers the new state.
fn change_board(
    st: &AppState,
    id: &str,
    change: impl FnOnce(&mut Box<dyn Board>) -> Result<(), ServeError>,
) -> Answer {
    let s = session_of(st, id)?;
    let mut s = lock(&s);
    change(&mut s.board)?;
    s.board.stop_search();
    Ok(Json(s.board.state()))
}

/// A session's board replaced by another (a new game, or a file of another game); the old
/// one's analysis stops.
fn replace_board(board: &mut Box<dyn Board>, new: Box<dyn Board>) {
    board.stop_search();
    *board = new;
}

fn lock(s: &Mutex<Entry>) -> std::sync::MutexGuard<'_, Entry> {
    let mut g = s.lock().unwrap_or_else(|e| e.into_inner());
    g.last_used = Instant::now();
    g
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewArgs {
    game: Option<String>,
    /// A number, or a size text such as `15x18`.
    board: Option<Value>,
    position: Option<Value>,
    human: Option<String>,
    agent: Option<String>,
}

fn parse_new(a: NewArgs) -> Result<NewGame, ServeError> {
    let position = match &a.position {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(v @ Value::Object(_)) => Some(v.to_string()),
        Some(_) => {
            return Err(ServeError::BadPosition(
                "`position` is position JSON (an object or its text)".into(),
            ));
        }
    };
    let board = match &a.board {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::String(s)) => Some(s.chars().take(40).collect()),
        Some(_) => {
            return Err(ServeError::BadPosition(
                "`board` is a size: a number, or WxH for splinter".into(),
            ));
        }
    };
    let human = match a.human.as_deref() {
        None | Some("black") => Player::First,
        Some("white") => Player::Second,
        Some(h) => {
            return Err(ServeError::BadRequest(format!(
                "`human` is black or white, not `{}`",
                h.chars().take(40).collect::<String>()
            )));
        }
    };
    Ok(NewGame {
        game: a.game,
        board,
        position: position.filter(|p| !p.trim().is_empty()),
        human,
        agent: a.agent,
    })
}

async fn open_session(State(st): Shared) -> Answer {
    let n = st.next();
    // Not a secret: ids only keep the tabs of one person apart.
    let id = format!("{:016x}", crumble_core::game::hash::mix64(n ^ 0x5e55_1011));
    let board = st.new_board(&NewGame {
        game: None,
        board: None,
        position: None,
        human: Player::First,
        agent: None,
    })?;
    let v = board.state();
    let mut map = st.sessions.lock().unwrap_or_else(|e| e.into_inner());
    if map.len() >= MAX_SESSIONS {
        let oldest = map
            .iter()
            .min_by_key(|(_, s)| lock(s).last_used)
            .map(|(k, _)| k.clone());
        if let Some(k) = oldest
            && let Some(s) = map.remove(&k)
        {
            lock(&s).board.stop_search();
        }
    }
    let entry = Entry {
        board,
        last_used: Instant::now(),
    };
    map.insert(id.clone(), Arc::new(Mutex::new(entry)));
    Ok(Json(json!({ "id": id, "state": v })))
}

async fn get_state(State(st): Shared, Path(id): Path<String>) -> Answer {
    let s = session_of(&st, &id)?;
    let s = lock(&s);
    Ok(Json(s.board.state()))
}

/// A new game, of the session's game or another.
async fn new_game(State(st): Shared, Path(id): Path<String>, Input(a): Input<NewArgs>) -> Answer {
    let mut g = parse_new(a)?;
    change_board(&st, &id, |board| {
        g.game.get_or_insert_with(|| board.game().to_string());
        replace_board(board, st.new_board(&g)?);
        Ok(())
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DecideArgs {
    d: u32,
}

async fn decide(State(st): Shared, Path(id): Path<String>, Input(a): Input<DecideArgs>) -> Answer {
    change_board(&st, &id, |board| board.decide(a.d))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveArgs {
    text: String,
}

async fn play_move(State(st): Shared, Path(id): Path<String>, Input(a): Input<MoveArgs>) -> Answer {
    if a.text.len() > 200 {
        return Err(ServeError::BadMove(
            "a move is at most 200 characters".into(),
        ));
    }
    change_board(&st, &id, |board| board.play_text(&a.text))
}

async fn undo(State(st): Shared, Path(id): Path<String>) -> Answer {
    change_board(&st, &id, |board| board.undo())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GotoArgs {
    ply: usize,
}

async fn goto(State(st): Shared, Path(id): Path<String>, Input(a): Input<GotoArgs>) -> Answer {
    change_board(&st, &id, |board| board.goto(a.ply))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AgentArgs {
    agent: Option<String>,
}

/// The agent plays the turn of the position shown (a turn in progress is dropped). One move
/// at a time per session; the move is applied only if the game did not change meanwhile.
async fn agent_move(
    State(st): Shared,
    Path(id): Path<String>,
    Input(a): Input<AgentArgs>,
) -> Answer {
    let sess = session_of(&st, &id)?;
    let (job, version) = {
        let mut s = lock(&sess);
        if let Some(t) = a.agent.as_deref() {
            let spec = s.board.page_agent(t)?;
            s.board.set_agent(spec);
        }
        let seed = st.next();
        let job = s.board.agent_job(seed)?;
        s.board.set_thinking(true);
        job
    };
    let result = tokio::task::spawn_blocking(job)
        .await
        .map_err(|e| ServeError::Internal(format!("the agent's thread: {e}")));
    let mut s = lock(&sess);
    s.board.set_thinking(false);
    let (path, value) = result??;
    s.board.play_agent(version, path, value)?;
    s.board.stop_search();
    Ok(Json(s.board.state()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchArgs {
    sims: Option<u32>,
}

/// The analysis search of the position shown, as server-sent events (`update`, then one
/// `done`, or `error`). Starting one stops the session's previous one.
async fn search(
    State(st): Shared,
    Path(id): Path<String>,
    Query(q): Query<SearchArgs>,
) -> Result<Response, ServeError> {
    let sims = q.sims.unwrap_or(2_000);
    if sims == 0 || sims > MAX_ANALYSIS_SIMULATIONS {
        return Err(ServeError::BadRequest(format!(
            "sims {sims}: an analysis runs 1 to {MAX_ANALYSIS_SIMULATIONS} simulations"
        )));
    }
    let sess = session_of(&st, &id)?;
    let job = lock(&sess).board.analysis_job(sims)?;
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(4);
    tokio::task::spawn_blocking(move || {
        let send = |name: &str, v: &Value| {
            let ev = Event::default().event(name).data(v.to_string());
            tx.blocking_send(ev).is_ok()
        };
        let result = job(&mut |v| {
            let name = if v["done"] == json!(true) {
                "done"
            } else {
                "update"
            };
            send(name, &v)
        });
        if let Err(e) = result {
            send("error", &json!({ "error": e.to_string() }));
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|ev| (Ok::<_, Infallible>(ev), rx))
    });
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

async fn stop(State(st): Shared, Path(id): Path<String>) -> Answer {
    let s = session_of(&st, &id)?;
    let running = lock(&s).board.stop_search();
    Ok(Json(json!({ "stopped": running })))
}

/// The evaluator's value (Black's view) of every turn start of the line and of its end.
async fn values(State(st): Shared, Path(id): Path<String>) -> Answer {
    let s = session_of(&st, &id)?;
    let job = lock(&s).board.values_job();
    let out = tokio::task::spawn_blocking(job)
        .await
        .map_err(|e| ServeError::Internal(format!("the values' thread: {e}")))??;
    Ok(Json(json!({ "values": out })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoadArgs {
    index: Option<usize>,
}

async fn load(
    State(st): Shared,
    Path(id): Path<String>,
    Query(q): Query<LoadArgs>,
    body: Bytes,
) -> Answer {
    let index = q.index.unwrap_or(0);
    change_board(&st, &id, |board| {
        // A file of another game starts a session of that game, with its default agent.
        let game = super::game::file_game(&body);
        if game == board.game() {
            return board.load(&body, index);
        }
        let mut other = st.new_board(&NewGame {
            game: Some(game),
            board: None,
            position: None,
            human: Player::First,
            agent: None,
        })?;
        other.load(&body, index)?;
        replace_board(board, other);
        Ok(())
    })
}

async fn record(State(st): Shared, Path(id): Path<String>) -> Result<Response, ServeError> {
    let s = session_of(&st, &id)?;
    let (text, game) = {
        let s = lock(&s);
        (s.board.record()?, s.board.game())
    };
    let mut r = text.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r.headers_mut().insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"{game}-game.rec\""))
            .map_err(|e| ServeError::Internal(e.to_string()))?,
    );
    Ok(r)
}
