//! `crumble train [--config FILE] [--run-dir LOCATION] [--generations N] [--selfplay
//! local|external] ...`: the training loop (`crumble_train::run`) with a progress display: a
//! bar per phase on a terminal, a line every few seconds otherwise (logs, CI).
//!
//! A location that is a URL (`s3://bucket/prefix`) keeps the run in object storage, with a
//! local working copy in `--cache-dir`; `--selfplay external` trains on games uploaded by
//! `crumble worker` processes instead of playing them (`crumble_train::distributed`).

use crumble_selfplay::Progress;
use crumble_train::distributed::trainer::Shared;
use crumble_train::ledger::Row;
use crumble_train::run::{self, Event, TrainOptions};
use crumble_train::store::{Location, Store};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Training config. A new run defaults to configs/default.toml; a resumed run uses the
    /// config saved in its directory, and a --config that differs from it is refused.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Run location: a directory, or s3://BUCKET/PREFIX (built with --features s3); resumed
    /// when it holds a run, created otherwise. Default: a new directory under runs/ named by
    /// the date and time (UTC).
    #[arg(long, value_name = "LOCATION")]
    run_dir: Option<String>,
    /// Generations the run should have in total (default: the config's generation.total).
    #[arg(long, value_name = "N")]
    generations: Option<u32>,
    /// Stop once the run has used H CPU-hours (the ledger's cpu_s: every generation, every
    /// resume): no generation starts after that, so the run ends just past H. --generations
    /// (or the config's total) still caps it; raise both to continue a run. Runs in a
    /// directory only.
    #[arg(long, value_name = "H", value_parser = crate::cli::hours_arg)]
    cpu_hours: Option<f64>,
    /// Where self-play games come from: `local` (this process plays them) or `external`
    /// (`crumble worker` processes upload them to the run's location).
    #[arg(long, value_name = "MODE", default_value = "local", value_parser = ["local", "external"])]
    selfplay: String,
    /// Local working copy of a run kept in object storage (default:
    /// runs/cache/<location with / and : as ->).
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// External self-play: files played with a network promoted more than N promotions
    /// before the current self-play network are stale and never read (without gating each
    /// generation promotes, so N generations). Every fresh file that has arrived is used.
    #[arg(long, value_name = "N", default_value_t = 1)]
    max_lag: u32,
    /// External self-play: the most games one generation takes (whole files; default 64 times
    /// the config's [generation] games). Fresh files over it are dropped, said on the
    /// console and named in the generation's commit: the trainer cannot keep up.
    #[arg(long, value_name = "GAMES", value_parser = crate::cli::positive::<u64>)]
    intake_cap: Option<u64>,
    /// External self-play: seconds between looks for new files while waiting.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0, value_parser = crate::cli::seconds_arg)]
    poll: f64,
    /// Seconds between the pointer's heartbeats (workers pause when they stop, and a worker
    /// starts playing at the first one it sees: a heartbeat is one small write).
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0, value_parser = crate::cli::seconds_arg)]
    heartbeat: f64,
    /// Take the run's trainer lock from another holder (one that is gone for good).
    #[arg(long)]
    take_over: bool,
}

/// The run directory, and the store of a shared run (`None`: a local run as always).
fn settle_location(a: &Args) -> anyhow::Result<(Option<PathBuf>, Option<Store>)> {
    let external = a.selfplay == "external";
    let location = match &a.run_dir {
        Some(s) => Location::parse(s)?,
        None if external => {
            anyhow::bail!("--selfplay external needs --run-dir: workers join a run by its location")
        }
        None => return Ok((None, None)),
    };
    match location {
        Location::Local(dir) => {
            if a.cache_dir.is_some() {
                anyhow::bail!(
                    "--cache-dir is for a run in object storage; {} is a directory",
                    dir.display()
                );
            }
            let store = if external {
                Some(Store::open(&Location::Local(dir.clone()))?)
            } else {
                None
            };
            Ok((Some(dir), store))
        }
        Location::Url(url) => {
            let cache = a.cache_dir.clone().unwrap_or_else(|| {
                let name: String = url
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                    .collect();
                PathBuf::from("runs").join("cache").join(name)
            });
            let store = Store::open(&Location::Url(url))?;
            Ok((Some(cache), Some(store)))
        }
    }
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let (run_dir, store) = settle_location(&a)?;
    let in_store = match &store {
        Some(s) if a.run_dir.as_deref().is_some_and(|r| r.contains("://")) => {
            s.get("config.toml", 16 << 20)?.is_some()
        }
        _ => false,
    };
    let resuming = in_store
        || run_dir
            .as_ref()
            .is_some_and(|d| d.join("config.toml").exists());
    let config = match (a.config.clone(), resuming) {
        (Some(c), _) => Some(c),
        (None, true) => None,
        (None, false) => Some(PathBuf::from("configs/default.toml")),
    };
    let shared = store.map(|store| Shared {
        store,
        external: a.selfplay == "external",
        max_lag: a.max_lag,
        intake_cap: a.intake_cap,
        poll: Duration::from_secs_f64(a.poll),
        heartbeat: Duration::from_secs_f64(a.heartbeat),
        take_over: a.take_over,
    });
    let opts = TrainOptions {
        config,
        run_dir,
        runs_root: PathBuf::from("runs"),
        generations: a.generations,
        cpu_budget_s: a.cpu_hours.map(|h| h * 3600.0),
    };
    if shared.is_some() {
        *RESUME.lock().unwrap_or_else(|p| p.into_inner()) = Some(resume_command(&a));
    }
    ctrlc::set_handler(interrupted).map_err(|e| anyhow::anyhow!("cannot catch Ctrl-C: {e}"))?;
    let mut display = Display::new();
    let dir = run::train_shared(&opts, shared.as_ref(), &mut |e| {
        if let Event::Started { dir, .. } = &e {
            *RUN_DIR.lock().unwrap_or_else(|p| p.into_inner()) = Some(dir.to_path_buf());
        }
        display.event(e)
    })?;
    display.bar.finish_and_clear();
    eprintln!("run finished: {}", dir.display());
    Ok(ExitCode::SUCCESS)
}

/// The run directory, once it is ready (for the interrupt handler).
static RUN_DIR: Mutex<Option<PathBuf>> = Mutex::new(None);

/// How to resume a shared run (its location and mode, not only the working copy).
static RESUME: Mutex<Option<String>> = Mutex::new(None);

fn resume_command(a: &Args) -> String {
    let mut c = format!(
        "crumble train --run-dir {} --selfplay {}",
        a.run_dir.as_deref().unwrap_or(""),
        a.selfplay
    );
    if let Some(d) = &a.cache_dir {
        c.push_str(&format!(" --cache-dir {}", d.display()));
    }
    c
}

/// Ctrl-C: the run is safe at any moment (every file appears through a rename and the ledger
/// commits a generation), so it stops at once and says what was kept and how to resume.
fn interrupted() {
    let dir = RUN_DIR.lock().unwrap_or_else(|p| p.into_inner()).clone();
    eprintln!("\n{}", interrupt_message(dir.as_deref()));
    std::process::exit(130);
}

fn interrupt_message(dir: Option<&Path>) -> String {
    let Some(dir) = dir else {
        return "interrupted before the run directory was ready".into();
    };
    let done = crumble_train::ledger::read(&dir.join("progress.csv")).map_or(0, |r| r.len());
    let shared = RESUME.lock().unwrap_or_else(|p| p.into_inner()).clone();
    if let Some(cmd) = shared {
        return format!(
            "interrupted: {done} finished generation(s) are kept in {d}; an uncommitted \
             generation is gathered again from the files in the store. Resume with: {cmd}",
            d = dir.display()
        );
    }
    format!(
        "interrupted: {done} finished generation(s) are kept in {d}; the generation in \
         progress keeps its finished self-play games and goes on from them. Resume with: \
         crumble train --run-dir {d}",
        d = dir.display()
    )
}

/// The progress display.
struct Display {
    bar: ProgressBar,
    terminal: bool,
    last_line: Instant,
    phase: String,
    target: u32,
    /// The CPU budget (seconds) and the ledger's CPU time when this process started.
    cpu_budget_s: Option<f64>,
    cpu_at_start: f64,
    run_start: Instant,
    gens_this_process: u32,
    gen_start: Instant,
}

impl Display {
    fn new() -> Display {
        let terminal = std::io::stderr().is_terminal();
        let bar = if terminal {
            ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:.bold} [{bar:28.cyan/blue}] {pos}/{len} {msg} (ETA {eta})",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        Display {
            bar,
            terminal,
            last_line: Instant::now(),
            phase: String::new(),
            target: 0,
            cpu_budget_s: None,
            cpu_at_start: 0.0,
            run_start: Instant::now(),
            gens_this_process: 0,
            gen_start: Instant::now(),
        }
    }

    /// Shows a phase's progress; off a terminal, prints it at most every 10 seconds.
    fn show(&mut self, phase: String, pos: u64, len: u64, msg: String) {
        if phase != self.phase {
            self.phase = phase.clone();
            self.bar.reset();
            self.bar.set_prefix(phase.clone());
            self.last_line = Instant::now() - Duration::from_secs(60);
        }
        self.bar.set_length(len);
        self.bar.set_position(pos);
        self.bar.set_message(msg.clone());
        if !self.terminal && (self.last_line.elapsed() >= Duration::from_secs(10) || pos == len) {
            self.last_line = Instant::now();
            eprintln!("{phase}: {pos}/{len} {msg}");
        }
    }

    fn say(&self, line: String) {
        if self.terminal {
            self.bar.println(line);
        } else {
            eprintln!("{line}");
        }
    }

    fn event(&mut self, e: Event) {
        match e {
            Event::Started {
                dir,
                resumed_from,
                target,
                cpu_s,
                cpu_budget_s,
            } => self.started(dir, resumed_from, target, cpu_s, cpu_budget_s),
            Event::SelfPlay {
                generation,
                progress,
                seconds,
            } => self.self_play(generation, progress, seconds),
            Event::Gather {
                generation,
                games,
                wanted,
                files,
                seconds,
            } => {
                self.show(
                    format!("gen {generation}/{} gather", self.target),
                    games.min(wanted),
                    wanted,
                    format!("games from workers ({files} files, {seconds:.0} s waiting)"),
                );
            }
            Event::Dropped {
                generation,
                files,
                used,
            } => self.say(format!(
                "gen {generation}: the trainer is behind the workers: used {used} files, dropped \
                 {files} fresh files over the intake cap (named in the commit; raise \
                 --intake-cap or train faster)"
            )),
            Event::EvalDropped {
                generation,
                evaluated,
            } => self.say(format!(
                "gen {generation}: the evaluation of gen-{evaluated:04} running beside the run was \
                 stopped unfinished; the last generation's own evaluation comes first"
            )),
            Event::Train {
                generation,
                step,
                steps,
                stats,
            } => {
                self.show(
                    format!("gen {generation}/{} train", self.target),
                    step,
                    steps,
                    format!(
                        "steps, policy loss {:.3}, value loss {:.3}{}{}{}",
                        stats.policy_loss,
                        stats.value_loss,
                        aux_loss("ownership", stats.ownership_loss),
                        aux_loss("short-term value", stats.short_value_loss),
                        aux_loss("soft policy", stats.soft_policy_loss),
                    ),
                );
            }
            Event::Eval {
                generation,
                opponent,
                tally,
                total,
            } => self.show(
                format!("gen {generation}/{} eval vs {opponent}", self.target),
                tally.wdl.games(),
                total,
                format!(
                    "games, score {:.3} (+{} ={} -{})",
                    tally.wdl.score(),
                    tally.wdl.wins,
                    tally.wdl.draws,
                    tally.wdl.losses
                ),
            ),
            Event::Finished { generation, row } => self.finished(generation, row),
        }
    }

    /// Self-play's progress: games, games per hour, simulations per second.
    fn self_play(&mut self, generation: u32, progress: &Progress, seconds: f64) {
        let per_hour = progress.games_done as f64 * 3600.0 / seconds.max(1e-9);
        let sims = progress.simulations as f64 / seconds.max(1e-9);
        self.show(
            format!("gen {generation}/{} self-play", self.target),
            progress.games_done,
            progress.games_total,
            format!("games, {per_hour:.0} games/h, {sims:.0} sims/s"),
        );
    }

    /// The run's first line: a new run or a resumed one, and the target.
    fn started(
        &mut self,
        dir: &Path,
        resumed_from: u32,
        target: u32,
        cpu_s: f64,
        budget: Option<f64>,
    ) {
        self.target = target;
        self.cpu_budget_s = budget;
        self.cpu_at_start = cpu_s;
        self.run_start = Instant::now();
        self.gen_start = Instant::now();
        // Two decimals, more for a small budget (a test's) so it does not read as 0.
        let hours = |s: f64| match s / 3600.0 {
            h if h < 0.1 => format!("{h:.4}"),
            h => format!("{h:.2}"),
        };
        let goal = match budget {
            Some(b) => format!(
                "{target} generations or {} CPU-hours, {} used",
                hours(b),
                hours(cpu_s)
            ),
            None => format!("{target} generations"),
        };
        if resumed_from >= target && resumed_from > 0 {
            self.say(format!(
                "run {} has {resumed_from} generations already, as many as the target of \
                 {target} (the config's generation.total unless --generations is given): \
                 nothing to train; --generations N continues it to N",
                dir.display()
            ));
        } else if let Some(b) = budget.filter(|&b| cpu_s >= b) {
            self.say(format!(
                "run {} has used {} CPU-hours already, the budget of {}: nothing to train; \
                 a larger --cpu-hours continues it",
                dir.display(),
                hours(cpu_s),
                hours(b)
            ));
        } else if resumed_from > 0 {
            self.say(format!(
                "resuming run {} after generation {resumed_from} (target {goal})",
                dir.display()
            ));
        } else {
            self.say(format!(
                "training run {} ({goal}); TensorBoard: scripts/tensorboard.sh {}",
                dir.display(),
                dir.display()
            ));
        }
    }

    /// A generation's summary line, with the run's time left.
    fn finished(&mut self, generation: u32, row: &Row) {
        self.gens_this_process += 1;
        let per_gen = self.run_start.elapsed().as_secs_f64() / f64::from(self.gens_this_process);
        let mut gens_left = f64::from(self.target.saturating_sub(generation));
        // A CPU budget may end the run first: its generations left at this process's CPU
        // time per generation.
        if let Some(b) = self.cpu_budget_s {
            let per_gen_cpu = (row.cpu_s - self.cpu_at_start) / f64::from(self.gens_this_process);
            if per_gen_cpu > 0.0 {
                gens_left = gens_left.min(((b - row.cpu_s) / per_gen_cpu).max(0.0).ceil());
            }
        }
        let left = gens_left * per_gen;
        let score = |v: f64| {
            if v.is_finite() {
                format!("{v:.2}")
            } else {
                "-".into()
            }
        };
        // An evaluation that ran beside the run names the checkpoint it measured.
        let measured = if row.eval_net.is_finite() && row.eval_net != f64::from(generation) {
            format!("gen-{:04} ", row.eval_net)
        } else {
            String::new()
        };
        self.say(format!(
            "gen {generation}/{}: {:.0} s, {} games ({:.0} turns), policy {:.3} value {:.3} entropy {:.2}, {measured}vs previous {} random {} rollout {}, elo {:+.0}, run ETA {}",
            self.target,
            self.gen_start.elapsed().as_secs_f64(),
            row.games,
            row.mean_turns,
            row.policy_loss,
            row.value_loss,
            row.policy_entropy,
            score(row.score_vs_previous),
            score(row.score_vs_random),
            score(row.score_vs_rollout),
            row.elo,
            hms(left)
        ));
        self.gen_start = Instant::now();
    }
}

fn hms(secs: f64) -> String {
    let s = secs.max(0.0) as u64;
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}

/// `, NAME loss X` for an auxiliary loss the run trains, nothing for one it does not (NaN).
fn aux_loss(name: &str, loss: f32) -> String {
    if loss.is_finite() {
        format!(", {name} loss {loss:.3}")
    } else {
        String::new()
    }
}
