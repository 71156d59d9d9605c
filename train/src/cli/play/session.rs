//! The session of `crumble play`, written once for every game against its text layer
//! (`GameText`) and pictures (`Pictures`): the board drawn after every move with the last
//! move highlighted (from the side whose coordinates the person writes), moves typed in the
//! game's notation (`help` shows it) or the commands `moves`, `hint`, `undo`, `board`,
//! `resign`, `quit`, `help`, the agent's moves printed with its value estimate, and the game
//! saved as the game's record (`crumble_core::game::record`) with the agent's value after
//! each of its moves as a comment `{value +0.12}`.
//!
//! `--as` picks the person's seat: `black` the first seat, `white` the second. A game whose
//! seats can change colours (Crumo's swap) says so when they do; the record names the players
//! by the colours they ended with.

use super::{Args, End, ViewArg, out_path, read_line, save};
use crate::cli::game_args::GameArgs;
use anyhow::Context as _;
use crumble_core::game::record::{Ending, Record};
use crumble_core::render::record_page::title;
use crumble_core::render::{PictureStyle, Pictures, capital, value_comment};
use crumble_core::{Color, Decision, GameText, Player};
use crumble_selfplay::AgentSpec;
use crumble_selfplay::turn_agent::TurnAgent;
use crumble_train::config::TrainConfig;
use crumble_train::games::TrainGame;
use std::io::{IsTerminal as _, Write as _};
use std::process::ExitCode;
use std::time::Instant;

/// One move of the game so far.
struct Played<G> {
    before: G,
    turn: Vec<Decision>,
    text: String,
    by_agent: bool,
    value: Option<f32>,
}

struct Session<G: TrainGame> {
    /// The person's seat; its colour may change (a swap).
    seat: Player,
    /// How moves are written and read (Crumble's frame).
    notation: G::Notation,
    style: PictureStyle,
    echo: bool,
    start: G,
    game: G,
    history: Vec<Played<G>>,
    bot: TurnAgent<G>,
    hint_spec: AgentSpec,
    hint: Option<TurnAgent<G>>,
    cfg: crumble_selfplay::SearchConfig,
    seed: u64,
    name: String,
    /// The winner when the person resigned.
    resigned: Option<Color>,
    out: std::io::Stdout,
}

const COMMANDS: &str = "  moves     list your legal moves
  hint      the hint agent's move for you, with its value (+1 you win, -1 you lose)
  undo      take back your last move (and the agent's reply)
  board     draw the board again
  resign    give up (the game is saved)
  quit      stop now (the unfinished game is saved)
  help      this text
";

impl<G: TrainGame + Pictures> Session<G> {
    fn say(&mut self, text: &str) -> anyhow::Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.out.flush()?;
        Ok(())
    }

    fn draw(&mut self) -> anyhow::Result<()> {
        let last = self.history.last();
        let mut style = self.style.clone();
        style.view = G::view_for(self.notation, self.human());
        style.last_move = last.map(|p| format!("{} ({})", p.text, colour_to_move(&p.before)));
        let board = self
            .game
            .term_picture(last.map(|p| (&p.before, p.turn.as_slice())), &style);
        self.say(&format!("\n{board}"))
    }

    /// The person's colour now.
    fn human(&self) -> Color {
        self.game.colour_of(self.seat)
    }

    /// The number of the next move, as the record numbers it: `3.`, or by rounds, `3.` for
    /// Black and `3...` for White.
    fn number(&self) -> String {
        let index = self.history.len();
        if !G::NUMBER_BY_ROUND {
            return format!("{}.", index + 1);
        }
        move_number(colour_to_move(&self.start), index)
    }

    /// The text of `turn` (a whole legal turn from the current position).
    fn text_of(&self, turn: &[Decision]) -> anyhow::Result<String> {
        self.game
            .move_text(turn, self.notation)
            .context("internal error: a legal move cannot be written")
    }

    /// Plays `turn` (a whole legal turn) and records it.
    fn play(
        &mut self,
        turn: Vec<Decision>,
        by_agent: bool,
        value: Option<f32>,
    ) -> anyhow::Result<()> {
        let text = self.text_of(&turn)?;
        let before = self.game.clone();
        let colour = self.human();
        for &d in &turn {
            self.game
                .apply(d)
                .context("internal error: a checked move was refused")?;
        }
        self.history.push(Played {
            before,
            turn,
            text,
            by_agent,
            value,
        });
        if self.human() != colour {
            let you = capital(self.human());
            self.say(&format!(
                "the seats swap colours: you play {you} from now on\n"
            ))?;
        }
        Ok(())
    }

    fn agent_move(&mut self) -> anyhow::Result<()> {
        let who = capital(colour_to_move(&self.game));
        self.say(&format!("{who} ({}) is thinking...\n", self.bot.name))?;
        let t0 = Instant::now();
        let (turn, value) = self.bot.choose_turn(&self.game)?;
        let secs = t0.elapsed().as_secs_f64();
        let number = self.number();
        let text = self.text_of(&turn)?;
        let shown = value.map_or(String::new(), |v| format!(", value {v:+.2} for {who}"));
        // Say the move before `play` announces what it changed (a swap).
        self.say(&format!(
            "{who} ({}) plays {number} {text}{shown} ({secs:.1} s)\n",
            self.bot.name
        ))?;
        self.play(turn, true, value)?;
        self.draw()
    }

    fn list_moves(&mut self) -> anyhow::Result<()> {
        let texts = self.game.legal_move_texts(self.notation)?;
        let mut s = columns(&texts);
        s += &self.game.moves_summary(&texts);
        s.push('\n');
        self.say(&s)
    }

    fn hint(&mut self) -> anyhow::Result<()> {
        if self.hint.is_none() {
            let loader = crumble_model::NetLoader::for_encoder(G::Encoder::default());
            self.hint = Some(TurnAgent::new(
                &self.hint_spec,
                &self.cfg,
                self.seed ^ 0x4849,
                &loader,
            )?);
        }
        let t0 = Instant::now();
        let bot = self.hint.as_mut().expect("created above");
        let (turn, value) = bot.choose_turn(&self.game)?;
        let name = bot.name.clone();
        let text = self.text_of(&turn)?;
        let value = value.map_or(String::new(), |v| format!(", value {v:+.2} for you"));
        self.say(&format!(
            "hint ({name}): {text}{value} ({:.1} s)\n",
            t0.elapsed().as_secs_f64()
        ))
    }

    fn undo(&mut self) -> anyhow::Result<()> {
        let Some(i) = self.history.iter().rposition(|p| !p.by_agent) else {
            return self.say("nothing to undo: you have not moved yet\n");
        };
        let taken: Vec<Played<G>> = self.history.split_off(i);
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
        let turn = match self.game.parse_move(text, self.notation) {
            Ok(turn) => turn,
            // A plain word that is no move here is a mistyped command.
            Err(_)
                if text.bytes().all(|b| b.is_ascii_lowercase())
                    && !self.game.move_words().contains(&text) =>
            {
                return self.say(&format!(
                    "unknown command {text:?}: type a move or one of moves, hint, undo, board, resign, quit, help\n"
                ));
            }
            Err(e) => {
                let mut s = format!(
                    "not a legal move: {}\n",
                    super::escape_controls(&e.to_string())
                );
                if let Some(span) = G::refusal_span(&e) {
                    s += &caret(text, span);
                }
                if let Some(more) = self.game.refusal_hint(text, &e) {
                    s += &more;
                }
                s += "(`moves` lists your legal moves, `help` explains the notation)\n";
                return self.say(&s);
            }
        };
        let number = self.number();
        let played = self.text_of(&turn)?;
        self.say(&format!("you play {number} {played}\n"))?;
        self.play(turn, false, None)?;
        self.draw()
    }

    /// The game as its record: the players by the colours they ended with, the date, the
    /// turn limit, the moves with the agent's values, and how it ended.
    fn record(&self, date: &str) -> Record<G> {
        // The turn limit is a setting of this session, not part of the position: a tag.
        let mut rec = Record::new(self.start.clone());
        rec.notation = self.notation;
        for c in Color::BOTH {
            let name = if self.human() == c {
                &self.name
            } else {
                &self.bot.name
            };
            rec.set_tag(capital(c), name);
        }
        rec.set_tag("Date", date);
        if self.start.turn_limit() > 0 {
            rec.set_tag("TurnLimit", &self.start.turn_limit().to_string());
        }
        for p in &self.history {
            let comment = p.value.filter(|_| p.by_agent).map(value_comment);
            rec.push_move(p.turn.clone(), comment);
        }
        rec.end = match self.resigned {
            Some(winner) => Some(Ending::Resignation { winner }),
            None => Ending::of(&self.game),
        };
        rec
    }

    fn run(&mut self) -> anyhow::Result<End> {
        loop {
            if self.game.is_over() {
                return Ok(End::Over);
            }
            if self.game.decider() != Some(self.seat) {
                self.agent_move()?;
                continue;
            }
            let note = self
                .game
                .prompt_note()
                .map_or(String::new(), |n| format!(" ({n})"));
            let prompt = format!(
                "[turn {}] {} (you){note}> ",
                self.game.turns_played() + 1,
                capital(self.human())
            );
            self.say(&prompt)?;
            let Some(line) = read_line(&mut self.out, self.echo)? else {
                self.say("\nend of input: stopping\n")?;
                return Ok(End::Stopped);
            };
            match line.as_str() {
                "" => {}
                "help" | "?" => {
                    let help = format!(
                        "Commands:\n  MOVE      play a move (see below)\n{COMMANDS}{}",
                        self.game.notation_help()
                    );
                    self.say(&help)?
                }
                "moves" => self.list_moves()?,
                "hint" => self.hint()?,
                "undo" => self.undo()?,
                "board" => self.draw()?,
                "resign" => {
                    let human = self.human();
                    let winner = human.opposite();
                    self.resigned = Some(winner);
                    // A game whose states hold a resignation shows it in its status line.
                    self.game
                        .end_as(Ending::Resignation { winner }, Some(winner));
                    self.say(&format!("{} resigns\n", capital(human)))?;
                    return Ok(End::Over);
                }
                "quit" | "exit" => return Ok(End::Stopped),
                _ => self.try_move(&line)?,
            }
        }
    }
}

/// `3.` for a Black move, `3...` for a White one: the number of the move `index` of a game
/// numbered by rounds from a start where `first` moves.
fn move_number(first: Color, index: usize) -> String {
    let ply = index + usize::from(first == Color::White);
    if ply.is_multiple_of(2) {
        format!("{}.", ply / 2 + 1)
    } else {
        format!("{}...", ply / 2 + 1)
    }
}

/// `text` again with carets under its characters `span` (end exclusive), both escaped the
/// same way so that they line up.
fn caret(text: &str, (a, b): (usize, usize)) -> String {
    let chars: Vec<char> = text.chars().collect();
    if a > chars.len() {
        return String::new();
    }
    let width = |r: &[char]| {
        super::escape_controls(&r.iter().collect::<String>())
            .chars()
            .count()
    };
    let (pre, mid) = (
        width(&chars[..a]),
        width(&chars[a..b.clamp(a, chars.len())]),
    );
    format!(
        "  {}\n  {}{}\n",
        super::escape_controls(text),
        " ".repeat(pre),
        "^".repeat(mid.max(1))
    )
}

/// The colour that moves in `game` (Black once it is over: only a label).
fn colour_to_move<G: GameText>(game: &G) -> Color {
    game.decider().map_or(Color::Black, |p| game.colour_of(p))
}

/// `texts` in columns of a 78-character line.
pub fn columns(texts: &[String]) -> String {
    let width = texts.iter().map(String::len).max().unwrap_or(0) + 2;
    let per_line = (78 / width.max(1)).max(1);
    let mut s = String::new();
    for row in texts.chunks(per_line) {
        s.push_str("  ");
        for t in row {
            s += &format!("{t:<width$}");
        }
        s = s.trim_end().to_string();
        s.push('\n');
    }
    s
}

/// The session of `crumble play` for `G` with the config `full`.
pub fn run<G: TrainGame + Pictures>(a: &Args, full: &TrainConfig) -> anyhow::Result<ExitCode> {
    let spec = AgentSpec::parse(a.agent.as_deref().unwrap_or(G::DEFAULT_AGENT))?;
    let hint_spec = match &a.hint_agent {
        Some(h) => AgentSpec::parse(h)?,
        None if !matches!(spec, AgentSpec::Random) => spec.clone(),
        None => AgentSpec::parse(G::DEFAULT_AGENT)?,
    };
    let cfg = full.play_config().search;
    // The start and notation the flags name (a --position file, the game's start options,
    // Crumble's frame), as the rules commands read them; without them, the config's start.
    let game_args = GameArgs {
        game: G::NAME.to_string(),
        options: a.options.clone(),
    };
    let setup = game_args.setup(&a.pos, a.max_turns, &[])?;
    let notation = setup.notation::<G>();
    let start = if a.pos.position.is_none() && a.options.given.is_empty() {
        let mut start = G::standard_start(full)?;
        start.set_turn_limit(a.max_turns);
        start
    } else {
        setup.start::<G>()?
    };
    let (date, stamp) = crumble_train::clock::now_stamps();
    let path = out_path(a, &format!("{}-game", G::NAME), &stamp)?;
    let loader = crumble_model::NetLoader::for_encoder(G::Encoder::default());
    let mut bot = TurnAgent::new(&spec, &cfg, a.seed, &loader)?;
    bot.check(&start)?;
    let seat = match a.side {
        ViewArg::Black => Player::First,
        ViewArg::White => Player::Second,
    };
    let mut s = Session {
        seat,
        notation,
        style: PictureStyle {
            color: a.color.enabled(),
            coords: !a.no_coords,
            ..PictureStyle::default()
        },
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
        resigned: None,
        out: std::io::stdout(),
    };
    let seat_note = s
        .game
        .seat_note(seat)
        .map_or(String::new(), |n| format!(" ({n})"));
    let frame = G::notation_tag(notation).map_or(String::new(), |(tag, name)| {
        format!(", {name} {}", tag.to_lowercase())
    });
    let intro = format!(
        "{} {}{frame}: you ({}) play {}{seat_note} against {}. Type a move, or `help`.\n",
        title(G::NAME),
        s.game.board_text(),
        a.name,
        capital(s.human()),
        s.bot.name,
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
        Ok(End::Over) => {
            let status = match s.resigned {
                Some(w) if !s.game.is_over() => format!("{} resigns", capital(w.opposite())),
                _ => s.game.status_line(),
            };
            format!("{}: {status}", rec.result_token(&s.game))
        }
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
    use super::{caret, move_number};
    use crumble_core::Color;

    #[test]
    fn move_numbers_follow_the_record() {
        assert_eq!(move_number(Color::Black, 0), "1.");
        assert_eq!(move_number(Color::Black, 1), "1...");
        assert_eq!(move_number(Color::Black, 2), "2.");
        assert_eq!(move_number(Color::White, 0), "1...");
        assert_eq!(move_number(Color::White, 1), "2.");
    }

    #[test]
    fn the_caret_lines_up_under_escaped_text() {
        assert_eq!(caret("1H9", (1, 3)), "  1H9\n   ^^\n");
        // A control character is shown escaped: the caret counts what is shown.
        assert_eq!(caret("\u{1}x", (1, 2)), "  \\u{1}x\n       ^\n");
        assert_eq!(
            caret("ab", (5, 6)),
            "",
            "a span past the text points nowhere"
        );
    }
}
