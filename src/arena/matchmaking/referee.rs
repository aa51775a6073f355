//! The referee: plays one game between two started engines, checking every move with the
//! library's own rules (`GameLine<AnyGame>`), keeping the clocks, and naming how the game ended.

use std::time::Duration;

use crate::arena::config::{Confinement, Overuse};
use crate::arena::engine::client::{EngineSession, Fault, ThinkError, Thought};
use crate::arena::engine::sandbox::cpu::{judge, CpuUse};
use crate::arena::game::adjudication::{stones_held, AdjudicationRules, ScoreWatch, Verdict};
use crate::arena::game::clock::{MoveLimits, SideClock};
use crate::arena::game::openings::Opening;
use crate::arena::output::live::Watch;
use crate::arena::records::{MoveRecord, Termination, TerminationKind};
use crate::games::{AnyGame, Game, GameLine, Move, Outcome, Side};
use crate::tables::Probe;
use crate::ugi::wire::{GoCommand, InfoLine, PositionLine, Start};

/// Adjudication rules beyond the game's own.
#[derive(Clone, Copy, Debug)]
pub struct Adjudication {
    /// `--max-plies`: past this many plies the stones held decide.
    pub max_plies: Option<u32>,
    /// A player with more than half of all stones in their store has won: the game stops there.
    pub decided_score: bool,
    /// `--resign`, `--draw`, `--maxmoves`, `--adjudicate tables`.
    pub rules: AdjudicationRules,
}

/// How long to wait after `stop` for a late `bestmove`, and for `readyok`.
#[derive(Clone, Copy, Debug)]
pub struct Waits {
    /// After `stop`: how long a late `bestmove` may take before the engine counts as broken.
    pub drain: Duration,
    /// After `isready`: how long `readyok` may take.
    pub ping: Duration,
}

/// A finished game, before it gets its place in the schedule.
#[derive(Debug)]
pub struct GameEnd {
    /// The engines' moves, as the records write them.
    pub moves: Vec<MoveRecord>,
    /// The position string at the end.
    pub final_position: String,
    /// Who won.
    pub result: Outcome,
    /// How and why the game ended.
    pub termination: Termination,
    /// Stones each side is credited with (south, north), when stones decided it.
    pub totals: Option<[u32; 2]>,
    /// Engines (by side) that must be restarted before their next game.
    pub faulted: [bool; 2],
    /// Each engine's CPU in the game (by side), where its control group measures it.
    pub cpu: [CpuUse; 2],
}

/// Why a game has no result: the user interrupted it.
#[derive(Debug)]
pub struct Interrupted;

/// Plays `opening` to the end. `engines`, `limits` and `confine` are indexed by side (South
/// first; `confine` for the CPU each may use, `sandbox::cpu`); both
/// engines have had `uginewgame` and answered `isready`. `live`: the live page's state and the
/// game's index there, told every move and every `info` line.
pub fn play(
    opening: &Opening,
    engines: [&mut EngineSession; 2],
    limits: [&MoveLimits; 2],
    confine: [&Confinement; 2],
    adjudication: Adjudication,
    waits: Waits,
    live: Option<(&Watch, u64)>,
) -> Result<GameEnd, Interrupted> {
    let mut line = opening.line();
    let standard = opening.start == AnyGame::start(opening.start.variant());
    let fen = opening.start.to_string();
    let start = if standard {
        Start::StartPos
    } else {
        Start::Fen(fen.split_ascii_whitespace().collect())
    };
    let mut position = PositionLine::new(&start);
    for name in opening.move_names() {
        position.push(&name);
    }
    let timed = limits.iter().any(|l| l.is_timed());
    let mut clocks = [SideClock::new(limits[0].tc), SideClock::new(limits[1].tc)];
    let mut moves = Vec::new();
    let mut faulted = [false, false];
    let mut watch = ScoreWatch::new(adjudication.rules);
    let mut cpu = [CpuUse::default(); 2];
    let cpus = confine.map(|c| c.cpus);

    // Each arm that ends the game breaks with (result, termination, totals).
    let (result, termination, totals) = loop {
        let pos = line.position().clone();
        if let Some(fin) = line.result() {
            let mut t = Termination::of(TerminationKind::Rules);
            t.reason = Some(fin.reason);
            break (fin.outcome, t, Some([fin.south, fin.north]));
        }
        if adjudication.decided_score {
            let total = pos.variant().total_stones();
            if let Some(&side) = Side::BOTH.iter().find(|&&s| 2 * pos.store(s) > total) {
                let mut t = Termination::of(TerminationKind::DecidedScore);
                t.detail = format!("{side} holds {} of {total} stones", pos.store(side));
                let totals = [pos.store(Side::South), pos.store(Side::North)];
                break (Outcome::Win(side), t, Some(totals));
            }
        }
        if adjudication.rules.tables {
            if let Some((result, t)) = by_tables(&pos) {
                break (result, t, None);
            }
        }
        if let Some(max) = adjudication.max_plies {
            if line.moves().len() >= max as usize {
                let totals = stones_held(&pos);
                let mut t = Termination::of(TerminationKind::MaxPlies);
                t.detail = format!("{max} plies");
                let result = Outcome::by_totals(totals[0], totals[1]);
                break (result, t, Some(totals));
            }
        }
        if let Some(max) = adjudication.rules.max_moves {
            if line.moves().len() as u64 >= 2 * u64::from(max) {
                let mut t = Termination::of(TerminationKind::MaxMoves);
                t.detail = format!("{max} moves");
                break (Outcome::Draw, t, None);
            }
        }

        let side = pos.side_to_move();
        let me = side.index();
        let lost = |lost: Lost| {
            (
                Outcome::Win(side.other()),
                Termination::fault(lost.kind, side, lost.detail),
                None,
            )
        };
        let mut on_info = |i: &InfoLine| {
            if let Some((watch, index)) = live {
                watch.info(index, side, i);
            }
        };
        let cpu_before = [engines[0].cpu_time(), engines[1].cpu_time()];
        let asked = ask_move(
            engines[me],
            &position,
            side,
            &mut clocks,
            limits,
            waits.drain,
            &mut on_info,
        );
        let answer = match asked {
            Ok(a) => a,
            Err(TurnError::Interrupted) => return Err(Interrupted),
            Err(TurnError::Lost(l)) => {
                faulted[me] = match l.engine {
                    After::Answered => false,
                    After::Stopped => engines[me].fence(waits.ping).is_err(),
                    After::Broken => true,
                };
                break lost(l);
            }
        };
        let (thought, used_ms) = (answer.thought, answer.used_ms);
        let after = [engines[0].cpu_time(), engines[1].cpu_time()];
        let judged = judge(side, thought.elapsed, cpu_before, after, cpus, &mut cpu);
        let mv = match play_reply(&mut line, &thought.token) {
            Ok(mv) => mv,
            Err(l) => break lost(l),
        };
        let name = pos.move_name(mv);
        if let Some((watch, index)) = live {
            let ply = line.moves().len();
            watch.moved(index, side, &name, line.position(), ply, &clocks);
        }
        position.push(&name);
        moves.push(MoveRecord {
            notation: pos.record_name(mv),
            mv: name,
            time_ms: timed.then_some(used_ms),
            score: thought.info.score_text(),
            depth: thought.info.depth,
            nodes: thought.info.nodes,
            info_dropped: thought.info.dropped,
            cpu_ms: judged.used[me].map(|d| d.as_millis() as u64),
            waiting_cpu_ms: judged.used[1 - me].map(|d| d.as_millis() as u64),
            overuse: (!judged.overuse.is_empty()).then(|| {
                let words: Vec<&str> = judged.overuse.iter().map(|(_, w)| w.as_str()).collect();
                words.join("; ")
            }),
        });
        // `--overuse forfeit`: the first engine over its CPU loses (the waiting one first: it
        // took the mover's time).
        let forfeit = judged
            .overuse
            .iter()
            .find(|(s, _)| confine[s.index()].overuse == Overuse::Forfeit);
        if let Some((offender, words)) = forfeit {
            faulted[offender.index()] = true;
            let t = Termination::fault(TerminationKind::CpuOveruse, *offender, words.clone());
            break (Outcome::Win(offender.other()), t, None);
        }
        // The scores only end a game the move did not end by the rules.
        let score = moves.last().and_then(|m: &MoveRecord| m.score.as_deref());
        let adjudged = watch.after_move(side, pos.fullmove(), score);
        if let Some(verdict) = adjudged.filter(|_| line.result().is_none()) {
            let (result, kind, detail) = match verdict {
                Verdict::Resign { winner, detail } => {
                    (Outcome::Win(winner), TerminationKind::Resign, detail)
                }
                Verdict::Draw { detail } => {
                    (Outcome::Draw, TerminationKind::DrawAdjudication, detail)
                }
            };
            let mut t = Termination::of(kind);
            t.detail = detail;
            break (result, t, None);
        }
    };
    Ok(GameEnd {
        moves,
        final_position: line.position().to_string(),
        result,
        termination,
        totals,
        faulted,
        cpu,
    })
}

/// An engine's move on time, not yet checked with the rules ([`play_reply`]).
#[derive(Debug)]
pub struct Answer {
    /// The `bestmove` and what the engine said with it.
    pub thought: Thought,
    /// The think as charged to the clock, in ms.
    pub used_ms: u64,
}

/// How the mover lost its turn: the termination's kind and detail, and what its process is good
/// for afterwards.
#[derive(Debug)]
pub struct Lost {
    /// What the turn's loss goes down as.
    pub kind: TerminationKind,
    /// The details for the records (the bad token, the exit status, ...).
    pub detail: String,
    /// Whether the engine can play its next game as it is.
    pub engine: After,
}

/// An engine process after a lost turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// It answered (late by its clock, or with a move the rules refuse): it can play on.
    Answered,
    /// No move by the deadline: it was told `stop` and read up to its `bestmove` (at most the
    /// drain wait); whether it can play on is for a fence to say.
    Stopped,
    /// It crashed or stalled: it must be restarted.
    Broken,
}

/// Why a turn has no move.
#[derive(Debug)]
pub enum TurnError {
    /// The mover lost the game by this turn.
    Lost(Lost),
    /// The user interrupted the run: the game has no result.
    Interrupted,
}

/// Asks `engine` for `side`'s move in `position` and judges the time it took: `go` with the
/// mover's limits and the clocks ([`go_command`]), a wait of the allowed time
/// ([`allowed_time`]). No `bestmove` by then loses on time (the engine is told `stop` and
/// drained for at most `drain`), as does one later than the clock or `st` allow (plus the
/// margin); a crash or stall loses by it. The think is charged to the mover's clock. The one
/// judgment of an engine's move, for the arena and for `otau web`.
pub fn ask_move(
    engine: &mut EngineSession,
    position: &PositionLine,
    side: Side,
    clocks: &mut [SideClock; 2],
    limits: [&MoveLimits; 2],
    drain: Duration,
    on_info: &mut dyn FnMut(&InfoLine),
) -> Result<Answer, TurnError> {
    let me = side.index();
    let lim = limits[me];
    let go = go_command(side, clocks, limits);
    let allowed = allowed_time(&clocks[me], lim);
    let lost = |kind, detail, engine| {
        Err(TurnError::Lost(Lost {
            kind,
            detail,
            engine,
        }))
    };
    let thought = match engine.think_watched(position, &go, allowed, on_info) {
        Ok(t) => t,
        Err(ThinkError::Late(elapsed)) => {
            engine.stop_and_drain(drain);
            let detail = format!(
                "no move after {} ms (allowed {} ms)",
                elapsed.as_millis(),
                allowed.as_millis()
            );
            return lost(TerminationKind::TimeLoss, detail, After::Stopped);
        }
        Err(ThinkError::Fault(Fault::Interrupted)) => return Err(TurnError::Interrupted),
        Err(ThinkError::Fault(f)) => return lost(f.kind(), f.to_string(), After::Broken),
    };
    let used_ms = thought.elapsed.as_millis() as u64;
    let on_time = clocks[me].charge(used_ms, lim.timemargin_ms)
        && lim
            .movetime_ms
            .is_none_or(|st| used_ms <= st + lim.timemargin_ms);
    if !on_time {
        let detail = format!(
            "bestmove after {used_ms} ms (allowed {} ms)",
            allowed.as_millis()
        );
        return lost(TerminationKind::TimeLoss, detail, After::Answered);
    }
    Ok(Answer { thought, used_ms })
}

/// Plays the engine's move `token` on `line`, checked with the rules: no move or one the rules
/// refuse loses the turn (the rules' reason is the detail).
pub fn play_reply(line: &mut GameLine<AnyGame>, token: &str) -> Result<Move, Lost> {
    let played = if token.is_empty() {
        Err("bestmove without a move".to_string())
    } else {
        line.play_token(token)
            .map(|(mv, _)| mv)
            .map_err(|e| e.to_string())
    };
    played.map_err(|detail| Lost {
        kind: TerminationKind::IllegalMove,
        detail,
        engine: After::Answered,
    })
}

/// `--adjudicate tables`: the exact result when the position is within the game's tables and
/// they decide it whatever the rules do with endless play. Never waits: tables not yet loaded
/// know nothing (the run loads them before its first game).
fn by_tables(pos: &AnyGame) -> Option<(Outcome, Termination)> {
    if !pos.tables_ready() {
        return None;
    }
    let (decided, what) = match pos.solved() {
        Some(s) => (s.decided?, format!("solved, margin {:+}", s.margin)),
        None => {
            let b = pos.probe_tables()?;
            (
                b.decided()?,
                format!("tables, final total {}..={}", b.low, b.high),
            )
        }
    };
    let result = decided.outcome(pos.side_to_move());
    let mut t = Termination::of(TerminationKind::Tables);
    t.detail = what;
    Some((result, t))
}

/// How long the mover may think before losing on time: the clock (or `st`) plus the margin; the
/// move timeout when neither bounds the search.
fn allowed_time(clock: &SideClock, lim: &MoveLimits) -> Duration {
    let mut ms: Option<u64> = None;
    if clock.tc().is_some() {
        ms = Some(clock.remaining_ms());
    }
    if let Some(st) = lim.movetime_ms {
        ms = Some(ms.map_or(st, |m| m.min(st)));
    }
    Duration::from_millis(match ms {
        Some(m) => m + lim.timemargin_ms,
        None => lim.timeout_ms,
    })
}

/// `go` with every limit of the mover: both clocks when both are clocked (the mover's alone
/// otherwise), `movetime`, `depth`, `nodes`.
fn go_command(side: Side, clocks: &[SideClock; 2], limits: [&MoveLimits; 2]) -> GoCommand {
    let me = side.index();
    let both = clocks.iter().all(|c| c.tc().is_some());
    let ms = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    let clock = |s: Side| {
        let c = &clocks[s.index()];
        c.tc()
            .filter(|_| both || s == side)
            .map(|tc| (ms(c.remaining_ms()), ms(tc.inc_ms)))
    };
    let (p1, p2) = (clock(Side::South), clock(Side::North));
    let lim = limits[me];
    GoCommand {
        p1time: p1.map(|c| c.0),
        p1inc: p1.map(|c| c.1),
        p2time: p2.map(|c| c.0),
        p2inc: p2.map(|c| c.1),
        movestogo: clocks[me].moves_to_go(),
        movetime: lim.movetime_ms.map(ms),
        depth: lim.depth,
        nodes: lim.nodes,
        infinite: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_commands() {
        let a = MoveLimits {
            tc: Some("40/10+0.1".parse().unwrap()),
            ..Default::default()
        };
        let b = MoveLimits {
            depth: Some(4),
            nodes: Some(1000),
            movetime_ms: Some(250),
            ..Default::default()
        };
        let clocks = [SideClock::new(a.tc), SideClock::new(b.tc)];
        assert_eq!(
            go_command(Side::South, &clocks, [&a, &b]).to_string(),
            "go p1time 10000 p1inc 100 movestogo 40"
        );
        assert_eq!(
            go_command(Side::North, &clocks, [&a, &b]).to_string(),
            "go movetime 250 depth 4 nodes 1000"
        );
        let clocks2 = [SideClock::new(a.tc), SideClock::new(a.tc)];
        assert_eq!(
            go_command(Side::North, &clocks2, [&a, &a]).to_string(),
            "go p1time 10000 p1inc 100 p2time 10000 p2inc 100 movestogo 40"
        );
        assert_eq!(allowed_time(&clocks[1], &b), Duration::from_millis(250));
    }

    #[test]
    fn max_plies_counts_own_rows() {
        let pos = AnyGame::start(crate::games::Variant::TOGUZ);
        assert_eq!(stones_held(&pos), [81, 81]);
    }
}
