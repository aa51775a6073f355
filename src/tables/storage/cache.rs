//! Where table files are kept: one cache directory for every kind of table.

use std::path::PathBuf;
use std::sync::Mutex;

use crate::games::Variant;

/// Environment variable that overrides where tables are cached.
pub const CACHE_DIR_ENV: &str = "OTAU_CACHE_DIR";

/// The directory for table files: `$OTAU_CACHE_DIR` when set and not empty, else the user's cache
/// directory (`$XDG_CACHE_HOME/otau`, else `$HOME/.cache/otau`, else `%LOCALAPPDATA%\otau`).
/// `None` when none of these is known: Modiar's solution is then built in memory each run, and
/// the Toguz tables are not found.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var(CACHE_DIR_ENV) {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return Some(PathBuf::from(dir).join("otau"));
    }
    if let Some(home) = var("HOME") {
        return Some(PathBuf::from(home).join(".cache").join("otau"));
    }
    var("LOCALAPPDATA").map(|dir| PathBuf::from(dir).join("otau"))
}

/// The name of a game's table file in the cache directory: `<game id>.table`
/// (`toguz-kumalak.table`, `modiar.table`).
pub fn file_name(variant: Variant) -> String {
    format!("{variant}.table")
}

/// Table files found but refused (damaged, truncated, of another kind, a cache "directory" that
/// is a file), not yet said: each is said once, by the engine as `info string warning` after its
/// next search and by the arena's `--adjudicate tables` as an error at start, never dropped in
/// silence. A missing file is no problem: tables are optional.
static PROBLEMS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Notes a table problem (once: the same text twice is kept once).
pub fn report_problem(problem: String) {
    let mut problems = crate::sync::lock(&PROBLEMS);
    if !problems.contains(&problem) {
        problems.push(problem);
    }
}

/// The table problems noted since the last call.
pub fn take_problems() -> Vec<String> {
    std::mem::take(&mut *crate::sync::lock(&PROBLEMS))
}

/// [`cache_dir`], unless it names something that is no directory (`OTAU_CACHE_DIR=/etc/passwd`):
/// then the problem is noted ([`report_problem`]) and there is none. The first call also removes
/// the temporary files of builds that never ended ([`super::file_format::remove_stale_temporaries`]).
pub fn usable_cache_dir() -> Option<PathBuf> {
    let dir = cache_dir()?;
    match std::fs::metadata(&dir) {
        Ok(m) if !m.is_dir() => {
            let named = if std::env::var_os(CACHE_DIR_ENV).is_some_and(|v| !v.is_empty()) {
                format!("{CACHE_DIR_ENV}={}", dir.display())
            } else {
                format!("the cache directory {}", dir.display())
            };
            report_problem(format!(
                "{named} is not a directory: no table is read from or saved there; \
                 name a directory"
            ));
            None
        }
        Ok(_) => {
            // Once a process: what an interrupted build left behind goes at the next start.
            static SWEPT: std::sync::Once = std::sync::Once::new();
            SWEPT.call_once(|| super::file_format::remove_stale_temporaries(&dir));
            Some(dir)
        }
        Err(_) => Some(dir),
    }
}
