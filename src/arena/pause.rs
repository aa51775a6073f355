//! Pauses: Ctrl-Z stops the whole match, and no stop of the arena is charged to an engine.
//!
//! The arena measures every think and every deadline on [`now`]: real (monotonic) time minus
//! every stretch in which the arena did not run. A ticker thread notes the time every [`TICK`];
//! whoever next looks at the clock after a gap of more than [`GAP`] since the last tick (the
//! ticker itself, a reader stamping a line, a worker checking a deadline) credits the gap as a
//! pause, so the engine that was thinking is charged neither for it nor for the lines it sent
//! meanwhile. That covers a SIGSTOP the arena cannot catch (`kill -STOP`, a debugger), a suspended
//! machine, or the arena not being scheduled at all for that long.
//!
//! Ctrl-Z (SIGTSTP) is caught: the ticker stops every engine's process group first (SIGSTOP),
//! then the arena itself; on SIGCONT (`fg`, `kill -CONT`) it continues the engines. So a paused
//! match is paused for everyone, and its clocks stand still.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

use crate::sync::lock;

/// How often the ticker notes the time.
pub const TICK: Duration = Duration::from_millis(10);
/// A stretch without a tick longer than this is a pause.
pub const GAP: Duration = Duration::from_millis(250);

struct Ledger {
    /// The last time the clock was seen running (a tick, or a look after a pause).
    last_seen: Instant,
    /// The pauses credited so far.
    paused: Duration,
}

static LEDGER: Mutex<Option<Ledger>> = Mutex::new(None);
static TSTP: AtomicBool = AtomicBool::new(false);
static CONT: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// The arena's clock: real time less every pause credited so far. Before [`install`] (library
/// use without a run) it is plain `Instant::now()`.
pub fn now() -> Instant {
    let real = Instant::now();
    let mut guard = lock(&LEDGER);
    match guard.as_mut() {
        None => real,
        Some(ledger) => {
            ledger.see(real);
            real - ledger.paused
        }
    }
}

/// The pauses credited so far (for reports and tests).
pub fn paused() -> Duration {
    let _ = now();
    lock(&LEDGER).as_ref().map_or(Duration::ZERO, |l| l.paused)
}

impl Ledger {
    fn see(&mut self, real: Instant) {
        let gap = real.saturating_duration_since(self.last_seen);
        if gap > GAP {
            self.paused += gap - TICK;
        }
        if real > self.last_seen {
            self.last_seen = real;
        }
    }
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
        *lock(&LEDGER) = Some(Ledger {
            last_seen: Instant::now(),
            paused: Duration::ZERO,
        });
        super::signals::catch(&[libc::SIGTSTP, libc::SIGCONT], on_signal);
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
    super::groups::signal_all(libc::SIGSTOP);
    CONT.store(false, Ordering::SeqCst);
    // SAFETY: raise on our own thread; SIGSTOP stops every thread of the arena until SIGCONT.
    unsafe {
        libc::raise(libc::SIGSTOP);
    }
    // The stop takes hold when the signal is delivered, which need not be before `raise`
    // returns: the engines are continued only once the arena itself has been.
    while !CONT.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(1));
    }
    super::groups::signal_all(libc::SIGCONT);
}
