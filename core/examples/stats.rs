use crumble_core::{random, Game, Base};
use rand::SeedableRng;
fn main() {
    let mut g = Game::new(6, 8).unwrap();
    g.set_max_turns(200);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let (mut turns, mut pieces, mut splits, mut joins) = (0u64, 0u64, 0u64, 0u64);
    for _ in 0..30 {
        g.reset_standard();
        while !g.is_over() {
            let b = g.base_moves();
            turns += 1; pieces += g.board().piece_count() as u64;
            for m in &b { match m.base { Base::Split{..} => splits += 1, Base::Join{..} => joins += 1 } }
            random::play_random_turn(&mut g, &mut rng);
        }
    }
    println!("per turn: pieces {:.1} splits {:.1} joins {:.1}", pieces as f64/turns as f64, splits as f64/turns as f64, joins as f64/turns as f64);
}
