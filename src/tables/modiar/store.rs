//! The table's cache file and the process's table: read from the cache directory, or built and
//! saved there on first use.

use std::path::{Path, PathBuf};

use super::index::{MAX_STONES, POSITIONS};
use super::{ModiarTable, BLOB};
use crate::games::Variant;
use crate::tables::storage::file_format::{self, Kind, Problem};
use crate::tables::storage::slot::Slot;

/// Where a table came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Provenance {
    /// Read from this cache file.
    Loaded(PathBuf),
    /// Built in this process and saved to this cache file.
    Saved(PathBuf),
    /// Built in this process and saved to this cache file, in place of a file that was refused
    /// (an older format, damaged): why.
    Replaced {
        /// The cache file.
        path: PathBuf,
        /// Why the file that was there was refused.
        why: String,
    },
    /// Built in this process and kept in memory only (no cache directory, or saving failed).
    InMemory {
        /// Why it was not saved.
        why: String,
    },
}

/// The table of this process (see [`ModiarTable::get`]).
static TABLE: Slot<ModiarTable> = Slot::new();

/// The name of the cache file inside the cache directory.
pub fn cache_file_name() -> String {
    crate::tables::file_name(Variant::MODIAR)
}

impl ModiarTable {
    /// The table of this process: loaded from the cache file, or built (under a minute) and saved
    /// there on first use. See [`crate::tables::cache_dir`] for the location.
    pub fn get() -> &'static ModiarTable {
        TABLE
            .get_or_load(|| {
                Some(ModiarTable::load_or_build(
                    crate::tables::usable_cache_dir().as_deref(),
                ))
            })
            .expect("the Modiar table is always there, built if need be")
    }

    /// The table of this process if [`ModiarTable::get`] has finished loading or building it: never
    /// waits (reading takes 0.3-2.4 s, a build about 10 s, far more than a move on a clock).
    pub fn loaded() -> Option<&'static ModiarTable> {
        TABLE.loaded()
    }

    /// Loads the table from `dir`, or builds it and saves it there (written to a temporary file
    /// and renamed, so a reader never sees a partial file). A missing file is built; a refused
    /// one (an older format, damaged, see [`ModiarTable::load`]) is rebuilt and replaced; a directory
    /// that cannot be written leaves the table in memory.
    pub fn load_or_build(dir: Option<&Path>) -> ModiarTable {
        let Some(dir) = dir else {
            let mut t = ModiarTable::build();
            t.provenance = Provenance::InMemory {
                why: "no cache directory".into(),
            };
            return t;
        };
        let path = dir.join(cache_file_name());
        let refused = match ModiarTable::load(&path) {
            Ok(t) => return t,
            Err(e) if e.is_missing() => None,
            Err(e) => {
                crate::tables::report_problem(format!("{e}; building it again"));
                Some(e.to_string())
            }
        };
        let mut t = ModiarTable::build();
        t.provenance = match (t.save(&path), refused) {
            (Ok(()), None) => Provenance::Saved(path),
            (Ok(()), Some(why)) => Provenance::Replaced { path, why },
            (Err(e), _) => Provenance::InMemory { why: e.to_string() },
        };
        t
    }

    /// Reads and checks a cache file: the table file format's header (kind, format version),
    /// checksum, and the size of the payload.
    pub fn load(path: &Path) -> Result<ModiarTable, file_format::Error> {
        let (params, blob) = file_format::read(path, Kind::Modiar)?;
        if params != [MAX_STONES as u8, 0, 0] || blob.len() != BLOB {
            return Err(file_format::Error::new(
                path,
                Problem::Header(format!(
                    "a Modiar table up to {} stones of {} bytes; this otau's holds {POSITIONS} \
                     positions up to {MAX_STONES} stones in {BLOB} bytes",
                    params[0],
                    blob.len()
                )),
            ));
        }
        Ok(ModiarTable {
            blob,
            provenance: Provenance::Loaded(path.to_path_buf()),
            stats: None,
        })
    }

    /// Writes the table to `path` atomically (temporary file in the same directory, then rename).
    pub fn save(&self, path: &Path) -> Result<(), file_format::Error> {
        file_format::write(path, Kind::Modiar, [MAX_STONES as u8, 0, 0], &self.blob)
    }
}
