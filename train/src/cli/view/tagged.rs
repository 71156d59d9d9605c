//! `crumble view` for the games whose records name their game (`[Game "splinter"]`, as
//! `crumble play` and `crumble match --out` write them; every game but Crumble): a text
//! record or a `.crsp` file of the game, drawn by the game's own page
//! ([`record_page`](crumble_core::render::record_page) with the game's pictures). The players' names of a `.crsp` game
//! come from the `.txt` beside it when that holds the same games.

use super::{Args, crsp_values_by, refused_at};
use crate::cli::show::ViewArg;
use anyhow::{Context as _, bail};
use crumble_core::GameText;
use crumble_core::game::record::Record;
use crumble_core::render::{Pictures, record_page, record_values};
use crumble_selfplay::record as sp;
use crumble_selfplay::text_record::to_text_record;
use std::path::Path;
use std::process::ExitCode;

/// The games of a file whose records name their game.
pub enum TaggedGames {
    /// Text records, each with the 1-based line it starts on.
    Text(Vec<(usize, String)>),
    /// Self-play records, and the text beside them when it holds as many games.
    Crsp(Vec<sp::GameRecord>, Option<Vec<(usize, String)>>),
}

impl TaggedGames {
    pub fn len(&self) -> usize {
        match self {
            TaggedGames::Text(v) => v.len(),
            TaggedGames::Crsp(v, _) => v.len(),
        }
    }

    /// Game `i` as a record of `G`, with its chart values (Black's view per position).
    pub fn get<G: GameText>(
        &self,
        i: usize,
        path: &Path,
    ) -> anyhow::Result<(Record<G>, Vec<Option<f32>>)> {
        match self {
            TaggedGames::Text(chunks) => {
                let (first_line, text) = &chunks[i];
                let rec = Record::<G>::parse(text)
                    .map_err(|e| refused_at(path, *first_line, e.line, e.kind))?;
                let values = record_values(&rec)?;
                Ok((rec, values))
            }
            TaggedGames::Crsp(games, beside) => {
                let g = &games[i];
                let agents = g.agents.as_ref().map(|[a, b]| [a.as_str(), b.as_str()]);
                let mut rec = to_text_record::<G>(g, agents)
                    .with_context(|| format!("{} game {i}", path.display()))?;
                // Files before format version 4 hold no names: the text beside them may.
                if agents.is_none() {
                    let text = beside
                        .as_ref()
                        .and_then(|t| Record::<G>::parse(&t[i].1).ok())
                        .filter(|t| t.moves == rec.moves);
                    for name in ["Black", "White"] {
                        if let Some(v) = text.as_ref().and_then(|t| t.tag(name)) {
                            rec.set_tag(name, v);
                        }
                    }
                }
                if let Some(p) = g.would_resign {
                    rec.set_tag("WouldResign", rec.start.colour_of(p).name());
                }
                // The searching seat plays the colour it has now (a Crumo swap changes it).
                let values =
                    crsp_values_by::<G>(g, |game| game.decider().map(|p| game.colour_of(p)))
                        .with_context(|| format!("{} game {i}", path.display()))?;
                Ok((rec, values))
            }
        }
    }
}

/// `view` of a file of `G`'s games (the flags were checked by the caller but for Crumble's
/// own).
pub fn run<G: Pictures>(a: &Args, games: &TaggedGames) -> anyhow::Result<ExitCode> {
    if a.frame.is_some() {
        bail!("--frame is a Crumble flag: {} has one notation", G::NAME);
    }
    if a.view == ViewArg::White {
        bail!(
            "--view white is a Crumble flag: {}'s pictures have rank 1 at the bottom",
            G::NAME
        );
    }
    let n = games.len();
    if a.list {
        super::super::print(&list::<G>(games, &a.record)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let index = super::pick_index(a, n)?;
    let (rec, values) = games.get::<G>(index, &a.record)?;
    let page = record_page(&rec, &values, Some(&super::source(a, index, n)))
        .with_context(|| format!("{} game index {index}", a.record.display()))?;
    super::write_page(a, games, &page, rec.moves.len())
}

/// `view --list`: a line a game (index, number in its run, moves, result, players).
pub fn list<G: GameText>(games: &TaggedGames, path: &Path) -> anyhow::Result<String> {
    let mut out = String::from("index\tgame\tmoves\tresult\tblack\twhite\n");
    for i in 0..games.len() {
        let (r, _) = games.get::<G>(i, path)?;
        let last = r.final_position()?;
        let result = match (r.result_token(&last), r.termination(&last)) {
            (token, Some(t)) => format!("{token} {t}"),
            (token, None) => token.to_string(),
        };
        out += &format!(
            "{i}\t{}\t{}\t{result}\t{}\t{}\n",
            r.tag("Index").unwrap_or("-"),
            r.moves.len(),
            r.tag("Black").unwrap_or("-"),
            r.tag("White").unwrap_or("-"),
        );
    }
    Ok(out)
}
