//! `crumble view --record FILE [--game INDEX] [--list] [--view black|white] [--frame F]
//! -o game.html`: one game as a self-contained HTML page (`crumble_core::games::crumble::render::html`).
//!
//! The file is a text game record (`crumble_core::games::crumble::record`; a file of several records, like
//! the `.txt` beside a self-play file, is split at each record's tags) or a binary self-play
//! record file (`.crsp`, recognised by its magic bytes, not its name). `--game` picks a game
//! of a file holding several by its 0-based position in the file (`--list` shows them); the
//! players' names of a `.crsp` game come from the `.txt` beside it when that holds the same
//! games (match files have them). The value chart shows the search value at the start of
//! every turn of a `.crsp` game, or the `value` comments `crumble play` writes after the
//! agent's moves.
//!
//! Every other game's games (a text record with `[Game "splinter"]`, or a `.crsp` file of the
//! game) are drawn by the generic page with the game's pictures through [`tagged`].

use super::output::{check_output, write_output};
use super::position_args::FrameArg;
use super::show::ViewArg;
use anyhow::{Context as _, bail};
use crumble_core::games::crumble::Crumble;
use crumble_core::games::crumble::record;
use crumble_core::games::crumble::render::html::{self, HtmlOptions};
use crumble_core::{Color, GameState};
use crumble_selfplay::record as sp;
use crumble_train::for_game;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tagged::TaggedGames;

mod tagged;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A game record (text) or a self-play record file (.crsp).
    #[arg(long, value_name = "FILE")]
    record: PathBuf,
    /// The game to show when the file holds several: its 0-based position in the file.
    #[arg(long, value_name = "INDEX")]
    game: Option<usize>,
    /// List the games in the file (index, game number, moves, result) instead.
    #[arg(long, conflicts_with_all = ["out", "game"])]
    list: bool,
    /// The HTML file to write.
    #[arg(
        short = 'o',
        long = "out",
        value_name = "FILE",
        required_unless_present = "list"
    )]
    out: Option<PathBuf>,
    /// Whose side of the board is at the bottom.
    #[arg(long, value_enum, default_value_t = ViewArg::Black)]
    view: ViewArg,
    /// Notation frame of the move list (default: the record's own; per-player for .crsp).
    #[arg(long, value_enum)]
    frame: Option<FrameArg>,
    /// Replace the output file if it exists (it is never the record itself).
    #[arg(long)]
    force: bool,
}

/// One game of the file, ready to draw.
struct Loaded {
    rec: record::GameRecord,
    values: Vec<Option<f32>>,
}

/// The games of a file, parsed only when asked for (a self-play text file holds many).
enum Games {
    /// Another game's games (named): text records, or a `.crsp` file with the text beside it.
    Tagged(String, TaggedGames),
    Text(Vec<(usize, String)>),
    /// The games, and the `.txt` beside the file when it holds the same games as text
    /// records (self-play and match files): the players' names are only there.
    Crsp(Vec<sp::GameRecord>, Option<Vec<(usize, String)>>),
}

impl Games {
    fn len(&self) -> usize {
        match self {
            Games::Tagged(_, g) => g.len(),
            Games::Text(v) => v.len(),
            Games::Crsp(v, _) => v.len(),
        }
    }

    fn get(&self, i: usize, path: &Path) -> anyhow::Result<Loaded> {
        match self {
            Games::Tagged(..) => {
                unreachable!("the other games are drawn by view::tagged")
            }
            Games::Text(chunks) => {
                let (first_line, text) = &chunks[i];
                let rec = record::parse(text)
                    .map_err(|e| refused_at(path, *first_line, e.line, e.kind))?;
                let values = html::values_from_comments(&rec);
                Ok(Loaded { rec, values })
            }
            Games::Crsp(games, beside) => {
                let g = &games[i];
                let mut rec = crumble_selfplay::games::crumble::to_game_record(g)
                    .with_context(|| format!("{} game {i}", path.display()))?;
                if let Some([first, second]) = &g.agents {
                    // Crumble's first seat plays Black.
                    rec.set_tag("Black", first);
                    rec.set_tag("White", second);
                } else {
                    // Files before format version 4 hold no names: the text beside may.
                    let text = beside
                        .as_ref()
                        .and_then(|t| record::parse(&t[i].1).ok())
                        .filter(|t| t.moves == rec.moves);
                    for name in ["Black", "White"] {
                        if let Some(v) = text.as_ref().and_then(|t| t.tag(name)) {
                            rec.set_tag(name, v);
                        }
                    }
                }
                if g.max_turns > 0 {
                    rec.set_tag("Turn limit", &g.max_turns.to_string());
                }
                if let Some(c) = g.would_resign {
                    rec.set_tag("Would resign", Color::from(c).name());
                }
                let values = crsp_values::<Crumble>(g)
                    .with_context(|| format!("{} game {i}", path.display()))?;
                Ok(Loaded { rec, values })
            }
        }
    }
}

/// The game to show: `--game`, checked against the `n` games of the file, or the first.
fn pick_index(a: &Args, n: usize) -> anyhow::Result<usize> {
    Ok(match a.game {
        Some(i) if i >= n => bail!(
            "--game {i}: {} holds {n} game{} (index 0{})",
            a.record.display(),
            if n == 1 { "" } else { "s" },
            if n > 1 {
                format!(" to {}", n - 1)
            } else {
                String::new()
            }
        ),
        Some(i) => i,
        None => {
            if n > 1 {
                eprintln!(
                    "{} holds {n} games; showing index 0 (--game INDEX picks another, --list lists them)",
                    a.record.display()
                );
            }
            0
        }
    })
}

/// A record of a file of several refused: `line` (of the record starting at `first_line`)
/// as the file's line.
fn refused_at(
    path: &Path,
    first_line: usize,
    line: usize,
    what: impl std::fmt::Display,
) -> anyhow::Error {
    anyhow::anyhow!("{} line {}: {what}", path.display(), line + first_line - 1)
}

/// The search value at the start of every turn of a self-play game, Black's view, indexed by
/// the number of moves played before it (the positions of the game record).
fn crsp_values<G: GameState>(g: &sp::GameRecord) -> anyhow::Result<Vec<Option<f32>>> {
    crsp_values_by::<G>(g, |game| game.decider().map(Color::from))
}

/// [`crsp_values`] for a game whose seats do not always play the same colours (Crumo after a
/// swap): `mover` names the colour whose view the search value takes.
fn crsp_values_by<G: GameState>(
    g: &sp::GameRecord,
    mover: impl Fn(&G) -> Option<Color>,
) -> anyhow::Result<Vec<Option<f32>>> {
    let mut game: G = g.start_state()?;
    let mut values: Vec<Option<f32>> = vec![None];
    let mut moves = 0usize;
    for (i, s) in g.steps.iter().enumerate() {
        let decider = mover(&game);
        if let (Some(r), Some(c), None) = (&s.search, decider, values[moves]) {
            // The first search of the turn judges the position the turn starts from.
            values[moves] = Some(if c == Color::Black { r.value } else { -r.value });
        }
        let turn = game.turns_played();
        game.apply(s.decision)
            .map_err(|e| anyhow::anyhow!("decision {i} does not replay: {e}"))?;
        if game.turns_played() != turn || game.is_over() {
            moves += 1;
            values.push(None);
        }
    }
    Ok(values)
}

fn load(path: &Path) -> anyhow::Result<Games> {
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read record {}", path.display()))?;
    // Names are a nicety: a missing or different text file beside a .crsp file is not used.
    let beside = |n: usize| {
        std::fs::read_to_string(path.with_extension("txt"))
            .ok()
            .map(|t| record::split_records(&t))
            .filter(|t| t.len() == n)
    };
    if bytes.starts_with(&sp::MAGIC) {
        let game_name = sp::decode_file(&bytes)
            .ok()
            .and_then(|g| g.first().map(|g| g.game.clone()));
        let refused = || format!("self-play record file {} refused", path.display());
        if let Some(name) = game_name.filter(|n| other_game(n)) {
            let games = for_game!(name.as_str(), G => sp::decode_file_checked::<G>(&bytes))
                .with_context(refused)?;
            let text = beside(games.len());
            return Ok(Games::Tagged(name, TaggedGames::Crsp(games, text)));
        }
        let games = sp::decode_file_checked::<Crumble>(&bytes).with_context(refused)?;
        let text = beside(games.len());
        return Ok(Games::Crsp(games, text));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{} is neither a self-play record file (.crsp) nor a text game record (not UTF-8 at byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    let chunks = record::split_records(&text);
    // The generic records say their game in their `Game` tag (Crumble's records never do).
    let tagged = chunks.first().and_then(|(_, t)| {
        t.lines().find_map(|l| {
            let name = l.trim().strip_prefix("[Game \"")?.strip_suffix("\"]")?;
            other_game(name).then(|| name.to_string())
        })
    });
    Ok(match tagged {
        Some(name) => Games::Tagged(name, TaggedGames::Text(chunks)),
        None => Games::Text(chunks),
    })
}

/// A registered game other than Crumble: its records are the generic ones.
fn other_game(name: &str) -> bool {
    name != <Crumble as GameState>::NAME && crumble_train::games::GAMES.contains(&name)
}

fn list(games: &Games, path: &Path) -> anyhow::Result<String> {
    let mut out = String::from("index\tgame\tmoves\tresult\tblack\twhite\n");
    for i in 0..games.len() {
        let l = games.get(i, path)?;
        let r = &l.rec;
        let result = match r.result {
            Some(o) => format!("{} {}", record::result_token(Some(o)), o.reason.name()),
            None => "*".into(),
        };
        out += &format!(
            "{i}\t{}\t{}\t{result}\t{}\t{}\n",
            r.tag("Game").unwrap_or("-"),
            r.moves.len(),
            r.tag("Black").unwrap_or("-"),
            r.tag("White").unwrap_or("-"),
        );
    }
    Ok(out)
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let games = load(&a.record)?;
    // The text file beside a .crsp file is read too (for the players' names).
    let beside = a.record.with_extension("txt");
    let inputs: Vec<&Path> = match games {
        Games::Crsp(..) | Games::Tagged(_, TaggedGames::Crsp(..)) => vec![&a.record, &beside],
        Games::Text(_) | Games::Tagged(_, TaggedGames::Text(_)) => vec![&a.record],
    };
    if let Some(out) = &a.out {
        check_output("-o", out, &inputs, a.force)?;
    }
    let n = games.len();
    if n == 0 {
        bail!("{} holds no game", a.record.display());
    }
    if let Games::Tagged(name, g) = &games {
        return for_game!(name.as_str(), G => tagged::run::<G>(&a, g));
    }
    if a.list {
        super::print(&list(&games, &a.record)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let index = pick_index(&a, n)?;
    let mut loaded = games.get(index, &a.record)?;
    if let Some(f) = a.frame {
        loaded.rec.frame = f.into();
    }
    let name = a
        .record
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let opts = HtmlOptions {
        view: match a.view {
            ViewArg::Black => Color::Black,
            ViewArg::White => Color::White,
        },
        values: loaded.values,
        source: Some(if n > 1 {
            format!("{name}, game index {index} of {n}")
        } else {
            name
        }),
    };
    let page = html::render_game(&loaded.rec, &opts)
        .with_context(|| format!("{} game index {index}", a.record.display()))?;
    let out = a.out.expect("clap requires --out without --list");
    write_output("-o", &out, &inputs, a.force, page.as_bytes())?;
    eprintln!(
        "wrote {} ({} moves, {} KB)",
        out.display(),
        loaded.rec.moves.len(),
        page.len().div_ceil(1024)
    );
    Ok(ExitCode::SUCCESS)
}
