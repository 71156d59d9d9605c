//! Fuzz targets for the parsers of untrusted input, one binary for all of them: the target
//! is picked by `CRUMBLE_FUZZ_TARGET` (see `../fuzz.sh`, which also builds the seed corpora
//! with `crumble-fuzz make-seeds DIR`).
//!
//! Each target feeds the fuzzer's bytes to one parser and, when the input is accepted,
//! checks that printing and parsing again gives the same value: a crash is a panic, a
//! hang, an out-of-memory or a round trip that changes the value. The binary formats carry
//! checksums, which random mutations would almost never satisfy, so their targets first
//! write the right checksum over the input's last eight bytes and reach the decoder proper.

use crumble_core::game::record::Record;
use crumble_core::games::crumble::notation::{Frame, format_move, parse_move};
use crumble_core::games::crumble::{Crumble, CrumbleStart, position};
use crumble_core::{GameState, GameText};
use crumble_selfplay::record as crsp;
use crumble_train::for_game;
use crumble_train::games::GAMES;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

const TARGETS: &[&str] = &[
    "notation",
    "position",
    "record",
    "crsp",
    "checkpoint",
    "config",
];

/// FNV-1a, 64 bit: the checksum of both binary formats.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The input with a correct trailing checksum (inputs shorter than one are left alone).
fn fix_checksum(data: &[u8]) -> Vec<u8> {
    let mut v = data.to_vec();
    if v.len() >= 8 {
        let body = v.len() - 8;
        let sum = fnv1a(&v[..body]);
        v[body..].copy_from_slice(&sum.to_le_bytes());
    }
    v
}

/// Positions the notation target parses moves in: starts of several sizes, and games
/// after some random turns (both players to move, so both frames are exercised).
fn positions() -> Vec<Crumble> {
    let mut out = Vec::new();
    for (n, r) in [(6, 8), (4, 4), (8, 2), (3, 1)] {
        if let Ok(g) = Crumble::new(n, r) {
            out.push(g);
        }
    }
    if let Ok(g) = position::from_json(include_str!("../../../core/data/midgame-6x6.json")) {
        out.push(g);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for turns in [1, 2, 5, 9] {
        let mut g = Crumble::new(6, 8).expect("standard size");
        for _ in 0..turns {
            g.play_random_turn(&mut rng);
        }
        out.push(g);
    }
    out
}

fn notation(data: &[u8], games: &[Crumble]) {
    if data.len() < 2 {
        return;
    }
    let game = &games[usize::from(data[0]) % games.len()];
    let frame = if data[1] & 1 == 0 {
        Frame::PerPlayer
    } else {
        Frame::Absolute
    };
    let Ok(text) = std::str::from_utf8(&data[2..]) else {
        return;
    };
    if let Ok(mv) = parse_move(game, text, frame) {
        let written = format_move(game, &mv, frame)
            .unwrap_or_else(|| panic!("parsed {text:?} to {mv:?}, which does not format"));
        let again = parse_move(game, &written, frame)
            .unwrap_or_else(|e| panic!("{text:?} -> {written:?} does not parse again: {e}"));
        assert_eq!(again, mv, "{text:?} -> {written:?} parses to another move");
        let mut g = game.clone();
        let _ = g.play_move(&mv);
    }
}

/// The game a `position` or `record` input is of: its first byte picks one of the registry
/// (every game's text is fuzzed), the rest is the text.
fn game_and_text(data: &[u8]) -> Option<(&'static str, &str)> {
    let (b, rest) = data.split_first()?;
    Some((GAMES[usize::from(*b) % GAMES.len()], std::str::from_utf8(rest).ok()?))
}

fn position_json(data: &[u8]) {
    if let Some((game, text)) = game_and_text(data) {
        for_game!(game, G => position_round_trip::<G>(text));
    }
}

fn position_round_trip<G: GameText>(text: &str) {
    if let Ok(g) = G::from_position_json(text) {
        let json = g.position_json();
        let again = G::from_position_json(&json)
            .unwrap_or_else(|e| panic!("printed position does not parse: {e}\n{json}"));
        assert_eq!(again.position_json(), json, "position round trip");
    }
}

fn record_text(data: &[u8]) {
    if let Some((game, text)) = game_and_text(data) {
        for_game!(game, G => record_round_trip::<G>(text));
    }
}

fn record_round_trip<G: GameText>(text: &str) {
    if let Ok(r) = Record::<G>::parse(text) {
        let written = r.write();
        let again = Record::<G>::parse(&written)
            .unwrap_or_else(|e| panic!("printed record does not parse: {e}\n{written}"));
        assert_eq!(again.write(), written, "record round trip");
        let _ = r.ended_positions();
    }
}

fn crsp_file(data: &[u8]) {
    let bytes = fix_checksum(data);
    if let Ok(games) = crsp::decode_file(&bytes) {
        assert_eq!(crsp::encode_file(&games), bytes, "record file round trip");
        for g in &games {
            // Replaying and converting must refuse bad games, never panic.
            if GAMES.contains(&g.game.as_str()) {
                let _ = for_game!(g.game.as_str(), G => {
                    crumble_selfplay::text_record::text_record::<G>(g, None)
                });
            }
        }
    }
}

fn checkpoint(data: &[u8], device: &crumble_model::Device) {
    let bytes = fix_checksum(data);
    let _ = crumble_model::checkpoint::decode(&bytes, "fuzz", device);
}

fn train_config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(c) = crumble_train::config::TrainConfig::from_toml_str(text, "fuzz") {
        let written = c.to_toml_string();
        let again = crumble_train::config::TrainConfig::from_toml_str(&written, "fuzz")
            .unwrap_or_else(|e| panic!("printed config does not parse: {e}\n{written}"));
        assert_eq!(again, c, "training config round trip");
    }
}

fn selfplay_config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(c) = crumble_selfplay::config::ConfigFile::from_toml_str(text, "fuzz") {
        let written = toml::to_string(&c).expect("a config serialises");
        let again = crumble_selfplay::config::ConfigFile::from_toml_str(&written, "fuzz")
            .unwrap_or_else(|e| panic!("printed config does not parse: {e}\n{written}"));
        assert_eq!(again, c, "self-play config round trip");
    }
}

/// A Crumble text as a `position` or `record` input (see [`game_and_text`]).
fn crumble_input(text: &[u8]) -> Vec<u8> {
    let k = GAMES.iter().position(|&g| g == Crumble::NAME).expect("Crumble is registered");
    let mut b = vec![k as u8];
    b.extend_from_slice(text);
    b
}

/// Seeds of game `G` (registry index `k`) for the `position` and `record` targets: the
/// positions of a random game (at most 30 turns) and its record.
fn seed_texts<G: GameText>(
    k: u8,
    rng: &mut ChaCha8Rng,
    put: &dyn Fn(&str, &str, &[u8]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let Ok(mut g) = G::from_start(&G::Start::default()) else {
        return Ok(());
    };
    let mut rec = Record::new(g.clone());
    let mut path = Vec::new();
    for turn in 0..30 {
        if g.is_over() {
            break;
        }
        g.play_random_turn_recorded(rng, &mut path);
        rec.push_move(path.clone(), (turn % 3 == 0).then(|| "value +0.25".to_string()));
        let mut b = vec![k];
        b.extend_from_slice(g.position_json().as_bytes());
        put("position", &format!("{}-{turn}.json", G::NAME), &b)?;
    }
    let mut b = vec![k];
    b.extend_from_slice(rec.write().as_bytes());
    put("record", &format!("{}.txt", G::NAME), &b)
}

/// Writes a seed corpus for every target under `dir/TARGET/`, from the project's own data
/// and from games and networks made here (there are no checked-in record or checkpoint
/// files).
fn make_seeds(dir: &Path) -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let put = |target: &str, name: &str, bytes: &[u8]| -> std::io::Result<()> {
        let d = dir.join(target);
        std::fs::create_dir_all(&d)?;
        std::fs::write(d.join(name), bytes)
    };
    let copy_dir = |target: &str, from: &str, ext: &str| -> std::io::Result<()> {
        for e in std::fs::read_dir(root.join(from))? {
            let p = e?.path();
            if p.extension().is_some_and(|x| x == ext) {
                let name = p.file_name().unwrap().to_string_lossy().to_string();
                put(target, &name, &crumble_input(&std::fs::read(&p)?))?;
            }
        }
        Ok(())
    };
    // Crumble's position files (the other games' positions come from their records).
    copy_dir("position", "core/data", "json")?;
    copy_dir("position", "train/tests/data", "json")?;
    // Config seeds: a leading byte 0 (training config) or 1 (self-play config file).
    for e in std::fs::read_dir(root.join("configs"))? {
        let p = e?.path();
        if p.extension().is_some_and(|x| x == "toml") {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            for k in [0u8, 1] {
                let mut b = vec![k];
                b.extend_from_slice(&std::fs::read(&p)?);
                put("config", &format!("{k}-{name}"), &b)?;
            }
        }
    }
    // Random games: their positions, text records, move texts and record files.
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let games = positions();
    let mut records = Vec::new();
    for (i, (n, r)) in [(4u16, 4u16), (6, 8), (5, 2)].into_iter().enumerate() {
        let mut g = Crumble::new(n, r).expect("standard size");
        g.set_max_turns(12);
        let mut steps = Vec::new();
        let mut path = Vec::new();
        while !g.is_over() {
            let before = g.clone();
            g.play_random_turn_recorded(&mut rng, &mut path);
            if let Ok(mv) = before.move_from_decisions(&path) {
                for frame in [Frame::PerPlayer, Frame::Absolute] {
                    if let Some(t) = format_move(&before, &mv, frame) {
                        // Filed under position 0, where most of them are not legal: they give
                        // the fuzzer real move syntax to mutate.
                        let mut b = vec![0u8, (frame == Frame::Absolute) as u8];
                        b.extend_from_slice(t.as_bytes());
                        put(
                            "notation",
                            &format!("g{i}-{}-{}", steps.len(), frame.name()),
                            &b,
                        )?;
                    }
                }
            }
            for (k, d) in path.iter().enumerate() {
                let search = (k == 0 && rng.random_bool(0.5)).then(|| crsp::SearchRecord {
                    value: 0.25,
                    full: true,
                    proven: None,
                    policy: vec![(*d, 1.0)],
                    prior: vec![0.5],
                    joint: Vec::new(),
                });
                steps.push(crsp::StepRecord {
                    decision: *d,
                    kind: if search.is_some() {
                        crsp::StepKind::Searched
                    } else {
                        crsp::StepKind::Random
                    },
                    search,
                });
            }
            put(
                "position",
                &format!("g{i}-{}.json", steps.len()),
                &crumble_input(position::to_json(&g).as_bytes()),
            )?;
        }
        let rec = crsp::GameRecord {
            index: i as u64,
            game: Crumble::NAME.into(),
            start: crsp::start_json::<Crumble>(&CrumbleStart::standard(n, r)),
            max_turns: 12,
            steps,
            result: g.game_result().expect("the game is over"),
            ending: crsp::Ending::Rules,
            would_resign: None,
            agents: None,
        };
        if let Ok(text) = crumble_selfplay::text_record::text_record::<Crumble>(&rec, None) {
            put("record", &format!("g{i}.txt"), &crumble_input(text.as_bytes()))?;
        }
        put(
            "crsp",
            &format!("g{i}.crsp"),
            &crsp::encode_file(std::slice::from_ref(&rec)),
        )?;
        records.push(rec);
    }
    put("crsp", "all.crsp", &crsp::encode_file(&records))?;
    // Moves at each start position the target knows, in both frames.
    for (gi, game) in games.iter().enumerate() {
        let mut g = game.clone();
        for (k, mv) in g.base_moves().into_iter().take(6).enumerate() {
            for frame in [Frame::PerPlayer, Frame::Absolute] {
                if let Some(t) = format_move(game, &mv, frame) {
                    let mut b = vec![gi as u8, (frame == Frame::Absolute) as u8];
                    b.extend_from_slice(t.as_bytes());
                    put("notation", &format!("p{gi}-{k}-{}", frame.name()), &b)?;
                }
            }
        }
    }
    // Every game's texts: a random game's record and its positions, under its byte.
    for (k, &name) in GAMES.iter().enumerate() {
        for_game!(name, G => seed_texts::<G>(k as u8, &mut rng, &put))?;
    }
    // Small networks (a checkpoint of the default net is ~1 MB, too big to mutate well).
    let device = crumble_model::default_device();
    for (i, (res, cells, ch, blocks)) in [(2, 1, 2, 1), (2, 2, 3, 2), (4, 2, 2, 0)]
        .into_iter()
        .enumerate()
    {
        let mut c = crumble_model::NetConfig::new();
        c.resolution = res;
        c.cell_pixels = cells;
        c.channels = ch;
        c.blocks = blocks;
        c.gpool_every = 1;
        c.value_hidden = 2;
        let net = c.init(&device).expect("a valid config");
        let bytes = crumble_model::checkpoint::encode(&c, &net).expect("finite weights");
        put("checkpoint", &format!("net{i}.crnet"), &bytes)?;
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 3 && args[1] == "make-seeds" {
        if let Err(e) = make_seeds(Path::new(&args[2])) {
            eprintln!("make-seeds: {e}");
            std::process::exit(1);
        }
        return;
    }
    let target = std::env::var("CRUMBLE_FUZZ_TARGET").unwrap_or_default();
    if !TARGETS.contains(&target.as_str()) {
        eprintln!("set CRUMBLE_FUZZ_TARGET to one of {}", TARGETS.join(", "));
        std::process::exit(2);
    }
    let games = positions();
    let device = crumble_model::default_device();
    afl::fuzz!(|data: &[u8]| {
        match target.as_str() {
            "notation" => notation(data, &games),
            "position" => position_json(data),
            "record" => record_text(data),
            "crsp" => crsp_file(data),
            "checkpoint" => checkpoint(data, &device),
            // Both config formats in one target (its first byte picks which): TOML parsing is
            // shared, and an hour of fuzzing is split over fewer targets.
            _ => match data.split_first() {
                Some((b, rest)) if b & 1 == 0 => train_config(rest),
                Some((_, rest)) => selfplay_config(rest),
                None => {}
            },
        }
    });
}
