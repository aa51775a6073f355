//! How the arena prints: every message for the user goes through [`out`] or [`err`], which never
//! panic. A closed stdout or stderr (`otau-arena ... 2>&1 | head`, a terminal gone) is a request
//! to stop: a write that fails kills the engines and stops the run as Ctrl-C does
//! ([`crate::arena::system::interrupt`]), with the records intact.

use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::arena::system::{interrupt, process_groups};

static OUTPUT_CLOSED: AtomicBool = AtomicBool::new(false);

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
        interrupt::request();
        process_groups::kill_all();
    }
}
