//! The process-group registry: every live engine process group, so that Ctrl-C, a closed output
//! or Ctrl-Z ([`crate::arena::system::interrupt`], [`crate::arena::system::pause`]) can reach all of them at once, and the
//! [`crate::arena::system::guardian`] is told of each. It sits below the engine I/O and the signal handling,
//! which both use it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use rustix::process::Signal;

use crate::arena::system::guardian::{signal_group, tell_guardian, GUARD_ADD, GUARD_REMOVE};
use crate::sync::lock;

pub(crate) fn kill_group(pgid: i32) {
    signal_group(pgid, Signal::KILL);
}

/// Live child process groups, for [`kill_all`], and whether they are stopped (Ctrl-Z).
static LIVE: Mutex<Registry> = Mutex::new(Registry {
    groups: None,
    stopped: false,
});
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

struct Registry {
    groups: Option<HashMap<u64, i32>>,
    /// Between [`stop_all`] and [`continue_all`]: a group registered meanwhile (its engine was
    /// being started when Ctrl-Z came) is stopped as it is registered, under the same lock.
    stopped: bool,
}

pub(crate) fn register(pgid: i32) -> u64 {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let mut live = lock(&LIVE);
    live.groups
        .get_or_insert_with(HashMap::new)
        .insert(id, pgid);
    if live.stopped {
        signal_group(pgid, Signal::STOP);
    }
    drop(live);
    tell_guardian(GUARD_ADD, pgid);
    id
}

pub(crate) fn unregister(id: u64) {
    if let Some(map) = lock(&LIVE).groups.as_mut() {
        if let Some(pgid) = map.remove(&id) {
            tell_guardian(GUARD_REMOVE, pgid);
        }
    }
}

/// SIGKILLs every live engine process group (Ctrl-C, fatal arena error). The owners still reap
/// their children when they notice.
pub fn kill_all() {
    signal_all(Signal::KILL);
}

/// Sends `signal` to every live engine process group.
pub fn signal_all(signal: Signal) {
    signal_live(&lock(&LIVE), signal);
}

/// Ctrl-Z: SIGSTOP to every live engine process group, and to each one registered until
/// [`continue_all`].
pub(crate) fn stop_all() {
    let mut live = lock(&LIVE);
    live.stopped = true;
    signal_live(&live, Signal::STOP);
}

/// The end of a Ctrl-Z pause: SIGCONT to every live engine process group.
pub(crate) fn continue_all() {
    let mut live = lock(&LIVE);
    live.stopped = false;
    signal_live(&live, Signal::CONT);
}

fn signal_live(live: &Registry, signal: Signal) {
    for &pgid in live.groups.iter().flat_map(HashMap::values) {
        signal_group(pgid, signal);
    }
}
