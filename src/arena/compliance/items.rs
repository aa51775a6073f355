//! The items of the check, as a table ([`ITEMS`]) of named steps run in order on one engine
//! process, as fastchess's compliance checker lists its steps: the handshake and options, the
//! positions and the `query` commands, every kind of `go`, `isready` during a search and `stop`,
//! a finished game, the `info` lines seen, `quit`. Every move and answer is judged with this
//! library's own rules.

use std::thread;
use std::time::{Duration, Instant};

use crate::games::notation::shorten;
use crate::games::{AnyGame, Game, GameLine, Side};
use crate::ugi::wire::{GoCommand, GuiCommand, OptionKind, PositionCommand, Query, Reply, Start};

use super::driver::{
    first_clause, random_line, Checker, Declaration, Step, Verdict, MAX_INFO_LINES,
};
use super::info::check_info;

/// Every item in the order it runs (the names are the report's; `start`, the process itself,
/// comes first, before the table).
pub(super) const ITEMS: &[Step] = &[
    Step::new("handshake", handshake),
    Step::new("isready", isready),
    Step::new("options", options),
    Step::new("game option", game_option),
    Step::new("unknown option", unknown_option),
    Step::new("unknown command", unknown_command),
    Step::new("uginewgame", new_game),
    Step::new("query at start", start_queries),
    Step::new("position moves", position_moves),
    Step::new("position fen", position_fen),
    Step::new("go depth", go_depth),
    Step::new("go nodes", go_nodes),
    Step::new("go movetime", go_movetime),
    Step::new("go clock", go_clock),
    Step::new("go movestogo", go_movestogo),
    Step::new("go combined", go_combined),
    Step::new("isready during search", isready_during_search),
    Step::new("stop", stop).with_previous(),
    Step::new("stop while idle", stop_idle),
    Step::new("query finished game", finished_game_queries),
    Step::new("go in finished game", finished_game_go).with_previous(),
    Step::new("info lines", info_syntax),
    Step::new("quit", quit).always(),
];

/// `ugi` -> `id name`, the option declarations, `ugiok`. Without it nothing else is checked.
fn handshake(c: &mut Checker<'_>) -> Verdict {
    match hello(c) {
        Ok((detail, options)) => {
            c.declarations = options;
            Verdict::Pass(detail)
        }
        Err(e) => {
            c.halt(format!(
                "no UGI handshake ({}): nothing else was checked",
                first_clause(&e)
            ));
            Verdict::Fail(e)
        }
    }
}

/// The handshake's exchange: its detail and the option declarations read.
fn hello(c: &mut Checker<'_>) -> Result<(String, Vec<Declaration>), String> {
    c.engine.send(&GuiCommand::Hello { uci: false })?;
    let before = c
        .engine
        .exact(Reply::UgiOk { uci: false }, c.config.reply_timeout)?;
    let replies: Vec<Reply> = before.iter().map(|l| Reply::parse(l)).collect();
    let name = replies
        .iter()
        .find_map(|r| match r {
            Reply::IdName(name) => Some(name.clone()),
            _ => None,
        })
        .ok_or("no 'id name' line before ugiok")?;
    let options: Vec<Declaration> = replies
        .into_iter()
        .filter_map(|r| match r {
            Reply::Option(d) => Some(Ok(d)),
            Reply::BadOption(b) => Some(Err(b.why)),
            _ => None,
        })
        .collect();
    Ok((
        format!("'{}', {} options", shorten(&name), options.len()),
        options,
    ))
}

fn isready(c: &mut Checker<'_>) -> Verdict {
    let t = Instant::now();
    c.engine
        .fence(c.config.reply_timeout)
        .map(|_| format!("readyok in {} ms", t.elapsed().as_millis()))
        .into()
}

/// Checks every option declaration's syntax, then sets each option to its own default.
fn options(c: &mut Checker<'_>) -> Verdict {
    Verdict::of(|| {
        let mut set = 0;
        for decl in &c.declarations {
            let decl = decl.clone()?;
            if decl.kind == OptionKind::Button {
                continue;
            }
            if let Some(default) = decl.default {
                // The Game option is set separately, to the game under test.
                if decl.name.eq_ignore_ascii_case("game") {
                    continue;
                }
                c.engine.send(&GuiCommand::SetOption {
                    name: decl.name,
                    value: Some(default),
                })?;
                set += 1;
            }
        }
        let before = c.engine.fence(c.config.reply_timeout)?;
        if let Some(err) = before.iter().find(|l| l.contains("error")) {
            return Err(format!(
                "setting an option to its default gave '{}'",
                shorten(err)
            ));
        }
        Ok(format!(
            "{} declarations well-formed, {set} set to their defaults",
            c.declarations.len()
        ))
    })
}

/// The `Game` option set to the game under test, if the engine has one.
fn game_option(c: &mut Checker<'_>) -> Verdict {
    let has_game = c.declarations.iter().any(|d| {
        d.as_ref()
            .is_ok_and(|d| d.name.eq_ignore_ascii_case("game"))
    });
    let game = c.config.game;
    if !has_game {
        return Verdict::Skip(format!("no Game option: assuming the engine plays {game}"));
    }
    let r = c
        .engine
        .send(&GuiCommand::SetOption {
            name: "Game".into(),
            value: Some(game.to_string()),
        })
        .and_then(|_| c.engine.fence(c.config.reply_timeout));
    match r {
        Ok(before) => match before.iter().find(|l| l.contains("error")) {
            Some(e) => Verdict::Fail(format!("'{}'", shorten(e))),
            None => Verdict::Pass(format!("Game set to {game}")),
        },
        Err(e) => Verdict::Fail(e),
    }
}

fn unknown_option(c: &mut Checker<'_>) -> Verdict {
    Verdict::of(|| {
        c.engine.send(&GuiCommand::SetOption {
            name: "NoSuchOptionForSure".into(),
            value: Some("42".into()),
        })?;
        c.engine.fence(c.config.reply_timeout)?;
        Ok("engine still answers".into())
    })
}

fn unknown_command(c: &mut Checker<'_>) -> Verdict {
    Verdict::of(|| {
        c.engine.send(&GuiCommand::Nothing)?;
        c.engine.send_text("xyzzy plugh".into())?;
        c.engine.fence(c.config.reply_timeout)?;
        Ok("blank line and unknown command survived".into())
    })
}

fn new_game(c: &mut Checker<'_>) -> Verdict {
    Verdict::of(|| {
        c.engine.send(&GuiCommand::NewGame)?;
        c.engine.fence(c.config.reply_timeout)?;
        Ok("readyok after uginewgame".into())
    })
}

fn start_queries(c: &mut Checker<'_>) -> Verdict {
    Verdict::of(|| {
        c.engine.send(&GuiCommand::Position(PositionCommand {
            start: Start::StartPos,
            moves: Vec::new(),
        }))?;
        let line = GameLine::new(AnyGame::start(c.config.game));
        c.expect_queries(&line)
    })
}

fn position_moves(c: &mut Checker<'_>) -> Verdict {
    let line = c.line.clone();
    Verdict::of(|| {
        let moves = line.move_names().join(" ");
        c.send_line(&line)?;
        let answers = c.expect_queries(&line)?;
        Ok(format!("after '{moves}': {answers}"))
    })
}

fn position_fen(c: &mut Checker<'_>) -> Verdict {
    let line = c.line.clone();
    Verdict::of(|| {
        let fen = line.position().to_string();
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        c.engine.send(&GuiCommand::Position(PositionCommand {
            start: Start::Fen(fields.clone()),
            moves: Vec::new(),
        }))?;
        let fresh = GameLine::new(line.position().clone());
        c.expect_queries(&fresh)?;
        // And with moves after the position string.
        let moves = fresh.position().legal_moves();
        let mv = moves.first().ok_or("no legal move to play after the fen")?;
        let name = fresh.position().move_name(*mv);
        let mut after = fresh.clone();
        after.play(*mv).map_err(|e| e.to_string())?;
        c.engine.send(&GuiCommand::Position(PositionCommand {
            start: Start::Fen(fields),
            moves: vec![&name],
        }))?;
        c.expect_queries(&after)?;
        Ok(format!(
            "'{fen}' and '... moves {name}' agree with the rules"
        ))
    })
}

fn go_depth(c: &mut Checker<'_>) -> Verdict {
    let go = GoCommand {
        depth: Some(3),
        ..GoCommand::default()
    };
    limited_go(c, &go, 0, None)
}

fn go_nodes(c: &mut Checker<'_>) -> Verdict {
    let go = GoCommand {
        nodes: Some(2000),
        ..GoCommand::default()
    };
    limited_go(c, &go, 0, None)
}

fn go_movetime(c: &mut Checker<'_>) -> Verdict {
    let go = GoCommand {
        movetime: Some(300),
        ..GoCommand::default()
    };
    limited_go(c, &go, 300, Some(300))
}

fn go_clock(c: &mut Checker<'_>) -> Verdict {
    let go = GoCommand {
        p1time: Some(1000),
        p2time: Some(1000),
        p1inc: Some(20),
        p2inc: Some(20),
        ..GoCommand::default()
    };
    limited_go(c, &go, 1000, Some(1020))
}

fn go_movestogo(c: &mut Checker<'_>) -> Verdict {
    let go = GoCommand {
        p1time: Some(1000),
        p2time: Some(1000),
        movestogo: Some(5),
        ..GoCommand::default()
    };
    limited_go(c, &go, 1000, Some(1000))
}

fn go_combined(c: &mut Checker<'_>) -> Verdict {
    let go = GoCommand {
        depth: Some(60),
        nodes: Some(100_000_000),
        movetime: Some(200),
        ..GoCommand::default()
    };
    limited_go(c, &go, 200, Some(200))
}

/// `go` in the line's position: one legal `bestmove`, and no other, within the search timeout
/// plus `wait_ms`. A `go` with a time limit also has `limit_ms`, the time the move may take
/// (plus the reply timeout: a loaded machine is not a fault).
fn limited_go(c: &mut Checker<'_>, go: &GoCommand, wait_ms: u64, limit_ms: Option<u64>) -> Verdict {
    let line = c.line.clone();
    let mover = line.position().side_to_move().ugi();
    let timeout = Duration::from_millis(wait_ms) + c.config.search_timeout;
    let budget = limit_ms.map(Duration::from_millis);
    c.send_line(&line)
        .and_then(|_| {
            let best = c.go_fenced(&line, go, timeout)?;
            if let Some(budget) = budget {
                if best.elapsed > budget + c.config.reply_timeout {
                    return Err(format!(
                        "bestmove after {} ms, the limit was {} ms",
                        best.elapsed.as_millis(),
                        budget.as_millis()
                    ));
                }
            }
            Ok(format!(
                "{go} ({mover} to move): bestmove {} after {} ms",
                best.token,
                best.elapsed.as_millis()
            ))
        })
        .into()
}

/// `go infinite`, then `isready` while it runs: answered, with no `bestmove` yet. The search
/// goes on for [`stop`].
fn isready_during_search(c: &mut Checker<'_>) -> Verdict {
    let line = c.line.clone();
    let t = c.config.reply_timeout;
    Verdict::of(|| {
        c.send_line(&line)?;
        c.engine.send(&GuiCommand::Go(GoCommand {
            infinite: true,
            ..GoCommand::default()
        }))?;
        thread::sleep(Duration::from_millis(100));
        let asked = Instant::now();
        let before = c.engine.fence(t)?;
        if any_bestmove(&before) {
            return Err("bestmove during go infinite before stop".to_string());
        }
        Ok(format!(
            "readyok in {} ms under go infinite",
            asked.elapsed().as_millis()
        ))
    })
}

/// `stop` of the `go infinite` of [`isready_during_search`]: one legal `bestmove`.
fn stop(c: &mut Checker<'_>) -> Verdict {
    let line = c.line.clone();
    let t = c.config.reply_timeout;
    Verdict::of(|| {
        let asked = Instant::now();
        c.engine.send(&GuiCommand::Stop)?;
        let (best, _) = c.engine.bestmove("bestmove after stop", t)?;
        let elapsed = asked.elapsed();
        let token = best.token.as_str();
        let pos = line.position();
        if !pos.parse_move(token).is_ok_and(|mv| pos.is_legal(mv)) {
            return Err(format!(
                "bestmove '{}' after stop is not legal",
                shorten(token)
            ));
        }
        let extra = c.engine.fence(t)?;
        if any_bestmove(&extra) {
            return Err("more than one bestmove after stop".to_string());
        }
        Ok(format!(
            "bestmove {token} {} ms after stop",
            elapsed.as_millis()
        ))
    })
}

fn stop_idle(c: &mut Checker<'_>) -> Verdict {
    Verdict::of(|| {
        c.engine.send(&GuiCommand::Stop)?;
        let before = c.engine.fence(c.config.reply_timeout)?;
        if any_bestmove(&before) {
            return Err("bestmove after stop with no search running".into());
        }
        Ok("no bestmove, still ready".into())
    })
}

/// A random game played to its end: the engine must agree it is over and who won.
fn finished_game_queries(c: &mut Checker<'_>) -> Verdict {
    // Some seeds wander; try a few before giving up.
    let (game, seed) = (c.config.game, c.config.seed);
    let Some(line) = (0..10)
        .map(|k| random_line(game, seed.wrapping_add(k), 5000))
        .find(|line| line.is_over())
    else {
        return Verdict::Skip("no random game ended within 5000 plies".into());
    };
    c.finished = Some(line.clone());
    Verdict::of(|| {
        c.send_line(&line)?;
        let answers = c.expect_queries(&line)?;
        Ok(format!("after {} plies: {answers}", line.moves().len()))
    })
}

/// `go` in the finished game of [`finished_game_queries`]: a `bestmove` all the same.
fn finished_game_go(c: &mut Checker<'_>) -> Verdict {
    let Some(line) = c.finished.clone() else {
        return Verdict::Omitted;
    };
    let depth = GoCommand {
        depth: Some(3),
        ..GoCommand::default()
    };
    let timeout = c.config.search_timeout;
    c.go_fenced(&line, &depth, timeout)
        .map(|best| format!("bestmove {} (the game is over)", best.token))
        .into()
}

/// Every `info` line seen: known keys with well-formed values, a PV of legal moves.
fn info_syntax(c: &mut Checker<'_>) -> Verdict {
    if c.info_lines.is_empty() {
        return Verdict::Fail("no info line during any search".into());
    }
    let mut unknown = Vec::new();
    for (pos, line) in &c.info_lines {
        if let Err(e) = check_info(pos, line, &mut unknown) {
            return Verdict::Fail(format!("'{}': {e}", shorten(line)));
        }
    }
    let mut detail = format!("{} info lines well-formed", c.info_lines.len());
    if !unknown.is_empty() {
        unknown.sort();
        unknown.dedup();
        detail.push_str(&format!(" (unknown keys ignored: {})", unknown.join(" ")));
    }
    Verdict::Pass(detail)
}

fn quit(c: &mut Checker<'_>) -> Verdict {
    let asked = Instant::now();
    if let Err(e) = c.engine.send(&GuiCommand::Quit) {
        return Verdict::Fail(e);
    }
    if c.engine.wait_exit(c.config.reply_timeout) {
        Verdict::Pass(format!(
            "exited {} ms after quit",
            asked.elapsed().as_millis()
        ))
    } else {
        Verdict::Fail(format!(
            "still running {} ms after quit",
            c.config.reply_timeout.as_millis()
        ))
    }
}

/// A `bestmove` reply, judged against the position searched.
struct JudgedMove {
    token: String,
    elapsed: Duration,
}

/// What several items do alike: set a position, ask the `query` commands, search.
impl Checker<'_> {
    /// `query p1turn`, `gameover` and `result` in `line`'s position, each answer as the rules
    /// say.
    fn expect_queries(&mut self, line: &GameLine<AnyGame>) -> Result<String, String> {
        let t = self.config.reply_timeout;
        let p1turn = self.engine.query(Query::P1Turn, t)?;
        let want = if line.position().side_to_move() == Side::South {
            "true"
        } else {
            "false"
        };
        if p1turn != want {
            return Err(format!(
                "query p1turn: 'response {p1turn}', expected {want}"
            ));
        }
        let over = self.engine.query(Query::GameOver, t)?;
        let want = if line.is_over() { "true" } else { "false" };
        if over != want {
            return Err(format!(
                "query gameover: 'response {over}', expected {want}"
            ));
        }
        let result = self.engine.query(Query::Result, t)?;
        let want = line.result().map_or("none", |f| f.outcome.ugi());
        if result != want {
            return Err(format!(
                "query result: 'response {result}', expected {want}"
            ));
        }
        Ok(format!("p1turn {p1turn}, gameover {over}, result {result}"))
    }

    /// `position startpos moves ...` of `line`.
    fn send_line(&mut self, line: &GameLine<AnyGame>) -> Result<(), String> {
        let names = line.move_names();
        self.engine.send(&GuiCommand::Position(PositionCommand {
            start: Start::StartPos,
            moves: names.iter().map(String::as_str).collect(),
        }))
    }

    /// Sends `go <args>` and waits for `bestmove`, checking it is a legal move of `line`'s
    /// position and that the reply has exactly two tokens.
    fn go(
        &mut self,
        line: &GameLine<AnyGame>,
        go: &GoCommand,
        timeout: Duration,
    ) -> Result<JudgedMove, String> {
        let started = Instant::now();
        self.engine.send(&GuiCommand::Go(go.clone()))?;
        let (best, awaited) = self.engine.bestmove("bestmove", timeout)?;
        let elapsed = started.elapsed();
        for l in awaited.before {
            let searching_info = matches!(Reply::parse(&l), Reply::Info(i) if i.is_search());
            if searching_info && self.info_lines.len() < MAX_INFO_LINES {
                self.info_lines.push((line.position().clone(), l));
            }
        }
        if best.token.is_empty() || !best.extra.is_empty() {
            return Err(format!(
                "'{}': bestmove must be followed by exactly one move",
                shorten(&awaited.line)
            ));
        }
        let token = best.token;
        let pos = line.position();
        if !line.is_over() {
            match pos.parse_move(&token) {
                Ok(mv) if pos.is_legal(mv) => {}
                Ok(_) => return Err(format!("bestmove '{}' is not legal", shorten(&token))),
                Err(e) => return Err(format!("bestmove: {e}")),
            }
        }
        Ok(JudgedMove { token, elapsed })
    }

    /// `go` and then a fence: exactly one `bestmove` for the `go`.
    fn go_fenced(
        &mut self,
        line: &GameLine<AnyGame>,
        go: &GoCommand,
        timeout: Duration,
    ) -> Result<JudgedMove, String> {
        let best = self.go(line, go, timeout)?;
        let extra = self.engine.fence(self.config.reply_timeout)?;
        if any_bestmove(&extra) {
            return Err("more than one bestmove for one go".into());
        }
        Ok(best)
    }
}

/// Whether any of `lines` is a `bestmove`.
fn any_bestmove(lines: &[String]) -> bool {
    lines
        .iter()
        .any(|l| matches!(Reply::parse(l), Reply::BestMove(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::compliance::driver::Runs;

    #[test]
    fn the_table_holds_every_item_once_in_the_report_order() {
        // The report's names and order (`start` comes before the table): scripts and
        // tests/integration/ugi_compliance.rs read them.
        let names: Vec<&str> = ITEMS.iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            [
                "handshake",
                "isready",
                "options",
                "game option",
                "unknown option",
                "unknown command",
                "uginewgame",
                "query at start",
                "position moves",
                "position fen",
                "go depth",
                "go nodes",
                "go movetime",
                "go clock",
                "go movestogo",
                "go combined",
                "isready during search",
                "stop",
                "stop while idle",
                "query finished game",
                "go in finished game",
                "info lines",
                "quit",
            ]
        );
        // Only the second half of an exchange runs with the item before it.
        let with_previous: Vec<&str> = ITEMS
            .iter()
            .filter(|s| s.runs == Runs::WithPrevious)
            .map(|s| s.name)
            .collect();
        assert_eq!(with_previous, ["stop", "go in finished game"]);
    }
}
