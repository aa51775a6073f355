//! A search thread that cannot be started does not hang `go`: with `Threads=256` under an
//! address-space limit (`ulimit -v`) the search goes on with the threads it has, says so in an
//! `info string warning`, and every depth- or node-limited `go` ends by itself. (Before, the
//! failed spawn panicked the search while the helpers already started searched on: `go depth 5`
//! never answered until `stop`.)

use std::os::unix::process::CommandExt;

use crate::support::ugi::Engine;

/// Far below the 4 GiB that 255 helper stacks of 16 MiB need, far above what otau needs with a
/// 1 MiB table and a few threads.
const ADDRESS_SPACE: libc::rlim_t = 512 << 20;

#[test]
fn threads_that_cannot_start_do_not_hang_go() {
    let mut command = crate::support::otau();
    command.args(["--game", "giuthi-6x4"]);
    // SAFETY: setrlimit is async-signal-safe and touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: ADDRESS_SPACE,
                rlim_max: ADDRESS_SPACE,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut engine = Engine::start_command(command);
    engine.send("setoption name Hash value 1");
    engine.send("setoption name Threads value 256");
    engine.fence();
    for go in ["depth 5", "nodes 20000", "depth 3 nodes 5000"] {
        engine.send("position startpos moves 2a");
        let (best, before) = engine.go(go);
        assert!(!best.is_empty());
        let warning = before
            .iter()
            .find(|l| l.starts_with("info string warning could not start search thread"))
            .unwrap_or_else(|| panic!("go {go}: no warning in {before:?}"));
        assert!(warning.contains("of 256"), "{warning}");
        assert!(warning.contains("; searching with "), "{warning}");
        // Still answering afterwards.
        engine.fence();
    }
}
