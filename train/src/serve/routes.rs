//! The HTTP handlers: each reads its input strictly (unknown JSON keys are refused), works on
//! one session under its lock, and answers with the session's state or a [`ServeError`].
//! Agent moves and analysis searches run on blocking threads; the lock is not held while
//! they think.

use super::engine::MAX_ANALYSIS_SIMULATIONS;
use super::session::{self, NewGame, Session};
use super::view::state_json;
use super::{AppState, MAX_BODY, MAX_SESSIONS, ServeError, assets};
use axum::body::Bytes;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{HeaderValue, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use crumble_core::{Color, GameState};
use serde::Deserialize;
use serde_json::{Value, json};
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

type Shared = State<Arc<AppState>>;
type Answer = Result<Json<Value>, ServeError>;

pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(assets::INDEX, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(assets::APP_JS, "text/javascript") }),
        )
        .route(
            "/crumble.js",
            get(|| async { page(assets::CRUMBLE_JS, "text/javascript") }),
        )
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

fn session_of(st: &AppState, id: &str) -> Result<Arc<Mutex<Session>>, ServeError> {
    let map = st.sessions.lock().unwrap_or_else(|e| e.into_inner());
    map.get(id)
        .cloned()
        .ok_or_else(|| ServeError::NoSession(id.chars().take(40).collect()))
}

fn lock(s: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    let mut g = s.lock().unwrap_or_else(|e| e.into_inner());
    g.last_used = Instant::now();
    g
}

/// The state of `s` with the network's prior and value for the position shown.
fn full_state(st: &AppState, s: &Session) -> Value {
    let mut v = state_json(s);
    let mut game = s.current();
    if game.is_over() {
        return v;
    }
    let legal = game.legal_decisions();
    match st.engine.evaluate(&game, &legal) {
        Ok(e) => {
            let black = if game.to_move() == Color::Black {
                e.value
            } else {
                -e.value
            };
            v["eval"] = json!({ "value": e.value, "black": black, "priors": e.priors });
        }
        Err(e) => v["eval_error"] = json!(e.to_string()),
    }
    v
}

/// Stops the session's running analysis, if any.
fn stop_search(s: &mut Session) {
    if let Some(flag) = s.search.take() {
        flag.store(true, Ordering::Relaxed);
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewArgs {
    game: Option<String>,
    board: Option<u32>,
    position: Option<Value>,
    human: Option<String>,
    agent: Option<String>,
}

fn parse_new(st: &AppState, a: NewArgs, old_agent: Option<&str>) -> Result<NewGame, ServeError> {
    if let Some(g) = a.game.as_deref()
        && g != "crumble"
    {
        return Err(ServeError::UnknownGame(g.chars().take(40).collect()));
    }
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
    let start = session::start_from(a.board, position.as_deref())?;
    let human = match a.human.as_deref() {
        None => Color::Black,
        Some(h) => Color::from_name(h).ok_or_else(|| {
            ServeError::BadRequest(format!("`human` is black or white, not `{h}`"))
        })?,
    };
    let agent = match a.agent.as_deref().or(old_agent) {
        Some(t) => st.engine.page_agent(t)?,
        None => st.engine.default_agent.clone(),
    };
    Ok(NewGame {
        start,
        human,
        agent,
    })
}

async fn open_session(State(st): Shared) -> Answer {
    let n = st.next();
    // Not a secret: ids only keep the tabs of one person apart.
    let id = format!("{:016x}", crumble_core::hash::mix64(n ^ 0x5e55_1011));
    let start = session::start_from(None, None)?;
    let s = Session::new(start, Color::Black, st.engine.default_agent.clone());
    let v = full_state(&st, &s);
    let mut map = st.sessions.lock().unwrap_or_else(|e| e.into_inner());
    if map.len() >= MAX_SESSIONS {
        let oldest = map
            .iter()
            .min_by_key(|(_, s)| lock(s).last_used)
            .map(|(k, _)| k.clone());
        if let Some(k) = oldest
            && let Some(s) = map.remove(&k)
        {
            stop_search(&mut lock(&s));
        }
    }
    map.insert(id.clone(), Arc::new(Mutex::new(s)));
    Ok(Json(json!({ "id": id, "state": v })))
}

async fn get_state(State(st): Shared, Path(id): Path<String>) -> Answer {
    let s = session_of(&st, &id)?;
    let s = lock(&s);
    Ok(Json(full_state(&st, &s)))
}

async fn new_game(State(st): Shared, Path(id): Path<String>, Input(a): Input<NewArgs>) -> Answer {
    let s = session_of(&st, &id)?;
    let mut s = lock(&s);
    let g = parse_new(&st, a, None)?;
    stop_search(&mut s);
    s.reset(g);
    Ok(Json(full_state(&st, &s)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DecideArgs {
    d: u32,
}

async fn decide(State(st): Shared, Path(id): Path<String>, Input(a): Input<DecideArgs>) -> Answer {
    let s = session_of(&st, &id)?;
    let mut s = lock(&s);
    s.decide(a.d)?;
    stop_search(&mut s);
    Ok(Json(full_state(&st, &s)))
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
    let s = session_of(&st, &id)?;
    let mut s = lock(&s);
    s.play_text(&a.text)?;
    stop_search(&mut s);
    Ok(Json(full_state(&st, &s)))
}

async fn undo(State(st): Shared, Path(id): Path<String>) -> Answer {
    let s = session_of(&st, &id)?;
    let mut s = lock(&s);
    s.undo()?;
    stop_search(&mut s);
    Ok(Json(full_state(&st, &s)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GotoArgs {
    ply: usize,
}

async fn goto(State(st): Shared, Path(id): Path<String>, Input(a): Input<GotoArgs>) -> Answer {
    let s = session_of(&st, &id)?;
    let mut s = lock(&s);
    s.goto(a.ply)?;
    stop_search(&mut s);
    Ok(Json(full_state(&st, &s)))
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
    let (spec, game, version, seed) = {
        let mut s = lock(&sess);
        if s.thinking {
            return Err(ServeError::Conflict("the agent is already thinking".into()));
        }
        if let Some(t) = a.agent.as_deref() {
            s.agent = st.engine.page_agent(t)?;
        }
        if !s.partial.is_empty() {
            s.partial.clear();
            s.version += 1;
        }
        let game = s.position();
        if game.is_over() {
            return Err(ServeError::BadMove("the game is over".into()));
        }
        s.thinking = true;
        (s.agent.clone(), game, s.version, st.next())
    };
    let st2 = Arc::clone(&st);
    let result = tokio::task::spawn_blocking(move || st2.engine.agent_turn(&spec, &game, seed))
        .await
        .map_err(|e| ServeError::Internal(format!("the agent's thread: {e}")));
    let mut s = lock(&sess);
    s.thinking = false;
    let (path, value) = result??;
    s.play_agent(version, &path, value)?;
    stop_search(&mut s);
    Ok(Json(full_state(&st, &s)))
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
    let (start, partial, flag) = {
        let mut s = lock(&sess);
        stop_search(&mut s);
        if s.current().is_over() {
            return Err(ServeError::BadRequest(
                "the game is over: nothing to analyse".into(),
            ));
        }
        let flag = Arc::new(AtomicBool::new(false));
        s.search = Some(Arc::clone(&flag));
        (s.position(), s.partial.clone(), flag)
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(4);
    let st2 = Arc::clone(&st);
    tokio::task::spawn_blocking(move || {
        let send = |name: &str, v: &Value| {
            let ev = Event::default().event(name).data(v.to_string());
            tx.blocking_send(ev).is_ok()
        };
        let result = st2.engine.analyse(&start, &partial, sims, &flag, |v| {
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
    let mut s = lock(&s);
    let running = s.search.is_some();
    stop_search(&mut s);
    Ok(Json(json!({ "stopped": running })))
}

/// The network's value (Black's view) of every turn start of the line and of its end.
async fn values(State(st): Shared, Path(id): Path<String>) -> Answer {
    let s = session_of(&st, &id)?;
    let (start, moves) = {
        let s = lock(&s);
        (s.start.clone(), s.moves.clone())
    };
    let st2 = Arc::clone(&st);
    let out = tokio::task::spawn_blocking(move || -> Result<Vec<Value>, ServeError> {
        let mut g = start;
        let mut items = Vec::new();
        let mut finals = vec![None; moves.len() + 1];
        for (i, fin) in finals.iter_mut().enumerate() {
            if let Some(r) = g.game_result() {
                *fin = Some(r.value_for(crumble_core::Player::First));
            } else {
                let legal = g.legal_decisions();
                items.push((i, g.clone(), legal));
            }
            if let Some(p) = moves.get(i)
                && g.play_move(&p.mv).is_err()
            {
                break;
            }
        }
        let batch: Vec<_> = items
            .iter()
            .map(|(_, g, l)| (g.clone(), l.clone()))
            .collect();
        let evals = st2.engine.evaluate_many(&batch)?;
        let mut out: Vec<Value> = finals.iter().map(|v| json!(v)).collect();
        for ((i, g, _), e) in items.iter().zip(evals) {
            let black = if g.to_move() == Color::Black {
                e.value
            } else {
                -e.value
            };
            out[*i] = json!(black);
        }
        Ok(out)
    })
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
    let sess = session_of(&st, &id)?;
    let rec = session::parse_record(&body, q.index.unwrap_or(0))?;
    let mut s = lock(&sess);
    s.load(&rec)?;
    stop_search(&mut s);
    Ok(Json(full_state(&st, &s)))
}

async fn record(State(st): Shared, Path(id): Path<String>) -> Result<Response, ServeError> {
    let s = session_of(&st, &id)?;
    let text = lock(&s).record().write();
    let mut r = text.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r.headers_mut().insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"crumble-game.rec\""),
    );
    Ok(r)
}
