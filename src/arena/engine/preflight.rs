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

use crate::arena::config::{EngineConfig, RunConfig};
use crate::arena::engine::builtin;
use crate::arena::engine::client::{EngineSession, Fault};
use crate::arena::engine::process::{EngineIo, Guardian, LogBudget, Spawn};

/// The time an engine gets to exit after `quit` at the end of the check.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// Starts every engine of `config` once, all at the same time, and checks the handshake and
/// `isready`, within the run's start-up timeout each. Engines' stderr goes to their logs in
/// `log_dir`, as in the run. `Err` lists every engine that failed, one line each; `Ok` has the
/// warnings to show (an engine that declares no `Game` option is never told the game).
pub(crate) fn check_engines(
    config: &RunConfig,
    log_dir: &Path,
    log_limit: u64,
) -> Result<Vec<String>, String> {
    let timeout = Duration::from_millis(config.startup_timeout_ms);
    // As during the run: a kill -9 of the arena now leaves nothing an engine started.
    let _guardian = config
        .engines
        .iter()
        .any(|e| e.builtin().is_none())
        .then(Guardian::start);
    let mut warnings = Vec::new();
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
                Ok(Ok(warning)) => {
                    warnings.extend(warning);
                    None
                }
                Ok(Err(why)) => Some(format!("engine '{}' ({}): {why}", e.name, program(e))),
                Err(_) => Some(format!("engine '{}': the check itself failed", e.name)),
            })
            .collect()
    });
    if failures.is_empty() {
        return Ok(warnings);
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
/// `isready` fence, then `quit` and the process group killed. An engine that answers `setoption
/// name Game` with an error fails (it would lose every game by an illegal move); one that
/// declares no `Game` option passes with a warning, since it may well play the run's game.
fn check_one(
    e: &EngineConfig,
    config: &RunConfig,
    log_dir: &Path,
    log_limit: u64,
    timeout: Duration,
) -> Result<Option<String>, String> {
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
            let io = EngineIo::spawn_confined(
                &Spawn {
                    program: &e.cmd,
                    args: &e.args,
                    dir: e.dir.as_deref(),
                    log: Some(&path),
                },
                LogBudget::shared(&path, log_limit),
                &e.confine,
            )
            .map_err(|err| {
                let hint = script_hint(&e.cmd).map_or(String::new(), |h| format!("; {h}"));
                format!("cannot start '{}': {err}{hint}", e.cmd)
            })?;
            log = io.pid().map(|pid| (path, pid));
            io
        }
    };
    let game = &config.game;
    let result = (|| {
        let mut s = EngineSession::handshake(io, timeout, e.proto)?;
        let declares_game = s.has_option("Game");
        s.configure(game, preset.iter().copied(), &e.options, |_| true)?;
        // An error about the game among the answers before `readyok` (no separate fence after
        // `Game`: an engine that reads nothing must still meet its stall on the options). It
        // must name the run's game id: an error about another option lists `Game` among the
        // option names, and is the option's own fault, not a refusal of the game.
        let id = game.to_string().to_ascii_lowercase();
        let refused = s.fence_lines(timeout)?.into_iter().find(|l| {
            let l = l.to_ascii_lowercase();
            declares_game && l.starts_with("info string error") && l.contains(&id)
        });
        Ok::<_, Fault>((s, declares_game, refused))
    })();
    match result {
        Ok((s, declares_game, refused)) => {
            s.shutdown(QUIT_GRACE);
            if let Some(error) = refused {
                return Err(format!(
                    "it answered 'setoption name Game value {game}' with '{}': it does not \
                     play {game}, and would lose every game by an illegal move (run a game it \
                     plays with --game, or make its Game option accept '{game}')",
                    error.chars().take(200).collect::<String>()
                ));
            }
            Ok((!declares_game).then(|| {
                format!(
                    "warning: engine '{}' declares no Game option, so it is never told that \
                     this run plays {game}: it must play {game} by itself, or it loses every \
                     game by an illegal move (declare 'option name Game type combo ...' and \
                     follow 'setoption name Game value {game}'; protocol/writing-an-engine.md)",
                    e.name
                )
            }))
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
            if let Some(hint) = script_hint(&e.cmd) {
                why.push_str(&format!("; {hint}"));
            }
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

/// The last MiB of a stderr log: a log may hold up to `--log-limit` (a TiB), and the start-up
/// check's process wrote its few lines last.
fn log_tail(path: &Path) -> Option<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    const TAIL: u64 = 1 << 20;
    let mut file = crate::input::open_input_file(path, u64::MAX - 1, "stderr log").ok()?;
    let len = file.get_ref().metadata().ok()?.len();
    file.get_mut()
        .seek(SeekFrom::Start(len.saturating_sub(TAIL)))
        .ok()?;
    let mut bytes = Vec::new();
    file.get_mut().take(TAIL).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// The last non-empty stderr line the process `pid` wrote to its log, cut to 200 characters. The
/// copier thread may still be writing it: waits a moment. Also what `--check` and a crash in a
/// game quote.
pub(crate) fn last_stderr_line(path: &Path, pid: u32) -> Option<String> {
    let marker = format!("--- pid {pid} started");
    for _ in 0..10 {
        std::thread::sleep(Duration::from_millis(20));
        let Some(text) = log_tail(path) else {
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

/// What a script's first line says about a start that failed: a `#!` line ending in `\r` (the
/// file was saved with Windows line endings) names a program `python3\r` that does not exist,
/// and the system's own message does not show the invisible `\r`. Reads at most 256 bytes.
pub(crate) fn script_hint(program: &str) -> Option<String> {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(program)
        .ok()?
        .take(256)
        .read_to_end(&mut head)
        .ok()?;
    let first = head.split(|&b| b == b'\n').next()?;
    (head.starts_with(b"#!") && first.ends_with(b"\r")).then(|| {
        format!(
            "{program} has Windows line endings: its first line '{}' ends with \\r, so the \
             system looks for a program whose name ends with \\r (convert the file with \
             dos2unix, or save it with Unix line endings)",
            String::from_utf8_lossy(&first[..first.len() - 1])
        )
    })
}
