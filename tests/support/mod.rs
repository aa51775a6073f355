//! Helpers shared by the integration tests, one module per concern: the arena's runs and
//! processes (`arena`), the engine through pipes (`ugi`), hostile web clients (`web`), a
//! WebDriver client (`browser`) and plain second implementations of the rules (`reference`).
//!
//! Every program a test starts goes through [`command`], and every table a test reads or writes
//! in the cache lives in this run's folder ([`cache_dir`]): no test reads or writes the user's
//! cache folder (`~/.cache/otau`), and the Modiar table is built once per run, not once per test.

pub mod arena;
pub mod browser;
pub mod reference;
pub mod ugi;
pub mod web;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use otau::tables::modiar::{cache_file_name, ModiarTable};
use otau::tables::CACHE_DIR_ENV;

/// The engine binary.
pub const OTAU: &str = env!("CARGO_BIN_EXE_otau");

/// `program` with this run's cache folder ([`cache_dir`]), so that what it reads and writes
/// there is the run's and never the user's.
pub fn command(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut c = Command::new(program);
    c.env(CACHE_DIR_ENV, cache_dir());
    c
}

/// `otau` with this run's cache folder.
pub fn otau() -> Command {
    command(OTAU)
}

/// The cache folder of this test run, the Modiar table in it (built on first use, about 10 s
/// of CPU, or read from the run's other test binary: both are children of one `cargo test`, so
/// the folder is named by the parent's process id). It is also this process's
/// `$OTAU_CACHE_DIR`, so that the library's own cache lookups in the tests (the arena's table
/// adjudication, [`ModiarTable::get`]) find it and not the user's folder.
///
/// Folders of earlier runs whose process is gone are removed first, so they do not pile up.
pub fn cache_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let run = std::os::unix::process::parent_id();
        remove_stale_runs(root, run);
        let dir = root.join(format!("otau-cache-{run}"));
        std::fs::create_dir_all(&dir).unwrap();
        // Safe against the other test threads: std reads and writes the environment under one
        // lock (spawns included), and nothing in these tests reads it through libc.
        std::env::set_var(CACHE_DIR_ENV, &dir);
        if !dir.join(cache_file_name()).is_file() {
            // Written to a temporary file and renamed: the other binary never sees half of it.
            drop(ModiarTable::load_or_build(Some(&dir)));
        }
        dir
    })
}

/// Removes `root/otau-cache-N` of every `N` but `run` that names no running process.
fn remove_stale_runs(root: &Path, run: u32) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("otau-cache-"))
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != run && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
