//! Every file an arena command writes goes through here, so that no command line can destroy a
//! result: a run, `--resume`, `merge` and `report` all check their outputs the same way before
//! anything is written, and write them the same way.
//!
//! - [`check_distinct`]: no output is another output or an input (the same file after following
//!   links: same device and inode where it exists, else the same resolved path). Without it
//!   `--out r.jsonl --pgn r.jsonl` replaced the records with PGN.
//! - [`check_location`]: the file can be written (or created) before the first game, so a
//!   read-only `--pgn` is not found after a night of games.
//! - [`write_whole`]: a regular file is written to a temporary file beside its target and renamed
//!   over it (readers find the old content or the new, never a part); a FIFO, a device or
//!   `/dev/stdout` is written directly, as a stream (renaming onto `/dev/null` as root would
//!   replace the system's `/dev/null`); a symlink is followed, so it stays a link.
//! - [`lock_exclusive`]: the records file of a run is held under `flock` for the whole run, so a
//!   second run on it is refused instead of splicing lines into it; so are its other regular
//!   outputs ([`open_append`], [`hold`], [`rewrite_held`]).
//! - No output replaces or appends to a records file (its first line a run header) or a file
//!   another process holds: refused by [`check_location`] before the start, and again on the open
//!   file where it is opened or replaced (issue 27: a `report`, a `merge` or a second run's
//!   outputs used to destroy a run's records, even while it ran).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::os::fd::FromRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use rustix::fs::Access;

/// A file a command reads or writes, with what the user called it (`--pgn`, `the input`).
#[derive(Clone, Debug)]
pub struct Named {
    /// What the user called the file, the first word of every message about it.
    pub what: String,
    /// The path as given.
    pub path: PathBuf,
}

impl Named {
    /// A file called `what` at `path`.
    pub fn new(what: impl Into<String>, path: impl Into<PathBuf>) -> Named {
        Named {
            what: what.into(),
            path: path.into(),
        }
    }
}

impl std::fmt::Display for Named {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.what, self.path.display())
    }
}

/// What makes two paths the same file.
#[derive(PartialEq, Eq, Debug)]
enum Identity {
    /// An existing file (links followed).
    Inode(u64, u64),
    /// A file not there yet: where it would be created.
    Path(PathBuf),
}

fn identity(path: &Path) -> Identity {
    match std::fs::metadata(path) {
        Ok(m) => Identity::Inode(m.dev(), m.ino()),
        Err(_) => Identity::Path(resolved(path)),
    }
}

/// Whether two paths name the same file (see [`check_distinct`]).
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    identity(a) == identity(b)
}

/// Where a file that does not exist yet would be created: an absolute path, a dangling link's
/// target followed, the directory's links resolved.
fn resolved(path: &Path) -> PathBuf {
    let mut p = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    // As the kernel does (ELOOP after 40 links).
    for _ in 0..40 {
        let Ok(target) = std::fs::read_link(&p) else {
            break;
        };
        p = match p.parent() {
            Some(dir) => dir.join(target),
            None => target,
        };
    }
    match (p.parent(), p.file_name()) {
        (Some(dir), Some(name)) => match std::fs::canonicalize(dir) {
            Ok(dir) => dir.join(name),
            Err(_) => p.clone(),
        },
        _ => p,
    }
}

/// Refuses a command whose outputs collide with each other or with its inputs, before anything
/// is written (the error names both).
pub fn check_distinct(outputs: &[Named], inputs: &[Named]) -> Result<()> {
    let ids: Vec<Identity> = outputs.iter().map(|o| identity(&o.path)).collect();
    let input_ids: Vec<Identity> = inputs.iter().map(|i| identity(&i.path)).collect();
    for (i, out) in outputs.iter().enumerate() {
        if let Some(j) = (0..i).find(|&j| ids[j] == ids[i]) {
            bail!(
                "{out} and {} are the same file: nothing was written; give each output a file \
                 of its own",
                outputs[j]
            );
        }
        if let Some(j) = (0..inputs.len()).find(|&j| input_ids[j] == ids[i]) {
            bail!(
                "{out} is the same file as {}, which this command reads: nothing was written; \
                 choose another file for {}",
                inputs[j],
                out.what
            );
        }
    }
    Ok(())
}

/// What is at an output path.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Target {
    /// Nothing (or a dangling link): the file will be created.
    Absent,
    /// A regular file (links followed) of this many bytes.
    Regular(u64),
    /// A FIFO, a device, `/dev/stdout`: written directly, never renamed over.
    Stream,
    /// A directory: refused as an output, naming it.
    Directory,
}

/// The file descriptor a path like `/dev/stdout` or `/proc/self/fd/3` names.
fn fd_path(path: &Path) -> Option<i32> {
    let s = path.to_str()?;
    match s {
        "/dev/stdin" => return Some(0),
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let n = s
        .strip_prefix("/dev/fd/")
        .or_else(|| s.strip_prefix("/proc/self/fd/"))?;
    n.parse().ok()
}

/// What is at `path` now, so an output is written the right way (a stream directly, a file through
/// a rename) or refused.
pub fn target(path: &Path) -> std::io::Result<Target> {
    if fd_path(path).is_some() {
        return Ok(Target::Stream);
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Ok(Target::Directory),
        Ok(m) if m.is_file() => Ok(Target::Regular(m.len())),
        Ok(_) => Ok(Target::Stream),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Target::Absent),
        Err(e) => Err(e),
    }
}

fn access(path: &Path, mode: Access) -> std::io::Result<()> {
    if path.as_os_str().as_bytes().contains(&0) {
        return Err(std::io::ErrorKind::InvalidInput.into());
    }
    Ok(rustix::fs::access(path, mode)?)
}

/// The directory a new file at `path` goes into.
fn parent_dir(path: &Path) -> PathBuf {
    let p = resolved(path);
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Checks, before anything is written, that `out` can be written: an existing file is writable,
/// or its directory lets a file be created. Returns what is there.
pub fn check_location(out: &Named) -> Result<Target> {
    let t = target(&out.path).with_context(|| {
        format!("{out}: no file can be written there; create its directory or choose another place")
    })?;
    match t {
        Target::Directory => bail!("{out}: is a directory; give a file name"),
        Target::Regular(_) => {
            access(&out.path, Access::WRITE_OK)
                .with_context(|| format!("{out}: cannot be written; choose another file"))?;
            refuse_claimed(out, None)?;
        }
        Target::Stream => {
            if let Some(fd) = fd_path(&out.path) {
                // SAFETY: F_GETFD only reads the descriptor's flags.
                if unsafe { libc::fcntl(fd, libc::F_GETFD) } < 0 {
                    bail!("{out}: file descriptor {fd} is not open");
                }
            } else {
                access(&out.path, Access::WRITE_OK)
                    .with_context(|| format!("{out}: cannot be written; choose another file"))?;
            }
        }
        Target::Absent => {
            let dir = parent_dir(&out.path);
            access(&dir, Access::WRITE_OK | Access::EXEC_OK).with_context(|| {
                format!(
                    "{out}: cannot create a file in {}; create the directory, make it \
                     writable, or choose another place",
                    dir.display()
                )
            })?;
        }
    }
    Ok(t)
}

/// Checks that a directory exists or can be created, and that files can be created in it. With
/// `create` it is created; returns whether it was (so a failed start can remove it again).
pub(crate) fn prepare_dir(dir: &Named, create: bool) -> Result<bool> {
    let existed = dir.path.exists();
    if existed && !dir.path.is_dir() {
        bail!("{dir}: is not a directory; give a directory");
    }
    if !existed && !create {
        check_location(dir)?;
        return Ok(false);
    }
    std::fs::create_dir_all(&dir.path)
        .with_context(|| format!("{dir}: cannot create the directory; choose another place"))?;
    access(&dir.path, Access::WRITE_OK | Access::EXEC_OK)
        .with_context(|| format!("{dir}: files cannot be created in it; choose another place"))?;
    Ok(!existed)
}

/// Opens a stream target (FIFO, device, `/dev/stdout`) for writing, without creating or
/// truncating anything. A FIFO must already have a reader: waiting for one would be an
/// unbounded wait.
pub(crate) fn open_stream(out: &Named) -> Result<File> {
    if let Some(fd) = fd_path(&out.path) {
        // Through the same open file (its offset, its append mode), as a shell's `>>` set it up.
        // SAFETY: `dup` of a descriptor number touches no memory (and fails if it is not open);
        // the copy it returns is new, so the File is its one owner.
        let new = unsafe {
            let new = libc::dup(fd);
            (new >= 0).then(|| File::from_raw_fd(new))
        };
        return new
            .ok_or_else(std::io::Error::last_os_error)
            .with_context(|| format!("{out}: file descriptor {fd} is not open"));
    }
    let file = OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&out.path)
        .map_err(|e| {
            if e.raw_os_error() == Some(libc::ENXIO) {
                anyhow::anyhow!(
                    "{out}: a FIFO with no reader; start the program that reads it first"
                )
            } else {
                anyhow::Error::new(e).context(format!("{out}: cannot be opened for writing"))
            }
        })?;
    // Writes block as for any stream: only the open was not to wait.
    if let Ok(flags) = rustix::fs::fcntl_getfl(&file) {
        let _ = rustix::fs::fcntl_setfl(&file, flags - rustix::fs::OFlags::NONBLOCK);
    }
    Ok(file)
}

/// The regular file a path names: a symlink's final target (so writing it, or renaming over it,
/// leaves the link a link), else the path itself.
pub(crate) fn real_path(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| resolved(path))
        }
        _ => path.to_path_buf(),
    }
}

/// Writes a whole file. A regular file (or a new one) is written so that readers find the old
/// content or the new, never a part of it: the bytes go to a temporary file beside the target,
/// are synced to disk, and the temporary file then takes the target's name (atomic within one
/// file system); a crash or a full disk leaves at most a stray `.<name>.tmp.<pid>` file. With
/// `no_clobber` an existing target is an error, checked atomically (the temporary file is linked,
/// not renamed, to the target's name). A stream target is written directly.
pub fn write_whole(out: &Named, bytes: &[u8], no_clobber: bool) -> Result<()> {
    write_whole_with(out, no_clobber, |w| w.write_all(bytes))
}

/// [`write_whole`], the content written by `fill` (so a long file need not be held in memory).
pub(crate) fn write_whole_with(
    out: &Named,
    no_clobber: bool,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    write_whole_as(out, no_clobber, None, fill).map(drop)
}

/// Rewrites a regular output this run holds (`held`, from [`hold`] or an earlier rewrite) the
/// way [`write_whole`] writes: the new file is locked before it takes the name, so the output
/// is never free for another process to take. Returns the new file, to hold in place of `held`
/// (`None` for a stream target).
pub(crate) fn rewrite_held(
    out: &Named,
    held: Option<File>,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<Option<File>> {
    write_whole_as(out, false, held, fill)
}

fn write_whole_as(
    out: &Named,
    no_clobber: bool,
    held: Option<File>,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<Option<File>> {
    // The existing file is locked while it is replaced: another process's, or a run's records,
    // is refused first.
    let _old = match target(&out.path).with_context(|| format!("{out}: cannot be examined"))? {
        Target::Directory => bail!("{out}: is a directory; give a file name"),
        Target::Stream => {
            let mut f = std::io::BufWriter::new(open_stream(out)?);
            fill(&mut f)
                .and_then(|_| f.flush())
                .with_context(|| format!("{out}: cannot be written"))?;
            return Ok(None);
        }
        Target::Regular(_) if no_clobber => {
            bail!("{out}: exists (an existing file is never replaced); choose another name")
        }
        Target::Regular(_) => match held {
            Some(h) => Some(h),
            None => Some(hold(out)?),
        },
        Target::Absent => held,
    };
    let path = real_path(&out.path);
    let name = path
        .file_name()
        .with_context(|| format!("{out}: not a file name"))?;
    let tmp = path.with_file_name(format!(
        ".{}.tmp.{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = (|| -> std::io::Result<File> {
        let f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        // Locked before it has the name: it is held from the moment anyone can reach it.
        f.try_lock().map_err(|e| match e {
            TryLockError::WouldBlock => std::io::Error::from(rustix::io::Errno::WOULDBLOCK),
            TryLockError::Error(e) => e,
        })?;
        let mut w = std::io::BufWriter::new(f);
        fill(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        if no_clobber {
            std::fs::hard_link(&tmp, &path)?;
            std::fs::remove_file(&tmp)?;
        } else {
            std::fs::rename(&tmp, &path)?;
        }
        Ok(f)
    })();
    let e = match written {
        Ok(f) => return Ok(Some(f)),
        Err(e) => e,
    };
    let _ = std::fs::remove_file(&tmp);
    let hint = if e.kind() == std::io::ErrorKind::AlreadyExists {
        "an existing file is never replaced; choose another name"
    } else {
        "check the free space and permissions of its directory"
    };
    Err(e).with_context(|| format!("{out}: cannot be written ({hint})"))
}

/// Holds `file` under an exclusive `flock` until it is closed; refuses at once if another
/// process holds it.
pub(crate) fn lock_exclusive(file: &File, path: &Path) -> Result<()> {
    lock_or_refuse(file, path, Lock::Exclusive)
}

/// Which lock [`lock_or_refuse`] takes.
enum Lock {
    Exclusive,
    /// Only a probe of whether another process holds the file.
    Shared,
}

/// Takes the lock without waiting (std's `File::try_lock`: `flock` on Linux, macOS and the BSDs,
/// the lock `/proc/locks` lists and that earlier versions took); a lock another process holds is
/// refused naming that process (see [`lock_holder`]).
fn lock_or_refuse(file: &File, path: &Path, lock: Lock) -> Result<()> {
    let taken = match lock {
        Lock::Exclusive => file.try_lock(),
        Lock::Shared => file.try_lock_shared(),
    };
    let e = match taken {
        Ok(()) => return Ok(()),
        Err(TryLockError::Error(e)) => e,
        Err(TryLockError::WouldBlock) => {
            let holder = match lock_holder(file) {
                Some(h) => format!("process {h}"),
                None => "an otau-arena process is writing it".to_string(),
            };
            bail!(
                "{}: another run holds it ({holder}); no command writes to a file a running \
                 run holds: wait for that run to end, or stop it, first (or choose another file)",
                path.display()
            );
        }
    };
    Err(e).with_context(|| format!("{}: cannot be locked", path.display()))
}

/// Bytes of `/proc/locks` and of a command line read to name a lock's holder.
const PROC_READ_MAX: u64 = 1 << 20;

/// The process holding a lock on `file`, as `PID (its command line)`, from `/proc/locks`: what
/// names the run that holds a records file or an output. `None` where that is not known (no
/// `/proc`, another PID namespace).
fn lock_holder(file: &File) -> Option<String> {
    use std::io::Read;
    let m = file.metadata().ok()?;
    let exact = format!(
        "{:02x}:{:02x}:{}",
        libc::major(m.dev()),
        libc::minor(m.dev()),
        m.ino()
    );
    // On an overlay file system the lock is on the lower inode's device: the inode alone then.
    let inode = format!(":{}", m.ino());
    let mut text = String::new();
    File::open("/proc/locks")
        .ok()?
        .take(PROC_READ_MAX)
        .read_to_string(&mut text)
        .ok()?;
    let me = std::process::id().to_string();
    let holders = |matches: &dyn Fn(&str) -> bool| -> Option<String> {
        text.lines().find_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let at = fields.iter().position(|f| matches(f))?;
            let pid = fields.get(at.checked_sub(1)?)?;
            (line.contains("FLOCK") && !line.contains("->") && *pid != me).then(|| pid.to_string())
        })
    };
    let pid = holders(&|f| f == exact).or_else(|| holders(&|f| f.ends_with(&inode)))?;
    let mut cmd = Vec::new();
    let _ = File::open(format!("/proc/{pid}/cmdline"))
        .and_then(|f| f.take(PROC_READ_MAX).read_to_end(&mut cmd));
    let cmd: String = String::from_utf8_lossy(&cmd)
        .trim_end_matches('\0')
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(400)
        .collect();
    Some(if cmd.is_empty() {
        pid
    } else {
        format!("{pid}: {cmd}")
    })
}

/// The most of a file's first line read to tell whether it is a run header.
const HEADER_PEEK: u64 = 1 << 20;

/// Whether the file at `path` is a records file (its first line is a run header), and if so the
/// run it records, in a few words. A file that cannot be read is not taken for one.
pub(crate) fn records_run(path: &Path) -> Option<String> {
    use std::io::{BufRead, Read};
    // The shared opener: a regular file only, opened without blocking on a FIFO; any size (only
    // its first line is read).
    let f = crate::input::open_input_file(path, u64::MAX - 1, "output").ok()?;
    let mut line = Vec::new();
    std::io::BufReader::new(f.take(HEADER_PEEK))
        .read_until(b'\n', &mut line)
        .ok()?;
    #[derive(serde::Deserialize)]
    struct Tag {
        event: String,
    }
    let text = String::from_utf8_lossy(&line);
    let header = match serde_json::from_str::<Tag>(&text) {
        Ok(t) => t.event == "run",
        // A first line longer than the peek: the arena writes the tag first.
        Err(_) => text.trim_start().starts_with("{\"event\":\"run\""),
    };
    if !header {
        return None;
    }
    // Read as plain JSON, not as the records' own types: this check sits below the records
    // (every output goes through it), and a header it cannot read still refuses the file.
    #[derive(serde::Deserialize)]
    struct Header {
        config: HeaderConfig,
    }
    #[derive(serde::Deserialize)]
    struct HeaderConfig {
        game: String,
        engines: Vec<HeaderEngine>,
    }
    #[derive(serde::Deserialize)]
    struct HeaderEngine {
        name: String,
    }
    let run = match serde_json::from_str::<Header>(&text) {
        Ok(h) => {
            let names: Vec<String> = (h.config.engines.iter())
                .map(|e| crate::names::shown(&e.name).into_owned())
                .collect();
            let mut names = names.join(", ");
            if names.chars().count() > 200 {
                names = names.chars().take(200).collect::<String>() + "...";
            }
            format!(
                "a run of {} between {names}",
                crate::names::shown(&h.config.game)
            )
        }
        _ => "a run".to_string(),
    };
    Some(run)
}

/// Refuses an output that holds a run's records or that another process holds locked: no
/// command writes over or after them (it would destroy the run, or splice into a running one).
fn refuse_claimed(out: &Named, file: Option<&File>) -> Result<()> {
    if let Some(run) = records_run(&out.path) {
        bail!(
            "{out}: holds the records of {run} (its first line is a run header); no command \
             replaces or appends to a records file: choose another file for {} (to continue \
             that run: otau-arena --resume {})",
            out.what,
            out.path.display()
        );
    }
    match file {
        Some(f) => lock_or_refuse(f, &out.path, Lock::Exclusive),
        None => {
            // A probe: a shared lock is refused while another process holds the file.
            let Ok(f) = OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&out.path)
            else {
                return Ok(());
            };
            lock_or_refuse(&f, &out.path, Lock::Shared)
        }
    }
}

/// Opens a regular output for appending (a new file with `new`), held under an exclusive
/// lock until closed; refused, before a byte is written, if it holds a run's records or
/// another process holds it. Every output a run appends to (PGN, protocol log) is opened here.
pub(crate) fn open_append(out: &Named, new: bool) -> Result<File> {
    // Through a dangling link: its target is created, the link stays.
    let file = OpenOptions::new()
        .append(true)
        .create_new(new)
        .open(real_path(&out.path))
        .with_context(|| {
            if new {
                format!("{out}: cannot be created")
            } else {
                format!("{out}: cannot be opened for appending")
            }
        })?;
    refuse_claimed(out, Some(&file))?;
    Ok(file)
}

/// Holds an existing regular output of this run (its report, its PGN before it is rewritten)
/// under an exclusive lock, as its records are held, after the same refusals as
/// [`open_append`].
pub fn hold(out: &Named) -> Result<File> {
    // Read-only where allowed (a lock needs no more), else as it will be written.
    let file = OpenOptions::new()
        .read(true)
        .open(&out.path)
        .or_else(|_| OpenOptions::new().append(true).open(&out.path))
        .with_context(|| format!("{out}: cannot be opened"))?;
    refuse_claimed(out, Some(&file))?;
    Ok(file)
}

/// A path as recorded in a run header: relative to the records file's directory when it lies
/// within it (so the directory can be moved and the run resumed from anywhere), else absolute.
pub(crate) fn to_record(records: &Path, path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    if fd_path(path).is_some() {
        return path.to_path_buf();
    }
    let dir = std::path::absolute(records)
        .ok()
        .and_then(|r| r.parent().map(Path::to_path_buf));
    match dir.as_deref().and_then(|d| abs.strip_prefix(d).ok()) {
        Some(rel) if !rel.as_os_str().is_empty() => rel.to_path_buf(),
        _ => abs,
    }
}

/// A path recorded by [`to_record`], as a path to open now.
pub(crate) fn from_record(records: &Path, recorded: &Path) -> PathBuf {
    if recorded.is_absolute() {
        return recorded.to_path_buf();
    }
    match records.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.join(recorded),
        _ => recorded.to_path_buf(),
    }
}

/// Files and directories a start-up created, removed again if it fails (so a failed start leaves
/// no empty records file behind that the next attempt would trip over).
#[derive(Default)]
pub struct Created {
    files: Vec<PathBuf>,
    dirs: Vec<PathBuf>,
}

impl Created {
    /// A file the start-up created: removed again if it fails.
    pub fn file(&mut self, path: &Path) {
        self.files.push(path.to_path_buf());
    }

    /// A directory the start-up created: removed again (if empty) if it fails.
    pub fn dir(&mut self, path: &Path) {
        self.dirs.push(path.to_path_buf());
    }

    /// The start-up succeeded: keep everything.
    pub fn keep(mut self) {
        self.files.clear();
        self.dirs.clear();
    }
}

impl Drop for Created {
    fn drop(&mut self) {
        for f in &self.files {
            let _ = std::fs::remove_file(f);
        }
        for d in self.dirs.iter().rev() {
            // Only if still empty: never anything that was put there meanwhile.
            let _ = std::fs::remove_dir(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("otau-outputs-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn the_same_file_by_any_name_collides() {
        let d = scratch("same");
        let a = d.join("a.jsonl");
        std::fs::write(&a, "x\n").unwrap();
        std::os::unix::fs::symlink(&a, d.join("link")).unwrap();
        std::fs::hard_link(&a, d.join("hard")).unwrap();
        std::fs::create_dir(d.join("sub")).unwrap();
        let out = |p: PathBuf| Named::new("--out", p);
        let input = [Named::new("the input", &a)];
        for other in [d.join("link"), d.join("hard"), d.join("sub/../a.jsonl")] {
            let e = check_distinct(&[out(other.clone())], &input).unwrap_err();
            assert!(e.to_string().contains("a.jsonl"), "{e}");
        }
        // Files not there yet: the same place by two spellings.
        let new = [
            Named::new("--out", d.join("new.pgn")),
            Named::new("--pgn", d.join("sub/../new.pgn")),
        ];
        let e = check_distinct(&new, &[]).unwrap_err().to_string();
        assert!(e.contains("--out") && e.contains("--pgn"), "{e}");
        // A dangling link and its target.
        std::os::unix::fs::symlink(d.join("later.pgn"), d.join("dangling")).unwrap();
        let e = check_distinct(
            &[
                Named::new("--pgn", d.join("dangling")),
                Named::new("--report", d.join("later.pgn")),
            ],
            &[],
        );
        assert!(e.is_err());
        check_distinct(
            &[out(d.join("x.jsonl")), Named::new("--pgn", d.join("x.pgn"))],
            &input,
        )
        .unwrap();
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_symlink_stays_a_link_and_streams_are_not_replaced() {
        let d = scratch("links");
        let real = d.join("real.pgn");
        std::fs::write(&real, "old").unwrap();
        let link = d.join("link.pgn");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_whole(&Named::new("--pgn", &link), b"new", false).unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        // A device: written directly (renaming over /dev/null would replace it).
        let null = Named::new("--pgn", "/dev/null");
        assert_eq!(target(&null.path).unwrap(), Target::Stream);
        write_whole(&null, b"gone", false).unwrap();
        assert!(std::fs::metadata("/dev/null").unwrap().len() == 0);
        let e = write_whole(&Named::new("--out", &real), b"x", true).unwrap_err();
        assert!(e.to_string().contains("never replaced"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn recorded_paths_are_relative_to_the_records_directory() {
        let rec = Path::new("/data/runs/r.jsonl");
        assert_eq!(
            to_record(rec, Path::new("/data/runs/r.pgn")),
            PathBuf::from("r.pgn")
        );
        assert_eq!(
            to_record(rec, Path::new("/elsewhere/r.pgn")),
            PathBuf::from("/elsewhere/r.pgn")
        );
        assert_eq!(
            from_record(Path::new("runs/r.jsonl"), Path::new("r.pgn")),
            PathBuf::from("runs/r.pgn")
        );
        assert_eq!(
            from_record(Path::new("r.jsonl"), Path::new("r.pgn")),
            PathBuf::from("r.pgn")
        );
    }
}
