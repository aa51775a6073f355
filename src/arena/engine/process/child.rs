//! How an engine's child process is set up: its own process group, and death with the arena.

use std::process::Command;

pub(super) fn describe_status(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with code {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        _ => "exited".to_string(),
    }
}

/// Own process group (so the whole group can be killed and a terminal's Ctrl-C reaches only the
/// arena, which then ends the engines itself), and, on Linux, death with the spawning thread.
///
/// The parent-death signal (`PR_SET_PDEATHSIG`) is Linux's own. On another Unix there is none to
/// ask for: there an engine outlives an arena killed with `kill -9` unless a
/// [`crate::arena::system::guardian::Guardian`] is running, which every run, `check` and compliance
/// check with an external engine starts, and which kills the engine's whole group when the
/// arena's end of its pipe closes (so the guardian is the fallback, and covers what the signal
/// does not reach anyway: the processes an engine started).
pub(super) fn configure_child(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    #[cfg(target_os = "linux")]
    {
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: only async-signal-safe calls (prctl, getppid, kill) between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                // The arena may have died between fork and prctl: then nobody would send the
                // signal.
                if libc::getppid() != parent {
                    libc::kill(libc::getpid(), libc::SIGKILL);
                }
                Ok(())
            });
        }
    }
}
