//! `crumble match A B [--games N] [--concurrency C] [--sprt elo0,elo1,alpha,beta] [--out DIR
//! [--resume]] [--opening-turns K | --openings FILE] [--max-turns T] [--config FILE]
//! [--threads T] [--seed S] [--json]`: agent A against agent B in game pairs (one opening per
//! pair, each agent Black once), many games at once with their network calls batched. Prints
//! wins, draws and losses, the score and the Elo difference with 95% intervals (from the
//! game pairs: `crumble_selfplay::stats`), and with `--sprt` the GSPRT's log-likelihood ratio
//! and bounds, stopping as soon as one is crossed. Search agents play with match settings (no
//! noise, temperature 0, no resignation). With `--out`, every finished pair is on disk at
//! once; `--resume` counts them and plays the rest, to the result an unbroken match gives.

use super::eval_args::{self, GameArgs};
use super::output::{check_output, write_output};
use crate::cli::ticker::Ticker;
use anyhow::{Context, bail};
use crumble_selfplay::AgentSpec;
use crumble_selfplay::adjudication::{Adjudication, AdjudicationTally};
use crumble_selfplay::arena::{self, Flow, PairOutcome, Pairing, Pool, RecordWriter, Tally};
use crumble_selfplay::stats::{self, Sprt, SprtStatus, fmt_elo, json_elo};
use crumble_train::config::TrainConfig;
use crumble_train::games::TrainGame;
use std::cell::RefCell;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Agent A (random, bot[:SIMS], mcts:uniform:SIMS, mcts:rollout:SIMS, ckpt:PATH[:SIMS]; solver for
    /// the test games; book:FILE[@AGENT] plays an opening book's best moves while in it, then
    /// AGENT, by default the agent that grew the book).
    a: String,
    /// Agent B.
    b: String,
    /// Games to play (rounded up to whole pairs); with --sprt, the most to play.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = crate::cli::positive::<u64>)]
    games: u64,
    /// Sequential test of elo0 against elo1 (logistic Elo of A over B) with error rates
    /// alpha and beta, e.g. `0,10,0.05,0.05`: stops when the log-likelihood ratio leaves
    /// its bounds.
    #[arg(long, value_name = "elo0,elo1,alpha,beta")]
    sprt: Option<String>,
    /// Save the games here: match-NNNNNN.crsp record files with readable .txt game records
    /// beside them, and match.json (the summary).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Replace match.json in --out if it exists.
    #[arg(long, requires = "out")]
    force: bool,
    /// Continue the match whose games are in --out (stopped, or finished and now given a
    /// larger --games): its finished pairs count as played and only the rest are played.
    /// Every other setting must be the one it started with (--out/match-settings.json).
    #[arg(long, requires = "out", conflicts_with = "force")]
    resume: bool,
    #[command(flatten)]
    game: GameArgs,
    /// Agent B searches with this config's [search] section instead (the game, the board and
    /// the openings stay --config's): a match of two settings of the search, e.g. one with
    /// `[search.lcb] enabled = true`.
    #[arg(long, value_name = "FILE")]
    b_config: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    super::on_interrupt(match &a.out {
        Some(dir) => format!(
            "the match is not finished; its finished pairs are in {}: the same command with \
             --resume plays the rest",
            dir.display()
        ),
        None => "the match is not finished; nothing was saved (--out keeps the games)".into(),
    })?;
    let specs = [AgentSpec::parse(&a.a)?, AgentSpec::parse(&a.b)?];
    let sprt = a.sprt.as_deref().map(Sprt::parse).transpose()?;
    if a.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    let inputs: Vec<&std::path::Path> = a
        .game
        .config
        .iter()
        .chain(&a.b_config)
        .map(|p| p.as_path())
        .collect();
    if let Some(dir) = &a.out {
        if !a.resume && dir.join(SETTINGS).exists() {
            bail!(
                "--out {}: a match is saved there already; --resume continues it (or choose \
                 another directory)",
                dir.display()
            );
        }
        check_output(
            "--out",
            &dir.join("match.json"),
            &inputs,
            a.force || a.resume,
        )?;
    }
    let full = a.game.full_config()?;
    crumble_train::for_game!(full.game.name.as_str(), G => play::<G>(&a, &specs, sprt, &full, &inputs))
}

/// The match in game `G` (the config's `[game] name`).
fn play<G: TrainGame>(
    a: &Args,
    specs: &[AgentSpec; 2],
    sprt: Option<Sprt>,
    full: &TrainConfig,
    inputs: &[&std::path::Path],
) -> anyhow::Result<ExitCode> {
    let cfg = full.play_config();
    let pairs = a.games.div_ceil(2);
    let openings: Vec<G> = a.game.opening_positions_of(full, pairs)?;
    eval_args::set_threads(a.game.threads);
    let loader = crumble_model::NetLoader::for_encoder(G::Encoder::default());
    let pool = Pool::<G>::new(specs, &cfg.search.for_play(), &loader)?;
    let b_config = a.b_config.as_deref().map(TrainConfig::load).transpose()?;
    if let (Some(path), Some(b)) = (&a.b_config, &b_config) {
        if b.game.name != full.game.name {
            anyhow::bail!(
                "--b-config {} is a {} config, the match is {}",
                path.display(),
                b.game.name,
                full.game.name
            );
        }
        pool.set_search(1, &b.play_config().search.for_play());
    }
    let rules = full.adjudication;
    let mut adjudicated = AdjudicationTally::default();
    let names = [specs[0].to_string(), specs[1].to_string()];
    let mut tally = Tally::default();
    let (mut writer, done) = match &a.out {
        None => (None, 0),
        Some(dir) => {
            let settings = match_settings(a, full, b_config.as_ref());
            let (writer, finished) = if a.resume {
                resume::<G>(dir, &settings, &names, pairs)?
            } else {
                let w = RecordWriter::<G>::new(dir, "match", 64)?;
                write_json(&dir.join(SETTINGS), &settings)?;
                (w, Vec::new())
            };
            for p in &finished {
                tally.add(p);
                if rules.is_on() {
                    for g in &p.games {
                        adjudicated.add::<G>(rules, g)?;
                    }
                }
            }
            (Some(writer), finished.len() as u64)
        }
    };
    let mut llr = 0.0;
    let mut status = SprtStatus::Continue;
    if let Some(s) = &sprt {
        llr = s.llr(&tally.penta);
        status = s.status(llr);
    }
    if done > 0 {
        eprintln!("match: resuming after {done} finished pairs of {pairs}");
    }
    let mut settings = a.game.pair_settings(pairs, full);
    if status != SprtStatus::Continue {
        settings.pairs = 0;
    }
    let mut clock = Ticker::every(10);
    // A progress line at most every 10 seconds: the games finished (out of order too, so a
    // long match shows progress before its first pair in order is done) and the score of
    // the pairs finished in order.
    let score = RefCell::new(String::new());
    let totals = arena::play_pairings(
        &pool,
        &[Pairing { a: 0, b: 1 }],
        &[done],
        &openings,
        &settings,
        &mut |p| {
            tally.add(p);
            if rules.is_on() {
                for g in &p.games {
                    adjudicated.add::<G>(rules, g)?;
                }
            }
            if let Some(w) = writer.as_mut() {
                for (g, &a_first) in p.games.iter().zip(&p.a_first) {
                    let (black, white) = if a_first {
                        (&names[0], &names[1])
                    } else {
                        (&names[1], &names[0])
                    };
                    w.push(g.clone(), black, white)?;
                }
                w.flush()?;
            }
            if let Some(s) = &sprt {
                llr = s.llr(&tally.penta);
                status = s.status(llr);
            }
            let e = tally.penta.elo_estimate();
            score.replace(format!(
                "; {}/{} pairs in order, A {}-{}-{} (W-D-L), score {:.3}, Elo {}{}",
                tally.penta.pairs(),
                pairs,
                tally.wdl.wins,
                tally.wdl.draws,
                tally.wdl.losses,
                tally.wdl.score(),
                fmt_elo(e.elo),
                sprt.map(|_| format!(", LLR {llr:.2}")).unwrap_or_default(),
            ));
            Ok(if status == SprtStatus::Continue {
                Flow::Continue
            } else {
                Flow::Stop
            })
        },
        &mut |r| {
            if clock.due() {
                eprintln!(
                    "match: {}/{} games finished ({} playing){}, {:.0} s",
                    2 * done + r.games_done,
                    2 * pairs,
                    r.games_running,
                    score.borrow(),
                    clock.secs()
                );
            }
        },
    )?;
    let secs = clock.secs();
    let (batches, positions) = pool.batch_stats();
    let adjudication = rules.is_on().then_some((rules, adjudicated));
    let header = Header {
        names: &names,
        openings: a.game.describe_openings(),
        max_turns: a.game.max_turns,
    };
    let mut summary = summary_json(&header, &tally, sprt.as_ref(), llr, status, Some(secs));
    summary["seed"] = a.game.seed.into();
    summary["adjudication"] = adjudication_json(adjudication);
    if let Some(dir) = &a.out {
        let path = dir.join("match.json");
        write_output(
            "--out",
            &path,
            inputs,
            a.force || a.resume,
            format!("{summary:#}\n").as_bytes(),
        )?;
    }
    if a.json {
        super::print(&format!("{summary}\n"))?;
    } else {
        let mut s = report(
            &header,
            &tally,
            pairs,
            sprt.as_ref(),
            llr,
            status,
            Some(secs),
        );
        if let Some((r, t)) = adjudication {
            s.push_str(&adjudication_line(&r, &t));
        }
        if batches > 0 {
            s.push_str(&format!(
                "network batches: {batches}, mean {:.1} positions; {:.0} simulations/s\n",
                positions as f64 / batches as f64,
                totals.simulations as f64 / secs.max(1e-9)
            ));
        }
        if let Some(dir) = &a.out {
            s.push_str(&format!("games saved in {}\n", dir.display()));
        }
        super::print(&s)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The file in `--out` that names the match's settings, for `--resume` to compare.
const SETTINGS: &str = "match-settings.json";

/// What a report says of a match besides its tally: the agents' names (A, B), the openings
/// and the turn limit.
pub(super) struct Header<'a> {
    pub names: &'a [String; 2],
    pub openings: String,
    pub max_turns: u32,
}

/// What makes a match the same match: the agents, the game's whole config (with agent B's
/// search settings), the openings, the seed and the turn limit. Not the number of games,
/// which a resumed match may raise, nor how many run at once.
fn match_settings(
    a: &Args,
    full: &TrainConfig,
    b_config: Option<&TrainConfig>,
) -> serde_json::Value {
    serde_json::json!({
        "a": a.a,
        "b": a.b,
        "config": full,
        "b_config": b_config,
        "openings": a.game.describe_openings(),
        "seed": a.game.seed,
        "max_turns": a.game.max_turns,
    })
}

fn write_json(path: &std::path::Path, value: &serde_json::Value) -> anyhow::Result<()> {
    crumble_selfplay::files::write_atomic(path, format!("{value:#}\n").as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The finished pairs of the match in `dir`, after checking that it is this match: the
/// same settings, games numbered from 0 in whole pairs, each between the agents named in the
/// seats the pair gave them, no more pairs than `pairs`.
fn resume<G: TrainGame>(
    dir: &std::path::Path,
    settings: &serde_json::Value,
    names: &[String; 2],
    pairs: u64,
) -> anyhow::Result<(RecordWriter<G>, Vec<PairOutcome>)> {
    let saved = saved_settings(dir, "--resume")?;
    let differ = differing(&saved, settings);
    if !differ.is_empty() {
        bail!(
            "--resume: the match in {} was started with other settings ({}): give the same \
             agents, config, openings, seed and --max-turns, or another --out",
            dir.display(),
            differ.join(", ")
        );
    }
    RecordWriter::<G>::resume_pairs(dir, "match", 64, [&names[0], &names[1]], 0, pairs)
        .with_context(|| format!("--resume: the games saved in {}", dir.display()))
}

/// The settings saved in `dir` when its match started (`what`: the option that named it).
pub(super) fn saved_settings(
    dir: &std::path::Path,
    what: &str,
) -> anyhow::Result<serde_json::Value> {
    let path = dir.join(SETTINGS);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "{what}: cannot read {} (written when a match starts)",
            path.display()
        )
    })?;
    serde_json::from_str(&text).with_context(|| format!("{what}: {} is not JSON", path.display()))
}

/// The settings whose values differ between two matches' settings, by name.
pub(super) fn differing<'a>(saved: &serde_json::Value, now: &'a serde_json::Value) -> Vec<&'a str> {
    let (Some(saved), Some(now)) = (saved.as_object(), now.as_object()) else {
        return vec!["(not an object)"];
    };
    now.iter()
        .filter(|(k, v)| saved.get(*k) != Some(*v))
        .map(|(k, _)| k.as_str())
        .collect()
}

/// The adjudication's settings and what it did, for the summary line.
pub(super) fn adjudication_line(r: &Adjudication, t: &AdjudicationTally) -> String {
    let mut rules = Vec::new();
    if r.resign_turns > 0 {
        rules.push(format!(
            "resign after {} turns at |value| >= {}",
            r.resign_turns, r.resign_value
        ));
    }
    if r.draw_turns > 0 {
        rules.push(format!(
            "draw after {} turns at |value| <= {} from turn {}",
            r.draw_turns, r.draw_value, r.draw_from_turn
        ));
    }
    format!(
        "adjudication ({}): {} resigned, {} drawn; {}% of games played out to check it: {} it \
         would have ended, {} of them with another result\n",
        rules.join("; "),
        t.resigned,
        t.drawn,
        100.0 * r.playout_fraction,
        t.checked,
        t.wrong
    )
}

pub(super) fn adjudication_json(a: Option<(Adjudication, AdjudicationTally)>) -> serde_json::Value {
    a.map_or(serde_json::Value::Null, |(rules, tally)| {
        serde_json::json!({ "rules": rules, "resigned": tally.resigned, "drawn": tally.drawn,
            "checked": tally.checked, "wrong": tally.wrong })
    })
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The match's report; `secs` the time it took, when known.
pub(super) fn report(
    h: &Header,
    t: &Tally,
    pairs: u64,
    sprt: Option<&Sprt>,
    llr: f64,
    status: SprtStatus,
    secs: Option<f64>,
) -> String {
    let e = t.penta.elo_estimate();
    let w = &t.wdl;
    let names = h.names;
    let limit = if h.max_turns == 0 {
        "no turn limit".to_string()
    } else {
        format!("turn limit {}", h.max_turns)
    };
    let mut s = format!(
        "{} vs {}: {} games in {} pairs ({}, each agent Black once per pair; {limit})\n",
        names[0],
        names[1],
        w.games(),
        t.penta.pairs(),
        h.openings,
    );
    s += &format!(
        "A: {} wins ({} as Black, {} as White), {} draws, {} losses; score {} [{}, {}]\n",
        w.wins,
        t.a_wins_first,
        t.a_wins_second,
        w.draws,
        w.losses,
        pct(e.score),
        pct(e.score_low),
        pct(e.score_high)
    );
    s += &format!(
        "Elo difference (A - B): {} [{}, {}] (95%, game pairs as units)\n",
        fmt_elo(e.elo),
        fmt_elo(e.elo_low),
        fmt_elo(e.elo_high)
    );
    let p = t.penta.0;
    s += &format!(
        "pairs by A's points 0, 1/2, 1, 3/2, 2: {}, {}, {}, {}, {}\n",
        p[0], p[1], p[2], p[3], p[4]
    );
    let draws = w.games() - t.first_wins - t.second_wins;
    s += &format!(
        "Black won {}, White won {}, {} drawn; mean {:.1} turns{}\n",
        t.first_wins,
        t.second_wins,
        draws,
        t.mean_turns(),
        secs.map(|s| format!("; {s:.0} s")).unwrap_or_default()
    );
    if let Some(sp) = sprt {
        let (lo, hi) = sp.bounds();
        let verdict = match status {
            SprtStatus::Continue if t.penta.pairs() >= pairs => {
                format!(
                    "no decision after {} pairs (--games reached)",
                    t.penta.pairs()
                )
            }
            SprtStatus::Continue => "no decision".into(),
            s => format!("{} after {} pairs", s.name(), t.penta.pairs()),
        };
        s += &format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} (bounds {:.2}, {:.2}): {verdict}\n",
            sp.elo0, sp.elo1, sp.alpha, sp.beta, llr, lo, hi
        );
    }
    s
}

/// The match's summary (`match.json`); `secs` the time it took, when known.
pub(super) fn summary_json(
    h: &Header,
    t: &Tally,
    sprt: Option<&Sprt>,
    llr: f64,
    status: SprtStatus,
    secs: Option<f64>,
) -> serde_json::Value {
    let names = h.names;
    let e = t.penta.elo_estimate();
    let trinomial = t.wdl.elo_estimate();
    let round = |x: f64| (x * 1e4).round() / 1e4;
    serde_json::json!({
        "a": names[0], "b": names[1],
        "games": t.wdl.games(), "pairs": t.penta.pairs(),
        "a_wins": t.wdl.wins, "draws": t.wdl.draws, "b_wins": t.wdl.losses,
        "a_wins_first": t.a_wins_first, "a_wins_second": t.a_wins_second,
        "black_wins": t.first_wins, "white_wins": t.second_wins,
        "pentanomial": t.penta.0,
        "score": round(e.score), "score_low": round(e.score_low), "score_high": round(e.score_high),
        "elo": json_elo(e.elo), "elo_low": json_elo(e.elo_low), "elo_high": json_elo(e.elo_high),
        "elo_trinomial_low": json_elo(trinomial.elo_low),
        "elo_trinomial_high": json_elo(trinomial.elo_high),
        "sprt": sprt.map(|s| {
            let (lo, hi) = s.bounds();
            serde_json::json!({
                "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                "llr": round(llr), "lower_bound": round(lo), "upper_bound": round(hi),
                "status": match status {
                    SprtStatus::Continue => "continue",
                    SprtStatus::AcceptH0 => "H0",
                    SprtStatus::AcceptH1 => "H1",
                },
            })
        }),
        "mean_turns": round(t.mean_turns()),
        "max_turns": h.max_turns,
        "openings": h.openings,
        "z": stats::Z95,
        "seconds": secs.map(|s| (s * 10.0).round() / 10.0),
    })
}
