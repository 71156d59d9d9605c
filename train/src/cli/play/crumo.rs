//! `crumble play --config CRUMO.toml`: Crumo against an agent in the terminal. The board is
//! drawn with Crumo's terminal picture after every move; the person types moves in the
//! notation of games/crumo/RULES.md rule 11 (`3e5` places, `e5-e7` moves, `pass`, `swap`) or the
//! commands `moves`, `hint`, `undo`, `board`, `resign`, `quit`, `help`. The game is saved as
//! a game record (`crumble_core::game::record`, with Crumo's `Size` tag); the agent's values
//! are printed but not saved in it.
//!
//! `--as` picks the person's seat: `black` the first seat (which places the first stack),
//! `white` the second (which may `swap` on the second turn and then plays Black, rule 8).
//! The record names the players by the colours they ended with.
//!
//! The board is the config's `[game] size` (standard start), or a `--position` file (rule
//! 12's JSON); Crumble's `--board`, `--resolution` and `--frame` are refused.

use super::bot::Bot;
use super::{Args, End, ViewArg, capital, out_path, read_line, save, use_colour};
use anyhow::{Context as _, bail};
use crumble_core::game::record::{Ending, Record, result_token};
use crumble_core::games::crumo::render::{CrumoHighlight, status_line, term};
use crumble_core::games::crumo::{
    Crumo, CrumoMove, MoveError, Outcome, Pie, Reason, notation, position,
};
use crumble_core::{Color, Player};
use crumble_selfplay::AgentSpec;
use crumble_train::config::TrainConfig;
use crumble_train::games::TrainGame;
use std::io::{IsTerminal as _, Write as _};
use std::process::ExitCode;
use std::time::Instant;

/// One move of the game so far.
struct Played {
    before: Crumo,
    mv: CrumoMove,
    text: String,
    by_agent: bool,
}

struct Session {
    /// The person's seat; their colour changes when the second seat swaps.
    seat: Player,
    colour: bool,
    coords: bool,
    echo: bool,
    start: Crumo,
    game: Crumo,
    history: Vec<Played>,
    bot: Bot<Crumo>,
    hint_spec: AgentSpec,
    hint: Option<Bot<Crumo>>,
    cfg: crumble_selfplay::SearchConfig,
    seed: u64,
    name: String,
    out: std::io::Stdout,
}

const HELP: &str = "\
Commands:
  MOVE      play a move: HEIGHT POINT places a new stack (3e5), FROM-TO moves as many
            pieces as the distance (e5-e7 moves 2), pass, or swap (second turn only: you
            then play Black)
  moves     list your legal moves
  hint      the hint agent's move for you, with its value (+1 you win, -1 you lose)
  undo      take back your last move (and the agent's reply)
  board     draw the board again
  resign    give up (the game is saved)
  quit      stop now (the unfinished game is saved)
  help      this text
Points are a file letter and a rank number as along the board's edges (a1 lower left);
each row lists its first and last file on the right. In the plain board B3 is a black stack
of height 3, W1 a white one; the last move's points are in brackets. Two passes in a row
end the game: controlled points plus captures, and half a point to the first passer.
";

/// The colour `seat` plays in `game` (after any swap).
fn colour_of(game: &Crumo, seat: Player) -> Color {
    if (seat == Player::First) == game.first_seat_plays(Color::Black) {
        Color::Black
    } else {
        Color::White
    }
}

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
            highlight: last.and_then(|p| CrumoHighlight::of(&p.mv)),
            last_move: last.map(|p| format!("{} ({})", p.text, p.before.to_move().name())),
        };
        let board = term::render(&self.game, &opts);
        self.say(&format!("\n{board}"))
    }

    /// The person's colour now.
    fn human(&self) -> Color {
        colour_of(&self.game, self.seat)
    }

    /// The turn number of the next move, as the record numbers it.
    fn number(&self) -> String {
        format!("{}.", self.history.len() + 1)
    }

    /// Plays `mv` (checked by the caller) and records it; returns its text.
    fn play(&mut self, mv: CrumoMove, by_agent: bool) -> anyhow::Result<String> {
        let text = self.game.move_text(&mv);
        let before = self.game.clone();
        self.game
            .play(&mv)
            .context("internal error: a checked move was refused")?;
        self.history.push(Played {
            before,
            mv,
            text: text.clone(),
            by_agent,
        });
        if mv == CrumoMove::Swap {
            let you = capital(self.human());
            self.say(&format!(
                "the seats swap colours: you play {you} from now on\n"
            ))?;
        }
        Ok(text)
    }

    /// The agent's complete move in the position, and its value (mover's view).
    fn bot_move(bot: &mut Bot<Crumo>, game: &Crumo) -> anyhow::Result<(CrumoMove, Option<f32>)> {
        let (path, value) = bot.choose_turn(game)?;
        let mv = game.move_of_turn(&path).with_context(|| {
            format!(
                "internal error: the decisions of agent {} are not one legal turn",
                bot.name
            )
        })?;
        Ok((mv, value))
    }

    fn agent_move(&mut self) -> anyhow::Result<()> {
        let who = capital(self.game.to_move());
        self.say(&format!("{who} ({}) is thinking...\n", self.bot.name))?;
        let t0 = Instant::now();
        let (mv, value) = Self::bot_move(&mut self.bot, &self.game)?;
        let secs = t0.elapsed().as_secs_f64();
        let number = self.number();
        // Say the move before `play` announces a swap's consequence.
        let text = self.game.move_text(&mv);
        let value = value.map_or(String::new(), |v| format!(", value {v:+.2} for {who}"));
        self.say(&format!(
            "{who} ({}) plays {number} {text}{value} ({secs:.1} s)\n",
            self.bot.name
        ))?;
        self.play(mv, true)?;
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
                crumble_model::NetLoader::for_encoder(<Crumo as TrainGame>::Encoder::default());
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
        let text = self.game.move_text(&mv);
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
        // `pass` and `swap` are moves; any other plain word is a mistyped command.
        if text.bytes().all(|b| b.is_ascii_lowercase()) && text != "pass" && text != "swap" {
            return self.say(&format!(
                "unknown command {text:?}: type a move like 2e5, e5-e6, pass, or one of moves, hint, undo, board, resign, quit, help\n"
            ));
        }
        let checked = notation::parse_move(self.game.geometry(), text)
            .map_err(MoveError::from)
            .and_then(|mv| self.game.resolve(&mv).map(|_| mv));
        let mv = match checked {
            Ok(mv) => mv,
            Err(e) => return self.refuse(&e),
        };
        let number = self.number();
        let played = self.game.move_text(&mv);
        self.say(&format!("you play {number} {played}\n"))?;
        self.play(mv, false)?;
        self.draw()
    }

    /// Says why a move is not legal here.
    fn refuse(&mut self, e: &MoveError) -> anyhow::Result<()> {
        let s = format!(
            "not a legal move: {}\n(`moves` lists your legal moves, `help` explains the notation)\n",
            super::escape_controls(&e.to_string())
        );
        self.say(&s)
    }

    /// The game as a Crumo record: the players by the colours they ended with, the date, the
    /// turn limit, the moves and the result (`None`: unfinished).
    fn record(&self, date: &str) -> Record<Crumo> {
        // The turn limit is a setting of this session, not part of the position: a tag.
        let mut rec = Record::new(self.start.clone());
        let name_of = |c: Color| {
            if colour_of(&self.game, self.seat) == c {
                self.name.clone()
            } else {
                self.bot.name.clone()
            }
        };
        rec.set_tag("Black", &name_of(Color::Black));
        rec.set_tag("White", &name_of(Color::White));
        rec.set_tag("Date", date);
        if self.start.turn_limit() > 0 {
            rec.set_tag("TurnLimit", &self.start.turn_limit().to_string());
        }
        for p in &self.history {
            let (first, second) = p
                .before
                .resolve(&p.mv)
                .expect("a played move resolves in the position it was played in");
            rec.push_move(std::iter::once(first).chain(second).collect(), None);
        }
        rec.end = Ending::of(&self.game);
        rec
    }

    fn run(&mut self) -> anyhow::Result<End> {
        loop {
            if self.game.is_over() {
                return Ok(End::Over);
            }
            if self.game.seat_of(self.game.to_move()) != self.seat {
                self.agent_move()?;
                continue;
            }
            let swap = if self.game.pie() == Pie::Choice {
                " (or swap)"
            } else {
                ""
            };
            let prompt = format!(
                "[turn {}] {} (you){swap}> ",
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
                "help" | "?" => self.say(HELP)?,
                "moves" => self.list_moves()?,
                "hint" => self.hint()?,
                "undo" => self.undo()?,
                "board" => self.draw()?,
                "resign" => {
                    let human = self.human();
                    self.game.finish(Outcome {
                        winner: Some(human.opposite()),
                        reason: Reason::Resignation,
                        score_halves: None,
                    });
                    self.say(&format!("{} resigns\n", capital(human)))?;
                    return Ok(End::Over);
                }
                "quit" | "exit" => return Ok(End::Stopped),
                _ => self.try_move(&line)?,
            }
        }
    }
}

/// The Crumo session of `crumble play` with the config `full` (`[game] name = "crumo"`).
pub fn run(a: &Args, full: &TrainConfig) -> anyhow::Result<ExitCode> {
    if let Some(flag) = a.pos.crumble_flags().first() {
        bail!(
            "{flag} is a Crumble flag: Crumo does not take it (its board is the config's [game] size)"
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
        None => Crumo::standard_start(full)?,
    };
    start.set_turn_limit(a.max_turns);
    let (date, stamp) = crumble_train::clock::now_stamps();
    let path = out_path(a, "crumo-game", &stamp)?;
    let loader = crumble_model::NetLoader::for_encoder(<Crumo as TrainGame>::Encoder::default());
    let mut bot = Bot::with_loader(&spec, &cfg, a.seed, &loader)?;
    bot.check(&start)?;
    let seat = match a.side {
        ViewArg::Black => Player::First,
        ViewArg::White => Player::Second,
    };
    let mut s = Session {
        seat,
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
    let seat_text = match seat {
        Player::First => "the first seat",
        Player::Second => "the second seat, which may swap on turn 2",
    };
    let intro = format!(
        "Crumo size {} ({} points): you ({}) play {} ({seat_text}) against {}. Type a move, or `help`.\n",
        s.game.size(),
        s.game.points(),
        a.name,
        capital(s.human()),
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
