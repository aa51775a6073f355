//! The translation of fastchess's and cutechess-cli's command lines, line by line.

use super::*;

fn tr(line: &str) -> Result<String, String> {
    let args: Vec<OsString> = line.split(' ').map(OsString::from).collect();
    translate(args, &["out", "quiet", "max-plies"], &["merge", "help"]).map(|v| {
        v.iter()
            .map(|a| a.to_str().unwrap().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    })
}

#[test]
fn a_fastchess_line_becomes_otaus() {
    assert_eq!(
        tr(
            "otau-arena -engine cmd=a name=A -engine cmd=b -each tc=10+0.1 proto=ugi \
            -rounds 50 -repeat -concurrency 2 -variant modiar -openings file=b.epd \
            format=epd order=random plies=8 -pgnout file=g.pgn nodes=true -srand 7 \
            -sprt elo0=0 elo1=5 model=normalized -recover -ratinginterval 5"
        )
        .unwrap(),
        "otau-arena --engine cmd=a name=A --engine cmd=b --each tc=10+0.1 proto=ugi \
         --concurrency 2 --game modiar --openings file=b.epd format=epd order=random \
         plies=8 --pgn g.pgn --seed 7 --sprt elo0=0 elo1=5 model=normalized --recover \
         --ratinginterval 5 --rounds 50"
    );
}

#[test]
fn rounds_games_and_repeat_count_games_per_pairing() {
    let rounds = |line: &str| {
        let t = tr(&format!("x -engine cmd=a {line}")).unwrap();
        t.rsplit_once("--rounds ").map(|(_, r)| r.to_string())
    };
    // fastchess: -games is games per encounter per round; -repeat is -games 2.
    assert_eq!(rounds("-rounds 50 -games 2").as_deref(), Some("50"));
    assert_eq!(rounds("-rounds 50 -repeat").as_deref(), Some("50"));
    assert_eq!(rounds("-games 2 -rounds 50 -repeat").as_deref(), Some("50"));
    // fastchess's default of 2 games a round: -rounds R alone is R pairs.
    assert_eq!(rounds("-rounds 10").as_deref(), Some("10"));
    // Odd counts round up to whole pairs.
    assert_eq!(rounds("-rounds 5 -games 1").as_deref(), Some("3"));
    assert_eq!(rounds("-games 7").as_deref(), Some("4"));
    assert_eq!(rounds("-rounds 3 -games 4").as_deref(), Some("6"));
    assert_eq!(rounds("-repeat 2").as_deref(), Some("1"));
    assert_eq!(rounds("--rounds 9").as_deref(), Some("9"));
    for (line, want) in [
        (
            "-repeat 3",
            "-repeat 3: otau-arena plays each opening exactly twice",
        ),
        ("-rounds 0", "-rounds 0: a whole number in 1..="),
        ("-games x", "-games x: a whole number"),
        ("-rounds 2 --games 4", "give one kind"),
        (
            "-rounds 4294967295 -games 4",
            "more than the 4294967295 pairs",
        ),
    ] {
        let err = tr(&format!("x -engine cmd=a {line}")).unwrap_err();
        assert!(err.contains(want), "{line}: {err}");
    }
}

#[test]
fn cutechess_spellings() {
    assert_eq!(
        tr(
            "x -tournament round-robin -pgnout out.pgn min fi -game giuthi -seed 3 \
            -output format=cutechess -config file=e.json -log file=p.log level=trace"
        )
        .unwrap(),
        "x --tournament roundrobin --pgn out.pgn --game giuthi --seed 3 --output cutechess \
         --config e.json --log p.log"
    );
    assert_eq!(
        tr("x -pgnout file=a.pgn append=true").unwrap(),
        "x --pgn a.pgn --pgn-append"
    );
    assert_eq!(
        tr("x -tournament knockout").unwrap(),
        "x --tournament knockout"
    );
    assert_eq!(
        tr("x -openings file=b.pgn policy=default").unwrap(),
        "x --openings file=b.pgn"
    );
}

#[test]
fn otaus_own_spellings_and_values_pass_unchanged() {
    let line = "x --engine cmd=a args=-v --each depth=1 --games 10 -q --out r.jsonl";
    assert_eq!(tr(line).unwrap(), line);
    assert_eq!(tr("x -help").unwrap(), "x --help");
    // -NAME of one of otau's own long options.
    assert_eq!(
        tr("x -out r.jsonl -quiet").unwrap(),
        "x --out r.jsonl --quiet"
    );
    // An engine's command after --check is its own.
    assert_eq!(
        tr("x -check ./bot -engine -rounds").unwrap(),
        "x --check ./bot -engine -rounds"
    );
    // Subcommands keep their arguments.
    assert_eq!(tr("x merge -engine").unwrap(), "x merge -engine");
}

#[test]
fn cutechess_0x_and_fastchess_defaults() {
    // cutechess-cli 0.x: -both for -each, -draw N S and -resign N S.
    assert_eq!(
        tr("x -engine cmd=a -both tc=1 -draw 80 10 -resign 3 500").unwrap(),
        "x --engine cmd=a --each tc=1 --draw movenumber=80 movecount=1 score=10 --resign \
         movecount=3 score=500"
    );
    // fastchess's -resign without movecount= has its default of 1.
    assert_eq!(
        tr("x -resign score=500000").unwrap(),
        "x --resign score=500000 movecount=1"
    );
    // Read and left alone: what otau does anyway, or what changes no result.
    assert_eq!(
        tr(
            "x -wait 1000 -debug -site UK -outcomeinterval 10 -resultformat wide2 -seeds 1 \
            -report penta=false -randomseed -autosaveinterval 5"
        )
        .unwrap(),
        "x"
    );
    // -repeat 1 (cutechess-cli: each opening once) is otau's pairs as without -repeat.
    assert_eq!(
        tr("x -games 2 -rounds 5 -repeat 1").unwrap(),
        "x --rounds 5"
    );
    // policy=round with two engines: a round is one encounter.
    assert_eq!(
        tr("x -engine cmd=a -engine cmd=b -openings file=b.pgn policy=round").unwrap(),
        "x --engine cmd=a --engine cmd=b --openings file=b.pgn"
    );
    // -log append=false on a new file.
    assert_eq!(
        tr("x -log file=/nonexistent/p.log append=false").unwrap(),
        "x --log /nonexistent/p.log"
    );
    let full = std::env::temp_dir().join(format!("otau-fc-log-{}", std::process::id()));
    std::fs::write(&full, "kept\n").unwrap();
    let err = tr(&format!("x -log file={} append=false", full.display())).unwrap_err();
    assert!(
        err.contains("is not empty, and otau-arena never empties a file"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&full).unwrap(), "kept\n");
    let _ = std::fs::remove_file(&full);
}

/// Issue 27 item 9: one rule for repeats. An option given twice is refused by name (the
/// last one used to win: `-rounds 1 -rounds 3` played 6 games), and so is a key given twice
/// in one option's values; only -engine and -each add up, as both tools document.
#[test]
fn a_repeated_option_or_file_is_refused_by_name() {
    for (line, want) in [
        (
            "-rounds 1 -rounds 3",
            "-rounds is given twice ('-rounds 1', then '-rounds 3'): give it once",
        ),
        ("-games 2 -games 4", "-games is given twice"),
        ("-repeat -repeat", "-repeat is given twice"),
        (
            "-variant modiar -game giuthi",
            "-game is given twice ('-variant modiar'",
        ),
        ("-srand 1 -seed 2", "-seed is given twice"),
        (
            "-concurrency 1 -concurrency 2",
            "-concurrency is given twice",
        ),
        (
            "-openings file=a.pgn -openings file=b.pgn",
            "-openings is given twice",
        ),
        ("-pgnout a.pgn -pgnout b.pgn", "-pgnout is given twice"),
        (
            "-resign movecount=3 score=1 -resign movecount=3 score=2",
            "-resign is given twice",
        ),
        ("-draw 1 2 -draw 3 4", "-draw is given twice"),
        ("-out a.jsonl -out b.jsonl", "-out is given twice"),
        (
            "-pgnout file=a.pgn file=b.pgn",
            "-pgnout: two files ('a.pgn', then 'b.pgn'): give file= once",
        ),
        ("-log file=a file=b", "-log: two files ('a', then 'b')"),
        (
            "-config file=a file=b",
            "-config: two files ('a', then 'b')",
        ),
    ] {
        let err = tr(&format!("x -engine cmd=a {line}")).unwrap_err();
        assert!(err.contains(want), "{line}: {err}");
    }
    // -engine and -each add up.
    assert_eq!(
        tr("x -engine cmd=a -engine cmd=b -each tc=1 -each depth=2").unwrap(),
        "x --engine cmd=a --engine cmd=b --each tc=1 --each depth=2"
    );
}

#[test]
fn a_non_utf8_argument_is_named_by_its_position() {
    use std::os::unix::ffi::OsStringExt;
    let args = vec![
        OsString::from("otau-arena"),
        OsString::from("-engine"),
        OsString::from_vec(b"cmd=\xffbot".to_vec()),
    ];
    let err = translate(args, &[], &[]).unwrap_err();
    assert!(
        err.starts_with("argument 2 is not valid UTF-8 ('cmd=\u{fffd}bot')"),
        "{err}"
    );
    // A line with nothing to translate keeps a path that is not UTF-8 as it is.
    for args in [
        ["otau-arena", "ratings"].map(OsString::from).to_vec(),
        ["otau-arena", "--out"].map(OsString::from).to_vec(),
    ] {
        let mut args = args;
        args.push(OsString::from_vec(b"g\xff.pgn".to_vec()));
        assert_eq!(
            translate(args.clone(), &["out"], &["ratings"]).unwrap(),
            args
        );
    }
}

#[test]
fn what_is_not_supported_is_refused_by_name() {
    for (line, want) in [
        (
            "-noswap",
            "-noswap: otau-arena always plays each opening twice",
        ),
        (
            "-tb /syzygy",
            "-tb: there are no chess tablebases here: --adjudicate tables",
        ),
        ("-tournament pyramid", "-tournament pyramid: not supported"),
        (
            "-openings policy=encounter",
            "-openings policy=encounter: not supported",
        ),
        (
            "-pgnout file=a.pgn colour=red",
            "-pgnout colour=red: not supported",
        ),
        (
            "-log file=a compress=true",
            "-log compress=true: not supported",
        ),
        (
            "-config file=a discard=true",
            "-config discard=true: not supported",
        ),
        (
            "-output format=json extra",
            "-output: give format=fastchess",
        ),
        ("-report penta=maybe", "-report penta=maybe: not supported"),
        ("-seeds 2", "-seeds 2: not supported"),
        (
            "-bookmode disk",
            "-bookmode: a Polyglot book holds chess moves",
        ),
        (
            "-engine cmd=a -engine cmd=b -engine cmd=c -openings file=b.pgn policy=round",
            "-openings policy=round with 3 engines: not supported",
        ),
        ("-frobnicate 3", "unknown option '-frobnicate'"),
        ("-concurrency", "-concurrency: give a value"),
        ("-variant a b", "-variant: one value, not a b"),
    ] {
        let err = tr(&format!("x {line}")).unwrap_err();
        assert!(err.contains(want), "{line}: {err}");
    }
}
