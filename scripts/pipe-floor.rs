//! The pipe floor of an arena's CPU a ply (`scripts/arena-bench.sh` builds and runs it).
//!
//!   pipe-floor [--poll] CONCURRENCY RECORDS 1|ENGINE [ARG...]
//!
//! Replays the games of RECORDS (an arena's records file: each game's opening and moves) as an
//! arena would with nothing else: CONCURRENCY threads each drive two engines over pipes, one ply
//! at a time: the game's `position startpos moves ...` line, which grows by a move each ply, and
//! `go depth 1` in one write, then blocking reads of the engine's output until its `bestmove`
//! line; the engine of the side to move answers. The engines are
//!   - ENGINE [ARG...]: that program, e.g. the arena's own test engine (`otau-arena fake-engine
//!     ok`): the same engine on the same games, so the same bytes written the same way (its
//!     `info` line and its `bestmove` in one write) after the same work: the fair floor;
//!   - 1: this program again, as `pipe-floor engine`, writing the test engine's two lines (`info
//!     depth 1 score cp 0 nodes 1`, `bestmove 1`) in one write at once and doing nothing else:
//!     one wake-up a ply after no work, the least a ply can cost.
//! With `--poll` first, every read is preceded by a `ppoll` of the pipe with a timeout (25 ms,
//! as the arena waits in slices), as the arena waits: the floor of a read that has a deadline.
//! Prints the CPU time of this process (every thread, the engines excluded) a ply in
//! microseconds, and the reads a ply that returned bytes (the wake-ups: 1 is one a ply).
//! Plain std: compiled by `rustc -O` alone.
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::{AsFd, AsRawFd};
use std::process::{Command, Stdio};
use std::time::Duration;

/// `getrusage(RUSAGE_SELF)`: the two times of Linux's `struct rusage`, then 14 longs.
#[repr(C)]
struct Rusage {
    utime: [i64; 2],
    stime: [i64; 2],
    rest: [i64; 14],
}

extern "C" {
    fn getrusage(who: i32, usage: *mut Rusage) -> i32;
    fn ppoll(fds: *mut PollFd, n: u64, timeout: *const [i64; 2], sigmask: *const u8) -> i32;
}

/// Linux's `struct pollfd`.
#[repr(C)]
struct PollFd {
    fd: i32,
    events: i16,
    revents: i16,
}

/// Waits until `fd` is readable, in `ppoll` slices of 25 ms (the arena's wait on an engine).
fn wait_readable(fd: i32) {
    let slice = [0i64, 25_000_000];
    loop {
        let mut p = PollFd {
            fd,
            events: 1, // POLLIN
            revents: 0,
        };
        // SAFETY: one valid pollfd, a valid timespec, no signal mask.
        if unsafe { ppoll(&mut p, 1, &slice, std::ptr::null()) } > 0 {
            return;
        }
    }
}

fn own_cpu() -> Duration {
    let mut u = Rusage {
        utime: [0; 2],
        stime: [0; 2],
        rest: [0; 14],
    };
    // SAFETY: getrusage(RUSAGE_SELF = 0) fills the struct it is given.
    unsafe { getrusage(0, &mut u) };
    let tv = |t: [i64; 2]| Duration::new(t[0] as u64, t[1] as u32 * 1000);
    tv(u.utime) + tv(u.stime)
}

/// The instant engine: for every `go`, the test engine's `info` line and a `bestmove` in one
/// write(2); nothing else.
fn engine() {
    let stdin = std::io::stdin();
    // The descriptor itself, not std's line-buffered stdout: one write_all is one write(2).
    let mut out = File::from(std::io::stdout().as_fd().try_clone_to_owned().expect("stdout"));
    for line in stdin.lock().lines() {
        let line = line.expect("read");
        if line.starts_with("go") {
            out.write_all(b"info depth 1 score cp 0 nodes 1\nbestmove 1\n")
                .expect("write");
        } else if line == "quit" {
            break;
        }
    }
}

/// A pipe whose reads that returned bytes are counted; with `poll`, each read waits in `ppoll`
/// first.
struct Counted<R> {
    inner: R,
    reads: u64,
    poll: bool,
}

impl<R: Read + AsRawFd> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.poll {
            wait_readable(self.inner.as_raw_fd());
        }
        let n = self.inner.read(buf)?;
        self.reads += u64::from(n > 0);
        Ok(n)
    }
}

/// The strings of the JSON array that follows `key` in `text` (move names: no escapes).
fn strings_after<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    let Some(at) = text.find(key) else {
        return Vec::new();
    };
    let rest = &text[at + key.len()..];
    let list = &rest[..rest.find(']').unwrap_or(0)];
    list.split(',')
        .map(|s| s.trim().trim_matches('"'))
        .filter(|s| !s.is_empty())
        .collect()
}

/// Each game of an arena's records: its opening's moves, then the moves played.
fn games(records: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let text = std::fs::read_to_string(records).expect("records");
    let mut games = Vec::new();
    for line in text.lines().filter(|l| l.contains("\"event\":\"game\"")) {
        let played_at = line.find("\"moves\":[{").unwrap_or(line.len());
        let opening = match line.find("\"opening\":{") {
            Some(at) if at < played_at => strings_after(&line[at..played_at], "\"moves\":["),
            _ => Vec::new(),
        };
        let opening: Vec<String> = opening.into_iter().map(str::to_string).collect();
        let played: Vec<String> = line[played_at..]
            .split("\"move\":\"")
            .skip(1)
            .map(|s| s[..s.find('"').unwrap_or(0)].to_string())
            .collect();
        games.push((opening, played));
    }
    games
}

/// Plays `games` against two engines; the plies played and the reads that returned bytes.
fn drive(games: &[(Vec<String>, Vec<String>)], engine: &[String], poll: bool) -> (u64, u64) {
    let mut engines: Vec<_> = (0..2)
        .map(|_| {
            let mut child = Command::new(&engine[0])
                .args(&engine[1..])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("spawn engine");
            let input = child.stdin.take().unwrap();
            let output = BufReader::new(Counted {
                inner: child.stdout.take().unwrap(),
                reads: 0,
                poll,
            });
            (child, input, output)
        })
        .collect();
    let mut reply = String::new();
    let mut plies = 0;
    for (opening, played) in games {
        let mut position = String::from("position startpos moves");
        for mv in opening {
            position.push(' ');
            position.push_str(mv);
        }
        for (i, mv) in played.iter().enumerate() {
            let (_, input, output) = &mut engines[(opening.len() + i) % 2];
            let command = format!("{position}\ngo depth 1\n");
            input.write_all(command.as_bytes()).expect("write");
            loop {
                reply.clear();
                output.read_line(&mut reply).expect("read");
                assert!(!reply.is_empty(), "the engine closed its output");
                if reply.starts_with("bestmove") {
                    break;
                }
            }
            position.push(' ');
            position.push_str(mv);
            plies += 1;
        }
    }
    let mut reads = 0;
    for (mut child, mut input, output) in engines {
        let _ = input.write_all(b"quit\n");
        drop(input);
        let _ = child.wait();
        reads += output.get_ref().reads;
    }
    (plies, reads)
}

fn main() {
    let mut args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("engine") {
        return engine();
    }
    let poll = args.get(1).map(String::as_str) == Some("--poll");
    if poll {
        args.remove(1);
    }
    let usage = "usage: pipe-floor [--poll] CONCURRENCY RECORDS 1|ENGINE [ARG...]";
    let threads: usize = args.get(1).and_then(|a| a.parse().ok()).expect(usage);
    let all = games(args.get(2).expect(usage));
    let mut engine: Vec<String> = args.get(3..).expect(usage).to_vec();
    assert!(!engine.is_empty() && !all.is_empty(), "{usage}");
    let what = if engine == ["1"] {
        engine = vec![std::env::current_exe().expect("own path").display().to_string()];
        engine.push("engine".into());
        "one write a ply".to_string()
    } else {
        engine.join(" ")
    };
    let before = own_cpu();
    let workers: Vec<_> = (0..threads)
        .map(|t| {
            let mine: Vec<_> = all.iter().skip(t).step_by(threads).cloned().collect();
            let engine = engine.clone();
            std::thread::spawn(move || drive(&mine, &engine, poll))
        })
        .collect();
    let (mut plies, mut reads) = (0, 0);
    for w in workers {
        let (p, r) = w.join().expect("worker");
        (plies, reads) = (plies + p, reads + r);
    }
    let cpu = own_cpu() - before;
    let what = if poll { format!("{what}, ppoll before each read") } else { what };
    println!(
        "pipe floor ({what}): {plies} plies of {} games at concurrency {threads}; {:.2} reads a ply; CPU {:.2} s, {:.1} us/ply",
        all.len(),
        reads as f64 / plies as f64,
        cpu.as_secs_f64(),
        cpu.as_secs_f64() * 1e6 / plies as f64
    );
}
