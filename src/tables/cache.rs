//! Where table files are kept: one cache directory for every kind of table.

use std::path::PathBuf;

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
