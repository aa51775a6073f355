//! The stderr copier: an engine's stderr appended to its log file within a [`LogBudget`] that all
//! of the engine's processes in a run share.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::sync::lock;

/// Stderr bytes written to an engine's log in a run, by default (`--log-limit`): all of the
/// engine's processes share it, so a crash loop cannot fill the disk; the rest is read and
/// dropped (an engine never blocks on its stderr), with one note in the log.
pub const MAX_LOG_BYTES: u64 = 16 * 1024 * 1024;

/// The stderr bytes one engine may still write to its log in this run, shared by all of its
/// processes (restarts, several workers).
#[derive(Debug)]
pub struct LogBudget {
    limit: u64,
    used: AtomicU64,
}

impl LogBudget {
    pub fn new(limit: u64) -> Arc<LogBudget> {
        Arc::new(LogBudget {
            limit,
            used: AtomicU64::new(0),
        })
    }

    /// Takes up to `n` bytes; returns how many may be written, and whether this take reached
    /// the limit (exactly one take does: its writer says so in the log).
    fn take(&self, n: u64) -> (u64, bool) {
        let (mut granted, mut reached) = (0, false);
        let _ = self
            .used
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
                granted = n.min(self.limit.saturating_sub(used));
                reached = used < self.limit && used + granted >= self.limit;
                Some(used + granted)
            });
        (granted, reached)
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The budget of the log file `path` in this process: made with `limit` the first time, the
    /// same budget afterwards, so the start-up check's process and every process of the run that
    /// writes to an engine's log share one cap.
    pub fn shared(path: &Path, limit: u64) -> Arc<LogBudget> {
        static BY_PATH: Mutex<Option<HashMap<PathBuf, Arc<LogBudget>>>> = Mutex::new(None);
        let key = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        lock(&BY_PATH)
            .get_or_insert_with(HashMap::new)
            .entry(key)
            .or_insert_with(|| LogBudget::new(limit))
            .clone()
    }
}

/// Copies a child's stderr to its log file within the engine's `budget`; past it, reads on and
/// drops (so the engine never blocks on a full stderr pipe), after one note in the log.
pub(super) fn spawn_log_copier(
    mut stderr: std::process::ChildStderr,
    log: &Path,
    pid: i32,
    budget: Arc<LogBudget>,
) {
    let path: PathBuf = log.to_path_buf();
    let _ = std::thread::Builder::new()
        .name("engine stderr".into())
        .spawn(move || {
            let file = OpenOptions::new().create(true).append(true).open(&path);
            let mut file: Option<File> = file.ok();
            let log = |bytes: &[u8], file: &mut Option<File>| {
                let Some(f) = file.as_mut() else { return };
                let (granted, reached) = budget.take(bytes.len() as u64);
                let _ = f.write_all(&bytes[..granted as usize]);
                if reached {
                    let _ = writeln!(
                        f,
                        "\n--- pid {pid}: this engine's log limit of {} bytes for the run is \
                         reached (--log-limit); the rest of its stderr is dropped",
                        budget.limit()
                    );
                }
            };
            log(format!("--- pid {pid} started\n").as_bytes(), &mut file);
            let mut buf = [0u8; 8192];
            loop {
                let n = match stderr.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                log(&buf[..n], &mut file);
            }
        });
}

/// The stderr log of the engine named `name` (checked writable before the first game).
pub fn log_file(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{}.stderr.log", file_safe(name)))
}

/// An engine name as a file name, one file name per name: a name of letters, digits, `-`, `_`
/// and `.` (not first) is used as it is; any other is written with each other byte as `%XX`
/// (and a leading `.` as `%2E`), which no name of the first kind holds, so two names never share
/// a log. A file name that would pass 200 bytes is cut and ends in `~` and a 64-bit hash of the
/// whole name (no other file name holds `~`).
fn file_safe(name: &str) -> String {
    let plain = |b: u8| b.is_ascii_alphanumeric() || b"-_.".contains(&b);
    if !name.is_empty() && !name.starts_with('.') && name.bytes().all(plain) {
        return name.to_string();
    }
    let mut s = String::new();
    for (i, b) in name.bytes().enumerate() {
        if plain(b) && !(i == 0 && b == b'.') {
            s.push(char::from(b));
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    if s.is_empty() {
        s.push('%');
    }
    if s.len() > 200 {
        // FNV-1a: any fixed hash does; this one is short and needs no crate.
        let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        s.truncate(180);
        // Not inside a `%XX`: a cut one would read as another name's bytes.
        while s.len() > 177 && s[s.len().saturating_sub(2)..].contains('%') {
            s.pop();
        }
        s.push_str(&format!("~{hash:016x}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names that the old `_` substitution mapped to one file (`a b`, `a_b`, `a/b`) each get
    /// their own; a plain name is its own file name; none names a path or a hidden file.
    #[test]
    fn two_names_never_share_a_log() {
        let names = [
            "a b", "a_b", "a/b", "a%20b", "a%2Fb", ".x", "%2Ex", "x", "é", "è", "..", "engine",
        ];
        let files: Vec<String> = names.iter().map(|n| file_safe(n)).collect();
        let mut unique = files.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{files:?}");
        assert_eq!(file_safe("Stockfish-16.1_x"), "Stockfish-16.1_x");
        assert_eq!(file_safe("a b"), "a%20b");
        for f in &files {
            assert!(!f.contains('/') && !f.starts_with('.'), "{f}");
        }
        let long = |last: char| format!("{}{last}", "é".repeat(63));
        let (x, y) = (file_safe(&long('a')), file_safe(&long('b')));
        assert!(x != y && x.len() <= 200 && x.contains('~'), "{x} {y}");
    }

    #[test]
    fn log_budgets_are_shared_and_reached_once() {
        let b = LogBudget::new(10);
        assert_eq!(b.take(4), (4, false));
        assert_eq!(b.take(8), (6, true));
        assert_eq!(b.take(8), (0, false));
    }
}
