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
use crumble_core::games::crumble::Crumble;
use crumble_core::games::crumble::notation::{Formatter, Frame, parse_move};
use crumble_core::{Color, Decision, GameText};
use std::fmt::Write as _;

mod report;

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
}
