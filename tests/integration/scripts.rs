//! Every script in scripts/ answers `-h` with its usage and exits 0, so none can rot silently
//! into a syntax error.

#[test]
fn every_script_prints_usage() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("sh") {
            continue;
        }
        let syntax = crate::support::command("bash")
            .arg("-n")
            .arg(&path)
            .status()
            .unwrap();
        assert!(syntax.success(), "{}: syntax error", path.display());
        let out = crate::support::command("bash")
            .arg(&path)
            .arg("-h")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}: -h failed", path.display());
        assert!(
            text.lines().count() >= 1 && text.len() > 40,
            "{}: no usage: {text}",
            path.display()
        );
        seen += 1;
    }
    assert!(seen >= 5, "{seen} scripts");
}

/// The scripts find cargo's binaries where cargo puts them: under `CARGO_TARGET_DIR` when it is
/// set (a new user's shell had it, and every script failed on `target/release/...`), so none
/// names `target/release` itself.
#[test]
fn scripts_find_binaries_through_cargo_target_dir() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts");
    let mut using = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("sh") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            assert!(
                !line.contains("target/release"),
                "{}:{}: names target/release; use ${{CARGO_TARGET_DIR:-target}}/release: {line}",
                path.display(),
                n + 1
            );
        }
        using += text.contains("${CARGO_TARGET_DIR:-") as usize;
    }
    assert!(using >= 8, "{using} scripts use CARGO_TARGET_DIR");
}

/// The Python starter bot of `scripts/starter-bot/` (protocol/writing-an-engine.md): its rules
/// agree with otau's, it passes `otau-arena --check`, and it plays whole games against
/// `builtin:random` with no illegal move, under both of its players.
mod starter_bot {
    use std::io::{BufRead, BufReader, Write};
    use std::path::{Path, PathBuf};
    use std::process::{Child, ChildStdin, Stdio};
    use std::sync::mpsc::{channel, Receiver};
    use std::time::Duration;

    use otau::arena::game::openings::random_walk;
    use otau::games::{AnyGame, Game, GameLine, Variant};
    use otau::perft::perft;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    const ARENA: &str = env!("CARGO_BIN_EXE_otau-arena");
    /// A guard against a hung bot only: every answer here takes milliseconds.
    const REPLY: Duration = Duration::from_secs(120);
    /// The games the arena tests run: one board of each rule set and size family.
    const GAMES: [&str; 6] = [
        "toguz-kumalak",
        "toguz-kumalak-7",
        "bestemshe",
        "giuthi",
        "giuthi-6x4",
        "modiar",
    ];

    fn bot_path() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/starter-bot/otau_bot.py")
    }

    /// Whether `python3` runs; the tests say clearly that they did not run when it does not
    /// (`.ci/run` installs it on a machine that lacks it).
    fn have_python() -> bool {
        let ok = crate::support::command("python3")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            eprintln!(
                "SKIPPED: python3 is not installed, so the starter bot was not tested \
                 (.ci/run installs it; apt-get install python3)"
            );
        }
        ok
    }

    /// The bot as a process, its replies read by a thread so every read has a deadline.
    struct Bot {
        child: Child,
        stdin: ChildStdin,
        lines: Receiver<String>,
    }

    impl Bot {
        fn start(args: &[&str]) -> Bot {
            let mut child = crate::support::command("python3")
                .arg(bot_path())
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("python3 starts the bot");
            let stdin = child.stdin.take().unwrap();
            let stdout = child.stdout.take().unwrap();
            let (tx, lines) = channel();
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
            Bot {
                child,
                stdin,
                lines,
            }
        }

        fn send(&mut self, line: &str) {
            writeln!(self.stdin, "{line}").unwrap();
            self.stdin.flush().unwrap();
        }

        /// Sends `line` and returns the next reply, which must start with `prefix`: any other
        /// line before it (an error the bot reported) fails the test with what was sent.
        fn ask(&mut self, line: &str, prefix: &str) -> String {
            self.send(line);
            let reply = self
                .lines
                .recv_timeout(REPLY)
                .unwrap_or_else(|_| panic!("no reply to '{line}'"));
            assert!(
                reply.starts_with(prefix),
                "'{line}' got '{reply}', expected '{prefix}...'"
            );
            reply[prefix.len()..].trim().to_string()
        }
    }

    impl Drop for Bot {
        fn drop(&mut self) {
            let _ = writeln!(self.stdin, "quit");
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    fn names(pos: &AnyGame, line: &GameLine<AnyGame>) -> String {
        let moves: Vec<String> = if line.is_over() {
            Vec::new()
        } else {
            pos.legal_moves()
                .iter()
                .map(|&m| pos.move_name(m))
                .collect()
        };
        if moves.is_empty() {
            "none".to_string()
        } else {
            moves.join(" ")
        }
    }

    /// The bot's rules against otau's on every one of the 40 boards: perft from the start, and
    /// random games played to their end, compared position by position (the position string and
    /// the legal moves after every ply, each a `position fen` of its own) and as whole games
    /// (`position startpos moves ...`: the result, with the repetition rules counted over the
    /// history, and the final score). Perft from a mid-game position covers tuzdiks.
    #[test]
    fn starter_bot_rules_agree_with_otau() {
        if !have_python() {
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(28);
        let mut endings = std::collections::BTreeMap::<String, usize>::new();
        for variant in Variant::all() {
            let id = variant.to_string();
            let mut bot = Bot::start(&["--game", &id]);
            let start = AnyGame::start(variant);
            let depth = if variant.holes() <= 6 { 3 } else { 2 };
            bot.send("position startpos");
            let nodes = bot.ask(&format!("perft {depth}"), "nodes ");
            assert_eq!(
                nodes,
                perft(&start, depth).to_string(),
                "{id}: perft {depth}"
            );
            for _ in 0..2 {
                let line = random_walk(&start, 5000, &mut rng);
                assert!(line.is_over(), "{id}: a random game of 5000 plies");
                // Position by position.
                let mut replay = GameLine::new(start.clone());
                let mut tokens = Vec::new();
                for &mv in line.moves() {
                    let pos = replay.position().clone();
                    let fen = pos.to_string();
                    bot.send(&format!("position fen {fen}"));
                    assert_eq!(bot.ask("query fen", "response "), fen, "{id}");
                    let fresh = GameLine::new(pos.clone());
                    assert_eq!(
                        bot.ask("query moves", "response "),
                        names(&pos, &fresh),
                        "{id}: legal moves in {fen}"
                    );
                    tokens.push(pos.move_name(mv));
                    replay.play(mv).unwrap();
                }
                // The whole game, history and all.
                let fin = line.result().unwrap();
                bot.send(&format!("position startpos moves {}", tokens.join(" ")));
                assert_eq!(
                    bot.ask("query fen", "response "),
                    line.position().to_string(),
                    "{id}: {}",
                    tokens.join(" ")
                );
                assert_eq!(bot.ask("query gameover", "response "), "true", "{id}");
                assert_eq!(
                    bot.ask("query result", "response "),
                    fin.outcome.ugi(),
                    "{id}: {fin:?} after {}",
                    tokens.join(" ")
                );
                assert_eq!(
                    bot.ask("query score", "response "),
                    format!("{}/{}", fin.south, fin.north),
                    "{id}: {fin:?}"
                );
                assert_eq!(bot.ask("query moves", "response "), "none", "{id}");
                *endings.entry(format!("{:?}", fin.reason)).or_default() += 1;
                // Perft from a position in the middle of the game.
                let mid = rng.gen_range(0..line.moves().len());
                let mut pos = start.clone();
                for &mv in &line.moves()[..mid] {
                    pos.play(mv);
                }
                bot.send(&format!("position fen {pos}"));
                let nodes = bot.ask("perft 2", "nodes ");
                assert_eq!(nodes, perft(&pos, 2).to_string(), "{id}: perft 2 of {pos}");
            }
        }
        eprintln!("random games compared, by ending: {endings:?}");
        // The repetition rules were exercised (Giuthi's second occurrence is common).
        assert!(
            endings.get("Repetition").is_some_and(|&n| n > 0),
            "{endings:?}"
        );
    }

    /// Giuthi's sowing that never ends is no legal move, for the bot too
    /// (protocol/rules-giuthi.md, "Moves that never end"), and tuzdik positions parse.
    #[test]
    fn starter_bot_rules_agree_on_the_rare_cases() {
        if !have_python() {
            return;
        }
        let mut bot = Bot::start(&[]);
        for fen in [
            "giuthi-5x4 0,0,0,0,0/2,8,1,2,3 12/12 n 10",
            "toguz-kumalak 3,0,0,12,1,0,16,0,3/2,0,11,0,19,4,0,1,0 43/47 7/2 s 30",
            "modiar 7,7,7/7,7,7 0/0 s 1",
            "modiar 7,7,7/7,7,7 0/0 s 2",
        ] {
            let pos = AnyGame::from_position(fen).unwrap();
            bot.send(&format!("position fen {fen}"));
            assert_eq!(bot.ask("query fen", "response "), fen);
            let line = GameLine::new(pos.clone());
            assert_eq!(
                bot.ask("query moves", "response "),
                names(&pos, &line),
                "{fen}"
            );
            assert_eq!(
                bot.ask("perft 3", "nodes "),
                perft(&pos, 3).to_string(),
                "{fen}"
            );
        }
    }

    /// Runs otau-arena in `dir`: exit code, stdout, stderr.
    fn arena(args: &[String], dir: &Path) -> (i32, String, String) {
        let o = crate::support::command(ARENA)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }

    /// Both players pass `otau-arena --check` on every game family and play 20 games against
    /// `builtin:random` to their end by the rules: no illegal move, no time loss, no crash.
    #[test]
    fn starter_bots_pass_check_and_play_twenty_games() {
        if !have_python() {
            return;
        }
        let dir = std::env::temp_dir().join(format!("otau-starter-bot-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let bot = bot_path().display().to_string();
        for player in ["greedy", "random"] {
            for game in GAMES {
                let s = |x: &str| x.to_string();
                let check = [s("--game"), s(game), s("--check"), bot.clone()];
                let check: Vec<String> = check
                    .into_iter()
                    .chain([s("--player"), s(player)])
                    .collect();
                let (code, out, err) = arena(&check, &dir);
                assert_eq!(code, 0, "{player} {game}: --check failed:\n{out}{err}");
                assert!(out.contains(": COMPLIANT"), "{player} {game}:\n{out}");

                let records = dir.join(format!("{player}-{game}.jsonl"));
                let run: Vec<String> = [
                    "--game",
                    game,
                    "--engine",
                    "name=bot",
                    &format!("cmd={bot}"),
                    &format!("args=--player {player} --seed 7"),
                    "--engine",
                    "name=random",
                    "cmd=builtin:random",
                    "--each",
                    "tc=60+1",
                    "--games",
                    "20",
                    "--no-decided-score",
                    "--concurrency",
                    "2",
                    "--quiet",
                    "--out",
                    &records.display().to_string(),
                ]
                .iter()
                .map(|x| x.to_string())
                .collect();
                let (code, out, err) = arena(&run, &dir);
                assert_eq!(code, 0, "{player} {game}: the run failed:\n{out}{err}");
                let text = std::fs::read_to_string(&records).unwrap();
                let games: Vec<serde_json::Value> = text
                    .lines()
                    .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
                    .filter(|v| v["event"] == "game")
                    .collect();
                assert_eq!(games.len(), 20, "{player} {game}");
                for g in &games {
                    assert_eq!(
                        g["termination"]["kind"], "rules",
                        "{player} {game}: a game did not end by the rules: {g}"
                    );
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
