//! The test game (tic-tac-toe) through the whole pipeline: self-play, a few generations of
//! training with evaluation, records, checkpoints and a match against the exact solver, with
//! no Crumble code involved outside the rules crate. (Whether the loop *learns* the game is
//! a longer run, outside `cargo test`: see `configs/tictactoe.toml`.)

use crumble_core::GameState;
use crumble_core::games::crumble::Crumble;
use crumble_core::games::tictactoe::TicTacToe;
use crumble_model::{NetEvaluator, NetLoader, TicTacToeEncoder};
use crumble_selfplay::arena::{self, Flow, Openings, PairSettings, Pool, Tally};
use crumble_selfplay::record::read_file;
use crumble_selfplay::selfplay::record_files;
use crumble_selfplay::{AgentSpec, GameRecord, SearchConfig};
use crumble_train::run::{Event, TrainOptions, checkpoint_path, train};
use std::path::{Path, PathBuf};

const CONFIG: &str = r#"
[game]
name = "tictactoe"

[net]
channels = 8
blocks = 1
gpool_every = 1
value_hidden = 8

[selfplay]
max_turns = 0
parallel_games = 8
games_per_file = 8
seed = 3
opening_share = 0.0

[search]
simulations = 8

[generation]
total = 2
games = 12
threads = 2
rollout_mix = [[1, 0.5], [2, 0.0]]

[replay]
window_min = 50
window_max = 500

[optim]
batch_size = 16
steps_per_generation = 4
warmup_steps = 1

[eval]
every = 1
games_vs_previous = 2
games_vs_random = 2
games_vs_rollout = 2
rollout_simulations = 4
simulations = 4
max_turns = 0
parallel_games = 4
opening_turns = 0
"#;

fn fresh_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("crumble-ttt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Trains the run `base/run` on `config` for `generations` generations, events to
/// `on_event`; returns the run's directory.
fn train_run(
    base: &Path,
    config: PathBuf,
    generations: u32,
    on_event: &mut (dyn FnMut(Event) + Send),
) -> PathBuf {
    let run = base.join("run");
    let opts = TrainOptions {
        config: Some(config),
        run_dir: Some(run.clone()),
        runs_root: base.to_path_buf(),
        generations: Some(generations),
        cpu_budget_s: None,
    };
    train(&opts, on_event).unwrap();
    run
}

/// The self-play records of generation `g` of `run`.
fn generation_games(run: &Path, g: u32) -> Vec<GameRecord> {
    let mut games = Vec::new();
    for f in record_files(&run.join(format!("replay/gen-{g:04}"))).unwrap() {
        games.extend(read_file(&f).unwrap());
    }
    games
}

/// The agents of a match: the checkpoint of `run`'s generation `g` searching `simulations`
/// times, and `opponent`.
fn checkpoint_and(run: &Path, g: u32, simulations: u32, opponent: &str) -> [AgentSpec; 2] {
    let ckpt = checkpoint_path(run, g);
    [
        AgentSpec::parse(&format!("ckpt:{}:{simulations}", ckpt.display())).unwrap(),
        AgentSpec::parse(opponent).unwrap(),
    ]
}

/// The run's checkpoint of generation `g` is not a Crumble network: loading it as one fails.
fn assert_not_a_crumble_network(run: &Path, g: u32) {
    let err =
        NetEvaluator::load(&checkpoint_path(run, g), crumble_model::default_device()).unwrap_err();
    assert!(err.to_string().contains("this game needs"), "{err}");
}

/// A match of `pairs` game pairs between the two agents of `specs` from `openings`, played
/// as `crumble match` plays it; the first agent's tally.
fn play_match<G: crumble_train::games::TrainGame>(
    specs: &[AgentSpec],
    loader: &NetLoader<G::Encoder>,
    standard: &G,
    openings: &Openings<G>,
    pairs: u64,
    max_turns: u32,
) -> Tally {
    let pool = Pool::<G>::new(specs, &SearchConfig::default().for_play(), loader).unwrap();
    let starts = arena::opening_positions(standard, openings, pairs, 0).unwrap();
    let settings = PairSettings {
        pairs,
        max_turns,
        concurrency: 4,
        seed: 5,
        adjudication: Default::default(),
    };
    arena::play_match(&pool, &starts, &settings, &mut |_| Flow::Continue).unwrap()
}

#[test]
fn tictactoe_runs_through_selfplay_training_evaluation_and_a_match() {
    let base = fresh_dir("pipeline");
    let cfg = base.join("ttt.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let run = train_run(&base, cfg, 2, &mut |_| {});

    // The ledger has both generations, with evaluation scores.
    let ledger = std::fs::read_to_string(run.join("progress.csv")).unwrap();
    assert_eq!(ledger.lines().count(), 3, "{ledger}");

    // Self-play records name their game and replay through its rules; their text is the
    // generic one (decisions as numbers).
    for g in 1..=2 {
        let games = generation_games(&run, g);
        assert_eq!(games.len(), 12, "generation {g}");
        for rec in &games {
            assert_eq!(rec.game, "tictactoe");
            let end: TicTacToe = rec.replay().unwrap();
            assert!(end.is_over());
            assert!(rec.steps.len() <= 9);
            let text = crumble_selfplay::text_record::text_record::<TicTacToe>(rec, None).unwrap();
            assert!(text.starts_with("[Game \"tictactoe\"]"), "{text}");
            // Another game's rules refuse the record by name.
            assert!(rec.replay::<Crumble>().is_err());
        }
    }

    // The last checkpoint plays a match against the exact solver on the one engine; the
    // solver never loses.
    let specs = checkpoint_and(&run, 2, 8, "solver");
    let loader = NetLoader::for_encoder(TicTacToeEncoder);
    let standard = TicTacToe::from_start(&Default::default()).unwrap();
    let tally = play_match(&specs, &loader, &standard, &Openings::Standard, 4, 0);
    assert_eq!(tally.wdl.games(), 8);
    assert_eq!(tally.wdl.wins, 0, "nobody beats perfect play: {tally:?}");

    // A tic-tac-toe network is refused as a Crumble one, and the solver refuses Crumble.
    assert_not_a_crumble_network(&run, 2);
    let err = Pool::<Crumble>::new(
        &specs[1..],
        &SearchConfig::default(),
        &crumble_selfplay::NoCheckpoints,
    )
    .unwrap_err();
    assert!(err.to_string().contains("too large to solve"), "{err}");
    let _ = std::fs::remove_dir_all(&base);
}

/// Splinter runs through the same pipeline from its tiny config: self-play records of
/// Splinter, training, evaluation, and a checkpoint that plays Splinter and is refused as a
/// Crumble network.
#[test]
fn splinter_tiny_config_runs_through_the_pipeline() {
    use crumble_core::games::splinter::Splinter;
    use crumble_model::SplinterEncoder;
    let base = fresh_dir("splinter");
    let config = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../configs/splinter-tiny.toml");
    let run = train_run(&base, config, 2, &mut |_| {});
    let ledger = std::fs::read_to_string(run.join("progress.csv")).unwrap();
    assert_eq!(ledger.lines().count(), 3, "{ledger}");
    let games = generation_games(&run, 2);
    assert_eq!(games.len(), 4);
    for rec in &games {
        assert_eq!(rec.game, "splinter");
        let end: Splinter = rec.replay().unwrap();
        assert!(end.is_over());
        assert_eq!(end.board().width(), 5);
        assert!(rec.replay::<Crumble>().is_err());
    }
    let specs = checkpoint_and(&run, 2, 4, "random");
    let loader = NetLoader::for_encoder(SplinterEncoder);
    let standard = Splinter::standard(5, 6).unwrap();
    let tally = play_match(&specs, &loader, &standard, &Openings::RandomTurns(2), 2, 30);
    assert_eq!(tally.wdl.games(), 4);
    assert_not_a_crumble_network(&run, 2);
    let _ = std::fs::remove_dir_all(&base);
}

/// `[game.start]` is the game's start specification, checked by the game (Splinter's rule
/// 2.1, Crumo's encoder grid, Crumble's board and resolution); the keys it replaced name it.
/// Crumble's board of the earlier layout (`[selfplay] board` and `resolution`, kept by every
/// run directory of that time) reads as its `[game.start]`.
#[test]
fn game_start_settings_are_checked() {
    use crumble_train::config::TrainConfig;
    use crumble_train::games::TrainGame;
    let base = fresh_dir("game-start-config");
    for (text, says) in [
        (
            "[game]\nname = \"splinter\"\nwidth = 7\n",
            "moved to [game.start]",
        ),
        ("[game]\nname = \"crumo\"\nsize = 5\n", "`size = 5`"),
        (
            "[game]\nname = \"crumble\"\n[game.start]\nboard = 7\n",
            "resolution",
        ),
        ("[game.start]\nboard = 6\nresolution = 3\n", "game.start"),
        (
            "[game]\nname = \"splinter\"\n[selfplay]\nboard = 6\n",
            "selfplay.board",
        ),
        (
            "[game.start]\nboard = 6\nresolution = 8\n[selfplay]\nresolution = 4\n",
            "there only",
        ),
        (
            "[game]\nname = \"splinter\"\n[game.start]\nwidth = 4\nheight = 8\n",
            "game.start",
        ),
        (
            "[game]\nname = \"splinter\"\n[game.start]\nwidth = 7\n",
            "height",
        ),
        (
            "[game]\nname = \"crumo\"\n[game.start]\nsize = 14\n",
            "game.start",
        ),
    ] {
        let path = base.join("c.toml");
        std::fs::write(&path, text).unwrap();
        let err = TrainConfig::load(&path).unwrap_err().to_string();
        assert!(err.contains(says), "{text}: {err}");
    }
    let path = base.join("ok.toml");
    std::fs::write(
        &path,
        "[game]\nname = \"splinter\"\n[game.start]\nwidth = 9\nheight = 10\n",
    )
    .unwrap();
    let cfg = TrainConfig::load(&path).unwrap();
    let start = crumble_core::games::splinter::Splinter::standard_start(&cfg).unwrap();
    assert_eq!((start.board().width(), start.board().height()), (9, 10));
    let old = TrainConfig::from_toml_str("[selfplay]\nboard = 4\nresolution = 4\n", "old");
    let new = TrainConfig::from_toml_str("[game.start]\nboard = 4\nresolution = 4\n", "new");
    assert_eq!(old.unwrap(), new.unwrap());
    let one = TrainConfig::from_toml_str("[selfplay]\nboard = 5\n", "old").unwrap();
    let start = crumble_core::games::crumble::Crumble::standard_start(&one).unwrap();
    assert_eq!(
        (start.board().board_size(), start.board().resolution()),
        (5, 8)
    );
    assert_eq!(
        crumble_core::games::crumble::Crumble::net_config(&one).resolution,
        8
    );
    let _ = std::fs::remove_dir_all(&base);
}

/// `[eval] background = "always"`: no generation waits for its own evaluation (a row holds
/// an earlier checkpoint's, named in `eval_net`), the last generation is evaluated in the
/// loop, and gating promotes a net when its evaluation lands, never before.
#[test]
fn evaluation_beside_the_loop_lands_later_and_gates_when_it_lands() {
    use crumble_train::ledger;
    let base = fresh_dir("background-eval");
    let cfg = base.join("ttt.toml");
    let text = CONFIG.replace(
        "opening_turns = 0\n",
        "opening_turns = 0\nbackground = \"always\"\ngating = true\ngating_threshold = 0.0\n",
    );
    std::fs::write(&cfg, text).unwrap();
    let mut eval_events = 0;
    let run = train_run(&base, cfg, 6, &mut |e| {
        if let Event::Eval { .. } = e {
            eval_events += 1;
        }
    });
    let rows = ledger::read(&run.join("progress.csv")).unwrap();
    assert_eq!(rows.len(), 6);
    assert!(eval_events > 0);
    let mut best = 0.0;
    let mut measured = 0.0;
    for r in &rows {
        if r.eval_net.is_finite() {
            assert!(
                r.eval_net > measured,
                "each checkpoint lands once, in order"
            );
            measured = r.eval_net;
            if r.generation < 6.0 {
                assert!(
                    r.eval_net < r.generation,
                    "row {} waited for its own",
                    r.generation
                );
            }
            assert!(r.score_vs_previous.is_finite() && r.score_vs_rollout.is_finite());
            // Threshold 0: every evaluated net is promoted when its evaluation lands.
            assert_eq!(r.promoted, 1.0);
            best = r.eval_net;
        } else {
            assert!(r.score_vs_previous.is_nan() && r.eval_s.is_nan());
            assert_eq!(r.promoted, 0.0, "no net is promoted without an evaluation");
        }
        assert_eq!(r.best_net, best, "row {}", r.generation);
    }
    assert_eq!(
        rows[5].eval_net, 6.0,
        "the last checkpoint is measured in the loop"
    );
    let _ = std::fs::remove_dir_all(&base);
}

/// `--cpu-hours`: no generation starts once the ledger's CPU time has reached the budget
/// (judged by the ledger, not the clock, so where the run stops does not depend on timing),
/// and the generation target still caps the run.
#[test]
fn a_cpu_budget_stops_the_run_by_its_ledger() {
    let base = fresh_dir("budget");
    let cfg = base.join("ttt.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let run = train_run(&base, cfg.clone(), 1, &mut |_| {});
    let rows = || crumble_train::ledger::read(&run.join("progress.csv")).unwrap();
    let used = rows()[0].cpu_s;
    assert!(used > 0.0, "generation 1 used {used} CPU seconds");
    let resume = |generations: u32, budget: f64| {
        let opts = TrainOptions {
            config: Some(cfg.clone()),
            run_dir: Some(run.clone()),
            runs_root: base.clone(),
            generations: Some(generations),
            cpu_budget_s: Some(budget),
        };
        let mut started = None;
        train(&opts, &mut |e| {
            if let Event::Started {
                cpu_s,
                cpu_budget_s,
                ..
            } = e
            {
                started = Some((cpu_s, cpu_budget_s));
            }
        })
        .unwrap();
        started.expect("a Started event")
    };

    // The budget is used up: nothing more, though the target allows four more generations.
    assert_eq!(resume(5, used), (used, Some(used)));
    assert_eq!(rows().len(), 1);
    // Just short of it: one more generation, which passes it.
    resume(5, used + 1e-6);
    let after = rows();
    assert_eq!(after.len(), 2);
    assert!(after[1].cpu_s > used + 1e-6);
    // A budget far off: the target of 3 generations ends the run.
    resume(3, 1e9);
    assert_eq!(rows().len(), 3);
    let _ = std::fs::remove_dir_all(&base);
}
