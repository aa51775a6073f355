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
///
/// With `new_session` (a sandboxed engine) the group is a session of its own too (`setsid`,
/// which also makes it its group's leader, with the same id): no controlling terminal, so an
/// engine cannot open `/dev/tty` to push input into the organiser's shell, and the whole sandbox
/// stays in the one group that pauses and kills reach.
pub(super) fn configure_child(cmd: &mut Command, new_session: bool) {
    use std::os::unix::process::CommandExt;
    if new_session {
        // SAFETY: one system call through rustix between fork and exec (see below).
        unsafe {
            cmd.pre_exec(|| {
                rustix::process::setsid()?;
                Ok(())
            });
        }
    } else {
        cmd.process_group(0);
    }
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{
            getpid, getppid, kill_process, set_parent_process_death_signal, Signal,
        };
        let parent = getpid();
        // SAFETY: `pre_exec` is unsafe because its closure runs in the child between fork and
        // exec, where only async-signal-safe calls are sound (the arena has threads): this one
        // makes three system calls through rustix (prctl, getppid, kill; no allocation, no
        // lock) on a `Pid` copied in before the fork.
        unsafe {
            cmd.pre_exec(move || {
                let _ = set_parent_process_death_signal(Some(Signal::KILL));
                // The arena may have died between fork and prctl: then nobody would send the
                // signal.
                if getppid() != Some(parent) {
                    let _ = kill_process(getpid(), Signal::KILL);
                }
                Ok(())
            });
        }
    }
}
