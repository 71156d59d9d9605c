//! The ratings table of a tournament and its text, Markdown, CSV, JSON and chart forms.

use super::*;

/// One agent's line of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The agent's index among the entries.
    pub player: usize,
    pub name: String,
    pub spec: String,
    pub generation: Option<u64>,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    pub stderr: f64,
    pub games: u64,
    pub score: f64,
}

/// A finished pairing with its agents' names.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedPairing {
    pub a: String,
    pub b: String,
    pub result: PairResult,
    pub tally: Tally,
}

/// The ratings of a tournament, best first, with the pairings they rest on.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub rows: Vec<Row>,
    pub pairings: Vec<PlayedPairing>,
    /// The name of the agent rated 0.
    pub anchor: String,
    /// The fitted draw parameter ν.
    pub draw_nu: f64,
}

impl Table {
    pub fn new(
        entries: &[Entry],
        played: Vec<(PairResult, Tally)>,
        fit: &Ratings,
        anchor: usize,
    ) -> Table {
        let mut rows: Vec<Row> = entries
            .iter()
            .enumerate()
            .map(|(p, e)| {
                let (mut games, mut points) = (0u64, 0.0f64);
                for (r, _) in &played {
                    if r.a == p {
                        games += r.games();
                        points += r.a_wins as f64 + 0.5 * r.draws as f64;
                    } else if r.b == p {
                        games += r.games();
                        points += r.b_wins as f64 + 0.5 * r.draws as f64;
                    }
                }
                Row {
                    player: p,
                    name: e.name.clone(),
                    spec: e.spec.to_string(),
                    generation: e.generation,
                    elo: fit.elo[p],
                    low: fit.low[p],
                    high: fit.high[p],
                    stderr: fit.stderr[p],
                    games,
                    score: if games == 0 {
                        0.0
                    } else {
                        points / games as f64
                    },
                }
            })
            .collect();
        rows.sort_by(|x, y| y.elo.total_cmp(&x.elo));
        let pairings = played
            .into_iter()
            .map(|(result, tally)| PlayedPairing {
                a: entries[result.a].name.clone(),
                b: entries[result.b].name.clone(),
                result,
                tally,
            })
            .collect();
        Table {
            rows,
            pairings,
            anchor: entries[anchor].name.clone(),
            draw_nu: fit.draw_nu,
        }
    }

    /// The ranking as aligned plain text.
    pub fn text(&self) -> String {
        let w = self
            .rows
            .iter()
            .map(|r| r.name.len())
            .max()
            .unwrap_or(5)
            .max(5);
        let mut s = format!(
            "{:>4}  {:<w$}  {:>8}  {:>20}  {:>6}  {:>6}\n",
            "rank", "agent", "rating", "95% interval", "games", "score"
        );
        for (k, r) in self.rows.iter().enumerate() {
            let _ = writeln!(
                s,
                "{:>4}  {:<w$}  {:>8}  {:>20}  {:>6}  {:>5.1}%",
                k + 1,
                r.name,
                fmt_elo(r.elo),
                format!("[{}, {}]", fmt_elo(r.low), fmt_elo(r.high)),
                r.games,
                100.0 * r.score
            );
        }
        s
    }

    /// A Markdown report: `header` and the ranking, `footer`, then the pairings.
    pub fn markdown(&self, header: &str, footer: &str) -> String {
        let mut s = format!("# Tournament\n\n{header}.\n\n");
        s += "| rank | agent | rating | 95% interval | games | score |\n";
        s += "| ---: | --- | ---: | --- | ---: | ---: |\n";
        for (k, r) in self.rows.iter().enumerate() {
            let name = if r.name == r.spec {
                format!("`{}`", r.name)
            } else {
                format!("{} (`{}`)", r.name, r.spec)
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | [{}, {}] | {} | {:.1}% |",
                k + 1,
                name,
                fmt_elo(r.elo),
                fmt_elo(r.low),
                fmt_elo(r.high),
                r.games,
                100.0 * r.score
            );
        }
        let _ = writeln!(s, "\n{footer}\n\n## Pairings\n");
        s += "| A | B | A wins | draws | B wins | A's score | Elo (A - B), 95% from the game pairs |\n";
        s += "| --- | --- | ---: | ---: | ---: | ---: | --- |\n";
        for p in &self.pairings {
            let r = &p.result;
            let e = p.tally.penta.elo_estimate();
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {:.1}% | {} [{}, {}] |",
                p.a,
                p.b,
                r.a_wins,
                r.draws,
                r.b_wins,
                100.0 * p.tally.wdl.score(),
                fmt_elo(e.elo),
                fmt_elo(e.elo_low),
                fmt_elo(e.elo_high)
            );
        }
        s
    }

    pub fn csv(&self) -> String {
        let mut s =
            String::from("rank,name,agent,generation,elo,elo_low,elo_high,stderr,games,score\n");
        for (k, r) in self.rows.iter().enumerate() {
            let q = |t: &str| format!("\"{}\"", t.replace('"', "\"\""));
            let _ = writeln!(
                s,
                "{},{},{},{},{:.2},{:.2},{:.2},{:.2},{},{:.4}",
                k + 1,
                q(&r.name),
                q(&r.spec),
                r.generation.map(|g| g.to_string()).unwrap_or_default(),
                r.elo,
                r.low,
                r.high,
                r.stderr,
                r.games,
                r.score
            );
        }
        s
    }

    pub fn json(&self) -> Value {
        let round = |x: f64| (x * 100.0).round() / 100.0;
        json!({
            "anchor": self.anchor,
            "draw_nu": (self.draw_nu * 1e4).round() / 1e4,
            "ratings": self.rows.iter().enumerate().map(|(k, r)| json!({
                "rank": k + 1, "name": r.name, "agent": r.spec, "generation": r.generation,
                "elo": round(r.elo), "elo_low": round(r.low), "elo_high": round(r.high),
                "stderr": round(r.stderr), "games": r.games, "score": (r.score * 1e4).round() / 1e4,
                "player": r.player,
            })).collect::<Vec<_>>(),
            "pairings": self.pairings.iter().map(|p| json!({
                "a": p.a, "b": p.b,
                "a_wins": p.result.a_wins, "draws": p.result.draws, "b_wins": p.result.b_wins,
            })).collect::<Vec<_>>(),
        })
    }

    /// Rating against generation, when checkpoints of a run are among the agents; the other
    /// agents become reference lines.
    pub fn chart(&self) -> Option<Chart> {
        self.chart_by("generation", &|g| Some(f64::from(g)))
    }

    /// [`Table::chart`] against another measure of a checkpoint than its generation (`x` of
    /// the generation; a checkpoint it has no value for is left out), e.g. the CPU hours
    /// its run had spent.
    pub fn chart_by(&self, x_label: &str, x: &dyn Fn(u32) -> Option<f64>) -> Option<Chart> {
        let points: Vec<Point> = self
            .rows
            .iter()
            .filter_map(|r| {
                let g = u32::try_from(r.generation?).ok()?;
                Some(Point {
                    x: x(g)?,
                    y: r.elo,
                    low: r.low,
                    high: r.high,
                })
            })
            .collect();
        if points.is_empty() {
            return None;
        }
        let references = self
            .rows
            .iter()
            .filter(|r| r.generation.is_none())
            .map(|r| Reference {
                label: format!("{} {}", r.name, fmt_elo(r.elo)),
                y: r.elo,
                low: r.low,
                high: r.high,
            })
            .collect();
        Some(Chart {
            title: format!("Rating by {x_label} ({} = 0)", self.anchor),
            note:
                "checkpoints with 95% intervals; dashed: other agents (shaded: their 95% interval)"
                    .into(),
            x_label: x_label.into(),
            y_label: "rating (Elo), 95% interval".into(),
            points,
            references,
        })
    }
}
