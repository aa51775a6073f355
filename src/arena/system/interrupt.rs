//! Ctrl-C (SIGINT) and SIGTERM: stop cleanly, kill every engine, keep what is recorded.
//!
//! The signal handler only sets a flag (the one thing a handler may safely do). Every engine read
//! and write polls the flag every 25 ms (`process::EXIT_POLL`), so workers drop their game
//! unrecorded and end their engines; a watcher thread also kills all engine process groups at
//! once, so a long think cannot delay the exit. A second signal exits immediately after killing
//! the engines.
//!
//! A closed stdout or stderr (`otau-arena ... 2>&1 | head`, a terminal gone) is the same request:
//! every message for the user goes through [`out`] or [`err`], which never panic; a write that
//! fails kills the engines and stops the run as Ctrl-C does, with the records intact.

use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Once;
use std::time::Duration;

static REQUESTED: AtomicBool = AtomicBool::new(false);
static COUNT: AtomicUsize = AtomicUsize::new(0);
static INSTALL: Once = Once::new();
static OUTPUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether the user asked the arena to stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Marks a stop as requested (the signal handler, and tests).
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

extern "C" fn on_signal(_: libc::c_int) {
    REQUESTED.store(true, Ordering::SeqCst);
    COUNT.fetch_add(1, Ordering::SeqCst);
}

/// Installs the SIGINT/SIGTERM handlers and the watcher thread (once per process).
pub fn install() {
    INSTALL.call_once(|| {
        crate::arena::system::signals::catch(&[libc::SIGINT, libc::SIGTERM], on_signal);
        // Ctrl-Z and stops the arena cannot catch belong to the same run's signals.
        crate::arena::system::pause::install();
        let _ = std::thread::Builder::new()
            .name("interrupt watcher".into())
            .spawn(|| {
                let mut killed_at = 0;
                loop {
                    std::thread::sleep(Duration::from_millis(50));
                    let count = COUNT.load(Ordering::SeqCst);
                    if count > killed_at {
                        killed_at = count;
                        crate::arena::system::process_groups::kill_all();
                        if count >= 2 {
                            err(format_args!("otau-arena: interrupted twice, exiting now\n"));
                            std::process::exit(130);
                        }
                    }
                }
            });
    });
}

/// Writes to stdout (flushed); see [`err`].
pub fn out(text: fmt::Arguments<'_>) {
    let mut stream = std::io::stdout().lock();
    if stream.write_fmt(text).and_then(|_| stream.flush()).is_err() {
        output_closed();
    }
}

/// Writes to stderr. A failed write (the reader of a pipe went away) does not panic as
/// `eprintln!` would (exit 101, engines left to the guardian): it stops the run like Ctrl-C.
pub fn err(text: fmt::Arguments<'_>) {
    let mut stream = std::io::stderr().lock();
    if stream.write_fmt(text).and_then(|_| stream.flush()).is_err() {
        output_closed();
    }
}

/// Whether stdout or stderr was found closed.
pub fn output_was_closed() -> bool {
    OUTPUT_CLOSED.load(Ordering::Relaxed)
}

fn output_closed() {
    if !OUTPUT_CLOSED.swap(true, Ordering::SeqCst) {
        request();
        crate::arena::system::process_groups::kill_all();
    }
}
