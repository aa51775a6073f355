//! Endgame tables: positions near the end of a game solved once by retrograde analysis and looked
//! up by the search instead of searched.
//!
//! Built by `otau tables` into the cache directory and loaded from there on first use; an engine
//! without the file plays on without tables (a build takes up to a minute and the engine must
//! answer at once). See [`toguz`] for what an entry means.

pub mod toguz;

use std::sync::OnceLock;

use crate::games::Variant;

/// Stones on the board up to which `otau tables` builds each Toguz board: as far as about a
/// minute of building on one core allows, and memory of the order of the default hash.
pub fn default_max_stones(variant: Variant) -> usize {
    match variant.holes() {
        9 => 8,
        7 => 10,
        _ => 15,
    }
}

/// Where tables are kept: the cache directory the solved games use too.
pub use crate::solve::cache_dir;

/// The file name of a Toguz board's tables.
pub fn file_name(variant: Variant) -> String {
    format!("{variant}.egtb")
}

static TOGUZ: [OnceLock<Option<toguz::Tables>>; 3] =
    [OnceLock::new(), OnceLock::new(), OnceLock::new()];

fn slot(variant: Variant) -> usize {
    match variant.holes() {
        9 => 0,
        7 => 1,
        _ => 2,
    }
}

/// Makes `tables` the ones the search probes for their board size, unless tables for that size
/// were already loaded or installed in this process (then gives them back).
pub fn install_toguz(tables: toguz::Tables) -> Result<(), toguz::Tables> {
    TOGUZ[slot(tables.variant())]
        .set(Some(tables))
        .map_err(|t| t.expect("installed tables are Some"))
}

/// The Toguz tables of a board size if they have been read (or installed) already: never waits.
/// The search probes through this, after [`toguz_tables_read`] said the read was over.
pub fn loaded_toguz_tables(variant: Variant) -> Option<&'static toguz::Tables> {
    TOGUZ[slot(variant)].get().and_then(Option::as_ref)
}

/// Whether the first read of a board size's tables is over (found or not): then
/// [`loaded_toguz_tables`] has its final answer.
pub fn toguz_tables_read(variant: Variant) -> bool {
    TOGUZ[slot(variant)].get().is_some()
}

/// The Toguz tables of a board size, loaded from the cache directory on first call (None when
/// the file is missing or unreadable, or tables are turned off by `OTAU_NO_TABLES`). The first
/// call reads 57 MB (2x9): a search never makes it, see [`crate::search`]'s table loading.
pub fn toguz_tables(variant: Variant) -> Option<&'static toguz::Tables> {
    TOGUZ[slot(variant)]
        .get_or_init(|| {
            if std::env::var_os("OTAU_NO_TABLES").is_some() {
                return None;
            }
            let path = cache_dir()?.join(file_name(variant));
            toguz::Tables::load(&path).ok()
        })
        .as_ref()
}
