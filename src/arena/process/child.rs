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
/// arena, which then ends the engines itself), and death with the spawning thread.
pub(super) fn configure_child(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: only async-signal-safe calls (prctl, getppid, kill) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            // The arena may have died between fork and prctl: then nobody would send the signal.
            if libc::getppid() != parent {
                libc::kill(libc::getpid(), libc::SIGKILL);
            }
            Ok(())
        });
    }
}
