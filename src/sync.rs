//! Locks that survive a panic elsewhere: the one poisoned-mutex recovery of the crate.
//!
//! A mutex is poisoned when a thread panicked while holding it. Every mutex of this crate guards
//! state that stays consistent between statements (a registry of process groups, a clock
//! ledger, an output stream, counters): no update is left half done by a panic in between. So
//! the right answer to a poisoned lock is to take the data as it is and go on; failing instead
//! would turn one panicked engine thread or worker into a second failure on every path that
//! must still run afterwards (killing the engines, recording the games, answering `quit`).

use std::sync::{LockResult, Mutex, MutexGuard, PoisonError};

/// Locks `mutex`, recovering it if a panic poisoned it (see the module documentation).
pub fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    recover(mutex.lock())
}

/// The value of a lock operation (`lock`, `Condvar::wait_timeout`...), poisoned or not.
pub fn recover<G>(result: LockResult<G>) -> G {
    result.unwrap_or_else(PoisonError::into_inner)
}
