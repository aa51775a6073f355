//! The process-wide place of one table: read (or built) once, on first use, then shared by
//! every search; and asked without waiting by a search on a clock.

use std::sync::OnceLock;

/// One table of the process: empty until its first read is over, then the table or `None`
/// (missing, unreadable, or turned off).
pub struct Slot<T>(OnceLock<Option<T>>);

impl<T> Slot<T> {
    /// An empty slot, for a `static`: nothing is read until the first use.
    pub const fn new() -> Slot<T> {
        Slot(OnceLock::new())
    }

    /// The table, read by `load` on the first call (later calls wait for that read, then share
    /// its answer).
    pub fn get_or_load(&self, load: impl FnOnce() -> Option<T>) -> Option<&T> {
        self.0.get_or_init(load).as_ref()
    }

    /// The table if its read is over and found it: never waits.
    pub fn loaded(&self) -> Option<&T> {
        self.0.get().and_then(Option::as_ref)
    }

    /// Whether the first read is over (found or not): then [`Slot::loaded`] has its final answer.
    pub fn is_read(&self) -> bool {
        self.0.get().is_some()
    }

    /// Makes `table` the slot's, unless the slot was filled already (then gives it back).
    pub fn install(&self, table: T) -> Result<(), T> {
        self.0
            .set(Some(table))
            .map_err(|t| t.expect("an installed table is Some"))
    }
}

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Slot::new()
    }
}
