//! (b) Move tokens of every game, parsed in positions reached by seeded random playouts
//! (`oracles::move_token`).
#![no_main]

#[path = "../oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracles::move_token(data));
