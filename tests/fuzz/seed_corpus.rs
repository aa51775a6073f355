//! Writes starting corpora for the fuzz targets into `<dir>/<target>/`: position strings from
//! random playouts of every game, and move-token inputs naming real moves. A fuzzer that starts
//! from valid inputs reaches deep parser states in minutes instead of hours.

#[path = "oracles.rs"]
mod oracles;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: seed_corpus <corpus dir>");
    let dir = Path::new(&dir);
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let positions = dir.join("position");
    let tokens = dir.join("move_token");
    std::fs::create_dir_all(&positions).unwrap();
    std::fs::create_dir_all(&tokens).unwrap();
    let sessions = dir.join("ugi");
    std::fs::create_dir_all(&sessions).unwrap();
    let engines = dir.join("engine_output");
    std::fs::create_dir_all(&engines).unwrap();
    let variants = oracles::variants();
    for i in 0..400 {
        let text = oracles::random_position_string(&mut rng);
        std::fs::write(positions.join(format!("seed-{i}")), text).unwrap();
        let pick = (i % variants.len()) as u8;
        let seed: u64 = rng.gen();
        let plies: u8 = rng.gen_range(0..100);
        let pos = oracles::playout(variants[pick as usize], seed, plies as usize);
        let token = oracles::random_token(&mut rng, &pos);
        let mut input = vec![pick];
        input.extend_from_slice(&seed.to_le_bytes());
        input.push(plies);
        input.extend_from_slice(token.as_bytes());
        std::fs::write(tokens.join(format!("seed-{i}")), input).unwrap();
        if i < 120 {
            let session = oracles::random_ugi_script(&mut rng, pick);
            std::fs::write(sessions.join(format!("seed-{i}")), session).unwrap();
            let script = oracles::random_engine_script(&mut rng, pick);
            std::fs::write(engines.join(format!("seed-{i}")), script).unwrap();
        }
    }
}
