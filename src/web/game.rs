//! A game as the pages show it: every ply's position string (replayed with the rules from the
//! record's start position), the move that led there, its notation, its engine's score in
//! stones from South's view ([`score_view`]) and, for a Giuthi relay, the board after each lap
//! ([`lap_positions`]).

use serde::Serialize;
use serde_json::{json, Value};

use crate::arena::records::pgn::move_comment;
use crate::arena::records::GameRecord;
use crate::games::{AnyGame, Game, GameLine, Move, Side};
use crate::ugi::wire::{ScoreBound, ScoreKind};

/// Laps of one move the pages get at most: a relay that ends is finite but not bounded by a
/// small number (the longest seen in millions of random games: 111 laps), and each lap is a
/// position string of some 50 bytes, so a move's laps stay under 13 KB. Past it the move says
/// how many laps it had (`laps_total`) and the pages show the first ones.
pub const MAX_LAPS_SHOWN: usize = 256;

/// The board after each lap of a Giuthi relay sowing of `mv` from `before`, as position strings
/// (the rules core's [`crate::games::Giuthi::relay_lap_positions`]: the lap's holes, `before`'s
/// piles and side to move), at most [`MAX_LAPS_SHOWN`], and how many laps the move had. Empty
/// for a move of one lap (its board is the move's own) and for the other games.
pub fn lap_positions(before: &AnyGame, mv: Move) -> (Vec<String>, usize) {
    let AnyGame::Giuthi(g) = before else {
        return (Vec::new(), 0);
    };
    let laps = g.relay_lap_positions(mv);
    if laps.len() < 2 {
        return (Vec::new(), laps.len());
    }
    let total = laps.len();
    let shown = laps
        .iter()
        .take(MAX_LAPS_SHOWN)
        .map(|p| p.to_string())
        .collect();
    (shown, total)
}

/// Puts the laps of `mv` from `before` into the move's JSON object `ply` ([`lap_positions`]:
/// `laps`, and `laps_total` when they were cut); nothing when it has none to show.
pub fn add_laps(ply: &mut Value, before: &AnyGame, mv: Move) {
    let (laps, total) = lap_positions(before, mv);
    if laps.is_empty() {
        return;
    }
    if total > laps.len() {
        ply["laps_total"] = total.into();
    }
    ply["laps"] = laps.into();
}

/// A score as every page shows it: in stones (100 centi-stones), from South's (the first
/// player's) view whichever engine searched, so that one game's scores read the same way from
/// ply to ply and page to page (an engine's `info` score is from its own side's view).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreView {
    /// Centi-stones, South's view (positive: South ahead); absent for a mate score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i64>,
    /// Plies to a proven end, South's view (positive: South wins).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i64>,
    /// `>=` or `<=` (South's view) when the engine sent only a bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<&'static str>,
    /// The words the pages print: `+1.25 stones (South ahead)`, `North wins in 4 plies`,
    /// `>= -50.00 stones (North ahead)`.
    pub text: String,
}

/// `score` as records and `info` lines write it (`cp 35`, `mate -4`, `cp -5000 lowerbound`),
/// from the view of `searcher` (the side to move when it searched), as a [`ScoreView`];
/// `None` for text that is no score.
pub fn score_view(score: &str, searcher: Side) -> Option<ScoreView> {
    let (kind, n, bound) = super::graph::parse_score(score)?;
    let flip = searcher == Side::North;
    let n = if flip { n.checked_neg()? } else { n };
    let bound = bound.map(|b| match (b, flip) {
        (ScoreBound::Lower, false) | (ScoreBound::Upper, true) => ">=",
        (ScoreBound::Upper, false) | (ScoreBound::Lower, true) => "<=",
    });
    let kind = match kind {
        ScoreKind::Cp => "cp",
        ScoreKind::Mate => "mate",
    };
    let prefix = bound.map(|b| format!("{b} ")).unwrap_or_default();
    let (cp, mate, text) = match kind {
        "cp" => {
            let ahead = match n.signum() {
                1 => "South ahead",
                -1 => "North ahead",
                _ => "level",
            };
            let sign = if n > 0 {
                "+"
            } else if n < 0 {
                "-"
            } else {
                ""
            };
            let stones = format!("{}.{:02}", n.unsigned_abs() / 100, n.unsigned_abs() % 100);
            (
                Some(n),
                None,
                format!("{prefix}{sign}{stones} stones ({ahead})"),
            )
        }
        "mate" => {
            let winner = if n > 0 { "South" } else { "North" };
            let plies = n.unsigned_abs();
            let text = match bound {
                None => format!("{winner} wins in {plies} plies"),
                Some(_) => format!("mate {prefix}{n} (South's view)"),
            };
            (None, Some(n), text)
        }
        _ => return None,
    };
    Some(ScoreView {
        cp,
        mate,
        bound,
        text,
    })
}

/// `s` or `n`, as position strings write the side to move.
pub fn side_letter(side: Side) -> &'static str {
    match side {
        Side::South => "s",
        Side::North => "n",
    }
}

/// The game's number in the run as pages and progress lines show it: its index plus one.
pub fn number(g: &GameRecord) -> u64 {
    g.index + 1
}

/// The list entry of a finished game: number, engines, result, how it ended, plies.
pub fn game_summary(g: &GameRecord) -> Value {
    json!({
        "game": number(g),
        "id": g.game,
        "south": g.south,
        "north": g.north,
        "result": g.result.pgn(),
        "termination": g.termination.describe(),
        "plies": g.opening.moves.len() + g.moves.len(),
    })
}

/// The whole game for the viewer: [`game_summary`] and `positions`, one a ply: ply 0 is the
/// record's start position, each later one has the move (`move`, its `side`, its `notation`,
/// `book` for an opening move; for an engine's move its `comment` as the PGN writes it, its
/// `score` as a [`ScoreView`] (South's view, for the captions) and `recorded_score` as the
/// record holds it (the mover's view, typed: `graph::ply_score`, for the evaluation graph),
/// `depth` and `time_ms` when recorded), `laps` for a Giuthi relay ([`lap_positions`]) and the
/// position it reached; `ending` is how the game ended (`graph::ending`). A move the rules
/// refuse (a record changed by hand) ends the list there, with `error` saying why.
pub fn game_view(g: &GameRecord) -> Value {
    let mut view = game_summary(g);
    let mut plies = Vec::new();
    let mut error = None;
    match AnyGame::from_position(&g.opening.start) {
        Ok(start) => {
            let mut line = GameLine::new(start);
            plies.push(json!({ "position": line.position().to_string() }));
            let book = g.opening.moves.iter().map(|m| (m.as_str(), None));
            let played = g.moves.iter().map(|m| (m.mv.as_str(), Some(m)));
            for (token, rec) in book.chain(played) {
                let before = line.position().clone();
                let side = before.side_to_move();
                let mv = match line.play_token(token) {
                    Ok((mv, _)) => mv,
                    Err(e) => {
                        error = Some(format!("move {token}: {e}"));
                        break;
                    }
                };
                let notation = before.record_name(mv);
                let pos = line.position();
                let mut ply = json!({
                    "move": token,
                    "side": side_letter(side),
                    "notation": notation,
                    "position": pos.to_string(),
                });
                add_laps(&mut ply, &before, mv);
                match rec {
                    None => ply["book"] = true.into(),
                    Some(m) => {
                        if let Some(c) = move_comment(m) {
                            ply["comment"] = c.into();
                        }
                        if let Some(score) = super::graph::ply_score(m) {
                            ply["recorded_score"] = score;
                        }
                        if let Some(v) = m.score.as_deref().and_then(|t| score_view(t, side)) {
                            ply["score"] = json!(v);
                        }
                        if let Some(d) = m.depth {
                            ply["depth"] = d.into();
                        }
                        if let Some(t) = m.time_ms {
                            ply["time_ms"] = t.into();
                        }
                    }
                }
                plies.push(ply);
            }
        }
        Err(e) => error = Some(format!("start position: {e}")),
    }
    view["positions"] = plies.into();
    view["ending"] = super::graph::ending(g);
    if let Some(e) = error {
        view["error"] = e.into();
    }
    view
}

/// JSON to put inside an HTML `<script>` element: every `<`, `>` and `&` written as a
/// `\u` escape (they only occur inside JSON strings), so no `</script>` or `<!--` in an engine's
/// name or comment can end the element.
pub fn script_json(value: &Value) -> String {
    let text = value.to_string();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Variant;

    #[test]
    fn scores_are_stones_from_south_s_view_whoever_searched() {
        let text = |s: &str, side| score_view(s, side).map(|v| v.text);
        assert_eq!(
            text("cp 1657", Side::South).as_deref(),
            Some("+16.57 stones (South ahead)")
        );
        // North's own +16.57 is South's -16.57: one perspective on every line.
        let north = score_view("cp 1657", Side::North).unwrap();
        assert_eq!(north.cp, Some(-1657));
        assert_eq!(north.text, "-16.57 stones (North ahead)");
        assert_eq!(
            text("cp -5", Side::South).as_deref(),
            Some("-0.05 stones (North ahead)")
        );
        assert_eq!(
            text("cp 0", Side::North).as_deref(),
            Some("0.00 stones (level)")
        );
        assert_eq!(
            text("mate 4", Side::North).as_deref(),
            Some("North wins in 4 plies")
        );
        assert_eq!(
            text("mate -3", Side::North).as_deref(),
            Some("South wins in 3 plies")
        );
        // A bound turns round with the view: North's "at least" is South's "at most".
        let b = score_view("cp -5000 lowerbound", Side::North).unwrap();
        assert_eq!((b.cp, b.bound), (Some(5000), Some("<=")));
        assert_eq!(b.text, "<= +50.00 stones (South ahead)");
        for bad in ["", "cp", "cp x", "depth 3"] {
            assert_eq!(score_view(bad, Side::South), None, "{bad:?}");
        }
        // Read as the protocol reads an `info` line (graph::parse_score): a word after the
        // score that is no bound is another info token, not part of the score.
        assert_eq!(
            score_view("cp 5 sideways", Side::South).map(|v| v.cp),
            Some(Some(5))
        );
        assert_eq!(
            score_view("cp 5 lowerbound x", Side::South).map(|v| v.bound),
            Some(Some(">="))
        );
        assert_eq!(score_view(&format!("cp {}", i64::MIN), Side::North), None);
    }

    #[test]
    fn a_relay_s_laps_are_the_rules_core_s_boards_ending_in_the_move_s() {
        let start = AnyGame::start(Variant::GIUTHI);
        let mut relays = 0;
        for token in ["1a", "3c", "8c", "5a"] {
            let mv = start.parse_move(token).unwrap();
            let (laps, total) = lap_positions(&start, mv);
            let AnyGame::Giuthi(g) = &start else {
                unreachable!()
            };
            let rings = g.relay_laps(mv);
            assert_eq!(total, rings.len(), "{token}");
            if rings.len() < 2 {
                assert!(laps.is_empty(), "{token}: one lap is the move's own board");
                continue;
            }
            relays += 1;
            assert_eq!(laps.len(), rings.len(), "{token}");
            for (text, ring) in laps.iter().zip(&rings) {
                let lap = AnyGame::from_position(text).unwrap();
                assert_eq!(&lap.state().ring[..16], &ring[..], "{token}: {text}");
                // A lap keeps the mover, the piles and the move number of the position before.
                assert_eq!(lap.side_to_move(), start.side_to_move());
                assert_eq!(lap.state().stores, start.state().stores);
                assert_eq!(lap.state().fullmove, start.state().fullmove);
            }
            // The move's board is the last lap's, less the holes it captured (emptied, their
            // seeds on the mover's pile).
            let mut after = start.clone();
            after.play(mv);
            let last = AnyGame::from_position(laps.last().unwrap()).unwrap();
            let (l, a) = (last.state(), after.state());
            let mut captured = 0u32;
            for i in 0..16 {
                assert!(
                    a.ring[i] == l.ring[i] || a.ring[i] == 0,
                    "{token}: place {i}"
                );
                captured += u32::from(l.ring[i] - a.ring[i]);
            }
            let piles = |b: &crate::games::BoardState| u32::from(b.stores[0] + b.stores[1]);
            assert_eq!(piles(a), piles(l) + captured, "{token}");
        }
        assert!(relays > 0, "the start position has relays");
        let toguz = AnyGame::start(Variant::TOGUZ);
        let mv = toguz.parse_move("7").unwrap();
        assert_eq!(lap_positions(&toguz, mv), (Vec::new(), 0));
    }

    #[test]
    fn script_json_cannot_end_its_element() {
        let v = json!({"name": "</script><script>alert(1)</script><!--&"});
        let s = script_json(&v);
        assert!(
            !s.contains('<') && !s.contains('>') && !s.contains('&'),
            "{s}"
        );
        let back: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
    }
}
