//! The compliance checker (`otau::arena::compliance`) against otau itself and against engines that
//! are not compliant.

use std::time::Duration;

use otau::arena::compliance::{check, Config, Status};
use otau::games::{AnyGame, Game, Variant};

const OTAU: &str = env!("CARGO_BIN_EXE_otau");

#[test]
fn otau_is_compliant_in_every_game_family() {
    // A `go depth` search in Modiar waits for the Modiar table (protocol/search.md); on a cold
    // cache the engine would build it (about 10 s of CPU) inside the check's 10 s limit. The
    // run's cache folder, which the engine reads, holds it, so the check times the engine and not
    // the build.
    crate::support::cache_dir();
    for game in [
        Variant::TOGUZ,
        Variant::TOGUZ7,
        Variant::BESTEMSHE,
        Variant::GIUTHI,
        Variant::MODIAR,
    ] {
        if AnyGame::start(game).legal_moves().is_empty() {
            eprintln!("{game}: rules not implemented yet, skipped");
            continue;
        }
        let config = Config {
            game,
            ..Config::default()
        };
        let report = check(OTAU, &[], &config);
        assert!(report.passed(), "{game}:\n{report}");
        for name in [
            "handshake",
            "options",
            "game option",
            "position moves",
            "position fen",
            "go depth",
            "go nodes",
            "go movetime",
            "go clock",
            "go movestogo",
            "go combined",
            "isready during search",
            "stop",
            "query finished game",
            "info lines",
            "quit",
        ] {
            let item = report
                .item(name)
                .unwrap_or_else(|| panic!("no item {name}"));
            assert_eq!(item.status, Status::Pass, "{game}: {name}: {}", item.detail);
        }
    }
}

#[test]
fn otau_passes_with_arguments_too() {
    // The engine reads the run's cache folder, never the user's.
    crate::support::cache_dir();
    let report = check(
        OTAU,
        &["--game".into(), "bestemshe".into()],
        &Config::default(),
    );
    assert!(report.passed(), "{report}");
}

#[test]
fn a_missing_program_fails_at_start() {
    let report = check("/nonexistent/engine", &[], &Config::default());
    assert!(!report.passed());
    assert_eq!(report.items[0].name, "start");
    assert_eq!(report.items[0].status, Status::Fail);
}

#[test]
fn an_engine_that_exits_at_once_fails_the_handshake_and_nothing_more() {
    let config = Config {
        reply_timeout: Duration::from_millis(500),
        search_timeout: Duration::from_millis(500),
        ..Config::default()
    };
    let report = check("true", &[], &config);
    assert!(!report.passed(), "{report}");
    let handshake = report.item("handshake").unwrap();
    assert_eq!(handshake.status, Status::Fail);
    assert!(handshake.detail.contains("exited"), "{}", handshake.detail);
    // One verdict: the check stops at the handshake instead of failing every item in turn.
    assert!(report.item("go depth").is_none(), "{report}");
    assert!(report.stopped.is_some(), "{report}");
}

#[test]
fn an_engine_that_answers_only_the_handshake_fails_the_rest() {
    // A shell engine that knows ugi/isready/quit and nothing else: no bestmove, no response.
    let script = r#"
        while read -r cmd rest; do
            case "$cmd" in
                ugi) echo "id name mute"; echo "ugiok" ;;
                isready) echo "readyok" ;;
                quit) exit 0 ;;
            esac
        done"#;
    let config = Config {
        reply_timeout: Duration::from_millis(300),
        search_timeout: Duration::from_millis(300),
        ..Config::default()
    };
    let report = check("sh", &["-c".into(), script.into()], &config);
    assert!(!report.passed());
    for (name, status) in [
        ("handshake", Status::Pass),
        ("isready", Status::Pass),
        ("game option", Status::Skip),
        ("query at start", Status::Fail),
        ("go depth", Status::Fail),
        ("stop", Status::Fail),
        ("quit", Status::Pass),
    ] {
        let item = report.item(name).unwrap();
        assert_eq!(item.status, status, "{name}: {}\n{report}", item.detail);
    }
}

#[test]
fn an_engine_that_stops_answering_ends_the_check() {
    // Answers the handshake and one isready, then reads on in silence: after the first item
    // that fails, one more isready goes unanswered and the check stops (instead of waiting out
    // every later item's timeout in turn).
    let script = r#"
        read -r cmd; echo "id name once"; echo "ugiok"
        read -r cmd; echo "readyok"
        while read -r cmd; do :; done"#;
    let config = Config {
        reply_timeout: Duration::from_millis(300),
        search_timeout: Duration::from_millis(300),
        ..Config::default()
    };
    let report = check("sh", &["-c".into(), script.into()], &config);
    let names: Vec<&str> = report.items.iter().map(|i| i.name).collect();
    assert_eq!(
        names,
        ["start", "handshake", "isready", "options"],
        "{report}"
    );
    assert_eq!(report.items[3].status, Status::Fail, "{report}");
    let stopped = report.stopped.as_deref().unwrap_or_default();
    assert!(stopped.contains("no longer answers isready"), "{report}");
}

/// A fresh scratch directory holding an executable script `name` with `text`.
fn script(dir_name: &str, name: &str, text: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("otau-check-{}-{dir_name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// `otau-arena --check` in `dir`: its output.
fn arena_check(dir: &std::path::Path, program: &str) -> String {
    let out = crate::support::command(env!("CARGO_BIN_EXE_otau-arena"))
        .args(["--log-dir", "logs", "--check", program])
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A bot with a syntax error exits at once: `--check` shows its last stderr line and its log
/// file, as a run's start-up check does (it said only "exited with code 1").
#[test]
fn check_shows_the_last_stderr_line_and_the_log_of_an_engine_that_exits() {
    let dir = script(
        "syntax",
        "bot.sh",
        "#!/bin/sh\necho '  File \"bot.py\", line 3' >&2\necho 'SyntaxError: invalid syntax' >&2\nexit 1\n",
    );
    let out = arena_check(&dir, "./bot.sh");
    // Whether the engine was gone before `ugi` was written or after is a race; either way the
    // message ends with the same words.
    assert!(
        out.contains("FAIL handshake              the engine exited with code 1 "),
        "{out}"
    );
    assert!(
        out.contains(
            "; its stderr ended: 'SyntaxError: invalid syntax' (log: logs/bot.sh.stderr.log)"
        ),
        "{out}"
    );
    let log = std::fs::read_to_string(dir.join("logs/bot.sh.stderr.log")).unwrap();
    assert!(log.contains("SyntaxError: invalid syntax"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A script saved with Windows line endings names a program `sh\r` that does not exist: the
/// system's message does not show the `\r`, `--check` says what it is.
#[test]
fn check_names_windows_line_endings() {
    let dir = script("crlf", "bot.sh", "#!/bin/sh\r\necho ugiok\r\n");
    let out = arena_check(&dir, "./bot.sh");
    assert!(
        out.contains("./bot.sh has Windows line endings: its first line '#!/bin/sh' ends with \\r"),
        "{out}"
    );
    assert!(out.contains("dos2unix"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
