//! (c) The UGI command loop: arbitrary byte streams into `otau::ugi::serve` (`oracles::ugi_session`).
#![no_main]

#[path = "../oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracles::ugi_session(data));
