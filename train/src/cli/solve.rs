//! `crumble solve [POSITION FLAGS] [MOVE...] [--depth 1|2] [--annotate]`: the exhaustive
//! solver. Depth 1 lists every move that wins at once; depth 2 the moves that force a win
//! within the mover's next two turns (or says there is none). `--annotate` adds the marks
//! `+` and `++` and also lists the moves that only threaten a win (`+`).

use super::PositionArgs;
use crumble_core::notation::Formatter;
use crumble_core::solve::{ForcedWin, Mark, Solver};
use crumble_core::{Game, Move, perft, position};
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pos: PositionArgs,
    /// 1: moves that win at once; 2: moves that force a win within two turns.
    #[arg(long, value_name = "1|2", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=2))]
    depth: u32,
    /// Mark moves with `+` (threatens a win) and `++` (forces a win next turn), and list the
    /// `+` moves too.
    #[arg(long)]
    annotate: bool,
    /// Moves to play first, in the chosen frame.
    #[arg(value_name = "MOVE")]
    moves: Vec<String>,
}

fn sorted(game: &Game, frame: crumble_core::Frame, moves: &[(Move, &str)]) -> Vec<String> {
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
    let game = a.pos.replay(&a.moves)?;
    if let Some(o) = game.outcome() {
        anyhow::bail!(
            "the game is over (result {}): nothing to solve",
            position::outcome_text(Some(o))
        );
    }
    let frame = a.pos.frame();
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
    if a.depth == 1 {
        if at_once.is_empty() {
            let _ = writeln!(out, "# {who} to move: no move wins at once");
        } else {
            let _ = writeln!(out, "# {who} to move: {} moves win at once", at_once.len());
        }
    } else if forced.is_empty() {
        let _ = writeln!(out, "# {who} to move: no forced win within two turns");
    } else {
        let _ = writeln!(
            out,
            "# {who} to move: forced win within two turns ({} moves win at once, {} win next turn against every reply)",
            at_once.len(),
            next.len()
        );
    }
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
    let _ = writeln!(
        out,
        "# time: {:.3} s, {} states searched",
        t0.elapsed().as_secs_f64(),
        solver.nodes()
    );
    super::print(&out)?;
    Ok(ExitCode::SUCCESS)
}
