//! Opening statistics: the tree of the first moves of a set of games, with how often each
//! line was played, how its games ended (with 95% intervals), how long they lasted, and
//! optionally what a network thinks of it (the prior of each move, the value of each
//! position).
//!
//! Moves are canonical notation in the per-player frame (`crumble_core::games::crumble::notation`), so one
//! line of play has one spelling. Only games from the standard start count (games from
//! random openings, as matches play them, start elsewhere); games still unfinished count
//! nowhere.
//!
//! Intervals: each result's share (Black wins, White wins, draws) has a Wilson score
//! interval; Black's score (wins + draws/2) has the normal interval of
//! [`crate::stats::Wdl::elo_estimate`], games as units. The root's score is Black's overall
//! score: the first-move advantage.
//!
//! With a [`Judge`], every position in the (pruned) tree gets a value from the view of its
//! player to move, and every move the prior of the complete move: the product of the priors
//! of its decisions (`DESIGN.md`: a turn is a path of decisions; the network's policy is
//! over single decisions).

use crate::record::{GameRecord, RecordError};
use crate::stats::{EloEstimate, Wdl, Z95, wilson};
use crumble_core::GameState as _;
use crumble_core::game::record::Record;
use crumble_core::games::crumble::notation::{Formatter, Frame, parse_move};
use crumble_core::games::crumble::render::Highlight;
use crumble_core::games::crumble::render::svg::{self, SvgOptions};
use crumble_core::games::crumble::{Crumble, Move};
use crumble_core::{Color, Decision, GameText};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// The first moves of one finished game and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The first moves (at most the tree's depth), per-player notation.
    pub moves: Vec<String>,
    pub winner: Option<Color>,
    /// Turns the whole game lasted.
    pub turns: u32,
}

/// Why a game could not be read into a line.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("game {game}: {message}")]
    Crumble { game: String, message: String },
    #[error("evaluating {line}: {message}")]
    Judge { line: String, message: String },
}

/// A board: size `N` and resolution `R`.
pub type BoardSize = (u16, u16);

/// Board size and resolution of games from the standard start; `None` for another start.
fn standard_size(g: &Crumble) -> Option<BoardSize> {
    let b = g.board();
    let (n, r) = (b.board_size(), b.resolution());
    let mut plain = g.clone();
    plain.set_max_turns(0);
    (Crumble::new(n, r).ok()? == plain && g.turns_played() == 0).then_some((n, r))
}

/// The line of a self-play or match record (`None` if it does not start at the standard
/// start), with its board size and resolution.
pub fn line_of_record(
    rec: &GameRecord,
    depth: usize,
) -> Result<Option<(Line, BoardSize)>, RecordError> {
    let start: Crumble = rec.start_state()?;
    let Some(size) = standard_size(&start) else {
        return Ok(None);
    };
    let mut moves = Vec::new();
    let end = crate::games::crumble::replay_moves(rec, |before, mv| {
        if moves.len() < depth {
            moves.push(
                Formatter::new(before, Frame::PerPlayer)
                    .format(before, &mv)
                    .expect("a played move prints"),
            );
        }
        moves.len() < depth
    })?;
    let turns = end.turns_played();
    Ok(Some((
        Line {
            moves,
            winner: rec.winner().map(Into::into),
            turns,
        },
        size,
    )))
}

/// The line of a text game record (`None` if it does not start at the standard start or has
/// no result).
pub fn line_of_text_record(
    rec: &Record<Crumble>,
    depth: usize,
) -> Result<Option<(Line, BoardSize)>, String> {
    let Some(size) = standard_size(&rec.start) else {
        return Ok(None);
    };
    let last = rec.final_position().map_err(|e| e.to_string())?;
    let Some(winner) = rec.winner(&last) else {
        return Ok(None);
    };
    let mut g = rec.start.clone();
    let mut moves = Vec::new();
    for (i, turn) in rec.moves.iter().take(depth).enumerate() {
        moves.push(
            g.move_text(turn, Frame::PerPlayer)
                .map_err(|e| format!("move {}: {e}", i + 1))?,
        );
        for &d in turn {
            g.apply(d).map_err(|e| format!("move {}: {e}", i + 1))?;
        }
    }
    Ok(Some((
        Line {
            moves,
            winner,
            turns: rec.moves.len() as u32,
        },
        size,
    )))
}

/// Scores a position and its moves (a network through the search's evaluator, say).
pub trait Judge {
    /// Value of `game` (a live position at a turn start) from its player to move's view.
    fn value(&mut self, game: &Crumble) -> Result<f32, String>;
    /// Prior of the complete move `path` (its decisions) from `game`.
    fn move_prior(&mut self, game: &Crumble, path: &[Decision]) -> Result<f64, String>;
}

/// One position of the tree: the games through it and, below, the moves played from it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Node {
    /// The moves from the start to this position.
    pub line: Vec<String>,
    pub games: u64,
    pub black_wins: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub turns: u64,
    /// Most played first (then by notation).
    pub children: Vec<Node>,
    /// The judge's prior of the last move of `line`, from the position before it.
    pub prior: Option<f64>,
    /// The judge's value of this position, for its player to move.
    pub value: Option<f32>,
}

impl Node {
    /// Results from Black's view.
    pub fn black_wdl(&self) -> Wdl {
        Wdl {
            wins: self.black_wins,
            draws: self.draws,
            losses: self.white_wins,
        }
    }

    /// Black's score with its interval.
    pub fn black_score(&self) -> EloEstimate {
        self.black_wdl().elo_estimate()
    }

    pub fn mean_turns(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.turns as f64 / self.games as f64
        }
    }

    fn add(&mut self, line: &Line, at: usize) {
        self.games += 1;
        self.turns += u64::from(line.turns);
        match line.winner {
            Some(Color::Black) => self.black_wins += 1,
            Some(Color::White) => self.white_wins += 1,
            None => self.draws += 1,
        }
        if let Some(mv) = line.moves.get(at) {
            let k = match self.children.iter().position(|c| c.line.last() == Some(mv)) {
                Some(k) => k,
                None => {
                    let mut l = self.line.clone();
                    l.push(mv.clone());
                    self.children.push(Node {
                        line: l,
                        ..Node::default()
                    });
                    self.children.len() - 1
                }
            };
            self.children[k].add(line, at + 1);
        }
    }

    fn sort(&mut self) {
        self.children
            .sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.line.cmp(&b.line)));
        for c in &mut self.children {
            c.sort();
        }
    }

    fn prune(&mut self, min: u64) {
        self.children.retain(|c| c.games >= min);
        for c in &mut self.children {
            c.prune(min);
        }
    }

    fn walk<'a>(&'a self, out: &mut Vec<&'a Node>) {
        out.push(self);
        for c in &self.children {
            c.walk(out);
        }
    }

    fn last_move(&self) -> &str {
        self.line.last().map_or("(start)", |s| s.as_str())
    }
}

/// The opening tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    pub board: u16,
    pub resolution: u16,
    pub depth: usize,
    pub root: Node,
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn interval(k: u64, n: u64) -> (f64, f64) {
    wilson(k as f64, n as f64, Z95)
}

/// Moves written as a numbered line: `1. 1HN 5,5HSWS 2. 0H`.
pub fn numbered(line: &[String]) -> String {
    let mut s = String::new();
    for (i, m) in line.iter().enumerate() {
        if i % 2 == 0 {
            let _ = write!(s, "{}{}. ", if i > 0 { " " } else { "" }, i / 2 + 1);
        } else {
            s.push(' ');
        }
        s.push_str(m);
    }
    s
}

impl Tree {
    /// Builds the tree of `lines` (all from the standard start of `board`×`board`, R =
    /// `resolution`) to `depth` moves.
    pub fn build(lines: &[Line], board: u16, resolution: u16, depth: usize) -> Tree {
        let mut root = Node::default();
        for l in lines {
            let mut l = l.clone();
            l.moves.truncate(depth);
            root.add(&l, 0);
        }
        root.sort();
        Tree {
            board,
            resolution,
            depth,
            root,
        }
    }

    /// Drops every line played fewer than `min` times (the root stays).
    pub fn prune(&mut self, min: u64) {
        self.root.prune(min);
    }

    /// Every node, depth first, most played first.
    pub fn nodes(&self) -> Vec<&Node> {
        let mut v = Vec::new();
        self.root.walk(&mut v);
        v
    }

    /// The position after `line`.
    pub fn position(&self, line: &[String]) -> Result<Crumble, String> {
        let mut g = Crumble::new(self.board, self.resolution).map_err(|e| e.to_string())?;
        for m in line {
            let mv = parse_move(&g, m, Frame::PerPlayer).map_err(|e| format!("{m}: {e}"))?;
            g.play_move(&mv).map_err(|e| format!("{m}: {e}"))?;
        }
        Ok(g)
    }

    /// Fills in every node's value and every move's prior.
    pub fn annotate(&mut self, judge: &mut dyn Judge) -> Result<(), OpeningsError> {
        let (board, resolution) = (self.board, self.resolution);
        let probe = Tree {
            board,
            resolution,
            depth: self.depth,
            root: Node::default(),
        };
        fn go(probe: &Tree, node: &mut Node, judge: &mut dyn Judge) -> Result<(), OpeningsError> {
            let fail = |message: String| OpeningsError::Judge {
                line: if node.line.is_empty() {
                    "the start".into()
                } else {
                    numbered(&node.line)
                },
                message,
            };
            let game = probe.position(&node.line).map_err(fail)?;
            if game.is_over() {
                return Ok(());
            }
            node.value = Some(judge.value(&game).map_err(fail)?);
            for c in &mut node.children {
                let text = c.line.last().expect("a child has a move");
                let mv = parse_move(&game, text, Frame::PerPlayer)
                    .map_err(|e| fail(format!("{text}: {e}")))?;
                let path = game
                    .move_decisions(&mv)
                    .map_err(|e| fail(format!("{text}: {e}")))?;
                c.prior = Some(judge.move_prior(&game, &path).map_err(fail)?);
                go(probe, c, judge)?;
            }
            Ok(())
        }
        go(&probe, &mut self.root, judge)
    }

    /// Black's overall score with its interval (the first-move advantage).
    pub fn black_score(&self) -> EloEstimate {
        self.root.black_score()
    }

    fn summary(&self) -> String {
        let e = self.black_score();
        format!(
            "{} games from the standard {n}×{n} start (R = {}); Black scores {} [{}, {}] (95%), Elo {} [{}, {}]; Black won {}, White won {}, {} drawn; mean {:.1} turns",
            self.root.games,
            self.resolution,
            pct(e.score),
            pct(e.score_low),
            pct(e.score_high),
            crate::stats::fmt_elo(e.elo),
            crate::stats::fmt_elo(e.elo_low),
            crate::stats::fmt_elo(e.elo_high),
            self.root.black_wins,
            self.root.white_wins,
            self.root.draws,
            self.root.mean_turns(),
            n = self.board
        )
    }

    /// A Markdown report: the summary and one table row per line, indented by depth.
    pub fn markdown(&self, min_count: u64) -> String {
        let mut s = format!(
            "# Openings\n\n{}.\n\nLines of up to {} moves played at least {min_count} times; moves in per-player notation. Shares of results with 95% Wilson intervals; Black's score (draws half) with its 95% interval.\n\n",
            self.summary(),
            self.depth
        );
        let annotated = self.root.value.is_some();
        s += "| line | games | share | Black wins | White wins | draws | Black's score | mean turns |";
        if annotated {
            s += " prior | value (to move) |";
        }
        s += "\n| --- | ---: | ---: | --- | --- | --- | --- | ---: |";
        if annotated {
            s += " ---: | ---: |";
        }
        s.push('\n');
        let parent_games = |n: &Node| -> u64 {
            if n.line.is_empty() {
                n.games
            } else {
                self.find(&n.line[..n.line.len() - 1])
                    .map_or(n.games, |p| p.games)
            }
        };
        for n in self.nodes() {
            let indent = "&nbsp;&nbsp;".repeat(n.line.len().saturating_sub(1));
            let name = if n.line.is_empty() {
                "(all games)".to_string()
            } else {
                let prefix = if n.line.len() % 2 == 1 {
                    format!("{}. ", n.line.len().div_ceil(2))
                } else {
                    format!("{}... ", n.line.len() / 2)
                };
                format!("{indent}{prefix}`{}`", n.last_move())
            };
            let share = |k: u64| {
                let (lo, hi) = interval(k, n.games);
                format!(
                    "{} [{:.1}, {:.1}]",
                    pct(k as f64 / n.games.max(1) as f64),
                    100.0 * lo,
                    100.0 * hi
                )
            };
            let e = n.black_score();
            let _ = write!(
                s,
                "| {name} | {} | {} | {} | {} | {} | {} [{:.1}, {:.1}] | {:.1} |",
                n.games,
                pct(n.games as f64 / parent_games(n).max(1) as f64),
                share(n.black_wins),
                share(n.white_wins),
                share(n.draws),
                pct(e.score),
                100.0 * e.score_low,
                100.0 * e.score_high,
                n.mean_turns()
            );
            if annotated {
                let _ = write!(
                    s,
                    " {} | {} |",
                    n.prior.map_or("".into(), |p| format!("{p:.4}")),
                    n.value.map_or("".into(), |v| format!("{v:+.3}"))
                );
            }
            s.push('\n');
        }
        s
    }

    fn find(&self, line: &[String]) -> Option<&Node> {
        let mut n = &self.root;
        for m in line {
            n = n.children.iter().find(|c| c.line.last() == Some(m))?;
        }
        Some(n)
    }

    fn node_json(n: &Node) -> Value {
        let e = n.black_score();
        let share = |k: u64| {
            let (lo, hi) = interval(k, n.games);
            json!({"count": k, "share": k as f64 / n.games.max(1) as f64, "low": lo, "high": hi})
        };
        json!({
            "move": n.line.last(),
            "line": n.line,
            "games": n.games,
            "black_wins": share(n.black_wins),
            "white_wins": share(n.white_wins),
            "draws": share(n.draws),
            "black_score": {"score": e.score, "low": e.score_low, "high": e.score_high},
            "mean_turns": n.mean_turns(),
            "prior": n.prior,
            "value_to_move": n.value,
            "children": n.children.iter().map(Tree::node_json).collect::<Vec<_>>(),
        })
    }

    /// The whole tree as JSON.
    pub fn json(&self) -> Value {
        let e = self.black_score();
        json!({
            "board": self.board,
            "resolution": self.resolution,
            "depth": self.depth,
            "frame": "per-player",
            "games": self.root.games,
            "black_score": {"score": e.score, "low": e.score_low, "high": e.score_high,
                            "elo": crate::stats::json_elo(e.elo),
                            "elo_low": crate::stats::json_elo(e.elo_low),
                            "elo_high": crate::stats::json_elo(e.elo_high)},
            "tree": Tree::node_json(&self.root),
        })
    }

    /// One CSV row per node.
    pub fn csv(&self) -> String {
        let mut s = String::from(
            "depth,line,move,games,black_wins,white_wins,draws,black_score,black_score_low,black_score_high,mean_turns,prior,value_to_move\n",
        );
        for n in self.nodes() {
            let e = n.black_score();
            let _ = writeln!(
                s,
                "{},\"{}\",\"{}\",{},{},{},{},{:.4},{:.4},{:.4},{:.2},{},{}",
                n.line.len(),
                n.line.join(" "),
                n.line.last().map_or("", |s| s.as_str()),
                n.games,
                n.black_wins,
                n.white_wins,
                n.draws,
                e.score,
                e.score_low,
                e.score_high,
                n.mean_turns(),
                n.prior.map_or(String::new(), |p| format!("{p:.6}")),
                n.value.map_or(String::new(), |v| format!("{v:.4}"))
            );
        }
        s
    }

    /// The `top` most played first moves, each drawn on the board (the position after it,
    /// the move highlighted) with its share and Black's score: a grid of small boards.
    pub fn svg(&self, top: usize) -> Result<String, String> {
        let start = Crumble::new(self.board, self.resolution).map_err(|e| e.to_string())?;
        let firsts: Vec<&Node> = self.root.children.iter().take(top.max(1)).collect();
        let cols = firsts.len().clamp(1, 4);
        let rows = firsts.len().div_ceil(cols).max(1);
        // Three caption lines under each board: move and share; Black's score and length;
        // the evaluator's prior and value (when there is one).
        let (pw, ph, cap) = (300.0, 330.0, 84.0);
        let (w, h) = (cols as f64 * pw + 20.0, rows as f64 * (ph + cap) + 110.0);
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n"
        );
        let e = self.black_score();
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"32\" text-anchor=\"middle\" font-size=\"20\" font-weight=\"bold\">Most played first moves ({} games)</text>",
            w / 2.0,
            self.root.games
        );
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"56\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555\">Black scores {} [{}, {}] overall</text>\n<text x=\"{0:.1}\" y=\"76\" text-anchor=\"middle\" font-size=\"14\" fill=\"#555\">each board: the position after the move, Black at the bottom</text>",
            w / 2.0,
            pct(e.score),
            pct(e.score_low),
            pct(e.score_high)
        );
        for (k, n) in firsts.iter().enumerate() {
            let text = n.last_move();
            let mv: Move =
                parse_move(&start, text, Frame::PerPlayer).map_err(|e| format!("{text}: {e}"))?;
            let mut after = start.clone();
            after.play_move(&mv).map_err(|e| format!("{text}: {e}"))?;
            let board = svg::render(
                &after,
                &SvgOptions {
                    view: Color::Black,
                    coords: true,
                    highlight: Highlight::of(&start, &mv),
                    last_move: Some(text.to_string()),
                },
            );
            // Nest the board as a sized sub-picture; its marker id must stay unique.
            let (x, y) = (
                10.0 + (k % cols) as f64 * pw,
                100.0 + (k / cols) as f64 * (ph + cap),
            );
            let board = board
                .replacen(
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" ",
                    &format!("<svg x=\"{x}\" y=\"{y}\" width=\"{pw}\" height=\"{ph}\" "),
                    1,
                )
                .replace("id=\"arrow\"", &format!("id=\"arrow{k}\""))
                .replace("url(#arrow)", &format!("url(#arrow{k})"));
            s += &board;
            let e = n.black_score();
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">{}. {text}: {} of games (n = {})</text>",
                x + pw / 2.0,
                y + ph + 20.0,
                k + 1,
                pct(n.games as f64 / self.root.games.max(1) as f64),
                n.games
            );
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"13\" fill=\"#444\">Black {} [{}, {}]; {:.0} turns</text>",
                x + pw / 2.0,
                y + ph + 40.0,
                pct(e.score),
                pct(e.score_low),
                pct(e.score_high),
                n.mean_turns(),
            );
            let judged: Vec<String> = [
                n.prior.map(|p| format!("prior {p:.3}")),
                n.value.map(|v| format!("value to move {v:+.3}")),
            ]
            .into_iter()
            .flatten()
            .collect();
            if !judged.is_empty() {
                let _ = writeln!(
                    s,
                    "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"13\" fill=\"#444\">{}</text>",
                    x + pw / 2.0,
                    y + ph + 58.0,
                    judged.join(", ")
                );
            }
        }
        s += "</svg>\n";
        Ok(s)
    }
}
