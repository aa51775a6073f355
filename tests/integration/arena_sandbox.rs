//! Engines you did not write (`protocol/guarantees.md`, "Rival bots: the sandbox"): each test a
//! hostile engine (`tests/support/hostile_engine.py`, the starter bot with attacks at its first
//! `go`) under `sandbox=on` and the limits, the run going on to its end, the right termination
//! or nothing touched, and no process or control group left.
//!
//! They need bubblewrap (`bwrap` on PATH), `/usr/bin/python3` and, for the limits, cgroups
//! (v1's memory, pids and cpu controllers, or a delegated v2 group): `.ci/run` installs the
//! first two, and a test that finds one missing fails, saying what to install.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::arena::*;
use otau::arena::config::{EngineConfig, EngineSpec, RunConfig};
use otau::arena::matchmaking::tournament::{run, RunOptions};
use otau::arena::records::{GameRecord, RecordsFile, TerminationKind};

/// The Python the hostile engines run on: the system's, which the sandbox shows (a `python3`
/// of the user's home, pyenv's say, is not in it).
const PYTHON: &str = "/usr/bin/python3";

/// Fails the test, saying what to install or enable, when the sandbox's tools are missing.
fn need_tools() {
    assert!(
        Path::new(PYTHON).exists(),
        "the sandbox tests need {PYTHON} (Debian: apt-get install python3; .ci/run installs it)"
    );
    let bwrap = Command::new("bwrap").arg("--version").output();
    assert!(
        bwrap.is_ok_and(|o| o.status.success()),
        "the sandbox tests need bubblewrap's bwrap on PATH (Debian: apt-get install bubblewrap; \
         .ci/run installs it)"
    );
    let sandbox = Command::new("bwrap")
        .args(["--unshare-all", "--ro-bind", "/", "/", "/bin/true"])
        .output()
        .unwrap();
    assert!(
        sandbox.status.success(),
        "bwrap cannot make a sandbox here ({}): the sandbox tests need unprivileged user \
         namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 \
         kernel.apparmor_restrict_unprivileged_userns=0)",
        String::from_utf8_lossy(&sandbox.stderr).trim()
    );
}

/// Fails the test when the arena cannot hold an engine's memory, tasks and CPU with a control
/// group here (the limits tests): the arena's own account of it, as its run header gives it.
fn need_cgroups() {
    let all = otau::arena::config::Confinement {
        memory_mb: Some(1),
        processes: Some(1),
        cpus: Some(1),
        ..Default::default()
    };
    let how = otau::arena::engine::sandbox::enforcement(&all);
    assert!(
        how.matches("(cgroup v").count() == 3,
        "the limits tests need control groups the arena can write (v1's memory, pids and cpu \
         controllers, as root; or a delegated v2 group: systemd-run --user --scope -p \
         Delegate=yes cargo test ...); here: {how}"
    );
}

/// A bot folder under `dir`: the starter bot and the test engines, as an organiser would give
/// a rival's bot its own folder.
fn bot_dir(dir: &Path, name: &str) -> PathBuf {
    let bot = dir.join(name);
    std::fs::create_dir_all(&bot).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for f in [
        "scripts/starter-bot/otau_bot.py",
        "scripts/starter-bot/otau_rules.py",
        "tests/support/hostile_engine.py",
        "tests/support/fifo_engine.py",
    ] {
        let from = root.join(f);
        std::fs::copy(&from, bot.join(from.file_name().unwrap())).unwrap();
    }
    bot
}

/// `--engine` keys of the hostile engine in `bot` making `attacks`, with `keys` beside.
fn hostile_keys(name: &str, bot: &Path, attacks: &[String], keys: &str) -> Vec<String> {
    let mut t = vec![
        format!("name={name}"),
        format!("cmd={PYTHON}"),
        format!("dir={}", bot.display()),
        "arg=hostile_engine.py".to_string(),
    ];
    t.extend(attacks.iter().map(|a| format!("arg={a}")));
    t.extend(keys.split_whitespace().map(String::from));
    t
}

fn engine(tokens: &[String]) -> EngineConfig {
    EngineSpec::parse("--engine 1", tokens)
        .unwrap()
        .build(&Default::default(), 0)
        .unwrap()
}

/// The starter bot, unconfined, as the hostile engine's opponent.
fn starter(dir: &Path) -> EngineConfig {
    let bot = bot_dir(dir, "opponent");
    engine(&[
        "name=opponent".into(),
        format!("cmd={PYTHON}"),
        format!("dir={}", bot.display()),
        "arg=otau_bot.py".into(),
        "depth=1".into(),
    ])
}

/// Plays one pair of games in process; the games, in order.
fn play(dir: &Path, engines: Vec<EngineConfig>, out: &str) -> Vec<GameRecord> {
    let opts = RunOptions {
        out: Some(dir.join(out)),
        log_dir: dir.join("logs"),
        ..RunOptions::default()
    };
    // A generous start-up timeout: a sandbox's Python starts slowly on a loaded machine.
    let config = RunConfig {
        startup_timeout_ms: 30_000,
        ..config(engines, 1, 7)
    };
    let report = run(config, &opts).expect("the run goes on");
    assert_eq!(report.missing, 0, "the run completes");
    let games = RecordsFile::read(&dir.join(out)).unwrap().games;
    assert_eq!(games.len(), 2);
    games.into_values().collect()
}

/// The attack lines of an engine's stderr log: (succeeded, refused).
fn attacks(log: &Path) -> (Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines = || text.lines().filter(|l| l.starts_with("attack "));
    (
        lines()
            .filter(|l| l.contains(": SUCCEEDED"))
            .map(String::from)
            .collect(),
        lines()
            .filter(|l| l.contains(": refused"))
            .map(String::from)
            .collect(),
    )
}

/// The engines' control groups the arena of process `pid` made that are still there.
fn groups_left(pid: u32) -> Vec<PathBuf> {
    let prefix = format!("otau-arena-{pid}-");
    let mut left = Vec::new();
    let mut stack = vec![PathBuf::from("/sys/fs/cgroup")];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            let name = e.file_name().to_string_lossy().into_owned();
            if !is_dir {
                continue;
            }
            if name.starts_with(&prefix) {
                left.push(e.path());
            } else if d.components().count() < 8 {
                stack.push(e.path());
            }
        }
    }
    left
}

/// Nothing the run started is left: no process carrying `tag`, no zombie, no control group.
fn nothing_left(tag: &str) {
    assert_eq!(
        wait_gone(tag, Duration::from_secs(10)),
        Vec::<String>::new()
    );
    assert_eq!(
        zombie_children(),
        Vec::<String>::new(),
        "no zombie children"
    );
    assert_eq!(
        groups_left(std::process::id()),
        Vec::<PathBuf>::new(),
        "no control group left"
    );
}

#[test]
fn a_sandboxed_engine_reads_writes_and_connects_to_nothing_outside() {
    need_tools();
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("sandbox-files");
    let dir = scratch("sandbox-files");
    let opponent = starter(&dir);
    std::fs::write(dir.join("opponent/secret.txt"), "the opponent's book").unwrap();
    std::fs::create_dir_all(dir.join("home")).unwrap();
    std::fs::write(dir.join("home/private.txt"), "the user's secret").unwrap();
    let bot = bot_dir(&dir, "hostile");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let secrets = [
        format!("read:{}", dir.join("opponent/secret.txt").display()),
        format!("read:{}", dir.join("home/private.txt").display()),
    ];

    // Unconfined, the same engine reads both secrets: the paths are right, the attack works.
    let mut control = secrets.to_vec();
    control.push(format!("tag:{tag}"));
    let hostile = engine(&hostile_keys("control", &bot, &control, "depth=1"));
    play(&dir, vec![hostile, opponent.clone()], "control.jsonl");
    let (got, _) = attacks(&dir.join("logs/control.stderr.log"));
    // One engine process plays both games (attacking at its first `go`).
    assert_eq!(got.len(), 2, "unconfined, the engine read both: {got:?}");

    let records = dir.join("r.jsonl");
    let mut attack_list = secrets.to_vec();
    attack_list.extend([
        format!("read:{}", records.display()),
        format!("write:{}", records.display()),
        format!("write:{}", bot.join("planted.txt").display()),
        format!("read:{}", dir.join("logs/opponent.stderr.log").display()),
        "read:/etc/shadow".to_string(),
        // The organiser's terminal: no controlling terminal in the sandbox's session.
        "read:/dev/tty".to_string(),
        format!("connect:{port}"),
        format!("tag:{tag}"),
    ]);
    // The scratch folder is the engine's own: writing there works.
    attack_list.push("write:/tmp/scratch.txt".into());
    let hostile = engine(&hostile_keys(
        "hostile",
        &bot,
        &attack_list,
        "depth=1 sandbox=on",
    ));
    let games = play(&dir, vec![hostile, opponent], "r.jsonl");

    let (got, refused) = attacks(&dir.join("logs/hostile.stderr.log"));
    // A write to a path under /tmp lands in the engine's own scratch folder (a tmpfs in which
    // bubblewrap made the folders leading to the engine's own): it "succeeds" there, and the
    // host's file is checked below. Nothing is read.
    let outside: Vec<&String> = got
        .iter()
        .filter(|l| !l.starts_with("attack write:/tmp/"))
        .collect();
    assert_eq!(outside, Vec::<&String>::new(), "nothing outside was read");
    assert!(
        got.iter().any(|l| l.contains("write:/tmp/scratch.txt")),
        "the scratch folder takes a write: {got:?}"
    );
    assert_eq!(
        got.len() + refused.len(),
        10,
        "every attack was made: {got:?} {refused:?}"
    );
    // No connection reached the listener.
    assert_eq!(
        listener.accept().map(|_| ()).unwrap_err().kind(),
        std::io::ErrorKind::WouldBlock,
        "a connection from the sandbox reached a loopback port"
    );
    // The records are whole (read back, every game checked) and the engine's folder untouched.
    assert!(!std::fs::read_to_string(&records)
        .unwrap()
        .contains("hostile line"));
    assert!(!Path::new("/tmp/scratch.txt").exists());
    // The run's header keeps the sandbox: `--resume` starts the engine sandboxed again.
    let header = RecordsFile::read(&records).unwrap().header;
    assert!(header.config.engines[0].confine.sandbox);
    assert!(!header.config.engines[1].confine.sandbox);
    assert!(!bot.join("planted.txt").exists());
    for g in &games {
        assert!(!g.termination.kind.is_fault(), "{:?}", g.termination);
    }
    nothing_left(&tag);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sandboxed_engine_cannot_kill_the_arena_the_opponent_or_another_process() {
    need_tools();
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("sandbox-kill");
    let dir = scratch("sandbox-kill");
    let bot = bot_dir(&dir, "hostile");
    // The opponent's engine process, whose id is known before the run: the starter bot behind
    // two named pipes, the arena's engine a proxy to it.
    let (fifo_in, fifo_out) = (dir.join("in.fifo"), dir.join("out.fifo"));
    for f in [&fifo_in, &fifo_out] {
        assert!(Command::new("mkfifo").arg(f).status().unwrap().success());
    }
    let brain = Command::new(PYTHON)
        .arg(bot.join("fifo_engine.py"))
        .args([&fifo_in, &fifo_out])
        .arg(format!("tag:{tag}"))
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let (mut brain, mut victim) = (
        Reaped(brain),
        Reaped(Command::new("sleep").arg("600").spawn().unwrap()),
    );
    let proxy = format!(
        "cat '{}' & exec cat > '{}'",
        fifo_out.display(),
        fifo_in.display()
    );
    let attacks_list = [
        "kill:ARENA".to_string(),
        format!("kill:{}", brain.0.id()),
        format!("kill:{}", victim.0.id()),
        format!("tag:{tag}"),
    ];
    let mut args: Vec<String> = vec!["--engine".into()];
    args.extend(hostile_keys("hostile", &bot, &attacks_list, "sandbox=on"));
    args.extend([
        "--engine".into(),
        "name=opponent".into(),
        "cmd=/bin/sh".into(),
        "arg=-c".into(),
        format!("arg={proxy}"),
        "--each".into(),
        "depth=1".into(),
        "--games".into(),
        "2".into(),
        "--out".into(),
        "r.jsonl".into(),
        "--log-dir".into(),
        "logs".into(),
    ]);
    // The arena's own id goes to the engine as `kill:<pid>`: `sh` puts its `$$` in place of
    // `kill:ARENA` and becomes the arena (exec keeps the id).
    let script = r#"n=$#; for a in "$@"; do [ "$a" = "arg=kill:ARENA" ] && a="arg=kill:$$"; set -- "$@" "$a"; done; shift $n; exec "$@""#;
    let out = crate::support::command("/bin/sh")
        .arg("-c")
        .arg(script)
        .arg("sh")
        .arg(ARENA)
        .args(&args)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "the arena lives on: {stderr}");
    assert_eq!(recorded_games(&dir.join("r.jsonl")), 2, "{stderr}");
    // The sandboxed engine's CPU, its group's, shown at the end (the proxy has no group).
    let shown = format!("{}{stderr}", String::from_utf8_lossy(&out.stdout));
    assert!(shown.contains("CPU of hostile: "), "{shown}");
    assert!(!shown.contains("CPU of opponent"), "{shown}");
    let (got, refused) = attacks(&dir.join("logs/hostile.stderr.log"));
    assert_eq!(got, Vec::<String>::new());
    assert_eq!(refused.len(), 3, "every kill was tried: {refused:?}");
    assert!(
        refused.iter().all(|l| l.contains("ProcessLookupError")),
        "{refused:?}"
    );
    for (what, child) in [
        ("the opponent", &mut brain),
        ("the other process", &mut victim),
    ] {
        assert!(child.0.try_wait().unwrap().is_none(), "{what} was killed");
    }
    drop((brain, victim));
    for g in RecordsFile::read(&dir.join("r.jsonl"))
        .unwrap()
        .games
        .values()
    {
        assert!(!g.termination.kind.is_fault(), "{:?}", g.termination);
    }
    nothing_left(&tag);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sandbox_on_without_bubblewrap_is_a_start_up_error_naming_it() {
    let dir = scratch("sandbox-missing");
    let out = crate::support::command(ARENA)
        .args([
            "--engine",
            "cmd=/bin/cat",
            "sandbox=on",
            "--engine",
            "cmd=builtin:random",
            "--each",
            "depth=1",
            "--log-dir",
            "logs",
        ])
        .env("PATH", dir.join("nothing-here"))
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("sandbox=on needs bubblewrap's bwrap on PATH")
            && stderr.contains("apt-get install bubblewrap")
            && stderr.contains("no game was played"),
        "{stderr}"
    );
    // A built-in player is the arena's own code: sandbox= does not apply to it.
    let err = EngineSpec::parse(
        "--engine 1",
        &[
            "cmd=builtin:random".into(),
            "depth=1".into(),
            "memory=64".into(),
        ],
    )
    .unwrap()
    .build(&Default::default(), 0)
    .unwrap_err();
    assert!(
        err.contains("a built-in player runs inside the arena"),
        "{err}"
    );
    // --each's confinement holds the programs among the engines and leaves a built-in be.
    let each = EngineSpec::parse(
        "--each",
        &["depth=1".into(), "sandbox=on".into(), "cpus=1".into()],
    )
    .unwrap();
    let builtin = EngineSpec::parse("--engine 1", &["cmd=builtin:random".into()])
        .unwrap()
        .build(&each, 0)
        .unwrap();
    assert!(builtin.confine.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Counts, while `running` is true, the most processes carrying `tag` at once (alive together:
/// the bomb's processes take each other's places as they end, which one scan would count twice).
fn most_tagged(tag: String, running: std::sync::Arc<std::sync::atomic::AtomicBool>) -> usize {
    let mut most = 0;
    while running.load(std::sync::atomic::Ordering::Relaxed) {
        most = most.max(tagged_together(&tag));
        std::thread::sleep(Duration::from_millis(5));
    }
    most
}

/// The set-up the limits tests share: the tools and control groups checked, the other sandbox
/// tests kept out, a scratch folder, and the hostile engine making `attack` sandboxed under
/// `limits` against the unconfined starter bot.
struct LimitsRun {
    tag: String,
    dir: PathBuf,
    engines: Vec<EngineConfig>,
    _serial: std::sync::MutexGuard<'static, ()>,
}

impl LimitsRun {
    fn new(name: &str, attack: &str, limits: &str) -> LimitsRun {
        need_tools();
        need_cgroups();
        let serial = otau::sync::lock(&SERIAL);
        let tag = tag(name);
        let dir = scratch(name);
        let bot = bot_dir(&dir, "hostile");
        let hostile = engine(&hostile_keys(
            "hostile",
            &bot,
            &[attack.to_string(), format!("tag:{tag}")],
            &format!("depth=1 sandbox=on {limits}"),
        ));
        let engines = vec![hostile, starter(&dir)];
        LimitsRun {
            tag,
            dir,
            engines,
            _serial: serial,
        }
    }

    /// Plays the pair of games; the games, in order.
    fn play(&self) -> Vec<GameRecord> {
        play(&self.dir, self.engines.clone(), "r.jsonl")
    }

    /// The hostile engine's attacks that succeeded, from its stderr log.
    fn succeeded(&self) -> Vec<String> {
        attacks(&self.dir.join("logs/hostile.stderr.log")).0
    }

    /// Nothing the run started is left; the scratch folder goes.
    fn end(self) {
        nothing_left(&self.tag);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn a_fork_bomb_is_held_to_its_processes() {
    let limits = LimitsRun::new(
        "sandbox-forkbomb",
        "forkbomb",
        "processes=8 cpus=1 memory=256",
    );
    let running = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let counter = {
        let (tag, running) = (limits.tag.clone(), running.clone());
        std::thread::spawn(move || most_tagged(tag, running))
    };
    let games = limits.play();
    running.store(false, std::sync::atomic::Ordering::Relaxed);
    let most = counter.join().unwrap();
    // The engine's 8 and bubblewrap's 2 (each carries the tag in its command line).
    assert!(most <= 8 + 2, "{most} processes at once");
    let got = limits.succeeded();
    assert_eq!(got.len(), 1, "the bomb went off: {got:?}");
    for g in &games {
        assert!(!g.termination.kind.is_fault(), "{:?}", g.termination);
    }
    limits.end();
}

#[test]
fn ten_gigabytes_under_memory_256_lose_by_memory_limit() {
    let limits = LimitsRun::new("sandbox-memory", "alloc:10240", "memory=256");
    let games = limits.play();
    for g in &games {
        let t = &g.termination;
        assert_eq!(t.kind, TerminationKind::MemoryLimit, "{t:?}");
        assert_eq!(
            t.side.map(|s| g.engine(s).to_string()),
            Some("hostile".into())
        );
        assert!(t.detail.contains("killed at its memory limit"), "{t:?}");
    }
    assert_eq!(
        limits.succeeded(),
        Vec::<String>::new(),
        "10 GB were never filled"
    );
    limits.end();
}

#[test]
fn sixty_four_busy_threads_under_cpus_1_use_one_core() {
    let limits = LimitsRun::new("sandbox-cpus", "threads:64", "cpus=1");
    let games = limits.play();
    for g in &games {
        assert!(!g.termination.kind.is_fault(), "{:?}", g.termination);
        // Held to one core on its moves, and its group's CPU recorded with every move (its own
        // and, while it waits, the opponent's).
        for m in &g.moves {
            let overuse = m.overuse.as_deref().unwrap_or_default();
            assert!(!overuse.contains("over its cpus"), "{overuse}");
            assert!(m.cpu_ms.is_some() || m.waiting_cpu_ms.is_some(), "{m:?}");
        }
    }
    // The engine's own account of its CPU time (all its threads) against the wall time since
    // its threads started: one core's worth at most, whatever else the machine runs (a quota
    // is an upper bound; the slack is one CFS period and the report's own rounding).
    let log = std::fs::read_to_string(limits.dir.join("logs/hostile.stderr.log")).unwrap();
    let reports: Vec<(f64, f64)> = log
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("cpu-report cpu=")?;
            let (cpu, wall) = rest.split_once(" wall=")?;
            Some((cpu.parse().ok()?, wall.parse().ok()?))
        })
        .collect();
    assert!(reports.len() > 10, "{log}");
    for (cpu, wall) in reports {
        assert!(
            cpu <= wall + 0.25,
            "{cpu} s of CPU in {wall} s under cpus=1"
        );
    }
    limits.end();
}

/// Plays a pair of games of the hostile engine spinning a thread for a second after each of its
/// moves against one that takes 500 ms a move (sleeping), 20 plies a game; the games.
fn spin_games(overuse: &str, name: &str) -> (Vec<GameRecord>, String) {
    let tag = tag(name);
    let dir = scratch(name);
    let bot = bot_dir(&dir, "hostile");
    let spinner = engine(&hostile_keys(
        "spinner",
        &bot,
        &["spin:1000".to_string(), format!("tag:{tag}")],
        &format!("depth=1 sandbox=on cpus=1 overuse={overuse}"),
    ));
    let slow = engine(&hostile_keys(
        "slow",
        &bot,
        &["think:500".to_string(), format!("tag:{tag}")],
        "depth=1",
    ));
    let mut config = config(vec![spinner, slow], 1, 7);
    config.max_plies = Some(20);
    let opts = RunOptions {
        out: Some(dir.join("r.jsonl")),
        log_dir: dir.join("logs"),
        ..RunOptions::default()
    };
    let report = run(config, &opts).expect("the run goes on");
    assert_eq!(report.missing, 0, "the run completes");
    let games: Vec<GameRecord> = RecordsFile::read(&dir.join("r.jsonl"))
        .unwrap()
        .games
        .into_values()
        .collect();
    nothing_left(&tag);
    let _ = std::fs::remove_dir_all(&dir);
    (games, tag)
}

#[test]
fn a_spin_on_the_opponents_time_is_recorded_and_with_forfeit_loses() {
    need_tools();
    need_cgroups();
    let _serial = otau::sync::lock(&SERIAL);
    let (games, _) = spin_games("warn", "sandbox-spin-warn");
    for g in &games {
        assert!(!g.termination.kind.is_fault(), "{:?}", g.termination);
        // Every move of the slow engine after the spinner's first: the spinner's CPU recorded
        // with it, over the allowance.
        let spun: Vec<&str> = g
            .moves
            .iter()
            .filter_map(|m| m.overuse.as_deref())
            .filter(|o| o.contains("on the opponent's"))
            .collect();
        // (Most of them: on a loaded machine the spinner may get less than its core.)
        assert!(spun.len() >= 3, "{spun:?}");
        assert!(g
            .moves
            .iter()
            .all(|m| m.waiting_cpu_ms.is_some() || m.cpu_ms.is_some()));
    }
    let (games, _) = spin_games("forfeit", "sandbox-spin-forfeit");
    for g in &games {
        let t = &g.termination;
        assert_eq!(t.kind, TerminationKind::CpuOveruse, "{t:?}");
        assert_eq!(
            t.side.map(|s| g.engine(s).to_string()),
            Some("spinner".into())
        );
        assert!(t.detail.contains("on the opponent's"), "{t:?}");
    }
}

#[test]
fn kill_9_of_the_arena_leaves_no_sandboxed_process() {
    need_tools();
    need_cgroups();
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("sandbox-kill-9");
    let dir = scratch("sandbox-kill-9");
    let bot = bot_dir(&dir, "hostile");
    let opponent = bot_dir(&dir, "opponent");
    let mut args: Vec<String> = vec!["--engine".into()];
    // A bomb's processes and busy threads: what the arena's death must end too.
    let attacks_list = ["forkbomb".to_string(), format!("tag:{tag}")];
    args.extend(hostile_keys(
        "hostile",
        &bot,
        &attacks_list,
        "sandbox=on processes=8 cpus=1",
    ));
    args.extend([
        "--engine".into(),
        "name=opponent".into(),
        format!("cmd={PYTHON}"),
        format!("dir={}", opponent.display()),
        "arg=otau_bot.py".into(),
        "arg=--seed".into(),
        "arg=1".into(),
        "--each".into(),
        "depth=1".into(),
        "--games".into(),
        "20".into(),
        "--out".into(),
        "r.jsonl".into(),
        "--log-dir".into(),
        "logs".into(),
    ]);
    let records = dir.join("r.jsonl");
    let recorded = kill_9_once_recorded(&args, &dir, &records, 1);
    assert!(recorded >= 1, "a game was played before the kill");
    assert_eq!(
        wait_gone(&tag, Duration::from_secs(10)),
        Vec::<String>::new(),
        "the guardian ended the sandbox, bomb and all"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A child process killed and reaped when the test ends, even by a failed assertion (a child
/// left unreaped would be a zombie the other tests' checks find).
struct Reaped(std::process::Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn ctrl_z_stops_the_whole_sandbox_and_sigcont_resumes_it() {
    need_tools();
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("sandbox-ctrl-z");
    let dir = scratch("sandbox-ctrl-z");
    let bot = bot_dir(&dir, "hostile");
    let mut args: Vec<String> = Vec::new();
    for (name, attack) in [("slow", "think:300"), ("busy", "threads:2")] {
        args.push("--engine".into());
        args.extend(hostile_keys(
            name,
            &bot,
            &[attack.to_string(), format!("tag:{tag}")],
            // The busy threads held to a core where the machine allows it.
            "sandbox=on cpus=1",
        ));
    }
    args.extend(["--each", "depth=1", "--games", "2", "--max-plies", "16"].map(String::from));
    args.extend([
        "--out".into(),
        "r.jsonl".into(),
        "--log-dir".into(),
        "logs".into(),
    ]);
    use std::os::unix::process::CommandExt;
    let mut arena = Reaped(
        crate::support::command(ARENA)
            .args(&args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap(),
    );
    let arena_pid = arena.0.id();
    // Mid-game: `busy` made its attack at its first `go`, so both of the game's engines are up
    // (the start-up check's, which get no `go`, ended before the game began). No wait of a fixed
    // length: a loaded machine may take any time to get there.
    let busy_log = dir.join("logs/busy.stderr.log");
    poll_until(Duration::from_secs(60), || !attacks(&busy_log).0.is_empty());
    assert_eq!(attacks(&busy_log).0.len(), 1, "the game under way");
    // SAFETY: kill has no memory-safety preconditions.
    unsafe { libc::kill(arena_pid as i32, libc::SIGTSTP) };
    // The arena stops its engines' groups, then itself: once it is stopped, nothing changes.
    // One deadline for both waits: the arena stopped, then every sandboxed process.
    let until = std::time::Instant::now() + Duration::from_secs(10);
    let left = || until.saturating_duration_since(std::time::Instant::now());
    poll_until(left(), || state(arena_pid) == Some('T'));
    // Every process of both sandboxes (bubblewrap's two and the engine, each) is stopped.
    let sandboxed = run_processes(&tag, arena_pid);
    let live = || -> Vec<(u32, char)> {
        sandboxed
            .iter()
            .filter_map(|&p| Some((p, state(p)?)))
            .filter(|(_, s)| *s != 'Z' && *s != 'X')
            .collect()
    };
    poll_until(left(), || live().iter().all(|(_, s)| *s == 'T'));
    let (arena_state, states) = (state(arena_pid), live());
    // SAFETY: as above.
    unsafe { libc::kill(arena_pid as i32, libc::SIGCONT) };
    assert_eq!(arena_state, Some('T'), "the arena stopped itself");
    assert!(
        states.len() >= 6 && states.iter().all(|(_, s)| *s == 'T'),
        "two sandboxes of three processes, all stopped: {states:?}"
    );
    assert!(arena.0.wait().unwrap().success());
    assert_eq!(recorded_games(&dir.join("r.jsonl")), 2);
    nothing_left(&tag);
    assert_eq!(groups_left(arena_pid), Vec::<PathBuf>::new());
    let _ = std::fs::remove_dir_all(&dir);
}
