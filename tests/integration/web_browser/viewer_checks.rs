//! The viewer's checks against the records: game numbers and rows, Giuthi's laps, the crosstable and the evaluation graph.

use super::*;

pub(super) fn numbers(g: &GameRecord) -> Vec<String> {
    vec![
        (g.index + 1).to_string(),
        g.south.clone(),
        g.north.clone(),
        g.result.pgn().to_string(),
        g.termination.describe(),
        (g.opening.moves.len() + g.moves.len()).to_string(),
    ]
}

/// The rows of finished games under `scope` (a CSS prefix): their data-game and cells.
pub(super) fn finished_rows(
    b: &Browser,
    scope: &str,
) -> std::collections::BTreeMap<u64, Vec<String>> {
    let v = b.execute(
        "return Array.from(document.querySelectorAll(arguments[0] + ' .finished-game'), \
         e => [e.getAttribute('data-game'), Array.from(e.children, c => c.textContent)])",
        serde_json::json!([scope]),
    );
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let cells = r[1]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect();
            (r[0].as_str().unwrap().parse().unwrap(), cells)
        })
        .collect()
}

/// A recorded Giuthi run: in the viewer (`otau-arena view`) and the HTML report, a relay move
/// is stepped lap by lap, every lap's board the rules core's, and the move is said in words.
pub(super) fn giuthi_viewer_laps(b: &Browser) {
    let dir = scratch("giuthi-laps");
    let (code, out, err) = arena(
        &[
            "--game",
            "giuthi",
            "--engine",
            "name=L1",
            "cmd=builtin:otau",
            "depth=1",
            "--engine",
            "name=R",
            "cmd=builtin:random",
            "depth=1",
            "--games",
            "2",
            "--max-plies",
            "80",
            "--seed",
            "5",
            "--out",
            "g.jsonl",
            "--report",
            "g.html",
            "-q",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{out}{err}");
    let records = otau::arena::records::RecordsFile::read(&dir.join("g.jsonl")).unwrap();
    let game = records.games.values().next().unwrap();
    let n = game.index + 1;
    let plies = replayed(game);
    // The first engine move of two laps or more, with a recorded score.
    let (ply, token) = game
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| (game.opening.moves.len() + i + 1, m))
        .find(|(p, m)| m.score.is_some() && rules_laps(&plies[p - 1], &m.mv).len() >= 2)
        .map(|(p, m)| (p, m.mv.clone()))
        .expect("a relay move in the game");
    let laps = rules_laps(&plies[ply - 1], &token);
    let view = Served::start(
        ARENA,
        &["view", "g.jsonl", "--addr", "127.0.0.1:0"],
        &dir,
        WAIT,
    );
    for (url, name) in [
        (view.url.clone(), "viewer"),
        (format!("file://{}", dir.join("g.html").display()), "report"),
    ] {
        b.goto(&url);
        click(b, &format!(".finished-game[data-game=\"{n}\"]"));
        click(b, "#first");
        for _ in 0..ply {
            click(b, "#next");
        }
        let seen = board_says(b, "#viewer .board").unwrap();
        assert_eq!((seen.ply, seen.lap), (ply, None), "{name}");
        assert_labelled(&seen, &game.south, &game.north, name);
        assert!(
            b.text_of("#viewer .lap-where")
                .contains(&format!("all {} laps", laps.len())),
            "{name}: {}",
            b.text_of("#viewer .lap-where")
        );
        let caption = b.text_of("#viewer .comment");
        let hole = token.trim_end_matches(['a', 'c']);
        assert!(
            caption.contains(&format!(": hole {hole} ")) && caption.contains(" stones ("),
            "{name}: {caption}"
        );
        step_laps(
            b,
            "#viewer .board",
            "#lap-next",
            "#lap-prev",
            &laps,
            &token,
            (&game.south, &game.north),
            &plies[ply],
            &format!(
                "{name}-giuthi-game-{n}-ply-{ply}-relay-lap-2-of-{}",
                laps.len()
            ),
        );
        // The next ply leaves the laps.
        click(b, "#next");
        let seen = board_says(b, "#viewer .board").unwrap();
        assert_eq!((seen.ply, seen.lap), (ply + 1, None), "{name}");
    }
}

/// The crosstable a page shows (`css`: the element holding it) is the records' results: one
/// cell per ordered pair that played, its text the row engine's points/games and its title the
/// wins, draws and losses, each row's total their sum, rows by points.
pub(super) fn crosstable_is_the_records(
    b: &Browser,
    css: &str,
    counts: &std::collections::BTreeMap<(String, String), [u64; 3]>,
    what: &str,
) {
    let v = b.execute(
        "return Array.from(document.querySelectorAll(arguments[0] + ' table.crosstable tr[data-engine]'), \
         tr => [tr.getAttribute('data-engine'), tr.querySelector('.total').textContent, \
                Array.from(tr.querySelectorAll('td.cell'), td => [td.getAttribute('data-row'), \
                  td.getAttribute('data-column'), td.textContent, td.getAttribute('title')])])",
        serde_json::json!([css]),
    );
    let rows = v.as_array().unwrap();
    let engines: std::collections::BTreeSet<&str> = counts.keys().map(|k| k.0.as_str()).collect();
    assert_eq!(rows.len(), engines.len(), "{what}: rows {v}");
    let mut cells = 0;
    let mut last_points = f64::INFINITY;
    for row in rows {
        let name = row[0].as_str().unwrap();
        let mut total = [0u64; 3];
        for cell in row[2].as_array().unwrap() {
            let (r, c) = (cell[0].as_str().unwrap(), cell[1].as_str().unwrap());
            assert_eq!(r, name, "{what}");
            let counted = counts
                .get(&(r.to_string(), c.to_string()))
                .unwrap_or_else(|| panic!("{what}: {r} and {c} never met: {v}"));
            assert_eq!(
                cell[2].as_str(),
                Some(cell_text(counted).as_str()),
                "{what}: {r} against {c}"
            );
            let title = format!("W-D-L {}-{}-{}", counted[0], counted[1], counted[2]);
            assert_eq!(
                cell[3].as_str(),
                Some(title.as_str()),
                "{what}: {r} against {c}"
            );
            for (t, n) in total.iter_mut().zip(counted) {
                *t += n;
            }
            cells += 1;
        }
        assert_eq!(
            row[1].as_str(),
            Some(cell_text(&total).as_str()),
            "{what}: {name}'s total"
        );
        let points = total[0] as f64 + total[1] as f64 / 2.0;
        assert!(points <= last_points, "{what}: rows by points: {v}");
        last_points = points;
    }
    assert_eq!(cells, counts.len(), "{what}: every pairing's cells");
}

/// The recorded score of each engine move of `g` as the graph must show it: (ply, side letter,
/// the record's score text, the score from South's side: centi-stones or `M<n>`).
pub(super) fn recorded_points(
    g: &otau::arena::records::GameRecord,
) -> Vec<(usize, String, String, String)> {
    use otau::games::{Game, Side};
    let mut line = GameLine::new(AnyGame::from_position(&g.opening.start).unwrap());
    for t in &g.opening.moves {
        line.play_token(t).unwrap();
    }
    let mut out = Vec::new();
    for (i, m) in g.moves.iter().enumerate() {
        let side = line.position().side_to_move();
        line.play_token(&m.mv).unwrap();
        let Some(score) = &m.score else { continue };
        let sign = if side == Side::South { 1 } else { -1 };
        let mut words = score.split(' ');
        let kind = words.next().unwrap();
        let value: i64 = words.next().unwrap().parse().unwrap();
        let south = match kind {
            "mate" => format!("M{}", sign * value),
            _ => (sign * value).to_string(),
        };
        let letter = if side == Side::South { "s" } else { "n" };
        out.push((
            g.opening.moves.len() + i + 1,
            letter.to_string(),
            score.clone(),
            south,
        ));
    }
    out
}

/// The viewer's evaluation graph of game `g` (open in the viewer) has a point for each recorded
/// score, at its ply, from South's side, drawn where its score is (a point inside the range at
/// its height, one beyond it on the edge), and the end marked at the last ply with how the game
/// ended.
pub(super) fn graph_is_the_records(b: &Browser, g: &otau::arena::records::GameRecord, what: &str) {
    let n = g.index + 1;
    let v = b.wait_until(&format!("{what}: game {n}'s graph"), WAIT, |b| {
        let v = b.execute(
            "var s = document.querySelector('#viewer[data-game=\"' + arguments[0] + '\"] svg.eval-graph'); \
             if (!s) return null; \
             var e = s.querySelector('.ending'); \
             return [[s.getAttribute('data-zero-y'), s.getAttribute('data-stone-px'), s.getAttribute('data-clip')], \
               [e.getAttribute('data-ply'), e.getAttribute('data-kind'), e.getAttribute('data-adjudicated')], \
               Array.from(s.querySelectorAll('.point'), p => [p.getAttribute('data-ply'), p.getAttribute('data-side'), \
                 p.getAttribute('data-score'), p.getAttribute('data-south'), p.getAttribute('data-y'), p.getAttribute('class')])]",
            serde_json::json!([n.to_string()]),
        );
        (!v.is_null()).then_some(v).ok_or_else(|| "no graph".to_string())
    });
    let num = |x: &serde_json::Value| x.as_str().unwrap().parse::<f64>().unwrap();
    let (zero, stone, clip) = (num(&v[0][0]), num(&v[0][1]), num(&v[0][2]));
    let plies = g.opening.moves.len() + g.moves.len();
    assert_eq!(
        v[1][0].as_str(),
        Some(plies.to_string().as_str()),
        "{what}: end at the last ply"
    );
    assert_eq!(v[1][1].as_str(), Some(g.termination.kind.name()), "{what}");
    let adjudicated =
        !matches!(g.termination.kind, TerminationKind::Rules) && !g.termination.kind.is_fault();
    assert_eq!(
        v[1][2].as_str(),
        Some(adjudicated.to_string().as_str()),
        "{what}"
    );
    let mut shown: Vec<(usize, String, String, String)> = v[2]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let s = |k: usize| p[k].as_str().unwrap().to_string();
            (s(0).parse().unwrap(), s(1), s(2), s(3))
        })
        .collect();
    // The points are drawn an engine at a time: in ply order, the records' order.
    shown.sort_by_key(|p| p.0);
    let expected = recorded_points(g);
    assert!(
        !expected.is_empty(),
        "{what}: game {n} has no recorded score"
    );
    assert_eq!(shown, expected, "{what}: game {n}'s points");
    for p in v[2].as_array().unwrap() {
        let class = p[5].as_str().unwrap();
        let y = num(&p[4]);
        let south = p[3].as_str().unwrap();
        if class.contains("exact") {
            let want = zero - south.parse::<f64>().unwrap() / 100.0 * stone;
            assert!(
                (y - want).abs() < 0.01,
                "{what}: {p} drawn at {y}, not {want}"
            );
        } else if class.contains("clipped") || class.contains("mate") {
            let up = !south.starts_with('-') && !south.starts_with("M-");
            let edge = if up {
                zero - clip * stone
            } else {
                zero + clip * stone
            };
            assert!(
                (y - edge).abs() < 0.01,
                "{what}: {p} not on the edge {edge}"
            );
        }
    }
}

/// Issue 29, item 5: a round robin of three engines whose scores are real (otau), bounds only
/// and mates (so that one game is adjudicated by `--resign`): the crosstable of the live page
/// at the run's end, of `view` and of the report equals the records; the viewer's graph of a
/// game with bounds and of an adjudicated one has the recorded scores as its points, in `view`
/// and in the report.
pub(super) fn crosstable_and_graph(b: &Browser) {
    let dir = scratch("crosstable");
    let engine = |name: &str, mode: &str| {
        [
            "--engine".to_string(),
            format!("name={name}"),
            format!("cmd={ARENA}"),
            format!("args=fake-engine {mode}"),
        ]
    };
    let mut args: Vec<String> = vec![
        "--engine".into(),
        "name=otau".into(),
        "cmd=builtin:otau".into(),
    ];
    args.extend(engine("bounds", "bounds"));
    args.extend(engine("mated", "mated"));
    // 25 ms a move: the run lasts long enough for the page to load before it ends.
    args.extend(engine("slow", "slow"));
    for a in [
        "--each",
        "depth=2",
        "--rounds",
        "1",
        "--max-plies",
        "60",
        "--resign",
        "movecount=3",
        "score=1000",
        "--openings",
        "plies=2",
        "--seed",
        "3",
        "--out",
        "run.jsonl",
        "--report",
        "run.html",
        "--live",
        "127.0.0.1:0",
    ] {
        args.push(a.into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut run = Served::start(ARENA, &args, &dir, WAIT);
    b.goto(&run.url);
    b.wait_until(
        "the run's end on the live page",
        Duration::from_secs(120),
        |b| {
            let p = b.text_of("#progress");
            p.contains("(run over)").then_some(()).ok_or(p)
        },
    );
    b.wait_until("the run's exit", WAIT, |_| {
        run.exited().ok_or_else(|| "running".to_string())
    });
    let records = otau::arena::records::RecordsFile::read(&dir.join("run.jsonl")).unwrap();
    assert_eq!(records.games.len(), 12);
    let counts = pairing_counts(&records);
    crosstable_is_the_records(b, "#crosstable", &counts, "live page");
    b.execute(
        "document.getElementById('crosstable').scrollIntoView();",
        serde_json::json!([]),
    );
    b.screenshot(&screenshot_path("crosstable-live-page-at-run-end"));

    let with_bounds = records
        .games
        .values()
        .find(|g| {
            g.moves
                .iter()
                .any(|m| m.score.as_deref().is_some_and(|s| s.ends_with("bound")))
                && g.moves.iter().any(|m| {
                    m.score
                        .as_deref()
                        .is_some_and(|s| s.starts_with("cp") && !s.ends_with("bound"))
                })
        })
        .expect("a game of otau against bounds");
    let resigned = records
        .games
        .values()
        .find(|g| {
            g.termination.kind == TerminationKind::Resign
                && g.moves
                    .iter()
                    .any(|m| m.score.as_deref().is_some_and(|s| s.starts_with("mate")))
        })
        .expect("a game the mated engine resigned");
    let view = Served::start(
        ARENA,
        &["view", "run.jsonl", "--addr", "127.0.0.1:0"],
        &dir,
        WAIT,
    );
    for (url, name) in [
        (view.url.clone(), "view"),
        (
            format!("file://{}", dir.join("run.html").display()),
            "report",
        ),
    ] {
        b.goto(&url);
        b.wait_until(&format!("{name}: the crosstable"), WAIT, |b| {
            b.find("#crosstable table.crosstable")
                .ok_or_else(|| "none".to_string())
        });
        crosstable_is_the_records(b, "#crosstable", &counts, name);
        if name == "report" {
            b.execute(
                "document.getElementById('crosstable').scrollIntoView();",
                serde_json::json!([]),
            );
            b.screenshot(&screenshot_path("crosstable-report"));
        }
        for (g, what) in [(with_bounds, "bounds"), (resigned, "resign")] {
            let n = g.index + 1;
            click(b, &format!(".finished-game[data-game=\"{n}\"]"));
            graph_is_the_records(b, g, &format!("{name}, {what}"));
            // The cursor follows the viewer's ply.
            click(b, "#first");
            let cursor = b
                .attrs("#viewer svg.eval-graph .cursor", &["data-ply"])
                .unwrap();
            assert_eq!(cursor[0].as_deref(), Some("0"), "{name}");
            click(b, "#last");
            b.execute(
                "document.getElementById('viewer').scrollIntoView();",
                serde_json::json!([]),
            );
            b.screenshot(&screenshot_path(&format!("graph-{name}-{what}")));
        }
    }
}
