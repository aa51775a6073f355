//! Helpers shared by the arena's integration tests.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use otau::arena::config::{EngineConfig, RunConfig};
use otau::arena::game::openings::OpeningConfig;
use otau::arena::pairing::TournamentKind;

/// Tests that count child processes run one at a time.
pub static SERIAL: Mutex<()> = Mutex::new(());

pub const ARENA: &str = env!("CARGO_BIN_EXE_otau-arena");

/// Runs `otau-arena` with `args` in `dir`, no input: its exit code (-1 for a signal), stdout and
/// stderr.
pub fn arena(args: &[&str], dir: &Path) -> (i32, String, String) {
    let o = crate::support::command(ARENA)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `--engine` arguments for sound test engines (`fake-engine ok`) named `names`, then `rest`.
pub fn sound_engines_then(names: &[&str], rest: &[&str]) -> Vec<String> {
    fake_engines_then("ok", names, rest)
}

/// `--engine` arguments for test engines of one `fake-engine` mode named `names`, then `rest`.
pub fn fake_engines_then(mode: &str, names: &[&str], rest: &[&str]) -> Vec<String> {
    let mut args = Vec::new();
    for name in names {
        args.extend([
            "--engine".to_string(),
            format!("name={name}"),
            format!("cmd={ARENA}"),
            format!("args=fake-engine {mode}"),
        ]);
    }
    args.extend(rest.iter().map(|s| s.to_string()));
    args
}

/// A fresh scratch directory for one test, named by `name` and a number of its own (the tests of
/// the binary run side by side in one process). The run's cache folder is set first
/// ([`super::cache_dir`]), so that a run in this process never reads the user's.
pub fn scratch(name: &str) -> PathBuf {
    super::cache_dir();
    let dir = std::env::temp_dir().join(format!("otau-arena-test-{}-{name}", unique()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fake engine of the given mode, its processes tagged with `tag` (found again in /proc).
pub fn fake(name: &str, mode: &str, tag: &str, limits: &str) -> EngineConfig {
    let mut tokens = vec![
        format!("name={name}"),
        format!("cmd={ARENA}"),
        format!("args=fake-engine {mode} {tag}"),
    ];
    tokens.extend(limits.split(' ').map(String::from));
    otau::arena::config::EngineSpec::parse("--engine 1", &tokens)
        .unwrap()
        .build(&Default::default(), 0)
        .unwrap()
}

/// A round robin of `engines` in Toguz Kumalak, as the in-process runs play it (with this run's
/// cache folder, [`super::cache_dir`]).
pub fn config(engines: Vec<EngineConfig>, rounds: u32, seed: u64) -> RunConfig {
    super::cache_dir();
    RunConfig {
        game: "toguz-kumalak".into(),
        engines,
        tournament: TournamentKind::Roundrobin,
        rounds,
        games: None,
        seed,
        openings: OpeningConfig::default(),
        max_plies: None,
        adjudicate_decided: true,
        adjudication: Default::default(),
        startup_timeout_ms: 1000,
        max_start_failures: 3,
        max_crashes: 3,
        sprt: None,
        tiebreak_pairs: None,
        swiss: Default::default(),
    }
}

/// Processes whose command line contains `tag` (any state but zombie).
pub fn tagged_processes(tag: &str) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        if cmd.contains(tag) {
            out.push(format!("{}: {cmd}", entry.file_name().to_string_lossy()));
        }
    }
    out
}

/// How many processes carrying `tag` were alive at one instant. A scan of /proc is no instant: a
/// process it finds early may end, and a new one take its place, before it reaches the new one's
/// higher number (both counted: one more than ever lived at once). So each process found is
/// looked at again after the scan, and counts only if it is still the same live process (its
/// start time unchanged, its command line still there: a process that has exited has none).
/// Each one counted was alive from its look in the scan to its look after it, and the end of
/// the scan lies between the two: all of them were alive then.
pub fn tagged_together(tag: &str) -> usize {
    let alive = |pid: &str| -> Option<String> {
        let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
        if !String::from_utf8_lossy(&cmd).contains(tag) {
            return None;
        }
        // Field 22 of stat, the start time (the 20th after the command name's closing `) `).
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        Some(stat.rsplit_once(") ")?.1.split(' ').nth(19)?.to_string())
    };
    let found: Vec<(String, String)> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_string_lossy().into_owned();
            let start = alive(&pid)?;
            Some((pid, start))
        })
        .collect();
    found
        .iter()
        .filter(|(pid, start)| alive(pid).as_ref() == Some(start))
        .count()
}

/// The children of this test process that are zombies, after waiting up to 3 s for them to be
/// reaped (none may be left). Only zombies: the tests of the binary run side by side, so another
/// test's live children are there too (a run's own live processes carry its tag: [`wait_gone`]);
/// another test reaps its exited child within moments, while one the arena left unreaped stays.
pub fn zombie_children() -> Vec<String> {
    let until = Instant::now() + Duration::from_secs(3);
    loop {
        let zombies = zombies();
        if zombies.is_empty() || Instant::now() > until {
            return zombies;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn zombies() -> Vec<String> {
    let me = std::process::id().to_string();
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(") ") else {
            continue;
        };
        let f: Vec<&str> = rest.split(' ').collect();
        if f.len() > 1 && f[0] == "Z" && f[1] == me {
            out.push(stat);
        }
    }
    out
}

/// The state letter of process `pid` (`R`, `S`, `T` stopped, `Z`...), `None` once it is gone.
pub fn state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(") ")?.1.chars().next()
}

/// The processes carrying `tag` other than the arena `arena` and its guardian (a fork, with the
/// arena's command line): the engines the run started and what they started.
pub fn run_processes(tag: &str, arena: u32) -> Vec<u32> {
    tagged_processes(tag)
        .iter()
        .filter_map(|l| l.split(':').next()?.parse::<u32>().ok())
        .filter(|&p| p != arena)
        .filter(|p| {
            std::fs::read_to_string(format!("/proc/{p}/comm")).unwrap_or_default()
                != "otau-guardian\n"
        })
        .collect()
}

/// Polls `done` until it holds or `limit` has passed; says whether it held. For a condition the
/// test waits for (never a fixed sleep: a loaded machine may take any time to get there), with
/// a generous `limit` that only a hang reaches.
pub fn poll_until(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + limit;
    loop {
        if done() {
            return true;
        }
        if Instant::now() > until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether the file at `path` (an engine's stderr log, say) has a line equal to `line` yet.
pub fn has_line(path: &Path, line: &str) -> bool {
    std::fs::read_to_string(path).is_ok_and(|t| t.lines().any(|l| l == line))
}

/// Waits up to `limit` for no process to carry `tag`.
pub fn wait_gone(tag: &str, limit: Duration) -> Vec<String> {
    let until = Instant::now() + limit;
    loop {
        let left = tagged_processes(tag);
        if left.is_empty() || Instant::now() > until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A tag unique to this test run and call, found in the command lines of the processes it marks.
pub fn tag(name: &str) -> String {
    format!("otau-test-{}-{name}", unique())
}

/// `pid-n`: this process's id and a number no other call in it gets.
fn unique() -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// The complete game lines in a records file so far (none when there is no file yet). Polled
/// while the arena writes, the last line can be half written: it is not a game yet.
pub fn recorded_games(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| {
            t.lines()
                .filter(|l| l.starts_with("{\"event\":\"game\""))
                .filter(|l| serde_json::from_str::<serde_json::Value>(l).is_ok())
                .count()
        })
        .unwrap_or(0)
}

/// Starts `otau-arena args` in `dir` and kills it with SIGKILL once `records` holds `games`
/// complete games (or after 30 s); returns how many it holds then.
pub fn kill_9_once_recorded(args: &[String], dir: &Path, records: &Path, games: usize) -> usize {
    let mut child = crate::support::command(ARENA)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    while recorded_games(records) < games && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    recorded_games(records)
}

/// Bestemshe's (2x5) endgame tables up to 8 stones on the board, built into `dir/tables` by
/// `otau tables` in a few milliseconds: the folder.
pub fn bestemshe_tables(dir: &Path) -> PathBuf {
    let tables = dir.join("tables");
    let built = crate::support::otau()
        .args([
            "tables",
            "--game",
            "bestemshe",
            "--max-stones",
            "8",
            "--dir",
        ])
        .arg(&tables)
        .output()
        .unwrap();
    assert!(built.status.success(), "{built:?}");
    tables
}

/// Each engine's results against each other engine in a records file, counted here from the
/// games' results alone (what the crosstable tests compare every page with): `(row, column)`
/// -> `[wins, draws, losses]` of `row`, both orders of every pairing that played.
pub fn pairing_counts(
    file: &otau::arena::records::RecordsFile,
) -> std::collections::BTreeMap<(String, String), [u64; 3]> {
    use otau::games::Side;
    let mut out = std::collections::BTreeMap::new();
    for g in file.games.values() {
        for side in [Side::South, Side::North] {
            let me = g.engine(side).to_string();
            let other = g.engine(side.other()).to_string();
            let cell: &mut [u64; 3] = out.entry((me, other)).or_default();
            let points = g.result.points(side);
            cell[if points == 1.0 {
                0
            } else if points == 0.5 {
                1
            } else {
                2
            }] += 1;
        }
    }
    out
}

/// A crosstable cell as every page writes it: the row engine's points / games, `3.5/6`.
pub fn cell_text(c: &[u64; 3]) -> String {
    let half_points = 2 * c[0] + c[1];
    let points = if half_points.is_multiple_of(2) {
        (half_points / 2).to_string()
    } else {
        format!("{}.5", half_points / 2)
    };
    format!("{points}/{}", c[0] + c[1] + c[2])
}
