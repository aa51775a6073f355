//! (d) The arena's reading of engine output: scripted replies of an in-process engine into the
//! arena's UGI client and referee (`oracles::engine_output`).
#![no_main]

#[path = "../oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracles::engine_output(data));
