//! Where an engine's stderr goes: its log file's name (one file a name, whatever the name
//! holds) and the default budget of bytes a run writes to it. Part of what a run is, so the
//! configuration (`EngineConfig::stderr_path`) and the stderr copier below it read the same.

use std::path::{Path, PathBuf};

/// Stderr bytes written to an engine's log in a run, by default (`--log-limit`): all of the
/// engine's processes share it, so a crash loop cannot fill the disk; the rest is read and
/// dropped (an engine never blocks on its stderr), with one note in the log.
pub const MAX_LOG_BYTES: u64 = 16 * 1024 * 1024;

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
}
