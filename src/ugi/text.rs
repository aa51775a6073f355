//! How the engine writes positions, search progress and results as protocol text.

use super::wire::{self, InfoKey, ScoreKind};
use crate::eval::Evaluate;
use crate::games::render::render;
use crate::games::{move_names, AnyGame, EndReason, Final, Game, GameLine};
use crate::search::{Info, Score};

/// Nodes per second as engines report it: nodes over elapsed time, 0 before any time has passed.
fn nps(nodes: u64, elapsed_us: u128) -> u64 {
    (nodes as u128 * 1_000_000)
        .checked_div(elapsed_us)
        .map_or(0, |n| n.min(u64::MAX as u128) as u64)
}

/// A count as an `info` number (counts past `i64::MAX` do not happen; they would saturate).
fn count(n: impl TryInto<i64>) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}

/// An `info depth ... pv ...` line; the PV is named from `pos`, the position searched.
pub fn info_line(pos: &AnyGame, info: &Info) -> String {
    let (kind, n) = match info.score {
        Score::Cp(cp) => (ScoreKind::Cp, cp),
        Score::Mate(plies) => (ScoreKind::Mate, plies),
    };
    wire::InfoLine::default()
        .with(InfoKey::Depth, count(info.depth))
        .with(InfoKey::SelDepth, count(info.seldepth))
        .with_score(kind, count(n))
        .with(InfoKey::Nodes, count(info.nodes))
        .with(
            InfoKey::Nps,
            count(nps(info.nodes, info.elapsed.as_micros())),
        )
        .with(InfoKey::Time, count(info.elapsed.as_millis()))
        .with(InfoKey::Hashfull, count(info.hashfull))
        .with_pv(move_names(pos, &info.pv))
        .to_string()
}

/// The final `info` line of a `go` that needed no search (finished game, forced pass):
/// `info depth 0 nodes 0 nps 0 time 0`.
pub fn no_search_info() -> String {
    [InfoKey::Depth, InfoKey::Nodes, InfoKey::Nps, InfoKey::Time]
        .into_iter()
        .fold(wire::InfoLine::default(), |info, key| info.with(key, 0))
        .to_string()
}

/// Why the game ended, in words: the end of [`final_text`]'s line.
pub fn reason_text(reason: EndReason) -> &'static str {
    match reason {
        EndReason::MajorityInStore => "a store holds more than half of the stones",
        EndReason::NoMoves => "the side to move has no legal move",
        EndReason::Blocked => "neither player can move",
        EndReason::Repetition => "the position repeated",
    }
}

/// A one-line account of a finished game: `p1win 82-70 (a store holds more than half ...)`.
pub fn final_text(fin: &Final) -> String {
    format!(
        "{} {}-{} ({})",
        fin.outcome.ugi(),
        fin.south,
        fin.north,
        reason_text(fin.reason)
    )
}

/// The board for humans (`d`): the shared board drawing (also `otau play`'s), then the side to
/// move, the position string, the moves played and the legal moves or the result.
pub fn board(line: &GameLine<AnyGame>) -> Vec<String> {
    let pos = line.position();
    let mut out = vec![format!(
        "{}, move {}, {} ({}) to move",
        pos.variant(),
        pos.fullmove(),
        pos.side_to_move(),
        pos.side_to_move().ugi()
    )];
    out.extend(render(pos, true).lines().map(str::to_string));
    out.push(format!("fen: {pos}"));
    out.push(format!("moves played: {}", line.moves().len()));
    out.push(match line.result() {
        Some(fin) => format!("result: {}", final_text(&fin)),
        None => {
            let moves = pos.legal_moves();
            let names: Vec<String> = moves.iter().map(|&m| pos.move_name(m)).collect();
            format!("legal moves: {}", names.join(" "))
        }
    });
    out
}

/// The `eval` reply: the evaluation's named terms ([`Evaluate::explain`], side to move's view,
/// centi-stones), one line each, the total last.
pub fn eval_lines(pos: &AnyGame) -> Vec<String> {
    let terms = pos.explain();
    let mut out = Vec::with_capacity(terms.len());
    for (name, cp) in terms {
        if name == "total" {
            out.push(format!(
                "total cp {cp} ({} to move's view, 100 cp = one stone)",
                pos.side_to_move()
            ));
        } else {
            out.push(format!("term {name} cp {cp}"));
        }
    }
    out
}
