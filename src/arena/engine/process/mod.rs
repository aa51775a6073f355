//! Engine processes: spawning, the bounded line reader, and killing on every path.
//!
//! An engine is a line stream in and a line stream out. [`EngineIo`] hides whether the other end
//! is a child process (an external engine, or a test engine) or a thread running an in-process
//! UGI loop over pipes (the built-in players): the UGI client above sees the same thing either way.
//!
//! What a hostile or broken engine cannot do to the arena:
//! - hang it: every read has a deadline ([`EngineIo::recv`]), and so has every write
//!   ([`EngineIo::send_by`]: the input pipe is non-blocking and polled, so an engine that stops
//!   reading cannot block the arena in a full pipe);
//! - hide its death: the process itself is watched ([`EngineIo::recv`] polls it every
//!   [`EXIT_POLL`]), so an engine that exits while a helper it started keeps its output open is
//!   seen within [`EXIT_POLL`] + [`EXIT_GRACE`], not when the helper closes the pipe;
//! - exhaust its memory: a line longer than [`MAX_LINE`] is cut, and at most [`READ_BUFFER`]
//!   bytes are read ahead of the client; the rest waits in the pipe, and the engine blocks on it;
//! - eat its CPU: the reader takes at most [`MAX_BYTES_PER_SEC`] from the engine;
//! - fill the disk: stderr goes to the engine's log file up to a [`LogBudget`] shared by all of
//!   the engine's processes in a run ([`MAX_LOG_BYTES`] by default);
//! - outlive it: every child runs in its own process group, which is SIGKILLed on every path
//!   (game end, fault, drop, Ctrl-C through [`kill_all`]), and is asked to die with the arena's
//!   thread through `PR_SET_PDEATHSIG` on Linux; during a run a [`Guardian`] process SIGKILLs the
//!   groups the arena leaves behind when it dies itself, so even `kill -9` of the arena leaves no
//!   engine behind, nor a process an engine started (which the parent-death signal does not
//!   reach). On another Unix the guardian is the only such line (see [`child`]).
//!
//! The engine's output is read by the game's own thread (non-blocking pipe, `ppoll` with the
//! deadline): no reader thread and no channel stand between a `bestmove` and the game, which
//! halved the arena's CPU a ply (`scripts/arena-bench.sh`).
//!
//! One concern a file: [`io`] (the engine's two line streams and their deadlines), [`reader`]
//! (the bounded line reader and its rate limit), [`stderr`] (the log copier and its budget),
//! [`child`] (a child's process group and parent-death setup). The process-group registry
//! ([`crate::arena::system::process_groups`]) and the [`Guardian`] ([`crate::arena::system::guardian`]) sit one layer lower, beside the
//! signal handling that uses them too; they are re-exported here.

mod child;
pub mod io;
pub mod reader;
pub mod stderr;

pub use crate::arena::system::guardian::Guardian;
pub use crate::arena::system::process_groups::{kill_all, signal_all};
pub use io::{EngineIo, RecvError, SendError, Spawn, DEFAULT_WRITE_TIMEOUT, EXIT_GRACE, EXIT_POLL};
pub use reader::{Incoming, MAX_BYTES_PER_SEC, MAX_LINE, READ_BUFFER};
pub use stderr::{log_file, LogBudget, MAX_LOG_BYTES};
