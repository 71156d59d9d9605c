//! The page, compiled into the program: nothing is loaded from the network or the disk.
//! `app.js` is the game-independent page (controls, analysis, value graph, records);
//! each game registers its drawing and clicking hooks from a file of its own.

pub const INDEX: &str = include_str!("assets/index.html");
pub const APP_JS: &str = include_str!("assets/app.js");
pub const CRUMBLE_JS: &str = include_str!("assets/crumble.js");
pub const SPLINTER_JS: &str = include_str!("assets/splinter.js");
pub const CRUMO_JS: &str = include_str!("assets/crumo.js");
pub const STYLE: &str = include_str!("assets/style.css");
