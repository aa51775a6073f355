//! The guardian: a forked process that kills the engine process groups the arena leaves behind
//! when it dies itself.

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::sync::Mutex;

use rustix::io::Errno;
use rustix::process::{Pid, Signal, WaitOptions};

use crate::sync::lock;

/// The write end of the running guardian's pipe, and its process id.
static GUARD: Mutex<Option<(File, Pid)>> = Mutex::new(None);
pub(super) const GUARD_ADD: u8 = b'+';
pub(super) const GUARD_REMOVE: u8 = b'-';
/// Process groups a guardian keeps track of at most (engines alive at once: a few per worker).
const GUARD_CAPACITY: usize = 4096;

/// Sends the guardian one 5-byte message (atomic on a pipe: below `PIPE_BUF`).
pub(super) fn tell_guardian(op: u8, pgid: i32) {
    if let Some((pipe, _)) = lock(&GUARD).as_mut() {
        let p = pgid.to_le_bytes();
        // A guardian that is gone only means the parent-death signal is the last line.
        let _ = pipe.write_all(&[op, p[0], p[1], p[2], p[3]]);
    }
}

/// A forked process that outlives the arena just long enough to clean up after it.
///
/// `PR_SET_PDEATHSIG` (Linux) ends the engines the arena started when it is killed with `kill -9`, but not
/// the processes those engines started (a wrapper script's background job, a helper): they stay
/// in the engine's process group, which nobody would kill. The guardian is told every engine
/// group as it starts and ends, through a pipe only the arena writes; when the pipe reaches end
/// of file (the arena exited, normally or not) it SIGKILLs the groups still listed and exits.
/// It ignores the terminal's signals, so a hang-up or a Ctrl-C to the whole group cannot end it
/// before it has done its job. A normal end of the run finds no group listed.
///
/// On a Unix other than Linux there is no parent-death signal: there the guardian is also what
/// ends the engines themselves after a `kill -9` of the arena (the documented fallback).
pub struct Guardian {
    pid: Pid,
}

impl Guardian {
    /// Forks the guardian for this run; None when one is already running (a run inside another
    /// in the same process) or the fork failed (the parent-death signal remains).
    pub fn start() -> Option<Guardian> {
        let mut slot = lock(&GUARD);
        if slot.is_some() {
            return None;
        }
        let (reader, writer) = io::pipe().ok()?;
        // Everything the child needs is allocated before the fork: after it, only
        // async-signal-safe calls (the arena has threads).
        let mut groups: Vec<i32> = vec![0; GUARD_CAPACITY];
        // SAFETY: `fork` is unsafe because the child of a process with threads may make only
        // async-signal-safe calls until it exits; the child runs `guardian_main` alone, which
        // makes only such calls, on memory allocated before the fork, and never returns.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            // SAFETY: this is the child right after `fork`, `guardian_main`'s one precondition.
            unsafe { guardian_main(reader.as_fd(), &mut groups) }
        }
        // A failed fork (-1): the parent-death signal remains.
        let pid = Pid::from_raw(pid.max(0))?;
        drop(reader);
        *slot = Some((File::from(std::os::fd::OwnedFd::from(writer)), pid));
        Some(Guardian { pid })
    }
}

impl Drop for Guardian {
    fn drop(&mut self) {
        // Closing the pipe is the guardian's signal to finish; then reap it (it exits as soon
        // as it has read the end of the pipe and killed what was still listed).
        let taken = lock(&GUARD).take();
        drop(taken);
        let _ = rustix::process::waitpid(Some(self.pid), WaitOptions::empty());
    }
}

/// Sends `signal` to the process group `pgid`; nothing for a group id that is not one (0 or
/// below: `kill(0)` would reach the arena's own group). A group that is gone already is no
/// error: there is nothing left to reach. Async-signal-safe (one `kill`, no allocation): the
/// guardian's forked child calls it (so it lives here), and so does the process-group registry.
pub(super) fn signal_group(pgid: i32, signal: Signal) {
    if pgid > 0 {
        if let Some(pgid) = Pid::from_raw(pgid) {
            let _ = rustix::process::kill_process_group(pgid, signal);
        }
    }
}

/// The guardian's whole life: read the arena's messages until end of file, then SIGKILL every
/// group still listed.
///
/// # Safety
/// Only in the child right after `fork`: it closes every descriptor but `reader` (copies the
/// child holds of the arena's, which it never uses again, as it never returns) and ends the
/// process with `_exit`. Everything it calls is async-signal-safe (system calls through libc
/// and rustix), and it allocates nothing.
unsafe fn guardian_main(reader: BorrowedFd<'_>, groups: &mut [i32]) -> ! {
    // Its command line is the arena's (a fork): the name tells it apart in `ps -o comm`, `top`
    // (Linux only; elsewhere it shows as the arena).
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::set_name(c"otau-guardian");
    let read_fd = reader.as_raw_fd();
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
        libc::signal(sig, libc::SIG_IGN);
    }
    // Holding no other descriptor: no copy of the pipe's write end (so end of file comes), no
    // engine pipe, no results file.
    close_all_but(read_fd);
    let mut listed = 0usize;
    let mut buf = [0u8; 4096];
    let mut carry = [0u8; 5];
    let mut carried = 0usize;
    loop {
        let n = match rustix::io::read(reader, &mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(Errno::INTR) => continue,
            Err(_) => break,
        };
        for &b in &buf[..n] {
            carry[carried] = b;
            carried += 1;
            if carried < carry.len() {
                continue;
            }
            carried = 0;
            let pgid = i32::from_le_bytes([carry[1], carry[2], carry[3], carry[4]]);
            if carry[0] == GUARD_ADD {
                if listed < groups.len() {
                    groups[listed] = pgid;
                    listed += 1;
                }
            } else if let Some(i) = groups[..listed].iter().position(|&g| g == pgid) {
                listed -= 1;
                groups[i] = groups[listed];
            }
        }
    }
    for &pgid in &groups[..listed] {
        signal_group(pgid, Signal::KILL);
    }
    libc::_exit(0)
}

/// Closes every descriptor but `keep`, to the highest the process may hold: `close_range` (Linux
/// 5.9: two system calls), else one `close` for each descriptor below the limit on open files
/// (which may be far above 65536: a container's is often 2^20, and a copy of the pipe's write
/// end left above 65536 would keep its end of file from ever coming).
///
/// # Safety
/// Async-signal-safe (system calls only), for the guardian's child; closes descriptors other
/// code may hold, so only in a process that uses no other.
unsafe fn close_all_but(keep: i32) {
    #[cfg(target_os = "linux")]
    {
        let keep = keep as libc::c_uint;
        let below = keep == 0 || libc::syscall(libc::SYS_close_range, 0, keep - 1, 0) == 0;
        let above = libc::syscall(libc::SYS_close_range, keep + 1, libc::c_uint::MAX, 0) == 0;
        if below && above {
            return;
        }
    }
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    let highest = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
        limit.rlim_cur.min(1 << 24) as i32
    } else {
        1 << 16
    };
    for fd in 0..highest {
        if fd != keep {
            libc::close(fd);
        }
    }
}
