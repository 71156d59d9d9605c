//! `crumble serve`: a board in the browser to play and analyse any game of the registry with
//! an agent.
//!
//! A small HTTP server (axum) hands out one page (its HTML, script and styles compiled into
//! the program: `assets.rs`) and a JSON API under `/api/`. Each browser tab opens a session
//! (`POST /api/session`) and then works on its own game at `/api/s/ID/...`. The sessions,
//! the engine and the routes are written once against [`ServeGame`]; a session of any game
//! is a `board::Board`, so a new game or a loaded file may change the session's game.
//!
//! | request | what it does |
//! | --- | --- |
//! | `GET state` | the position shown, its legal decisions and where each is drawn, the moves, the evaluator's prior and value |
//! | `POST new` `{game, board, position, human, agent}` | a new game (`board`: the game's size, `6`, `15x18`, `5`; `position`: the game's position JSON) |
//! | `POST decide` `{d}` | one decision of the turn (a click) |
//! | `POST move` `{text}` | a move in notation |
//! | `POST undo`, `POST goto` `{ply}` | take back; show another position of the line |
//! | `POST agent` | the agent plays the turn |
//! | `GET search?sims=N` | the analysis search, as server-sent events; `POST stop` ends it |
//! | `GET values` | the evaluator's value of every position of the line (Black's view) |
//! | (in `state`) `book` | with `--book`: the book's values and moves for the position shown, at a turn's start |
//! | `POST load?index=K` (body: a `.rec` text or a `.crsp` file) | load a game; `GET record` saves it |
//!
//! Safety: the server binds to loopback unless told otherwise, bodies are capped at
//! [`MAX_BODY`], simulations at the engine's limits, sessions at [`MAX_SESSIONS`] (the
//! least recently used goes), one analysis runs per session, and it reads no file the page
//! names: agents from the page cannot load networks, records come in the request body.

mod assets;
mod board;
mod crumble;
mod crumo;
mod engine;
mod game;
mod nim;
mod routes;
mod session;
mod splinter;
mod tictactoe;

/// The games the board plays, by name: every game of the registry.
pub use crate::games::GAMES;
pub use engine::{Engine, MAX_AGENT_SIMULATIONS, MAX_ANALYSIS_SIMULATIONS};
pub use game::ServeGame;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use board::{Board, Live};
use crumble_core::Player;
use crumble_selfplay::SearchConfig;
use crumble_selfplay::book::Book;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

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
    #[error("bad book: {0}")]
    BadBook(String),
    #[error("unknown game `{0}`: the board plays {games}", games = GAMES.join(", "))]
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

/// A game's engine, whatever the game: what the server asks of it by the game's name.
trait GameEngine: Send + Sync + std::fmt::Debug {
    /// Builds the default agent and evaluates the standard start ([`Engine::check_default`]).
    fn check_default(&self) -> Result<(), ServeError>;
    /// A new session's board, as the page asked.
    fn new_board(self: Arc<Self>, g: &NewGame) -> Result<Box<dyn Board>, ServeError>;
    /// The game's page script ([`ServeGame::PAGE_SCRIPT`]).
    fn page_script(&self) -> &'static str;
}

impl<G: ServeGame> GameEngine for Engine<G> {
    fn check_default(&self) -> Result<(), ServeError> {
        Engine::check_default(self)
    }

    fn new_board(self: Arc<Self>, g: &NewGame) -> Result<Box<dyn Board>, ServeError> {
        let start = G::start(g.board.as_deref(), g.position.as_deref())?;
        let agent = match g.agent.as_deref() {
            Some(t) => self.page_agent(t)?,
            None => self.default_agent.clone(),
        };
        Ok(Box::new(Live::new(start, g.human, agent, self)))
    }

    fn page_script(&self) -> &'static str {
        G::PAGE_SCRIPT
    }
}

/// What a new game starts from, as the page asked.
#[derive(Debug)]
pub struct NewGame {
    /// `None`: the server's game.
    pub game: Option<String>,
    /// The size text of the game's standard start (`6`, `15x18`, `5`).
    pub board: Option<String>,
    /// A start in the game's position JSON.
    pub position: Option<String>,
    pub human: Player,
    /// `None`: the game's default agent.
    pub agent: Option<String>,
}

/// One session and when it was last used (the least recently used goes first).
struct Entry {
    board: Box<dyn Board>,
    last_used: Instant,
}

/// Everything the handlers share.
pub struct AppState {
    /// Each game's engine, by name.
    engines: HashMap<&'static str, Arc<dyn GameEngine>>,
    /// The game of a new session.
    game: &'static str,
    /// The page, with the registry's games (this server's first).
    page: String,
    sessions: Mutex<HashMap<String, Arc<Mutex<Entry>>>>,
    /// Seeds session ids and agents' random streams.
    counter: Mutex<u64>,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("game", &self.game)
            .field("engines", &self.engines)
            .finish_non_exhaustive()
    }
}

impl AppState {
    /// The server of `game` (one of [`GAMES`]) whose default opponent is `agent` (`None`: the
    /// game's own default); the other games get their own defaults. Every game's agents and
    /// analysis use `config`. `books` are opening book files, at most one a game, each shown
    /// beside its game's analysis.
    pub fn new(
        game: &str,
        config: SearchConfig,
        agent: Option<&str>,
        books: &[PathBuf],
    ) -> Result<AppState, ServeError> {
        let game = GAMES
            .iter()
            .copied()
            .find(|g| *g == game)
            .ok_or_else(|| ServeError::UnknownGame(game.chars().take(40).collect()))?;
        let books = book_games(books)?;
        let mut engines = HashMap::new();
        let mut listed = Vec::new();
        for &name in GAMES {
            let agent = agent.filter(|_| name == game);
            let book = books.iter().find(|b| b.0 == name).map(|b| b.1.as_path());
            let (engine, title): (Arc<dyn GameEngine>, _) = crate::for_game!(name, G => {
                let mut engine = Engine::<G>::for_game(config.clone(), agent)?;
                engine.book = book.map(load_book::<G>).transpose()?;
                (Arc::new(engine), <G as crumble_core::GameText>::TITLE)
            });
            listed.push((name, title, !engine.page_script().is_empty()));
            engines.insert(name, engine);
        }
        listed.sort_by_key(|g| g.0 != game);
        Ok(AppState {
            engines,
            game,
            page: assets::index(&listed),
            sessions: Mutex::new(HashMap::new()),
            counter: Mutex::new(0),
        })
    }

    /// Builds the server game's default agent and evaluates its standard start, so that a
    /// bad `--agent` or a damaged network is refused at start.
    pub fn check(&self) -> Result<(), ServeError> {
        self.engine(self.game)?.check_default()
    }

    /// The engine of game `name`.
    fn engine(&self, name: &str) -> Result<&Arc<dyn GameEngine>, ServeError> {
        self.engines
            .get(name)
            .ok_or_else(|| ServeError::UnknownGame(name.chars().take(40).collect()))
    }

    /// A new session's game.
    fn new_board(&self, g: &NewGame) -> Result<Box<dyn Board>, ServeError> {
        Arc::clone(self.engine(g.game.as_deref().unwrap_or(self.game))?).new_board(g)
    }

    /// The page.
    fn index_html(&self) -> String {
        self.page.clone()
    }

    /// The page script of game `name` (empty for a game the page draws by default).
    fn page_script(&self, name: &str) -> Option<&'static str> {
        self.engines.get(name).map(|e| e.page_script())
    }

    fn next(&self) -> u64 {
        let mut c = self.counter.lock().unwrap_or_else(|e| e.into_inner());
        *c += 1;
        *c
    }
}

/// Each book file with its game's name, refusing a game outside the registry or a second
/// book of one game.
fn book_games(books: &[PathBuf]) -> Result<Vec<(String, PathBuf)>, ServeError> {
    let mut out: Vec<(String, PathBuf)> = Vec::new();
    for path in books {
        let bad = |m: String| ServeError::BadBook(format!("{}: {m}", path.display()));
        let bytes = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
        let game =
            crumble_selfplay::book::file::peek_game(&bytes).map_err(|e| bad(e.to_string()))?;
        if !GAMES.contains(&game.as_str()) {
            return Err(bad(format!(
                "a book of {game}, which the board does not play ({})",
                GAMES.join(", ")
            )));
        }
        if let Some((_, first)) = out.iter().find(|b| b.0 == game) {
            return Err(bad(format!(
                "a second {game} book (the first is {}): one book a game",
                first.display()
            )));
        }
        out.push((game, path.clone()));
    }
    Ok(out)
}

/// The book of `G` in `path`.
fn load_book<G: ServeGame>(path: &std::path::Path) -> Result<Book<G>, ServeError> {
    crumble_selfplay::book::file::load::<G>(path)
        .map_err(|e| ServeError::BadBook(format!("{}: {e}", path.display())))
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
