//! `cargo bench -p crumble-core`: the rules engine's hot paths (the same figures as
//! `crumble bench rules`, measured by criterion with confidence intervals).

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use crumble_core::game::GameState;
use crumble_core::games::crumble::Crumble;
use crumble_core::games::crumble::position;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

fn rules(c: &mut Criterion) {
    let mut game = Crumble::new(6, 8).unwrap();
    game.set_max_turns(200);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    c.bench_function("random game 6x6 R=8 (turn limit 200)", |b| {
        b.iter(|| {
            game.reset_standard();
            black_box(game.play_random_game(&mut rng))
        })
    });

    let mut start = Crumble::new(6, 8).unwrap();
    let mut mid = position::from_json(position::MIDGAME_6X6_JSON).unwrap();
    let mut buf = Vec::with_capacity(4096);
    c.bench_function("legal decisions, start", |b| {
        b.iter(|| start.legal_decisions_into(black_box(&mut buf)))
    });
    c.bench_function("legal decisions, mid-game", |b| {
        b.iter(|| mid.legal_decisions_into(black_box(&mut buf)))
    });
    c.bench_function("capture resolution, mid-game", |b| {
        b.iter(|| black_box(mid.resolve_captures()))
    });
    c.bench_function("one random turn, mid-game", |b| {
        b.iter_batched_ref(
            || mid.clone(),
            |g| g.play_random_turn(&mut rng),
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, rules);
criterion_main!(benches);
