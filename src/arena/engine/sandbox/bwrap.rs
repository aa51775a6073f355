//! The bubblewrap command line that runs an engine in its sandbox, and the check that bubblewrap
//! and the kernel's user namespaces are there.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::arena::config::find_on_path;

/// What the sandbox's `PATH` is: the system's folders only (the arena's own may name folders
/// the sandbox does not show).
pub const SANDBOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";
/// The private scratch folder (a fresh tmpfs per engine process): `HOME` and `TMPDIR` too.
pub const SCRATCH: &str = "/tmp";
/// The longest the check that bubblewrap runs may take.
const CHECK_TIMEOUT: Duration = Duration::from_secs(20);

/// The system's top folders shown read-only: `/usr`, and the merged-`/usr` links or folders
/// beside it.
const SYSTEM_DIRS: [&str; 7] = [
    "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr",
];
/// What a program needs of `/etc` to start (users, the dynamic linker's cache, the time zone,
/// Debian's alternatives); nothing else of it (no `shadow`, no keys, no host names).
const ETC_FILES: [&str; 9] = [
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/alternatives",
    "/etc/os-release",
];

/// The `bwrap` program, and that it can make a sandbox here: found on `PATH` and run once (per
/// arena process) on `true`. The error names what to install or enable.
pub(crate) fn bwrap() -> Result<&'static Path, String> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let bwrap = find_on_path("bwrap").ok_or_else(|| {
                "sandbox=on needs bubblewrap's bwrap on PATH, which is not there: install \
                 bubblewrap (Debian, Ubuntu: apt-get install bubblewrap; Fedora: dnf install \
                 bubblewrap; Arch: pacman -S bubblewrap)"
                    .to_string()
            })?;
            let mut cmd = Command::new(&bwrap);
            cmd.args(args(None, Path::new("/usr/bin/true")))
                .arg("/usr/bin/true")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped());
            check_run(cmd).map(|()| bwrap)
        })
        .as_ref()
        .map(PathBuf::as_path)
        .map_err(String::clone)
}

/// Runs the check's `bwrap ... true` within [`CHECK_TIMEOUT`].
fn check_run(mut cmd: Command) -> Result<(), String> {
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("sandbox=on: cannot run bwrap: {e}"))?;
    let until = Instant::now() + CHECK_TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "sandbox=on: bwrap did not make a sandbox within {} s",
                    CHECK_TIMEOUT.as_secs()
                ));
            }
        }
    };
    if status.success() {
        return Ok(());
    }
    let mut said = String::new();
    if let Some(mut err) = child.stderr.take() {
        use std::io::Read;
        let _ = (&mut err).take(2000).read_to_string(&mut said);
    }
    Err(format!(
        "sandbox=on: bubblewrap cannot make a sandbox here ({}): enable unprivileged user \
         namespaces (sysctl kernel.unprivileged_userns_clone=1 on Debian, user.max_user_namespaces \
         above 0; on Ubuntu 24.04 and later kernel.apparmor_restrict_unprivileged_userns=0 or an \
         AppArmor profile for bwrap; in a container, one that allows them)",
        said.trim().lines().last().unwrap_or("no message")
    ))
}

/// bubblewrap's arguments before the program: every namespace new (user, PID, network, IPC,
/// UTS, cgroup), no capability, death with the arena (its session of its own, with no terminal
/// to push input into, is the arena's `setsid`: then pauses and kills reach the whole sandbox,
/// which bubblewrap's `--new-session` would put out of the group), an empty environment but for `PATH`, `HOME` and `TMPDIR`; the system read-only,
/// `dir` read-only and the working folder (else the scratch folder), the program's file
/// read-only when it lies elsewhere, a fresh `/proc`, a minimal `/dev` and the scratch tmpfs.
pub(crate) fn args(dir: Option<&Path>, program: &Path) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::new();
    let mut push = |words: &[&dyn AsRef<std::ffi::OsStr>]| {
        a.extend(words.iter().map(|w| w.as_ref().to_os_string()));
    };
    push(&[
        &"--unshare-all",
        &"--die-with-parent",
        &"--cap-drop",
        &"ALL",
        &"--clearenv",
        &"--setenv",
        &"PATH",
        &SANDBOX_PATH,
        &"--setenv",
        &"HOME",
        &SCRATCH,
        &"--setenv",
        &"TMPDIR",
        &SCRATCH,
        &"--setenv",
        &"LANG",
        &"C.UTF-8",
    ]);
    for d in SYSTEM_DIRS {
        let p = Path::new(d);
        match std::fs::read_link(p) {
            Ok(target) => push(&[&"--symlink", &target, &p]),
            Err(_) if p.is_dir() => push(&[&"--ro-bind", &p, &p]),
            Err(_) => {}
        }
    }
    for f in ETC_FILES {
        push(&[&"--ro-bind-try", &f, &f]);
    }
    push(&[&"--proc", &"/proc", &"--dev", &"/dev", &"--tmpfs", &SCRATCH]);
    let shown = |p: &Path| {
        SYSTEM_DIRS.iter().any(|d| p.starts_with(d)) || dir.is_some_and(|d| p.starts_with(d))
    };
    if let Some(d) = dir {
        push(&[&"--ro-bind", &d, &d]);
    }
    if program.is_absolute() && !shown(program) {
        push(&[&"--ro-bind", &program, &program]);
    }
    push(&[&"--chdir", &dir.unwrap_or(Path::new(SCRATCH))]);
    push(&[&"--"]);
    a
}

/// The program as the sandbox runs it: a name looked up on the arena's `PATH` (where the
/// sandbox's own `PATH` may not find it) becomes the file found; a path relative to the arena's
/// folder without `dir` becomes absolute. `Err` when it is nowhere.
pub(crate) fn program_path(program: &str, dir: Option<&Path>) -> io::Result<PathBuf> {
    if !program.contains('/') {
        return find_on_path(program).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("'{program}' is not on PATH"),
            )
        });
    }
    let p = Path::new(program);
    Ok(match dir {
        // Relative to `dir`, where the sandbox starts it.
        Some(_) if p.is_relative() => p.to_path_buf(),
        _ => std::path::absolute(p)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(a: &[OsString]) -> String {
        a.iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_sandbox_shows_the_system_the_folder_and_the_program() {
        let a = text(&args(
            Some(Path::new("/home/u/bots/x")),
            Path::new("/opt/x/bot"),
        ));
        for want in [
            "--unshare-all --die-with-parent --cap-drop ALL --clearenv",
            "--setenv HOME /tmp",
            "--ro-bind-try /etc/passwd /etc/passwd",
            "--tmpfs /tmp --ro-bind /home/u/bots/x /home/u/bots/x",
            "--ro-bind /opt/x/bot /opt/x/bot --chdir /home/u/bots/x --",
        ] {
            assert!(a.contains(want), "{want}: {a}");
        }
        assert!(!a.contains("/etc/shadow") && !a.contains("--bind "), "{a}");
        // A program inside its folder or the system is not bound again; no folder: scratch.
        let a = text(&args(None, Path::new("/usr/bin/python3")));
        assert!(a.ends_with("--tmpfs /tmp --chdir /tmp --"), "{a}");
    }
}
