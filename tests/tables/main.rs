//! The slow integration tests, apart so that the fast binary (`tests/integration/main.rs`) can be
//! run alone: each builds, reads or proves whole tables (the Bestemshe solution, the Modiar table
//! and its real-rule self-play), and together they are most of a run's time.
//! `cargo test --release` runs both binaries.

// The fast binary compiles the same module and reports any helper no test uses; this one uses
// only the part the table tests need.
#[allow(dead_code)]
#[path = "../support/mod.rs"]
mod support;

mod bestemshe_solve;
mod modiar_real_rule;
mod modiar_solve;

/// The Modiar table, read once per test process from the run's cache folder
/// ([`support::cache_dir`], where it is built once per run).
fn modiar_table() -> &'static otau::tables::modiar::ModiarTable {
    use otau::tables::modiar::{cache_file_name, ModiarTable};
    static TABLE: std::sync::OnceLock<ModiarTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| ModiarTable::load(&support::cache_dir().join(cache_file_name())).unwrap())
}
