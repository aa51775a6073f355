//! Misbehaving engines for the arena's fault tests: `otau-arena fake-engine <mode>` (a hidden
//! subcommand) speaks just enough UGI to play, then fails in the way its mode names.
//!
//! It is in the `otau-arena` binary, not under tests/, because the tests spawn it as a real
//! process (a crash, a stall, a closed pipe, a helper left behind are only real in another
//! process), through the same engine process code as any engine; the tests name its modes
//! ([`FakeMode`]) from the library. It is no part of the arena's interface: nothing in
//! `src/arena/` uses it.

use std::io::{BufRead, Write};
use std::time::Duration;

use crate::games::{AnyGame, Game, GameLine, Variant};
use crate::ugi::wire::{self, GuiCommand, PositionCommand, Start};

/// How the fake engine misbehaves.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum FakeMode {
    /// Plays legal moves (deterministic: a hash of the position picks the move), answering each
    /// `go` at once with an `info` line and its `bestmove` in one write: the instant engine of
    /// `scripts/arena-bench.sh`, as cheap a ply as an engine can be.
    Ok,
    /// Exits before the handshake.
    CrashStart,
    /// Never answers `ugi`.
    StallStart,
    /// Passes the arena's start-up check (its first process plays like `ok`), then every later
    /// process exits before the handshake: an engine that breaks during a run.
    CrashRestart,
    /// Passes the start-up check, then every later process never answers `ugi`.
    StallRestart,
    /// Plays two moves, then exits on the next `go` with a last word on stderr.
    CrashMid,
    /// Plays two moves, then at the next `go` closes its output and exits (code 1) 300 ms
    /// later: a crash whose exit status comes well after the closed pipe, as on a loaded machine.
    CrashSlowExit,
    /// Answers everything but `go`.
    NoAnswer,
    /// Answers each `go` only after 600 ms, ignoring `stop` meanwhile; says on stderr, as each
    /// think begins, `fake-engine: go N` (the tests see in its log that a game is under way).
    Late,
    /// Plays one legal move, then an illegal one.
    Illegal,
    /// Sends binary junk and an over-long line, then an unreadable move.
    Garbage,
    /// Floods `info` lines after `go`, never reading its input again.
    Flood,
    /// Plays well, but ignores `quit` and EOF, and leaves a helper process running.
    IgnoreQuit,
    /// Shrinks its input pipe to 4 KiB and answers `ugi`, then never reads again (a long
    /// `setoption` fills the pipe at start-up).
    DeafStart,
    /// Passes the start-up check (its first process plays like `ok`), then every later process
    /// is `deaf-start`.
    DeafRestart,
    /// Shrinks its input pipe to 4 KiB; at its first `go` of a game stops reading, yet plays
    /// on: it answers every later move as if it had read it, from its own replay of the game
    /// against the `ok` mode, until the pipe fills.
    Deaf,
    /// Writes 1 MiB to stderr at start, then crashes (exit code 4) at its first `go`.
    CrashFlood,
    /// Sleeps 300 s without reading: a wrapper script's helper holding the engine's pipes.
    Helper,
    /// Plays legal moves with absurd `info` values after sane ones (a wrapped depth, the most
    /// negative mate, `mate 0`, a node count of 2^64-1): 4 values out of range each move.
    AbsurdInfo,
    /// Plays like `ok`, reporting `score cp 1000` (it thinks it is winning).
    Winning,
    /// Plays like `ok`, reporting `score cp -1000` (it thinks it is losing).
    Losing,
    /// Plays like `ok`, reporting `score mate -3` (it thinks it is mated).
    Mated,
    /// Plays like `ok`, reporting no score at all.
    NoScore,
    /// Declares no `Game` option and plays Toguz Kumalak whatever the run's game: an engine that
    /// is never told the game.
    NoGame,
    /// Declares a `Game` option but refuses every game but Toguz Kumalak with an `info string
    /// error`, then plays Toguz Kumalak.
    RejectGame,
    /// Plays like `ok`, reporting only bounds: `score cp -5000 lowerbound` then `score cp 0
    /// upperbound` (aspiration windows that failed), whose numbers say neither lost nor even.
    Bounds,
    /// Plays like `ok`, each move after 25 ms and a full `info` line (depth, score, nodes,
    /// nps, a pv) after an info string with HTML in it: a game lasts long enough to be watched.
    Slow,
}

/// Runs the fake engine over the given streams; returns the process exit code.
pub fn run(mode: FakeMode, input: impl BufRead, mut out: impl Write) -> i32 {
    let mode = match mode {
        FakeMode::CrashRestart | FakeMode::StallRestart | FakeMode::DeafRestart => {
            let tag = std::env::args().nth(3).unwrap_or_default();
            let marker = first_start_marker(mode, &tag, std::os::unix::process::parent_id());
            // The first process of this arena creates the marker; every later one finds it.
            let first = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&marker)
                .is_ok();
            match (first, mode) {
                (true, _) => FakeMode::Ok,
                (false, FakeMode::CrashRestart) => FakeMode::CrashStart,
                (false, FakeMode::DeafRestart) => FakeMode::DeafStart,
                (false, _) => FakeMode::StallStart,
            }
        }
        m => m,
    };
    if mode == FakeMode::CrashStart {
        return 3;
    }
    if mode == FakeMode::Helper {
        std::thread::sleep(Duration::from_secs(300));
        return 0;
    }
    // Elsewhere than on Linux the pipe keeps its size: unread input fills it later.
    #[cfg(target_os = "linux")]
    if matches!(mode, FakeMode::Deaf | FakeMode::DeafStart) {
        // On a pipe this sets the buffer size (4 KiB: one page, the least), so unread input
        // fills it after a few plies.
        let _ = rustix::pipe::fcntl_setpipe_size(std::io::stdin(), 4096);
    }
    if mode == FakeMode::CrashFlood {
        let line = "flood ".repeat(100) + "\n";
        let mut err = std::io::stderr().lock();
        for _ in 0..(1 << 20) / line.len() {
            let _ = err.write_all(line.as_bytes());
        }
    }
    if mode == FakeMode::IgnoreQuit {
        // A helper in the engine's process group (blocked on a pipe nobody writes, carrying the
        // same command-line tag): the arena must kill it too.
        if let Ok(exe) = std::env::current_exe() {
            let helper = std::process::Command::new(exe)
                .args(["fake-engine", "stall-start"])
                .args(std::env::args().skip(3))
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .spawn();
            if let Ok(child) = helper {
                std::mem::forget(child);
            }
        }
    }
    let mut variant = Variant::TOGUZ;
    let mut line = GameLine::new(AnyGame::start(variant));
    let mut followed = Followed::default();
    let mut gos = 0u32;
    let mut moves_in_game = 0u32;
    let say = |out: &mut dyn Write, s: &str| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };
    for text in input.lines() {
        let Ok(text) = text else { break };
        let Ok(parsed) = wire::parse(&text) else {
            continue;
        };
        match parsed.command {
            GuiCommand::Hello { .. } => {
                if mode == FakeMode::StallStart {
                    continue;
                }
                say(&mut out, "id name fake-engine");
                if mode != FakeMode::NoGame {
                    say(
                        &mut out,
                        "option name Game type string default toguz-kumalak",
                    );
                }
                say(&mut out, "ugiok");
                if mode == FakeMode::DeafStart {
                    std::thread::sleep(Duration::from_secs(300));
                    return 0;
                }
            }
            GuiCommand::IsReady => say(&mut out, "readyok"),
            GuiCommand::SetOption { name, value } if name.eq_ignore_ascii_case("game") => {
                let value = value.filter(|v| {
                    let refused =
                        mode == FakeMode::RejectGame && !v.eq_ignore_ascii_case("toguz-kumalak");
                    if refused {
                        let error = format!(
                            "info string error setoption: unknown game id '{v}'; nothing changed"
                        );
                        say(&mut out, &error);
                    }
                    !refused
                });
                if let Some(v) = value.and_then(|v| v.parse().ok()) {
                    variant = v;
                    line = GameLine::new(AnyGame::start(variant));
                    followed = Followed::default();
                }
            }
            GuiCommand::NewGame => moves_in_game = 0,
            GuiCommand::Position(p) => followed.follow(&p, variant, &mut line),
            GuiCommand::Go(_) => {
                gos += 1;
                moves_in_game += 1;
                let pick = |line: &GameLine<AnyGame>| {
                    ok_move(line.position())
                        .map_or("none".to_string(), |mv| line.position().move_name(mv))
                };
                match mode {
                    FakeMode::CrashMid if gos > 2 => {
                        eprintln!("fake-engine: out of memory in search");
                        return 1;
                    }
                    FakeMode::CrashSlowExit if gos > 2 => {
                        drop(out);
                        // Closes the arena's pipe: /dev/null, opened for reading, takes the
                        // place of stdout (a write would fail, as on a closed descriptor).
                        if let Ok(null) = std::fs::File::open("/dev/null") {
                            let _ = rustix::stdio::dup2_stdout(null);
                        }
                        std::thread::sleep(Duration::from_millis(300));
                        return 1;
                    }
                    FakeMode::CrashFlood => return 4,
                    FakeMode::Deaf => {
                        replay_without_reading(line, &mut out);
                        std::thread::sleep(Duration::from_secs(300));
                        return 0;
                    }
                    FakeMode::NoAnswer => {}
                    FakeMode::Late => {
                        eprintln!("fake-engine: go {gos}");
                        std::thread::sleep(Duration::from_millis(600));
                        say(&mut out, &format!("bestmove {}", pick(&line)));
                    }
                    FakeMode::Illegal if moves_in_game > 1 => {
                        let pos = line.position();
                        let side = pos.side_to_move();
                        let empty = pos.row(side).iter().position(|&n| n == 0);
                        let token = match empty {
                            Some(i) => (i + 1).to_string(),
                            None => (pos.holes() + 1).to_string(),
                        };
                        say(&mut out, &format!("bestmove {token}"));
                    }
                    FakeMode::Garbage => {
                        let _ = out.write_all(b"\xff\xfe\x00junk\x07\n");
                        let _ = out.write_all(&vec![b'z'; 100_000]);
                        say(&mut out, "");
                        say(&mut out, "bestmove \u{1}@#!");
                    }
                    FakeMode::AbsurdInfo => {
                        say(&mut out, "info depth 7 score cp 12 nodes 3000");
                        say(
                            &mut out,
                            "info depth 3186588637 score mate -9223372036854775808",
                        );
                        say(&mut out, "info score mate 0 nodes 18446744073709551615");
                        say(&mut out, &format!("bestmove {}", pick(&line)));
                    }
                    FakeMode::Slow => {
                        let best = pick(&line);
                        say(&mut out, "info string <img src=x onerror=alert(1)>");
                        say(
                            &mut out,
                            &format!(
                                "info depth {moves_in_game} score cp -{moves_in_game} nodes 1234 \
                                 nps 56789 pv {best} 1 2"
                            ),
                        );
                        std::thread::sleep(Duration::from_millis(25));
                        say(&mut out, &format!("bestmove {best}"));
                    }
                    FakeMode::Flood => loop {
                        let info = "info depth 1 score cp 0 nodes 1 pv 1 ".repeat(20);
                        if writeln!(out, "{info}").is_err() {
                            return 1;
                        }
                    },
                    FakeMode::Winning
                    | FakeMode::Losing
                    | FakeMode::Mated
                    | FakeMode::NoScore
                    | FakeMode::Bounds => {
                        let score = match mode {
                            FakeMode::Winning => " score cp 1000",
                            FakeMode::Losing => " score cp -1000",
                            FakeMode::Mated => " score mate -3",
                            FakeMode::Bounds if moves_in_game % 2 == 1 => {
                                " score cp -5000 lowerbound"
                            }
                            FakeMode::Bounds => " score cp 0 upperbound",
                            _ => "",
                        };
                        say(&mut out, &format!("info depth 1{score} nodes 1"));
                        say(&mut out, &format!("bestmove {}", pick(&line)));
                    }
                    _ => {
                        // Both lines in one write (a line-buffered write of text ending in a
                        // newline is one `write`): see `FakeMode::Ok`.
                        let reply = format!(
                            "info depth 1 score cp 0 nodes 1\nbestmove {}\n",
                            pick(&line)
                        );
                        let _ = out.write_all(reply.as_bytes());
                        let _ = out.flush();
                    }
                }
            }
            GuiCommand::Quit if mode != FakeMode::IgnoreQuit => return 0,
            _ => {}
        }
    }
    if mode == FakeMode::IgnoreQuit {
        std::thread::sleep(Duration::from_secs(300));
    }
    0
}

/// The `ok` mode's move in `pos`: a hash of the position picks among the legal moves.
fn ok_move(pos: &AnyGame) -> Option<crate::games::Move> {
    let legal = pos.legal_moves();
    (!legal.is_empty()).then(|| legal[(pos.hash() % legal.len() as u64) as usize])
}

/// [`FakeMode::Deaf`]: plays the rest of the game from `line` (its own move to make) without
/// reading, taking the opponent to be the `ok` mode: every own move goes out at once, so the
/// arena goes on writing positions nobody reads.
fn replay_without_reading(mut line: GameLine<AnyGame>, out: &mut impl Write) {
    let me = line.position().side_to_move();
    while !line.is_over() {
        let Some(mv) = ok_move(line.position()) else {
            break;
        };
        if line.position().side_to_move() == me {
            let _ = writeln!(out, "bestmove {}", line.position().move_name(mv));
            let _ = out.flush();
        }
        if line.play(mv).is_err() {
            break;
        }
    }
}

/// The file by which the `*-restart` modes know that the arena process `parent` has started
/// them before (in the temporary directory; remove it after the run).
pub fn first_start_marker(mode: FakeMode, tag: &str, parent: u32) -> std::path::PathBuf {
    let mode = format!("{mode:?}").to_lowercase();
    std::env::temp_dir().join(format!("otau-fake-engine-{parent}-{mode}-{tag}"))
}

/// What the engine's line was built from: the last `position`'s start and moves, so that the
/// next one, the same game a move or two on, plays only those moves. A replay from the start
/// every ply would make the engine's work grow with the game, and with it the floor that
/// `scripts/arena-bench.sh` measures the arena against.
#[derive(Default)]
struct Followed {
    /// `None` before the first position, and after one that could not be played.
    start: Option<String>,
    moves: Vec<String>,
}

impl Followed {
    /// Sets `line` to the position of `p`: by the moves it adds to the last one if it extends
    /// it, else from its start. A position that cannot be played leaves `line` as it was.
    fn follow(&mut self, p: &PositionCommand<'_>, variant: Variant, line: &mut GameLine<AnyGame>) {
        let start = match &p.start {
            Start::StartPos => String::new(),
            Start::Fen(fields) => fields.join(" "),
        };
        let extends = self.start.as_ref() == Some(&start)
            && p.moves.len() >= self.moves.len()
            && p.moves.iter().zip(&self.moves).all(|(a, b)| a == b);
        if extends {
            let mut next = line.clone();
            if p.moves[self.moves.len()..]
                .iter()
                .all(|m| next.play_token(m).is_ok())
            {
                *line = next;
                self.moves
                    .extend(p.moves[self.moves.len()..].iter().map(|m| m.to_string()));
                return;
            }
        }
        match position_line(p, variant) {
            Some(l) => {
                *line = l;
                self.start = Some(start);
                self.moves = p.moves.iter().map(|m| m.to_string()).collect();
            }
            None => self.start = None,
        }
    }
}

fn position_line(p: &PositionCommand<'_>, variant: Variant) -> Option<GameLine<AnyGame>> {
    let pos = match &p.start {
        Start::StartPos => AnyGame::start(variant),
        Start::Fen(fields) => AnyGame::from_position(&fields.join(" ")).ok()?,
    };
    let mut line = GameLine::new(pos);
    for m in &p.moves {
        line.play_token(m).ok()?;
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn follow(followed: &mut Followed, line: &mut GameLine<AnyGame>, text: &str) {
        let parsed = wire::parse(text).expect("a command");
        let GuiCommand::Position(p) = parsed.command else {
            panic!("{text} is no position");
        };
        followed.follow(&p, Variant::TOGUZ, line);
    }

    #[test]
    fn a_position_is_followed_by_its_new_moves_and_rebuilt_otherwise() {
        let mut followed = Followed::default();
        let mut line = GameLine::new(AnyGame::start(Variant::TOGUZ));
        follow(&mut followed, &mut line, "position startpos moves 1 2");
        assert_eq!(line.move_names(), ["1", "2"]);
        follow(&mut followed, &mut line, "position startpos moves 1 2 3");
        assert_eq!(line.move_names(), ["1", "2", "3"]);
        // Another game: not an extension, built from its start.
        follow(&mut followed, &mut line, "position startpos moves 4");
        assert_eq!(line.move_names(), ["4"]);
        // An extension with an unplayable move leaves the line as it was, and so does a
        // position that cannot be played at all.
        follow(&mut followed, &mut line, "position startpos moves 4 x");
        assert_eq!(line.move_names(), ["4"]);
        follow(
            &mut followed,
            &mut line,
            "position startpos moves 5 5 5 5 5 5 5 5 5 5",
        );
        assert_eq!(line.move_names(), ["4"]);
        // After a position that could not be played, the next is built from its start.
        follow(&mut followed, &mut line, "position startpos moves 4 1");
        assert_eq!(line.move_names(), ["4", "1"]);
    }
}
