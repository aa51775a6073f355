//! Records read back: contradictions refused with their line, what `ratings` rated, one game number and ply count in every output.

use super::*;

/// The records of `arena(args)` in `dir`, as lines.
fn record_lines(dir: &Path, name: &str) -> Vec<String> {
    String::from_utf8(read(&dir.join(name)))
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// `lines` with line `at` (0-based) edited by `edit` as JSON, written to `name`.
fn write_edited(
    dir: &Path,
    name: &str,
    lines: &[String],
    at: usize,
    edit: impl FnOnce(&mut serde_json::Value),
) {
    let mut v: serde_json::Value = serde_json::from_str(&lines[at]).unwrap();
    edit(&mut v);
    let mut out = lines.to_vec();
    out[at] = serde_json::to_string(&v).unwrap();
    std::fs::write(dir.join(name), out.join("\n") + "\n").unwrap();
}

/// Refused by every command that reads records, with `line N` and `what` in the error.
fn refused_everywhere(dir: &Path, name: &str, line: usize, what: &str) {
    let before = read(&dir.join(name));
    for args in [
        &["--resume", name, "-q"][..],
        &["merge", name],
        &["ratings", name],
        &["report", name, "--out", "page.html"],
    ] {
        let o = arena(args, dir);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!("{name} line {line}: game")) && err.contains(what),
            "{args:?}: {err}"
        );
        assert_eq!(read(&dir.join(name)), before, "{args:?} left the file");
    }
}

/// Issue 27 item 11: records that contradict themselves are refused with the line number: a game
/// recorded twice with different results, a result its moves contradict (replayed by the rules
/// library), a knockout game naming an encounter its bracket does not have.
#[test]
fn records_that_contradict_themselves_are_refused_with_their_line() {
    let dir = scratch("out-contradict");
    // Games that end by the rules (no decided-score adjudication).
    let o = run_in(
        &dir,
        &[
            "--game",
            "bestemshe",
            "--rounds",
            "2",
            "--no-decided-score",
            "--out",
            "r.jsonl",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = record_lines(&dir, "r.jsonl");
    let game: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    assert_eq!(game["termination"]["kind"], "rules", "{game}");
    let flipped = match game["result"].as_str().unwrap() {
        "1-0" => "0-1",
        _ => "1-0",
    };
    // The same game again, with the other result: lost on time after two moves.
    let mut twice = lines.clone();
    let mut other = game.clone();
    other["result"] = flipped.into();
    other["moves"].as_array_mut().unwrap().truncate(2);
    let loser = if flipped == "0-1" { "south" } else { "north" };
    other["termination"] = serde_json::json!({"kind": "time-loss", "side": loser});
    twice.insert(3, serde_json::to_string(&other).unwrap());
    std::fs::write(dir.join("twice.jsonl"), twice.join("\n") + "\n").unwrap();
    refused_everywhere(
        &dir,
        "twice.jsonl",
        4,
        "is recorded a second time, differently (line 2",
    );
    // The same game twice, alike: counted once, as before.
    let mut same = lines.clone();
    same.insert(3, lines[1].clone());
    std::fs::write(dir.join("same.jsonl"), same.join("\n") + "\n").unwrap();
    assert!(arena(&["merge", "same.jsonl"], &dir).status.success());
    // A result the moves contradict.
    write_edited(&dir, "result.jsonl", &lines, 1, |g| {
        g["result"] = flipped.into()
    });
    refused_everywhere(
        &dir,
        "result.jsonl",
        2,
        "but its moves end it by the rules as",
    );
    // A game said to end by the rules whose moves do not end it.
    write_edited(&dir, "short.jsonl", &lines, 1, |g| {
        g["moves"].as_array_mut().unwrap().pop();
    });
    refused_everywhere(
        &dir,
        "short.jsonl",
        2,
        "but its moves do not end it by the rules",
    );
    // A move the rules refuse.
    write_edited(&dir, "illegal.jsonl", &lines, 1, |g| {
        g["moves"][0]["move"] = "9".into();
    });
    refused_everywhere(&dir, "illegal.jsonl", 2, "which the rules refuse");

    // A knockout game naming an encounter that does not exist (3 engines: 2 rounds, round 1
    // has 2 encounters), and one in a run that is no knockout.
    let mut args: Vec<String> = Vec::new();
    for name in ["a", "b", "c"] {
        args.extend([
            "--engine".into(),
            format!("name={name}"),
            format!("cmd={ARENA}"),
        ]);
        args.push("args=fake-engine ok".into());
    }
    args.extend(
        [
            "--each",
            "depth=1",
            "--tournament",
            "knockout",
            "--out",
            "k.jsonl",
            "-q",
        ]
        .map(String::from),
    );
    let o = arena(&args.iter().map(String::as_str).collect::<Vec<_>>(), &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let ko = record_lines(&dir, "k.jsonl");
    write_edited(&dir, "encounter.jsonl", &ko, 1, |g| {
        g["encounter"] = 7.into()
    });
    refused_everywhere(
        &dir,
        "encounter.jsonl",
        2,
        "names encounter 8 of round 1, which has 2",
    );
    // An encounter the bracket has, but not the one it plays this game in.
    write_edited(&dir, "moved.jsonl", &ko, 1, |g| {
        g["encounter"] = (1 - g["encounter"].as_u64().unwrap()).into()
    });
    refused_everywhere(
        &dir,
        "moved.jsonl",
        2,
        "but the knockout bracket plays it in round 1",
    );
    write_edited(&dir, "round.jsonl", &ko, 1, |g| g["round"] = 5.into());
    refused_everywhere(
        &dir,
        "round.jsonl",
        2,
        "names round 6, but this knockout of 3 engines",
    );
    write_edited(&dir, "rr.jsonl", &lines, 1, |g| g["encounter"] = 0.into());
    refused_everywhere(&dir, "rr.jsonl", 2, "the run is no knockout");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 27 item 11: `ratings` says how many games it rated, and which it left out and why.
#[test]
fn ratings_says_what_it_rated_and_what_it_left_out() {
    let dir = scratch("out-rated");
    let game = |w: &str, b: &str, r: &str| {
        format!("[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n\n{r}\n\n")
    };
    let pgn = [
        game("x", "y", "1-0"),
        game("y", "x", "1/2-1/2"),
        game("x", "x", "1-0"),
        game("y", "x", "*"),
    ]
    .concat();
    std::fs::write(dir.join("g.pgn"), pgn).unwrap();
    let o = arena(&["ratings", "g.pgn"], &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with(
            "3 games from g.pgn: 2 rated; left out: 1 of a player against itself (they say \
             nothing of strength), 1 unfinished\n"
        ),
        "{out}"
    );
    std::fs::write(dir.join("own.pgn"), game("x", "x", "1-0")).unwrap();
    let o = arena(&["ratings", "own.pgn"], &dir);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("0 rated; left out: 1 of a player against itself"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 29 item 1: one game number and one ply count in every output. The records' `index` + 1
/// and their opening's plies plus the engines' are what the report's Games table, the report's
/// game viewer, the PGN (`Round` "round.game", `PlyCount`) and the progress lines say of each
/// game. The report's table numbered games in the order they finished and counted plies without
/// the opening.
#[test]
fn every_output_gives_a_game_the_same_number_and_plies() {
    let dir = scratch("out-numbers");
    let mut args = run_args(&[
        "--rounds",
        "3",
        "--concurrency",
        "2",
        "--openings",
        "plies=4",
        "--out",
        "r.jsonl",
        "--pgn",
        "r.pgn",
        "--report",
        "r.html",
    ]);
    args.retain(|a| a != "-q");
    let o = arena(&args.iter().map(String::as_str).collect::<Vec<_>>(), &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    // From the records: game number -> plies, opening included.
    let records = String::from_utf8(read(&dir.join("r.jsonl"))).unwrap();
    let mut want = std::collections::BTreeMap::new();
    for line in records.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let Some(index) = v["index"].as_u64() else {
            continue;
        };
        let opening = v["opening"]["moves"].as_array().unwrap().len();
        assert_eq!(opening, 4, "{line}");
        let plies = opening + v["moves"].as_array().unwrap().len();
        want.insert(index + 1, plies);
    }
    assert_eq!(want.len(), 6);
    let html = String::from_utf8(read(&dir.join("r.html"))).unwrap();
    // The Games table: <tr data-game="N"> rows, plies in the eighth cell.
    let table: std::collections::BTreeMap<u64, usize> = html
        .split("<tr data-game=\"")
        .skip(1)
        .map(|row| {
            let n: u64 = row[..row.find('"').unwrap()].parse().unwrap();
            let cells: Vec<&str> = row
                .split("<td")
                .skip(1)
                .map(|c| &c[c.find('>').unwrap() + 1..c.find("</td>").unwrap()])
                .collect();
            assert_eq!(cells[0], n.to_string(), "{row}");
            (n, cells[7].parse().unwrap())
        })
        .collect();
    assert_eq!(table, want, "the report's Games table");
    // The report's viewer: its games as embedded JSON.
    let start = html.find("id=\"otau-games\">").unwrap() + "id=\"otau-games\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    let viewer: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
    let viewer: std::collections::BTreeMap<u64, usize> = viewer
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["game"].as_u64().unwrap(),
                g["plies"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    assert_eq!(viewer, want, "the report's viewer");
    // The PGN: Round "round.game" and PlyCount.
    let pgn = String::from_utf8(read(&dir.join("r.pgn"))).unwrap();
    let tag = |game: &str, name: &str| -> String {
        let at = game.find(&format!("[{name} \"")).unwrap() + name.len() + 3;
        game[at..at + game[at..].find('"').unwrap()].to_string()
    };
    let pgn: std::collections::BTreeMap<u64, usize> = pgn
        .split("[Event ")
        .skip(1)
        .map(|g| {
            let round = tag(g, "Round");
            let number = round.split('.').nth(1).unwrap().parse().unwrap();
            (number, tag(g, "PlyCount").parse().unwrap())
        })
        .collect();
    assert_eq!(pgn, want, "the PGN");
    // The progress lines name the same numbers.
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &stderr(&o);
    let mut finished: Vec<u64> = out
        .lines()
        .filter_map(|l| l.strip_prefix("Finished game "))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    finished.sort();
    assert_eq!(finished, want.keys().copied().collect::<Vec<_>>(), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
