//! Numbers given to the arena: every numeric option is refused with its valid range or accepted
//! with its documented meaning (issue 15 item 7); a schedule's size costs no memory (item 5);
//! the `key=value` lists (an engine's, `--sprt`'s, a selfplay contender's) refuse a repeated or
//! unknown key and a bad value naming the list (issue 30 item 3).

use crate::support::arena::*;
use otau::arena::records::RecordsFile;
use otau::games::{Outcome, Side};

/// Two built-in players at depth 1 (`--each`: an engine's own `depth=` overrides it; engine
/// keys for the first appended), then `rest` (keys of the second, then options).
fn with(first: &[&str], rest: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "--each",
        "depth=1",
        "--engine",
        "name=a",
        "cmd=builtin:random",
    ]
    .iter()
    .chain(first)
    .chain(&["--engine", "name=b", "cmd=builtin:greedy"])
    .chain(rest)
    .map(|s| s.to_string())
    .collect();
    v.push("-q".into());
    v
}

#[test]
fn every_numeric_option_is_refused_with_its_range() {
    let dir = scratch("values-refused");
    // (engine keys of the first engine, run options, what the error must say)
    let cases: &[(&[&str], &[&str], &str)] = &[
        // Every game was lost on move 1: the first move is played on the time alone.
        (
            &["tc=0+0.1"],
            &[],
            "the first move is played on the time alone",
        ),
        (&["tc=0.0004"], &[], "rounds to 0 ms"),
        (&["tc=10+0.0004"], &[], "increment 0.0004 s rounds to 0 ms"),
        // (0 moves is cutechess-cli's whole game on one clock, `0/120+2`: accepted.)
        (
            &["tc=4294967296/10"],
            &[],
            "moves '4294967296' is not in 0..=4294967295",
        ),
        (&["tc=86401"], &[], "0.001..=86400 seconds"),
        (&["tc=-1"], &[], "0.001..=86400 seconds"),
        (&["tc=NaN"], &[], "not a number of seconds"),
        // Used to become 1 ms silently.
        (&["st=0"], &[], "st=0: 0 is outside 0.001..=86400 seconds"),
        (&["st=1e9"], &[], "0.001..=86400 seconds"),
        // Used to wrap: games were lost with "allowed 400 ms".
        (
            &["timemargin=18446744073709551516"],
            &[],
            "timemargin=18446744073709551516: a whole number of ms in 0..=86400000",
        ),
        (&["timemargin=86400001"], &[], "0..=86400000"),
        (
            &["timeout=0"],
            &[],
            "timeout=0: 0 is outside 0.001..=86400 seconds",
        ),
        (
            &["depth=0"],
            &[],
            "depth=0: a whole number in 1..=2147483647",
        ),
        (&["depth=2147483648"], &[], "1..=2147483647"),
        (
            &["nodes=0"],
            &[],
            "nodes=0: a whole number in 1..=9223372036854775807",
        ),
        (
            &["nodes=9223372036854775808"],
            &[],
            "1..=9223372036854775807",
        ),
        (
            &[],
            &["--startup-timeout", "0"],
            "--startup-timeout 0: 0 is outside 0.001..=86400",
        ),
        (
            &[],
            &["--startup-timeout", "1e9"],
            "--startup-timeout 1e9: 1e9 is outside",
        ),
        (
            &[],
            &["--startup-timeout", "soon"],
            "not a number of seconds",
        ),
        (&[], &["--games", "0"], "0 is not in 1..=9007199254740992"),
        (
            &[],
            &["--games", "9007199254740993"],
            "not in 1..=9007199254740992",
        ),
        // Two engines play one pair a round, and rounds are 32-bit: this was cut to
        // 8,589,934,590 games without a word.
        (
            &[],
            &["--games", "1000000000000"],
            "--games 1000000000000: 1..=8589934590",
        ),
        (&[], &["--rounds", "0"], "0 is not in 1..=4294967295"),
        (&[], &["--concurrency", "0"], "0 is not in 1..=1024"),
        (&[], &["--concurrency", "100000"], "not in 1..=1024"),
        (
            &[],
            &["--max-start-failures", "0"],
            "0 is not in 1..=4294967295",
        ),
        (&[], &["--max-crashes", "0"], "0 is not in 1..=4294967295"),
        (
            &[],
            &["--log-limit", "1048577"],
            "1048577 is not in 0..=1048576",
        ),
        (&[], &["--max-plies", "0"], "0 is not in 1..=4294967295"),
        (
            &[],
            &["--max-plies", "4"],
            "--max-plies 4: leaves no move to the engines after 4-ply openings (give 5..=",
        ),
        (
            &[],
            &["--openings", "plies=1001"],
            "plies=1001: a whole number in 0..=1000",
        ),
        (&[], &["--openings", "margin=4294967295"], "0..=100000"),
        (
            &[],
            &["--openings", "depth=0"],
            "depth=0: a whole number in 1..=120",
        ),
        (&[], &["--sprt", "elo0=0", "elo1=500"], "out of range"),
        (
            &[],
            &["--sprt", "elo0=0", "elo1=5", "alpha=1"],
            "must lie in (0, 1)",
        ),
        (
            &[],
            &["--sprt", "elo0=0", "elo1=inf"],
            "--sprt elo1=inf: a finite number",
        ),
        (&[], &["--shard", "0/3"], "1 <= k <= n"),
    ];
    for (keys, opts, expected) in cases {
        let args = with(keys, opts);
        let (code, out, err) = arena(&args.iter().map(String::as_str).collect::<Vec<_>>(), &dir);
        assert_eq!(code, 1, "{keys:?} {opts:?}: exit {code}\n{out}{err}");
        assert!(err.contains(expected), "{keys:?} {opts:?}: {err}");
    }
    let (code, _, err) = arena(&["--check-timeout", "0", "--check", "x"], &dir);
    assert_eq!(code, 1);
    assert!(
        err.contains("--check-timeout 0: 0 is outside 0.001..=86400"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn boundary_values_are_accepted_and_mean_what_they_say() {
    let dir = scratch("values-accepted");
    // The largest margin forgives any lateness (it wrapped before): a 1 ms clock loses no game
    // on time; and the smallest startup timeout, max-plies and concurrency that exist work.
    // The margin is a's: `timeout=` (b's limit, a depth-limited player) is a move's whole
    // allowance, so on a loaded machine b may lose on time, and then by exactly that 1 ms.
    let args = with(
        &["tc=0.001", "timemargin=86400000"],
        &[
            "--each",
            "timeout=0.001",
            "--games",
            "2",
            "--max-plies",
            "5",
            "--concurrency",
            "1024",
            "--startup-timeout",
            "86400",
            "--max-start-failures",
            "1",
            "--out",
            "r.jsonl",
        ],
    );
    let (code, out, err) = arena(&args.iter().map(String::as_str).collect::<Vec<_>>(), &dir);
    assert_eq!(code, 0, "{out}{err}");
    let file = RecordsFile::read(&dir.join("r.jsonl")).unwrap();
    assert_eq!(file.games.len(), 2);
    for g in file.games.values() {
        let winner = match g.result {
            Outcome::Win(Side::South) => g.south.as_str(),
            Outcome::Win(Side::North) => g.north.as_str(),
            Outcome::Draw => "",
        };
        let b_lost_on_time = g.termination.kind.name() == "time-loss"
            && winner == "a"
            && g.termination.detail.contains("(allowed 1 ms)");
        assert!(
            g.termination.kind.name() == "max-plies" || b_lost_on_time,
            "{g:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_records_file_with_a_value_out_of_range_is_refused_on_resume() {
    let dir = scratch("values-resume");
    let args = with(&["timemargin=5"], &["--rounds", "2", "--out", "r.jsonl"]);
    let (code, _, err) = arena(&args.iter().map(String::as_str).collect::<Vec<_>>(), &dir);
    assert_eq!(code, 0, "{err}");
    // Keep the header only, with a margin that would wrap the allowed time.
    let text = std::fs::read_to_string(dir.join("r.jsonl")).unwrap();
    let header = text.lines().next().unwrap();
    assert!(header.contains("\"timemargin_ms\":5"), "{header}");
    let edited = header.replace(
        "\"timemargin_ms\":5",
        "\"timemargin_ms\":18446744073709551516",
    );
    std::fs::write(dir.join("r.jsonl"), format!("{edited}\n")).unwrap();
    let (code, _, err) = arena(&["--resume", "r.jsonl", "-q"], &dir);
    assert_eq!(code, 1);
    assert!(
        err.contains("engine a: timemargin: 18446744073709551516 ms is outside 0..=86400000 ms"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_schedule_of_billions_of_games_costs_no_memory() {
    // The largest schedule two engines have (2^32-1 rounds): listing it needed 344 GB, and
    // `--games 100000000 --sprt` aborted on a 5 GB allocation. The SPRT decides after a few
    // dozen games of greedy against random, and the run ends.
    let dir = scratch("values-huge");
    let args = with(
        &[],
        &[
            "--games",
            "8589934590",
            "--sprt",
            "elo0=-50",
            "elo1=0",
            "--seed",
            "1",
            "--out",
            "r.jsonl",
        ],
    );
    let (code, out, err) = arena(&args.iter().map(String::as_str).collect::<Vec<_>>(), &dir);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("SPRT: H0 accepted"), "{err}");
    let file = RecordsFile::read(&dir.join("r.jsonl")).unwrap();
    assert_eq!(file.header.scheduled, 8_589_934_590);
    assert!(file.games.len() < 1000, "{}", file.games.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn absurd_engine_numbers_are_dropped_and_counted() {
    // An engine whose every move comes with a depth of 3186588637, a mate in
    // -9223372036854775808 and in 0, and 2^64-1 nodes, after a sane `info depth 7 score cp 12
    // nodes 3000`: the records, the PGN and the DEPTH column show only the sane figures, and the
    // diagnostics count the rest (4 a move).
    let dir = scratch("values-info");
    let args = [
        "--engine",
        "name=odd",
        &format!("cmd={ARENA}"),
        "args=fake-engine absurd-info",
        "--engine",
        "name=b",
        "cmd=builtin:greedy",
        "--each",
        "depth=1",
        "--games",
        "2",
        "--max-plies",
        "24",
        "--seed",
        "3",
        "--out",
        "r.jsonl",
        "--pgn",
        "r.pgn",
    ];
    let (code, out, err) = arena(&args, &dir);
    assert_eq!(code, 0, "{out}{err}");
    let file = RecordsFile::read(&dir.join("r.jsonl")).unwrap();
    let mut odd_moves = 0;
    for g in file.games.values() {
        for m in &g.moves {
            if m.depth == Some(7) {
                odd_moves += 1;
                assert_eq!(m.score.as_deref(), Some("cp 12"));
                assert_eq!((m.nodes, m.info_dropped), (Some(3000), 4));
            } else {
                assert_eq!(m.info_dropped, 0, "{m:?}");
            }
        }
    }
    assert!(odd_moves >= 10, "{odd_moves} moves of odd");
    let pgn = std::fs::read_to_string(dir.join("r.pgn")).unwrap();
    assert!(pgn.contains("{+0.12/7}"), "{pgn}");
    assert!(
        !pgn.contains("M-9223372036854775808") && !pgn.contains("M0"),
        "{pgn}"
    );
    let depth_row = out.lines().find(|l| l.starts_with("odd ")).unwrap();
    assert!(depth_row.contains(" 7.00 "), "{out}");
    let note = format!(
        "odd: {} search value(s) out of range dropped",
        4 * odd_moves
    );
    assert!(out.contains(&note), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A refusal: exit status 1 and a line of `stderr` ending with `want` (after the program's
/// `otau-arena: ` or `Error: `).
fn refused_with(code: i32, stderr: &str, want: &str) {
    assert_eq!(code, 1, "{want}\n{stderr}");
    assert!(
        stderr.lines().any(|l| l.ends_with(want)),
        "{want}\n{stderr}"
    );
}

#[test]
fn engine_keys_and_sprt_keys_refuse_a_repeat_an_unknown_key_and_a_bad_value() {
    let dir = scratch("values-key-lists");
    let keys = "name, cmd, args, arg, dir, conf, proto, restart, stderr, option.NAME, tc, st, \
                depth, plies, nodes, timemargin, timeout, rating, sandbox, memory, processes, \
                cpus, overuse";
    // (keys of the first engine, keys of the second and options after, the error's line)
    let cases: &[(&[&str], &[&str], String)] = &[
        (
            &["depth=2", "depth=3"],
            &[],
            "--engine 1: depth= is given twice ('depth=2', then 'depth=3'): give each key once"
                .into(),
        ),
        (
            &["colour=red"],
            &[],
            format!("--engine 1: unknown key 'colour' (keys: {keys})"),
        ),
        (
            &[],
            &["rating=4001"],
            "--engine 2 rating=4001: a whole number in 0..=4000".into(),
        ),
        (
            &[],
            &["--each", "st=1", "st=2"],
            "--each: st= is given twice ('st=1', then 'st=2'): give each key once".into(),
        ),
        (
            &[],
            &["--each", "bogus=1"],
            format!("--each: unknown key 'bogus' (keys: {keys})"),
        ),
        (
            &[],
            &["--each", "memory=0"],
            "--each memory=0: a whole number of MB in 1..=1048576".into(),
        ),
        (
            &[],
            &["--sprt", "elo0=0", "elo1=5", "elo1=10"],
            "--sprt: elo1= is given twice ('elo1=5', then 'elo1=10'): give each key once".into(),
        ),
        (
            &[],
            &["--sprt", "elo0=0", "elo1=5", "gamma=2"],
            "--sprt: unknown key 'gamma' (keys: elo0, elo1, alpha, beta, model)".into(),
        ),
        (
            &[],
            &["--sprt", "elo0=0", "elo1=5", "model=bayes"],
            "--sprt model=bayes: one of normalized, logistic".into(),
        ),
        (
            &[],
            &["--sprt", "elo0=0", "elo1=5", "alpha=1"],
            "--sprt: SPRT: alpha (1) and beta (0.05) must lie in (0, 1) and add up to less than 1"
                .into(),
        ),
        (
            &[],
            &["--sprt", "elo0=0"],
            "--sprt: elo1= is missing".into(),
        ),
    ];
    for (first, rest, want) in cases {
        let args = with(first, rest);
        let (code, _, err) = arena(&args.iter().map(String::as_str).collect::<Vec<_>>(), &dir);
        refused_with(code, &err, want);
    }
    // The calculator's keys are the same list, named `sprt`.
    let (code, _, err) = arena(
        &[
            "sprt",
            "--penta",
            "1,2,10,2,1",
            "elo0=0",
            "elo0=1",
            "elo1=5",
        ],
        &dir,
    );
    refused_with(
        code,
        &err,
        "sprt: elo0= is given twice ('elo0=0', then 'elo0=1'): give each key once",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_contenders_refuse_a_repeat_an_unknown_key_and_a_bad_value() {
    let dir = scratch("values-contenders");
    let cases = [
        (
            "level=5,level=6",
            "--a: level= is given twice ('level=5', then 'level=6'): give each key once",
        ),
        (
            "colour=red",
            "--a: unknown key 'colour' (keys: name, level, hash, threads, player, seed, depth, \
             nodes, movetime, tc, qplies, off, weights)",
        ),
        (
            "movetime=0",
            "--a movetime=0: a whole number of ms in 1..=86400000",
        ),
        // The contender's depth is the engine's key, read by the engine's list.
        ("depth=0", "--a depth=0: a whole number in 1..=2147483647"),
    ];
    for (a, want) in cases {
        let o = crate::support::otau()
            .args(["selfplay", "--a", a, "--b", "depth=1", "--pairs", "1"])
            .current_dir(&dir)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        refused_with(o.status.code().unwrap_or(-1), &err, want);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
