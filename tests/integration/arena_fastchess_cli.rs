//! Command lines exactly as fastchess and cutechess-cli users type them, run end to end through
//! `otau-arena` (issue #18 items 1 and 4): single-dash options, their engine keys, books of all
//! three formats built from real games, every adjudication kind, an engines file, a protocol
//! log, a knockout, `-output format=cutechess`, and what is refused. Each line is split at spaces, `ARENA`
//! standing for this `otau-arena` (the fake engines' program); the harness adds only
//! `--out r.jsonl` to read the records back. Every run is a few games at depth 1 or 2.

use std::path::{Path, PathBuf};

use crate::support::arena::{arena, bestemshe_tables, scratch, ARENA};
use otau::arena::game::openings::{OpeningBook, OpeningConfig};
use otau::arena::records::{GameRecord, RecordsFile};
use otau::games::{Outcome, Side};

/// What a run left: exit code, stdout, stderr and its game records in game order.
struct Run {
    code: i32,
    out: String,
    err: String,
    games: Vec<GameRecord>,
}

impl Run {
    /// The termination kinds of the games, in game order.
    fn kinds(&self) -> Vec<&'static str> {
        self.games
            .iter()
            .map(|g| g.termination.kind.name())
            .collect()
    }

    fn assert_ok(&self) {
        assert_eq!(self.code, 0, "stdout:\n{}\nstderr:\n{}", self.out, self.err);
    }
}

/// Runs `line` in `dir` as typed (split at spaces; `ARENA` is this otau-arena), with
/// `--out r.jsonl` added, and `env` set.
fn run_env(dir: &Path, line: &str, env: &[(&str, &Path)]) -> Run {
    for f in ["r.jsonl", "g.pgn"] {
        let _ = std::fs::remove_file(dir.join(f));
    }
    let line = line.replace("ARENA", ARENA);
    let mut args: Vec<&str> = line.split_whitespace().collect();
    args.extend(["--out", "r.jsonl"]);
    let (code, out, err) = if env.is_empty() {
        arena(&args, dir)
    } else {
        let mut c = crate::support::command(ARENA);
        c.args(&args)
            .current_dir(dir)
            .stdin(std::process::Stdio::null());
        for (k, v) in env {
            c.env(k, v);
        }
        let o = c.output().unwrap();
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let games = RecordsFile::read(&dir.join("r.jsonl"))
        .map(|f| f.games.into_values().collect())
        .unwrap_or_default();
    Run {
        code,
        out,
        err,
        games,
    }
}

fn run(dir: &Path, line: &str) -> Run {
    run_env(dir, line, &[])
}

/// The games a PGN file holds (its `[Result` tags).
fn pgn_games(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap()
        .matches("[Result ")
        .count()
}

fn real_games() -> PathBuf {
    std::fs::canonicalize("tests/data/playok-sample.pgn").unwrap()
}

#[test]
fn fastchess_and_cutechess_match_lines() {
    let dir = scratch("fc-match");
    // 1. fastchess: an SPRT of a level against the random player, pairs of games, PGN.
    let r = run(
        &dir,
        "-engine cmd=builtin:otau name=L3 option.Level=3 -engine cmd=builtin:random name=random \
         -each tc=inf depth=2 proto=ugi -rounds 6 -repeat -concurrency 2 -variant toguz-kumalak \
         -srand 11 -pgnout file=g.pgn -sprt elo0=0 elo1=150 alpha=0.1 beta=0.1 \
         model=normalized -ratinginterval 4 -recover",
    );
    r.assert_ok();
    assert!(
        !r.games.is_empty() && r.games.len() <= 12,
        "{}",
        r.games.len()
    );
    assert_eq!(pgn_games(&dir.join("g.pgn")), r.games.len());
    assert!(r.out.contains("SPRT"), "{}", r.out);
    assert!(r.games.iter().all(|g| g.game == "toguz-kumalak"));
    // 2. cutechess-cli: -games per encounter times -rounds, `-pgnout FILE min fi`.
    let r = run(
        &dir,
        "-engine name=otau cmd=builtin:otau -engine name=greedy cmd=builtin:greedy \
         -each proto=ugi tc=inf depth=1 -games 2 -rounds 3 -variant bestemshe \
         -pgnout g.pgn min fi -srand 4 -concurrency 2",
    );
    r.assert_ok();
    assert_eq!(r.games.len(), 6);
    assert_eq!(pgn_games(&dir.join("g.pgn")), 6);
    // 3. One game per encounter a round: 3 games, played as 2 pairs.
    let r = run(
        &dir,
        "-engine cmd=builtin:random name=r1 -engine cmd=builtin:random name=r2 -each nodes=10 \
         -rounds 3 -games 1 -variant modiar -srand 2",
    );
    r.assert_ok();
    assert_eq!(r.games.len(), 4);
    assert!(r.games.iter().all(|g| g.game == "modiar"));
    // 4. A gauntlet of three: the first engine plays each other.
    let r = run(
        &dir,
        "-tournament gauntlet -engine cmd=builtin:otau name=mine -engine cmd=builtin:greedy \
         name=greedy -engine cmd=builtin:random name=random -each depth=1 -rounds 2 -games 2 \
         -variant toguz-kumalak-7 -srand 3",
    );
    r.assert_ok();
    assert_eq!(r.games.len(), 8);
    assert!(r
        .games
        .iter()
        .all(|g| g.south == "mine" || g.north == "mine"));
    // 5. cutechess-cli's round-robin spelling, the game given as -game.
    let r = run(
        &dir,
        "-tournament round-robin -engine cmd=builtin:otau name=a -engine cmd=builtin:greedy \
         name=b -engine cmd=builtin:random name=c -each depth=1 -games 2 -game giuthi -srand 5",
    );
    r.assert_ok();
    assert_eq!(r.games.len(), 6);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cutechess_knockout() {
    let dir = scratch("fc-knockout");
    // 28. cutechess-cli's knockout: an encounter is -rounds R of -games G (here one pair), ties
    // broken as otau's knockout breaks them; the bracket ends the results.
    let r = run(
        &dir,
        "-tournament knockout -engine cmd=builtin:otau name=L6 option.Level=6 \
         -engine cmd=builtin:greedy name=greedy -engine cmd=builtin:random name=random \
         -each proto=ugi tc=inf depth=1 -games 2 -rounds 1 -variant toguz-kumalak -srand 7",
    );
    r.assert_ok();
    assert!(r.out.contains("Knockout: 3 engines"), "{}", r.out);
    assert!(r.out.contains("Winner: "), "{}", r.out);
    let header = RecordsFile::read(&dir.join("r.jsonl")).unwrap().header;
    assert_eq!(header.config.rounds, 1, "one pair an encounter");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn clocks_as_they_write_them() {
    let dir = scratch("fc-clocks");
    // 6. fastchess: moves/m:ss+inc.
    let r = run(
        &dir,
        "-engine cmd=builtin:random name=a -engine cmd=builtin:greedy name=b \
         -each tc=40/0:10+0.1 timemargin=200 -rounds 2 -repeat -variant giuthi -maxmoves 40 \
         -srand 6",
    );
    r.assert_ok();
    assert_eq!(r.games.len(), 4);
    assert!(!r.kinds().contains(&"time-loss"), "{:?}", r.kinds());
    // 7. cutechess-cli: 0/TIME+INC, the whole game on one clock.
    let r = run(
        &dir,
        "-engine name=g cmd=builtin:greedy -engine name=r cmd=builtin:random \
         -each proto=ugi tc=0/5+0.05 -games 2 -variant bestemshe -srand 7",
    );
    r.assert_ok();
    assert_eq!(r.games.len(), 2);
    assert!(!r.kinds().contains(&"time-loss"), "{:?}", r.kinds());
    // 8. tc=inf takes back the clock -each gave; the node limit bounds the search.
    let r = run(
        &dir,
        "-engine cmd=builtin:otau name=a tc=inf nodes=300 -engine cmd=builtin:greedy name=b \
         -each tc=10+0.1 -games 2 -variant toguz-kumalak -srand 8",
    );
    r.assert_ok();
    let header = RecordsFile::read(&dir.join("r.jsonl")).unwrap().header;
    assert_eq!(header.config.engines[0].limits.tc, None);
    assert_eq!(header.config.engines[0].limits.nodes, Some(300));
    assert!(header.config.engines[1].limits.tc.is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Fake engines `a` and `b` of the given modes, as a cutechess-cli user would write them.
fn fakes(a: &str, b: &str) -> String {
    format!(
        "-engine name=a cmd=ARENA arg=fake-engine arg={a} -engine name=b cmd=ARENA \
         arg=fake-engine arg={b}"
    )
}

#[test]
fn every_adjudication_kind() {
    let dir = scratch("fc-adjudication");
    // 9. cutechess-cli's resign: a losing score for 3 moves running.
    let r = run(
        &dir,
        &format!(
            "{} -each tc=inf depth=1 -games 2 -rounds 1 -variant toguz-kumalak \
             -resign movecount=3 score=500 -srand 9",
            fakes("winning", "losing")
        ),
    );
    r.assert_ok();
    assert_eq!(r.kinds(), ["resign", "resign"]);
    for g in &r.games {
        let a = if g.south == "a" {
            Side::South
        } else {
            Side::North
        };
        assert_eq!(g.result, Outcome::Win(a), "the winning engine wins");
    }
    // 10. twosided: the winner must agree; `ok` reports 0, so nobody resigns.
    let r = run(
        &dir,
        &format!(
            "{} -each depth=1 -repeat -variant toguz-kumalak -resign movecount=3 score=500 \
             twosided=true -maxmoves 20 -srand 9",
            fakes("ok", "losing")
        ),
    );
    r.assert_ok();
    assert_eq!(r.games.len(), 2);
    assert!(!r.kinds().contains(&"resign"), "{:?}", r.kinds());
    // 11. fastchess's draw: after move 5, both |score| <= 10 for 2 moves.
    let r = run(
        &dir,
        &format!(
            "{} -each depth=1 -rounds 1 -repeat -variant toguz-kumalak \
             -draw movenumber=5 movecount=2 score=10 -srand 10",
            fakes("ok", "ok")
        ),
    );
    r.assert_ok();
    assert_eq!(r.kinds(), ["draw-adjudication", "draw-adjudication"]);
    // 12. -maxmoves: a draw after 6 full moves, opening included.
    let r = run(
        &dir,
        &format!(
            "{} -each depth=1 -games 2 -variant toguz-kumalak -maxmoves 6 -srand 11",
            fakes("ok", "ok")
        ),
    );
    r.assert_ok();
    assert_eq!(r.kinds(), ["max-moves", "max-moves"]);
    assert!(r
        .games
        .iter()
        .all(|g| g.opening.moves.len() + g.moves.len() == 12));
    // 13. otau's own exact tables, spelt with one dash beside cutechess's keys: Bestemshe up to
    // 8 stones on the board (built in a few ms).
    let tables = bestemshe_tables(&dir);
    let r = run_env(
        &dir,
        &format!(
            "{} -each depth=1 -rounds 4 -repeat -variant bestemshe -srand 3 -adjudicate tables",
            fakes("ok", "ok")
        ),
        &[(otau::tables::CACHE_DIR_ENV, &tables)],
    );
    r.assert_ok();
    assert_eq!(r.games.len(), 8);
    assert!(r.kinds().contains(&"tables"), "{:?}", r.kinds());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The openings of the first `n` real PlayOK games, cut to `plies`, as the arena reads them.
fn real_openings(n: u64, plies: u32) -> Vec<otau::arena::game::openings::Opening> {
    let config = OpeningConfig::parse(&[
        format!("file={}", real_games().display()),
        format!("plies={plies}"),
    ])
    .unwrap();
    let mut book = OpeningBook::new(&config, "toguz-kumalak".parse().unwrap(), 0).unwrap();
    (0..n).map(|p| book.get(p)).collect()
}

#[test]
fn books_of_all_three_formats_built_from_real_games() {
    let dir = scratch("fc-books");
    let players = "-engine cmd=builtin:otau name=a -engine cmd=builtin:greedy name=b \
                   -each tc=inf depth=1 -variant toguz-kumalak";
    // 14. fastchess: the PGN of real PlayOK games, their first 6 plies, from game 3.
    let r = run(
        &dir,
        &format!(
            "{players} -games 2 -rounds 2 -openings file={} format=pgn order=sequential \
             plies=6 start=3",
            real_games().display()
        ),
    );
    r.assert_ok();
    let real = real_openings(4, 6);
    let got: Vec<Vec<String>> = r.games.iter().map(|g| g.opening.moves.clone()).collect();
    let want: Vec<Vec<String>> = [2, 2, 3, 3].iter().map(|&i| real[i].move_names()).collect();
    assert_eq!(got, want);
    // 15. cutechess-cli: an EPD of the positions after 8 plies of three real games.
    let positions: Vec<String> = real_openings(3, 8)
        .iter()
        .map(|o| o.line().position().to_string())
        .collect();
    std::fs::write(dir.join("real.epd"), positions.join("\n") + "\n").unwrap();
    let r = run(
        &dir,
        &format!("{players} -rounds 3 -repeat -openings file=real.epd format=epd order=sequential"),
    );
    r.assert_ok();
    let starts: Vec<&str> = r.games.iter().map(|g| g.opening.start.as_str()).collect();
    let want: Vec<&str> = positions
        .iter()
        .flat_map(|p| [p.as_str(), p.as_str()])
        .collect();
    assert_eq!(starts, want);
    // 16. otau's move-list book (txt) of ten real games, shuffled by the seed, cut to 4 plies.
    let lines: Vec<Vec<String>> = real_openings(10, 8)
        .iter()
        .map(|o| o.move_names())
        .collect();
    let text: Vec<String> = lines.iter().map(|l| l.join(" ")).collect();
    std::fs::write(dir.join("real.txt"), text.join("\n") + "\n").unwrap();
    let r = run(
        &dir,
        &format!(
            "{players} -rounds 4 -repeat -srand 12 -openings file=real.txt format=txt \
             order=random plies=4"
        ),
    );
    r.assert_ok();
    assert_eq!(r.games.len(), 8);
    for g in &r.games {
        assert!(
            lines.iter().any(|l| l[..4] == g.opening.moves[..]),
            "{:?} is no real game's start",
            g.opening.moves
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engines_from_an_engines_file() {
    let dir = scratch("fc-config");
    let fake = format!("{ARENA} fake-engine ok");
    std::fs::write(
        dir.join("my-engines.json"),
        format!(
            r#"[
  {{"name": "L4", "command": "builtin:otau", "protocol": "ugi", "stderrFile": "",
    "options": [{{"name": "Level", "type": "spin", "default": 20, "value": 4}}]}},
  {{"name": "fake", "command": "{fake}", "workingDirectory": ".", "restart": "off",
    "tc": "inf"}}
]"#
        ),
    )
    .unwrap();
    // 17. fastchess's -config file= naming cutechess's engines.json; keys after conf= win.
    let r = run(
        &dir,
        "-config file=my-engines.json -engine conf=L4 -engine conf=fake name=fake2 \
         -each tc=10+0.1 depth=1 -games 2 -variant toguz-kumalak -srand 13",
    );
    r.assert_ok();
    let header = RecordsFile::read(&dir.join("r.jsonl")).unwrap().header;
    let e = &header.config.engines;
    assert_eq!((e[0].name.as_str(), e[1].name.as_str()), ("L4", "fake2"));
    assert_eq!(e[0].options, [("Level".to_string(), "4".to_string())]);
    assert_eq!(
        (e[1].cmd.as_str(), e[1].args.as_slice()),
        (ARENA, &["fake-engine".to_string(), "ok".to_string()][..])
    );
    assert_eq!(
        e[1].limits.tc, None,
        "the file's tc=inf after -each's clock"
    );
    assert!(e[0].limits.tc.is_some());
    // 18. cutechess-cli: engines.json in the working directory, no -config.
    std::fs::copy(dir.join("my-engines.json"), dir.join("engines.json")).unwrap();
    let r = run(
        &dir,
        "-engine conf=L4 -engine conf=fake -each depth=1 -rounds 1 -games 2 -variant bestemshe",
    );
    r.assert_ok();
    assert_eq!(r.games.len(), 2);
    // 19. A cutechess file for an xboard engine: refused, naming the file, the entry and the
    // field (a "uci" one is greeted as UCI, then spoken to in UGI: see proto=uci).
    std::fs::write(
        dir.join("xboard.json"),
        r#"[{"name": "crafty", "command": "crafty", "protocol": "xboard"}]"#,
    )
    .unwrap();
    let r = run(
        &dir,
        "-config file=xboard.json -engine conf=crafty -engine cmd=builtin:random -each depth=1 \
         -variant modiar",
    );
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains(
            "engines file xboard.json: entry 1 ('crafty'), field 'protocol': proto=xboard"
        ),
        "{}",
        r.err
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn protocol_log_restart_and_cutechess_output() {
    let dir = scratch("fc-log");
    // 20. fastchess's -log file= level=; restart=on gives engine b a new process each game.
    let r = run(
        &dir,
        &format!(
            "{} restart=on -each depth=1 -rounds 2 -repeat -variant toguz-kumalak -maxmoves 8 \
             -log file=p.log level=trace",
            fakes("ok", "ok")
        ),
    );
    r.assert_ok();
    let log = std::fs::read_to_string(dir.join("p.log")).unwrap();
    let handshakes = |name: &str| {
        log.lines()
            .filter(|l| l.ends_with(&format!("---> {name} : ugi")))
            .count()
    };
    assert_eq!(
        (handshakes("a"), handshakes("b")),
        (1, 4),
        "restart=on (b's key): a new process of b for each of the 4 games; a kept"
    );
    assert!(log.contains("<--- b : bestmove "), "{log}");
    // 21. fastchess's -output format=cutechess: cutechess-cli's lines.
    let r = run(
        &dir,
        "-engine cmd=builtin:otau name=a -engine cmd=builtin:random name=b -each depth=1 \
         -games 2 -rounds 2 -variant giuthi -output format=cutechess -ratinginterval 2 \
         -srand 14 -sprt elo0=0 elo1=10",
    );
    r.assert_ok();
    for want in [
        "Finished game 1 (",
        "Score of a vs b: ",
        "Elo difference: ",
        "SPRT: llr ",
    ] {
        assert!(r.out.contains(want), "{want}:\n{}", r.out);
    }
    assert!(!r.out.contains("Results of a vs b"), "{}", r.out);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_otau_cannot_do_is_refused_by_name() {
    let dir = scratch("fc-refused");
    let two = "-engine cmd=builtin:otau name=a -engine cmd=builtin:random name=b -variant modiar";
    for (n, line, want) in [
        (
            22,
            format!("{two} -each proto=xboard tc=10+0.1"),
            "proto=xboard: xboard (CECP) is a chess protocol, with no mancala game in it",
        ),
        (
            23,
            format!("{two} -each depth=1 -noswap"),
            "-noswap: otau-arena always plays each opening twice",
        ),
        (
            24,
            format!("{two} -each tc=inf"),
            "tc=inf needs depth= or nodes=",
        ),
        (
            25,
            format!("{two} -each depth=1 -tb /syzygy -tbpieces 6"),
            "-tb: there are no chess tablebases",
        ),
        (
            26,
            format!("{two} -each depth=1 -repeat 4"),
            "-repeat 4: otau-arena plays each opening exactly twice",
        ),
        (
            27,
            format!("{two} -each depth=1 ponder"),
            "'ponder': not supported",
        ),
    ] {
        let r = run(&dir, &line);
        assert_eq!(r.code, 1, "line {n}: {line}\n{}", r.err);
        assert!(r.err.contains(want), "line {n}: {line}\n{}", r.err);
        assert!(r.games.is_empty(), "line {n}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// One line of `tests/data/real-command-lines.txt`.
struct RealLine {
    source: String,
    tool: String,
    /// `None`: the line runs; `Some(text)`: it is refused with a reason containing `text`.
    refused: Option<String>,
    line: String,
}

fn real_lines() -> Vec<RealLine> {
    let text = std::fs::read_to_string("tests/data/real-command-lines.txt").unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.splitn(4, " | ").collect();
            assert_eq!(f.len(), 4, "not SOURCE | TOOL | EXPECT | LINE: {l}");
            let refused = match f[2] {
                "runs" => None,
                e => Some(
                    e.strip_prefix("refused: ")
                        .unwrap_or_else(|| panic!("bad EXPECT '{e}' in: {l}"))
                        .to_string(),
                ),
            };
            RealLine {
                source: f[0].to_string(),
                tool: f[1].to_string(),
                refused,
                line: f[3].to_string(),
            }
        })
        .collect()
}

/// A small mancala book at `path` in the format a chess user's book of that name has, as chess
/// books are: openings, not whole games. PGN: the first four moves of each real PlayOK game of
/// `tests/data` (a line with no `plies=` plays the whole entry); EPD: the positions after 8
/// plies of ten of them.
fn stub_book(path: &Path, format: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    if format == "epd" {
        let positions: Vec<String> = real_openings(10, 8)
            .iter()
            .map(|o| o.line().position().to_string())
            .collect();
        std::fs::write(path, positions.join("\n") + "\n").unwrap();
    } else {
        let text = std::fs::read_to_string(real_games()).unwrap();
        let mut book = String::new();
        for game in text.split("\n\n[").take(10) {
            let (tags, moves) = game.split_once("\n\n").unwrap();
            for tag in tags.trim_start_matches('[').lines() {
                let tag = tag.trim_start_matches('[');
                if tag.starts_with("Result ") {
                    book.push_str("[Result \"*\"]\n");
                } else {
                    book.push_str(&format!("[{tag}\n"));
                }
            }
            let opening: Vec<&str> = moves
                .split_whitespace()
                .take_while(|t| *t != "5.")
                .collect();
            book.push_str(&format!("\n{} *\n\n", opening.join(" ")));
        }
        std::fs::write(path, book).unwrap();
    }
}

/// An engine program at `path`: a shell script that runs otau's own engine (its arguments, the
/// chess engine's, are dropped).
fn stub_engine(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    if path.exists() {
        return;
    }
    let otau = env!("CARGO_BIN_EXE_otau");
    std::fs::write(path, format!("#!/bin/sh\nexec {otau}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs `entry` as a user of otau would, in `work` (inside a scratch directory, so that a
/// line's `../engine` stays in it): the program replaced by otau-arena; the game id given
/// (in place of `-variant standard`, or added); an absolute path `/p` read as `./p`; every
/// `cmd=` a stub engine at that path (in the working folder, or under the engine's `dir=`), every
/// `conf=` an entry of an engines.json as cutechess's GUI writes it (`"protocol": "uci"`), every
/// `-openings file=` a mancala book of that name and format, the folders of the line's outputs
/// made (its script or its repository has them); and the games cut short: `-rounds 1`, at most
/// 2 `-games` and `-concurrency 2`, 200 nodes a move at most (`--each nodes=200`, a line's own
/// `nodes=` cut to it), depth at most 2, `option.Hash` at most 16. `--out r.jsonl` reads the
/// games back.
fn run_real_line(entry: &RealLine, root: &Path) -> Run {
    let work = root.join("w");
    std::fs::create_dir_all(&work).unwrap();
    let mut tokens = otau::arena::config::split_args(&entry.line).unwrap();
    tokens.remove(0);
    let cap = |v: &str, max: i64| -> String {
        v.parse::<i64>()
            .map_or(v.to_string(), |n| n.min(max).to_string())
    };
    // Absolute paths into the working folder; counts and limits cut.
    let mut args: Vec<String> = Vec::new();
    let mut option = String::new();
    let mut has_variant = false;
    for t in tokens {
        let t = match t.split_once('=') {
            Some((k, v)) if v.starts_with('/') => format!("{k}=.{v}"),
            _ if t.starts_with('/') => format!(".{t}"),
            _ => t,
        };
        let t = match (option.as_str(), t.split_once('=')) {
            ("-rounds", _) => "1".to_string(),
            ("-games", _) => cap(&t, 2),
            ("-concurrency", _) => cap(&t, 2),
            ("-variant", _) => {
                has_variant = true;
                "toguz-kumalak".to_string()
            }
            (_, Some(("nodes", v))) => format!("nodes={}", cap(v, 200)),
            (_, Some((k @ ("depth" | "plies"), v))) => format!("{k}={}", cap(v, 2)),
            (_, Some(("option.Hash", v))) => format!("option.Hash={}", cap(v, 16)),
            _ => t,
        };
        if t.starts_with('-') && t.len() > 1 && !t[1..].starts_with(|c: char| c.is_ascii_digit()) {
            option = t.clone();
        }
        args.push(t);
    }
    // The stubs, option group by option group.
    let is_option = |t: &str| {
        t.len() > 1 && t.starts_with('-') && !t[1..].starts_with(|c: char| c.is_ascii_digit())
    };
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for t in &args {
        if is_option(t) {
            groups.push((t.clone(), Vec::new()));
        } else if let Some(g) = groups.last_mut() {
            g.1.push(t.clone());
        }
    }
    let each_dir = groups
        .iter()
        .filter(|(o, _)| o == "-each")
        .flat_map(|(_, v)| v.iter().filter_map(|t| t.strip_prefix("dir=")))
        .next_back()
        .map(String::from);
    let stub = root.join("stub-engine");
    stub_engine(&stub);
    let mut confs = Vec::new();
    for (option, values) in &groups {
        let kv = |key: &str| {
            values
                .iter()
                .filter_map(|t| t.strip_prefix(&format!("{key}=")[..]))
                .next_back()
                .map(String::from)
        };
        match option.as_str() {
            "-engine" | "-each" => {
                if let Some(cmd) = kv("cmd") {
                    let dir = kv("dir").or(each_dir.clone());
                    let base = dir.map_or(work.clone(), |d| work.join(d));
                    stub_engine(&base.join(cmd));
                }
                confs.extend(kv("conf"));
                for f in [kv("stderr")].into_iter().flatten() {
                    if let Some(p) = Path::new(&f).parent() {
                        std::fs::create_dir_all(work.join(p)).unwrap();
                    }
                }
            }
            "-openings" => {
                if let Some(file) = kv("file") {
                    let format = kv("format").unwrap_or_else(|| {
                        if file.ends_with(".epd") {
                            "epd".into()
                        } else {
                            "pgn".into()
                        }
                    });
                    stub_book(&work.join(file), &format);
                }
            }
            "-pgnout" | "-log" | "-epdout" => {
                for v in values {
                    let f = v.strip_prefix("file=").unwrap_or(v);
                    if let Some(p) = Path::new(f).parent() {
                        std::fs::create_dir_all(work.join(p)).unwrap();
                    }
                }
            }
            _ => {}
        }
    }
    if !confs.is_empty() {
        let entries: Vec<String> = confs
            .iter()
            .map(|n| {
                format!(
                    r#"{{"name": "{n}", "command": "{}", "protocol": "uci", "options": []}}"#,
                    stub.display()
                )
            })
            .collect();
        std::fs::write(
            work.join("engines.json"),
            format!("[\n{}\n]\n", entries.join(",\n")),
        )
        .unwrap();
    }
    if !has_variant {
        args.extend(["-variant".into(), "toguz-kumalak".into()]);
    }
    args.extend(["--each", "nodes=200", "--out", "r.jsonl"].map(String::from));
    let o = crate::support::command(ARENA)
        .args(&args)
        .current_dir(&work)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let games = RecordsFile::read(&work.join("r.jsonl"))
        .map(|f| f.games.into_values().collect())
        .unwrap_or_default();
    Run {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
        games,
    }
}

/// [`run_real_line`] for each of `part` in turn, each in a scratch directory of its own.
fn run_part(part: Vec<(usize, &RealLine)>) -> Vec<(usize, Run)> {
    part.into_iter()
        .map(|(i, entry)| {
            let root = scratch(&format!("real-{i}"));
            let r = run_real_line(entry, &root);
            let _ = std::fs::remove_dir_all(&root);
            (i, r)
        })
        .collect()
}

#[test]
fn real_command_lines_run_as_typed() {
    let lines = real_lines();
    let count = |tool: &str| lines.iter().filter(|l| l.tool == tool).count();
    let projects: std::collections::BTreeSet<&str> = lines
        .iter()
        .map(|l| l.source.split(':').next().unwrap())
        .collect();
    assert!(lines.len() >= 30, "{} lines", lines.len());
    assert!(count("fastchess") >= 15 && count("cutechess-cli") >= 12);
    // At least 20 engine projects besides the two tools' own repositories.
    assert!(
        projects.len() >= 22,
        "{} sources: {projects:?}",
        projects.len()
    );
    // Two lines at a time (each plays its games one or two at a time).
    let runs: Vec<Run> = std::thread::scope(|scope| {
        let (even, odd): (Vec<_>, Vec<_>) = lines.iter().enumerate().partition(|(i, _)| i % 2 == 0);
        let (a, b) = (
            scope.spawn(|| run_part(even)),
            scope.spawn(|| run_part(odd)),
        );
        let mut all: Vec<(usize, Run)> = a.join().unwrap();
        all.extend(b.join().unwrap());
        all.sort_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, r)| r).collect()
    });
    let mut failures = Vec::new();
    let mut ran = 0;
    for (i, (entry, r)) in lines.iter().zip(runs).enumerate() {
        let what = format!(
            "line {} ({}):\n  {}\n  exit {}\n  stderr: {}",
            i + 1,
            entry.source,
            entry.line,
            r.code,
            r.err.trim()
        );
        match &entry.refused {
            None if r.code == 0 && r.games.len() >= 2 => ran += 1,
            None => failures.push(what),
            Some(why) if r.code == 1 && r.err.contains(why.as_str()) && r.games.is_empty() => {}
            Some(_) => failures.push(what),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The issue's bar: at least 90% of the real lines run.
    assert!(ran * 10 >= lines.len() * 9, "{ran} of {} ran", lines.len());
    eprintln!("{ran} of {} real command lines ran", lines.len());
}

#[test]
fn proto_uci_engine_lookup_twins_and_stderr_file() {
    let dir = scratch("fc-uci");
    // An engine named without a path, in the working folder only (not on PATH), as fastchess
    // finds it; a UCI user's `proto=uci`; two engines of one name; cutechess's stderr=FILE.
    stub_engine(&dir.join("eng"));
    let r = run(
        &dir,
        "-engine cmd=eng stderr=eng-err.txt -engine cmd=eng -each proto=uci depth=1 -games 2 \
         -variant bestemshe -log file=p.log",
    );
    r.assert_ok();
    assert!(
        r.err
            .contains("two engines are named 'eng': this one is 'eng_2'"),
        "{}",
        r.err
    );
    let header = RecordsFile::read(&dir.join("r.jsonl")).unwrap().header;
    let e = &header.config.engines;
    assert_eq!((e[0].name.as_str(), e[1].name.as_str()), ("eng", "eng_2"));
    let program = std::fs::canonicalize(dir.join("eng")).unwrap();
    assert_eq!(
        std::fs::canonicalize(&e[0].cmd).unwrap(),
        program,
        "found in the working folder"
    );
    assert_eq!(e[0].proto, otau::arena::config::Protocol::Uci);
    // proto=uci: the greeting is UCI's, the rest UGI.
    let log = std::fs::read_to_string(dir.join("p.log")).unwrap();
    let said = |line: &str| log.lines().any(|l| l.ends_with(line));
    assert!(said("---> eng : uci") && said("<--- eng : uciok"), "{log}");
    assert!(!said("---> eng : ugi"), "{log}");
    assert!(log.contains("---> eng : uginewgame"), "{log}");
    // stderr=FILE: the engine's stderr log is that file (the otau engine writes nothing there,
    // the arena's start line names the process).
    let err_log = std::fs::read_to_string(dir.join("eng-err.txt")).unwrap();
    assert!(err_log.contains("--- pid "), "{err_log}");
    assert!(dir.join("otau-arena-logs/eng_2.stderr.log").exists());
    // A name found nowhere is left as written, and the start-up check names it.
    let r = run(
        &dir,
        "-engine cmd=no-such-engine -engine cmd=eng -each depth=1 -variant bestemshe",
    );
    assert_eq!(r.code, 1);
    assert!(r.err.contains("cannot start 'no-such-engine'"), "{}", r.err);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 27 item 9, through the program: a repeated option or key is refused by name before
/// anything is played (`-rounds 1 -rounds 3` used to play 6 games), and a non-UTF-8 argument
/// is named by its position (it used to be "unexpected argument '-e'").
#[test]
fn repeats_and_non_utf8_arguments_are_refused_by_name() {
    let dir = scratch("fc-repeats");
    let two = "-engine cmd=builtin:random name=a -engine cmd=builtin:greedy name=b -each depth=1";
    for (line, want) in [
        (
            format!("{two} -rounds 1 -rounds 3"),
            "-rounds is given twice ('-rounds 1', then '-rounds 3')",
        ),
        (
            format!("{two} -resign movecount=3 score=500 movecount=5"),
            "--resign: movecount= is given twice ('movecount=3', then 'movecount=5')",
        ),
        (
            format!("{two} -draw movenumber=1 movecount=2 score=3 score=4"),
            "--draw: score= is given twice",
        ),
        (
            format!("{two} --openings plies=4 plies=6"),
            "--openings: plies= is given twice",
        ),
        (
            format!("{two} --openings plies=4 --openings plies=6"),
            "--openings: plies= is given twice",
        ),
        (
            format!("{two} -sprt elo0=0 elo1=5 elo1=10"),
            "--sprt: elo1= is given twice",
        ),
        (
            format!("{two} -pgnout file=a.pgn file=b.pgn"),
            "-pgnout: two files ('a.pgn', then 'b.pgn')",
        ),
    ] {
        let r = run(&dir, &line);
        assert_eq!(r.code, 1, "{line}\n{}", r.err);
        assert!(r.err.contains(want), "{line}\n{}", r.err);
        assert!(r.games.is_empty(), "{line}");
    }
    use std::os::unix::ffi::OsStrExt;
    let o = crate::support::command(ARENA)
        .args(["-engine", "cmd=builtin:random", "-engine"])
        .arg(std::ffi::OsStr::from_bytes(b"cmd=\xffbot"))
        .current_dir(&dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("argument 4 is not valid UTF-8"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
