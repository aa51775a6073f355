//! The stderr copier: an engine's stderr appended to its log file within a [`LogBudget`] that all
//! of the engine's processes in a run share.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

pub use crate::arena::config::stderr_log::{log_file, MAX_LOG_BYTES};
use crate::sync::lock;

/// The stderr bytes one engine may still write to its log in this run, shared by all of its
/// processes (restarts, several workers).
#[derive(Debug)]
pub struct LogBudget {
    limit: u64,
    used: AtomicU64,
}

impl LogBudget {
    /// A budget of `limit` bytes, shared by whoever holds the `Arc`.
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

    /// The cap in bytes (named in the line that says the log was cut).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_budgets_are_shared_and_reached_once() {
        let b = LogBudget::new(10);
        assert_eq!(b.take(4), (4, false));
        assert_eq!(b.take(8), (6, true));
        assert_eq!(b.take(8), (0, false));
    }
}
