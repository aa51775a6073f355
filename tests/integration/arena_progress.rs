//! The live progress line on a terminal (issue 18, item 6): a run whose stdout is a pseudo
//! terminal rewrites one line in place; the plain lines for pipes are pinned by `arena_runs`.

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::process::Stdio;

use crate::support::arena::*;

#[test]
fn a_terminal_gets_one_live_line_with_rate_eta_and_llr() {
    let dir = scratch("progress-pty");
    let (master, slave) = pty();
    let args = sound_engines_then(
        &["a", "b"],
        &[
            "--each", "depth=1", "--seed", "3", "--rounds", "3", "--sprt", "elo0=0", "elo1=10",
        ],
    );
    let reader = std::thread::spawn(move || {
        let mut master = master;
        let mut bytes = Vec::new();
        let mut buf = [0u8; 4096];
        // Read until every holder of the slave end closed it (EIO on Linux).
        while let Ok(n) = master.read(&mut buf) {
            if n == 0 {
                break;
            }
            bytes.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    });
    let status = crate::support::command(ARENA)
        .args(&args)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::from(slave))
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let out = reader.join().unwrap();
    assert!(!out.contains("Finished game"), "no plain lines: {out}");
    // Six games, each rewriting the line in place.
    assert_eq!(out.matches("\r\x1b[2K[").count(), 6, "{out:?}");
    let last = out.rsplit("\r\x1b[2K").next().unwrap();
    assert!(last.starts_with("[6/6] "), "{last:?}");
    for part in ["games/s, ETA 0:00 | a vs b: W ", " LLR "] {
        assert!(last.contains(part), "{part} in {last:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fresh pseudo terminal: its master and slave ends, both close-on-exec (std opens every file
/// so), so that no process another test starts meanwhile holds the slave end open (the reader
/// waits for every holder to close it). `openpty` would leave both inheritable.
fn pty() -> (File, OwnedFd) {
    let master = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOCTTY)
        .open("/dev/ptmx")
        .unwrap();
    let mut name = [0 as libc::c_char; 128];
    // SAFETY: plain calls on a descriptor this function owns, into a buffer of the given size.
    let r = unsafe {
        if libc::unlockpt(master.as_raw_fd()) != 0 {
            -1
        } else {
            libc::ptsname_r(master.as_raw_fd(), name.as_mut_ptr(), name.len())
        }
    };
    assert_eq!(r, 0, "pty: {}", std::io::Error::last_os_error());
    // SAFETY: ptsname_r wrote a NUL-terminated name into `name`.
    let path = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) };
    let slave = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOCTTY)
        .open(path.to_str().unwrap())
        .unwrap();
    (master, slave.into())
}
