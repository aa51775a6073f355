//! Solved games: tables built by retrograde analysis that give the exact value of every position.
//!
//! - [`modiar`]: Modiar (2x3), solved completely; `otau solve --game modiar` prints its value.
//!
//! Tables are built on first use and kept in a cache file under [`cache_dir`], so later runs (an
//! engine process per arena game, say) load them in a fraction of a second.

pub mod modiar;

use std::path::PathBuf;

/// Environment variable that overrides where solved tables are cached.
pub const CACHE_DIR_ENV: &str = "OTAU_CACHE_DIR";

/// The directory for cache files: `$OTAU_CACHE_DIR` when set and not empty, else the user's cache
/// directory (`$XDG_CACHE_HOME/otau`, else `$HOME/.cache/otau`, else `%LOCALAPPDATA%\otau`).
/// `None` when none of these is known: tables are then built in memory each run.
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
