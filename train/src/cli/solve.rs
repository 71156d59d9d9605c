//! `crumble solve [--game NAME] [START FLAGS] [MOVE...] [--depth 1|2] [--annotate]`: the
//! exhaustive solver. Depth 1 lists every move that wins at once; depth 2 the moves that
//! force a win within the mover's next two turns (or says there is none). `--annotate` adds
//! the marks `+` and `++` and also lists the moves that only threaten a win (`+`; Crumble's).
//! Crumble has its own fast solver; every other game is searched by the generic one.

use super::game_args::StartArgs;
use crumble_core::game::shortwin::{self, ShortWins};
use crumble_core::games::crumble::notation::Formatter;
use crumble_core::games::crumble::solve::{ForcedWin, Mark, Solver};
use crumble_core::games::crumble::{Crumble, Move};
use crumble_core::games::crumble::{perft, position};
use crumble_core::{GameState, GameText};
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    start: StartArgs,
    /// 1: moves that win at once; 2: moves that force a win within two turns.
    #[arg(long, value_name = "1|2", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=2))]
    depth: u32,
    /// Mark moves with `+` (threatens a win) and `++` (forces a win next turn), and list the
    /// `+` moves too (Crumble only).
    #[arg(long)]
    annotate: bool,
    /// Moves to play first, in the chosen frame.
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
}

fn sorted(
    game: &Crumble,
    frame: crumble_core::games::crumble::Frame,
    moves: &[(Move, &str)],
) -> Vec<String> {
    let mut f = Formatter::new(game, frame);
    let mut v: Vec<String> = moves
        .iter()
        .map(|(m, suffix)| {
            format!(
                "{}{suffix}",
                f.format(game, m).expect("a legal move prints")
            )
        })
        .collect();
    v.sort_unstable();
    v
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if a.start.game.game != Crumble::NAME {
        if a.annotate {
            anyhow::bail!(
                "--annotate marks Crumble's moves; {} takes --depth only",
                a.start.game.game
            );
        }
        let name = a.start.game.game.clone();
        return crumble_train::for_game!(name.as_str(), G => generic::<G>(&a));
    }
    let game = a.start.crumble(&a.moves)?;
    if let Some(o) = game.outcome() {
        anyhow::bail!(
            "the game is over (result {}): nothing to solve",
            position::outcome_text(Some(o))
        );
    }
    let frame = a.start.pos.frame();
    let who = game.to_move().name();
    let t0 = Instant::now();
    let mut solver = Solver::new();
    let mut out = String::new();
    let forced: Vec<(Move, ForcedWin)> = if a.depth == 1 {
        solver
            .winning_moves(&game)
            .into_iter()
            .map(|m| (m, ForcedWin::AtOnce))
            .collect()
    } else {
        solver.forced_wins(&game)
    };
    let at_once: Vec<(Move, &str)> = forced
        .iter()
        .filter(|(_, h)| *h == ForcedWin::AtOnce)
        .map(|(m, _)| (m.clone(), ""))
        .collect();
    let mate_suffix = if a.annotate { Mark::Mate.suffix() } else { "" };
    let next: Vec<(Move, &str)> = forced
        .iter()
        .filter(|(_, h)| *h == ForcedWin::NextTurn)
        .map(|(m, _)| (m.clone(), mate_suffix))
        .collect();
    header(&mut out, who, a.depth, at_once.len(), next.len());
    for line in sorted(&game, frame, &at_once)
        .into_iter()
        .chain(sorted(&game, frame, &next))
    {
        let _ = writeln!(out, "{line}");
    }
    if a.annotate {
        let mut checks = Vec::new();
        for mv in perft::all_moves(&game) {
            if forced.iter().any(|(m, _)| *m == mv) {
                continue;
            }
            if solver.threatens(&game, &mv) {
                checks.push((mv, Mark::Check.suffix()));
            }
        }
        let _ = writeln!(out, "# {} moves threaten a win (+)", checks.len());
        for line in sorted(&game, frame, &checks) {
            let _ = writeln!(out, "{line}");
        }
    }
    finish(out, t0, solver.nodes())
}

/// Every game but Crumble: the generic short-win search, moves in the game's notation.
fn generic<G: GameText>(a: &Args) -> anyhow::Result<ExitCode> {
    let setup = a.start.setup(0, &[])?;
    let game: G = setup.replay(&a.moves)?;
    let Some(who) = game.decider() else {
        anyhow::bail!(
            "the game is over (result {}): nothing to solve",
            game.result_text()
        );
    };
    let notation = setup.notation::<G>();
    let t0 = Instant::now();
    let mut solver = ShortWins::new();
    let forced: Vec<(Vec<crumble_core::Decision>, shortwin::ForcedWin)> = if a.depth == 1 {
        solver
            .winning_moves(&game)
            .into_iter()
            .map(|m| (m, shortwin::ForcedWin::AtOnce))
            .collect()
    } else {
        solver.forced_wins(&game)
    };
    let mut at_once = Vec::new();
    let mut next = Vec::new();
    for (path, how) in &forced {
        let text = game.move_text(path, notation)?;
        match how {
            shortwin::ForcedWin::AtOnce => at_once.push(text),
            shortwin::ForcedWin::NextTurn => next.push(text),
        }
    }
    at_once.sort_unstable();
    next.sort_unstable();
    let mut out = String::new();
    let who = format!("the {who} player");
    header(&mut out, &who, a.depth, at_once.len(), next.len());
    for line in at_once.iter().chain(&next) {
        let _ = writeln!(out, "{line}");
    }
    finish(out, t0, solver.nodes())
}

/// The first line: who moves and what the search found (`at_once` moves that win at once,
/// `next` that win next turn against every reply).
fn header(out: &mut String, who: &str, depth: u32, at_once: usize, next: usize) {
    let _ = if depth == 1 && at_once == 0 {
        writeln!(out, "# {who} to move: no move wins at once")
    } else if depth == 1 {
        writeln!(out, "# {who} to move: {at_once} moves win at once")
    } else if at_once + next == 0 {
        writeln!(out, "# {who} to move: no forced win within two turns")
    } else {
        writeln!(
            out,
            "# {who} to move: forced win within two turns ({at_once} moves win at once, {next} win next turn against every reply)"
        )
    };
}

/// Prints the report `out` with its last line: the time since `t0` and the states searched.
fn finish(mut out: String, t0: Instant, states: u64) -> anyhow::Result<ExitCode> {
    let _ = writeln!(
        out,
        "# time: {:.3} s, {states} states searched",
        t0.elapsed().as_secs_f64()
    );
    super::print(&out)?;
    Ok(ExitCode::SUCCESS)
}
