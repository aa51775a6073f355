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

mod real_lines;

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
