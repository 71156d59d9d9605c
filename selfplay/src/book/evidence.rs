//! Game evidence beside a book's search values: the results of played games (self-play,
//! matches) counted at every book position and book move they passed through, once per
//! game and canonical position or move, whatever the orientation or move order a game
//! reached it in. It is shown beside the search values and never mixed into them: a book's
//! values come from its searches alone.

use super::Book;
use crate::record::GameRecord;
use crate::stats::Wdl;
use crumble_core::{GameResult, GameState, Player};
use std::collections::{BTreeSet, HashMap};

/// Results of the games through one position or move, in the first player's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub first_wins: u64,
    pub draws: u64,
    pub second_wins: u64,
}

impl Tally {
    fn add(&mut self, r: GameResult) {
        match r {
            GameResult::Win(Player::First) => self.first_wins += 1,
            GameResult::Win(Player::Second) => self.second_wins += 1,
            GameResult::Draw => self.draws += 1,
        }
    }

    pub fn games(&self) -> u64 {
        self.first_wins + self.draws + self.second_wins
    }

    /// Wins, draws and losses of player `p` (`None`, a finished game: the first player).
    pub fn for_player(&self, p: Option<Player>) -> Wdl {
        let (wins, losses) = if p == Some(Player::Second) {
            (self.second_wins, self.first_wins)
        } else {
            (self.first_wins, self.second_wins)
        };
        Wdl {
            wins,
            draws: self.draws,
            losses,
        }
    }
}

/// The games of one source (a label such as the files' path) counted over a book.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evidence {
    /// Where the games came from.
    pub source: String,
    /// Games read, and those that never reached a book position (another game or start).
    pub games: u64,
    pub outside: u64,
    /// By node.
    pub nodes: HashMap<u32, Tally>,
    /// By node and edge (a book move).
    pub moves: HashMap<(u32, u32), Tally>,
}

impl Evidence {
    /// The tally of node `id` (empty when no game passed through it).
    pub fn node(&self, id: u32) -> Tally {
        self.nodes.get(&id).copied().unwrap_or_default()
    }

    /// The tally of edge `edge` of node `id`.
    pub fn edge(&self, id: u32, edge: u32) -> Tally {
        self.moves.get(&(id, edge)).copied().unwrap_or_default()
    }

    /// The games through node `id` (with `edges` book moves) that went on by a move outside
    /// the book (or stopped there).
    pub fn other(&self, id: u32, edges: u32) -> Tally {
        let mut t = self.node(id);
        for e in 0..edges {
            let m = self.edge(id, e);
            t.first_wins = t.first_wins.saturating_sub(m.first_wins);
            t.draws = t.draws.saturating_sub(m.draws);
            t.second_wins = t.second_wins.saturating_sub(m.second_wins);
        }
        t
    }
}

/// The book nodes and the book moves (node, edge) a game passed through.
type Passages = (BTreeSet<u32>, BTreeSet<(u32, u32)>);

impl<G: GameState> Book<G> {
    /// Counts `games` labelled `source` over the book. A game of another game, or one whose
    /// moves the rules refuse, counts as outside (it is checked, not trusted).
    pub fn evidence<'a>(
        &self,
        source: &str,
        games: impl IntoIterator<Item = &'a GameRecord>,
    ) -> Evidence {
        let mut ev = Evidence {
            source: source.into(),
            ..Evidence::default()
        };
        for g in games {
            ev.games += 1;
            let Some((nodes, moves)) = self.passages(g) else {
                ev.outside += 1;
                continue;
            };
            if nodes.is_empty() {
                ev.outside += 1;
            }
            for id in nodes {
                ev.nodes.entry(id).or_default().add(g.result);
            }
            for m in moves {
                ev.moves.entry(m).or_default().add(g.result);
            }
        }
        ev
    }

    /// The book nodes and book moves game `g` passed through (each once); `None` when it is
    /// not a game of `G` or does not replay.
    fn passages(&self, g: &GameRecord) -> Option<Passages> {
        let mut s: G = g.start_state().ok()?;
        let mut nodes = BTreeSet::new();
        let mut moves = BTreeSet::new();
        // The node the turn in progress started at.
        let mut from = self.lookup(&s).filter(|_| s.at_turn_start());
        nodes.extend(from);
        for step in &g.steps {
            s.apply(step.decision).ok()?;
            if !(s.at_turn_start() || s.is_over()) {
                continue;
            }
            let here = self.lookup(&s);
            if let (Some(p), Some(c)) = (from, here)
                && let Some(e) = self.node(p).edges.iter().position(|e| e.child == c)
            {
                moves.insert((p, e as u32));
            }
            nodes.extend(here);
            from = here;
        }
        Some((nodes, moves))
    }
}

/// A tally as JSON for the player `p` to move: the source, wins, draws and losses, and the
/// score with its 95% interval (games taken as independent).
pub fn tally_json(source: &str, t: Tally, p: Option<Player>) -> serde_json::Value {
    let w = t.for_player(p);
    let e = w.elo_estimate();
    serde_json::json!({
        "source": source,
        "games": w.games(),
        "wins": w.wins,
        "draws": w.draws,
        "losses": w.losses,
        "score": e.score,
        "score_low": e.score_low,
        "score_high": e.score_high,
    })
}

/// A tally as text for the player `p` to move: `12 games, 58% [31%, 81%]`, or `-`.
pub fn tally_text(t: Tally, p: Option<Player>) -> String {
    let w = t.for_player(p);
    if w.games() == 0 {
        return "-".into();
    }
    let e = w.elo_estimate();
    format!(
        "{} ({}/{}/{}), {:.0}% [{:.0}%, {:.0}%]",
        w.games(),
        w.wins,
        w.draws,
        w.losses,
        100.0 * e.score,
        100.0 * e.score_low,
        100.0 * e.score_high
    )
}
