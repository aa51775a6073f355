//! The integration tests, one binary (as ripgrep's): each module is one of the former test files
//! under its old name, so `cargo test --release --test integration arena_cli::` runs what
//! `--test arena_cli` ran. The table-building tests, which dominate a run, are the other binary
//! (`tests/tables/main.rs`); both share `tests/support/`.

#[path = "../support/mod.rs"]
mod support;

/// The fuzzers' properties, shared with `tests/fuzz/` (the libFuzzer project).
#[path = "../fuzz/oracles.rs"]
mod oracles;

mod alloc_free;
mod arena_adjudication;
mod arena_builtin_options;
mod arena_cli;
mod arena_fastchess_cli;
mod arena_faults;
mod arena_knockout;
mod arena_openings;
mod arena_outputs;
mod arena_preflight;
mod arena_progress;
mod arena_protocol_log;
mod arena_runs;
mod arena_sandbox;
mod arena_swiss;
mod arena_swiss_runs;
mod arena_trust;
mod arena_values;
mod check_processes;
mod differential;
mod egtb;
mod engine_tables;
mod engine_threads;
mod env_names;
mod fuzz_regressions;
mod fuzz_smoke;
mod giuthi_rules;
mod giuthi_solve;
mod giuthi_start_proof;
mod import_layers;
mod modiar_rules;
mod notation_rules;
mod play;
mod readme_examples;
mod scripts;
mod search;
mod stats_arena;
mod stats_reference;
mod stats_sprt;
mod table_files;
mod toguz_replay;
mod toguz_rules;
mod ugi_compliance;
mod ugi_games;
mod ugi_inprocess;
mod ugi_protocol;
mod ugi_tuning;
mod web_browser;
mod web_live;
mod web_play;
mod web_server;
mod web_swiss;
