//! Fuzz targets for the parsers of untrusted input, one binary for all of them: the target
//! is picked by `CRUMBLE_FUZZ_TARGET` (see `../fuzz.sh`, which also builds the seed corpora
//! with `crumble-fuzz make-seeds DIR`).
//!
//! Each target feeds the fuzzer's bytes to one parser and, when the input is accepted,
//! checks that printing and parsing again gives the same value: a crash is a panic, a
//! hang, an out-of-memory or a round trip that changes the value. The binary formats carry
//! checksums, which random mutations would almost never satisfy, so their targets first
//! write the right checksum over the input's last eight bytes and reach the decoder proper.

use crumble_core::games::crumble::notation::{Frame, format_move, parse_move};
use crumble_core::games::crumble::Crumble;
use crumble_core::games::crumble::{position, record};
use crumble_selfplay::record as crsp;
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
            crumble_core::games::crumble::random::play_random_turn(&mut g, &mut rng);
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

fn position_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(g) = position::from_json(text) {
        let json = position::to_json(&g);
        let again = position::from_json(&json)
            .unwrap_or_else(|e| panic!("printed position does not parse: {e}\n{json}"));
        assert_eq!(position::to_json(&again), json, "position round trip");
    }
}

fn record_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(r) = record::parse(text) {
        let written = r.write();
        let again = record::parse(&written)
            .unwrap_or_else(|e| panic!("printed record does not parse: {e}\n{written}"));
        assert_eq!(again.write(), written, "record round trip");
        let _ = r.replay(None);
    }
}

fn crsp_file(data: &[u8]) {
    let bytes = fix_checksum(data);
    if let Ok(games) = crsp::decode_file(&bytes) {
        assert_eq!(crsp::encode_file(&games), bytes, "record file round trip");
        for g in &games {
            // Replaying and converting must refuse bad games, never panic.
            if g.replay().is_ok() {
                let _ = g.to_game_record();
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
                put(target, &name, &std::fs::read(&p)?)?;
            }
        }
        Ok(())
    };
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
            crumble_core::games::crumble::random::play_random_turn_recorded(&mut g, &mut rng, &mut path);
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
                    policy: vec![(*d, 1.0)],
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
                position::to_json(&g).as_bytes(),
            )?;
        }
        let rec = crsp::GameRecord {
            index: i as u64,
            board: n,
            resolution: r,
            max_turns: 12,
            start: None,
            steps,
            outcome: g.outcome().expect("the game is over"),
            would_resign: None,
        };
        if let Ok(text) = rec.to_game_record() {
            put("record", &format!("g{i}.txt"), text.write().as_bytes())?;
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
