//! (d) The arena's reading of engine output: scripted replies of an in-process engine into the
//! arena's UGI client and referee (`oracles::engine_output`).
#![no_main]

#[path = "../oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(
    init: {
        // libFuzzer's C main skips Rust's start-up, which ignores SIGPIPE as otau-arena does: a
        // write to an engine that has closed its input must be an error, not the end.
        // SAFETY: setting a signal disposition before any thread writes to a pipe.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        }
    },
    |data: &[u8]| oracles::engine_output(data)
);
