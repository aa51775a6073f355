//! A control group per engine: its memory, task and CPU limits, what it used, and every process
//! in it killed at the end.
//!
//! cgroup v2 where the arena's own group is delegated to it (its controllers can be enabled
//! for child groups), else cgroup v1's `memory`, `pids`, `cpu` and `cpuacct` hierarchies where
//! they are mounted and writable, else none (the limits fall back to rlimits: `super`). Each
//! engine process gets `otau-arena-<arena pid>-<n>` beside the arena's own group, joins it
//! between fork and exec (before it can start anything), and the group is emptied and removed
//! when the engine ends. Groups an arena killed with `kill -9` left behind (empty once the
//! guardian killed their processes) are removed by the next arena that looks.

use std::ffi::CString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The CFS period the `cpus=` quota is given in (100 ms, the kernel's default).
const PERIOD_US: u64 = 100_000;
/// How long the removal of an engine's group waits for its killed processes to leave it.
const REMOVE_WAIT: Duration = Duration::from_secs(5);

/// Which cgroup interface holds the engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    V1,
    V2,
}

/// Where the arena makes its engines' groups: one folder (v2) or one a controller (v1), each
/// `None` where that controller is not available.
#[derive(Debug)]
pub(crate) struct Hierarchy {
    pub version: Version,
    memory: Option<PathBuf>,
    pids: Option<PathBuf>,
    cpu: Option<PathBuf>,
    /// v1's CPU accounting (`cpuacct.usage`); v2 has `cpu.stat` in every group.
    cpuacct: Option<PathBuf>,
    /// Why no cgroup or a controller is missing, for the run's header.
    pub note: String,
}

impl Hierarchy {
    pub fn has_memory(&self) -> bool {
        self.memory.is_some()
    }
    pub fn has_pids(&self) -> bool {
        self.pids.is_some()
    }
    pub fn has_cpu(&self) -> bool {
        self.cpu.is_some()
    }
}

/// The machine's hierarchy, looked at once per process (`None`: no usable cgroup).
pub(crate) fn hierarchy() -> Result<&'static Hierarchy, &'static str> {
    static FOUND: OnceLock<Result<Hierarchy, String>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let own = fs::read_to_string("/proc/self/cgroup").map_err(|e| e.to_string())?;
            let found = v2(&own).or_else(|why2| {
                v1(&own).map_err(|why1| format!("no usable cgroup ({why2}; {why1})"))
            })?;
            remove_stale(&found);
            Ok(found)
        })
        .as_ref()
        .map_err(String::as_str)
}

/// The arena's own group in the v2 hierarchy, delegated: its controllers enabled for child
/// groups (enabled here when the arena is the group's only process, after moving itself into a
/// leaf of its own, as the "no internal processes" rule asks).
fn v2(own: &str) -> Result<Hierarchy, String> {
    let root = Path::new("/sys/fs/cgroup");
    if !root.join("cgroup.controllers").exists() {
        return Err("cgroup v2 is not mounted at /sys/fs/cgroup".into());
    }
    let path = own
        .lines()
        .find_map(|l| l.strip_prefix("0::"))
        .ok_or("no cgroup v2 line in /proc/self/cgroup")?;
    let base = root.join(path.trim_start_matches('/'));
    let available = fs::read_to_string(base.join("cgroup.controllers")).unwrap_or_default();
    let wanted: Vec<&str> = ["memory", "pids", "cpu"]
        .into_iter()
        .filter(|c| available.split_whitespace().any(|a| a == *c))
        .collect();
    let enable = |base: &Path| {
        let line: Vec<String> = wanted.iter().map(|c| format!("+{c}")).collect();
        fs::write(base.join("cgroup.subtree_control"), line.join(" "))
    };
    if !wanted.is_empty() && enable(&base).is_err() {
        // Busy: the arena's group holds processes. Move the arena into a leaf, if it is alone.
        let procs = fs::read_to_string(base.join("cgroup.procs")).unwrap_or_default();
        let me = std::process::id().to_string();
        if procs.lines().any(|p| p != me) {
            return Err(format!(
                "cgroup v2 group {} holds other processes: start the arena in a delegated group \
                 of its own (systemd-run --user --scope -p Delegate=yes otau-arena ...)",
                base.display()
            ));
        }
        let leaf = base.join(format!("otau-arena-{me}-self"));
        fs::create_dir_all(&leaf)
            .and_then(|_| fs::write(leaf.join("cgroup.procs"), &me))
            .and_then(|_| enable(&base))
            .map_err(|e| format!("cgroup v2 group {} not delegated: {e}", base.display()))?;
    }
    let enabled = fs::read_to_string(base.join("cgroup.subtree_control")).unwrap_or_default();
    let has = |c: &str| {
        enabled
            .split_whitespace()
            .any(|e| e == c)
            .then(|| base.clone())
    };
    let missing: Vec<&str> = ["memory", "pids", "cpu"]
        .into_iter()
        .filter(|c| has(c).is_none())
        .collect();
    if missing.len() == 3 && writable(&base).is_err() {
        return Err(format!("cgroup v2 group {} not writable", base.display()));
    }
    Ok(Hierarchy {
        version: Version::V2,
        memory: has("memory"),
        pids: has("pids"),
        cpu: has("cpu"),
        cpuacct: Some(base.clone()),
        note: missing_note(&missing, "cgroup v2"),
    })
}

/// cgroup v1: each controller's mount, at the arena's own group in it, where it is writable.
fn v1(own: &str) -> Result<Hierarchy, String> {
    let at = |controller: &str| -> Option<PathBuf> {
        let path = v1_path(own, controller)?;
        let base = Path::new("/sys/fs/cgroup")
            .join(controller)
            .join(path.trim_start_matches('/'));
        // Co-mounted controllers (`cpu,cpuacct`, linked as `cpu` and `cpuacct`) are one folder.
        let base = fs::canonicalize(base).ok()?;
        writable(&base).is_ok().then_some(base)
    };
    let (memory, pids, cpu, cpuacct) = (at("memory"), at("pids"), at("cpu"), at("cpuacct"));
    if memory.is_none() && pids.is_none() && cpu.is_none() {
        return Err("no writable cgroup v1 memory, pids or cpu hierarchy".into());
    }
    let missing: Vec<&str> = [("memory", &memory), ("pids", &pids), ("cpu", &cpu)]
        .into_iter()
        .filter(|(_, p)| p.is_none())
        .map(|(c, _)| c)
        .collect();
    Ok(Hierarchy {
        version: Version::V1,
        memory,
        pids,
        cpu,
        cpuacct,
        note: missing_note(&missing, "cgroup v1"),
    })
}

/// The arena's own group in v1 `controller`'s hierarchy, from `/proc/self/cgroup`'s
/// `N:controller,...:/path` lines.
fn v1_path<'a>(own: &'a str, controller: &str) -> Option<&'a str> {
    own.lines().find_map(|l| {
        let mut f = l.splitn(3, ':');
        let (_, list, path) = (f.next()?, f.next()?, f.next()?);
        list.split(',').any(|c| c == controller).then_some(path)
    })
}

fn missing_note(missing: &[&str], version: &str) -> String {
    if missing.is_empty() {
        String::new()
    } else {
        format!("{version} without the {} controller", missing.join(", "))
    }
}

/// Whether a group can be made under `base` (made and removed at once).
fn writable(base: &Path) -> io::Result<()> {
    let probe = base.join(format!("otau-arena-{}-probe", std::process::id()));
    fs::create_dir(&probe).or_else(|e| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            Ok(())
        } else {
            Err(e)
        }
    })?;
    fs::remove_dir(&probe)
}

/// Removes the empty groups of arenas that are gone (killed before they could).
fn remove_stale(h: &Hierarchy) {
    let mut bases: Vec<&PathBuf> = [&h.memory, &h.pids, &h.cpu, &h.cpuacct]
        .into_iter()
        .flatten()
        .collect();
    bases.dedup();
    for base in bases {
        let Ok(entries) = fs::read_dir(base) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = name
                .strip_prefix("otau-arena-")
                .and_then(|r| r.split('-').next())
                .and_then(|p| p.parse::<u32>().ok())
            else {
                continue;
            };
            if !Path::new(&format!("/proc/{pid}")).exists() {
                // Fails (and stays) while a process is still in it.
                let _ = fs::remove_dir(entry.path());
            }
        }
    }
}

/// What one engine's group holds it to.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Limits {
    pub memory_bytes: Option<u64>,
    pub tasks: Option<u64>,
    pub cpus: Option<u64>,
}

/// One engine's group (a folder in each v1 controller, or one v2 folder).
#[derive(Debug)]
pub(crate) struct Group {
    version: Version,
    memory: Option<PathBuf>,
    pids: Option<PathBuf>,
    cpu: Option<PathBuf>,
    cpuacct: Option<PathBuf>,
    /// Every folder, once.
    dirs: Vec<PathBuf>,
}

impl Group {
    /// Makes the group and sets its limits.
    pub fn create(h: &Hierarchy, limits: Limits) -> io::Result<Group> {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let name = format!(
            "otau-arena-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let at = |base: &Option<PathBuf>, needed: bool| {
            base.as_ref().filter(|_| needed).map(|b| b.join(&name))
        };
        let mut g = Group {
            version: h.version,
            // Only the controllers a limit needs, and the CPU account: each v1 folder made and
            // removed costs the kernel some 5 ms (measured), twice per engine process.
            memory: at(&h.memory, limits.memory_bytes.is_some()),
            pids: at(&h.pids, limits.tasks.is_some()),
            cpu: at(&h.cpu, limits.cpus.is_some()),
            cpuacct: at(&h.cpuacct, true),
            dirs: Vec::new(),
        };
        let all: Vec<PathBuf> = [&g.memory, &g.pids, &g.cpu, &g.cpuacct]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        for d in all {
            if !g.dirs.contains(&d) {
                // Only what was made here is ever emptied and removed (on a failure: by drop).
                fs::create_dir(&d)?;
                g.dirs.push(d);
            }
        }
        g.set_limits(limits)?;
        Ok(g)
    }

    fn set_limits(&self, limits: Limits) -> io::Result<()> {
        let v1 = self.version == Version::V1;
        if let (Some(bytes), Some(d)) = (limits.memory_bytes, &self.memory) {
            if v1 {
                fs::write(d.join("memory.limit_in_bytes"), bytes.to_string())?;
                // No way around the limit through swap (absent without swap accounting).
                let _ = fs::write(d.join("memory.memsw.limit_in_bytes"), bytes.to_string());
            } else {
                fs::write(d.join("memory.max"), bytes.to_string())?;
                let _ = fs::write(d.join("memory.swap.max"), "0");
            }
        }
        if let (Some(n), Some(d)) = (limits.tasks, &self.pids) {
            fs::write(d.join("pids.max"), n.to_string())?;
        }
        if let (Some(n), Some(d)) = (limits.cpus, &self.cpu) {
            let quota = n.saturating_mul(PERIOD_US);
            if v1 {
                fs::write(d.join("cpu.cfs_period_us"), PERIOD_US.to_string())?;
                fs::write(d.join("cpu.cfs_quota_us"), quota.to_string())?;
            } else {
                fs::write(d.join("cpu.max"), format!("{quota} {PERIOD_US}"))?;
            }
        }
        Ok(())
    }

    /// The `cgroup.procs` files a process writes `0` to, to join the group (between fork and
    /// exec: [`join_self`]).
    pub fn procs_files(&self) -> Vec<CString> {
        self.dirs
            .iter()
            .filter_map(|d| {
                CString::new(d.join("cgroup.procs").as_os_str().as_encoded_bytes()).ok()
            })
            .collect()
    }

    /// Whether the kernel's OOM killer killed a process of the group (at its memory limit).
    pub fn oom_killed(&self) -> bool {
        let Some(d) = &self.memory else {
            return false;
        };
        let file = match self.version {
            Version::V1 => "memory.oom_control",
            Version::V2 => "memory.events",
        };
        count_of(
            &fs::read_to_string(d.join(file)).unwrap_or_default(),
            "oom_kill",
        ) > 0
    }

    /// The CPU time all of the group's processes used so far, when it is measured.
    pub fn cpu_time(&self) -> Option<Duration> {
        let d = self.cpuacct.as_ref()?;
        match self.version {
            Version::V1 => fs::read_to_string(d.join("cpuacct.usage"))
                .ok()?
                .trim()
                .parse()
                .ok()
                .map(Duration::from_nanos),
            Version::V2 => {
                let stat = fs::read_to_string(d.join("cpu.stat")).ok()?;
                Some(Duration::from_micros(count_of(&stat, "usage_usec")))
            }
        }
    }

    /// The group's processes (each folder's, together).
    fn members(&self) -> Vec<i32> {
        let mut out: Vec<i32> = Vec::new();
        for d in &self.dirs {
            let procs = fs::read_to_string(d.join("cgroup.procs")).unwrap_or_default();
            out.extend(procs.lines().filter_map(|l| l.trim().parse::<i32>().ok()));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// SIGKILLs every process in the group, then removes it (waiting up to [`REMOVE_WAIT`] for the
    /// killed processes to leave). Whether it is gone.
    pub fn remove(&mut self) -> bool {
        let until = Instant::now() + REMOVE_WAIT;
        loop {
            if self.version == Version::V2 {
                if let Some(d) = self.dirs.first() {
                    let _ = fs::write(d.join("cgroup.kill"), "1");
                }
            }
            for pid in self.members() {
                if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                    let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                }
            }
            self.dirs
                .retain(|d| fs::remove_dir(d).is_err() && d.exists());
            if self.dirs.is_empty() || Instant::now() >= until {
                return self.dirs.is_empty();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.remove();
    }
}

/// Joins the groups whose `cgroup.procs` files are `files`: writes `0` (the writer itself) to
/// each. Runs between fork and exec: two system calls a file through rustix, no allocation.
pub(crate) fn join_self(files: &[CString]) -> io::Result<()> {
    use rustix::fs::{open, Mode, OFlags};
    for f in files {
        let fd = open(
            f.as_c_str(),
            OFlags::WRONLY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        rustix::io::write(&fd, b"0")?;
    }
    Ok(())
}

/// The number after `key` in a `key value` per line file (`memory.events`, `cpu.stat`).
fn count_of(text: &str, key: &str) -> u64 {
    text.lines()
        .find_map(|l| {
            let (k, v) = l.split_once(' ')?;
            (k == key).then(|| v.trim().parse().ok())?
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_read_by_key() {
        let v1 = "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n";
        assert_eq!(count_of(v1, "oom_kill"), 2);
        assert_eq!(
            count_of("usage_usec 1500\nuser_usec 10\n", "usage_usec"),
            1500
        );
        assert_eq!(count_of("", "oom_kill"), 0);
    }

    #[test]
    fn a_v1_line_names_its_controllers() {
        let own = "4:memory:/a/b\n2:cpu,cpuacct:/\n0::/\n";
        assert_eq!(v1_path(own, "memory"), Some("/a/b"));
        assert_eq!(v1_path(own, "cpuacct"), Some("/"));
        assert_eq!(v1_path(own, "pids"), None);
    }
}
