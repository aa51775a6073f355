//! The guardian: a forked process that kills the engine process groups the arena leaves behind
//! when it dies itself.

use std::fs::File;
use std::io::{self, Write};
use std::sync::Mutex;

use crate::sync::lock;

/// The write end of the running guardian's pipe, and its process id.
static GUARD: Mutex<Option<(File, libc::pid_t)>> = Mutex::new(None);
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
    pid: libc::pid_t,
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
        let read_fd = {
            use std::os::fd::AsRawFd;
            reader.as_raw_fd()
        };
        // SAFETY: the child calls only async-signal-safe functions (sigaction via signal, close,
        // read, kill, _exit) on memory allocated before the fork, and never returns.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            unsafe { guardian_main(read_fd, &mut groups) }
        }
        if pid < 0 {
            return None;
        }
        drop(reader);
        *slot = Some((File::from(std::os::fd::OwnedFd::from(writer)), pid));
        Some(Guardian { pid })
    }
}

impl Drop for Guardian {
    fn drop(&mut self) {
        // Closing the pipe is the guardian's signal to finish; then reap it.
        let taken = lock(&GUARD).take();
        drop(taken);
        let mut status = 0;
        // SAFETY: waitpid on our own child.
        unsafe {
            libc::waitpid(self.pid, &mut status, 0);
        }
    }
}

/// The guardian's whole life: read the arena's messages until end of file, then SIGKILL every
/// group still listed.
///
/// # Safety
/// Only in the child right after `fork`: async-signal-safe calls only, no allocation.
unsafe fn guardian_main(read_fd: i32, groups: &mut [i32]) -> ! {
    // Its command line is the arena's (a fork): the name tells it apart in `ps -o comm`, `top`
    // (Linux only; elsewhere it shows as the arena).
    #[cfg(target_os = "linux")]
    libc::prctl(libc::PR_SET_NAME, c"otau-guardian".as_ptr());
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
        libc::signal(sig, libc::SIG_IGN);
    }
    // Holding no other descriptor: no copy of the pipe's write end (so end of file comes), no
    // engine pipe, no results file.
    for fd in 0..65536 {
        if fd != read_fd {
            libc::close(fd);
        }
    }
    let mut listed = 0usize;
    let mut buf = [0u8; 4096];
    let mut carry = [0u8; 5];
    let mut carried = 0usize;
    loop {
        let n = libc::read(read_fd, buf.as_mut_ptr().cast(), buf.len());
        if n == 0 {
            break;
        }
        if n < 0 {
            // Reads errno (no allocation: async-signal-safe), on every Unix.
            if io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            break;
        }
        for &b in &buf[..n as usize] {
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
        if pgid > 0 {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    libc::_exit(0)
}
