//! `crumble view` for Splinter games: a Splinter text record (`[Crumble "splinter"]`, as
//! `crumble play` and `crumble match --out` write them) or a `.crsp` file of Splinter games,
//! as a page of Splinter pictures (`crumble_core::games::splinter::render::html`). The players'
//! names of a `.crsp` game come from the `.txt` beside it when that holds the same games.

use super::super::output::write_output;
use super::{Args, crsp_values};
use crate::cli::show::ViewArg;
use anyhow::{Context as _, bail};
use crumble_core::games::splinter::Splinter;
use crumble_core::games::splinter::record::{self, SplinterRecord, result_token};
use crumble_core::games::splinter::render::html;
use crumble_core::render::values_from_moves_comments;
use crumble_selfplay::record as sp;
use std::path::Path;
use std::process::ExitCode;

/// The Splinter games of a file.
pub enum SplinterGames {
    /// Text records, each with the 1-based line it starts on.
    Text(Vec<(usize, String)>),
    /// Self-play records, and the text beside them when it holds as many games.
    Crsp(Vec<sp::GameRecord>, Option<Vec<(usize, String)>>),
}

impl SplinterGames {
    pub fn len(&self) -> usize {
        match self {
            SplinterGames::Text(v) => v.len(),
            SplinterGames::Crsp(v, _) => v.len(),
        }
    }

    /// Game `i` as a record, with its chart values (Black's view per position).
    fn get(&self, i: usize, path: &Path) -> anyhow::Result<(SplinterRecord, Vec<Option<f32>>)> {
        match self {
            SplinterGames::Text(chunks) => {
                let (first_line, text) = &chunks[i];
                let rec = record::parse(text).map_err(|e| {
                    anyhow::anyhow!(
                        "{} line {}: {}",
                        path.display(),
                        e.line + first_line - 1,
                        e.kind
                    )
                })?;
                let values = values_from_moves_comments(
                    rec.start.to_move(),
                    (0..rec.moves.len()).map(|k| rec.comment(k)),
                );
                Ok((rec, values))
            }
            SplinterGames::Crsp(games, beside) => {
                let g = &games[i];
                let mut rec = crumble_selfplay::games::splinter::to_record(g, None)
                    .with_context(|| format!("{} game {i}", path.display()))?;
                let text = beside
                    .as_ref()
                    .and_then(|t| record::parse(&t[i].1).ok())
                    .filter(|t| t.moves == rec.moves);
                for name in ["Black", "White"] {
                    if let Some(v) = text.as_ref().and_then(|t| t.tag(name)) {
                        rec.set_tag(name, v);
                    }
                }
                let values = crsp_values::<Splinter>(g)
                    .with_context(|| format!("{} game {i}", path.display()))?;
                Ok((rec, values))
            }
        }
    }
}

/// `view` of a file of Splinter games (the flags were checked by the caller but for
/// Crumble's own).
pub fn run(a: &Args, games: &SplinterGames) -> anyhow::Result<ExitCode> {
    if a.frame.is_some() {
        bail!("--frame is a Crumble flag: Splinter has one notation (rule 9)");
    }
    if a.view == ViewArg::White {
        bail!(
            "--view white is a Crumble flag: Splinter's pictures have rank 1 at the bottom (rule 2.2)"
        );
    }
    let n = games.len();
    if a.list {
        let mut out = String::from("index\tgame\tmoves\tresult\tblack\twhite\n");
        for i in 0..n {
            let (r, _) = games.get(i, &a.record)?;
            let result = match r.result {
                Some(o) => format!("{} {}", result_token(Some(o)), o.reason.name()),
                None => "*".into(),
            };
            out += &format!(
                "{i}\t{}\t{}\t{result}\t{}\t{}\n",
                r.tag("Index").unwrap_or("-"),
                r.moves.len(),
                r.tag("Black").unwrap_or("-"),
                r.tag("White").unwrap_or("-"),
            );
        }
        super::super::print(&out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let index = super::pick_index(a, n)?;
    let (rec, values) = games.get(index, &a.record)?;
    let name = a
        .record
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let source = if n > 1 {
        format!("{name}, game index {index} of {n}")
    } else {
        name
    };
    let page = html::render_game(&rec, &values, Some(&source))
        .with_context(|| format!("{} game index {index}", a.record.display()))?;
    let out = a.out.as_ref().expect("clap requires --out without --list");
    let beside = a.record.with_extension("txt");
    let inputs: Vec<&Path> = match games {
        SplinterGames::Crsp(..) => vec![&a.record, &beside],
        SplinterGames::Text(_) => vec![&a.record],
    };
    write_output("-o", out, &inputs, a.force, page.as_bytes())?;
    eprintln!(
        "wrote {} ({} moves, {} KB)",
        out.display(),
        rec.moves.len(),
        page.len().div_ceil(1024)
    );
    Ok(ExitCode::SUCCESS)
}
