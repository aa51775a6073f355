//! No `go` waits on its clock for a table that is being read or built (Modiar's 110 MB solution,
//! the Toguz Kumalak endgame tables), with a cold cache (nothing on disk: Modiar's table takes
//! about 10 s to build) and a warm one (a file to read, 0.3-2.4 s). A `go` on a clock that comes
//! first searches without the table and says so; an untimed `go` (depth, nodes) waits for it,
//! so it plays the same move cold and warm. (Before, a fresh engine's first `go movetime 20` in
//! Modiar waited for the table: about 10 s cold, and under cutegames, which sends `isready` right
//! before `go`, game 1 was lost on time at ply 0.)

use std::path::Path;
use std::time::Duration;

use crate::support::ugi::{Engine, TIMEOUT};

fn engine_with_cache(dir: &Path, game: &str) -> Engine {
    let mut command = crate::support::otau();
    command.args(["--game", game]).env("OTAU_CACHE_DIR", dir);
    let mut engine = Engine::start_command(command);
    engine.send("ugi");
    engine.expect("ugiok");
    // As cutegames does: `isready` right before the first `go`.
    engine.fence();
    engine
}

/// The longest wait for Modiar's table to be built (about 10 s of CPU on an idle machine).
const BUILD: Duration = Duration::from_secs(600);

const STILL_READING: &str = "info string warning the tables of";

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("otau-tables-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn modiar_first_moves_never_wait_for_the_table() {
    let dir = scratch("modiar");
    // Cold: nothing in the cache. The build takes seconds; the timed go cannot wait for it.
    let mut cold = engine_with_cache(&dir, "modiar");
    cold.send("position startpos");
    let (_, before) = cold.go("movetime 50");
    assert!(
        before.iter().any(|l| l.starts_with(STILL_READING)),
        "cold: the first timed go did not go without the table: {before:?}"
    );
    // An untimed go waits for the table (stop would end the wait): the solved move, no search.
    // The build takes about 10 s of CPU, several times that on a loaded machine.
    cold.send("go depth 3");
    let (line, before) = cold.until_within("bestmove", BUILD, |l| l.starts_with("bestmove"));
    let cold_move = line.split(' ').nth(1).unwrap_or_default().to_string();
    let last_info = before
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(
        last_info.contains(" nodes 0 "),
        "cold depth 3 not from the table: {before:?}"
    );
    assert!(
        !before.iter().any(|l| l.starts_with(STILL_READING)),
        "{before:?}"
    );
    cold.send("quit");
    assert!(cold.wait_exit(TIMEOUT).is_some());
    assert!(
        dir.join(otau::tables::modiar::cache_file_name()).exists(),
        "the build was saved"
    );

    // Warm: the file is there to be read. The timed go answers whether the read is over or not.
    let mut warm = engine_with_cache(&dir, "modiar");
    warm.send("position startpos");
    let (_, _) = warm.go("movetime 20");
    let (warm_move, before) = warm.go("depth 3");
    let last_info = before
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(
        last_info.contains(" nodes 0 "),
        "warm depth 3 not from the table: {before:?}"
    );
    assert_eq!(
        cold_move, warm_move,
        "an untimed go plays the same move cold and warm"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stop_ends_the_wait_for_a_table() {
    let dir = scratch("modiar-stop");
    let mut engine = engine_with_cache(&dir, "modiar");
    engine.send("position startpos");
    // go infinite waits for the table (it is building, seconds away); stop ends the wait and the
    // search, which went without the table.
    engine.send("go infinite");
    engine.fence();
    engine.send("stop");
    let (best, before) = engine.bestmove();
    assert!(!best.is_empty());
    assert!(
        before.iter().any(|l| l.starts_with(STILL_READING)),
        "{before:?}"
    );
    drop(engine);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn toguz_tables_cold_and_warm() {
    let dir = scratch("toguz");
    let built = |dir: &Path| {
        let out = crate::support::otau()
            .args([
                "--game",
                "bestemshe",
                "tables",
                "--max-stones",
                "6",
                "--dir",
            ])
            .arg(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    for phase in ["cold", "warm"] {
        // Cold: no table file (the engine never builds Toguz tables, it only looks for them).
        // Warm: small tables built into the cache, to be read.
        if phase == "warm" {
            built(&dir);
        }
        let mut engine = engine_with_cache(&dir, "bestemshe");
        engine.send("position startpos");
        // Right after isready the read may or may not be over: the timed go answers either way.
        let (best, _) = engine.go("movetime 20");
        assert!(!best.is_empty(), "{phase}");
        // An untimed go waits for the read to be over: it never goes without the tables.
        engine.send("position fen bestemshe 1,0,2,0,0/0,1,0,1,1 25/19 -/- s 40");
        let (_, before) = engine.go("depth 4");
        assert!(
            !before
                .iter()
                .any(|l| l.starts_with(STILL_READING) || l.contains("error")),
            "{phase}: {before:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A table file that is there but refused (truncated, damaged, another kind) is named: by the
/// engine in an `info string warning` (it searches without the tables), by the arena's
/// `--adjudicate tables` as an error at start; `OTAU_CACHE_DIR` naming a regular file is said to
/// be one. (Before, each was dropped in silence and the arena adjudicated nothing, exit 0.)
#[test]
fn a_refused_table_file_is_named_by_the_engine_and_the_arena() {
    let dir = scratch("refused");
    let out = crate::support::otau()
        .args([
            "--game",
            "bestemshe",
            "tables",
            "--max-stones",
            "4",
            "--dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let path = dir.join("bestemshe.table");
    let good = std::fs::read(&path).unwrap();
    let name = path.display().to_string();
    let engine_says = |cache: &Path| {
        let mut command = crate::support::otau();
        command
            .args(["--game", "bestemshe"])
            .env("OTAU_CACHE_DIR", cache);
        let mut engine = Engine::start_command(command);
        engine.send("ugi");
        engine.expect("ugiok");
        engine.send("position startpos");
        // Untimed: the search waits for the read to be over, so its end says how it went.
        let (_, lines) = engine.go("depth 2");
        lines
            .into_iter()
            .filter(|l| l.starts_with("info string warning"))
            .collect::<Vec<_>>()
    };
    for (damage, words) in [
        (good[..good.len() - 50].to_vec(), "truncated"),
        (
            {
                let mut b = good.clone();
                b[good.len() / 2] ^= 1;
                b
            },
            "checksum",
        ),
    ] {
        std::fs::write(&path, &damage).unwrap();
        let warnings = engine_says(&dir);
        assert!(
            warnings
                .iter()
                .any(|w| w.contains(&name) && w.contains(words)),
            "{words}: {warnings:?}"
        );
        // The arena refuses to start a run whose tables would adjudicate nothing.
        let otau = env!("CARGO_BIN_EXE_otau");
        let out = crate::support::command(env!("CARGO_BIN_EXE_otau-arena"))
            .args(["--engine", "name=a", &format!("cmd={otau}")])
            .args(["--engine", "name=b", &format!("cmd={otau}")])
            .args(["--game", "bestemshe", "--each", "depth=1", "--rounds", "1"])
            .args(["--adjudicate", "tables", "-q"])
            .current_dir(&dir)
            .env("OTAU_CACHE_DIR", &dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains("--adjudicate tables") && err.contains(&name) && err.contains(words),
            "{err}"
        );
    }
    // A cache "directory" that is a file.
    let file = dir.join("not-a-dir");
    std::fs::write(&file, b"x").unwrap();
    let warnings = engine_says(&file);
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("OTAU_CACHE_DIR") && w.contains("is not a directory")),
        "{warnings:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
