//! Pauses: Ctrl-Z stops the whole match, and no stop of the arena is charged to an engine.
//!
//! The arena measures every think and every deadline on [`now`]: real (monotonic) time minus
//! every stretch in which the arena did not run. A ticker thread notes the time every [`TICK`];
//! whoever next looks at the clock after a gap of more than [`GAP`] since the last tick (the
//! ticker itself, a worker stamping a line or checking a deadline) credits the gap as a pause,
//! so the engine that was thinking is charged neither for it nor for the lines it sent
//! meanwhile. That covers a SIGSTOP the arena cannot catch (`kill -STOP`, a debugger), a suspended
//! machine, or the arena not being scheduled at all for that long. Every game's thread looks at
//! the clock several times a ply: a look reads two atomics and takes no lock (a global lock was
//! contended at concurrency 2), only crediting a pause does.
//!
//! Ctrl-Z (SIGTSTP) is caught: the ticker stops every engine's process group first (SIGSTOP),
//! then the arena itself; on SIGCONT (`fg`, `kill -CONT`) it continues the engines. So a paused
//! match is paused for everyone, and its clocks stand still.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, Once, OnceLock};
use std::time::{Duration, Instant};

use rustix::process::Signal;

use crate::sync::lock;

/// How often the ticker notes the time.
pub(crate) const TICK: Duration = Duration::from_millis(10);
/// A stretch without a tick longer than this is a pause.
pub const GAP: Duration = Duration::from_millis(250);
/// A look at the clock notes the time only if the last note is older than this: every thread
/// reads the clock several times a ply, and a write each time would bounce the notes between
/// the cores for nothing (a pause is a gap of [`GAP`]; a note this much late changes no credit
/// by more than this).
const NOTE_EVERY: Duration = Duration::from_millis(1);

/// The clock's state, lock-free on the way every reader takes: two atomics read, and one written
/// at most every [`NOTE_EVERY`]. Only crediting a pause (rare: after a gap of [`GAP`]) takes a
/// lock, so that one gap is credited once.
struct Ledger {
    /// Real time at [`install`]: the notes are nanoseconds after it.
    base: Instant,
    /// The last time the clock was seen running (a tick, or a look), in ns after `base`.
    last_seen: AtomicU64,
    /// The pauses credited so far, in ns.
    paused: AtomicU64,
    /// Held while a pause is credited.
    crediting: Mutex<()>,
}

static LEDGER: OnceLock<Ledger> = OnceLock::new();
static TSTP: AtomicBool = AtomicBool::new(false);
static CONT: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// The arena's clock: real time less every pause credited so far. Before [`install`] (library
/// use without a run) it is plain `Instant::now()`.
pub fn now() -> Instant {
    let real = Instant::now();
    match LEDGER.get() {
        None => real,
        Some(ledger) => real - ledger.see(real),
    }
}

/// The pauses credited so far (for reports and tests).
pub fn paused() -> Duration {
    let _ = now();
    LEDGER.get().map_or(Duration::ZERO, |l| {
        Duration::from_nanos(l.paused.load(Ordering::Acquire))
    })
}

impl Ledger {
    /// Notes that the clock runs at `real`, credits a gap of more than [`GAP`] since the last
    /// note as a pause (less one [`TICK`]), and returns the pauses credited so far.
    fn see(&self, real: Instant) -> Duration {
        let at = nanos(real.saturating_duration_since(self.base));
        let last = self.last_seen.load(Ordering::Acquire);
        let gap = at.saturating_sub(last);
        if gap > nanos(GAP) {
            let _held = lock(&self.crediting);
            // Another look may have credited this gap meanwhile: measure it again under the lock.
            let last = self.last_seen.load(Ordering::Acquire);
            let gap = at.saturating_sub(last);
            if gap > nanos(GAP) {
                // The pause first, the note after: whoever sees the new note sees the pause too.
                self.paused.fetch_add(gap - nanos(TICK), Ordering::AcqRel);
                self.last_seen.fetch_max(at, Ordering::AcqRel);
            }
        } else if gap > nanos(NOTE_EVERY) {
            self.last_seen.fetch_max(at, Ordering::AcqRel);
        }
        Duration::from_nanos(self.paused.load(Ordering::Acquire))
    }
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

extern "C" fn on_signal(sig: libc::c_int) {
    if sig == libc::SIGTSTP {
        TSTP.store(true, Ordering::SeqCst);
    } else {
        CONT.store(true, Ordering::SeqCst);
    }
}

/// Starts the ticker and catches SIGTSTP (once per process).
pub fn install() {
    INSTALL.call_once(|| {
        let _ = LEDGER.set(Ledger {
            base: Instant::now(),
            last_seen: AtomicU64::new(0),
            paused: AtomicU64::new(0),
            crediting: Mutex::new(()),
        });
        crate::arena::system::signals::catch(&[libc::SIGTSTP, libc::SIGCONT], on_signal);
        let _ = std::thread::Builder::new()
            .name("pause ticker".into())
            .spawn(|| loop {
                std::thread::sleep(TICK);
                let _ = now();
                if TSTP.swap(false, Ordering::SeqCst) {
                    stop_everything();
                }
            });
    });
}

/// Ctrl-Z: the engines first (so none thinks on while the arena cannot read it), then the
/// arena; once continued, the engines again. The gap is credited by the next [`now`].
fn stop_everything() {
    crate::arena::system::process_groups::stop_all();
    CONT.store(false, Ordering::SeqCst);
    // SIGSTOP stops every thread of the arena until SIGCONT.
    let _ = rustix::process::kill_process(rustix::process::getpid(), Signal::STOP);
    // The stop takes hold when the signal is delivered, which need not be before `kill`
    // returns: the engines are continued only once the arena itself has been.
    while !CONT.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(1));
    }
    crate::arena::system::process_groups::continue_all();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ledger() -> (Ledger, Instant) {
        let base = Instant::now();
        let ledger = Ledger {
            base,
            last_seen: AtomicU64::new(0),
            paused: AtomicU64::new(0),
            crediting: Mutex::new(()),
        };
        (ledger, base)
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_gap_is_credited_once_and_a_short_one_not_at_all() {
        let (l, base) = ledger();
        assert_eq!(l.see(base + ms(100)), Duration::ZERO);
        assert_eq!(l.see(base + ms(300)), Duration::ZERO, "200 ms is no pause");
        assert_eq!(l.see(base + ms(1300)), ms(1000) - TICK);
        assert_eq!(l.see(base + ms(1300)), ms(1000) - TICK, "credited once");
        // A look that read the time before the gap was credited credits nothing more.
        assert_eq!(l.see(base + ms(800)), ms(1000) - TICK);
        assert_eq!(l.see(base + ms(1400)), ms(1000) - TICK);
    }

    #[test]
    fn threads_that_see_one_gap_credit_it_once() {
        let (l, base) = ledger();
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| l.see(base + ms(2000)));
            }
        });
        assert_eq!(l.see(base + ms(2000)), ms(2000) - TICK);
    }
}
