//! (a) Position strings: `AnyGame::from_position` on arbitrary bytes, with the round-trip and
//! rules properties of `oracles::position_string`.
#![no_main]

#[path = "../oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracles::position_string(data));
