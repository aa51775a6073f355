//! The statistics as the arena uses them (issue 16): the SPRT's decision kept from the game that
//! crossed the bound and honoured on resume, `--sprt` refused with `--shard`, a merge of shards
//! named a fixed-sample verdict, `otau-arena ratings` on PGN and records, and the report's
//! charts. Built-in players (in process, fast) play the games.

use std::path::Path;

mod arena_support;

use arena_support::*;
use otau::arena::records::{event_line, Event, RecordsFile, Termination, TerminationKind};
use otau::games::{Outcome, Side};

/// greedy (engine 0) against random: greedy wins nearly every game.
const MATCH: &[&str] = &[
    "--engine",
    "name=greedy",
    "cmd=builtin:greedy",
    "depth=1",
    "--engine",
    "name=random",
    "cmd=builtin:random",
    "depth=1",
    "--seed",
    "7",
    "-q",
];

fn with(extra: &[&str]) -> Vec<String> {
    MATCH.iter().chain(extra).map(|s| s.to_string()).collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn last_summary(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap();
    let line = text
        .lines()
        .rev()
        .find(|l| l.starts_with("{\"event\":\"summary\""))
        .expect("a summary line");
    serde_json::from_str(line).unwrap()
}

/// Issue 16, item 1: at concurrency 2 the stored summary holds the decision, its LLR and its
/// game count from the game that crossed the bound; a resumed run plays nothing more, even when
/// games recorded after the decision (in flight when it came) pull the LLR of all games back
/// under the bound.
#[test]
fn sprt_decision_is_recorded_at_the_crossing_and_resume_plays_nothing() {
    let dir = scratch("sprt-stop");
    let args = with(&[
        "--rounds",
        "200",
        "--concurrency",
        "2",
        "--sprt",
        "elo0=0",
        "elo1=50",
        "model=logistic",
        "--out",
        "r.jsonl",
    ]);
    let (code, stdout, stderr) = arena(&strs(&args), &dir);
    assert_eq!(code, 0, "{stderr}");
    let records = dir.join("r.jsonl");
    let file = RecordsFile::read(&records).unwrap();
    let played = file.games.len() as u64;
    assert!(played < 400, "the SPRT stopped the run");
    let sprt = &last_summary(&records)["sprt"];
    assert_eq!(sprt["decision"], "accept-h1", "{sprt}");
    assert_eq!(sprt["test"], "sequential");
    assert!(sprt["llr"].as_f64().unwrap() >= sprt["upper"].as_f64().unwrap());
    let decided_at = sprt["games"].as_u64().unwrap();
    assert_eq!(decided_at + sprt["extra_games"].as_u64().unwrap(), played);
    assert!(
        stdout.contains(&format!(
            "SPRT: H1 accepted (LLR reached the upper bound) after {decided_at} games"
        )),
        "{stdout}"
    );

    // The same records, then twenty games greedy lost (as if in flight at the decision): the
    // LLR of all games falls under the bound, the decision stands, and resume plays nothing.
    let config = file.header.config.clone();
    let text = std::fs::read_to_string(&records).unwrap();
    let mut bytes: Vec<u8> = text
        .lines()
        .filter(|l| !l.starts_with("{\"event\":\"summary\""))
        .flat_map(|l| format!("{l}\n").into_bytes())
        .collect();
    // The schedule of two engines: pair p is games 2p and 2p+1, greedy South in one of them
    // (checked on the games played, then followed for the next ones).
    let greedy = &config.engines[0].name;
    let south_in_even = file.games[&0].south == *greedy;
    for (index, g) in &file.games {
        assert_eq!(g.pair, index / 2);
        assert_eq!(g.south == *greedy, (index % 2 == 0) == south_in_even);
    }
    let template = file.games[&0].clone();
    let first_unplayed = (0..).find(|i| !file.games.contains_key(i)).unwrap();
    for index in first_unplayed..first_unplayed + 20 {
        let mut g = template.clone();
        g.index = index;
        g.pair = index / 2;
        let greedy_south = (index % 2 == 0) == south_in_even;
        let (south, north) = (&config.engines[0].name, &config.engines[1].name);
        (g.south, g.north) = if greedy_south {
            (south.clone(), north.clone())
        } else {
            (north.clone(), south.clone())
        };
        let loser = if greedy_south {
            Side::South
        } else {
            Side::North
        };
        g.result = Outcome::Win(loser.other());
        // Lost on time before a move: a record the rules cannot contradict.
        g.moves.clear();
        g.totals = None;
        g.termination = Termination::fault(TerminationKind::TimeLoss, loser, String::new());
        bytes.extend(event_line(&Event::Game(Box::new(g))).unwrap());
    }
    let extended = dir.join("extended.jsonl");
    std::fs::write(&extended, &bytes).unwrap();
    let (code, stdout, stderr) = arena(&["--resume", "extended.jsonl", "-q"], &dir);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("SPRT: H1 accepted"), "{stderr}");
    let after = RecordsFile::read(&extended).unwrap();
    assert_eq!(after.games.len() as u64, played + 20, "nothing was played");
    let sprt = &last_summary(&extended)["sprt"];
    assert_eq!(sprt["decision"], "accept-h1");
    assert_eq!(sprt["games"].as_u64().unwrap(), decided_at);
    assert!(
        sprt["all_games"]["llr"].as_f64().unwrap() < sprt["upper"].as_f64().unwrap(),
        "{sprt}"
    );
    assert!(stdout.contains("the decision stands"), "{stdout}");
}

/// Issue 16, item 2: a sequential test cannot run on shards; the refusal says why and what to
/// do instead. Fixed-size shards merged give a fixed-sample verdict, named as such.
#[test]
fn sprt_with_shards_is_refused_and_merged_shards_get_a_fixed_sample_verdict() {
    let dir = scratch("sprt-shard");
    let args = with(&[
        "--rounds", "10", "--shard", "1/2", "--sprt", "elo0=0", "elo1=5", "--out", "p1.jsonl",
    ]);
    let (code, _, stderr) = arena(&strs(&args), &dir);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("--sprt cannot be combined with --shard 1/2")
            && stderr.contains("each shard would stop on its own")
            && stderr.contains("fixed-sample verdict")
            && stderr.contains("otau-arena merge"),
        "{stderr}"
    );
    assert!(!dir.join("p1.jsonl").exists(), "nothing was started");

    for k in 1..=2 {
        let shard = format!("{k}/2");
        let out = format!("p{k}.jsonl");
        let args = with(&["--rounds", "10", "--shard", &shard, "--out", &out]);
        let (code, _, stderr) = arena(&strs(&args), &dir);
        assert_eq!(code, 0, "{stderr}");
    }
    let (code, stdout, stderr) = arena(
        &[
            "merge",
            "p1.jsonl",
            "p2.jsonl",
            "--sprt",
            "elo0=0",
            "elo1=50",
            "model=logistic",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(
            "SPRT (fixed-sample verdict on all 20 games, 10 pairs; not a sequential test): "
        ),
        "{stdout}"
    );
    // Shards recorded with an SPRT in their configuration (by an arena before the refusal):
    // the merge names its verdict a fixed-sample one too.
    for k in 1..=2 {
        let path = dir.join(format!("p{k}.jsonl"));
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let mut header: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
        header["config"]["sprt"] = serde_json::json!({
            "elo0": 0.0, "elo1": 50.0, "alpha": 0.05, "beta": 0.05, "model": "logistic"
        });
        lines[0] = header.to_string();
        std::fs::write(dir.join(format!("old{k}.jsonl")), lines.join("\n") + "\n").unwrap();
    }
    let (code, stdout, stderr) = arena(&["merge", "old1.jsonl", "old2.jsonl"], &dir);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("SPRT (fixed-sample verdict on all 20 games"),
        "{stdout}"
    );
    let (code, _, stderr) = arena(&["--resume", "old1.jsonl"], &dir);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("cannot be combined with --shard"),
        "{stderr}"
    );
}

fn rating(text: &str, name: &str) -> f64 {
    let line = text
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(name))
        .unwrap_or_else(|| panic!("no {name} in\n{text}"));
    line.split(':')
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// Issue 16, items 3 and 4: any PGN rated as BayesElo rates it (within 1 Elo of its ratings of
/// `tests/data/roundrobin-240.pgn`, `ratings_reference.md`), `--rating-prior 0` as a plain
/// maximum-likelihood fit (Ordo), and arena records the same way.
#[test]
fn ratings_command_rates_pgn_like_bayeselo_and_records_too() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let (code, stdout, stderr) = arena(&["ratings", "roundrobin-240.pgn"], &data);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("240 games from roundrobin-240.pgn"),
        "{stdout}"
    );
    for (name, bayeselo) in [
        ("L3", 200.0),
        ("L2", 65.0),
        ("L1", 57.0),
        ("greedy", -323.0),
    ] {
        let r = rating(&stdout, name);
        assert!((r - bayeselo).abs() <= 1.0, "{name} {r}\n{stdout}");
    }
    assert!(stdout.contains("First-player (South) advantage = "));
    assert!(stdout.contains("Draw rate (equal opponents) = "));
    assert!(stdout.contains("Prior: 2 virtual draws per player (BayesElo's default)"));
    let (code, stdout, _) = arena(
        &["ratings", "roundrobin-240.pgn", "--rating-prior", "0"],
        &data,
    );
    assert_eq!(code, 0);
    for (name, ordo) in [
        ("L3", 210.4),
        ("L2", 70.4),
        ("L1", 61.8),
        ("greedy", -342.6),
    ] {
        let r = rating(&stdout, name);
        assert!((r - ordo).abs() <= 1.0, "{name} {r}\n{stdout}");
    }
    assert!(stdout.contains("Prior: none (plain maximum likelihood, as Ordo)"));

    // The arena's own records (and its PGN) rate the same games the same way.
    let dir = scratch("ratings");
    let args = with(&["--rounds", "3", "--out", "r.jsonl", "--pgn", "r.pgn"]);
    assert_eq!(arena(&strs(&args), &dir).0, 0);
    let (code, from_records, stderr) = arena(&["ratings", "r.jsonl"], &dir);
    assert_eq!(code, 0, "{stderr}");
    let (_, from_pgn, _) = arena(&["ratings", "r.pgn"], &dir);
    let table = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(table(&from_records), table(&from_pgn));
    assert!(from_records.starts_with("6 games from r.jsonl"));
    let (code, _, stderr) = arena(&["ratings", "missing.pgn"], &dir);
    assert_eq!(code, 1);
    assert!(stderr.contains("missing.pgn"), "{stderr}");
}

/// Issue 27, item 5: players that never met (a real PlayOK sample: 302 players in 60 groups)
/// are named in one short line with the way forward, and `--largest-group` rates the largest;
/// a very long name in a group is shortened there.
#[test]
fn ratings_name_separate_groups_briefly_and_rate_the_largest() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let (code, _, stderr) = arena(&["ratings", "playok-sample.pgn"], &data);
    assert_eq!(code, 1);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.len() < 500, "{stderr}");
    assert!(
        stderr.contains("60 groups") && stderr.contains("the largest group has 51 of the 302"),
        "{stderr}"
    );
    assert!(stderr.contains("--largest-group"), "{stderr}");
    let (code, stdout, stderr) = arena(&["ratings", "--largest-group", "playok-sample.pgn"], &data);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("Rated the largest group of players that met: 51 of 302 players"),
        "{stdout}"
    );
    let rows = stdout
        .lines()
        .filter(|l| l.contains(" : ") && l.trim_start().starts_with(|c: char| c.is_ascii_digit()));
    assert_eq!(rows.count(), 51, "{stdout}");

    let dir = scratch("ratings-groups");
    let long = "n".repeat(65_536);
    let mut pgn = String::new();
    for (white, black) in [("a", "b"), ("b", "c"), ("c", "a"), (long.as_str(), "d")] {
        pgn.push_str(&format!(
            "[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"1-0\"]\n\n1-0\n\n"
        ));
    }
    std::fs::write(dir.join("groups.pgn"), pgn).unwrap();
    let (code, _, stderr) = arena(&["ratings", "groups.pgn"], &dir);
    assert_eq!(code, 1);
    assert!(stderr.len() < 500, "{stderr}");
    assert!(
        stderr.contains("the other 2 (the other group: nnnn"),
        "{stderr}"
    );
}

/// Issue 27, item 3: records and PGN from elsewhere may name a player with 65,536 characters
/// and terminal escapes: `ratings`, `report` and `merge` print every table with the name cut
/// and escaped (they ended with exit 101, a formatting width overflow).
#[test]
fn foreign_long_names_print_cut_and_escaped_in_every_table() {
    let dir = scratch("long-names");
    let args = with(&["--rounds", "1", "--out", "r.jsonl", "--pgn", "r.pgn"]);
    assert_eq!(arena(&strs(&args), &dir).0, 0);
    let long = format!("\u{1b}[31m{}", "g".repeat(65_536));
    let forge = |file: &str, quoted: &str| {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(text.contains("\"greedy\""), "{file}");
        std::fs::write(dir.join(file), text.replace("\"greedy\"", quoted)).unwrap();
    };
    forge("r.jsonl", &serde_json::to_string(&long).unwrap());
    forge("r.pgn", &format!("\"{long}\""));
    for args in [
        &["ratings", "r.pgn"][..],
        &["ratings", "r.jsonl"],
        &["report", "r.jsonl", "--out", "r.html"],
        &["merge", "r.jsonl"],
    ] {
        let (code, out, err) = arena(args, &dir);
        assert_eq!(code, 0, "{args:?}: {}", &err[..err.len().min(500)]);
        assert!(!out.contains('\u{1b}'), "{args:?}");
        if args[0] == "ratings" {
            assert!(out.contains("\\u{1b}[31mggg"), "{args:?}");
            assert!(out.lines().all(|l| l.chars().count() < 200), "{args:?}");
        }
    }
}

/// Issue 27, item 10: the arena's PGN escapes `"` and `\` in tags and its reader unescapes
/// them, so `ratings` names the players of a run's PGN as those of its records.
#[test]
fn ratings_of_a_run_s_pgn_and_records_name_players_alike() {
    let dir = scratch("ratings-escapes");
    let args = [
        "--engine",
        r#"name=say "hi""#,
        "cmd=builtin:greedy",
        "--engine",
        r"name=back\slash",
        "cmd=builtin:random",
        "--each",
        "depth=1",
        "--rounds",
        "2",
        "--out",
        "r.jsonl",
        "--pgn",
        "r.pgn",
        "-q",
    ];
    let (code, _, err) = arena(&args, &dir);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(dir.join("r.pgn"))
        .unwrap()
        .contains(r#"[White "say \"hi\""]"#));
    let (_, from_records, _) = arena(&["ratings", "r.jsonl"], &dir);
    let (code, from_pgn, err) = arena(&["ratings", "r.pgn"], &dir);
    assert_eq!(code, 0, "{err}");
    let table = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(table(&from_records), table(&from_pgn));
    assert!(
        from_pgn.contains(r#"say "hi""#) && from_pgn.contains(r"back\slash"),
        "{from_pgn}"
    );
}

/// Issue 16, item 9: the report replays games in the order they finished (the records' order);
/// its Games table lists them by game number (issue 29 item 1) and gives each the place it
/// finished in.
#[test]
fn report_follows_the_finishing_order() {
    let dir = scratch("report");
    let args = with(&["--rounds", "20", "--out", "r.jsonl"]);
    assert_eq!(arena(&strs(&args), &dir).0, 0);
    // The same games, their lines in reverse order (as if they had finished that way).
    let text = std::fs::read_to_string(dir.join("r.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let games: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("{\"event\":\"game\""))
        .collect();
    let mut reversed = format!("{}\n", lines[0]);
    for l in games.iter().rev() {
        reversed.push_str(l);
        reversed.push('\n');
    }
    std::fs::write(dir.join("rev.jsonl"), reversed).unwrap();
    let file = RecordsFile::read(&dir.join("rev.jsonl")).unwrap();
    let expected: Vec<u64> = file.order.iter().map(|i| file.games[i].pair).collect();
    assert_eq!(expected.first(), Some(&19));
    let (code, _, stderr) = arena(&["report", "rev.jsonl", "--out", "page.html"], &dir);
    assert_eq!(code, 0, "{stderr}");
    let html = std::fs::read_to_string(dir.join("page.html")).unwrap();
    let rows = &html[html.find("<section id=\"games\">").unwrap()..];
    // Rows: game number, place finished, pair.
    let rows: Vec<[u64; 3]> = rows
        .split("<tr data-game=")
        .skip(1)
        .map(|r| {
            let cells: Vec<u64> = r
                .split("<td>")
                .skip(1)
                .take(3)
                .map(|c| c[..c.find("</td>").unwrap()].parse().unwrap())
                .collect();
            [cells[0], cells[1], cells[2]]
        })
        .collect();
    let numbers: Vec<u64> = rows.iter().map(|r| r[0]).collect();
    let mut in_game_order = numbers.clone();
    in_game_order.sort();
    assert_eq!(numbers, in_game_order, "the games table in game order");
    let mut by_finish = rows.clone();
    by_finish.sort_by_key(|r| r[1]);
    let pairs: Vec<u64> = by_finish.iter().map(|r| r[2]).collect();
    assert_eq!(
        pairs, expected,
        "the places finished are the records' order"
    );
}

/// Issue 29, item 5: the end-of-run text of a round robin of four ends with the crosstable:
/// rows by points, each cell the row's points/games against the column (numbered by rank),
/// equal to the records' results counted here; a two-engine run prints none (its result block
/// says the same).
#[test]
fn end_of_run_text_prints_the_crosstable_of_the_records() {
    let dir = scratch("crosstable-text");
    let args = [
        "--engine",
        "name=greedy",
        "cmd=builtin:greedy",
        "--engine",
        "name=random",
        "cmd=builtin:random",
        "--engine",
        "name=L1",
        "cmd=builtin:otau",
        "option.Level=1",
        "--engine",
        "name=L3",
        "cmd=builtin:otau",
        "option.Level=3",
        "--each",
        "depth=2",
        "--rounds",
        "2",
        "--seed",
        "5",
        "--out",
        "r.jsonl",
    ];
    let (code, out, err) = arena(&args, &dir);
    assert_eq!(code, 0, "{err}");
    let file = RecordsFile::read(&dir.join("r.jsonl")).unwrap();
    assert_eq!(file.games.len(), 24);
    let counts = pairing_counts(&file);
    let text = format!("{out}{err}");
    let heading =
        "Crosstable (rows by points; a cell is the row's points/games against the column):";
    let at = text
        .find(heading)
        .unwrap_or_else(|| panic!("no crosstable: {text}"));
    let lines: Vec<&str> = text[at..].lines().skip(1).take(5).collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["#", "Engine", "Score", "%", "1", "2", "3", "4"],
        "{text}"
    );
    let rows: Vec<Vec<&str>> = lines[1..]
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let names: Vec<&str> = rows.iter().map(|r| r[1]).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(sorted, ["L1", "L3", "greedy", "random"], "{text}");
    let mut last_points = f64::INFINITY;
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[0], (i + 1).to_string());
        let mut total = [0u64; 3];
        for (j, column) in names.iter().enumerate() {
            let cell = row[4 + j];
            if i == j {
                assert_eq!(cell, "-");
                continue;
            }
            let c = counts[&(row[1].to_string(), column.to_string())];
            assert_eq!(cell, cell_text(&c), "{} against {column}:\n{text}", row[1]);
            for (t, n) in total.iter_mut().zip(c) {
                *t += n;
            }
        }
        assert_eq!(row[2], cell_text(&total), "{text}");
        let points = total[0] as f64 + total[1] as f64 / 2.0;
        assert!(points <= last_points, "rows by points:\n{text}");
        last_points = points;
        let share = 100.0 * points / (total.iter().sum::<u64>() as f64);
        assert_eq!(row[3], format!("{share:.1}"), "{text}");
    }
    // Two engines: the result block, no crosstable.
    let two = [
        "--engine",
        "name=greedy",
        "cmd=builtin:greedy",
        "--engine",
        "name=random",
        "cmd=builtin:random",
        "--each",
        "depth=1",
        "--rounds",
        "2",
    ];
    let (code, out, err) = arena(&two, &dir);
    assert_eq!(code, 0, "{err}");
    let text = format!("{out}{err}");
    assert!(text.contains("Results of greedy vs random"), "{text}");
    assert!(!text.contains("Crosstable"), "{text}");
}

/// Issue 33, item 1: the statistics a run keeps as counts (and `merge` counts from its files one
/// game at a time) equal the summary computed directly from every game of the records, for a
/// round robin with a game left without its partner, a gauntlet and a knockout.
#[test]
fn counted_statistics_equal_the_direct_computation_from_the_records() {
    use otau::arena::matchmaking::merge;
    use otau::arena::records::standings::game_stats;
    let dir = scratch("counts-direct");
    let engines: Vec<String> = ["greedy", "random", "first", "last"]
        .iter()
        .enumerate()
        .flat_map(|(i, name)| {
            let cmd = if i == 0 {
                "builtin:greedy"
            } else {
                "builtin:random"
            };
            [
                "--engine".to_string(),
                format!("name={name}"),
                format!("cmd={cmd}"),
                "depth=1".to_string(),
            ]
        })
        .collect();
    for (kind, rounds) in [("roundrobin", "2"), ("gauntlet", "3"), ("knockout", "2")] {
        let out = dir.join(format!("{kind}.jsonl"));
        let mut args = engines.clone();
        args.extend(
            [
                "--tournament",
                kind,
                "--rounds",
                rounds,
                "--concurrency",
                "2",
                "--seed",
                "3",
                "-q",
                "--out",
                out.to_str().unwrap(),
            ]
            .map(String::from),
        );
        let (code, _, err) = arena(&strs(&args), &dir);
        assert_eq!(code, 0, "{kind}: {err}");
        if kind == "roundrobin" {
            // Game 5 (index 4) removed: its partner, game 6, waits for it, counted as unpaired.
            let text = std::fs::read_to_string(&out).unwrap();
            let kept: String = text
                .lines()
                .filter(|l| !l.starts_with("{\"event\":\"game\",\"index\":4,"))
                .map(|l| format!("{l}\n"))
                .collect();
            assert_ne!(kept.len(), text.len());
            std::fs::write(&out, kept).unwrap();
        }
        let merged = merge::merge(std::slice::from_ref(&out)).unwrap();
        let file = RecordsFile::read(&out).unwrap();
        let games: Vec<otau::stats::GameStats> = file.games.values().map(game_stats).collect();
        let direct = otau::stats::summarize(&games, &merged.standings.options());
        let json = |s: &otau::stats::Summary| serde_json::to_string(s).unwrap();
        assert_eq!(json(&merged.standings.summary()), json(&direct), "{kind}");
        assert_eq!(merged.standings.len(), games.len() as u64);
        if kind == "roundrobin" {
            assert!(
                direct.matches.iter().any(|m| m.unpaired_games == 1),
                "{kind}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
