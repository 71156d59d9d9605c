//! `crumble play [--agent A] [--as black|white] [--hint-agent A] [-o FILE] [POSITION FLAGS]`:
//! a game against an agent in the terminal. The board is drawn after every move (from the
//! person's side in the per-player frame, from Black's in the absolute frame, so that the edge
//! coordinates are the ones the person writes); the person types moves in notation or the
//! commands `moves`, `hint`, `undo`, `board`, `resign`, `quit`, `help`; the agent's moves
//! are printed in notation with its value estimate. The game is saved as a game record
//! (`crumble_core::game::record`) when it ends, or unfinished (`*`) on `quit` or end of input, with
//! the agent's value after each of its moves as a comment `{value +0.12}` (the mover's view;
//! `crumble view` charts them).
//!
//! Reads commands line by line from standard input, so a script can play it too; when the
//! input is not a terminal every line read is echoed after the prompt, to keep the transcript
//! readable.
//!
//! The game is the one `--config` names (`[game] name`, as for `crumble match`): Crumble by
//! default; every other game through the generic session of [`any`].

mod any;
mod bot;

use super::PositionArgs;
use super::show::{ColorArg, ViewArg};
use super::text::escape_controls;
use anyhow::{Context as _, bail};
use bot::Bot;
use crumble_core::game::record::{Ending, Record};
use crumble_core::games::crumble::notation::{self, Frame, NotationError};
use crumble_core::games::crumble::render::{self, Highlight, term::TermOptions};
use crumble_core::games::crumble::{Crumble, Move, Outcome, Reason};
use crumble_core::{Color, GameState};
use crumble_selfplay::{AgentSpec, ConfigFile};
use std::io::{BufRead as _, IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The agent used when none is named: the built-in network at 64 simulations, a fraction of
/// a second a move on a small CPU.
pub const DEFAULT_AGENT: &str = "bot";
/// Splinter's and Crumo's default and every game's hint agent behind `random`: the built-in network
/// plays only Crumble.
const ROLLOUT_AGENT: &str = "mcts:rollout:200";

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    /// The opponent: bot[:SIMS] (the built-in network), random, mcts:uniform:SIMS,
    /// mcts:rollout:SIMS or ckpt:PATH[:SIMS]. Default: bot for Crumble, mcts:rollout:200 for
    /// Splinter and Crumo.
    #[arg(long, value_name = "AGENT")]
    agent: Option<String>,
    /// Your colour (Black moves first). In Crumo your seat: white is the second seat, which
    /// may swap on turn 2 and then plays Black.
    #[arg(long = "as", value_enum, value_name = "COLOR", default_value_t = ViewArg::Black)]
    side: ViewArg,
    /// The agent behind `hint` (default: --agent when it searches, else the default agent).
    #[arg(long, value_name = "AGENT")]
    hint_agent: Option<String>,
    /// Where to save the game (default: crumble-game-DATE-TIME.rec in the current directory).
    /// An existing file is never overwritten.
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    out: Option<PathBuf>,
    /// Your name in the record.
    #[arg(long, value_name = "NAME", default_value = "human")]
    name: String,
    /// Turn limit (0 = none): the game is drawn after this many turns.
    #[arg(long, value_name = "T", default_value_t = 0)]
    max_turns: u32,
    /// TOML config whose [search] section the search agents use.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Seed of the agents' random choices (rollouts, random play).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Terminal colours.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
    /// Leave out the edge coordinates.
    #[arg(long)]
    no_coords: bool,
}

/// One move of the game so far.
struct Played {
    before: Crumble,
    mv: Move,
    text: String,
    by_agent: bool,
    value: Option<f32>,
}

/// How the game loop ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    /// The game has a result (by the rules or a resignation).
    Over,
    /// `quit` or the end of the input: saved unfinished.
    Stopped,
}

struct Session {
    frame: Frame,
    human: Color,
    view: Color,
    term: bool,
    coords: bool,
    echo: bool,
    start: Crumble,
    game: Crumble,
    history: Vec<Played>,
    bot: Bot,
    hint_spec: AgentSpec,
    hint: Option<Bot>,
    cfg: crumble_selfplay::SearchConfig,
    seed: u64,
    /// The person's name in the record.
    name: String,
    out: std::io::Stdout,
}

fn capital(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// `3.` for a Black move, `3...` for a White one (the record's numbering).
fn move_number(first: Color, index: usize) -> String {
    let ply = index + usize::from(first == Color::White);
    if ply.is_multiple_of(2) {
        format!("{}.", ply / 2 + 1)
    } else {
        format!("{}...", ply / 2 + 1)
    }
}

const HELP: &str = "\
Commands:
  MOVE      play a move in notation, e.g. 1HN, 0,2J2,1 or 3,2H2-1N-N
  moves     list your legal splits and joins (append swap steps N E S W to swap)
  hint      the hint agent's move for you, with its value (+1 you win, -1 you lose)
  undo      take back your last move (and the agent's reply)
  board     draw the board again
  resign    give up (the game is saved)
  quit      stop now (the unfinished game is saved)
  help      this text
Notation (core/src/games/crumble/RULES.md section 6), in your own view in the per-player frame: a piece is named by
its lower-left corner, a staircase a,b,c... of intersections counted from your lower-left
corner (a right, then b up, then c right...); the numbers along the board's bottom and left
edges are those counts. Then H or V splits the piece (H3: a long split through 3 pieces), or
J a,b joins everything up to the corner a intersections right and b up. Swap steps follow:
1HN splits the piece at 1 horizontally and swaps its new northern half north.
";

impl Session {
    fn say(&mut self, text: &str) -> anyhow::Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.out.flush()?;
        Ok(())
    }

    fn draw(&mut self) -> anyhow::Result<()> {
        let last = self.history.last();
        let opts = TermOptions {
            color: self.term,
            view: self.view,
            coords: self.coords,
            highlight: last.and_then(|p| Highlight::of(&p.before, &p.mv)),
            last_move: last.map(|p| format!("{} ({})", p.text, p.before.to_move().name())),
        };
        let board = render::term::render(&self.game, &opts);
        self.say(&format!("\n{board}"))
    }

    /// Plays `mv` (legal) and records it.
    fn play(&mut self, mv: Move, by_agent: bool, value: Option<f32>) -> anyhow::Result<String> {
        let text = notation::format_move(&self.game, &mv, self.frame)
            .context("internal error: a legal move cannot be written")?;
        let before = self.game.clone();
        self.game
            .play_move(&mv)
            .context("internal error: a checked move was refused")?;
        self.history.push(Played {
            before,
            mv,
            text: text.clone(),
            by_agent,
            value,
        });
        Ok(text)
    }

    fn agent_move(&mut self) -> anyhow::Result<()> {
        let who = capital(self.game.to_move());
        self.say(&format!("{who} ({}) is thinking...\n", self.bot.name))?;
        let t0 = Instant::now();
        let c = self.bot.choose(&self.game)?;
        let secs = t0.elapsed().as_secs_f64();
        let number = move_number(self.start.to_move(), self.history.len());
        let text = self.play(c.mv, true, c.value)?;
        let value = match c.value {
            Some(v) => format!(", value {v:+.2} for {who}"),
            None => String::new(),
        };
        self.say(&format!(
            "{who} ({}) plays {number} {text}{value} ({secs:.1} s)\n",
            self.bot.name
        ))?;
        self.draw()
    }

    fn list_moves(&mut self) -> anyhow::Result<()> {
        let mut formatter = notation::Formatter::new(&self.game, self.frame);
        let mut game = self.game.clone();
        let mut texts: Vec<String> = game
            .base_moves()
            .iter()
            .filter_map(|m| formatter.format(&self.game, m))
            .collect();
        texts.sort_unstable();
        let mut s = any::columns(&texts);
        s += &format!(
            "{} splits and joins; add swap steps (N, E, S, W) to swap, e.g. {}N\n",
            texts.len(),
            texts
                .iter()
                .find(|t| t.ends_with('H'))
                .map_or("1H", String::as_str)
        );
        self.say(&s)
    }

    fn hint(&mut self) -> anyhow::Result<()> {
        if self.hint.is_none() {
            self.hint = Some(Bot::new(&self.hint_spec, &self.cfg, self.seed ^ 0x4849)?);
        }
        let t0 = Instant::now();
        let bot = self.hint.as_mut().expect("created above");
        let c = bot.choose(&self.game)?;
        let name = bot.name.clone();
        let text = notation::format_move(&self.game, &c.mv, self.frame)
            .context("internal error: a hint cannot be written")?;
        let value = c
            .value
            .map_or(String::new(), |v| format!(", value {v:+.2} for you"));
        self.say(&format!(
            "hint ({name}): {text}{value} ({:.1} s)\n",
            t0.elapsed().as_secs_f64()
        ))
    }

    fn undo(&mut self) -> anyhow::Result<()> {
        let Some(i) = self.history.iter().rposition(|p| !p.by_agent) else {
            return self.say("nothing to undo: you have not moved yet\n");
        };
        let taken: Vec<Played> = self.history.split_off(i);
        self.game = taken[0].before.clone();
        let mut s = format!("took back your move {}", taken[0].text);
        let replies: Vec<&str> = taken[1..].iter().map(|p| p.text.as_str()).collect();
        if !replies.is_empty() {
            s += &format!(" and the reply {}", replies.join(" "));
        }
        s.push('\n');
        self.say(&s)?;
        self.draw()
    }

    /// A line that is not a command: a move, or a helpful refusal.
    fn try_move(&mut self, text: &str) -> anyhow::Result<()> {
        if text.bytes().all(|b| b.is_ascii_lowercase()) {
            return self.say(&format!(
                "unknown command {text:?}: type a move in notation or one of moves, hint, undo, board, resign, quit, help\n"
            ));
        }
        let mv = match notation::parse_move(&self.game, text, self.frame) {
            Ok(mv) => mv,
            Err(e) => return self.refuse(text, &e),
        };
        let number = move_number(self.start.to_move(), self.history.len());
        let played = self.play(mv, false, None)?;
        self.say(&format!("you play {number} {played}\n"))?;
        self.draw()
    }

    /// Says why `text` is not a legal move, pointing at the characters concerned.
    fn refuse(&mut self, text: &str, e: &NotationError) -> anyhow::Result<()> {
        let mut s = format!("not a legal move: {}\n", escape_controls(&e.message));
        // The caret lines up under the escaped text: count its characters, not the input's.
        if let Some((a, b)) = e.span {
            let chars: Vec<char> = text.chars().collect();
            if a <= chars.len() {
                let part = |r: &[char]| {
                    escape_controls(&r.iter().collect::<String>())
                        .chars()
                        .count()
                };
                let (pre, mid) = (part(&chars[..a]), part(&chars[a..b.clamp(a, chars.len())]));
                s += &format!(
                    "  {}\n  {}{}\n",
                    escape_controls(text),
                    " ".repeat(pre),
                    "^".repeat(mid.max(1))
                );
            }
        }
        s += "(`moves` lists your splits and joins, `help` explains the notation)\n";
        self.say(&s)
    }

    /// The game as a record: the person's and the agent's names, the date, the moves with
    /// the agent's values as comments, and the result (`None`: unfinished).
    fn record(&self, date: &str) -> Record<Crumble> {
        // The record's start has no turn limit: it is a setting of this session, and the
        // result says when it ended the game.
        let mut rec = Record::new(self.start.clone());
        rec.notation = self.frame;
        let (black, white) = if self.human == Color::Black {
            (self.name.clone(), self.bot.name.clone())
        } else {
            (self.bot.name.clone(), self.name.clone())
        };
        rec.set_tag("Black", &black);
        rec.set_tag("White", &white);
        rec.set_tag("Date", date);
        let mut game = self.start.clone();
        for p in &self.history {
            let comment = p
                .value
                .filter(|_| p.by_agent)
                .map(crumble_core::render::value_comment);
            // Every move of the history was played on this very game.
            let turn = game.play_move(&p.mv).expect("a move of the game replays");
            rec.push_move(turn, comment);
        }
        rec.end = Ending::of(&self.game);
        rec
    }

    /// Reads one line; `None` at the end of the input.
    fn read_line(&mut self) -> anyhow::Result<Option<String>> {
        read_line(&mut self.out, self.echo)
    }

    fn run(&mut self) -> anyhow::Result<End> {
        loop {
            if self.game.is_over() {
                return Ok(End::Over);
            }
            if self.game.to_move() != self.human {
                self.agent_move()?;
                continue;
            }
            let prompt = format!(
                "[turn {}] {} (you)> ",
                self.game.turns_played() + 1,
                capital(self.human)
            );
            self.say(&prompt)?;
            let Some(line) = self.read_line()? else {
                self.say("\nend of input: stopping\n")?;
                return Ok(End::Stopped);
            };
            match line.to_ascii_lowercase().as_str() {
                "" => {}
                "help" | "?" => self.say(HELP)?,
                "moves" => self.list_moves()?,
                "hint" => self.hint()?,
                "undo" => self.undo()?,
                "board" => self.draw()?,
                "resign" => {
                    self.game.finish(Outcome {
                        winner: Some(self.human.opposite()),
                        reason: Reason::Resignation,
                    });
                    self.say(&format!("{} resigns\n", capital(self.human)))?;
                    return Ok(End::Over);
                }
                "quit" | "exit" => return Ok(End::Stopped),
                _ => self.try_move(&line)?,
            }
        }
    }
}

/// Reads one line of standard input, trimmed, echoed to `out` when `echo` (the input is not
/// a terminal); `None` at the end of the input.
fn read_line(out: &mut std::io::Stdout, echo: bool) -> anyhow::Result<Option<String>> {
    let mut buf = Vec::new();
    let n = std::io::stdin()
        .lock()
        .read_until(b'\n', &mut buf)
        .context("cannot read standard input")?;
    if n == 0 {
        return Ok(None);
    }
    // Bad bytes become U+FFFD and then a refused move, never a crash.
    let line = String::from_utf8_lossy(&buf).trim().to_string();
    if echo {
        out.write_all(format!("{line}\n").as_bytes())?;
        out.flush()?;
    }
    Ok(Some(line))
}

/// The file to save the game in: `-o`, or `PREFIX-DATE-TIME.rec` here; refused when it
/// exists (games are never overwritten), is one of the inputs, or its directory is missing.
fn out_path(a: &Args, prefix: &str, stamp: &str) -> anyhow::Result<PathBuf> {
    let path = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{prefix}-{stamp}.rec")));
    if path.exists() {
        bail!(
            "{} already exists: choose another file with -o (games are never overwritten)",
            path.display()
        );
    }
    let inputs: Vec<&Path> = a
        .pos
        .position
        .iter()
        .chain(&a.config)
        .map(|p| p.as_path())
        .collect();
    super::output::check_output("-o", &path, &inputs, false)?;
    if let Some(dir) = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && !d.is_dir())
    {
        bail!(
            "cannot save the game to {}: no directory {}",
            path.display(),
            dir.display()
        );
    }
    Ok(path)
}

/// Whether to draw in colour: `--color`, or `auto`: a terminal and no `NO_COLOR`.
fn use_colour(c: ColorArg) -> bool {
    match c {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// Writes the record to `path`, never over an existing file.
fn save(path: &Path, text: &str) -> anyhow::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    f.write_all(text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    // The config's [game] picks the game, as for `crumble match`.
    let full = match &a.config {
        Some(p) => Some(crumble_train::config::TrainConfig::load(p)?),
        None => None,
    };
    // Crumble plays in its own frames, with its own board; every other game plays through
    // the generic session.
    if let Some(f) = full
        .as_ref()
        .filter(|f| f.game.name != <Crumble as GameState>::NAME)
    {
        return crumble_train::for_game!(f.game.name.as_str(), G => any::run::<G>(&a, f));
    }
    let spec = AgentSpec::parse(a.agent.as_deref().unwrap_or(DEFAULT_AGENT))?;
    let hint_spec = match &a.hint_agent {
        Some(h) => AgentSpec::parse(h)?,
        None if !matches!(spec, AgentSpec::Random) => spec.clone(),
        None => AgentSpec::parse(DEFAULT_AGENT)?,
    };
    let cfg = match &full {
        Some(f) => f.play_config().search,
        None => ConfigFile::default().search,
    };
    let mut start = a.pos.start()?;
    start.set_max_turns(a.max_turns);
    let (date, stamp) = crumble_train::clock::now_stamps();
    let path = out_path(&a, "crumble-game", &stamp)?;
    let mut bot = Bot::new(&spec, &cfg, a.seed)?;
    bot.check(&start)?;
    let human = match a.side {
        ViewArg::Black => Color::Black,
        ViewArg::White => Color::White,
    };
    let frame = a.pos.frame();
    let term = use_colour(a.color);
    let mut s = Session {
        frame,
        human,
        // The edge labels are the coordinates of the viewer's frame: show the board from the
        // side whose coordinates the person writes.
        view: if frame.rotates_for(human) {
            Color::White
        } else {
            Color::Black
        },
        term,
        coords: !a.no_coords,
        echo: !std::io::stdin().is_terminal(),
        start: start.clone(),
        game: start,
        history: Vec::new(),
        bot,
        hint_spec,
        hint: None,
        cfg,
        seed: a.seed,
        name: a.name.clone(),
        out: std::io::stdout(),
    };
    let b = s.game.board();
    let intro = format!(
        "Crumble {n}x{n} (resolution {r}), {} frame: you ({}) play {} against {}. Type a move, or `help`.\n",
        frame.name(),
        a.name,
        capital(human),
        s.bot.name,
        n = b.board_size(),
        r = b.resolution(),
    );
    s.say(&intro)?;
    s.draw()?;
    let ended = s.run();
    // Save whatever was played, also when the agent failed.
    let rec = s.record(&date);
    let text = rec.write();
    if let Err(e) = save(&path, &text) {
        // Do not lose the game: print it.
        s.say(&format!("\n{text}"))?;
        return Err(e);
    }
    let how = match &ended {
        Ok(End::Over) => render::status_line(&s.game),
        Ok(End::Stopped) => "unfinished".to_string(),
        Err(_) => "stopped by an error".to_string(),
    };
    s.say(&format!(
        "{how}; the game is saved in {p}\n(view it: crumble view --record {p} -o game.html)\n",
        p = path.display()
    ))?;
    ended?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::move_number;
    use crumble_core::Color;

    #[test]
    fn move_numbers_follow_the_record() {
        assert_eq!(move_number(Color::Black, 0), "1.");
        assert_eq!(move_number(Color::Black, 1), "1...");
        assert_eq!(move_number(Color::Black, 2), "2.");
        assert_eq!(move_number(Color::White, 0), "1...");
        assert_eq!(move_number(Color::White, 1), "2.");
    }
}
