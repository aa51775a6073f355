//! The pipe floor of an arena's CPU a ply (`scripts/arena-bench.sh` builds and runs it).
//!
//!   pipe-floor PLIES CONCURRENCY
//!
//! Plays PLIES plies as an arena and instant engines would, with nothing else: CONCURRENCY
//! threads each drive two child engines (this program again, as `pipe-floor engine`) over
//! pipes, one ply at a time: a `position startpos moves ...` line that grows by a move each ply
//! (a new game every 120 plies) and `go depth 1` in one write, then one blocking read of the
//! engine's `bestmove` line. Prints the CPU time of this process (every thread, the engines
//! excluded) a ply, in microseconds: what no arena can go below on the same machine.
//! Plain std: compiled by `rustc -O` alone.
use std::io::{BufRead, BufReader, Write};
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

/// The instant engine: `bestmove` for every `go`, nothing else.
fn engine() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.expect("read");
        if line.starts_with("go") {
            out.write_all(b"bestmove 1\n").and_then(|_| out.flush()).expect("write");
        } else if line == "quit" {
            break;
        }
    }
}

fn drive(plies: u64) {
    let me = std::env::current_exe().expect("own path");
    let mut engines: Vec<_> = (0..2)
        .map(|_| {
            let mut child = Command::new(&me)
                .arg("engine")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("spawn engine");
            let input = child.stdin.take().unwrap();
            let output = BufReader::new(child.stdout.take().unwrap());
            (child, input, output)
        })
        .collect();
    let mut moves = String::new();
    let mut reply = String::new();
    for ply in 0..plies {
        if ply % 120 == 0 {
            moves.clear();
        }
        moves.push_str(if ply % 2 == 0 { " 3" } else { " 12" });
        let (_, input, output) = &mut engines[(ply % 2) as usize];
        let command = format!("position startpos moves{moves}\ngo depth 1\n");
        input.write_all(command.as_bytes()).expect("write");
        reply.clear();
        output.read_line(&mut reply).expect("read");
        assert!(reply.starts_with("bestmove"), "{reply:?}");
    }
    for (mut child, mut input, _) in engines {
        let _ = input.write_all(b"quit\n");
        drop(input);
        let _ = child.wait();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("engine") {
        return engine();
    }
    let usage = "usage: pipe-floor PLIES CONCURRENCY";
    let plies: u64 = args.get(1).and_then(|a| a.parse().ok()).expect(usage);
    let threads: u64 = args.get(2).and_then(|a| a.parse().ok()).expect(usage);
    let before = own_cpu();
    let workers: Vec<_> = (0..threads)
        .map(|_| std::thread::spawn(move || drive(plies / threads)))
        .collect();
    for w in workers {
        w.join().expect("worker");
    }
    let cpu = own_cpu() - before;
    let done = plies / threads * threads;
    println!(
        "pipe floor: {done} plies at concurrency {threads}; CPU {:.2} s, {:.1} us/ply",
        cpu.as_secs_f64(),
        cpu.as_secs_f64() * 1e6 / done as f64
    );
}
