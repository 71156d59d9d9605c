//! `crumble play --config SPLINTER.toml`: Splinter against an agent in the terminal. The board
//! is drawn with Splinter's terminal picture after every move; the person types moves in the
//! notation of games/splinter/RULES.md rule 9 (`h9-h10`, `e5-e6/f2` when the move leaves equal
//! largest groups) or the commands `moves`, `hint`, `undo`, `board`, `resign`, `quit`,
//! `help`. The game is saved as a game record (`crumble_core::game::record`, with Splinter's
//! `Board` tag)
//! with the agent's value after each of its moves as a comment `{value +0.12}`.
//!
//! The board is the config's `[game] width × height` (standard start), or a `--position`
//! file (rule 10's JSON); Crumble's `--board`, `--resolution` and `--frame` are refused.

use super::bot::Bot;
use super::{Args, End, ViewArg, capital, out_path, read_line, save, use_colour};
use anyhow::{Context as _, bail};
use crumble_core::Color;
use crumble_core::game::record::{Ending, Record, result_token};
use crumble_core::games::splinter::render::{SplinterHighlight, status_line, term};
use crumble_core::games::splinter::{
    MoveError, Outcome, Reason, Splinter, SplinterMove, notation, position,
};
use crumble_selfplay::AgentSpec;
use crumble_train::config::TrainConfig;
use crumble_train::games::TrainGame;
use std::io::{IsTerminal as _, Write as _};
use std::process::ExitCode;
use std::time::Instant;

/// One move of the game so far.
struct Played {
    before: Splinter,
    mv: SplinterMove,
    text: String,
    by_agent: bool,
    value: Option<f32>,
}

struct Session {
    human: Color,
    colour: bool,
    coords: bool,
    echo: bool,
    start: Splinter,
    game: Splinter,
    history: Vec<Played>,
    bot: Bot<Splinter>,
    hint_spec: AgentSpec,
    hint: Option<Bot<Splinter>>,
    cfg: crumble_selfplay::SearchConfig,
    seed: u64,
    name: String,
    out: std::io::Stdout,
}

const HELP: &str = "\
Commands:
  MOVE      play a move: FROM-TO, e.g. h9-h10 (one square in any of the 8 directions,
            pushing the pieces in the way); when the move leaves two or more equal largest
            groups, name the group that stays with /SQUARE, e.g. e5-e6/f2
  moves     list your legal moves (each splinter choice once)
  hint      the hint agent's move for you, with its value (+1 you win, -1 you lose)
  undo      take back your last move (and the agent's reply)
  board     draw the board again
  resign    give up (the game is saved)
  quit      stop now (the unfinished game is saved)
  help      this text
Squares are a file letter and a rank number as along the board's edges (a1 lower left).
In the plain board bK is Black's king, wP a White pawn (R rook, B bishop); the pieces the
last move moved are in brackets and the square it left shows its direction.
";

impl Session {
    fn say(&mut self, text: &str) -> anyhow::Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.out.flush()?;
        Ok(())
    }

    fn draw(&mut self) -> anyhow::Result<()> {
        let last = self.history.last();
        let opts = term::TermOptions {
            color: self.colour,
            coords: self.coords,
            highlight: last.and_then(|p| SplinterHighlight::of(&p.before, &p.mv)),
            last_move: last.map(|p| format!("{} ({})", p.text, p.before.to_move().name())),
        };
        let board = term::render(&self.game, &opts);
        self.say(&format!("\n{board}"))
    }

    /// The turn number of the next move, as the record numbers it.
    fn number(&self) -> String {
        format!("{}.", self.history.len() + 1)
    }

    /// Plays `mv` (legal) and records it; returns its canonical text.
    fn play(
        &mut self,
        mv: SplinterMove,
        by_agent: bool,
        value: Option<f32>,
    ) -> anyhow::Result<String> {
        let mv = self
            .game
            .canonical(&mv)
            .context("internal error: a checked move was refused")?;
        let text = notation::move_text(self.game.board(), &mv);
        let before = self.game.clone();
        self.game
            .play(&mv)
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

    /// The agent's complete move in the position: its decisions read back as a move.
    fn bot_move(
        bot: &mut Bot<Splinter>,
        game: &Splinter,
    ) -> anyhow::Result<(SplinterMove, Option<f32>)> {
        let (path, value) = bot.choose_turn(game)?;
        let mut g = game.clone();
        let mut mv = None;
        for d in path {
            match g.decode(d) {
                Some(crumble_core::games::splinter::Action::Move { from, dir }) => {
                    mv = Some(SplinterMove {
                        from,
                        dir,
                        keep: None,
                    })
                }
                Some(crumble_core::games::splinter::Action::Keep { square }) => {
                    if let Some(m) = mv.as_mut() {
                        m.keep = Some(square);
                    }
                }
                None => {}
            }
            g.apply(d)
                .with_context(|| format!("internal error: agent {}", bot.name))?;
        }
        let mv = mv.with_context(|| format!("internal error: agent {} made no move", bot.name))?;
        Ok((mv, value))
    }

    fn agent_move(&mut self) -> anyhow::Result<()> {
        let who = capital(self.game.to_move());
        self.say(&format!("{who} ({}) is thinking...\n", self.bot.name))?;
        let t0 = Instant::now();
        let (mv, value) = Self::bot_move(&mut self.bot, &self.game)?;
        let secs = t0.elapsed().as_secs_f64();
        let number = self.number();
        let text = self.play(mv, true, value)?;
        let value = value.map_or(String::new(), |v| format!(", value {v:+.2} for {who}"));
        self.say(&format!(
            "{who} ({}) plays {number} {text}{value} ({secs:.1} s)\n",
            self.bot.name
        ))?;
        self.draw()
    }

    fn list_moves(&mut self) -> anyhow::Result<()> {
        let texts = self.game.legal_move_texts();
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
        s += &format!("{} moves\n", texts.len());
        self.say(&s)
    }

    fn hint(&mut self) -> anyhow::Result<()> {
        if self.hint.is_none() {
            let loader =
                crumble_model::NetLoader::for_encoder(<Splinter as TrainGame>::Encoder::default());
            self.hint = Some(Bot::with_loader(
                &self.hint_spec,
                &self.cfg,
                self.seed ^ 0x4849,
                &loader,
            )?);
        }
        let t0 = Instant::now();
        let bot = self.hint.as_mut().expect("created above");
        let (mv, value) = Self::bot_move(bot, &self.game)?;
        let name = bot.name.clone();
        let mv = self
            .game
            .canonical(&mv)
            .context("internal error: a hint is not legal")?;
        let text = notation::move_text(self.game.board(), &mv);
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
                "unknown command {text:?}: type a move like h9-h10 or one of moves, hint, undo, board, resign, quit, help\n"
            ));
        }
        let checked = notation::parse_move(self.game.board(), text)
            .map_err(MoveError::from)
            .and_then(|mv| self.game.resolve(&mv).map(|_| mv));
        let mv = match checked {
            Ok(mv) => mv,
            Err(e) => return self.refuse(text, &e),
        };
        let number = self.number();
        let played = self.play(mv, false, None)?;
        self.say(&format!("you play {number} {played}\n"))?;
        self.draw()
    }

    /// Says why `text` is not a legal move; for a splinter choice missing or wrong, lists
    /// the choices of that move.
    fn refuse(&mut self, text: &str, e: &MoveError) -> anyhow::Result<()> {
        let mut s = format!(
            "not a legal move: {}\n",
            super::escape_controls(&e.to_string())
        );
        if matches!(
            e,
            MoveError::ChoiceMissing | MoveError::ChoiceNotLargest { .. }
        ) {
            let squares = text.split('/').next().unwrap_or(text);
            let prefix = format!("{squares}/");
            let choices: Vec<String> = self
                .game
                .legal_move_texts()
                .into_iter()
                .filter(|m| m.starts_with(&prefix))
                .collect();
            s += &format!(
                "  the groups that may stay (any square of the group will do): {}\n",
                choices.join(" ")
            );
        }
        s += "(`moves` lists your legal moves, `help` explains the notation)\n";
        self.say(&s)
    }

    /// The game as a Splinter record: the names, the date, the moves with the agent's values
    /// as comments, and the result (`None`: unfinished).
    fn record(&self, date: &str) -> Record<Splinter> {
        let mut rec = Record::new(self.start.clone());
        let (black, white) = if self.human == Color::Black {
            (self.name.clone(), self.bot.name.clone())
        } else {
            (self.bot.name.clone(), self.name.clone())
        };
        rec.set_tag("Black", &black);
        rec.set_tag("White", &white);
        rec.set_tag("Date", date);
        if self.start.turn_limit() > 0 {
            rec.set_tag("TurnLimit", &self.start.turn_limit().to_string());
        }
        for p in &self.history {
            let comment = p
                .value
                .filter(|_| p.by_agent)
                .map(crumble_core::render::value_comment);
            let (first, keep) = p
                .before
                .resolve(&p.mv)
                .expect("a played move resolves in the position it was played in");
            rec.push_move(std::iter::once(first).chain(keep).collect(), comment);
        }
        rec.end = Ending::of(&self.game);
        rec
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
            let Some(line) = read_line(&mut self.out, self.echo)? else {
                self.say("\nend of input: stopping\n")?;
                return Ok(End::Stopped);
            };
            match line.as_str() {
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

/// The Splinter session of `crumble play` with the config `full` (`[game] name = "splinter"`).
pub fn run(a: &Args, full: &TrainConfig) -> anyhow::Result<ExitCode> {
    if let Some(flag) = a.pos.crumble_flags().first() {
        bail!(
            "{flag} is a Crumble flag: Splinter does not take it (its board is the config's [game] width and height)"
        );
    }
    let spec = AgentSpec::parse(a.agent.as_deref().unwrap_or(super::ROLLOUT_AGENT))?;
    let hint_spec = match &a.hint_agent {
        Some(h) => AgentSpec::parse(h)?,
        None if !matches!(spec, AgentSpec::Random) => spec.clone(),
        None => AgentSpec::parse(super::ROLLOUT_AGENT)?,
    };
    let cfg = full.play_config().search;
    let mut start = match &a.pos.position {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read position file {}", path.display()))?;
            position::from_json(&text)
                .with_context(|| format!("position file {} refused", path.display()))?
        }
        None => Splinter::standard_start(full)?,
    };
    start.set_turn_limit(a.max_turns);
    let (date, stamp) = crumble_train::clock::now_stamps();
    let path = out_path(a, "splinter-game", &stamp)?;
    let loader = crumble_model::NetLoader::for_encoder(<Splinter as TrainGame>::Encoder::default());
    let mut bot = Bot::with_loader(&spec, &cfg, a.seed, &loader)?;
    bot.check(&start)?;
    let human = match a.side {
        ViewArg::Black => Color::Black,
        ViewArg::White => Color::White,
    };
    let mut s = Session {
        human,
        colour: use_colour(a.color),
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
        "Splinter {}x{}: you ({}) play {} against {}. Type a move, or `help`.\n",
        b.width(),
        b.height(),
        a.name,
        capital(human),
        s.bot.name,
    );
    s.say(&intro)?;
    s.draw()?;
    let ended = s.run();
    // Save whatever was played, also when the agent failed.
    let text = s.record(&date).write();
    if let Err(e) = save(&path, &text) {
        // Do not lose the game: print it.
        s.say(&format!("\n{text}"))?;
        return Err(e);
    }
    let how = match &ended {
        Ok(End::Over) => format!(
            "{}: {}",
            s.game.outcome().map_or("*", |o| result_token(o.winner)),
            status_line(&s.game)
        ),
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
