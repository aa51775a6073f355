//! What the viewer's evaluation graph (`assets/graph.js`) draws, added to a game's view
//! ([`super::game::game_view`]): each engine move's recorded score, typed, and where and how
//! the game ended.
//!
//! A recorded score is the text the arena wrote (`cp 35`, `mate -4`, `cp -5000 lowerbound`,
//! from the mover's side, as the engine sent it); it is read back through the protocol's one
//! parser (`ugi::wire`, then `client::SearchInfo::absorb`, which wrote it), so the graph shows
//! exactly what the records hold.

use serde_json::{json, Value};

use crate::arena::engine::client::SearchInfo;
use crate::arena::records::{GameRecord, MoveRecord, TerminationKind};
use crate::ugi::wire::{Reply, ScoreBound, ScoreKind};

/// A score as records and `info` lines write it (`cp 35`, `mate -4`, `cp -5000 lowerbound`),
/// read through the protocol's one parser (the engine session wrote it the same way): kind,
/// value and bound; `None` for text that is no score.
pub fn parse_score(text: &str) -> Option<(ScoreKind, i64, Option<ScoreBound>)> {
    let Reply::Info(line) = Reply::parse(&format!("info score {text}")) else {
        return None;
    };
    let mut info = SearchInfo::default();
    info.absorb(&line);
    let (kind, value) = info.score.filter(|_| info.dropped == 0)?;
    Some((kind, value, info.bound))
}

/// A move's recorded score as the graph reads it: `{"cp": 35}` or `{"mate": -4}` (the mover's
/// view, as recorded), with `"bound": "lower"` or `"upper"` for a bound; `None` for a move
/// without one (or a score text no engine session writes: a records file changed by hand).
pub fn ply_score(m: &MoveRecord) -> Option<Value> {
    let (kind, value, bound) = parse_score(m.score.as_deref()?)?;
    let mut score = match kind {
        ScoreKind::Cp => json!({ "cp": value }),
        ScoreKind::Mate => json!({ "mate": value }),
    };
    if let Some(bound) = bound {
        score["bound"] = match bound {
            ScoreBound::Lower => "lower",
            ScoreBound::Upper => "upper",
        }
        .into();
    }
    Some(score)
}

/// How the game ended, for the graph's end marker: the termination's name (`kind`), and
/// `adjudicated` when the arena ended it on the engines' scores, the tables or a move limit
/// rather than the rules or a fault. The marker stands at the last ply the view holds.
pub fn ending(g: &GameRecord) -> Value {
    let kind = g.termination.kind;
    json!({
        "kind": kind.name(),
        "adjudicated": is_adjudication(kind),
    })
}

/// The arena's decisions (`protocol/arena.md`, "Adjudication"): neither the game's rules nor
/// an engine's fault ended the game.
fn is_adjudication(kind: TerminationKind) -> bool {
    kind != TerminationKind::Rules && !kind.is_fault()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_score(score: &str) -> MoveRecord {
        MoveRecord {
            mv: "1".into(),
            notation: "1".into(),
            time_ms: None,
            score: Some(score.into()),
            depth: None,
            nodes: None,
            info_dropped: 0,
            cpu_ms: None,
            waiting_cpu_ms: None,
            overuse: None,
        }
    }

    #[test]
    fn recorded_scores_read_back_typed() {
        let read = |s: &str| ply_score(&with_score(s));
        assert_eq!(read("cp 35"), Some(json!({"cp": 35})));
        assert_eq!(read("mate -4"), Some(json!({"mate": -4})));
        assert_eq!(
            read("cp -5000 lowerbound"),
            Some(json!({"cp": -5000, "bound": "lower"}))
        );
        assert_eq!(
            read("cp 40 upperbound"),
            Some(json!({"cp": 40, "bound": "upper"}))
        );
        for bad in [
            "",
            "cp",
            "cp x",
            "mate 0",
            "cp 1 lowerbound upperbound",
            "nodes 5",
        ] {
            assert_eq!(read(bad), None, "{bad}");
        }
        let mut none = with_score("cp 1");
        none.score = None;
        assert_eq!(ply_score(&none), None);
    }

    #[test]
    fn adjudications_are_the_arenas_decisions() {
        use TerminationKind::*;
        for kind in [
            DecidedScore,
            MaxPlies,
            MaxMoves,
            Resign,
            DrawAdjudication,
            Tables,
        ] {
            assert!(is_adjudication(kind), "{kind:?}");
        }
        for kind in [Rules, IllegalMove, TimeLoss, Crash, Stall, Forfeit] {
            assert!(!is_adjudication(kind), "{kind:?}");
        }
    }
}
