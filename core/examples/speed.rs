use crumble_core::{random, Game};
use rand::SeedableRng;
fn main() {
    let mut g = Game::new(6, 8).unwrap();
    g.set_max_turns(200);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let t = std::time::Instant::now();
    let (mut turns, mut dec) = (0u64, 0u64);
    let n = 300;
    let mut wins = [0; 3];
    for _ in 0..n {
        g.reset_standard();
        dec += random::play_random_game(&mut g, &mut rng);
        turns += g.turns_played() as u64;
        let o = g.outcome().unwrap();
        wins[match o.winner { Some(crumble_core::Color::Black) => 0, Some(_) => 1, None => 2 }] += 1;
        g.board().check_invariants().unwrap();
    }
    let s = t.elapsed().as_secs_f64();
    println!("{} games/s, mean turns {}, decisions/s {}, b/w/d {:?} pieces at end {}", n as f64 / s, turns as f64 / n as f64, dec as f64 / s, wins, g.board().piece_count());
}
