//! The live progress line on a terminal (issue 18, item 6): a run whose stdout is a pseudo
//! terminal rewrites one line in place; the plain lines for pipes are pinned by `arena_runs`.

mod arena_support;

use std::fs::File;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};

use arena_support::*;

#[test]
fn a_terminal_gets_one_live_line_with_rate_eta_and_llr() {
    let dir = scratch("progress-pty");
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty fills in two fresh descriptors, owned below.
    let r = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(r, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: the descriptors are ours alone.
    let (master, slave) = unsafe { (File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
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
    let status = Command::new(ARENA)
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
