//! The process-group registry: every live engine process group, so that Ctrl-C, a closed output
//! or Ctrl-Z ([`crate::arena::system::interrupt`], [`crate::arena::system::pause`]) can reach all of them at once, and the
//! [`crate::arena::system::guardian`] is told of each. It sits below the engine I/O and the signal handling,
//! which both use it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::arena::system::guardian::{tell_guardian, GUARD_ADD, GUARD_REMOVE};
use crate::sync::lock;

pub(crate) fn kill_group(pgid: i32) {
    if pgid > 0 {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

/// Live child process groups, for [`kill_all`].
static LIVE: Mutex<Option<HashMap<u64, i32>>> = Mutex::new(None);
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

pub(crate) fn register(pgid: i32) -> u64 {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    lock(&LIVE)
        .get_or_insert_with(HashMap::new)
        .insert(id, pgid);
    tell_guardian(GUARD_ADD, pgid);
    id
}

pub(crate) fn unregister(id: u64) {
    if let Some(map) = lock(&LIVE).as_mut() {
        if let Some(pgid) = map.remove(&id) {
            tell_guardian(GUARD_REMOVE, pgid);
        }
    }
}

/// SIGKILLs every live engine process group (Ctrl-C, fatal arena error). The owners still reap
/// their children when they notice.
pub fn kill_all() {
    signal_all(libc::SIGKILL);
}

/// Sends `signal` to every live engine process group (SIGSTOP and SIGCONT for Ctrl-Z).
pub fn signal_all(signal: i32) {
    if let Some(map) = lock(&LIVE).as_ref() {
        for &pgid in map.values() {
            if pgid > 0 {
                // SAFETY: kill has no memory-safety preconditions.
                unsafe {
                    libc::kill(-pgid, signal);
                }
            }
        }
    }
}
