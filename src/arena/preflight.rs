//! Before the first game: every engine is started once and checked (the process starts, `ugi` is
//! answered by `ugiok`, `isready` by `readyok`). An engine that fails stops the run before any
//! game is played or any file written, naming the engine, its program and the reason, as
//! cutechess-cli and fastchess do: a misspelt `cmd=` is a mistake to report at once, not 200
//! forfeits and exit status 0 (with `-q` the cause was never shown).
//!
//! Faults later in a run (an engine that crashes and then fails to restart) are the run's own
//! business (`tournament`: the game is lost, and after `max_start_failures` the engine's games are
//! forfeited); this check only makes sure that each engine can play at all.

use std::path::Path;
use std::time::Duration;

use super::builtin;
use super::client::{EngineSession, Fault};
use super::config::{EngineConfig, RunConfig};
use super::process::{EngineIo, Guardian, LogBudget, Spawn};

/// The time an engine gets to exit after `quit` at the end of the check.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// Starts every engine of `config` once, all at the same time, and checks the handshake and
/// `isready`, within the run's start-up timeout each. Engines' stderr goes to their logs in
/// `log_dir`, as in the run. `Err` lists every engine that failed, one line each.
pub fn check_engines(config: &RunConfig, log_dir: &Path, log_limit: u64) -> Result<(), String> {
    let timeout = Duration::from_millis(config.startup_timeout_ms);
    // As during the run: a kill -9 of the arena now leaves nothing an engine started.
    let _guardian = config
        .engines
        .iter()
        .any(|e| e.builtin().is_none())
        .then(Guardian::start);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let checks: Vec<_> = config
            .engines
            .iter()
            .map(|e| scope.spawn(move || check_one(e, config, log_dir, log_limit, timeout)))
            .collect();
        checks
            .into_iter()
            .zip(&config.engines)
            .filter_map(|(check, e)| match check.join() {
                Ok(Ok(())) => None,
                Ok(Err(why)) => Some(format!("engine '{}' ({}): {why}", e.name, program(e))),
                Err(_) => Some(format!("engine '{}': the check itself failed", e.name)),
            })
            .collect()
    });
    if failures.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} of {} engines failed the start-up check, no game was played:\n  {}",
        failures.len(),
        config.engines.len(),
        failures.join("\n  ")
    ))
}

/// The engine's program as the user gave it, with its working directory when it has one.
fn program(e: &EngineConfig) -> String {
    match &e.dir {
        Some(dir) => format!("program {} in {}", e.cmd, dir.display()),
        None => format!("program {}", e.cmd),
    }
}

/// One engine: start, handshake, `Game` and the user's options as a game start sends them, the
/// `isready` fence, then `quit` and the process group killed.
fn check_one(
    e: &EngineConfig,
    config: &RunConfig,
    log_dir: &Path,
    log_limit: u64,
    timeout: Duration,
) -> Result<(), String> {
    let variant: crate::games::Variant = config.game.parse().map_err(|e| format!("{e}"))?;
    let mut preset: Vec<(&str, &str)> = Vec::new();
    let mut log = None;
    let io = match e.builtin() {
        Some(Ok(b)) => {
            // The player it will be (a `random` player must not load the search's tables).
            preset.extend(builtin::player_options(b));
            builtin::start(b, variant).map_err(|err| format!("cannot start: {err}"))?
        }
        Some(Err(why)) => return Err(why),
        None => {
            let _ = std::fs::create_dir_all(log_dir);
            let path = e.stderr_log(log_dir);
            // The engine's log budget for the run (`--log-limit`), shared with the run's processes.
            let io = EngineIo::spawn_logged(
                &Spawn {
                    program: &e.cmd,
                    args: &e.args,
                    dir: e.dir.as_deref(),
                    log: Some(&path),
                },
                LogBudget::shared(&path, log_limit),
            )
            .map_err(|err| format!("cannot start '{}': {err}", e.cmd))?;
            log = io.pid().map(|pid| (path, pid));
            io
        }
    };
    let result = (|| {
        let mut s = EngineSession::handshake(io, timeout, e.proto)?;
        s.configure(&config.game, preset.iter().copied(), &e.options, |_| true)?;
        s.fence(timeout)?;
        Ok::<_, Fault>(s)
    })();
    match result {
        Ok(s) => {
            s.shutdown(QUIT_GRACE);
            Ok(())
        }
        Err(fault) => {
            let mut why = match &fault {
                Fault::Stall(_) => format!(
                    "{fault} (the start-up timeout is {} ms, --startup-timeout)",
                    timeout.as_millis()
                ),
                _ => fault.to_string(),
            };
            // The handshake's session (and with it the process) is gone by now; what the engine
            // said on stderr is usually the reason.
            if let Some((path, pid)) = log {
                if let Some(last) = last_stderr_line(&path, pid) {
                    why.push_str(&format!("; its stderr ended: '{last}'"));
                }
                why.push_str(&format!(" (log: {})", path.display()));
            }
            Err(why)
        }
    }
}

/// The last non-empty stderr line the process `pid` wrote to its log, cut to 200 characters. The
/// copier thread may still be writing it: waits a moment.
fn last_stderr_line(path: &Path, pid: u32) -> Option<String> {
    let marker = format!("--- pid {pid} started");
    for _ in 0..10 {
        std::thread::sleep(Duration::from_millis(20));
        let Ok(text) = std::fs::read(path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&text);
        let Some(at) = text.rfind(&marker) else {
            continue;
        };
        let last = text[at + marker.len()..]
            .lines()
            .rev()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with("--- pid"));
        if let Some(last) = last {
            return Some(last.chars().take(200).collect());
        }
    }
    None
}
