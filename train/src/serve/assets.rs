//! The page, compiled into the program: nothing is loaded from the network or the disk.
//! `app.js` is the game-independent page (controls, analysis, value graph, records);
//! a game with a script of its own (its serve file's `PAGE_SCRIPT`) registers its drawing
//! and clicking hooks from it, and the page draws the others by default.

pub const INDEX: &str = include_str!("assets/index.html");
pub const APP_JS: &str = include_str!("assets/app.js");
pub const STYLE: &str = include_str!("assets/style.css");

/// The page with the registry's games in its game list and their scripts: `games` are
/// (name, title, has a script of its own), the server's game first.
pub fn index(games: &[(&str, &str, bool)]) -> String {
    let options: String = games
        .iter()
        .map(|(name, title, _)| format!(r#"<option value="{name}">{title}</option>"#))
        .collect();
    let scripts: String = games
        .iter()
        .filter(|g| g.2)
        .map(|(name, _, _)| format!("<script src=\"/games/{name}.js\"></script>\n"))
        .collect();
    INDEX
        .replace("<!--GAMES-->", &options)
        .replace("<!--SCRIPTS-->\n", &scripts)
}
