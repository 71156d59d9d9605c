//! Keys of earlier config layouts that still read: every run directory keeps the full
//! config it started with, so a layout change must not strand old runs.

/// Moves `[selfplay] board` and `resolution`, where configs kept Crumble's board before
/// `[game.start]`, into `[game.start]` of a Crumble config. Refused, with the key, the value
/// and why: the keys in a config of another game, or beside a `[game.start]`.
pub(super) fn move_crumble_board(table: &mut toml::Table) -> Result<(), (String, String, String)> {
    let Some(toml::Value::Table(selfplay)) = table.get_mut("selfplay") else {
        return Ok(());
    };
    let old: Vec<(String, toml::Value)> = ["board", "resolution"]
        .into_iter()
        .filter_map(|k| selfplay.remove(k).map(|v| (k.to_string(), v)))
        .collect();
    let Some((first, value)) = old.first().cloned() else {
        return Ok(());
    };
    let refused = |why: &str| Err((format!("selfplay.{first}"), value.to_string(), why.into()));
    let game = table
        .get("game")
        .and_then(|g| g.get("name"))
        .and_then(|n| n.as_str());
    let crumble = <crumble_core::games::crumble::Crumble as crumble_core::GameState>::NAME;
    if game.is_some_and(|g| g != crumble) {
        return refused("Crumble's board, in a config of another game: its start is [game.start]");
    }
    let game = table
        .entry("game")
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    let Some(game) = game.as_table_mut() else {
        return Ok(()); // a malformed [game], which deserialising refuses
    };
    if game.contains_key("start") {
        return refused(
            "Crumble's board is [game.start] board and resolution; give them there only",
        );
    }
    let defaults = crumble_core::games::crumble::CrumbleStart::default();
    let mut start = toml::Table::new();
    start.insert("board".into(), i64::from(defaults.board).into());
    start.insert("resolution".into(), i64::from(defaults.resolution).into());
    start.extend(old);
    game.insert("start".into(), toml::Value::Table(start));
    Ok(())
}
