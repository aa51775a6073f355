//! An engine program held to its [`Confinement`]: `sandbox=on` runs it under bubblewrap
//! ([`bwrap`]: Debian's `bubblewrap`, what Flatpak builds on, rather than a sandbox of our own),
//! and `memory=`, `processes=`, `cpus=` put it in a control group of its own ([`cgroup`]: v2
//! where the arena's group is delegated, else v1's controllers), with rlimits as the floor where
//! a controller is missing (`RLIMIT_AS` for memory, `RLIMIT_NPROC` for processes; nothing can
//! stand in for a CPU quota). Any confinement gets a group where the machine has one, so that
//! every process the engine starts is killed at its end and its CPU time is measured.
//!
//! The run's header says how each key is enforced ([`enforcement`]); `sandbox=on` where bwrap or
//! user namespaces are missing is a start-up error naming what to install or enable, never an
//! unsandboxed run.

pub(crate) mod bwrap;
pub(crate) mod cgroup;
pub mod cpu;

use std::ffi::CString;
use std::io;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::arena::config::Confinement;

/// The processes bubblewrap itself keeps in the engine's group (the sandbox's outer process and
/// its PID namespace's init): `processes=N` counts the engine's own, so the group takes N + 2.
pub const BWRAP_TASKS: u64 = 2;

/// An engine's confinement in force: its control group (removed, its processes killed, when the
/// jail is dropped).
#[derive(Debug)]
pub(crate) struct Jail {
    group: Option<cgroup::Group>,
}

impl Jail {
    /// Whether the engine's group was at its memory limit and the kernel killed a process of it.
    pub fn memory_killed(&self) -> bool {
        self.group.as_ref().is_some_and(cgroup::Group::oom_killed)
    }

    /// The CPU time of the engine and everything it started, so far (with a group).
    pub fn cpu_time(&self) -> Option<Duration> {
        self.group.as_ref()?.cpu_time()
    }

    /// Kills what is left in the group and removes it. Whether it is gone.
    pub fn release(&mut self) -> bool {
        self.group.as_mut().is_none_or(cgroup::Group::remove)
    }
}

/// The command that starts `program` with `args` in `dir` under `confine`, and the jail that holds
/// it (`None` when nothing is asked: the program itself, as always). The command joins the
/// group and takes its rlimits between fork and exec, before it can start anything.
pub(crate) fn command(
    program: &str,
    args: &[String],
    dir: Option<&Path>,
    confine: &Confinement,
) -> io::Result<(Command, Option<Jail>)> {
    if confine.is_none() {
        let mut cmd = Command::new(program);
        cmd.args(args);
        if let Some(dir) = dir {
            cmd.current_dir(dir);
        }
        return Ok((cmd, None));
    }
    let mut cmd = if confine.sandbox {
        let bwrap = bwrap::bwrap().map_err(io::Error::other)?;
        let dir = dir.map(std::path::absolute).transpose()?;
        let program_file = bwrap::program_path(program, dir.as_deref())?;
        let mut cmd = Command::new(bwrap);
        cmd.args(bwrap::args(dir.as_deref(), &program_file))
            .arg(&program_file)
            .args(args);
        cmd
    } else {
        let mut cmd = Command::new(program);
        cmd.args(args);
        if let Some(dir) = dir {
            cmd.current_dir(dir);
        }
        cmd
    };
    let hierarchy = cgroup::hierarchy().ok();
    let group = match hierarchy {
        Some(h) => Some(
            cgroup::Group::create(h, group_limits(confine))
                .map_err(|e| io::Error::other(format!("cannot make its control group: {e}")))?,
        ),
        None => None,
    };
    let floor = Floor::of(confine, hierarchy);
    let join: Vec<CString> = group
        .as_ref()
        .map_or_else(Vec::new, cgroup::Group::procs_files);
    use std::os::unix::process::CommandExt;
    // SAFETY: runs in the child between fork and exec, where only async-signal-safe calls are
    // sound: `join_self` opens and writes through rustix (the paths were made before the fork),
    // `setrlimit` is one system call; nothing allocates or locks.
    unsafe {
        cmd.pre_exec(move || {
            cgroup::join_self(&join)?;
            floor.apply();
            Ok(())
        });
    }
    Ok((cmd, Some(Jail { group })))
}

/// The limits the group is given (a sandbox's group takes bubblewrap's own processes too).
fn group_limits(confine: &Confinement) -> cgroup::Limits {
    let extra = if confine.sandbox { BWRAP_TASKS } else { 0 };
    cgroup::Limits {
        memory_bytes: confine.memory_mb.map(|m| m.saturating_mul(1 << 20)),
        tasks: confine.processes.map(|n| n + extra),
        cpus: confine.cpus,
    }
}

/// The rlimits set where the group cannot hold a limit.
#[derive(Clone, Copy, Debug, Default)]
struct Floor {
    address_space: Option<u64>,
    processes: Option<u64>,
}

impl Floor {
    fn of(confine: &Confinement, h: Option<&cgroup::Hierarchy>) -> Floor {
        Floor {
            address_space: confine
                .memory_mb
                .filter(|_| !h.is_some_and(cgroup::Hierarchy::has_memory))
                .map(|m| m.saturating_mul(1 << 20)),
            processes: confine
                .processes
                .filter(|_| !h.is_some_and(cgroup::Hierarchy::has_pids))
                .map(|n| n + if confine.sandbox { BWRAP_TASKS } else { 0 }),
        }
    }

    /// In the child: failures leave the limit unset (the header said it is the floor).
    fn apply(self) {
        use rustix::process::{setrlimit, Resource, Rlimit};
        for (resource, value) in [
            (Resource::As, self.address_space),
            (Resource::Nproc, self.processes),
        ] {
            if let Some(v) = value {
                let _ = setrlimit(
                    resource,
                    Rlimit {
                        current: Some(v),
                        maximum: Some(v),
                    },
                );
            }
        }
    }
}

/// How `confine` is enforced on this machine, in words for the run's header (empty when nothing
/// is asked): `sandbox=on (bubblewrap: ...); memory=256 MB (cgroup v1 memory.limit_in_bytes)`.
pub fn enforcement(confine: &Confinement) -> String {
    let mut out = Vec::new();
    if confine.sandbox {
        out.push(format!(
            "sandbox=on (bubblewrap: system and dir= read-only, private {} scratch, no network, \
             own PID namespace)",
            bwrap::SCRATCH
        ));
    }
    let h = cgroup::hierarchy();
    let v = |h: &cgroup::Hierarchy| match h.version {
        cgroup::Version::V1 => "cgroup v1",
        cgroup::Version::V2 => "cgroup v2",
    };
    let mut fell_back = false;
    if let Some(m) = confine.memory_mb {
        out.push(match h {
            Ok(h) if h.has_memory() => format!(
                "memory={m} MB ({} {})",
                v(h),
                if h.version == cgroup::Version::V1 {
                    "memory.limit_in_bytes"
                } else {
                    "memory.max"
                }
            ),
            _ => {
                fell_back = true;
                format!("memory={m} MB (RLIMIT_AS only: address space)")
            }
        });
    }
    if let Some(n) = confine.processes {
        out.push(match h {
            Ok(h) if h.has_pids() => format!("processes={n} ({} pids.max)", v(h)),
            _ => {
                fell_back = true;
                format!("processes={n} (RLIMIT_NPROC only: all of the user's processes)")
            }
        });
    }
    if let Some(n) = confine.cpus {
        out.push(match h {
            Ok(h) if h.has_cpu() => format!(
                "cpus={n} ({} {})",
                v(h),
                if h.version == cgroup::Version::V1 {
                    "cpu.cfs_quota_us"
                } else {
                    "cpu.max"
                }
            ),
            _ => {
                fell_back = true;
                format!("cpus={n} (NOT enforced)")
            }
        });
    }
    if fell_back {
        // Why, once.
        out.push(match h {
            Ok(h) => h.note.clone(),
            Err(why) => why.to_string(),
        });
    }
    out.join("; ")
}
